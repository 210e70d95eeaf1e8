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
)

// The development suite of auto's held-out score (issue 19, beyond the
// sources): cluster.Auto.Score, the fraction of held-out constraints
// satisfied or the ARI of the held-out pairs' 2×2 table, is chosen here on
// generated data only, so that the real datasets of realdata stay a test
// set. The scores, the suite and the criterion were fixed before any
// result of this suite was seen (autoScoreDevScores, autoScoreDevRows,
// autoDevPick), and the pick becomes cluster.AutoDefaultScore whatever
// realdata then shows.

// autoScoreDevScores are the scores compared, the current default first
// (the tie rule keeps it).
var autoScoreDevScores = []cluster.AutoScore{cluster.AutoScoreSatisfied, cluster.AutoScorePairARI}

// autoScoreDevRow is a dataset of the suite: auto-dev's, or one of its
// graphs or feature sets with unequal classes (keep: the share of each
// class kept, the first ⌈keep[c]·n_c⌉ nodes of class c; the induced
// subgraph for graph models).
type autoScoreDevRow struct {
	autoDevRow
	keep []float64
}

// autoScoreDevRows: auto-dev's 33 datasets, whose classes are of equal
// size (up to the generators' rounding), and six with unequal classes,
// since real labelled data rarely has equal classes (the largest class
// holds 47–72% of the nodes here).
var autoScoreDevRows = func() []autoScoreDevRow {
	var out []autoScoreDevRow
	for _, r := range autoDevRows {
		out = append(out, autoScoreDevRow{autoDevRow: r})
	}
	imb := func(gen string, p synth.Params, keep []float64) autoScoreDevRow {
		var name string
		switch gen {
		case "sbm":
			name = fmt.Sprintf("sbm-n%d-k%d-c%g-%g", p.N, p.K, p.Cin, p.Cout)
		case "dcsbm":
			name = fmt.Sprintf("dcsbm-n%d-k%d-c%g-%g-g%g", p.N, p.K, p.Cin, p.Cout, p.Gamma)
		default:
			name = fmt.Sprintf("blobs-n%d-k%d-d%d-s%g", p.N, p.K, p.Dim, p.Noise)
		}
		ks := make([]string, len(keep))
		for i, x := range keep {
			ks[i] = strconv.FormatFloat(x, 'g', -1, 64)
		}
		return autoScoreDevRow{autoDevRow{name + "-keep" + strings.Join(ks, ":"), gen, p}, keep}
	}
	return append(out,
		imb("sbm", synth.Params{N: 400, K: 4, Cin: 16, Cout: 3}, []float64{1, 0.5, 0.25, 0.15}),
		imb("sbm", synth.Params{N: 600, K: 5, Cin: 12, Cout: 3}, []float64{1, 0.45, 0.25, 0.15, 0.1}),
		imb("dcsbm", synth.Params{N: 600, K: 5, Cin: 15, Cout: 3, Gamma: 2.5}, []float64{1, 0.45, 0.25, 0.15, 0.1}),
		imb("dcsbm", synth.Params{N: 400, K: 3, Cin: 10, Cout: 2, Gamma: 2.5}, []float64{1, 0.35, 0.15}),
		imb("blobs", synth.Params{N: 600, K: 3, Dim: 3, Noise: 2}, []float64{1, 0.3, 0.1}),
		imb("blobs", synth.Params{N: 500, K: 5, Dim: 5, Noise: 3}, []float64{1, 0.5, 0.3, 0.2, 0.1}),
	)
}()

// autoScoreDevRev names the definition of the cells; change it to
// recompute.
const autoScoreDevRev = "v1"

// AutoScoreDev is the development suite of auto's held-out score.
func AutoScoreDev() Experiment {
	var loads memo[string, *realInstance]
	return Experiment{
		Name:   "auto-score-dev",
		Title:  "Development suite of -method auto's held-out score (fraction satisfied or pair ARI) on generated graphs and feature sets, pairs 1/n",
		Source: "issue 19 (beyond the sources)",
		Cells: func(env *Env) ([]Cell, error) {
			return autoScoreDevCells(env, &loads)
		},
		Report: autoScoreDevReport,
	}
}

func autoScoreDevRowsFor(env *Env) []autoScoreDevRow {
	if env.Quick {
		return []autoScoreDevRow{autoScoreDevRows[0], autoScoreDevRows[len(autoScoreDevRows)-1]}
	}
	return autoScoreDevRows
}

func autoScoreDevKey(name, method string, rep int) string {
	return fmt.Sprintf("%s/%s/%d/%s", name, method, rep, autoScoreDevRev)
}

// autoScoreDevLoad generates a dataset (autoDevLoad) and keeps the
// row's share of each class.
func autoScoreDevLoad(ctx context.Context, r autoScoreDevRow, seed uint64) (*realInstance, error) {
	if r.keep == nil {
		return autoDevLoad(ctx, r.autoDevRow, seed)
	}
	d, err := synthGenerate(ctx, r.gen, r.p, seed, "auto-score-dev", r.name)
	if err != nil {
		return nil, err
	}
	nodes := keepPerClass(d.Labels, r.keep)
	inst := &realInstance{k: r.p.K, truth: make([]int, len(nodes))}
	for t, i := range nodes {
		inst.truth[t] = d.Labels[i]
	}
	if d.Graph != nil {
		inst.g, err = d.Graph.Subgraph(nodes)
		return inst, err
	}
	x, _ := noisyDevSubsample(d.X, d.Labels, r.keep)
	inst.g, err = graph.Build(ctx, x, graph.DefaultSpec())
	return inst, err
}

func autoScoreDevCells(env *Env, loads *memo[string, *realInstance]) ([]Cell, error) {
	var cells []Cell
	for _, r := range autoScoreDevRowsFor(env) {
		r := r
		load := func(ctx context.Context) (*realInstance, error) {
			return loads.get(ctx, r.name, func(ctx context.Context) (*realInstance, error) {
				return autoScoreDevLoad(ctx, r, env.Seed)
			})
		}
		cells = append(cells, autoDevUnconstrainedCells(func(m string) string { return autoScoreDevKey(r.name, m, 0) }, load, env.Seed)...)
		for _, sc := range autoScoreDevScores {
			for rep := 0; rep < autoDevSets(env, r.p.N); rep++ {
				sc, rep := sc, rep
				cells = append(cells, Cell{Key: autoScoreDevKey(r.name, "auto-"+sc.String()+"@"+autoCandidatesRev, rep), Run: func(ctx context.Context) (Values, error) {
					inst, err := load(ctx)
					if err != nil {
						return nil, err
					}
					return autoScoreDevAuto(ctx, inst, r.name, sc, rep, env.Seed)
				}})
			}
		}
	}
	return cells, nil
}

// autoScoreDevAuto runs auto with score sc (and its default threshold) on
// draw rep of the pairs-1/n protocol (realdata's draws).
func autoScoreDevAuto(ctx context.Context, inst *realInstance, name string, sc cluster.AutoScore, rep int, seed uint64) (Values, error) {
	set, err := realConstraints(inst.truth, name, "1/n", rep, seed)
	if err != nil {
		return nil, err
	}
	v := Values{"constraints": float64(len(set.Pairs)), "nodes": float64(len(inst.truth))}
	res, err := autoDevRun(ctx, cluster.Auto{Score: sc}, &cluster.Problem{Graph: inst.g, K: inst.k, Constraints: set}, &cluster.Settings{Seed: seed + uint64(rep)}, inst.truth, v, "ari")
	if err != nil {
		return nil, err
	}
	if res == nil {
		return v, nil // failed
	}
	rp := res.Report.(*cluster.AutoReport)
	for _, c := range rp.Candidates {
		if c.Name == rp.Chosen && c.Supervised {
			v["constrained"] = 1
		}
	}
	return v, nil
}

func autoScoreDevReport(env *Env, results map[string]Values) (*Output, error) {
	rows := autoScoreDevRowsFor(env)
	ns := len(autoScoreDevScores)
	within, above := make([]int, ns), make([]int, ns)
	withinImb, aboveImb := make([]int, ns), make([]int, ns)
	mean := make([]float64, ns)
	var ran, ranImb, failed int
	var tab strings.Builder
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	head := []string{"dataset", "n", "k", "unequal", "best_unconstrained", "best_ari", "draws"}
	for _, sc := range autoScoreDevScores {
		head = append(head, "auto_ari_"+sc.String(), "constrained_draws_"+sc.String())
	}
	w.Write(head)
	for _, r := range rows {
		best, bestName := autoDevBest(results, func(m string) string { return autoScoreDevKey(r.name, m, 0) })
		sets := autoDevSets(env, r.p.N)
		auto := make([]float64, ns)
		won := make([]int, ns)
		draws := make([]int, ns)
		n := 0
		for i, sc := range autoScoreDevScores {
			for rep := 0; rep < sets; rep++ {
				v, ok := results[autoScoreDevKey(r.name, "auto-"+sc.String()+"@"+autoCandidatesRev, rep)]
				if !ok || v["failed"] > 0 {
					failed++
					continue
				}
				draws[i]++
				n = int(v["nodes"])
				auto[i] += v["ari"]
				won[i] += int(v["constrained"])
			}
		}
		k := r.p.K
		if k == 0 {
			k = 2
		}
		okAll := bestName != ""
		for i := range draws {
			okAll = okAll && draws[i] == sets
		}
		if !okAll {
			fmt.Fprintf(&tab, "| %s | %d | %d | – |", r.name, n, k)
			for range autoScoreDevScores {
				tab.WriteString(" – |")
			}
			tab.WriteString("\n")
			continue
		}
		ran++
		if r.keep != nil {
			ranImb++
		}
		fmt.Fprintf(&tab, "| %s | %d | %d | %.3f (%s) |", r.name, n, k, best, bestName)
		rec := []string{r.name, strconv.Itoa(n), strconv.Itoa(k), strconv.FormatBool(r.keep != nil), bestName, fmt.Sprintf("%.4f", best), strconv.Itoa(sets)}
		for i := range autoScoreDevScores {
			a := auto[i] / float64(draws[i])
			mean[i] += a
			cell := fmt.Sprintf("%.3f [%d]", a, won[i])
			if a >= best-0.01 {
				within[i]++
				if r.keep != nil {
					withinImb[i]++
				}
			} else {
				cell = "*" + cell + "*"
			}
			if a > best+0.01 {
				above[i]++
				if r.keep != nil {
					aboveImb[i]++
				}
				cell = "**" + cell + "**"
			}
			fmt.Fprintf(&tab, " %s |", cell)
			rec = append(rec, fmt.Sprintf("%.4f", a), strconv.Itoa(won[i]))
		}
		tab.WriteString("\n")
		w.Write(rec)
	}
	w.Flush()
	pick := autoDevPick(within, above)

	var md strings.Builder
	fmt.Fprintf(&md, "# Development suite of auto's held-out score (issue 19)\n\n")
	fmt.Fprintf(&md, "Regenerated by\n\n    flock /work/bench.lock go run ./cmd/tether repro auto-score-dev\n\n")
	if env.Quick {
		fmt.Fprintf(&md, "**Quick mode**: two datasets, one draw.\n\n")
	}
	md.WriteString("**Why.** `-method auto` (cluster.Auto) scores every candidate on held-out constraints. Its score was the fraction " +
		"of held-out constraints satisfied. When the classes are many or unequal most pairs are cannot-links, and that fraction " +
		"mostly rewards keeping nodes apart, while ARI, issue 19's measure, weighs pairs together and apart alike, corrected for " +
		"chance. So Auto gained a second score (Auto.Score = pair-ari): the ARI of the held-out pairs' 2×2 table (must-link or " +
		"cannot-link against together or apart), which on a uniform sample of pairs (the pairs-1/n protocol) estimates the " +
		"partition's ARI, and on all pairs is that ARI exactly. The idea came from [realdata](../realdata/README.md)'s " +
		"replication, where auto stayed below the best unconstrained method on webkb-texas (5 unequal classes) and breast-tissue " +
		"(6 classes); this page chooses between the two scores on generated data only, so that the real datasets stay a test set.\n\n")
	md.WriteString("**Fixed before any result was seen** (in the commit that added this page, before its cells were computed): the " +
		"scores (satisfied, the default before, and pair-ari), the suite, and the criterion: **primary**, the number of dev " +
		"datasets where auto's mean ARI ≥ the best unconstrained method's − 0.01 (issue 19's target a); **secondary**, the " +
		"number where auto > best unconstrained + 0.01 (target b); **then** satisfied, the default before. **The pick becomes " +
		"cluster.AutoDefaultScore, and realdata's auto cells are then recomputed once with it and reported whatever they show.**\n\n")
	fmt.Fprintf(&md, "**Suite.** The %d datasets of [auto-dev](../auto-dev/README.md) (classes of equal size) and six with unequal classes, added with this "+
		"page because real labelled data rarely has equal classes: SBM and DC-SBM graphs and blobs of which the first "+
		"⌈keep_c·n_c⌉ nodes of each class c are kept (the induced subgraph for the graph models; the default graph, %s, on the "+
		"kept points), the shares in the name after \"keep\"; the largest class holds 47–72%% of the nodes. Constraints: realdata's "+
		"pairs-1/n protocol and its code (%d draws per dataset, 1 above %d nodes), the same draws for both scores. Best "+
		"unconstrained: the highest ARI of njw, ncut, usc and bethe with their defaults. auto runs with its default threshold "+
		"(AutoDefaultZ = %g) and each score. ARI over all nodes.\n\n", len(autoDevRows), graph.DefaultSpec(), realSets, realBigN, cluster.AutoDefaultZ)
	md.WriteString("auto's cells were recomputed when SSC:KA's default kernel became the commute-time kernel " +
		"([sscka-dev](../sscka-dev/README.md)), one of auto's candidates; the unconstrained cells did not change.\n\n")
	fmt.Fprintf(&md, "## Totals (%d datasets where every cell ran, %d of them with unequal classes; %d failed cells)\n\n", ran, ranImb, failed)
	md.WriteString("| score | auto ≥ best − 0.01 (a) | auto > best + 0.01 (b) | (a) on unequal classes | (b) on unequal classes | mean ARI of auto |\n|---|---|---|---|---|---|\n")
	for i, sc := range autoScoreDevScores {
		mark := ""
		if i == pick {
			mark = " **(chosen)**"
		}
		m := math.NaN()
		if ran > 0 {
			m = mean[i] / float64(ran)
		}
		fmt.Fprintf(&md, "| %s%s | %d of %d | %d of %d | %d of %d | %d of %d | %.3f |\n", sc, mark, within[i], ran, above[i], ran, withinImb[i], ranImb, aboveImb[i], ranImb, m)
	}
	fmt.Fprintf(&md, "\nThe criterion picks **%s**. cluster.AutoDefaultScore = %s: ", autoScoreDevScores[pick], cluster.AutoDefaultScore)
	if cluster.AutoDefaultScore == autoScoreDevScores[pick] {
		md.WriteString("the default is the score picked here.\n\n")
	} else {
		md.WriteString("**the default differs from the score picked here**.\n\n")
	}
	md.WriteString("## Per dataset (mean ARI over the draws; in brackets, draws where a constrained candidate was chosen)\n\n| dataset | n | k | best unconstrained |")
	for _, sc := range autoScoreDevScores {
		fmt.Fprintf(&md, " auto, %s |", sc)
	}
	md.WriteString("\n|---|---|---|---|")
	for range autoScoreDevScores {
		md.WriteString("---|")
	}
	md.WriteString("\n")
	md.WriteString(tab.String())
	md.WriteString("\nBold: more than 0.01 above the best unconstrained method (target b); italic: more than 0.01 below it (target a fails).\n")
	return &Output{Markdown: md.String(), Files: map[string][]byte{"auto-score-dev.csv": buf.Bytes()}}, nil
}
