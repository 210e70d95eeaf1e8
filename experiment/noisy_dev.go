package experiment

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
)

// The development suite of the resolve's reference partition (issue 17,
// beyond the sources): MLNOASSC.Reference and MCLNOASSC.Reference, the
// method whose separated must-links the default resolve of contradictory
// constraints leaves out, is chosen here, on generated data only, so that
// iris, wine and wdbc (on which the resolve was designed, see the
// noisy-constraints page) are not used to choose it. The candidates and
// the criterion (noisyDevRefs, noisyDevPick) were fixed and committed
// before the suite was run.

// noisyDevRow is one generated feature set: a synth generator with its
// parameters and an optional transform of the points.
type noisyDevRow struct {
	name string
	gen  string
	p    synth.Params
	// aniso, if not nil, is a dim×dim matrix A: the points become X·A
	// (anisotropic blobs).
	aniso []float64
	// keep, if not nil, is the share of each class kept (its first
	// points): unequal class sizes.
	keep []float64
	// knn puts the row on the CLI's default graph (graph.DefaultSpec: the
	// symmetric 10-NN graph, RBF weights with local σ) with the library's
	// default Laplacian and disconnected-graph rule, instead of the full
	// RBF graph with the published ones (round 5). The points and the
	// constraint sets are the row's without it.
	knn bool
}

// key is the row's name in cell keys: its name, with "@knn10" on the
// default graph.
func (r noisyDevRow) key() string {
	if r.knn {
		return r.name + "@knn10"
	}
	return r.name
}

// noisyDevRows: nine feature sets of 200–500 points, k from 2 to 5;
// blobs with light to heavy overlap (BlobBox 10, centres uniform in
// [−10, 10]^dim), anisotropic and unequal-size blobs, moons, circles and
// interlaced circles. None is a dataset of noisy-constraints (its moons
// and xor are other draws with other sizes).
var noisyDevRows = []noisyDevRow{
	{name: "blobs-n300-k3-d2-s2", gen: "blobs", p: synth.Params{N: 300, K: 3, Dim: 2, Noise: 2}},
	{name: "blobs-n400-k4-d2-s3", gen: "blobs", p: synth.Params{N: 400, K: 4, Dim: 2, Noise: 3}},
	{name: "blobs-n500-k5-d5-s2.5", gen: "blobs", p: synth.Params{N: 500, K: 5, Dim: 5, Noise: 2.5}},
	{name: "blobs-n200-k2-d2-s4", gen: "blobs", p: synth.Params{N: 200, K: 2, Dim: 2, Noise: 4}},
	{name: "aniso-blobs-n300-k3-s1.5", gen: "blobs", p: synth.Params{N: 300, K: 3, Dim: 2, Noise: 1.5}, aniso: []float64{1, 0.8, 0, 0.3}},
	{name: "unequal-blobs-n310-k3-d3-s2", gen: "blobs", p: synth.Params{N: 600, K: 3, Dim: 3, Noise: 2}, keep: []float64{1, 0.4, 0.15}},
	{name: "moons-n400-e0.12", gen: "moons", p: synth.Params{N: 400, Noise: 0.12}},
	{name: "circles-n300-e0.06", gen: "circles", p: synth.Params{N: 300, Noise: 0.06, Factor: 0.5}},
	{name: "interlaced-n450-k3-e0.1", gen: "interlaced", p: synth.Params{N: 450, K: 3, Noise: 0.1}},
}

// noisyDevRefs are the candidate references, in the order of the
// tie-break: cscap (the default before this suite) first.
var noisyDevRefs = []cluster.ResolveReference{cluster.ReferenceCSCAP, cluster.ReferenceFastGE, cluster.ReferenceNone}

// noisyDevRefineRound is one pre-registered round of the choice of the
// refinement that follows the resolve (MLNOASSC.Refine, MCLNOASSC.Refine):
// candidate weights λ in the order of the tie-break, −1 (off, the method
// before the refinement existed) first, and the space its distances are
// measured in. A round is chosen by the reference's criterion
// (noisyDevPick) on MCL-NOA-SSC with the default reference (cscap); the
// pick of the last round becomes cluster.RefineDefault whatever
// noisy-constraints then shows.
type noisyDevRefineRound struct {
	lambdas []float64
	njw     bool   // distances in NJW's embedding (RefineNJW), else the reference's
	infix   string // the columns' "/refine…=" part
	intro   string // the round's paragraph on the page
}

// noisyDevRefineRounds: round 1 measured distances in NJW's embedding of
// the graph (its grid set after trying λ ∈ {0.25, 1, 4, 8, 16, 64} on
// sets 0–2 of this suite); its pick was "off", because it raised the
// worst loss (anisotropic and heavily overlapping blobs, where NJW's
// embedding misleads). Round 2, fixed after round 1 and before its
// columns ran, measures them in the resolve's reference partition's
// embedding (CSCAP's), tried with λ = 4 and 8 on sets 0–2 after round 1.
// Both on generated data only: no real dataset ran with a refinement
// before round 1's pick, and the real runs of round 1's λ = 8 (reported
// on noisy-constraints) were seen before round 2 was set up.
var noisyDevRefineRounds = []noisyDevRefineRound{
	{lambdas: []float64{-1, 4, 8, 16}, njw: true, infix: "/refine=", intro: "**Round 1: distances in NJW's embedding of the graph** (RefineNJW). Its grid was set after trying λ ∈ {0.25, 1, 4, 8, 16, 64} " +
		"on sets 0–2 of this suite; no real dataset ran with the refinement before its pick.\n\n"},
	{lambdas: []float64{-1, 2, 4, 8}, infix: "/refine-ref=", intro: "**Round 2: distances in the embedding of the resolve's reference partition** (CSCAP's, which the resolve computes anyway; the " +
		"default space since this round). Set up after round 1 kept the refinement off: round 1 raised the worst loss on the anisotropic " +
		"and heavily overlapping blobs, where NJW's embedding misleads; CSCAP's uses the constraints too. λ = 4 and 8 " +
		"in this space were tried on sets 0–2 before the round was fixed. Round 1's λ = 8 had by then also been run on the real datasets " +
		"of noisy-constraints (reported there, not used here).\n\n"},
}

// noisyDevCVColumn is round 3's candidate: MCL-NOA-SSC with its
// refinement chosen per problem by cross-validation on the constraints
// and CSCAP's reference (then the knob RefineCV; from round 3's pick to
// round 4's the default; MCLNOASSC{ReferenceFixed: true} since), against
// the fixed λ of round 2 (λ = 2 in the reference's embedding), whose
// column it is compared with; round 4's incumbent.
const noisyDevCVColumn = "mcl-noa-ssc/refine-cv"

// noisyDevCVIntro is round 3's paragraph on the page, written before its
// columns ran.
const noisyDevCVIntro = "**Round 3: the refinement chosen per problem by cross-validation on the constraints** (RefineCV, a knob " +
	"when the round was fixed; the default since it was picked, which RefineFixed, or setting Refine or RefineNJW, turns off; cluster/noassc_refine_cv.go). Issue 17 suggests \"soft constraint weights learned by constraint cross-validation\". " +
	"The constraints are split into 5 folds; on each fold's training pairs the method runs (resolve, closure, NOA-SSC, 5 k-means " +
	"restarts) and every candidate refinement refines it (off; λ = 2, 4, 8 in the reference's embedding; λ = 4, 8, 16 in NJW's); " +
	"each is scored by the held-out pairs its partitions satisfy. Held-out pairs are flipped as often as the others, so they " +
	"still rank partitions. The default refinement (round 2's pick, the incumbent) is replaced by the best other candidate only " +
	"when McNemar's paired test on the held-out pairs finds it better (b − c > 1.645·√(b + c)). The incumbent rule and its " +
	"threshold were set after trying, on sets 0–2 of this suite only, the plain best score (worst loss 0.326 against the " +
	"default's 0.303 there, mean 0.090 against 0.139) and the thresholds 1, 1.645, 2 and 3. The round was fixed before its " +
	"columns ran: candidates the default (λ = 2, first, so ties keep it) and RefineCV; the criterion as above; and the rule " +
	"that RefineCV becomes the default of ML- and MCL-NOA-SSC if it is picked, whatever noisy-constraints then shows. No real " +
	"dataset ran with RefineCV before the pick.\n\n"

// noisyDevRefCVColumn is round 4's candidate: MCL-NOA-SSC whose
// refinement's cross-validation also chooses the resolve's reference
// (then the knob ReferenceCV; since round 4 picked it, the default, which
// ReferenceFixed turns off), against round 3's pick (noisyDevCVColumn).
const noisyDevRefCVColumn = "mcl-noa-ssc/refine-cv-ref"

// noisyDevRefCVIntro is round 4's paragraph on the page, written and
// committed before its columns ran.
const noisyDevRefCVIntro = "**Round 4: the resolve's reference chosen per problem, with the refinement, by the same cross-validation** " +
	"(ReferenceCV, a knob when the round was fixed; the default since it was picked, which ReferenceFixed, or setting Reference, turns off; cluster/noassc_refine_cv.go). Why: the first table of this page picked FAST-GE " +
	"as the reference (worst loss 0.260 against CSCAP's 0.329), while on the real datasets of noisy-constraints FAST-GE did worse " +
	"on wine, wdbc and ionosphere and better on iris (the -fastge columns there), so CSCAP stayed the default; choosing per " +
	"problem, from the constraints alone, could take the better of the two on each. Each fold of round 3's cross-validation now " +
	"runs the method twice, with CSCAP's reference and with FAST-GE's, and the 7 refinements of each (14 candidates) are scored " +
	"by the held-out pairs they satisfy; the default (CSCAP's reference, λ = 2) is the incumbent, replaced only when McNemar's " +
	"test finds the best other candidate better (z = 1.645, as in round 3); when that candidate uses FAST-GE's reference the " +
	"method resolves again with it. Nothing was tried on this suite before the round was fixed (the unit tests use their own " +
	"generated problem). Fixed and committed before its columns ran: candidates round 3's pick (the default, first, so ties keep " +
	"it) and ReferenceCV; the criterion as above; and the rule that ReferenceCV becomes the default of ML- and MCL-NOA-SSC if it " +
	"is picked, whatever noisy-constraints then shows. No real dataset ran with ReferenceCV before the pick.\n\n"

// noisyDevRefineMethods are the methods the refinement's columns run:
// MCL-NOA-SSC, the criterion's. ML-NOA-SSC's were run once, when both
// rounds were decided (round 1: worst / mean loss 0.248 / 0.132 off,
// 0.201 / 0.080, 0.215 / 0.075, 0.215 / 0.085 with λ = 4, 8, 16; round 2:
// 0.228 / 0.098, 0.192 / 0.087, 0.254 / 0.078 with λ = 2, 4, 8), and then
// left out of the suite to keep `tether repro -fresh all` within its hour
// (the page says so).
var noisyDevRefineMethods = []string{"mcl-noa-ssc"}

// column returns the column of MCL- or ML-NOA-SSC with refinement weight
// lambda in round r: for −1 the cscap reference's column (the resolve
// without refinement).
func (r noisyDevRefineRound) column(method string, lambda float64) string {
	if lambda < 0 {
		return method + "/ref=" + cluster.ReferenceCSCAP.String()
	}
	return method + r.infix + strconv.FormatFloat(lambda, 'g', -1, 64)
}

// noisyDevDensity and noisyDevRate: the criterion's density (5/n, where
// the resolve acts) and flipped share (10%, the target).
const (
	noisyDevDensity = 5
	noisyDevRate    = 10
)

// noisyDevCleanFloor is the criterion's constraint: a candidate whose
// mean clean ARI is more than 0.02 below NoResolve's on a dev dataset is
// excluded.
const noisyDevCleanFloor = -0.02

// noisyDevRev names the definition of the cells; change it to recompute.
const noisyDevRev = "v1"

// NoisyDev is the development suite of the resolve's reference.
func NoisyDev() Experiment {
	var loads memo[string, *fgpwcInstance]
	return Experiment{
		Name:   "noisy-dev",
		Title:  "Development suite of ML-/MCL-NOA-SSC's resolve reference (cscap, fast-ge, none) on generated feature sets, 10% of the pairs flipped at 5/n",
		Source: "issue 17 (beyond the sources)",
		Cells: func(env *Env) ([]Cell, error) {
			return noisyDevCells(env, &loads)
		},
		Report: noisyDevReport,
	}
}

func noisyDevRowsFor(env *Env) []noisyDevRow {
	if env.Quick {
		return []noisyDevRow{noisyDevRows[0], noisyDevRows[6]}
	}
	return noisyDevRows
}

func noisyDevSets(env *Env) int {
	if env.Quick {
		return 2
	}
	return noisySets
}

// noisyDevColumns are the columns of one method ("ml-noa-ssc" or
// "mcl-noa-ssc"): one per candidate reference, then NoResolve.
func noisyDevColumns(method string) []string {
	var cols []string
	for _, r := range noisyDevRefs {
		cols = append(cols, method+"/ref="+r.String())
	}
	return append(cols, method+"-noresolve")
}

// noisyDevAllColumns are every column of method that the suite runs: the
// references' and NoResolve (noisyDevColumns), then, for the methods of
// noisyDevRefineMethods, each refinement round's λ other than off, and
// for MCL-NOA-SSC round 3's cross-validated column.
func noisyDevAllColumns(method string) []string {
	cols := noisyDevColumns(method)
	if slices.Contains(noisyDevRefineMethods, method) {
		for _, round := range noisyDevRefineRounds {
			for _, l := range round.lambdas[1:] {
				cols = append(cols, round.column(method, l))
			}
		}
	}
	if method == "mcl-noa-ssc" {
		cols = append(cols, noisyDevCVColumn, noisyDevRefCVColumn)
	}
	return cols
}

// noisyDevMethod returns the method of a column.
func noisyDevMethod(col string) (cluster.Method, error) {
	switch col {
	case noisyDevCVColumn:
		return cluster.MCLNOASSC{ReferenceFixed: true}, nil // the cross-validation is the default since round 3, with CSCAP's reference until round 4
	case noisyDevRefCVColumn:
		return cluster.MCLNOASSC{}, nil // the choice of reference is the default since round 4
	case noisyDevHopsColumns[0]:
		return cluster.MCLNOASSC{VoteHops: 1}, nil
	case noisyDevHopsColumns[1]:
		return cluster.MCLNOASSC{VoteHops: 2}, nil
	}
	for _, round := range noisyDevRefineRounds {
		base, l, ok := strings.Cut(col, round.infix)
		if !ok {
			continue
		}
		lambda, err := strconv.ParseFloat(l, 64)
		if err != nil {
			return nil, fmt.Errorf("noisy-dev: column %q: %w", col, err)
		}
		switch base {
		case "ml-noa-ssc":
			return cluster.MLNOASSC{Refine: lambda, RefineNJW: round.njw, RefineFixed: true}, nil
		case "mcl-noa-ssc":
			return cluster.MCLNOASSC{Refine: lambda, RefineNJW: round.njw, RefineFixed: true}, nil
		}
		return nil, fmt.Errorf("noisy-dev: unknown column %q", col)
	}
	base, ref, ok := strings.Cut(col, "/ref=")
	var r cluster.ResolveReference
	if ok {
		if err := r.UnmarshalText([]byte(ref)); err != nil {
			return nil, err
		}
	}
	// The reference columns were computed before the refinement existed
	// and keep it off.
	switch base {
	case "ml-noa-ssc":
		return cluster.MLNOASSC{Reference: r, Refine: -1, RefineFixed: true}, nil
	case "mcl-noa-ssc":
		return cluster.MCLNOASSC{Reference: r, Refine: -1, RefineFixed: true}, nil
	case "ml-noa-ssc-noresolve":
		return cluster.MLNOASSC{NoResolve: true}, nil
	case "mcl-noa-ssc-noresolve":
		return cluster.MCLNOASSC{NoResolve: true}, nil
	}
	return nil, fmt.Errorf("noisy-dev: unknown column %q", col)
}

func noisyDevKey(name, col string, rate, rep int) string {
	return fmt.Sprintf("%s/d%d/%s/f%d/%d/%s", name, noisyDevDensity, col, rate, rep, noisyDevRev)
}

// noisyDevLoad generates a row's points, min–max scales each feature to
// [0, 1] and builds noisy-constraints' graph (the full RBF graph with
// local σ, fgpwcLoad's "RBF"), or the CLI's default graph for a knn row.
func noisyDevLoad(ctx context.Context, r noisyDevRow, seed uint64) (*fgpwcInstance, error) {
	d, err := synthGenerate(ctx, r.gen, r.p, seed, "noisy-dev", r.name)
	if err != nil {
		return nil, err
	}
	x, truth := d.X, d.Labels
	if r.aniso != nil {
		_, dim := x.Dims()
		var y mat.Dense
		y.Mul(x, mat.NewDense(dim, dim, r.aniso))
		x = &y
	}
	if r.keep != nil {
		x, truth = noisyDevSubsample(x, truth, r.keep)
	}
	dataset.ScaleColumns(x, dataset.ScaleMinMax) // x is ours: generated, or a product or subsample of it
	if r.knn {
		inst, err := fgpwcInstanceOf(ctx, x, truth, nil, "override", graph.DefaultSpec)
		if err != nil {
			return nil, err
		}
		inst.libDefaults = true
		return inst, nil
	}
	return fgpwcInstanceOf(ctx, x, truth, nil, "RBF", nil)
}

// noisyDevSubsample keeps the first ⌈keep[c]·n_c⌉ points of each class c.
func noisyDevSubsample(x *mat.Dense, truth []int, keep []float64) (*mat.Dense, []int) {
	rows := keepPerClass(truth, keep)
	_, dim := x.Dims()
	y := mat.NewDense(len(rows), dim, nil)
	lab := make([]int, len(rows))
	for t, i := range rows {
		y.SetRow(t, x.RawRowView(i))
		lab[t] = truth[i]
	}
	return y, lab
}

// keepPerClass returns, in order, the indices of the first
// ⌈keep[c]·n_c⌉ items of each class c (n_c its size).
func keepPerClass(truth []int, keep []float64) []int {
	size := map[int]int{}
	for _, c := range truth {
		size[c]++
	}
	seen := map[int]int{}
	var rows []int
	for i, c := range truth {
		if seen[c] < int(math.Ceil(keep[c]*float64(size[c]))) {
			rows = append(rows, i)
		}
		seen[c]++
	}
	return rows
}

func noisyDevCells(env *Env, loads *memo[string, *fgpwcInstance]) ([]Cell, error) {
	var cells []Cell
	cell := func(r noisyDevRow, col string, rate, rep int) Cell {
		return Cell{Key: noisyDevKey(r.key(), col, rate, rep), Run: func(ctx context.Context) (Values, error) {
			inst, err := loads.get(ctx, r.key(), func(ctx context.Context) (*fgpwcInstance, error) {
				return noisyDevLoad(ctx, r, env.Seed)
			})
			if err != nil {
				return nil, err
			}
			m, err := noisyDevMethod(col)
			if err != nil {
				return nil, err
			}
			return noisyRunOn(ctx, inst, r.name, noisyDevDensity, col, m, rate, rep, env.Seed)
		}}
	}
	for _, r := range noisyDevKNNRowsFor(env) {
		for _, cr := range noisyDevHopsCells() {
			for rep := 0; rep < noisyDevSets(env); rep++ {
				cells = append(cells, cell(r, cr.col, cr.rate, rep))
			}
		}
	}
	for _, r := range noisyDevRowsFor(env) {
		r := r
		for _, method := range []string{"mcl-noa-ssc", "ml-noa-ssc"} {
			for _, col := range noisyDevAllColumns(method) {
				for _, rate := range []int{0, noisyDevRate} {
					for rep := 0; rep < noisyDevSets(env); rep++ {
						cells = append(cells, cell(r, col, rate, rep))
					}
				}
			}
		}
	}
	return cells, nil
}

// noisyDevScore is one column's summary over the dev datasets.
type noisyDevScore struct {
	worst, mean float64 // max and mean over datasets of the mean loss at 10%
	clean       float64 // min over datasets of mean ARI(0%) − NoResolve's
	failed      int     // cells that failed (either rate)
	seconds     float64 // total seconds at 10%
	loss        []float64
	ran         bool // every dataset has a loss
}

// record is the CSV row of column col of method with score s.
func (s noisyDevScore) record(method, col string) []string {
	rec := []string{method, col, fmt.Sprintf("%.4f", s.worst), fmt.Sprintf("%.4f", s.mean), fmt.Sprintf("%.4f", s.clean), strconv.Itoa(s.failed), fmt.Sprintf("%.2f", s.seconds)}
	for _, l := range s.loss {
		rec = append(rec, fmt.Sprintf("%.4f", l))
	}
	return rec
}

// noisyDevScoreOf summarizes column col: the loss of a dataset is
// noisyLoss's (paired ARI(0%) − ARI(10%) on the unconstrained pairs,
// over the sets where both ran), as the noisy-constraints page computes
// it.
func noisyDevScoreOf(results map[string]Values, rows []noisyDevRow, sets int, col, noresolve string) noisyDevScore {
	sc := noisyDevScore{worst: math.Inf(-1), clean: math.Inf(1), ran: true}
	for _, r := range rows {
		var loss, cost []float64
		for rep := 0; rep < sets; rep++ {
			a, oka := results[noisyDevKey(r.key(), col, 0, rep)]
			b, okb := results[noisyDevKey(r.key(), col, noisyDevRate, rep)]
			c, okc := results[noisyDevKey(r.key(), noresolve, 0, rep)]
			for _, v := range []Values{a, b} {
				if v != nil && v["failed"] > 0 {
					sc.failed++
				}
			}
			if okb && b["failed"] == 0 {
				sc.seconds += b["seconds"]
			}
			if oka && okb && a["failed"] == 0 && b["failed"] == 0 {
				loss = append(loss, a["ari"]-b["ari"])
			}
			if oka && okc && a["failed"] == 0 && c["failed"] == 0 {
				cost = append(cost, a["ari"]-c["ari"])
			}
		}
		if len(loss) == 0 {
			sc.ran = false
			sc.loss = append(sc.loss, nan)
			continue
		}
		l := noisyStatOf(loss).mean
		sc.loss = append(sc.loss, l)
		sc.worst = max(sc.worst, l)
		sc.mean += l / float64(len(rows))
		if len(cost) > 0 {
			sc.clean = min(sc.clean, noisyStatOf(cost).mean)
		}
	}
	return sc
}

// noisyDevPick applies the criterion fixed before the suite was run, to
// MCL-NOA-SSC's scores in the order of noisyDevRefs: a candidate is
// eligible when every dataset has a loss, its clean cost against
// NoResolve is ≥ noisyDevCleanFloor on every dataset, and no more of its
// cells failed than cscap's; among the eligible, primary the smallest
// worst loss, secondary the smallest mean loss, both compared as printed
// (rounded to 0.001), then the earlier in noisyDevRefs (cscap, the
// default before). It returns the index into noisyDevRefs, or −1 when
// none is eligible.
func noisyDevPick(sc []noisyDevScore) int {
	best := -1
	r3 := func(x float64) float64 { return math.Round(x * 1000) }
	for i, s := range sc {
		if !s.ran || s.clean < noisyDevCleanFloor || s.failed > sc[0].failed {
			continue
		}
		if best < 0 || r3(s.worst) < r3(sc[best].worst) || (r3(s.worst) == r3(sc[best].worst) && r3(s.mean) < r3(sc[best].mean)) {
			best = i
		}
	}
	return best
}

func noisyDevReport(env *Env, results map[string]Values) (*Output, error) {
	rows := noisyDevRowsFor(env)
	sets := noisyDevSets(env)
	var md strings.Builder
	writePageHead(&md, env, "Development suite of the resolve's reference partition (issue 17)", "flock /work/bench.lock go run ./cmd/tether repro noisy-dev", "two datasets, two constraint sets.")
	md.WriteString("**Why.** By default ML-NOA-SSC and MCL-NOA-SSC resolve contradictory constraints before the must-link closure " +
		"(cluster/noassc_resolve.go): a vote, then a *reference partition* whose separated must-links are left out, then a contraction. " +
		"The reference was CSCAP with its defaults. Its steps were settled by trying variants on the 5/n cells of iris, wine and wdbc of the " +
		"[noisy-constraints](../noisy-constraints/README.md) page, where FAST-GE as the reference did better on iris and worse on wine; " +
		"choosing it there would have tuned it on the page's own cells. So the reference is now a knob (MLNOASSC.Reference, " +
		"MCLNOASSC.Reference: cscap, fast-ge or none), and its default is chosen here, on generated data only: no real dataset " +
		"(iris, wine, wdbc, ionosphere or any other) is used.\n\n")
	var names []string
	for _, r := range noisyDevRefs {
		names = append(names, r.String())
	}
	fmt.Fprintf(&md, "**Fixed and committed before the suite was run.** Candidates, in the order of the tie-break: %s "+
		"(none leaves the reference step out: only the vote and the contraction act). Criterion, on MCL-NOA-SSC (the best default "+
		"pairwise method at 5/n on the noisy-constraints page) at density %d/n: **primary**, the worst (largest over the dev datasets) "+
		"mean loss ARI(clean) − ARI(%d%% flipped); **constraint**, the clean cost, mean ARI at 0%% minus that of NoResolve (the method as "+
		"published), must be ≥ %.2f on every dev dataset (it is 0 by construction: clean constraints never contradict each other, and the "+
		"resolve acts only on contradictory sets), and no more of the candidate's cells may fail than cscap's; **secondary**, the mean "+
		"loss over the dev datasets; both compared as printed (to 0.001); **then** the earlier candidate (cscap, the default before). "+
		"ML-NOA-SSC is reported, not used to choose.\n\n", strings.Join(names, ", "), noisyDevDensity, noisyDevRate, noisyDevCleanFloor)
	fmt.Fprintf(&md, "**Suite.** %d generated feature sets (dataset/synth, seeded): blobs with light to heavy overlap (centres uniform in "+
		"[−10, 10]^dim, the name gives n, k, the dimension and the standard deviation), anisotropic blobs (the points times "+
		"A = [[1, 0.8], [0, 0.3]]), unequal-size blobs (600 points in three classes, of which 100%%, 40%% and 15%% are kept: 200, 80 "+
		"and 30), moons, circles (inner radius 0.5) and interlaced circles; 200–500 points, k from 2 to 5. The protocol of "+
		"noisy-constraints and its code: features min–max scaled to [0, 1], the full RBF graph with local σ (7th neighbour); %d "+
		"constraint sets per dataset, every pair drawn with probability %d/n and labelled by the ground truth, then %d%% of them "+
		"flipped (ML ↔ CL; noisyConstraints' seeded permutation); %d k-means runs, fewest violations kept; ARI over the pairs of "+
		"nodes not in the constraint set, the loss paired over the sets where both rates ran, as on that page.\n\n",
		len(rows), sets, noisyDevDensity, noisyDevRate, noisyRestarts)

	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	head := []string{"method", "column", "worst_loss", "mean_loss", "min_clean_cost", "failed", "seconds_at_10"}
	for _, r := range rows {
		head = append(head, "loss_"+r.name)
	}
	w.Write(head)
	pick := -1
	scores := map[string]noisyDevScore{}
	for _, method := range []string{"mcl-noa-ssc", "ml-noa-ssc"} {
		cols := noisyDevColumns(method)
		noresolve := cols[len(cols)-1]
		var sc []noisyDevScore
		for _, col := range cols {
			s := noisyDevScoreOf(results, rows, sets, col, noresolve)
			scores[col] = s
			if col != noresolve {
				sc = append(sc, s)
			}
			w.Write(s.record(method, col))
		}
		p := noisyDevPick(sc)
		if method == "mcl-noa-ssc" {
			pick = p
		}
		fmt.Fprintf(&md, "## Totals: %s (%d datasets, %d sets each, density %d/n, %d%% flipped)\n\n", method, len(rows), sets, noisyDevDensity, noisyDevRate)
		var labels []string
		var all []noisyDevScore
		for i, col := range cols {
			label := "NoResolve (as published)"
			if i < len(noisyDevRefs) {
				label = noisyDevRefs[i].String()
			}
			labels, all = append(labels, label), append(all, scores[col])
		}
		chosen := -1
		if method == "mcl-noa-ssc" {
			chosen = pick
		}
		noisyDevTable(&md, "reference", labels, all, chosen)
	}
	w.Flush()
	if pick < 0 {
		md.WriteString("**No candidate is eligible**: the default is left as it was.\n\n")
	} else {
		chosen := noisyDevRefs[pick]
		fmt.Fprintf(&md, "The criterion picks **%s**. The default (the zero value of cluster.ResolveReference) is %s: ", chosen, cluster.ResolveReference(0))
		if chosen == cluster.ResolveReference(0) {
			md.WriteString("the default is the reference picked here.\n\n")
		} else {
			md.WriteString("**the default differs from the reference picked here**. FAST-GE, picked here, was made the default and the " +
				"cells of [noisy-constraints](../noisy-constraints/README.md) recomputed with it once; on those real datasets (4–34 features, " +
				"where every set here has 2–5) it did worse at 5/n on wine, wdbc and ionosphere and better on iris, so the default was set " +
				"back to CSCAP: a choice made with those cells in view, stated there with both references' losses (the -fastge columns). " +
				"Since round 4 below, the refinement's cross-validation chooses between CSCAP's and FAST-GE's reference per problem by default, " +
				"CSCAP's the incumbent.\n\n")
		}
	}
	noisyDevRefineReport(&md, w, results, rows, sets, scores)
	noisyDevHopsReport(&md, w, env, results, scores)
	w.Flush()
	fmt.Fprintf(&md, "## Per dataset: mean loss ARI(0%%) − ARI(%d%%) over the sets\n\n| dataset | n | k |", noisyDevRate)
	var allCols []string
	for _, method := range []string{"mcl-noa-ssc", "ml-noa-ssc"} {
		allCols = append(allCols, noisyDevAllColumns(method)...)
	}
	for _, col := range allCols {
		fmt.Fprintf(&md, " %s |", col)
	}
	md.WriteString("\n|---|---:|---:|")
	for range allCols {
		md.WriteString("---:|")
	}
	md.WriteString("\n")
	for i, r := range rows {
		n, k := r.p.N, max(r.p.K, 2)
		if r.keep != nil {
			n = 0
			per := r.p.N / r.p.K
			for _, f := range r.keep {
				n += int(math.Ceil(f * float64(per)))
			}
		}
		fmt.Fprintf(&md, "| %s | %d | %d |", r.name, n, k)
		for _, col := range allCols {
			fmt.Fprintf(&md, " %s |", noisyDevFmt(scores[col].loss[i], !math.IsNaN(scores[col].loss[i])))
		}
		md.WriteString("\n")
	}
	md.WriteString("\nPer column and dataset: [noisy-dev.csv](noisy-dev.csv).\n")
	return &Output{Markdown: md.String(), Files: map[string][]byte{"noisy-dev.csv": buf.Bytes()}}, nil
}

// noisyDevTable writes a table of candidates' scores under the header
// (the first column's name): one row per label, the row chosen (an index,
// −1 for none) marked, then a blank line.
func noisyDevTable(md *strings.Builder, header string, labels []string, sc []noisyDevScore, chosen int) {
	fmt.Fprintf(md, "| %s | worst loss | mean loss | min clean cost vs NoResolve | failed cells | seconds at 10%% |\n|---|---:|---:|---:|---:|---:|\n", header)
	for i, label := range labels {
		if i == chosen {
			label += " **(chosen)**"
		}
		s := sc[i]
		fmt.Fprintf(md, "| %s | %s | %s | %s | %d | %.1f |\n", label, noisyDevFmt(s.worst, s.ran), noisyDevFmt(s.mean, s.ran), noisyDevFmt(s.clean, s.ran), s.failed, s.seconds)
	}
	md.WriteString("\n")
}

func noisyDevFmt(x float64, ok bool) string {
	if !ok || math.IsNaN(x) || math.IsInf(x, 0) {
		return "–"
	}
	return fmt.Sprintf("%+.3f", x)
}

// noisyDevRefineReport writes the section of the refinement
// (noisyDevRefineRounds): per round and method a table of the candidates'
// scores and, for MCL-NOA-SSC, the pick by noisyDevPick (off first); the
// last round's pick is the default's. It adds the columns' rows to the CSV
// and their scores to scores.
func noisyDevRefineReport(md *strings.Builder, w *csv.Writer, results map[string]Values, rows []noisyDevRow, sets int, scores map[string]noisyDevScore) {
	md.WriteString("## The refinement after the resolve (Refine)\n\n")
	md.WriteString("ML-NOA-SSC and MCL-NOA-SSC can refine their partition when the resolve acted (knob Refine): single nodes move " +
		"to lower the PCKMeans energy of the partition, every given constraint a penalty of weight λ, in units of a node's typical " +
		"squared distance to its centroid in an embedding (cluster/noassc_refine.go). Each round was **fixed before its columns ran**: " +
		"its candidates (−1: off, the resolve alone, which is the cscap reference's column above), the criterion of the reference " +
		"(noisyDevPick: the worst loss, then the mean loss, as printed; the clean cost and failed cells as eligibility; ties to the " +
		"earlier, off first) on MCL-NOA-SSC, and the rule that the pick of the last round becomes cluster.RefineDefault whatever " +
		"[noisy-constraints](../noisy-constraints/README.md) then shows. Generated data only. ML-NOA-SSC's refine columns ran once, " +
		"when both rounds were decided (worst / mean loss: round 1 0.248 / 0.132 off, 0.201 / 0.080, 0.215 / 0.075, 0.215 / 0.085 with " +
		"λ = 4, 8, 16; round 2 0.228 / 0.098, 0.192 / 0.087, 0.254 / 0.078 with λ = 2, 4, 8), and were then left out of the suite to " +
		"keep `tether repro -fresh all` within its hour.\n\n")
	var pick float64
	picked := false
	for ri, round := range noisyDevRefineRounds {
		md.WriteString(round.intro)
		p := noisyDevRefineTables(md, w, results, rows, sets, scores, round)
		if p < 0 {
			fmt.Fprintf(md, "Round %d: **no candidate is eligible**.\n\n", ri+1)
			picked = false
			continue
		}
		pick, picked = round.lambdas[p], true
		if pick < 0 {
			fmt.Fprintf(md, "Round %d picks **−1: no refinement**.\n\n", ri+1)
		} else {
			fmt.Fprintf(md, "Round %d picks **λ = %g**.\n\n", ri+1, pick)
		}
	}
	def := fmt.Sprintf("%g", cluster.RefineDefault)
	switch {
	case !picked:
		md.WriteString("The last λ round picked nothing: the refinement's default is left as it was (RefineDefault = " + def + ").\n\n")
	case pick == cluster.RefineDefault || (pick < 0 && cluster.RefineDefault < 0):
		md.WriteString("cluster.RefineDefault is the last λ round's pick (" + def + ").\n\n")
	default:
		fmt.Fprintf(md, "**cluster.RefineDefault (%s) differs from the last λ round's pick (%g).**\n\n", def, pick)
	}
	noisyDevCVReport(md, w, results, rows, sets, scores, picked && pick == cluster.RefineDefault)
}

// noisyDevCVRound is a round that compares two columns of MCL-NOA-SSC,
// the default before it (first: ties keep it) and a candidate, by
// noisyDevPick, and whose pick becomes the default.
type noisyDevCVRound struct {
	number     int
	intro      string
	incumbent  string    // the column of the default before the round
	candidate  string    // the candidate's column
	labels     [2]string // the two rows' labels on the page
	what       [2]string // what the pick is called ("the fixed λ", "RefineCV")
	header     string    // the first column's header
	constName  string    // the constant that holds the default
	defaultsTo bool      // whether the default is the candidate now (its value)
}

// noisyDevCVRounds are rounds 3 and 4.
func noisyDevCVRounds() []noisyDevCVRound {
	return []noisyDevCVRound{
		{number: 3, intro: noisyDevCVIntro,
			incumbent: noisyDevRefineRounds[len(noisyDevRefineRounds)-1].column("mcl-noa-ssc", cluster.RefineDefault),
			candidate: noisyDevCVColumn,
			labels:    [2]string{fmt.Sprintf("λ = %g (round 2's pick, fixed)", cluster.RefineDefault), "RefineCV"},
			what:      [2]string{"the fixed λ", "RefineCV"}, header: "refinement",
			constName: "cluster.RefineCVDefault", defaultsTo: cluster.RefineCVDefault},
		{number: 4, intro: noisyDevRefCVIntro,
			incumbent: noisyDevCVColumn, candidate: noisyDevRefCVColumn,
			labels: [2]string{"RefineCV, CSCAP's reference (round 3's pick)", "ReferenceCV"},
			what:   [2]string{"CSCAP's reference", "ReferenceCV"}, header: "reference",
			constName: "cluster.ReferenceCVDefault", defaultsTo: cluster.ReferenceCVDefault},
	}
}

// noisyDevCVReport writes rounds 3 and 4 (noisyDevCVRounds), each picked
// by noisyDevPick (the default before it first), and whether the default
// follows the pick. Round 3 is compared with round 2's pick (ok false
// when that pick is not the default: the comparison is still shown, its
// pick does not apply), and round 4 with round 3's.
func noisyDevCVReport(md *strings.Builder, w *csv.Writer, results map[string]Values, rows []noisyDevRow, sets int, scores map[string]noisyDevScore, ok bool) {
	const method = "mcl-noa-ssc"
	for _, round := range noisyDevCVRounds() {
		md.WriteString(round.intro)
		var sc []noisyDevScore
		for _, col := range []string{round.incumbent, round.candidate} {
			s, seen := scores[col]
			if !seen {
				s = noisyDevScoreOf(results, rows, sets, col, method+"-noresolve")
				scores[col] = s
				w.Write(s.record(method, col))
			}
			sc = append(sc, s)
		}
		p := noisyDevPick(sc)
		fmt.Fprintf(md, "%s (%d datasets, %d sets each, density %d/n, %d%% flipped)\n\n", method, len(rows), sets, noisyDevDensity, noisyDevRate)
		noisyDevTable(md, round.header, round.labels[:], sc, p)
		switch {
		case p < 0:
			fmt.Fprintf(md, "Round %d: **no candidate is eligible**.\n\n", round.number)
		case !ok:
			fmt.Fprintf(md, "Round %d compares %s with the earlier round's pick, which is not the default: its pick does not apply.\n\n", round.number, round.what[1])
		case (p == 1) == round.defaultsTo:
			fmt.Fprintf(md, "Round %d picks **%s**, and the default follows it (%s = %t).\n\n", round.number, round.what[p], round.constName, round.defaultsTo)
		default:
			fmt.Fprintf(md, "Round %d picks **%s**. **The default differs (%s = %t).**\n\n", round.number, round.what[p], round.constName, round.defaultsTo)
		}
		// The next round compares with this round's pick, which must
		// exist and be the default.
		ok = ok && p >= 0 && (p == 1) == round.defaultsTo
	}
}

// noisyDevRefineTables writes round's table for each method and returns
// MCL-NOA-SSC's pick, an index into round.lambdas (−1: none eligible).
func noisyDevRefineTables(md *strings.Builder, w *csv.Writer, results map[string]Values, rows []noisyDevRow, sets int, scores map[string]noisyDevScore, round noisyDevRefineRound) int {
	pick := -1
	for _, method := range noisyDevRefineMethods {
		noresolve := method + "-noresolve"
		var sc []noisyDevScore
		fmt.Fprintf(md, "%s (%d datasets, %d sets each, density %d/n, %d%% flipped)\n\n", method, len(rows), sets, noisyDevDensity, noisyDevRate)
		for _, l := range round.lambdas {
			col := round.column(method, l)
			s, ok := scores[col]
			if !ok {
				s = noisyDevScoreOf(results, rows, sets, col, noresolve)
				scores[col] = s
				w.Write(s.record(method, col))
			}
			sc = append(sc, s)
		}
		p := noisyDevPick(sc)
		if method == "mcl-noa-ssc" {
			pick = p
		}
		var labels []string
		for _, l := range round.lambdas {
			label := strconv.FormatFloat(l, 'g', -1, 64)
			if l < 0 {
				label = "−1 (off)"
			}
			labels = append(labels, label)
		}
		chosen := -1
		if method == "mcl-noa-ssc" {
			chosen = pick
		}
		noisyDevTable(md, "λ", labels, sc, chosen)
	}
	return pick
}
