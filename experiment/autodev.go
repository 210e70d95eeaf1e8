package experiment

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// The development suite of auto's significance rule (issue 19, beyond the
// sources): cluster.Auto.Z, the McNemar threshold a constrained candidate
// must pass to replace the best unconstrained partition, is chosen here,
// on generated data only, so that the 21 real datasets of realdata stay a
// test set. The rules tried and the criterion were fixed before any
// result of this suite was seen (autoDevRules, autoDevPick).

// autoDevRow is one generated dataset: a graph model (sbm, dcsbm) or a
// feature set (turned into the default graph, graph.DefaultSpec, as
// realdata does with its feature sets).
type autoDevRow struct {
	name string
	gen  string
	p    synth.Params
}

// k returns the row's number of classes: p.K, or 2 for the generators of
// two classes that leave it 0 (moons, circles, xor).
func (r autoDevRow) k() int {
	if r.p.K == 0 {
		return 2
	}
	return r.p.K
}

// autoDevRows: many small datasets (30–150 nodes, where few held-out
// pairs make a chance win likely), a few of 300–600 and three of
// 1500–3000; k from 2 to 8; easy and hard settings.
var autoDevRows = []autoDevRow{
	devSBM(30, 2, 8, 2), devSBM(40, 2, 6, 2), devSBM(60, 2, 8, 3), devSBM(60, 3, 12, 3), devSBM(90, 3, 10, 2),
	devSBM(120, 4, 16, 3), devSBM(150, 2, 5, 2), devSBM(150, 5, 20, 3), devSBM(400, 4, 12, 2), devSBM(2000, 3, 10, 2),
	devDCSBM(40, 2, 10, 2, 2.5), devDCSBM(80, 2, 8, 2, 2.5), devDCSBM(100, 3, 12, 3, 2.5), devDCSBM(150, 4, 15, 2, 3),
	devDCSBM(300, 2, 6, 2, 2.5), devDCSBM(600, 5, 20, 3, 2.5), devDCSBM(3000, 4, 12, 2, 2.5),
	devBlobs(30, 2, 2, 2), devBlobs(50, 3, 2, 2.5), devBlobs(80, 4, 5, 3), devBlobs(120, 6, 3, 2), devBlobs(150, 8, 4, 2),
	devBlobs(500, 5, 10, 4), devBlobs(1500, 3, 8, 5),
	devPoints("moons", 40, 2, 0.15), devPoints("moons", 100, 2, 0.2), devPoints("moons", 300, 2, 0.25),
	devPoints("circles", 60, 2, 0.08), devPoints("circles", 150, 2, 0.1),
	devPoints("xor", 50, 2, 0.3), devPoints("xor", 120, 2, 0.35),
	devPoints("interlaced", 90, 3, 0.08), devPoints("interlaced", 150, 4, 0.1),
}

// devSBM, devDCSBM, devBlobs and devPoints name and describe the generated
// datasets of the development suites (auto-dev, hbisect-dev).
func devSBM(n, k int, cin, cout float64) autoDevRow {
	return autoDevRow{fmt.Sprintf("sbm-n%d-k%d-c%g-%g", n, k, cin, cout), "sbm", synth.Params{N: n, K: k, Cin: cin, Cout: cout}}
}

func devDCSBM(n, k int, cin, cout, gamma float64) autoDevRow {
	return autoDevRow{fmt.Sprintf("dcsbm-n%d-k%d-c%g-%g-g%g", n, k, cin, cout, gamma), "dcsbm", synth.Params{N: n, K: k, Cin: cin, Cout: cout, Gamma: gamma}}
}

func devBlobs(n, k, dim int, std float64) autoDevRow {
	return autoDevRow{fmt.Sprintf("blobs-n%d-k%d-d%d-s%g", n, k, dim, std), "blobs", synth.Params{N: n, K: k, Dim: dim, Noise: std}}
}

// devPoints is moons, circles (factor 0.5), xor or interlaced (k
// circles) with the given noise.
func devPoints(gen string, n, k int, noise float64) autoDevRow {
	p := synth.Params{N: n, K: k, Noise: noise}
	if gen == "circles" {
		p.Factor = 0.5
	}
	name := fmt.Sprintf("%s-n%d-e%g", gen, n, noise)
	if gen == "interlaced" {
		name = fmt.Sprintf("%s-n%d-k%d-e%g", gen, n, k, noise)
	}
	return autoDevRow{name, gen, p}
}

// autoDevRules are the thresholds tried, in order of strictness: 0 is the
// rule before the test (any b > c); 1.645 and 2.326 are the one-sided 5%
// and 1% levels of one test; 2.69 is the one-sided 5% level Bonferroni-
// corrected for 14 constrained candidates (Φ⁻¹(1 − 0.05/14)).
var autoDevRules = []float64{0, 1, 1.645, 2.326, 2.69}

// autoDevUnconstrained are auto's unconstrained candidates, the "best
// unconstrained method" of issue 19's target.
var autoDevUnconstrained = []string{"njw", "ncut", "usc", "bethe"}

// autoDevRev names the definition of the cells; change it to recompute.
const autoDevRev = "v1"

// autoCandidatesRev names the revision of auto's candidates in the auto
// cells of auto-dev and auto-score-dev, so that they are recomputed when
// a candidate's default changes while the unconstrained cells stay cached:
// "sscka-commute" since SSC:KA's default kernel became the commute-time
// kernel (sscka-dev); "sscka-commute-bhboth" since fast-ge2-bh's default
// variant became both (fastge2bh-dev). The cells before stay in the cache
// under their keys.
const autoCandidatesRev = "sscka-commute-bhboth"

// autoKeyRev returns the revision in the key of an auto cell run with a:
// autoCandidatesRev, followed by "-f" and the folds when a leaves them to
// cluster.AutoDefaultFolds and that is not 3, the default when auto-dev's
// and auto-score-dev's cells were first computed (auto-folds-dev chose 5),
// then by "-h" and the held-out rule when a leaves it to
// cluster.AutoDefaultHeldOut and that is not "all" (auto-heldout-dev). A
// variant with explicit folds or rule keeps its key whatever the default
// is.
func autoKeyRev(a cluster.Auto) string {
	rev := autoCandidatesRev
	if a.Folds == 0 && cluster.AutoDefaultFolds != 3 {
		rev += "-f" + strconv.Itoa(cluster.AutoDefaultFolds)
	}
	if a.HeldOut == cluster.AutoHeldOutDefault && cluster.AutoDefaultHeldOut != cluster.AutoHeldOutAll {
		rev += "-h" + cluster.AutoDefaultHeldOut.String()
	}
	return rev
}

// AutoDev is the development suite of auto's significance rule.
func AutoDev() Experiment {
	var loads memo[string, *realInstance]
	return Experiment{
		Name:   "auto-dev",
		Title:  "Development suite of -method auto's significance rule (McNemar threshold Z) on generated graphs and feature sets, pairs 1/n",
		Source: "issue 19 (beyond the sources)",
		Cells: func(env *Env) ([]Cell, error) {
			return autoDevCells(env, &loads)
		},
		Report: autoDevReport,
	}
}

func autoDevRowsFor(env *Env) []autoDevRow {
	if env.Quick {
		return []autoDevRow{autoDevRows[0], autoDevRows[10], autoDevRows[17]}
	}
	return autoDevRows
}

// autoDevSets is the number of constraint draws of a dataset: realdata's.
func autoDevSets(env *Env, n int) int { return realSetsFor(env, n) }

func autoDevKey(name, method string, rep int) string {
	return fmt.Sprintf("%s/%s/%d/%s", name, method, rep, autoDevRev)
}

// autoDevLoad generates a dataset and its graph.
func autoDevLoad(ctx context.Context, r autoDevRow, seed uint64) (*realInstance, error) {
	d, err := synthGenerate(ctx, r.gen, r.p, seed, "auto-dev", r.name)
	if err != nil {
		return nil, err
	}
	inst := &realInstance{truth: d.Labels, k: r.p.K}
	if inst.k == 0 {
		inst.k = 2 // moons, circles, xor
	}
	if d.Graph != nil {
		inst.g = d.Graph
		return inst, nil
	}
	if inst.g, err = graph.Build(ctx, d.X, graph.DefaultSpec()); err != nil {
		return nil, err
	}
	return inst, nil
}

func autoDevCells(env *Env, loads *memo[string, *realInstance]) ([]Cell, error) {
	var cells []Cell
	for _, r := range autoDevRowsFor(env) {
		r := r
		load := func(ctx context.Context) (*realInstance, error) {
			return loads.get(ctx, r.name, func(ctx context.Context) (*realInstance, error) {
				return autoDevLoad(ctx, r, env.Seed)
			})
		}
		cells = append(cells, autoDevUnconstrainedCells(func(m string) string { return autoDevKey(r.name, m, 0) }, load, env.Seed)...)
		for rep := 0; rep < autoDevSets(env, r.p.N); rep++ {
			rep := rep
			cells = append(cells, Cell{Key: autoDevKey(r.name, "auto@"+autoKeyRev(autoDevMethod()), rep), Run: func(ctx context.Context) (Values, error) {
				inst, err := load(ctx)
				if err != nil {
					return nil, err
				}
				return autoDevAuto(ctx, inst, r.name, rep, env.Seed)
			}})
		}
	}
	return cells, nil
}

// autoDevUnconstrainedCells returns one cell per unconstrained candidate of
// auto (autoDevUnconstrained) on the dataset load returns, keyed by key:
// the method with its defaults on the graph and k, its ARI and seconds.
func autoDevUnconstrainedCells(key func(method string) string, load func(context.Context) (*realInstance, error), seed uint64) []Cell {
	var cells []Cell
	for _, m := range autoDevUnconstrained {
		m := m
		cells = append(cells, Cell{Key: key(m), Run: func(ctx context.Context) (Values, error) {
			inst, err := load(ctx)
			if err != nil {
				return nil, err
			}
			meth, err := cluster.New(m)
			if err != nil {
				return nil, err
			}
			return autoDevFit(ctx, meth, &cluster.Problem{Graph: inst.g, K: inst.k}, inst.truth, seed)
		}})
	}
	return cells
}

// autoDevBest is the best unconstrained method of a dataset, the baseline
// of auto-dev and auto-score-dev: the highest ARI among the cells of
// autoDevUnconstrained that ran (key gives a method's cell key), the first
// on ties, and its method; −Inf and "" when none ran. Cost: one lookup per
// method.
func autoDevBest(results map[string]Values, key func(method string) string) (ari float64, method string) {
	ari = math.Inf(-1)
	for _, m := range autoDevUnconstrained {
		if v, ok := results[key(m)]; ok && v["failed"] == 0 && v["ari"] > ari {
			ari, method = v["ari"], m
		}
	}
	return ari, method
}

// autoDevFit runs one method and returns its ARI and seconds.
func autoDevFit(ctx context.Context, m cluster.Method, p *cluster.Problem, truth []int, seed uint64) (Values, error) {
	v := Values{}
	if _, err := autoDevRun(ctx, m, p, &cluster.Settings{Seed: seed}, truth, v, "ari"); err != nil {
		return nil, err
	}
	return v, nil
}

// autoDevRun runs m on p with settings s and records in v the run's
// seconds (Result.Runtime) and, under the key ari, its ARI against truth.
// A run that fails while ctx is not done records only its noisyFailCode
// under "failed" and returns a nil result and no error; a done ctx returns
// ctx.Err(). Cost: one cluster.Run and one ARI.
func autoDevRun(ctx context.Context, m cluster.Method, p *cluster.Problem, s *cluster.Settings, truth []int, v Values, ari string) (*cluster.Result, error) {
	res, err := cluster.Run(ctx, m, p, s)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		v["failed"] = noisyFailCode(err)
		return nil, nil
	}
	v["seconds"] = res.Runtime.Seconds()
	if v[ari], err = metrics.ARI(truth, res.Labels); err != nil {
		return nil, err
	}
	return res, nil
}

// autoDevMethod is auto as auto-dev runs it: the test off, every other
// knob at its default.
func autoDevMethod() cluster.Auto { return cluster.Auto{Z: -1} }

// autoDevAuto runs auto once, with the test off (Z = −1), on draw rep of
// the pairs-1/n protocol (realdata's draws: realConstraints), and records
// what every threshold would choose: the best constrained candidate's b
// and c against the best unconstrained one (its baseline), the ARI of the
// strict choice ("ari_strict") and the ARI of the baseline's partition
// ("ari_base", refitted exactly as auto fits it: the graph and k, Settings
// as given). Under threshold z auto returns the strict choice when that is
// a constrained candidate with b − c > z·√(b + c), and the baseline
// otherwise; autoDevARI applies that.
func autoDevAuto(ctx context.Context, inst *realInstance, name string, rep int, seed uint64) (Values, error) {
	set, err := realConstraints(ctx, inst.truth, name, "1/n", rep, seed)
	if err != nil {
		return nil, err
	}
	v := Values{"constraints": float64(len(set.Pairs))}
	s := &cluster.Settings{Seed: seed + uint64(rep)}
	res, err := autoDevRun(ctx, autoDevMethod(), &cluster.Problem{Graph: inst.g, K: inst.k, Constraints: set}, s, inst.truth, v, "ari_strict")
	if err != nil {
		return nil, err
	}
	if res == nil {
		return v, nil // failed
	}
	v["ari_base"] = v["ari_strict"]
	rep0 := res.Report.(*cluster.AutoReport)
	v["held_out"] = float64(rep0.HeldOut)
	for _, c := range rep0.Candidates {
		if c.Name == rep0.Chosen && c.Supervised {
			v["constrained"], v["b"], v["c"] = 1, float64(c.B), float64(c.C)
		}
	}
	if rep0.Baseline != "" {
		m, err := cluster.New(rep0.Baseline)
		if err != nil {
			return nil, err
		}
		base, err := autoDevFit(ctx, m, &cluster.Problem{Graph: inst.g, K: inst.k}, inst.truth, s.Seed)
		if err != nil {
			return nil, err
		}
		if base["failed"] > 0 {
			return nil, fmt.Errorf("auto-dev: the baseline %s failed outside auto", rep0.Baseline)
		}
		v["ari_base"] = base["ari"]
	}
	return v, nil
}

// autoDevARI is auto's ARI on one draw under threshold z (see
// autoDevAuto).
func autoDevARI(v Values, z float64) float64 {
	if v["constrained"] == 0 || v["b"]-v["c"] > z*math.Sqrt(v["b"]+v["c"]) {
		return v["ari_strict"]
	}
	return v["ari_base"]
}

// autoDevLine is one dataset's summary.
type autoDevLine struct {
	row      autoDevRow
	best     float64
	bestName string
	auto     []float64 // mean ARI over the draws, per rule
	draws    int
	won      []int // draws where a constrained candidate was chosen, per rule
	ran      bool
}

// autoDevPick applies the criterion of auto-dev and auto-score-dev, fixed
// before their results were seen: primary, the number of datasets where
// auto ≥ best unconstrained − 0.01 (issue 19's target a; within[i] for
// candidate i); secondary, the number where auto > best unconstrained +
// 0.01 (target b; above[i]); then the earlier candidate: on auto-dev the
// smaller threshold (the rule nearer the one before), on auto-score-dev
// the earlier score (the current default). It returns the index into
// autoDevRules or autoScoreDevScores, whose counts within and above hold.
// Cost: one pass over the candidates.
func autoDevPick(within, above []int) int {
	best := 0
	for i := range within {
		if within[i] > within[best] || (within[i] == within[best] && above[i] > above[best]) {
			best = i
		}
	}
	return best
}

func autoDevRuleName(z float64) string {
	if z == 0 {
		return "strict (b > c)"
	}
	return fmt.Sprintf("z = %g", z)
}

func autoDevReport(env *Env, results map[string]Values) (*Output, error) {
	rows := autoDevRowsFor(env)
	nr := len(autoDevRules)
	var lines []autoDevLine
	within, above := make([]int, nr), make([]int, nr)
	var ran, failed, draws, checks, mismatch int
	var better, worse, same int // draws with a constrained strict choice: its ARI against the baseline's
	var secs float64
	var drawBuf bytes.Buffer
	dw := csv.NewWriter(&drawBuf)
	dw.Write([]string{"dataset", "draw", "constraints", "held_out", "strict_choice_constrained", "b", "c", "mcnemar_z", "ari_strict", "ari_base", "seconds"})
	for _, r := range rows {
		l := autoDevLine{row: r, auto: make([]float64, nr), won: make([]int, nr)}
		l.best, l.bestName = autoDevBest(results, func(m string) string { return autoDevKey(r.name, m, 0) })
		for rep := 0; rep < autoDevSets(env, r.p.N); rep++ {
			v, ok := results[autoDevKey(r.name, "auto@"+autoKeyRev(autoDevMethod()), rep)]
			if !ok || v["failed"] > 0 {
				failed++
				continue
			}
			l.draws++
			secs += v["seconds"]
			switch {
			case v["constrained"] == 1 && v["ari_strict"] > v["ari_base"]:
				better++
			case v["constrained"] == 1 && v["ari_strict"] < v["ari_base"]:
				worse++
			case v["constrained"] == 1:
				same++
			}
			if v["constrained"] == 0 {
				checks++
				if v["ari_base"] != v["ari_strict"] {
					mismatch++
				}
			}
			for i, z := range autoDevRules {
				l.auto[i] += autoDevARI(v, z)
				if v["constrained"] == 1 && v["b"]-v["c"] > z*math.Sqrt(v["b"]+v["c"]) {
					l.won[i]++
				}
			}
			zz := 0.0
			if v["b"]+v["c"] > 0 {
				zz = (v["b"] - v["c"]) / math.Sqrt(v["b"]+v["c"])
			}
			dw.Write([]string{r.name, strconv.Itoa(rep), strconv.Itoa(int(v["constraints"])), strconv.Itoa(int(v["held_out"])), strconv.Itoa(int(v["constrained"])),
				strconv.Itoa(int(v["b"])), strconv.Itoa(int(v["c"])), fmt.Sprintf("%.3f", zz), fmt.Sprintf("%.4f", v["ari_strict"]), fmt.Sprintf("%.4f", v["ari_base"]), fmt.Sprintf("%.3f", v["seconds"])})
		}
		draws += l.draws
		if l.draws > 0 && l.bestName != "" {
			l.ran = true
			ran++
			for i := range l.auto {
				l.auto[i] /= float64(l.draws)
				if l.auto[i] >= l.best-0.01 {
					within[i]++
				}
				if l.auto[i] > l.best+0.01 {
					above[i]++
				}
			}
		}
		lines = append(lines, l)
	}
	dw.Flush()
	pick := autoDevPick(within, above)

	var md strings.Builder
	writePageHead(&md, env, "Development suite of auto's significance rule (issue 19)", "flock /work/bench.lock go run ./cmd/tether repro auto-dev", "three datasets, one draw.")
	fmt.Fprintf(&md, "**Why.** `-method auto` (cluster.Auto) chooses by cross-validation on the constraints alone (3 folds when this page was made, 5 since auto-folds-dev). "+
		"On the [realdata](../realdata/README.md) page, with the pairs-1/n protocol, it fell more than 0.01 ARI below the best "+
		"unconstrained method on 5 of 21 real datasets: with few held-out pairs (karate: about 6 per fold) a constrained candidate "+
		"won by satisfying one or two more held-out pairs by chance. So auto now replaces the best unconstrained partition only when "+
		"the best constrained candidate is significantly better on the same held-out constraints, by McNemar's paired test: with "+
		"b the held-out constraints it satisfies and the best unconstrained candidate does not and c the reverse, when "+
		"b − c > z·√(b + c) (cluster.Auto.Z). This page chooses z on generated data only, so that the real datasets stay a test set.\n\n")
	fmt.Fprintf(&md, "**Fixed before any result was seen.** Rules tried: ")
	var names []string
	for _, z := range autoDevRules {
		names = append(names, autoDevRuleName(z))
	}
	fmt.Fprintf(&md, "%s (strict is the rule before the test; 1.645 and 2.326 are the one-sided 5%% and 1%% levels of one test; "+
		"2.69 is the one-sided 5%% level Bonferroni-corrected for 14 constrained candidates, since the best of about 14 is tested and its "+
		"margin is optimistic). Criterion: **primary**, the number of dev datasets where auto's mean ARI ≥ the best unconstrained "+
		"method's − 0.01 (issue 19's target a); **secondary**, the number where auto > best unconstrained + 0.01 (target b); "+
		"**then** the smaller z (the rule nearer the one before).\n\n", strings.Join(names, ", "))
	fmt.Fprintf(&md, "**Suite.** %d generated datasets (`tether gen`, dataset/synth), seeded: SBM and degree-corrected SBM graphs as drawn, "+
		"and blobs, moons, circles, xor and interlaced circles turned into the default graph (%s), as realdata does with its feature "+
		"sets; 30 to 3000 nodes, most of them 30–150, k from 2 to 8. The names give the parameters (sbm: n, k, c_in, c_out; dcsbm: also "+
		"the exponent γ; blobs: n, k, dimension, standard deviation; the others: n, noise). Constraints: realdata's pairs-1/n "+
		"protocol and its code (each pair with probability 1/n, about n/2 pairs; %d draws per dataset, 1 above %d nodes). "+
		"Best unconstrained: the highest ARI of njw, ncut, usc and bethe with their defaults (Settings{Seed}), auto's "+
		"unconstrained candidates. auto runs once per draw with the test off (Z = −1); its report gives the best constrained "+
		"candidate's b and c against its baseline (the best unconstrained candidate by held-out score), and under threshold z "+
		"auto returns the strict choice when it is a constrained candidate with b − c > z·√(b + c), and the baseline's partition "+
		"otherwise (refitted as auto fits it; where the strict choice was already the baseline the two ARIs agree on %d of "+
		"%d draws that check it). ARI over all nodes.\n\n", len(rows), graph.DefaultSpec(), realSets, realBigN, checks-mismatch, checks)
	md.WriteString("auto's cells were recomputed when SSC:KA's default kernel became the commute-time kernel " +
		"([sscka-dev](../sscka-dev/README.md)), one of auto's candidates, and again when auto's default number of folds became 5 " +
		"([auto-folds-dev](../auto-folds-dev/README.md); with 3 folds the strict rule had 31 and 20 of 33, z = 1 28 and 15); the " +
		"unconstrained cells did not change, and neither did the pick.\n\n")
	fmt.Fprintf(&md, "## Totals (%d datasets where auto and an unconstrained method ran; %d draws, %d failed)\n\n| rule | auto ≥ best − 0.01 (a) | auto > best + 0.01 (b) | draws where a constrained candidate was chosen |\n|---|---|---|---|\n", ran, draws, failed)
	for i, z := range autoDevRules {
		won := 0
		for _, l := range lines {
			won += l.won[i]
		}
		mark := ""
		if i == pick {
			mark = " **(chosen)**"
		}
		fmt.Fprintf(&md, "| %s%s | %d of %d | %d of %d | %d of %d |\n", autoDevRuleName(z), mark, within[i], ran, above[i], ran, won, draws)
	}
	fmt.Fprintf(&md, "\nThe criterion picks **%s**. cluster.AutoDefaultZ = %g: ", autoDevRuleName(autoDevRules[pick]), cluster.AutoDefaultZ)
	if cluster.AutoDefaultZ == autoDevRules[pick] {
		md.WriteString("the default is the rule picked here.\n\n")
	} else {
		md.WriteString("**the default differs from the rule picked here**.\n\n")
	}
	fmt.Fprintf(&md, "On the %d draws where the strict rule chose a constrained candidate, its ARI was above the baseline's on %d, below on %d and equal on %d: "+
		"a threshold only ever turns such a draw back to the baseline.\n\n", better+worse+same, better, worse, same)
	fmt.Fprintf(&md, "auto's seconds over all draws: %.1f (one run per draw, test off).\n\n", secs)
	fmt.Fprintf(&md, "## Per dataset (mean ARI over the draws; in brackets, draws where a constrained candidate was chosen)\n\n| dataset | n | k | best unconstrained |")
	for _, z := range autoDevRules {
		fmt.Fprintf(&md, " auto, %s |", autoDevRuleName(z))
	}
	md.WriteString("\n|---|---|---|---|")
	for range autoDevRules {
		md.WriteString("---|")
	}
	md.WriteString("\n")
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	head := []string{"dataset", "generator", "n", "k", "best_unconstrained", "best_ari", "draws"}
	for _, z := range autoDevRules {
		head = append(head, fmt.Sprintf("auto_ari_z%g", z), fmt.Sprintf("constrained_draws_z%g", z))
	}
	w.Write(head)
	for _, l := range lines {
		k := l.row.k()
		if !l.ran {
			fmt.Fprintf(&md, "| %s | %d | %d | – |", l.row.name, l.row.p.N, k)
			for range autoDevRules {
				md.WriteString(" – |")
			}
			md.WriteString("\n")
			continue
		}
		fmt.Fprintf(&md, "| %s | %d | %d | %.3f (%s) |", l.row.name, l.row.p.N, k, l.best, l.bestName)
		rec := []string{l.row.name, l.row.gen, strconv.Itoa(l.row.p.N), strconv.Itoa(k), l.bestName, fmt.Sprintf("%.4f", l.best), strconv.Itoa(l.draws)}
		for i := range autoDevRules {
			cell := fmt.Sprintf("%.3f [%d]", l.auto[i], l.won[i])
			switch {
			case l.auto[i] < l.best-0.01:
				cell = "*" + cell + "*"
			case l.auto[i] > l.best+0.01:
				cell = "**" + cell + "**"
			}
			fmt.Fprintf(&md, " %s |", cell)
			rec = append(rec, fmt.Sprintf("%.4f", l.auto[i]), strconv.Itoa(l.won[i]))
		}
		md.WriteString("\n")
		w.Write(rec)
	}
	w.Flush()
	md.WriteString("\nBold: more than 0.01 above the best unconstrained method (target b); italic: more than 0.01 below it (target a fails).\n\n")
	md.WriteString("Per draw (b, c, McNemar's z of the strict choice against its baseline, both ARIs): [auto-dev-draws.csv](auto-dev-draws.csv).\n")
	return &Output{Markdown: md.String(), Files: map[string][]byte{"auto-dev.csv": buf.Bytes(), "auto-dev-draws.csv": drawBuf.Bytes()}}, nil
}
