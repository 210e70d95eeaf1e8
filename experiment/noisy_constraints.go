package experiment

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/figure"
	"github.com/tether-sc/tether/metrics"
)

// The noisy-constraint study (issue 17, beyond the sources): every
// pairwise method on the same graphs and constraint sets, with a share of
// the constraints flipped (must-link ↔ cannot-link), against the clean
// constraints. Seed 001 Fig. 2 (10% of the labels flipped) is the one
// source that studies wrong supervision.

// noisyRows are the datasets: the four UCI sets of the issue, with the
// graphs of fgpwc-table1 (fgpwcLoad), and two generated sets, smaller than
// fgpwc-table1's (300 points instead of 900) to keep the run within
// budget.
var noisyRows = []fgpwcRow{
	{name: "iris", n: 150, k: 3, sim: "RBF"},
	{name: "wine", n: 178, k: 3, sim: "RBF"},
	{name: "wdbc", n: 569, k: 2, sim: "RBF"},
	{name: "ionosphere", n: 351, k: 2, sim: "RBF"},
	{name: "moons", n: 300, k: 2, sim: "RBF"},
	{name: "xor", n: 300, k: 2, sim: "RBF"},
}

// noisyMethod is one column: a registered pairwise method with its default
// knobs, NJW (the floor), or a robust variant.
type noisyMethod struct {
	key string
	// maxN skips datasets with more nodes (0: no limit).
	maxN int
	// quick: run in quick mode too.
	quick bool
}

// noisyMethods are every registered method whose Uses().Supervision has
// Pairs and which takes a graph (cpca and clpp get the feature rows as
// well), then NJW and the variants: cscap-novote (CSCAP without its
// default vote weights, CSCAP.NoVote: CSCAP's default before issue 17),
// ml-noa-ssc-screen and mcl-noa-ssc-screen (with the constraint screen,
// the Screen knob of issue 17's last step), ml-noa-ssc-noresolve and
// mcl-noa-ssc-noresolve (the methods as published, NoResolve: their
// default before the resolve of contradictory constraints) and the
// +vote columns (the same method on the constraints left by
// constraint.VoteFilter; cscap+vote runs CSCAP{NoVote} on them). l1csc
// is left out of quick mode (1–17 s per run on these fully connected
// graphs).
var noisyMethods = []noisyMethod{
	{key: "njw", quick: true},
	{key: "sl", quick: true},
	{key: "ml-noa-ssc", quick: true},
	{key: "mcl-noa-ssc", quick: true},
	{key: "sscka", quick: true},
	{key: "cscap", maxN: 1000, quick: true},
	{key: "fgpwc", quick: true},
	{key: "fast-ge", quick: true},
	{key: "fast-ge2", quick: true},
	{key: "fast-ge2-bh", quick: true},
	{key: "csc", quick: true},
	{key: "csp", quick: true},
	{key: "cosc"},
	{key: "ccsr", quick: true},
	{key: "opplc", quick: true},
	{key: "cpca", quick: true},
	{key: "clpp", quick: true},
	{key: "l1csc"},
	{key: noisyAutoKey},
	{key: "cscap-novote", maxN: 1000, quick: true},
	{key: "ml-noa-ssc-screen", quick: true},
	{key: "mcl-noa-ssc-screen", quick: true},
	{key: "ml-noa-ssc-noresolve", quick: true},
	{key: "mcl-noa-ssc-noresolve", quick: true},
	{key: "ml-noa-ssc-fastge", quick: true},
	{key: "mcl-noa-ssc-fastge", quick: true},
	{key: "ml-noa-ssc-norefine", quick: true},
	{key: "mcl-noa-ssc-norefine", quick: true},
	{key: "mcl-noa-ssc-refine", quick: true},
	{key: "ml-noa-ssc-fixedrefine", quick: true},
	{key: "mcl-noa-ssc-fixedrefine", quick: true},
	{key: "ml-noa-ssc-fixedref", quick: true},
	{key: "mcl-noa-ssc-fixedref", quick: true},
	{key: "cscap+vote", maxN: 1000, quick: true},
	{key: "fast-ge+vote", quick: true},
	{key: "fgpwc+vote", quick: true},
	{key: "csc+vote", quick: true},
	{key: "cosc+vote"},
	{key: "sl+vote", quick: true},
}

// noisyAutoKey is auto's column (cluster.Auto, the CLI's method when
// constraints are given and none is named). It chooses among the other
// methods, so it is reported beside them and left out of the "best
// default method" verdicts (noisyJudged), whose rule was fixed before
// auto existed; the page says how it fares against the target.
const noisyAutoKey = "auto"

// noisyJudged reports whether a column is among the candidates of the
// page's verdicts on default methods: not NJW (no constraints), not a
// variant (noisyVariant), not auto (noisyAutoKey).
func noisyJudged(key string) bool {
	return key != "njw" && !noisyVariant(key) && key != noisyAutoKey
}

// Protocol constants.
const (
	noisySets     = 5  // constraint sets per dataset and density
	noisyRestarts = 30 // k-means runs, fewest violations kept (as fgpwc-table1)
)

// noisyRates are the flipped shares, in per cent.
var noisyRates = []int{0, 5, 10, 20}

// noisyDensities are the constraint densities: every pair drawn with
// probability d/n (d = 1: the pairs-1/n protocol of seed 003 §5.1).
var noisyDensities = []int{1, 5}

// NoisyConstraints is the noisy-constraint study.
func NoisyConstraints() Experiment {
	return Experiment{
		Name:   "noisy-constraints",
		Title:  "Every pairwise method with 0, 5, 10 and 20% of the constraints flipped (ML ↔ CL)",
		Source: "issue 17 (beyond the sources; seed 001 Fig. 2 flips 10% of labels)",
		Cells:  noisyCells,
		Report: noisyReport,
	}
}

// noisyPlan is the grid of a run.
type noisyPlan struct {
	rows      []fgpwcRow
	methods   []noisyMethod
	missing   []string
	densities []int
	rates     []int
	sets      int
}

func noisyPlanFor(env *Env) noisyPlan {
	p := noisyPlan{rows: noisyRows, densities: noisyDensities, rates: noisyRates, sets: noisySets}
	if env.Quick {
		p.rows = []fgpwcRow{noisyRows[0]}
		p.densities = []int{1}
		p.rates = []int{0, 10}
		p.sets = 2
	}
	for _, m := range noisyMethods {
		if env.Quick && !m.quick {
			continue
		}
		if base := noisyRegistered(m.key); base != "njw" {
			if _, err := cluster.New(base); err != nil {
				p.missing = append(p.missing, base)
				continue
			}
		}
		p.methods = append(p.methods, m)
	}
	return p
}

// noisyVariantSuffixes are the suffixes of the columns that vary a
// method's knobs (see noisyMethodFor).
var noisyVariantSuffixes = []string{"-novote", "-screen", "-noresolve", "-fastge", "-norefine", "-refine", "-fixedrefine", "-fixedref"}

// noisyRegistered returns the registered method behind a column key:
// the key without its "+variant" or noisyVariantSuffixes suffix.
func noisyRegistered(key string) string {
	base, _, _ := strings.Cut(key, "+")
	for _, suffix := range noisyVariantSuffixes {
		base = strings.TrimSuffix(base, suffix)
	}
	return base
}

// noisyVariant reports whether a column is a variant of a method rather
// than a method with its default knobs (the +vote columns, and those
// with a suffix of noisyVariantSuffixes: cscap-novote, the -screen,
// -noresolve, -fastge, -norefine, -refine, -fixedrefine and -fixedref
// columns): variants are left out of the "best default method" verdicts.
func noisyVariant(key string) bool {
	return strings.Contains(key, "+") || slices.ContainsFunc(noisyVariantSuffixes, func(x string) bool { return strings.HasSuffix(key, x) })
}

// noisyBase returns the column a +vote variant is compared with: the same
// method without the filter, with the same knobs (cscap+vote runs
// CSCAP{NoVote}, so its base is cscap-novote).
func noisyBase(v string) string {
	base, _, _ := strings.Cut(v, "+")
	if base == "cscap" {
		return "cscap-novote"
	}
	return base
}

// noisyKey is a cell's key. NJW ignores the constraints: it runs at rate 0
// only. A column whose default changed carries a version in its keys
// (noisyKeyVersion), so that its cached cells are recomputed; CSP's does
// on the rows of more than two classes (cspColumn).
func noisyKey(name string, dens int, method string, rate, rep int) string {
	if v, ok := noisyKeyAlias[method]; ok {
		method = v
	} else if v, ok := noisyKeyVersion[method]; ok {
		method += "@" + v
	} else {
		method = cspColumn(method, noisyClasses(name))
	}
	return fmt.Sprintf("%s/d%d/%s/f%d/%d", name, dens, method, rate, rep)
}

// noisyClasses is the number of classes of the row named name of
// noisyRows (fgpwcClasses), 0 for another name.
func noisyClasses(name string) int {
	for _, r := range noisyRows {
		if r.name == name {
			return fgpwcClasses(r)
		}
	}
	return 0
}

// noisyKeyVersion marks the columns whose definition changed after their
// first cells were cached: ml-noa-ssc and mcl-noa-ssc resolve
// contradictory constraints by default since issue 17's last step (their
// cells before, as published, are the -noresolve columns' figures). Their
// reference is CSCAP; for a while it was FAST-GE, noisy-dev's pick, under
// the version "resolve-fastge" (the -fastge columns now).
//
// Since issue 17's refinement became their default (cluster.RefineDefault,
// chosen by noisy-dev's second round) their cells carry the version
// "resolve-refine", and their cells before it, the resolve alone, are the
// -norefine columns' (noisyKeyAlias).
//
// Since noisy-dev's third round made the refinement's cross-validation
// their default (cluster.RefineCVDefault) their cells carry the version
// "resolve-refine-cv", and their cells before it, the fixed λ, are the
// -fixedrefine columns' (noisyKeyAlias).
//
// Version "resolve-refine-cv2" has the same figures as "resolve-refine-cv"
// and records the cross-validation's choice (refine_choice).
//
// Since noisy-dev's fourth round made the cross-validation choose the
// resolve's reference too (cluster.ReferenceCVDefault) their cells carry
// the version "resolve-refine-cv-ref", and their cells before it, with
// CSCAP's reference, are the -fixedref columns' (noisyKeyAlias).
//
// Since sscka-dev made the commute-time kernel SSC:KA's default, sscka's
// cells carry the version "commute"; those before (ratio association,
// the thesis's kernel) stay in the cache under the plain key.
//
// Since fastge2bh-dev made both fast-ge2-bh's default variant, its cells
// carry the version "both", and auto's, which has it among its
// candidates, "bhboth"; the cells before (variant LN) stay in the cache
// under the plain keys.
var noisyKeyVersion = map[string]string{"ml-noa-ssc": "resolve-refine-cv-ref", "mcl-noa-ssc": "resolve-refine-cv-ref", "sscka": "commute", "fast-ge2-bh": "both", noisyAutoKey: "bhboth"}

// noisyKeyAlias names the cached cells of a column computed under another
// column's name: the -norefine columns (Refine = −1) are the default
// columns' cells from before the refinement, keyed "…@resolve", and the
// -fixedrefine columns (RefineFixed) those from before its
// cross-validation, keyed "…@resolve-refine", and the -fixedref columns
// (ReferenceFixed) those from before the choice of reference, keyed
// "…@resolve-refine-cv2".
var noisyKeyAlias = map[string]string{
	"ml-noa-ssc-norefine": "ml-noa-ssc@resolve", "mcl-noa-ssc-norefine": "mcl-noa-ssc@resolve",
	"ml-noa-ssc-fixedrefine": "ml-noa-ssc@resolve-refine", "mcl-noa-ssc-fixedrefine": "mcl-noa-ssc@resolve-refine",
	"ml-noa-ssc-fixedref": "ml-noa-ssc@resolve-refine-cv2", "mcl-noa-ssc-fixedref": "mcl-noa-ssc@resolve-refine-cv2",
}

// noisyRuns reports whether method m runs on row r.
func noisyRuns(r fgpwcRow, m noisyMethod) bool {
	return m.maxN == 0 || fgpwcSize(r) <= m.maxN
}

func noisyCells(env *Env) ([]Cell, error) {
	plan := noisyPlanFor(env)
	root := env.dataRoot()
	loader := newFGPWCLoader(root, env.Seed)
	var cells []Cell
	for _, r := range plan.rows {
		if !fgpwcAvailable(r, root) {
			continue
		}
		for _, d := range plan.densities {
			for _, m := range plan.methods {
				if !noisyRuns(r, m) {
					continue
				}
				for _, rate := range plan.rates {
					if m.key == "njw" && rate > 0 {
						continue
					}
					for rep := 0; rep < plan.sets; rep++ {
						r, d, m, rate, rep := r, d, m, rate, rep
						cells = append(cells, Cell{
							Key:  noisyKey(r.name, d, m.key, rate, rep),
							Data: r.data(),
							Run: func(ctx context.Context) (Values, error) {
								return noisyRun(ctx, loader, r, d, m.key, rate, rep, env.Seed)
							},
						})
					}
				}
			}
		}
	}
	if !env.Quick {
		for _, r := range plan.rows {
			if !fgpwcAvailable(r, root) || !noisyTargetRow(r.name) {
				continue
			}
			for _, d := range plan.densities {
				key := noisyReplicated[d]
				for _, rate := range []int{0, 10} {
					for rep := plan.sets; rep < plan.sets+noisyReplicationSets; rep++ {
						r, d, rate, rep := r, d, rate, rep
						cells = append(cells, Cell{
							Key:  noisyKey(r.name, d, key, rate, rep),
							Data: r.data(),
							Run: func(ctx context.Context) (Values, error) {
								return noisyRun(ctx, loader, r, d, key, rate, rep, env.Seed)
							},
						})
					}
				}
			}
		}
	}
	return cells, nil
}

// noisyReplicationSets is the number of further constraint sets, not used
// by the tables (sets noisySets, …, noisySets+29 of the same generator),
// on which issue 17's target is measured again for the method the
// target's rule names at each density (noisyReplicated), at 0% and 10%
// flipped, on iris, wine and wdbc. Fixed before these cells were computed
// (see noisyReplication): with 5 sets the 5/n loss on iris (0.058) was
// within one standard error (≈ 0.013) of the target's 0.05.
const noisyReplicationSets = 30

// noisyReplicated is the method replicated at each density: the target
// rule's pick on this page when the replication was set up (the default
// method with the highest mean clean ARI on iris, wine and wdbc). The
// report says so if the rule now names another.
var noisyReplicated = map[int]string{1: "cscap", 5: "mcl-noa-ssc"}

// noisyTargetRow reports whether a dataset is one of the target's three.
func noisyTargetRow(name string) bool {
	return name == "iris" || name == "wine" || name == "wdbc"
}

// noisyConstraints returns constraint set rep of a dataset at density d
// (every pair with probability d/n, labelled by the ground truth), the
// same set with rate% of its pairs flipped, and the indices flipped. The
// flipped pairs are a prefix of one seeded permutation of the pairs, so
// the sets are nested: the pairs flipped at 5% are flipped at 10% and 20%
// too, and every rate is compared with the same clean set.
// (constraint.FlipPairs draws each rate's subset independently.)
func noisyConstraints(ctx context.Context, truth []int, name string, d, rate, rep int, seed uint64) (clean, noisy *constraint.Set, flipped int, err error) {
	n := len(truth)
	clean, err = constraint.BernoulliPairsContext(ctx, truth, float64(d)/float64(n), rand.NewPCG(seed, seedStream("noisy", name, strconv.Itoa(d), strconv.Itoa(rep))))
	if err != nil {
		return nil, nil, 0, err
	}
	m := len(clean.Pairs)
	perm := rand.New(rand.NewPCG(seed, seedStream("noisy-flip", name, strconv.Itoa(d), strconv.Itoa(rep)))).Perm(m)
	flipped = int(math.Round(float64(rate) / 100 * float64(m)))
	noisy = &constraint.Set{N: clean.N, Pairs: append([]constraint.Pair(nil), clean.Pairs...)}
	for _, t := range perm[:flipped] {
		p := &noisy.Pairs[t]
		if p.Kind == constraint.MustLink {
			p.Kind = constraint.CannotLink
		} else {
			p.Kind = constraint.MustLink
		}
	}
	return clean, noisy, flipped, nil
}

// Failure codes of a cell whose method returned an error: the cell is
// kept (figure "failed") so the report can count and explain it.
const (
	noisyFailConflict  = 1 // constraint.ErrConflict: contradictory constraints refused
	noisyFailNumerical = 2 // cluster.ErrNumerical (e.g. no feasible vector)
	noisyFailInvalid   = 3 // cluster.ErrInvalid
	noisyFailOther     = 4
)

func noisyFailCode(err error) float64 {
	switch {
	case errors.Is(err, constraint.ErrConflict):
		return noisyFailConflict
	case errors.Is(err, cluster.ErrNumerical):
		return noisyFailNumerical
	case errors.Is(err, cluster.ErrInvalid):
		return noisyFailInvalid
	}
	return noisyFailOther
}

// noisyMethodFor returns the method of a column with its default knobs.
func noisyMethodFor(key string, n int) (cluster.Method, error) {
	switch key {
	case "njw":
		return cluster.NJW{}, nil
	case "cosc", "cosc+vote":
		// Budget, as fgpwc-table1: above 500 nodes (wdbc) only the
		// consistent and spectral starts (cluster.COSC.Starts = −1).
		c := cluster.COSC{}
		if n > 500 {
			c.Starts = -1
		}
		return c, nil
	case "cscap-novote", "cscap+vote":
		// The +vote column filters first and then runs CSCAP without its
		// own vote weights, so that it measures VoteFilter alone.
		return cluster.CSCAP{NoVote: true}, nil
	case "ml-noa-ssc-screen":
		return cluster.MLNOASSC{Screen: true}, nil
	case "mcl-noa-ssc-screen":
		return cluster.MCLNOASSC{Screen: true}, nil
	case "ml-noa-ssc-noresolve":
		return cluster.MLNOASSC{NoResolve: true}, nil
	case "mcl-noa-ssc-noresolve":
		return cluster.MCLNOASSC{NoResolve: true}, nil
	case "ml-noa-ssc-fastge": // computed before the refinement: it stays off
		return cluster.MLNOASSC{Reference: cluster.ReferenceFastGE, Refine: -1, RefineFixed: true}, nil
	case "mcl-noa-ssc-fastge":
		return cluster.MCLNOASSC{Reference: cluster.ReferenceFastGE, Refine: -1, RefineFixed: true}, nil
	case "ml-noa-ssc-norefine":
		return cluster.MLNOASSC{Refine: -1, RefineFixed: true}, nil
	case "mcl-noa-ssc-norefine":
		return cluster.MCLNOASSC{Refine: -1, RefineFixed: true}, nil
	case "mcl-noa-ssc-refine":
		return cluster.MCLNOASSC{Refine: noisyRefineLambda, RefineNJW: true, RefineFixed: true}, nil
	case "ml-noa-ssc-fixedrefine": // the default before noisy-dev's round 3
		return cluster.MLNOASSC{RefineFixed: true}, nil
	case "mcl-noa-ssc-fixedrefine":
		return cluster.MCLNOASSC{RefineFixed: true}, nil
	case "ml-noa-ssc-fixedref": // the default before noisy-dev's round 4
		return cluster.MLNOASSC{ReferenceFixed: true}, nil
	case "mcl-noa-ssc-fixedref":
		return cluster.MCLNOASSC{ReferenceFixed: true}, nil
	}
	return cluster.New(noisyRegistered(key))
}

// noisyRefineLambda is the weight λ of the mcl-noa-ssc-refine column
// (MCLNOASSC.Refine, distances in NJW's embedding: RefineNJW): the best
// mean loss of MCL-NOA-SSC in the first round of the noisy-dev suite,
// whose criterion (the worst loss first) kept the refinement off. The column reports what the refinement does here; nothing
// is chosen by it.
const noisyRefineLambda = 8

// noisyRun runs one method on one (possibly flipped) constraint set.
func noisyRun(ctx context.Context, loader *fgpwcLoader, r fgpwcRow, d int, key string, rate, rep int, seed uint64) (Values, error) {
	inst, err := loader.get(ctx, r)
	if err != nil {
		return nil, err
	}
	m, err := noisyMethodFor(key, inst.g.N())
	if err != nil {
		return nil, err
	}
	return noisyRunOn(ctx, inst, r.name, d, key, m, rate, rep, seed)
}

// noisyRunOn runs method m (the column key: its "+variant" and whether it
// is NJW) on constraint set rep of dataset name at density d, rate%
// flipped, on the graph of inst (noisyRun's protocol, shared by
// noisy-dev).
func noisyRunOn(ctx context.Context, inst *fgpwcInstance, name string, d int, key string, m cluster.Method, rate, rep int, seed uint64) (Values, error) {
	clean, noisy, flipped, err := noisyConstraints(ctx, inst.truth, name, d, rate, rep, seed)
	if err != nil {
		return nil, err
	}
	s := &cluster.Settings{Seed: seed + uint64(rep), Restarts: noisyRestarts}
	base, robust, _ := strings.Cut(key, "+")
	given := noisy
	v := Values{"constraints": float64(len(noisy.Pairs)), "flipped": float64(flipped)}
	rep0, err := constraint.CheckContext(ctx, noisy)
	if err != nil {
		return nil, err
	}
	v["conflicts"] = float64(len(rep0.Conflicts))
	t0 := time.Now()
	if robust != "" {
		if given, err = noisyFilter(ctx, inst, noisy, robust); err != nil {
			return nil, err
		}
		v["kept"] = float64(len(given.Pairs))
		var wrong int
		for i := range given.Pairs {
			if !noisyTrue(inst.truth, given.Pairs[i]) {
				wrong++
			}
		}
		v["kept_wrong"] = float64(wrong)
	}
	p := &cluster.Problem{Graph: inst.g, K: inst.k, Constraints: given, Features: inst.x, Regularize: publishedLaplacian, Disconnected: publishedDisconnected}
	if inst.libDefaults {
		p.Regularize, p.Disconnected = graph.Regularization{}, cluster.DisconnectedAttach
	}
	if base == "njw" {
		p.Constraints = nil
	}
	res, err := cluster.Run(ctx, m, p, s)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		v["failed"] = noisyFailCode(err)
		return v, nil
	}
	v["seconds"] = time.Since(t0).Seconds()
	if rep, ok := res.Report.(*cluster.RefineReport); ok {
		// The refinement the cross-validation chose: its index in
		// cluster.RefineCVSettings (0: the default λ kept).
		v["refine_choice"] = float64(slices.Index(cluster.RefineCVSettings(), rep.Chosen))
	}
	all, err := metrics.ARI(inst.truth, res.Labels)
	if err != nil {
		return nil, err
	}
	v["ari"] = fgpwcUnconstrainedARI(inst.truth, res.Labels, clean)
	v["ari_all"] = all
	ml, cl := constraint.Violations(noisy, res.Labels)
	v["violations"] = float64(ml + cl)
	ml, cl = constraint.Violations(clean, res.Labels)
	v["violations_true"] = float64(ml + cl)
	return v, nil
}

// noisyTrue reports whether pair p agrees with the ground truth.
func noisyTrue(truth []int, p constraint.Pair) bool {
	return (truth[p.I] == truth[p.J]) == (p.Kind == constraint.MustLink)
}

// noisyFilter applies a robust preprocessing to the given constraints.
// "vote" is constraint.VoteFilter with its defaults (K = 10, margin 0.5),
// Consistent, and TwoWay when k = 2, on the graph's weights (RBF, in
// [0, 1]).
func noisyFilter(ctx context.Context, inst *fgpwcInstance, s *constraint.Set, how string) (*constraint.Set, error) {
	switch how {
	case "vote":
		out, _, err := constraint.VoteFilter(ctx, s, inst.g.Weight, constraint.VoteOptions{Consistent: true, TwoWay: inst.k == 2})
		return out, err
	}
	return nil, fmt.Errorf("noisy-constraints: unknown robust variant %q", how)
}

// noisyStat is the mean and standard deviation of a figure over sets.
type noisyStat struct {
	mean, std float64
	count     int
}

func noisyStatOf(xs []float64) noisyStat {
	m, s := meanStdDev(xs)
	return noisyStat{mean: m, std: s, count: len(xs)}
}

func (s noisyStat) String() string {
	if s.count == 0 {
		return "–"
	}
	return fmt.Sprintf("%.3f ± %.3f", s.mean, s.std)
}

// noisyCollect returns the values of a figure over the sets of a cell
// group that ran, and the number of sets that failed.
func noisyCollect(results map[string]Values, name string, d int, key string, rate, sets int, fig string) (xs []float64, failed int) {
	if key == "njw" {
		rate = 0
	}
	for rep := 0; rep < sets; rep++ {
		v, ok := results[noisyKey(name, d, key, rate, rep)]
		if !ok {
			continue
		}
		if v["failed"] > 0 {
			failed++
			continue
		}
		if x, ok := v[fig]; ok {
			xs = append(xs, x)
		}
	}
	return xs, failed
}

// noisyLoss returns the paired loss ARI(clean) − ARI(rate) over the sets
// where both ran.
func noisyLoss(results map[string]Values, name string, d int, key string, rate, sets int, fig string) noisyStat {
	return noisyLossOver(results, name, d, key, rate, 0, sets, fig)
}

// noisyLossOver is noisyLoss over the sets from, …, to−1.
func noisyLossOver(results map[string]Values, name string, d int, key string, rate, from, to int, fig string) noisyStat {
	if key == "njw" {
		return noisyStatOf([]float64{0})
	}
	var xs []float64
	for rep := from; rep < to; rep++ {
		a, oka := results[noisyKey(name, d, key, 0, rep)]
		b, okb := results[noisyKey(name, d, key, rate, rep)]
		if !oka || !okb || a["failed"] > 0 || b["failed"] > 0 {
			continue
		}
		xs = append(xs, a[fig]-b[fig])
	}
	return noisyStatOf(xs)
}

func noisyReport(env *Env, results map[string]Values) (*Output, error) {
	plan := noisyPlanFor(env)
	rows, absent := fgpwcPresent(plan.rows, env.dataRoot())
	var md strings.Builder
	writePageHead(&md, env, "Noisy constraints: every pairwise method with flipped constraints", "flock /work/bench.lock go run ./cmd/tether repro -fresh noisy-constraints", fmt.Sprintf("iris only, density 1/n, 0 and 10%% flipped, %d constraint sets, COSC left out.", plan.sets))
	var rates []string
	for _, x := range plan.rates {
		rates = append(rates, fmt.Sprintf("%d%%", x))
	}
	fmt.Fprintf(&md, "Protocol (ours; issue 17). Graphs as in fgpwc-table1: features min–max scaled, full RBF graph with local σ (7th neighbour). "+
		"Datasets: iris, wine, wdbc, ionosphere, and two generated sets of 300 points (synth moons, noise 0.1; synth xor, noise 0.3), "+
		"smaller than fgpwc-table1's 900 for the budget. "+
		"For each dataset and density d ∈ {%s}, %d clean constraint sets in which every pair is drawn with probability d/n "+
		"(d = 1 is the pairs-1/n protocol of seed 003 §5.1, d = 5 the 5× denser one; labels from the ground truth). "+
		"Each clean set is then flipped at %s: the flipped pairs (must-link ↔ cannot-link) are the first round(rate·m) of one seeded "+
		"permutation of the set's m pairs, so the noisy sets are nested and every rate is compared with the same clean set (paired). "+
		"Every method runs with its default knobs (cluster.New) and %d k-means runs, keeping the run its default rule keeps: the fewest violations of the constraints "+
		"it was given for fgpwc, fast-ge, cscap, csp and ccsr, the lowest distortion for sl, csc, fast-ge2, fast-ge2-bh, the NOA-SSC methods, cpca and clpp "+
		"(unlike fgpwc-table1, where SL keeps the fewest violations), the lowest penalized objective for sscka; cosc, opplc and l1csc end without k-means "+
		"(l1csc: the sign of its vector, recursively for k > 2). "+
		"**The tables show ARI over the unconstrained pairs** (as fgpwc-table1: the pairs of the clean set are left out of the count; the "+
		"flipped set has the same pairs); the CSV has the ARI over all pairs too (ari_all). "+
		"Loss = ARI(clean) − ARI(flipped), paired by constraint set, mean ± standard deviation over the %d sets. Base seed %d.\n\n",
		strings.Trim(strings.Join(strings.Fields(fmt.Sprint(plan.densities)), ", "), "[]"), plan.sets, strings.Join(rates, ", "),
		noisyRestarts, plan.sets, env.Seed)
	fmt.Fprintf(&md, "Methods: every registered method that takes a graph and pairwise constraints (Uses().Supervision has Pairs): %s; "+
		"cpca and clpp also get the feature rows (they project features). NJW (no constraints) is the floor. "+
		"CSCAP is dense (O(n³)); it is skipped above 1000 nodes as in fgpwc-table1 (no dataset here is that large). "+
		"COSC above 500 nodes (wdbc) keeps its consistent and spectral starts only, as in fgpwc-table1 (budget). "+
		"Since issue 17 **cscap down-weights contradicted constraints by default** (CSCAP.NoVote, constraint.VoteWeights; see "+
		"\"Robust by default\" below); cscap-novote is CSCAP with NoVote, its default before, and cscap+vote runs CSCAP with NoVote on the "+
		"constraints VoteFilter keeps. Since issue 17's last step **ml-noa-ssc and mcl-noa-ssc resolve contradictory constraints by default** "+
		"and use consistent ones as given (MLNOASSC.NoResolve, MCLNOASSC.NoResolve; see \"Robust by default: the NOA-SSC resolve\" below); "+
		"the -noresolve columns are the methods as published (NoResolve), their default before, and the -screen columns screen "+
		"their constraints first whether or not they contradict each other (MLNOASSC.Screen, MCLNOASSC.Screen; see \"The NOA-SSC constraint screen\" below). "+
		"Since noisy-dev's second round they also **refine** the resolved partition by default (Refine; see \"The refinement\" below): the "+
		"-norefine columns are the resolve alone, their default before, and mcl-noa-ssc-refine is the refinement's first form (NJW's "+
		"embedding, λ = 8), not chosen. Since noisy-dev's third round the refinement is **chosen per problem by cross-validation on the "+
		"constraints** by default; the -fixedrefine columns are the fixed λ of round 2 (RefineFixed), their default before. Since noisy-dev's fourth round the same "+
		"cross-validation **chooses the resolve's reference** (CSCAP's or FAST-GE's) too by default; the -fixedref columns keep CSCAP's "+
		"(ReferenceFixed), their default before. L1-CSC (l1csc) runs with its defaults (λ = 1, μ = 1, Ncut; for k > 2 its bisections use the must-links only). "+
		"**auto** (cluster.Auto, the CLI's method when constraints are given and none is named, since stop 43) runs with its defaults "+
		"(%d-fold cross-validation on the constraints it is given, flipped ones included) and its final fit with this page's k-means runs; "+
		"it chooses among the other methods, so it is reported beside them, not among the candidates of the verdicts on default methods, "+
		"whose rules were fixed before it existed.",
		noisyMethodList(plan), cluster.AutoDefaultFolds)
	if len(plan.missing) > 0 {
		fmt.Fprintf(&md, " Not registered when this page was made, so left out: %s.", strings.Join(plan.missing, ", "))
	}
	fmt.Fprintf(&md, "\n\n")
	if len(absent) > 0 {
		fmt.Fprintf(&md, "Not run (data files not found under the datasets root): %s.\n\n", strings.Join(absent, ", "))
	}
	fmt.Fprintf(&md, "A method that returns an error on a set (for example COSC, which refuses contradictory constraints) is counted "+
		"as **failed** on it; the count is shown beside its figures (\"n fail\") and the losses use the sets where both the clean and "+
		"the flipped run succeeded.\n\n")

	var csvRows [][]string
	csvRows = append(csvRows, []string{"dataset", "density", "method", "flip_pct", "sets_run", "sets_failed", "ari_mean", "ari_std",
		"ari_all_mean", "loss_mean", "loss_std", "loss_all_mean", "violations_given", "violations_true", "conflicts", "kept", "kept_wrong", "seconds"})
	for _, d := range plan.densities {
		fmt.Fprintf(&md, "## Density %d/n\n\n", d)
		fmt.Fprintf(&md, "| dataset | method | ARI clean |")
		for _, rate := range plan.rates[1:] {
			fmt.Fprintf(&md, " ARI %d%% | loss %d%% |", rate, rate)
		}
		fmt.Fprintf(&md, " failed |\n|---|---|---:|")
		for range plan.rates[1:] {
			fmt.Fprintf(&md, "---:|---:|")
		}
		fmt.Fprintf(&md, "---|\n")
		for _, r := range rows {
			for _, m := range plan.methods {
				if !noisyRuns(r, m) {
					continue
				}
				fmt.Fprintf(&md, "| %s | %s |", r.name, m.key)
				var fails []string
				for i, rate := range plan.rates {
					xs, failed := noisyCollect(results, r.name, d, m.key, rate, plan.sets, "ari")
					all, _ := noisyCollect(results, r.name, d, m.key, rate, plan.sets, "ari_all")
					a := noisyStatOf(xs)
					loss := noisyLoss(results, r.name, d, m.key, rate, plan.sets, "ari")
					lossAll := noisyLoss(results, r.name, d, m.key, rate, plan.sets, "ari_all")
					if failed > 0 {
						fails = append(fails, fmt.Sprintf("%d at %d%%", failed, rate))
					}
					if i == 0 {
						fmt.Fprintf(&md, " %s |", a)
					} else if m.key == "njw" {
						fmt.Fprintf(&md, " (as clean) | 0 |")
					} else {
						fmt.Fprintf(&md, " %s | %s |", a, loss)
					}
					get := func(fig string) string {
						ys, _ := noisyCollect(results, r.name, d, m.key, rate, plan.sets, fig)
						return f4(noisyStatOf(ys).mean)
					}
					if m.key == "njw" && rate > 0 {
						continue
					}
					csvRows = append(csvRows, []string{r.name, strconv.Itoa(d), m.key, strconv.Itoa(rate), strconv.Itoa(a.count), strconv.Itoa(failed),
						f4(a.mean), f4(a.std), f4(noisyStatOf(all).mean), f4(loss.mean), f4(loss.std), f4(lossAll.mean),
						get("violations"), get("violations_true"), get("conflicts"), get("kept"), get("kept_wrong"), get("seconds")})
				}
				if len(fails) == 0 {
					fmt.Fprintf(&md, " |\n")
				} else {
					fmt.Fprintf(&md, " %s fail |\n", strings.Join(fails, ", "))
				}
			}
		}
		fmt.Fprintf(&md, "\n")
	}

	out := &Output{Files: map[string][]byte{}}
	out.Claims = noisySummary(&md, results, rows, plan)
	out.Claims = append(out.Claims, noisyDefault(&md, results, rows, plan)...)
	noisyRobust(&md, results, rows, plan)
	if err := noisyFigures(env, out, results, rows, plan, &md); err != nil {
		return nil, err
	}
	noisyFailures(&md, results, rows, plan)
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.WriteAll(csvRows); err != nil {
		return nil, err
	}
	out.Files["noisy-constraints.csv"] = buf.Bytes()
	fmt.Fprintf(&md, "All figures are in `noisy-constraints.csv` (one row per dataset, density, method and flip rate; violations_given counts the "+
		"violated constraints of the set the method was given, violations_true those of the clean set; conflicts counts constraint.Check's "+
		"conflicts in the given set; kept and kept_wrong, for the robust columns, the constraints left by the filter and how many of them are wrong).\n")
	out.Markdown = md.String()
	out.Files["README.md"] = []byte(out.Markdown)
	return out, nil
}

func noisyMethodList(plan noisyPlan) string {
	var ks []string
	for _, m := range plan.methods {
		if noisyJudged(m.key) {
			ks = append(ks, m.key)
		}
	}
	return strings.Join(ks, ", ")
}

// noisyMeanLoss returns a method's mean loss at a rate over the given
// datasets (the mean of the per-dataset means) and the largest per-dataset
// mean; ok is false when a dataset has no figure.
func noisyMeanLoss(results map[string]Values, rows []fgpwcRow, d int, key string, rate, sets int) (mean, worst float64, ok bool) {
	worst = math.Inf(-1)
	for _, r := range rows {
		l := noisyLoss(results, r.name, d, key, rate, sets, "ari")
		if l.count == 0 {
			return nan, nan, false
		}
		mean += l.mean
		worst = max(worst, l.mean)
	}
	return mean / float64(len(rows)), worst, len(rows) > 0
}

// noisyMeanARI returns a method's mean ARI at a rate over the datasets.
func noisyMeanARI(results map[string]Values, rows []fgpwcRow, d int, key string, rate, sets int) (float64, bool) {
	var s float64
	for _, r := range rows {
		xs, failed := noisyCollect(results, r.name, d, key, rate, sets, "ari")
		if len(xs) == 0 || failed > 0 {
			return nan, false
		}
		s += noisyStatOf(xs).mean
	}
	return s / float64(len(rows)), len(rows) > 0
}

// noisySummary writes the verdicts: which method is most robust, and the
// issue's target, which it returns as claims (one per density).
func noisySummary(md *strings.Builder, results map[string]Values, rows []fgpwcRow, plan noisyPlan) []Claim {
	var claims []Claim
	fmt.Fprintf(md, "## Summary\n\n")
	var target []fgpwcRow
	for _, r := range rows {
		switch r.name {
		case "iris", "wine", "wdbc":
			target = append(target, r)
		}
	}
	has10 := false
	for _, x := range plan.rates {
		has10 = has10 || x == 10
	}
	for _, d := range plan.densities {
		fmt.Fprintf(md, "### Density %d/n\n\n", d)
		fmt.Fprintf(md, "| method | mean ARI clean (all datasets) | mean ARI 10%% | mean loss 10%% | worst loss 10%% | mean loss %d%% |\n|---|---:|---:|---:|---:|---:|\n", plan.rates[len(plan.rates)-1])
		type entry struct {
			key                         string
			clean, at10, l10, w10, lmax float64
		}
		var es []entry
		for _, m := range plan.methods {
			var inAll []fgpwcRow
			for _, r := range rows {
				if noisyRuns(r, m) {
					inAll = append(inAll, r)
				}
			}
			c, ok1 := noisyMeanARI(results, inAll, d, m.key, 0, plan.sets)
			a10, _ := noisyMeanARI(results, inAll, d, m.key, 10, plan.sets)
			l10, w10, _ := noisyMeanLoss(results, inAll, d, m.key, 10, plan.sets)
			lmax, _, _ := noisyMeanLoss(results, inAll, d, m.key, plan.rates[len(plan.rates)-1], plan.sets)
			if m.key == "njw" {
				a10 = c
			}
			if !ok1 {
				c = nan
			}
			es = append(es, entry{m.key, c, a10, l10, w10, lmax})
			fmt.Fprintf(md, "| %s | %s | %s | %s | %s | %s |\n", m.key, fmtARI(c), fmtARI(a10), fmtLoss(l10), fmtLoss(w10), fmtLoss(lmax))
		}
		fmt.Fprintf(md, "\nMeans over the datasets where the method ran on every set (– where it failed on a set or did not run).\n\n")
		// Most robust: among the default methods above the NJW floor on
		// clean constraints, the smallest mean loss at the highest rate;
		// and the highest mean ARI at 10%.
		floor := math.Inf(-1)
		for _, e := range es {
			if e.key == "njw" {
				floor = e.clean
			}
		}
		robKey, robLoss, topKey, topARI := "", math.Inf(1), "", math.Inf(-1)
		for _, e := range es {
			if !noisyJudged(e.key) || math.IsNaN(e.clean) || math.IsNaN(e.lmax) {
				continue
			}
			if e.clean > floor && e.lmax < robLoss {
				robKey, robLoss = e.key, e.lmax
			}
			if !math.IsNaN(e.at10) && e.at10 > topARI {
				topKey, topARI = e.key, e.at10
			}
		}
		if robKey != "" {
			fmt.Fprintf(md, "Most robust default method at density %d/n (smallest mean loss at %d%% among those whose mean clean ARI is above NJW's %.3f): **%s** (%+.3f). "+
				"Highest mean ARI with 10%% flipped: **%s** (%.3f).\n\n", d, plan.rates[len(plan.rates)-1], floor, robKey, robLoss, topKey, topARI)
		}
		if !has10 || len(target) == 0 {
			continue
		}
		// The target: the best default pairwise method (highest
		// mean clean ARI on iris, wine and wdbc, NJW and robust variants
		// excluded) loses at most 0.05 at 10% on each of the three.
		bestKey, bestARI := "", math.Inf(-1)
		for _, m := range plan.methods {
			if !noisyJudged(m.key) {
				continue
			}
			c, ok := noisyMeanARI(results, target, d, m.key, 0, plan.sets)
			if ok && c > bestARI {
				bestKey, bestARI = m.key, c
			}
		}
		if bestKey == "" {
			continue
		}
		var parts []string
		ok := 0
		for _, r := range target {
			l := noisyLoss(results, r.name, d, bestKey, 10, plan.sets, "ari")
			parts = append(parts, fmt.Sprintf("%s %s", r.name, fmtLossStat(l)))
			if l.count > 0 && l.mean <= 0.05 {
				ok++
			}
		}
		c := Claim{Source: "issue 17, Done means (ours, beyond the sources)",
			Quote: "With 10% of the constraints flipped, tether's best default pairwise method loses at most 0.05 ARI on iris, wine and wdbc, against clean constraints.",
			Rule: fmt.Sprintf("at density %d/n, the default method with the highest mean clean ARI (unconstrained pairs) over iris, wine and wdbc has a mean paired loss "+
				"ARI(clean) − ARI(10%% flipped) ≤ 0.05 on each of the three: %s", d, quantBands(allOf(len(target)), len(target), "datasets")),
			Ours:    fmt.Sprintf("best default: %s (mean clean ARI %.3f); loss at 10%%: %s", bestKey, bestARI, strings.Join(parts, ", ")),
			Verdict: shareVerdict(ok, len(target))}
		claims = append(claims, c)
		// The page's verdict is the claim's (TestPageProseVerdictsMatchClaims).
		fmt.Fprintf(md, "**Target (issue 17): with 10%% of the constraints flipped, the best default pairwise method loses at most 0.05 ARI on iris, wine and wdbc** "+
			"— at density %d/n: %s (on %d of the %d). The best default method on these three (highest mean clean ARI, %.3f) is %s; its loss at 10%%: %s.",
			d, verdictMark(c.Verdict), ok, len(target), bestARI, bestKey, strings.Join(parts, ", "))
		// Which default methods meet it.
		var meet []string
		for _, m := range plan.methods {
			if !noisyJudged(m.key) {
				continue
			}
			ok := true
			for _, r := range target {
				l := noisyLoss(results, r.name, d, m.key, 10, plan.sets, "ari")
				if l.count == 0 || l.mean > 0.05 {
					ok = false
				}
			}
			if ok {
				c, _ := noisyMeanARI(results, target, d, m.key, 10, plan.sets)
				meet = append(meet, fmt.Sprintf("%s (mean ARI at 10%%: %s)", m.key, fmtARI(c)))
			}
		}
		if len(meet) > 0 {
			fmt.Fprintf(md, " Methods whose loss at 10%% is at most 0.05 on all three: %s.", strings.Join(meet, ", "))
		} else {
			fmt.Fprintf(md, " No method loses at most 0.05 on all three.")
		}
		if slices.ContainsFunc(plan.methods, func(m noisyMethod) bool { return m.key == noisyAutoKey }) {
			var ap []string
			for _, r := range target {
				ap = append(ap, fmt.Sprintf("%s %s", r.name, fmtLossStat(noisyLoss(results, r.name, d, noisyAutoKey, 10, plan.sets, "ari"))))
			}
			ac, _ := noisyMeanARI(results, target, d, noisyAutoKey, 0, plan.sets)
			at, _ := noisyMeanARI(results, target, d, noisyAutoKey, 10, plan.sets)
			fmt.Fprintf(md, " auto, the CLI's method when constraints are given (reported beside the rule, not among its candidates): mean ARI %s clean and %s at 10%%; its loss at 10%%: %s.",
				fmtARI(ac), fmtARI(at), strings.Join(ap, ", "))
		}
		md.WriteString("\n\n")
		if plan.sets == noisySets {
			claims = append(claims, noisyReplication(md, results, target, d, bestKey, plan.sets))
		}
	}
	return claims
}

// noisyReplication writes the replication of issue 17's target at density
// d (noisyReplicationSets further constraint sets; fixed, with its rule,
// before its cells were computed) and returns its claim. bestKey is the
// method the target's rule names on the tables' sets.
func noisyReplication(md *strings.Builder, results map[string]Values, target []fgpwcRow, d int, bestKey string, sets int) Claim {
	key := noisyReplicated[d]
	from, to := sets, sets+noisyReplicationSets
	c := Claim{Source: "issue 17, Done means (ours; replication on 30 further sets)",
		Quote: "With 10% of the constraints flipped, tether's best default pairwise method loses at most 0.05 ARI on iris, wine and wdbc, against clean constraints.",
		Rule: fmt.Sprintf("at density %d/n, the method the target's rule names (%s when the replication was fixed) on constraint sets %d–%d, "+
			"which the tables do not use: mean paired loss ARI(clean) − ARI(10%% flipped) ≤ 0.05 on each of iris, wine and wdbc: %s", d, key, from, to-1,
			quantBands(allOf(len(target)), len(target), "datasets"))}
	fmt.Fprintf(md, "**Replication at density %d/n** (fixed before its cells were computed: %d further constraint sets, %d–%d, of the same "+
		"generator, for %s at 0%% and 10%% flipped on iris, wine and wdbc; the verdict is the target's rule on these sets alone). ", d, noisyReplicationSets, from, to-1, key)
	var parts []string
	ok, ran := 0, true
	// The narrowest margin below the 0.05 bound, for a held verdict.
	margin, marginSE, marginName := math.Inf(1), math.NaN(), ""
	for _, r := range target {
		l := noisyLossOver(results, r.name, d, key, 10, from, to, "ari")
		all := noisyLossOver(results, r.name, d, key, 10, 0, to, "ari")
		se := math.NaN()
		if l.count > 1 {
			se = l.std / math.Sqrt(float64(l.count))
		}
		parts = append(parts, fmt.Sprintf("%s %s (SE %.3f, %d sets; all %d sets: %+.3f)", r.name, fmtLossStat(l), se, l.count, all.count, all.mean))
		if l.count < noisyReplicationSets {
			ran = false
		}
		if l.count > 0 && l.mean <= 0.05 {
			ok++
		}
		if l.count > 0 && 0.05-l.mean < margin {
			margin, marginSE, marginName = 0.05-l.mean, se, r.name
		}
	}
	c.Ours = fmt.Sprintf("%s, loss at 10%%: %s", key, strings.Join(parts, ", "))
	switch {
	case bestKey != key:
		c.Verdict, c.Reason = NotTestable, fmt.Sprintf("the target's rule now names %s, not the replicated %s", bestKey, key)
	case !ran:
		c.Verdict, c.Reason = NotTestable, "some of the replication's cells failed or did not run"
	default:
		c.Verdict = shareVerdict(ok, len(target))
		if c.Verdict == Held {
			c.Reason = fmt.Sprintf("narrowest margin %.3f below 0.05, on %s (SE %.3f)", margin, marginName, marginSE)
			if margin < marginSE {
				c.Reason += ": less than one standard error"
			}
		}
	}
	fmt.Fprintf(md, "Loss of %s at 10%%: %s. Verdict: %s", key, strings.Join(parts, ", "), c.Verdict)
	if c.Reason != "" {
		fmt.Fprintf(md, " (%s)", c.Reason)
	}
	md.WriteString(".\n\n")
	return c
}

// noisyDefault compares the robust defaults with the methods without
// them — CSCAP's vote weights with cscap-novote, the NOA-SSC screen
// (ml-noa-ssc-screen, mcl-noa-ssc-screen) with the defaults: the cost on clean
// constraints and the gain with flipped ones, per dataset, paired by set.
// It returns the clean-cost claims.
func noisyDefault(md *strings.Builder, results map[string]Values, rows []fgpwcRow, plan noisyPlan) []Claim {
	has := func(k string) bool {
		return slices.ContainsFunc(plan.methods, func(m noisyMethod) bool { return m.key == k })
	}
	var claims []Claim
	if has("cscap") && has("cscap-novote") {
		fmt.Fprintf(md, "## Robust by default: CSCAP's vote weights\n\n")
		fmt.Fprintf(md, "Since issue 17 CSCAP scales the weight of each constraint by f = clamp(1 + a/0.5, 0, 1), a its agreement in constraint.Vote "+
			"(the same vote as VoteFilter: the %d most similar constraints on the graph), so a constraint counts fully when its neighbours agree "+
			"or are split (a ≥ 0), less as they disagree, and not at all when at least 75%% of their vote weight is for the other kind "+
			"(a ≤ −0.5, the constraints VoteFilter drops); in the Gaussian-process reading of CSCAP this raises the constraint's noise ε to ε/√f. "+
			"It applies from %d constraints on (cluster.VoteMinPairs; fewer are too few to vote). The rule and its constants (VoteFilter's K and "+
			"margin, set before this table existed, and VoteMinPairs = 3K) were fixed in advance, not tuned on this table; the generated sets "+
			"(moons, xor) and the UCI sets are shown apart so the two can be compared. It is soft and does not break the transitive-closure "+
			"conflicts that VoteFilter's Consistent option breaks, which CSCAP does not need. The CSCAP column of "+
			"[fgpwc-table1](../fgpwc-table1/README.md) shows the cost on clean constraints on 18 more datasets (it runs the default).\n\n", constraint.DefaultVoteK, cluster.VoteMinPairs)
		claims = append(claims, noisyCleanCost(md, results, rows, plan, "cscap", "cscap-novote",
			"CSCAP's default vote weights cost little on clean constraints (paraphrase of the aim: robustness should not be bought with clean accuracy).", "the weights")...)
		if has("cscap+vote") {
			// Soft weights against the hard filter, on the same sets.
			for _, d := range plan.densities {
				var parts []string
				for _, rate := range plan.rates {
					var sum float64
					var cnt int
					for _, r := range rows {
						var xs []float64
						for rep := 0; rep < plan.sets; rep++ {
							a, oka := results[noisyKey(r.name, d, "cscap", rate, rep)]
							b, okb := results[noisyKey(r.name, d, "cscap+vote", rate, rep)]
							if oka && okb && a["failed"] == 0 && b["failed"] == 0 {
								xs = append(xs, a["ari"]-b["ari"])
							}
						}
						if len(xs) > 0 {
							sum += noisyStatOf(xs).mean
							cnt++
						}
					}
					if cnt > 0 {
						parts = append(parts, fmt.Sprintf("%d%%: %+.3f", rate, sum/float64(cnt)))
					}
				}
				fmt.Fprintf(md, "Soft weights against the hard filter at density %d/n: mean over the datasets of the paired ARI(cscap) − ARI(cscap+vote): %s "+
					"(positive: the soft default is better).\n\n", d, strings.Join(parts, ", "))
			}
		}
		noisyCostLines(md, claims)
	}
	claims = append(claims, noisyResolve(md, results, rows, plan)...)
	var screen []Claim
	for _, key := range []string{"ml-noa-ssc", "mcl-noa-ssc"} {
		if !has(key+"-noresolve") || !has(key+"-screen") {
			continue
		}
		if len(screen) == 0 {
			fmt.Fprintf(md, "## The NOA-SSC constraint screen\n\n")
			fmt.Fprintf(md, "ML- and MCL-NOA-SSC turn the must-links into labels through their transitive closure, where one wrong must-link merges two "+
				"classes for good. Since issue 17's last step they can screen the constraints first (cluster: MLNOASSC/MCLNOASSC, knob Screen; "+
				"ours, beyond the sources), from %d constraints on (cluster.VoteMinPairs, as CSCAP): "+
				"(1) the vote weights CSCAP uses (constraint.VoteWeights with VoteFilter's defaults, K = %d and margin %.1f, on the graph's weights): "+
				"a constraint with agreement ≤ −%.1f is left out, the others keep the weight f; "+
				"(2) constraint.Repair: while a cannot-link lies inside a must-link component, take the heaviest such cannot-link and a minimum cut of "+
				"the must-links separating its ends (max-flow, capacities = the vote weights); drop the cut if it weighs less than all the contradicted "+
				"cannot-links it resolves together, else drop that cannot-link; a final pass restores every dropped constraint whose return creates no "+
				"contradiction. It is exact for a single contradiction (checked against exhaustive search) and a heuristic for the NP-hard general case "+
				"(minimum multicut / correlation clustering). "+
				"No constant was chosen for this: the vote's are VoteFilter's, fixed before this table existed, and the repair has none. "+
				"**One revision after a first run of this table, stated here**: the first repair weighed the cut against the chosen cannot-link alone. "+
				"On the 5/n sets a few wrong must-links that survived the vote joined two classes that dozens of correct cannot-links separate; each "+
				"cannot-link was lighter than the cut, so they were dropped one by one (up to 373 correct constraints on a wdbc set) and the classes stayed merged "+
				"(mcl-noa-ssc's loss at 10%% flipped on iris, wine and wdbc: 0.212, 0.331, 0.177). Weighing the cut against everything it resolves is the "+
				"same objective (the total weight dropped), less myopic; on random tiny sets it reaches the exhaustive optimum on 183 of 206 multi-contradiction "+
				"sets instead of 154 (TestRepairBruteForce). No constant changed. "+
				"Pairs made from labels are not screened. **The screen is not the default**: it was in a first run, and on [realdata](../realdata/README.md)'s "+
				"clean constraints at 5n pairs it cost 0.029 ARI on average for mcl-noa-ssc and 0.061 for ml-noa-ssc, up to 0.34 (tic-tac-toe, promoters), by leaving out "+
				"correct constraints that contradict the graph; the repair alone (without the vote) was tried as a default that cannot change consistent constraints, "+
				"but at 5/n with 10%% flipped it lost more than no screen at all (wine 0.600 against 0.418). The default is now the resolve above, which "+
				"acts only on contradictory constraints. The -screen columns are the methods with Screen, compared here with the methods as published (-noresolve).\n\n",
				cluster.VoteMinPairs, constraint.DefaultVoteK, constraint.DefaultVoteMargin, constraint.DefaultVoteMargin)
		}
		c := noisyCleanCost(md, results, rows, plan, key+"-screen", key+"-noresolve",
			fmt.Sprintf("%s's constraint screen (Screen) costs little on clean constraints (paraphrase of the aim: robustness should not be bought with clean accuracy).", key), "the screen")
		screen = append(screen, c...)
	}
	noisyCostLines(md, screen)
	return append(claims, screen...)
}

// noisyResolve compares the default resolve of ML- and MCL-NOA-SSC with
// the methods as published (the -noresolve columns) and returns the
// clean-cost claims.
func noisyResolve(md *strings.Builder, results map[string]Values, rows []fgpwcRow, plan noisyPlan) []Claim {
	has := func(k string) bool {
		return slices.ContainsFunc(plan.methods, func(m noisyMethod) bool { return m.key == k })
	}
	var claims []Claim
	for _, key := range []string{"ml-noa-ssc", "mcl-noa-ssc"} {
		if !has(key) || !has(key+"-noresolve") {
			continue
		}
		if len(claims) == 0 {
			fmt.Fprintf(md, "## Robust by default: the NOA-SSC resolve\n\n")
			fmt.Fprintf(md, "ML- and MCL-NOA-SSC turn the must-links into labels through their transitive closure, where one wrong must-link merges two "+
				"classes for good. Since issue 17's last step they **resolve their constraints by default when these contradict each other** (a "+
				"cannot-link inside a must-link component, which proves some of them wrong), and use them as given otherwise (knob NoResolve; ours, "+
				"beyond the sources): consistent constraints, among them every clean set of this page and of [realdata](../realdata/README.md) (drawn "+
				"from the ground truth), give exactly the published method's result, so the resolve cannot cost anything on them. Contradictory ones "+
				"go through three steps (cluster/noassc_resolve.go): (1) the vote of the screen below (constraint.VoteWeights, K = %d, margin %.1f, "+
				"from %d constraints on): a constraint with agreement ≤ −%.1f is left out; (2) a reference partition, on graphs of at most 1000 nodes: "+
				"CSCAP with its defaults (which down-weights contradicted constraints itself; knob Reference: cscap, fast-ge or none, see below; "+
				"since noisy-dev's fourth round the refinement's cross-validation chooses between CSCAP's and FAST-GE's by default) "+
				"partitions the graph with the given constraints, and every "+
				"must-link whose ends it separates is left out (a wrong must-link merges two classes in the closure, a wrong cannot-link only keeps "+
				"two groups apart, so only must-links are checked; above 1000 nodes, CSCAP's dense O(n³) limit in these studies, the step is skipped); (3) the "+
				"rest is clustered by greedy additive edge contraction of the signed constraint graph (constraint.Contract; Keuper et al. 2015): "+
				"starting from single nodes, the two groups with the largest total weight between them are merged while that weight is positive, a "+
				"must-link adding its weight and a cannot-link subtracting it; each pair weighs its log-odds of being right, max(0, log q/(1 − q)) + "+
				"10⁻⁹ (the 10⁻⁹ standing for an infinitesimal, so that an unsupported must-link still joins groups no cannot-link keeps apart), "+
				"with q = (A + 1)/(A + D + 2) Laplace's rule of succession on the vote weight A for the pair's kind and D against it "+
				"(constraint.Plausibility). The must-links between the groups and the cannot-links inside them are left out; the closure of the "+
				"rest is the groups. On a consistent set the contraction merges exactly the closure components, whatever the weights. "+
				"On realdata every clean constraint set is consistent (checked on all of its sets when the resolve was made the default), and its "+
				"216 ml-noa-ssc and mcl-noa-ssc cells on the datasets up to 1000 nodes, re-run with the resolve, gave the cached ARIs exactly. "+
				"The -noresolve columns are the methods as published (NoResolve), their default before. Since issue 17's refinement "+
				"(below) a fourth step follows the resolve: single nodes move to lower the PCKMeans energy with every given constraint as a "+
				"soft penalty.\n\n",
				constraint.DefaultVoteK, constraint.DefaultVoteMargin, cluster.VoteMinPairs, constraint.DefaultVoteMargin)
			fmt.Fprintf(md, "**How it was chosen, stated here: after looking at this page's cells.** Only the gating (act on contradictory "+
				"constraints only, so that clean ones are untouched) was decided before any run; the steps were settled by trying variants on the "+
				"5/n cells of iris, wine and wdbc at 0%% and 10%% flipped with MCL-NOA-SSC (a test harness outside the repro, with the reference's "+
				"k-means on the cell's seed rather than its own stream, so its figures differ slightly from the tables). Mean ARI at 10%% flipped, "+
				"iris / wine / wdbc (the published method: 0.428 / 0.578 / 0.653): the screen 0.862 / 0.908 / 0.921; Repair alone with the vote "+
				"weights as capacities, nothing left out by the vote, iris 0.667; the contraction alone with the plausibility weights, nothing left out, "+
				"0.698 / 0.805; the vote then the contraction 0.892 / 0.905 / 0.953; every constraint CSCAP contradicts left out (must-links and "+
				"cannot-links) 0.922 / 0.975 (but that costs 0.07 on clean iris were it not gated); the screen then the CSCAP check of must-links "+
				"0.930 / 0.952 / 0.953, of cannot-links 0.852 / 0.928 / 0.932; **the vote, the CSCAP check of must-links, then the contraction "+
				"(chosen) 0.937 / 0.952 / 0.955**; the same with the must-links CSCAP separates down-weighted to 10⁻⁹ instead of left out 0.899 / "+
				"0.905, or left out only when their agreement is also negative 0.908 / 0.938; a second round with CSCAP on the resolved constraints "+
				"as the reference 0.934 / 0.945; FAST-GE instead of CSCAP as the reference 0.960 / 0.935 (not taken: CSCAP was the issue's suggestion "+
				"before any run, and choosing the reference by these cells would tune it on them). No constant was tuned (the vote's are VoteFilter's, "+
				"the 1000 nodes CSCAP's limit in these studies, the prior Laplace's). The figures at 10%% on iris, wine and wdbc at 5/n are therefore "+
				"not an independent test of the design; ionosphere, moons and xor, the rates 5%% and 20%% and density 1/n were not looked at before "+
				"the choice.\n\n")
			noisyReference(md, results, rows, plan)
			noisyRefine(md, results, rows, plan)
		}
		claims = append(claims, noisyCleanCost(md, results, rows, plan, key, key+"-noresolve",
			fmt.Sprintf("%s's default resolve of contradictory constraints costs little on clean constraints (paraphrase of the aim: robustness should not be bought with clean accuracy).", key), "the resolve")...)
	}
	noisyCostLines(md, claims)
	return claims
}

// noisyReference reports the reference of the resolve: what the
// noisy-dev suite picked, what it did here, and why the default stayed
// CSCAP, with the losses at 10% of both references (the default columns
// and the -fastge ones) on every dataset and density.
func noisyReference(md *strings.Builder, results map[string]Values, rows []fgpwcRow, plan noisyPlan) {
	has := func(k string) bool {
		return slices.ContainsFunc(plan.methods, func(m noisyMethod) bool { return m.key == k })
	}
	if !has("mcl-noa-ssc-fastge") || !slices.Contains(plan.rates, 10) {
		return
	}
	fmt.Fprintf(md, "**The reference: a suite of generated data picked FAST-GE, and CSCAP was kept, with these cells in view.** The "+
		"reference is a knob (MLNOASSC.Reference, MCLNOASSC.Reference: cscap, fast-ge or none). To choose it without this page, the "+
		"[noisy-dev](../noisy-dev/README.md) suite ran this page's protocol (5/n, 0%% and 10%% flipped) on nine generated feature sets "+
		"(blobs with several overlaps, anisotropic and unequal-size blobs, moons, circles, interlaced circles; 200–500 points, k = 2–5, "+
		"2–5 features), with a criterion committed before it ran (primary: the worst mean loss at 10%% of MCL-NOA-SSC over its datasets; no "+
		"clean cost below −0.02; then the mean loss; ties to cscap). It picked FAST-GE (worst loss 0.260, against CSCAP's 0.329 and none's "+
		"0.364; FAST-GE better on 8 of 9 sets), which was made the default and this page's cells recomputed with it once (the -fastge "+
		"columns below). Here, on real data of 4–34 features, FAST-GE did worse at 5/n on wine, wdbc and ionosphere and better on iris "+
		"(table). **The default was therefore set back to CSCAP, a choice made after seeing these cells**; the generated suite, all of "+
		"whose sets have few features, did not predict the real ones. Neither reference meets the issue's 0.05 target at 5/n on all three "+
		"of iris, wine and wdbc (the claims above).\n\n")
	md.WriteString("Both without the refinement below (its -norefine columns), which came later.\n\n")
	md.WriteString("| density | dataset | mcl-noa-ssc loss 10% (cscap) | mcl-noa-ssc-fastge loss 10% | ml-noa-ssc loss 10% (cscap) | ml-noa-ssc-fastge loss 10% |\n|---|---|---:|---:|---:|---:|\n")
	for _, d := range plan.densities {
		for _, r := range rows {
			fmt.Fprintf(md, "| %d/n | %s |", d, r.name)
			for _, key := range []string{"mcl-noa-ssc-norefine", "mcl-noa-ssc-fastge", "ml-noa-ssc-norefine", "ml-noa-ssc-fastge"} {
				fmt.Fprintf(md, " %s |", noisyLoss(results, r.name, d, key, 10, plan.sets, "ari"))
			}
			md.WriteString("\n")
		}
	}
	md.WriteString("\n")
}

// noisyRefine reports the refinement after the resolve (MCLNOASSC.Refine,
// the default since noisy-dev's second round, chosen per problem by
// cross-validation since its third): how it was chosen, and
// MCL-NOA-SSC's loss without it (-norefine), with round 2's fixed λ
// (-fixedrefine), with the cross-validation (the default) and with round
// 1's form (-refine: NJW's space, λ = noisyRefineLambda) at every flipped
// rate, dataset and density.
func noisyRefine(md *strings.Builder, results map[string]Values, rows []fgpwcRow, plan noisyPlan) {
	if !slices.ContainsFunc(plan.methods, func(m noisyMethod) bool { return m.key == "mcl-noa-ssc-norefine" }) {
		return
	}
	fmt.Fprintf(md, "**The refinement (the default since noisy-dev's second round, chosen per problem since its third, with the resolve's reference since its fourth).** After the "+
		"resolve acted, ML-NOA-SSC and MCL-NOA-SSC move single nodes to lower the PCKMeans energy of their partition in an embedding, "+
		"every given constraint a soft penalty of weight λ in units of a node's typical squared distance to its centroid (knob Refine; "+
		"cluster/noassc_refine.go): the resolve keeps some wrong must-links and leaves out correct ones, and the penalty lets the "+
		"constraints near each node outvote them. Its form was chosen on generated data only, by the [noisy-dev](../noisy-dev/README.md) "+
		"suite's criterion, fixed before each round's columns ran (the worst mean loss at 5/n with 10%% flipped over nine generated sets, "+
		"then the mean loss; the pick becomes the default). **Round 1**, distances in NJW's embedding of the graph, kept it off (worst "+
		"loss 0.329 off, 0.341–0.362 with λ = 4, 8, 16, though the mean fell 0.155 → 0.117 with λ = 8); its λ = 8 was then run here (the "+
		"-refine column) before round 2 was set up. **Round 2**, distances in the embedding of the resolve's reference partition "+
		"(CSCAP's, computed with the constraints), picked **λ = %g** (worst 0.309, mean 0.137); this page's ml-noa-ssc and mcl-noa-ssc "+
		"columns were recomputed with it once (now the -fixedrefine columns, RefineFixed). **Round 3** chose the refinement per problem "+
		"by 5-fold cross-validation on the given constraints (cluster/noassc_refine_cv.go): λ = %g in the reference's embedding is kept "+
		"unless another candidate (off; λ = 2, 4, 8 there; λ = 4, 8, 16 in NJW's embedding) satisfies significantly more held-out "+
		"constraints (McNemar, z > 1.645). It tied on the worst loss (0.309) and lowered the mean (0.137 → 0.091), so it is the "+
		"default: the ml-noa-ssc and mcl-noa-ssc columns, recomputed with it once, whatever they showed (no real dataset ran with it "+
		"before the pick); with it they are now the -fixedref columns. **Round 4** let the same cross-validation choose the resolve's "+
		"reference too: each fold resolves with CSCAP's reference and with FAST-GE's, and the 7 refinements of each compete, CSCAP's "+
		"λ = %g the incumbent (McNemar, z > 1.645). It lowered the worst loss (0.309 → 0.172) and the mean (0.091 → 0.062), so it "+
		"is the default: the ml-noa-ssc and mcl-noa-ssc columns, recomputed with it once, whatever they showed (no real dataset ran "+
		"with it before the pick). The -norefine columns are the resolve alone (the default before round 2). Loss ARI(clean) − ARI(flipped), "+
		"mean ± standard deviation over the sets; on clean sets the columns are equal by construction (consistent constraints are not "+
		"refined).\n\n", cluster.RefineDefault, cluster.RefineDefault, cluster.RefineDefault)
	keys := []string{"mcl-noa-ssc-norefine", "mcl-noa-ssc-fixedrefine", "mcl-noa-ssc-fixedref", "mcl-noa-ssc", "mcl-noa-ssc-refine"}
	md.WriteString("| density | dataset | 10%: no refinement | 10%: λ = 2 fixed (round 2) | 10%: cross-validated, CSCAP's reference (round 3) | 10%: default (round 4) | 10%: round 1 (NJW, λ = 8) " +
		"| 20%: no refinement | 20%: λ = 2 fixed | 20%: round 3 | 20%: default | 20%: round 1 |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, d := range plan.densities {
		for _, r := range rows {
			fmt.Fprintf(md, "| %d/n | %s |", d, r.name)
			for _, rate := range []int{10, 20} {
				for _, key := range keys {
					if !slices.Contains(plan.rates, rate) || !slices.ContainsFunc(plan.methods, func(m noisyMethod) bool { return m.key == key }) {
						md.WriteString(" – |")
						continue
					}
					fmt.Fprintf(md, " %s |", noisyLoss(results, r.name, d, key, rate, plan.sets, "ari"))
				}
			}
			md.WriteString("\n")
		}
	}
	md.WriteString("\n")
	noisyRefineChoices(md, results, rows, plan)
}

// noisyRefineChoices lists, per density, flipped rate and dataset, what
// the default's cross-validation chose in the sets where it ran
// (refine_choice, an index into cluster.RefineCVSettings).
func noisyRefineChoices(md *strings.Builder, results map[string]Values, rows []fgpwcRow, plan noisyPlan) {
	names := cluster.RefineCVSettings()
	md.WriteString("What the cross-validation chose (mcl-noa-ssc, the default): in how many sets it ran (the constraints contradicted " +
		"each other), and the refinement it chose there; " + names[0] + " is the default kept.\n\n")
	md.WriteString("| density | flipped | dataset | sets where it ran | chosen |\n|---|---|---|---:|---|\n")
	for _, d := range plan.densities {
		for _, rate := range plan.rates {
			if rate == 0 {
				continue
			}
			for _, r := range rows {
				count := map[int]int{}
				ran := 0
				for rep := 0; rep < plan.sets; rep++ {
					v, ok := results[noisyKey(r.name, d, "mcl-noa-ssc", rate, rep)]
					if !ok {
						continue
					}
					if c, ok := v["refine_choice"]; ok {
						ran++
						count[int(c)]++
					}
				}
				var parts []string
				for i, name := range names {
					if count[i] > 0 {
						parts = append(parts, fmt.Sprintf("%s ×%d", name, count[i]))
					}
				}
				fmt.Fprintf(md, "| %d/n | %d%% | %s | %d of %d | %s |\n", d, rate, r.name, ran, plan.sets, strings.Join(parts, ", "))
			}
		}
	}
	md.WriteString("\n")
}

// noisyCostLines lists the clean-cost claims under their tables.
func noisyCostLines(md *strings.Builder, claims []Claim) {
	for _, c := range claims {
		fmt.Fprintf(md, "- Cost on clean sets (%s): **%s** — %s.\n", c.Rule, c.Verdict, c.Ours)
	}
	fmt.Fprintf(md, "\n")
}

// noisyCleanCost writes the table comparing a robust default (def) with
// the same method without it (old), per density and dataset, paired by
// set: the ARI difference at every rate (at 0%: the cost on clean
// constraints) and the loss of each at 10%. It returns one claim per
// density: the mean paired difference at 0% is at least −0.02 on every
// dataset (a threshold set with CSCAP's vote, before these columns).
func noisyCleanCost(md *strings.Builder, results map[string]Values, rows []fgpwcRow, plan noisyPlan, def, old, quote, what string) []Claim {
	diff := func(name string, d, rate int) noisyStat {
		var xs []float64
		for rep := 0; rep < plan.sets; rep++ {
			a, oka := results[noisyKey(name, d, def, rate, rep)]
			b, okb := results[noisyKey(name, d, old, rate, rep)]
			if oka && okb && a["failed"] == 0 && b["failed"] == 0 {
				xs = append(xs, a["ari"]-b["ari"])
			}
		}
		return noisyStatOf(xs)
	}
	fmt.Fprintf(md, "Paired differences ARI(%s) − ARI(%s), mean ± sd over the sets (positive: %s helps), and the loss of each at 10%%:\n\n", def, old, what)
	fmt.Fprintf(md, "| density | dataset | at 0%% (cost on clean sets) | at 5%% | at 10%% | at 20%% | loss 10%%: %s | loss 10%%: %s |\n|---|---|---:|---:|---:|---:|---:|---:|\n", def, old)
	var claims []Claim
	for _, d := range plan.densities {
		var costs []string
		cheap := 0 // datasets whose cost on clean sets is at most 0.02
		for _, r := range rows {
			fmt.Fprintf(md, "| %d/n | %s |", d, r.name)
			for _, rate := range []int{0, 5, 10, 20} {
				if !slices.Contains(plan.rates, rate) {
					fmt.Fprintf(md, " – |")
					continue
				}
				st := diff(r.name, d, rate)
				fmt.Fprintf(md, " %s |", fmtLossStat(st))
				if rate == 0 && st.count > 0 {
					if st.mean >= -0.02 {
						cheap++
					}
					costs = append(costs, fmt.Sprintf("%s %+.3f", r.name, st.mean))
				}
			}
			if slices.Contains(plan.rates, 10) {
				fmt.Fprintf(md, " %s | %s |\n", fmtLossStat(noisyLoss(results, r.name, d, def, 10, plan.sets, "ari")),
					fmtLossStat(noisyLoss(results, r.name, d, old, 10, plan.sets, "ari")))
			} else {
				fmt.Fprintf(md, " – | – |\n")
			}
		}
		if len(costs) > 0 {
			c := Claim{Source: "issue 17, noisy constraints (ours)",
				Quote:   quote,
				Rule:    fmt.Sprintf("at density %d/n, on every dataset, the mean paired ARI difference %s − %s with clean constraints is at least −0.02: %s", d, def, old, quantBands(allOf(len(costs)), len(costs), "datasets")),
				Ours:    strings.Join(costs, ", "),
				Verdict: shareVerdict(cheap, len(costs)),
			}
			claims = append(claims, c)
		}
	}
	fmt.Fprintf(md, "\n")
	return claims
}

func fmtLoss(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%+.3f", x)
}

func fmtLossStat(s noisyStat) string {
	if s.count == 0 {
		return "–"
	}
	return fmt.Sprintf("%+.3f ± %.3f", s.mean, s.std)
}

// noisyFigureMethods are the curves of the figures: NJW, the methods
// with the best clean ARI (with and without their robust defaults), SL
// (the simplest), COSC (failing once the constraints contradict each
// other) and a robust variant.
var noisyFigureMethods = []string{"njw", "cscap", "cscap-novote", "mcl-noa-ssc", "mcl-noa-ssc-noresolve", "mcl-noa-ssc-screen", "fast-ge", "fgpwc", "csc", "sl", "cosc", "l1csc", "cscap+vote"}

// noisyFigures puts in out one PNG per density (addFigure): a panel per
// dataset, ARI (unconstrained pairs) against the flip rate.
func noisyFigures(env *Env, out *Output, results map[string]Values, rows []fgpwcRow, plan noisyPlan, md *strings.Builder) error {
	if env.OutDir == "" || len(rows) == 0 {
		return nil
	}
	keys := noisyFigureMethods
	for _, d := range plan.densities {
		var panels []figure.LineChart
		for _, r := range rows {
			c := figure.LineChart{Title: fmt.Sprintf("%s, density %d/n", r.name, d), XLabel: "% of constraints flipped", YLabel: "ARI (unconstrained pairs)", LegendRight: false}
			for _, k := range keys {
				var m noisyMethod
				found := false
				for _, x := range plan.methods {
					if x.key == k {
						m, found = x, true
					}
				}
				if !found || !noisyRuns(r, m) {
					continue
				}
				ser := figure.Series{Name: k}
				for _, rate := range plan.rates {
					xs, failed := noisyCollect(results, r.name, d, k, rate, plan.sets, "ari")
					st := noisyStatOf(xs)
					y := st.mean
					if failed > 0 {
						y = nan
					}
					ser.X = append(ser.X, float64(rate))
					ser.Y = append(ser.Y, y)
				}
				c.Series = append(c.Series, ser)
			}
			panels = append(panels, c)
		}
		// Two rows of panels would need a grid; draw one PNG of three
		// panels per half to keep them legible.
		for half := 0; half*3 < len(panels); half++ {
			ps := panels[half*3 : min(len(panels), half*3+3)]
			png := fmt.Sprintf("noisy-d%d-%d.png", d, half+1)
			b, err := lineChartsPNG(13*vg.Centimeter, 11*vg.Centimeter, ps)
			if err != nil {
				return err
			}
			addFigure(out, png, b)
			fmt.Fprintf(md, "![ARI against the flip rate, density %d/n](%s)\n\n", d, png)
		}
	}
	fmt.Fprintf(md, "Curves: mean ARI over the unconstrained pairs (no bands, for legibility: the standard deviations are in the tables); a point is missing where the method failed on a set.\n\n")
	return nil
}

// noisyFailures explains the failed cells, by method and cause.
func noisyFailures(md *strings.Builder, results map[string]Values, rows []fgpwcRow, plan noisyPlan) {
	type tally struct{ total, codes [5]int }
	byMethod := map[string]*tally{}
	var order []string
	for _, r := range rows {
		for _, d := range plan.densities {
			for _, m := range plan.methods {
				for ri, rate := range plan.rates {
					for rep := 0; rep < plan.sets; rep++ {
						v, ok := results[noisyKey(r.name, d, m.key, rate, rep)]
						if !ok || v["failed"] == 0 {
							continue
						}
						t := byMethod[m.key]
						if t == nil {
							t = &tally{}
							byMethod[m.key] = t
							order = append(order, m.key)
						}
						t.total[min(ri, 4)]++
						t.codes[int(v["failed"])]++
					}
				}
			}
		}
	}
	fmt.Fprintf(md, "## Failures\n\n")
	if len(order) == 0 {
		fmt.Fprintf(md, "No method failed on any set.\n\n")
		return
	}
	names := map[int]string{noisyFailConflict: "contradictory constraints refused (constraint.ErrConflict)", noisyFailNumerical: "numerical failure (cluster.ErrNumerical)",
		noisyFailInvalid: "invalid problem (cluster.ErrInvalid)", noisyFailOther: "other error"}
	for _, k := range order {
		t := byMethod[k]
		var byRate, causes []string
		for i, rate := range plan.rates {
			if i < 5 && t.total[i] > 0 {
				byRate = append(byRate, fmt.Sprintf("%d at %d%%", t.total[i], rate))
			}
		}
		for c := 1; c < 5; c++ {
			if t.codes[c] > 0 {
				causes = append(causes, fmt.Sprintf("%d %s", t.codes[c], names[c]))
			}
		}
		fmt.Fprintf(md, "- %s: failed on %s (over all datasets and densities); causes: %s.\n", k, strings.Join(byRate, ", "), strings.Join(causes, "; "))
	}
	fmt.Fprintf(md, "\n")
}

// noisyRobust compares every robust variant with its base method: the
// paired ARI difference at each rate, and what the filter removed.
func noisyRobust(md *strings.Builder, results map[string]Values, rows []fgpwcRow, plan noisyPlan) {
	var variants []string
	for _, m := range plan.methods {
		if strings.Contains(m.key, "+") {
			variants = append(variants, m.key)
		}
	}
	if len(variants) == 0 {
		return
	}
	fmt.Fprintf(md, "## Robustness: the vote filter\n\n")
	fmt.Fprintf(md, "The +vote columns run the same method on the constraints left by constraint.VoteFilter (ours, beyond the sources): "+
		"each constraint is scored by the %d most similar other constraints, pairs (i, j) and (a, b) being as similar as "+
		"max(W_ia·W_jb, W_ib·W_ja) on the graph (W_aa = 1), each voting with that weight for its kind; a constraint whose "+
		"agreement is below −%.1f (at least 75%% of the vote weight for the other kind) is dropped, and then the rest are taken in decreasing "+
		"agreement and each one that conflicts with those taken before, as the transitive closure finds conflicts (constraint.Check: a cannot-link inside a "+
		"must-link component, a pair both ways), is dropped (VoteOptions.Consistent; until 2026-12-02 the conflicts were broken one at a time, each by "+
		"dropping its least agreed constraint, which dropped many right cannot-links); when k = 2 each one that no 2-way "+
		"partition can satisfy together with those taken before (an odd cycle of cannot-links between must-link components) is dropped too (VoteOptions.TwoWay), so COSC can run. It uses the graph and the constraints only, never the ground truth.\n\n",
		constraint.DefaultVoteK, constraint.DefaultVoteMargin)
	gain := func(d int, v string, rate int, rs []fgpwcRow) (float64, bool) {
		base := noisyBase(v)
		var s float64
		for _, r := range rs {
			var xs []float64
			for rep := 0; rep < plan.sets; rep++ {
				a, oka := results[noisyKey(r.name, d, v, rate, rep)]
				b, okb := results[noisyKey(r.name, d, base, rate, rep)]
				if !oka || !okb || a["failed"] > 0 || b["failed"] > 0 {
					continue
				}
				xs = append(xs, a["ari"]-b["ari"])
			}
			if len(xs) == 0 {
				return nan, false
			}
			s += noisyStatOf(xs).mean
		}
		return s / float64(len(rs)), len(rs) > 0
	}
	for _, d := range plan.densities {
		fmt.Fprintf(md, "### Density %d/n\n\n", d)
		fmt.Fprintf(md, "Mean over the datasets of the paired difference ARI(method+vote) − ARI(method) (positive: the filter helps; sets where either failed are left out):\n\n| variant |")
		for _, rate := range plan.rates {
			fmt.Fprintf(md, " %d%% |", rate)
		}
		fmt.Fprintf(md, " mean ARI +vote at 10%% | failed sets (base → +vote) |\n|---|")
		for range plan.rates {
			fmt.Fprintf(md, "---:|")
		}
		fmt.Fprintf(md, "---:|---|\n")
		for _, v := range variants {
			base := noisyBase(v)
			fmt.Fprintf(md, "| %s |", v)
			for _, rate := range plan.rates {
				g, _ := gain(d, v, rate, rows)
				fmt.Fprintf(md, " %s |", fmtLoss(g))
			}
			a10, _ := noisyMeanARI(results, rows, d, v, 10, plan.sets)
			var fb, fv int
			for _, r := range rows {
				for _, rate := range plan.rates {
					_, f1 := noisyCollect(results, r.name, d, base, rate, plan.sets, "ari")
					_, f2 := noisyCollect(results, r.name, d, v, rate, plan.sets, "ari")
					fb += f1
					fv += f2
				}
			}
			fmt.Fprintf(md, " %s | %d → %d |\n", fmtARI(a10), fb, fv)
		}
		// The target with the filter: method+vote at 10% against
		// the plain method on clean constraints, paired by set.
		var tgt []fgpwcRow
		for _, r := range rows {
			switch r.name {
			case "iris", "wine", "wdbc":
				tgt = append(tgt, r)
			}
		}
		if len(tgt) > 0 && slices.Contains(plan.rates, 10) {
			fmt.Fprintf(md, "\nThe target with the filter: ARI(method, clean constraints) − ARI(method+vote, 10%% flipped), paired by set, on iris, wine and wdbc:\n\n")
			for _, v := range variants {
				base := noisyBase(v)
				var parts []string
				held := true
				for _, r := range tgt {
					var xs []float64
					for rep := 0; rep < plan.sets; rep++ {
						a, oka := results[noisyKey(r.name, d, base, 0, rep)]
						b, okb := results[noisyKey(r.name, d, v, 10, rep)]
						if oka && okb && a["failed"] == 0 && b["failed"] == 0 {
							xs = append(xs, a["ari"]-b["ari"])
						}
					}
					l := noisyStatOf(xs)
					parts = append(parts, fmt.Sprintf("%s %s", r.name, fmtLossStat(l)))
					if l.count < plan.sets || l.mean > 0.05 {
						held = false
					}
				}
				verdict := "within 0.05 on each"
				if !held {
					verdict = "not within 0.05 on each (or failed on a set)"
				}
				fmt.Fprintf(md, "- %s: %s — %s.\n", v, strings.Join(parts, ", "), verdict)
			}
		}
		// What the filter removed (the same for every variant: use the first).
		fmt.Fprintf(md, "\nWhat the filter removed (over all datasets and sets):\n\n| flipped | constraints | flipped ones removed | correct ones removed |\n|---:|---:|---:|---:|\n")
		for _, rate := range plan.rates {
			var total, flipped, wrongRemoved, trueRemoved float64
			for _, r := range rows {
				for rep := 0; rep < plan.sets; rep++ {
					x, ok := results[noisyKey(r.name, d, variants[0], rate, rep)]
					if !ok {
						continue
					}
					total += x["constraints"]
					flipped += x["flipped"]
					wr := x["flipped"] - x["kept_wrong"]
					wrongRemoved += wr
					trueRemoved += (x["constraints"] - x["kept"]) - wr
				}
			}
			share := "–"
			if flipped > 0 {
				share = fmt.Sprintf("%.0f of %.0f (%.0f%%)", wrongRemoved, flipped, 100*wrongRemoved/flipped)
			}
			fmt.Fprintf(md, "| %d%% | %.0f | %s | %.0f of %.0f (%.1f%%) |\n", rate, total, share, trueRemoved, total-flipped, 100*trueRemoved/max(1, total-flipped))
		}
		fmt.Fprintf(md, "\n")
	}
}
