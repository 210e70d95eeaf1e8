package experiment

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// The 25%-labels question of seed 004 Fig. 6.4 (issue 20): the source says
// that with 25% labels the "only L_N" variant reaches an NMI "as high as
// 0.5" below the detectability threshold; our Fig. 6.4 stays below 0.2
// there. This experiment varies one ingredient at a time at k = 2,
// c_in + c_out = 3, below the threshold 2√1.5 ≈ 2.449: the label protocol
// (stratified or uniform draw; NMI over all nodes or over the unlabelled
// ones), the graph size (n = 2000), the number of graphs (10 per point, and
// the best single graph), and the method (the "both" variant; the default
// r), against the NMI that the labels alone give (labelled nodes in their
// class, every other node in class 0).

// l25Variants are the columns: key and description.
var l25Variants = []struct{ key, label string }{
	{"ours", "Fig. 6.4's protocol (n = 1000, stratified 25%, NMI over all nodes, only L_N, r = √c)"},
	{"uniform", "labels drawn uniformly instead of stratified by class"},
	{"both", "the \"both\" variant instead of \"only L_N\""},
	{"rdefault", "only L_N with the default r = √(mean degree of A + I)"},
	{"n2000", "n = 2000 nodes"},
}

func l25Xs(env *Env) []float64 {
	if env.Quick {
		return []float64{2.25}
	}
	return []float64{0, 1, 2, 2.25, 2.4}
}

func l25Graphs(env *Env) int {
	if env.Quick {
		return 1
	}
	return 10
}

const l25Version = "v1"

func l25Key(v string, x float64, g int) string {
	return fmt.Sprintf("%s/%s/x=%.4f/g=%d", l25Version, v, x, g)
}

// Seed004Labels25 is the experiment answering the 25%-labels question.
func Seed004Labels25() Experiment {
	return Experiment{
		Name:   "seed004-labels25",
		Title:  "why 25% labels stay far below NMI 0.5 under the detectability threshold (seed 004 Fig. 6.4): protocol, graph size, graphs, method",
		Source: "seed 004 §6.5, Fig. 6.4 (discussion)",
		Cells: func(env *Env) ([]Cell, error) {
			var cells []Cell
			for _, v := range l25Variants {
				if env.Quick && v.key == "n2000" {
					continue
				}
				for _, x := range l25Xs(env) {
					for g := 0; g < l25Graphs(env); g++ {
						v, x, g := v.key, x, g
						cells = append(cells, Cell{Key: l25Key(v, x, g), Run: func(ctx context.Context) (Values, error) { return l25Run(ctx, env, v, x, g) }})
					}
				}
			}
			return cells, nil
		},
		Report: l25Report,
	}
}

// l25Run computes one cell. The graph and the stratified labels of graph
// g are exactly those of Fig. 6.4's cell at the same c_in − c_out and g (for
// n = 1000), so "ours" repeats (and extends to 10 graphs) the published page.
func l25Run(ctx context.Context, env *Env, variant string, x float64, g int) (Values, error) {
	f := fig646Figures(&Env{})[0] // k = 2, c_in + c_out = 3 (the full, not the quick, figure)
	n := 1000
	if variant == "n2000" {
		n = 2000
	}
	cin, cout := f.cin(x)
	gs := sbmGraphSeed(f, x, g)
	gr, truth, err := synth.SBM(n, 2, cin, cout, rand.NewPCG(env.Seed, gs))
	if err != nil {
		return nil, err
	}
	const frac = 0.25
	lsrc := rand.NewPCG(env.Seed^0x5eed, gs*31+uint64(math.Round(frac*1000)))
	var labels constraint.Labels
	if variant == "uniform" {
		labels, err = constraint.FractionLabelsContext(ctx, truth, frac, lsrc)
	} else {
		labels, err = constraint.StratifiedLabels(ctx, truth, frac, lsrc)
	}
	if err != nil {
		return nil, err
	}
	m := cluster.FastGE2BH{Variant: cluster.BetheLN, R: math.Sqrt((cin + cout) / 2)}
	switch variant {
	case "both":
		m.Variant = cluster.BetheBoth
	case "rdefault":
		m.R = 0
	}
	res, err := cluster.Run(ctx, m, &cluster.Problem{Graph: gr, K: 2, Labels: labels, Disconnected: publishedDisconnected}, &cluster.Settings{Seed: env.Seed + uint64(g)})
	if err != nil {
		return nil, err
	}
	nmi, err := metrics.NMI(truth, res.Labels, metrics.Arithmetic)
	if err != nil {
		return nil, err
	}
	// NMI over the unlabelled nodes, and the labels-only reference.
	var tu, pu []int
	only := make([]int, n)
	for i, l := range labels {
		if l == constraint.Unlabeled {
			tu, pu = append(tu, truth[i]), append(pu, res.Labels[i])
		} else {
			only[i] = l
		}
	}
	nmiU, err := metrics.NMI(tu, pu, metrics.Arithmetic)
	if err != nil {
		return nil, err
	}
	nmiL, err := metrics.NMI(truth, only, metrics.Arithmetic)
	if err != nil {
		return nil, err
	}
	nmiH, err := metrics.NMI(truth, l25Harmonic(gr, labels, 2), metrics.Arithmetic)
	if err != nil {
		return nil, err
	}
	comp, nc := gr.Components()
	size := make([]int, nc)
	for _, c := range comp {
		size[c]++
	}
	giant := 0
	for _, s := range size {
		giant = max(giant, s)
	}
	return Values{"nmi": nmi, "nmi_unlabelled": nmiU, "nmi_labels_only": nmiL, "nmi_harmonic": nmiH, "giant": float64(giant) / float64(n)}, nil
}

// l25Harmonic is a plain semi-supervised reference on the same graph: the
// harmonic function (thesis §3.1) by 300 Jacobi sweeps h_i ← Σ_j w_ij h_j /
// d_i with the labelled nodes clamped to their one-hot class, then the
// largest class score; nodes of components without a label keep the
// uniform start and go to class 0, as in the labels-only column. Cost
// O(300·(nnz + n·k)).
func l25Harmonic(g *graph.Graph, labels constraint.Labels, k int) []int {
	n := g.N()
	h := make([]float64, n*k)
	next := make([]float64, n*k)
	for i, l := range labels {
		for c := 0; c < k; c++ {
			h[i*k+c] = 1 / float64(k)
			if l != constraint.Unlabeled {
				h[i*k+c] = 0
				if c == l {
					h[i*k+c] = 1
				}
			}
		}
	}
	for sweep := 0; sweep < 300; sweep++ {
		copy(next, h)
		for i := 0; i < n; i++ {
			if labels[i] != constraint.Unlabeled {
				continue
			}
			idx, w := g.Row(i)
			var d float64
			acc := next[i*k : (i+1)*k]
			for c := range acc {
				acc[c] = 0
			}
			for t, j := range idx {
				d += w[t]
				for c := 0; c < k; c++ {
					acc[c] += w[t] * h[int(j)*k+c]
				}
			}
			if d == 0 {
				copy(acc, h[i*k:(i+1)*k])
				continue
			}
			for c := range acc {
				acc[c] /= d
			}
		}
		h, next = next, h
	}
	out := make([]int, n)
	for i := 0; i < n; i++ {
		best := 0
		for c := 1; c < k; c++ {
			if h[i*k+c] > h[i*k+best]+1e-12 {
				best = c
			}
		}
		out[i] = best
	}
	return out
}

func l25Collect(env *Env, results map[string]Values, v string, x float64, field string) []float64 {
	var out []float64
	for g := 0; g < l25Graphs(env); g++ {
		if r, ok := results[l25Key(v, x, g)]; ok {
			out = append(out, r[field])
		}
	}
	return out
}

func l25Report(env *Env, results map[string]Values) (*Output, error) {
	xs := l25Xs(env)
	thr := synth.Threshold(2, 1.5, 1.5)
	var md strings.Builder
	var csv bytes.Buffer
	md.WriteString("# Seed 004 Fig. 6.4: why 25% labels stay far below NMI 0.5 under the threshold\n\n" +
		"Regenerate with `tether repro seed004-labels25` (add `-quick` for the smoke test).\n\n" +
		"**The question** (issue 20): seed 004 §6.5 says that with only 25% labels the modified FAST-GE-2.0 (\"only\n" +
		"L_N\") \"can still get values as high as 0.5 for the NMI even for values of c_in − c_out *smaller* the\n" +
		"theoretical value for the limit\"; on our Fig. 6.4 (`tether repro seed004-fig6.4-6.6`) the 25% curve\n" +
		fmt.Sprintf("stays below 0.2 there (k = 2, c_in + c_out = 3, threshold k√c = %.3f). Each column below changes one\n", thr) +
		"ingredient of our protocol; each cell is the mean ± sd over graphs (the same graphs and labels as\n" +
		"Fig. 6.4's cells for n = 1000, extended to 10 graphs per point).\n\n")
	md.WriteString("Columns:\n\n")
	for _, v := range l25Variants {
		fmt.Fprintf(&md, "- `%s`: %s;\n", v.key, v.label)
	}
	md.WriteString("- `unlabelled`: `ours` with the NMI computed over the unlabelled 75% of the nodes only;\n" +
		"- `max`: the best single graph of `ours`;\n" +
		"- `harmonic`: a plain semi-supervised reference on the same graphs and labels, not a method of the seed:\n" +
		"  the harmonic function of label propagation (thesis §3.1) by 300 Jacobi sweeps, nodes of components\n" +
		"  without a label to class 0;\n" +
		"- `labels only`: no graph at all — the labelled nodes in their class, every other node in class 0 (the\n" +
		"  NMI the labels alone buy when the NMI counts the labelled nodes, as seed 004 eq. 6.3 over all nodes does).\n\n")
	md.WriteString("| c_in − c_out |")
	cols := []string{}
	for _, v := range l25Variants {
		cols = append(cols, v.key)
	}
	cols = append(cols, "unlabelled", "max", "harmonic", "labels only")
	for _, c := range cols {
		fmt.Fprintf(&md, " %s |", c)
	}
	md.WriteString("\n|---:|")
	for range cols {
		md.WriteString("---|")
	}
	md.WriteString("\n")
	csv.WriteString("x,column,graphs,mean_nmi,sd_nmi,max_nmi\n")
	best, bestAt, bestCol := -1.0, 0.0, ""
	cell := func(v []float64) string {
		if len(v) == 0 {
			return " — |"
		}
		m, sd := meanStdDev(v)
		return fmt.Sprintf(" %.3f ± %.3f |", m, sd)
	}
	var giant []float64
	for _, x := range xs {
		fmt.Fprintf(&md, "| %g |", x)
		for _, c := range cols {
			var v []float64
			switch c {
			case "unlabelled":
				v = l25Collect(env, results, "ours", x, "nmi_unlabelled")
			case "labels only":
				v = l25Collect(env, results, "ours", x, "nmi_labels_only")
			case "harmonic":
				v = l25Collect(env, results, "ours", x, "nmi_harmonic")
			case "max":
				all := l25Collect(env, results, "ours", x, "nmi")
				if len(all) == 0 {
					md.WriteString(" — |")
					continue
				}
				mx := all[0]
				for _, a := range all {
					mx = math.Max(mx, a)
				}
				fmt.Fprintf(&md, " %.3f |", mx)
				fmt.Fprintf(&csv, "%g,max,%d,%.6f,0,%.6f\n", x, len(all), mx, mx)
				if mx > best {
					best, bestAt, bestCol = mx, x, "max"
				}
				continue
			default:
				v = l25Collect(env, results, c, x, "nmi")
			}
			md.WriteString(cell(v))
			if len(v) > 0 {
				m, sd := meanStdDev(v)
				mx := v[0]
				for _, a := range v {
					mx = math.Max(mx, a)
				}
				fmt.Fprintf(&csv, "%g,%s,%d,%.6f,%.6f,%.6f\n", x, c, len(v), m, sd, mx)
				if c != "labels only" && c != "harmonic" && m > best {
					best, bestAt, bestCol = m, x, c
				}
			}
		}
		md.WriteString("\n")
		giant = append(giant, l25Collect(env, results, "ours", x, "giant")...)
	}
	gm, _ := meanStdDev(giant)
	fmt.Fprintf(&md, "\nThe largest mean NMI of any variant of the method in the table (the best single graph of `ours`, column max, included; the harmonic reference and the labels alone left out) is **%.3f**\n"+
		"(%s at c_in − c_out = %g), far from 0.5. The graphs are very sparse: mean degree c = 1.5, and the largest connected\n"+
		"component holds %.0f%% of the nodes on average.\n", best, bestCol, bestAt, 100*gm)
	out := &Output{Files: map[string][]byte{"labels25.csv": csv.Bytes()}}
	md.WriteString("\n" + l25Conclusion(env, results, xs, thr) + "\nAll figures are in `labels25.csv`.\n")
	out.Claims = l25Claims(env, results, xs, thr)
	out.Markdown = md.String()
	return out, nil
}

// l25Conclusion states what the table shows, from its numbers at the
// point closest below the threshold (x) and at c_in − c_out = 0.
func l25Conclusion(env *Env, results map[string]Values, xs []float64, thr float64) string {
	x := math.Inf(-1)
	for _, v := range xs {
		if v < thr {
			x = math.Max(x, v)
		}
	}
	mean := func(v, field string, at float64) float64 {
		m, _ := meanStdDev(l25Collect(env, results, v, at, field))
		return m
	}
	ours, lo, harm := mean("ours", "nmi", x), mean("ours", "nmi_labels_only", x), mean("ours", "nmi_harmonic", x)
	if math.IsNaN(ours) {
		return ""
	}
	var spread []string
	for _, v := range l25Variants[1:] {
		if m := mean(v.key, "nmi", x); !math.IsNaN(m) {
			spread = append(spread, fmt.Sprintf("%s %.3f", v.key, m))
		}
	}
	// The largest mean of any variant and of the harmonic reference, and the
	// best single graph, below the threshold: the wording below depends on them.
	var variantMax, graphMax, harmMax float64
	for _, xx := range xs {
		if xx >= thr {
			continue
		}
		for _, v := range l25Variants {
			if m := mean(v.key, "nmi", xx); !math.IsNaN(m) {
				variantMax = math.Max(variantMax, m)
			}
			for _, a := range l25Collect(env, results, v.key, xx, "nmi") {
				graphMax = math.Max(graphMax, a)
			}
		}
		if m := mean("ours", "nmi_harmonic", xx); !math.IsNaN(m) {
			harmMax = math.Max(harmMax, m)
		}
	}
	const near = 0.45
	var b strings.Builder
	fmt.Fprintf(&b, "**Answer.** Just below the threshold (c_in − c_out = %g) Fig. 6.4's protocol gives %.3f; changing one\n"+
		"ingredient at a time gives %s. Below the threshold the best mean of any variant is %.3f and the best\n"+
		"single graph %.3f. ", x, ours, strings.Join(spread, ", "), variantMax, graphMax)
	if graphMax >= near {
		b.WriteString("Some variant does come near 0.5, so the protocol matters: see the table for which.\n")
		return b.String()
	}
	b.WriteString("None comes near 0.5, so neither the label protocol, nor the graph size, nor the number of\n" +
		"graphs per point explains the gap.\n")
	fmt.Fprintf(&b, "The labels alone, with no graph, already give %.3f there (the NMI counts the labelled nodes), so the\n"+
		"modified FAST-GE-2.0 adds %.3f on top of its labels. A plain harmonic function on the same graph and\n"+
		"labels reaches %.3f (at most %.3f below the threshold)", lo, ours-lo, harm, harmMax)
	if harm > ours {
		b.WriteString(": the method (the source's, which tether implements as checked against an independent\n" +
			"dense computation in `cluster.TestFastGE2MatchesDenseReference`) uses the graph less well than label\n" +
			"propagation does")
	}
	if harmMax < near {
		b.WriteString(", but label propagation too stays far below 0.5")
	}
	fmt.Fprintf(&b, ". What bounds every column is information: mean degree c = 1.5, %.0f%% of the nodes outside the\n"+
		"largest component, and a weak signal per edge. ", 100*(1-mean("ours", "giant", x)))
	if z := mean("ours", "nmi", 0); !math.IsNaN(z) {
		fmt.Fprintf(&b, "At c_in − c_out = 0, where the graph carries nothing, ours is %.3f and the labels alone %.3f. ", z, mean("ours", "nmi_labels_only", 0))
	}
	b.WriteString("We therefore read the source's \"as high as 0.5\" as a property of its unstated setting (generator,\n" +
		"label protocol, evaluation), not something our implementation misses; the Fig. 6.4–6.6 page says so.\n")
	return b.String()
}

func l25Claims(env *Env, results map[string]Values, xs []float64, thr float64) []Claim {
	best := math.Inf(-1)
	reach, graphs := 0, 0 // (graph, variant) runs below the threshold, and those with NMI ≥ 0.45
	for _, x := range xs {
		if x >= thr {
			continue
		}
		for _, v := range l25Variants {
			for _, a := range l25Collect(env, results, v.key, x, "nmi") {
				best = math.Max(best, a)
				graphs++
				if a >= 0.45 {
					reach++
				}
			}
		}
	}
	c := Claim{
		Source: "seed 004 §6.5 (Fig. 6.4–6.6)",
		Quote:  "even if just a bit of labels (25%) are given to our proposed method, it can still get values as high as 0.5 for the NMI even for values of c_in − c_out smaller the theoretical value for the limit",
		Rule:   "some graph below the threshold (k = 2) reaches an NMI ≥ 0.45 with 25% labels under any of the protocol variants tried: " + quantBands(1, graphs, "runs (graph, variant) below the threshold"),
	}
	if math.IsInf(best, -1) {
		c.Verdict, c.Reason = NotTestable, "cells missing"
		return []Claim{c}
	}
	c.Ours = fmt.Sprintf("largest NMI of any single graph below the threshold, over all variants: %.3f", best)
	c.Verdict = quantVerdict(reach, graphs, 1)
	return []Claim{c}
}
