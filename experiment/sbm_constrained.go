package experiment

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
	plotfig "github.com/tether-sc/tether/internal/figure"
	"github.com/tether-sc/tether/metrics"
)

// The experiments of seed 004 ch. 6 on the sparse stochastic block model:
// Fig. 6.3 (the three Bethe Hessian variants of the modified FAST-GE-2.0
// against Bethe Hessian and unnormalized spectral clustering, as the share
// of labels grows) and Fig. 6.4–6.6 (the "only L_N" variant with 25, 50 and
// 75% labels against c_in − c_out for k = 2, 3, 5). Figures did not survive
// the text conversion of seed 004, so the published results are quoted from
// its discussion sections.

// sbmMethod is one curve of a seed 004 figure.
type sbmMethod struct {
	key, label string
	frac       float64 // share of labelled nodes; 0 for unsupervised methods
	variant    cluster.BetheVariant
	supervised bool
}

// sbmFigure is one panel: a fixed k and a list of (c_in, c_out) points.
type sbmFigure struct {
	name     string // "fig6.3", "fig6.4", …
	k        int
	xs       []float64 // the x axis values
	xLabel   string
	cin      func(x float64) (cin, cout float64)
	methods  []sbmMethod
	fracAxis bool // x is the label share (Fig. 6.3): methods take frac = x
	// graphs, if positive, is the number of graphs per point of this
	// figure instead of sbmConfig.graphs (Fig. 6.1 is cheap: 10 as published).
	graphs int
	// noThreshold leaves out the threshold line (Fig. 6.1: every point is
	// above it; the page says where it lies).
	noThreshold bool
}

// graphsPer returns the number of graphs per point of f under cfg.
func (f sbmFigure) graphsPer(cfg sbmConfig) int {
	if f.graphs > 0 && cfg.graphs > 1 {
		return f.graphs
	}
	return cfg.graphs
}

// sbmConfig is the size of a run.
type sbmConfig struct {
	n, graphs int
}

func sbmSize(env *Env) sbmConfig {
	if env.Quick {
		return sbmConfig{n: 300, graphs: 1}
	}
	return sbmConfig{n: 1000, graphs: 4}
}

// Fig. 6.3 parameters. Seed 004 §6.4 gives n = 1000, k = 2 and 200–990
// labelled nodes but not c_in, c_out; we take the setting of §6.5
// (c_in + c_out = 3) just above the threshold: c_in − c_out = 2.5 > 2√1.5.
const fig63Cin, fig63Cout = 2.75, 0.25

func fig63Figures(env *Env) []sbmFigure {
	fr := []float64{0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.99}
	if env.Quick {
		fr = []float64{0.2, 0.5, 0.9}
	}
	return []sbmFigure{{
		name: "fig6.3", k: 2, xs: fr, xLabel: "share of labelled nodes", fracAxis: true,
		cin: func(float64) (float64, float64) { return fig63Cin, fig63Cout },
		methods: []sbmMethod{
			{key: "usc", label: "unnormalized SC"},
			{key: "bethe", label: "Bethe Hessian"},
			{key: "bh-both", label: "mod. FAST-GE-2.0: both", variant: cluster.BetheBoth, supervised: true},
			{key: "bh-LN", label: "mod. FAST-GE-2.0: only L_N", variant: cluster.BetheLN, supervised: true},
			{key: "bh-LH", label: "mod. FAST-GE-2.0: only L_H", variant: cluster.BetheLH, supervised: true},
		},
	}}
}

func fig646Figures(env *Env) []sbmFigure {
	xs := []float64{0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.25, 2.5, 2.75, 3}
	if env.Quick {
		xs = []float64{0.5, 1.5, 2.5}
	}
	var out []sbmFigure
	for i, k := range []int{2, 3, 5} {
		out = append(out, sbmFigure{
			name: fmt.Sprintf("fig6.%d", 4+i), k: k, xs: xs, xLabel: "c_in − c_out",
			// c_in + c_out = 3 (seed 004 §6.5).
			cin: func(x float64) (float64, float64) { return (3 + x) / 2, (3 - x) / 2 },
			methods: []sbmMethod{
				{key: "usc", label: "unnormalized SC"},
				{key: "bethe", label: "Bethe Hessian"},
				{key: "ln25", label: "mod. FAST-GE-2.0 (L_N), 25% labels", frac: 0.25, variant: cluster.BetheLN, supervised: true},
				{key: "ln50", label: "mod. FAST-GE-2.0 (L_N), 50% labels", frac: 0.5, variant: cluster.BetheLN, supervised: true},
				{key: "ln75", label: "mod. FAST-GE-2.0 (L_N), 75% labels", frac: 0.75, variant: cluster.BetheLN, supervised: true},
			},
		})
	}
	return out
}

// sbmKey is the cell key of one (figure, x, method, graph).
func sbmKey(f sbmFigure, n int, x float64, m sbmMethod, g int) string {
	return fmt.Sprintf("%s/n=%d/k=%d/x=%.4f/%s/g=%d", f.name, n, f.k, x, m.key, g)
}

// sbmCells declares the cells of the figures. Unsupervised methods of
// Fig. 6.3 do not depend on the label share: they run once per graph (at
// the first x) and are drawn flat.
func sbmCells(env *Env, figs []sbmFigure) []Cell {
	cfg := sbmSize(env)
	var cells []Cell
	for _, f := range figs {
		for xi, x := range f.xs {
			for _, m := range f.methods {
				if f.fracAxis && !m.supervised && xi > 0 {
					continue
				}
				for g := 0; g < f.graphsPer(cfg); g++ {
					f, x, m, g := f, x, m, g
					cells = append(cells, Cell{
						Key: sbmKey(f, cfg.n, x, m, g),
						Run: func(ctx context.Context) (Values, error) { return sbmRun(ctx, env, cfg.n, f, x, m, g) },
					})
				}
			}
		}
	}
	return cells
}

// sbmGraphSeed is the seed of graph g of a figure point: every method of the
// point sees the same graphs (Fig. 6.3: the same graph for every x).
func sbmGraphSeed(f sbmFigure, x float64, g int) uint64 {
	xs := x
	if f.fracAxis {
		xs = 0
	}
	return uint64(f.k)*1_000_003 + uint64(math.Round(xs*1000))*7919 + uint64(g)
}

// sbmRun computes one cell: NMI (2I/(H₁+H₂), seed 004 eq. 6.3, over all n
// nodes) and the method's wall time.
func sbmRun(ctx context.Context, env *Env, n int, f sbmFigure, x float64, m sbmMethod, g int) (Values, error) {
	cin, cout := f.cin(x)
	gr, truth, err := synth.SBM(n, f.k, cin, cout, rand.NewPCG(env.Seed, sbmGraphSeed(f, x, g)))
	if err != nil {
		return nil, err
	}
	r := math.Sqrt((cin + cout) / 2) // seed 004 §3.2: r = √c, c the mean of c_in and c_out
	p := &cluster.Problem{Graph: gr, K: f.k, Regularize: publishedLaplacian, Disconnected: publishedDisconnected}
	var meth cluster.Method
	switch {
	case m.key == "usc":
		meth = cluster.Unnormalized{}
	case m.key == "bethe":
		meth = cluster.BetheHessian{R: r}
	default:
		frac := m.frac
		if f.fracAxis {
			frac = x
		}
		if p.Labels, err = sbmLabels(ctx, env, f, x, frac, g, truth); err != nil {
			return nil, err
		}
		meth = cluster.FastGE2BH{Variant: m.variant, R: r}
	}
	t0 := time.Now()
	res, err := cluster.Run(ctx, meth, p, &cluster.Settings{Seed: env.Seed + uint64(g)})
	if err != nil {
		return nil, err
	}
	sec := time.Since(t0).Seconds()
	nmi, err := metrics.NMI(truth, res.Labels, metrics.Arithmetic)
	if err != nil {
		return nil, err
	}
	return Values{"nmi": nmi, "seconds": sec}, nil
}

// sbmLabels draws the partial labels of the supervised methods on graph g
// of point x, whose reference partition is truth: the label sets of seed
// 004 eq. (4.1), round(frac·n_c) nodes of each class c
// (constraint.StratifiedLabels, which draws the nodes LabelSets drew
// here before it checked ctx), from a stream fixed by the graph and the
// share. Cost O(n). The error wraps ctx's once it is cancelled.
func sbmLabels(ctx context.Context, env *Env, f sbmFigure, x, frac float64, g int, truth []int) (constraint.Labels, error) {
	return constraint.StratifiedLabels(ctx, truth, frac, rand.NewPCG(env.Seed^0x5eed, sbmGraphSeed(f, x, g)*31+uint64(math.Round(frac*1000))))
}

// sbmStat is the mean and standard deviation over graphs of one point.
type sbmStat struct {
	mean, sd, sec float64
	count         int
}

func sbmAggregate(env *Env, f sbmFigure, x float64, m sbmMethod, results map[string]Values) sbmStat {
	cfg := sbmSize(env)
	xk := x
	if f.fracAxis && !m.supervised {
		xk = f.xs[0]
	}
	var v, t []float64
	for g := 0; g < f.graphsPer(cfg); g++ {
		if r, ok := results[sbmKey(f, cfg.n, xk, m, g)]; ok {
			v = append(v, r["nmi"])
			t = append(t, r["seconds"])
		}
	}
	st := sbmStat{count: len(v)}
	st.mean, st.sd = meanStdDev(v)
	if len(t) > 0 {
		st.sec, _ = meanStdDev(t)
	}
	return st
}

// sbmReport writes one table, one CSV and one PNG per figure.
func sbmReport(env *Env, results map[string]Values, name, intro string, figs []sbmFigure) (*Output, error) {
	cfg := sbmSize(env)
	out := &Output{Files: map[string][]byte{}}
	var md strings.Builder
	md.WriteString(intro)
	var csv bytes.Buffer
	csv.WriteString("figure,k,n,x,method,mean_nmi,sd_nmi,graphs,mean_seconds\n")
	for _, f := range figs {
		cin, cout := f.cin(f.xs[0])
		thr := synth.Threshold(f.k, cin, cout)
		fmt.Fprintf(&md, "\n### %s (k = %d)\n\n", strings.Replace(f.name, "fig", "Fig. ", 1), f.k)
		if f.fracAxis {
			fmt.Fprintf(&md, "n = %d, c_in = %g, c_out = %g (c_in − c_out = %g, threshold k√c = %.3f); NMI mean ± sd over %d graph(s) per point.\n\n", cfg.n, cin, cout, cin-cout, thr, f.graphsPer(cfg))
		} else if f.noThreshold {
			fmt.Fprintf(&md, "n = %d, c_out = %g; NMI mean ± sd over %d graph(s) per point.\n\n", cfg.n, cout, f.graphsPer(cfg))
		} else {
			fmt.Fprintf(&md, "n = %d, c_in + c_out = 3, threshold k√c = %.3f (c = 1.5); NMI mean ± sd over %d graph(s) per point.\n\n", cfg.n, thr, f.graphsPer(cfg))
		}
		md.WriteString("| " + f.xLabel + " |")
		for _, m := range f.methods {
			md.WriteString(" " + m.label + " |")
		}
		md.WriteString("\n|---|")
		for range f.methods {
			md.WriteString("---|")
		}
		md.WriteString("\n")
		series := make([]plotfig.Series, len(f.methods))
		secs := make([]float64, len(f.methods))
		nsec := make([]int, len(f.methods))
		for j, m := range f.methods {
			// Marks and alternating dashes: curves that coincide (Fig. 6.3's
			// "only L_H" lies on the unsupervised ones) stay visible.
			series[j].Name, series[j].Marked, series[j].Dashed = m.label, true, j%2 == 1
		}
		for _, x := range f.xs {
			fmt.Fprintf(&md, "| %g |", x)
			for j, m := range f.methods {
				st := sbmAggregate(env, f, x, m, results)
				if st.count == 0 {
					md.WriteString(" — |")
				} else {
					fmt.Fprintf(&md, " %.3f ± %.3f |", st.mean, st.sd)
					secs[j] += st.sec
					nsec[j]++
				}
				series[j].X = append(series[j].X, x)
				series[j].Y = append(series[j].Y, st.mean)
				series[j].Err = append(series[j].Err, st.sd)
				fmt.Fprintf(&csv, "%s,%d,%d,%g,%s,%.6f,%.6f,%d,%.4f\n", f.name, f.k, cfg.n, x, m.key, st.mean, st.sd, st.count, st.sec)
			}
			md.WriteString("\n")
		}
		md.WriteString("\nMean time per run (s):")
		for j, m := range f.methods {
			if nsec[j] > 0 {
				fmt.Fprintf(&md, " %s %.3f;", m.key, secs[j]/float64(nsec[j]))
			}
		}
		md.WriteString("\n")
		chart := plotfig.LineChart{
			Title:  fmt.Sprintf("seed 004 %s: NMI, k = %d, n = %d", strings.Replace(f.name, "fig", "Fig. ", 1), f.k, cfg.n),
			XLabel: f.xLabel, YLabel: "NMI (2I/(H₁+H₂))", Series: series, YMin: 0, YMax: 1,
		}
		if !f.fracAxis && !f.noThreshold {
			chart.VLines = []plotfig.VLine{{X: thr, Label: fmt.Sprintf("threshold k√c = %.2f", thr)}}
		}
		p, err := plotfig.Lines(chart)
		if err != nil {
			return nil, err
		}
		png := f.name + ".png"
		if env.OutDir != "" {
			b, err := plotfig.PNG(16*vg.Centimeter, 11*vg.Centimeter, p)
			if err != nil {
				return nil, err
			}
			addFigure(out, png, b)
			fmt.Fprintf(&md, "\n![%s](%s)\n", f.name, png)
		}
	}
	out.Files[name+".csv"] = csv.Bytes()
	md.WriteString("\nAll figures are in `" + name + ".csv` (mean and sd of the NMI, graphs per point, mean seconds per run).\n")
	out.Markdown = md.String()
	return out, nil
}

const sbmProtocol = `Protocol (ours, following seed 004 ch. 6): graphs from ` + "`synth.SBM`" + ` (sparse SBM,
p_in = c_in/n, p_out = c_out/n, balanced blocks); labels from ` + "`constraint.LabelSets`" + ` (a share f of each
class, stratified; V_1…V_k give must-links inside and cannot-links across sets, seed 004 eq. 4.1), passed to
` + "`fast-ge2-bh`" + ` as label sets; NMI = 2I/(H₁+H₂) (seed 004 eq. 6.3, ` + "`metrics.Arithmetic`" + `) over all n
nodes, labelled ones included; Bethe Hessian parameter r = √c with c = (c_in + c_out)/2 (seed 004 §3.2)
for both ` + "`bethe`" + ` and the modified FAST-GE-2.0; a self loop of weight 1 on every node for the modified
FAST-GE-2.0 only (seed 004 §5.2). The pencil of the "only L_N" variant is indefinite (H_N is indefinite on
the null space of L_H), so tether solves it exactly by the dense Schur complement onto the labelled nodes;
"both" and "only L_H" have a positive definite H_H and use the generalized iterative solver.
Because the NMI counts the labelled nodes, label shares alone lift it: with 75% labels, copying the labels
and guessing the rest at random already scores well above 0.
`

// Seed004Fig63 is seed 004 Fig. 6.3: the three modified FAST-GE-2.0
// variants against Bethe Hessian and unnormalized SC on a sparse SBM.
func Seed004Fig63() Experiment {
	return Experiment{
		Name:   "seed004-fig6.3",
		Title:  "modified FAST-GE-2.0 (three Bethe Hessian variants) vs Bethe Hessian and unnormalized SC on a sparse SBM, NMI vs share of labels",
		Source: "seed 004 §6.4, Fig. 6.3",
		Cells: func(env *Env) ([]Cell, error) {
			return sbmCells(env, fig63Figures(env)), nil
		},
		Report: func(env *Env, results map[string]Values) (*Output, error) {
			cfg := sbmSize(env)
			intro := "# Seed 004 Fig. 6.3: which matrices to replace by Bethe Hessians\n\n" +
				"Regenerate with `tether repro seed004-fig6.3` (add `-quick` for the smoke test).\n\n" +
				"**Published** (seed 004 §6.4; the figure itself did not survive the text conversion): n = 1000, k = 2,\n" +
				"200 to 990 labelled nodes, 10 graphs per point. None of the three variants halts; only \"only L_N\"\n" +
				"beats Bethe Hessian clustering, from about 35% labels on, and beyond about 40% more labels help little.\n" +
				"Unnormalized SC and Bethe Hessian do not use labels (flat lines).\n\n" + sbmProtocol +
				fmt.Sprintf("\n**Our choices and deviations**: seed 004 does not give c_in, c_out for this figure; we use c_in = %g,\n"+
					"c_out = %g (the c_in + c_out = 3 setting of its Fig. 6.4–6.6, just above the threshold 2√1.5 ≈ 2.449).\n"+
					"Label shares 20, 30, …, 90, 99%%; %d graphs per point instead of 10 (time budget), the same graphs for every\n"+
					"share, so the unsupervised methods are computed once per graph.\n\n"+
					"**What we see**: the verdicts above are computed from the table. \"Only L_H\" fails completely: with\n"+
					"H_H positive definite, every connected component of G_N without a labelled node gives an exact\n"+
					"eigenvalue λ = 0 of L_N x = λ H_H x (L_N annihilates its indicator), so the k smallest eigenvectors are\n"+
					"indicators of small unlabelled components; its curve lies on the unsupervised ones near 0, hence the\n"+
					"markers. \"Both\" is ahead of \"only L_N\" below 40%% labels and close to it above. More labels keep\n"+
					"helping \"only L_N\" up to 99%%: the source's \"beyond about 40%%, more labels help little\" does not show.\n", fig63Cin, fig63Cout, cfg.graphs)
			figs := fig63Figures(env)
			out, err := sbmReport(env, results, "fig6.3", intro, figs)
			if err != nil {
				return nil, err
			}
			out.Claims = fig63Claims(env, figs[0], results)
			return out, nil
		},
	}
}

// Seed004Fig646 is seed 004 Fig. 6.4–6.6: the "only L_N" variant with
// 25/50/75% labels against c_in − c_out for k = 2, 3, 5.
func Seed004Fig646() Experiment {
	return Experiment{
		Name:   "seed004-fig6.4-6.6",
		Title:  "modified FAST-GE-2.0 (only L_N) with 25/50/75% labels vs Bethe Hessian and unnormalized SC, NMI vs c_in − c_out, k = 2, 3, 5",
		Source: "seed 004 §6.5, Fig. 6.4–6.6",
		Cells: func(env *Env) ([]Cell, error) {
			return sbmCells(env, fig646Figures(env)), nil
		},
		Report: func(env *Env, results map[string]Values) (*Output, error) {
			cfg := sbmSize(env)
			intro := "# Seed 004 Fig. 6.4–6.6: labels against the detectability threshold\n\n" +
				"Regenerate with `tether repro seed004-fig6.4-6.6` (add `-quick` for the smoke test).\n\n" +
				"**Published** (seed 004 §6.5; figures lost in the text conversion): n = 1000, k = 2, 3, 5, c_in + c_out = 3,\n" +
				"200 values of c_in − c_out, 10 graphs per point, the threshold k√c drawn as a vertical line. The\n" +
				"\"only L_N\" variant is better than Bethe Hessian and unnormalized SC for every c_in − c_out and every k,\n" +
				"and with 25% labels it reaches an NMI of about 0.5 even below the threshold.\n\n" + sbmProtocol +
				fmt.Sprintf("\n**Our choices and deviations**: c_in − c_out ∈ {0, 0.25, …, 3} (13 values; with c_in + c_out = 3 it cannot\n"+
					"exceed 3, so for k = 3 (threshold 3.67) and k = 5 (6.12) every point lies below the threshold, as in the\n"+
					"source); %d graphs per point instead of 10 (time budget).\n\n"+
					"**What we see**: the verdicts above are computed from the tables. \"Only L_N\" is far above both\n"+
					"unsupervised methods almost everywhere, including below the threshold, and more labels help\n"+
					"everywhere; the exceptions are listed in the first verdict (with 25%% labels at k = 2 and\n"+
					"c_in − c_out = 3, unnormalized SC is ahead). With 25%% labels the NMI stays below 0.45 under the\n"+
					"threshold for every k (second verdict). For k = 2, `tether repro seed004-labels25`\n"+
					"(docs/results/seed004-labels25) asks why, one ingredient at a time: the label protocol (stratified or\n"+
					"uniform draw, NMI over the unlabelled nodes only), n = 2000, 10 graphs per point and the best single\n"+
					"graph, the \"both\" variant and the default r, against two references on the same graphs: the labels\n"+
					"alone (no graph) and a plain harmonic function (label propagation). Its page states the answer from\n"+
					"its numbers. In its quick form (one graph, c_in − c_out = 2.25) no variant passes 0.25, the labels alone\n"+
					"give almost all of the method's NMI, and the harmonic function does better than the method but also\n"+
					"stays far below 0.5: the limit looks like the information in a graph of mean degree 1.5 (and a method\n"+
					"that uses it less well than label propagation), not our protocol or implementation (the method is\n"+
					"checked against an independent dense computation in `cluster`'s TestFastGE2MatchesDenseReference).\n"+
					"The source's figure and setting are not available to say how it got 0.5.\n", cfg.graphs)
			figs := fig646Figures(env)
			out, err := sbmReport(env, results, "fig6.4-6.6", intro, figs)
			if err != nil {
				return nil, err
			}
			out.Claims = fig646Claims(env, figs, results)
			return out, nil
		},
	}
}

// fig63Claims checks seed 004 §6.4's discussion of Fig. 6.3.
func fig63Claims(env *Env, f sbmFigure, results map[string]Values) []Claim {
	const src = "seed 004 §6.4 (Fig. 6.3)"
	cfg := sbmSize(env)
	byKey := map[string]sbmMethod{}
	for _, m := range f.methods {
		byKey[m.key] = m
	}
	at := func(key string, x float64) sbmStat { return sbmAggregate(env, f, x, byKey[key], results) }
	// (1) no variant halts: every cell of the three variants is present.
	ran, want := 0, 0
	for _, x := range f.xs {
		for _, k := range []string{"bh-both", "bh-LN", "bh-LH"} {
			want += f.graphsPer(cfg)
			ran += at(k, x).count
		}
	}
	c1 := Claim{Source: src, Quote: "none of the modified versions of FAST-GE-2.0 halt",
		Rule: "every run of the three variants returns a partition: " + quantBands(allOf(want), want, "runs"), Ours: fmt.Sprintf("%d of %d runs", ran, want),
		Verdict: shareVerdict(ran, want)}
	// (2) only L_N beats Bethe Hessian, from about 35%.
	beats := func(k string) (n int, first float64) {
		first = math.NaN()
		for _, x := range f.xs {
			a, b := at(k, x), at("bethe", x)
			if a.count > 0 && b.count > 0 && a.mean > b.mean {
				if n == 0 {
					first = x
				}
				n++
			}
		}
		return n, first
	}
	nLN, fLN := beats("bh-LN")
	nB, fB := beats("bh-both")
	nH, _ := beats("bh-LH")
	c2 := Claim{Source: src, Quote: "the only one that is able to beat the Bethe Hessian clustering is the modified version of FAST-GE-2.0 where only L_N is substituted by the Bethe Hessian H_N, and it does so when about 35% of the labels are given",
		Rule: "\"only L_N\" has a higher mean NMI than Bethe Hessian at some share and the other two variants at none: held when both hold, " +
			"partly held when \"only L_N\" is higher at some share but another variant is too, not held when \"only L_N\" is higher at none " +
			"(two conditions, not a count of cases: the one that makes it partly held is the claim's \"able to beat\")",
		Ours: fmt.Sprintf("shares where each variant beats Bethe Hessian: only L_N %d of %d (from %g), both %d (from %g), only L_H %d", nLN, len(f.xs), fLN, nB, fB, nH)}
	switch {
	case nLN > 0 && nB == 0 && nH == 0:
		c2.Verdict = Held
	case nLN > 0:
		c2.Verdict, c2.Reason = PartlyHeld, "\"only L_N\" beats Bethe Hessian, but so does another variant"
	default:
		c2.Verdict = NotHeld
	}
	// (3) beyond 40%, more labels help little compared with 20–40%.
	gain := func(x0, x1 float64) float64 {
		a, b := at("bh-LN", x0), at("bh-LN", x1)
		return (b.mean - a.mean) / (x1 - x0) / 10 // per 10 points of share
	}
	lo, mid, hi := f.xs[0], 0.4, f.xs[len(f.xs)-1]
	c3 := Claim{Source: src, Quote: "after the point where about 40% of the labels are given to the modified FAST-GE-2.0 algorithm, giving more labels to it does not increase its efficiency much (compared to the interval from 20% to 40% of labels)",
		Rule: "the gain in mean NMI of \"only L_N\" per 10 points of label share above 40% is less than half the gain per 10 points from 20% to 40%"}
	if at("bh-LN", mid).count == 0 || lo >= mid || hi <= mid {
		c3.Verdict, c3.Reason = NotTestable, "the 20%, 40% and a larger share are not all run (quick mode)"
	} else {
		g1, g2 := gain(lo, mid), gain(mid, hi)
		c3.Ours = fmt.Sprintf("%.3f per 10 points from %g to 0.4, %.3f from 0.4 to %g (NMI %.3f → %.3f → %.3f)", g1, lo, g2, hi, at("bh-LN", lo).mean, at("bh-LN", mid).mean, at("bh-LN", hi).mean)
		c3.Verdict = NotHeld
		if g2 < g1/2 {
			c3.Verdict = Held
		}
	}
	return []Claim{c1, c2, c3}
}

// fig646Claims checks seed 004 §6.5's discussion of Figs. 6.4–6.6.
func fig646Claims(env *Env, figs []sbmFigure, results map[string]Values) []Claim {
	const src = "seed 004 §6.5 (Figs. 6.4–6.6)"
	ok, total := 0, 0
	var misses []string
	best25 := math.Inf(-1)
	var best25At string
	reach25, below25 := 0, 0 // points (k, c_in − c_out below the threshold) with 25% labels, and those whose mean NMI reaches 0.45
	for _, f := range figs {
		cin, cout := f.cin(f.xs[0])
		thr := synth.Threshold(f.k, cin, cout)
		for _, x := range f.xs {
			u := sbmAggregate(env, f, x, f.methods[0], results)
			b := sbmAggregate(env, f, x, f.methods[1], results)
			for _, m := range f.methods[2:] {
				s := sbmAggregate(env, f, x, m, results)
				if s.count == 0 || u.count == 0 || b.count == 0 {
					continue
				}
				total++
				if s.mean > u.mean && s.mean > b.mean {
					ok++
				} else {
					misses = append(misses, fmt.Sprintf("k = %d, c_in − c_out = %g, %.0f%% labels: %.3f vs unnormalized SC %.3f, Bethe Hessian %.3f", f.k, x, 100*m.frac, s.mean, u.mean, b.mean))
				}
				if m.frac == 0.25 && x < thr {
					below25++
					if s.mean >= 0.45 {
						reach25++
					}
					if s.mean > best25 {
						best25, best25At = s.mean, fmt.Sprintf("k = %d, c_in − c_out = %g", f.k, x)
					}
				}
			}
		}
	}
	c1 := Claim{Source: src, Quote: "our proposed method is still better than the Bethe Hessian clustering algorithm and unnormalized spectral clustering algorithm for any value of c_in − c_out and for the three values of k we considered",
		Rule: "at every (k, c_in − c_out, label share) the mean NMI of \"only L_N\" is above both unsupervised methods': " + quantBands(allOf(total), total, "points"),
		Ours: fmt.Sprintf("%d of %d points", ok, total), Verdict: shareVerdict(ok, total)}
	if len(misses) > 0 {
		c1.Ours += "; not at " + strings.Join(misses, "; ")
	}
	c2 := Claim{Source: src, Quote: "even if just a bit of labels (25%) are given to our proposed method, it can still get values as high as 0.5 for the NMI even for values of c_in − c_out smaller the theoretical value for the limit",
		Rule: "with 25% labels, the mean NMI reaches 0.45 at some c_in − c_out below the threshold k√c, for some k: " + quantBands(1, below25, "points (k, c_in − c_out) below the threshold")}
	if math.IsInf(best25, -1) {
		c2.Verdict, c2.Reason = NotTestable, "cells missing"
	} else {
		c2.Ours = fmt.Sprintf("highest mean NMI below the threshold with 25%% labels: %.3f (%s)", best25, best25At)
		c2.Verdict = quantVerdict(reach25, below25, 1)
		if c2.Verdict != Held {
			c2.Reason = "why: docs/results/seed004-labels25"
		}
	}
	return []Claim{c1, c2}
}
