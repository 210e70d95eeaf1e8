package experiment

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot/vg"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/catalog"
	"github.com/tether-sc/tether/graph"
	plotfig "github.com/tether-sc/tether/internal/figure"
	"github.com/tether-sc/tether/metrics"
)

// Seed 004 Fig. 6.1 (§6.2, Experiment 1): Bethe Hessian against
// unnormalized spectral clustering on the sparse SBM, n = 1000, k = 2,
// c_out = 1, c_in from 7 to 25, ten graphs per point; and Fig. 6.2 (§6.3,
// Experiment 2): FAST-GE-2.0 against CVQE on Statlog heart.

// fig61Figures is the one panel of Fig. 6.1: c_in ∈ {7, 8.5, …, 25}.
func fig61Figures(env *Env) []sbmFigure {
	var xs []float64
	for c := 7.0; c <= 25; c += 1.5 {
		xs = append(xs, c)
	}
	if env.Quick {
		xs = []float64{7, 16, 25}
	}
	return []sbmFigure{{
		name: "fig6.1", k: 2, xs: xs, xLabel: "c_in (c_out = 1)", graphs: 10, noThreshold: true,
		cin: func(x float64) (float64, float64) { return x, 1 },
		methods: []sbmMethod{
			{key: "usc", label: "unnormalized SC"},
			{key: "bethe", label: "Bethe Hessian"},
		},
	}}
}

// fig61Threshold is the c_in at which c_in − 1 = 2√((c_in + 1)/2), the
// detectability threshold of seed 004 §3.1 with k = 2, c_out = 1:
// c_in² − 4c_in − 1 = 0, c_in = 2 + √5.
var fig61Threshold = 2 + math.Sqrt(5)

// Seed004Fig61 is seed 004 Fig. 6.1.
func Seed004Fig61() Experiment {
	return Experiment{
		Name:   "seed004-fig6.1",
		Title:  "Bethe Hessian vs unnormalized spectral clustering on a sparse SBM, NMI vs c_in (c_out = 1)",
		Source: "seed 004 §6.2, Fig. 6.1",
		Cells: func(env *Env) ([]Cell, error) {
			return sbmCells(env, fig61Figures(env)), nil
		},
		Report: func(env *Env, results map[string]Values) (*Output, error) {
			figs := fig61Figures(env)
			intro := "# Seed 004 Fig. 6.1: Bethe Hessian against unnormalized spectral clustering\n\n" +
				"Regenerate with `tether repro seed004-fig6.1` (add `-quick` for the smoke test).\n\n" +
				"**Published** (seed 004 §6.2; the figure did not survive the text conversion): c_in equally spaced in\n" +
				"[7, 25], c_out = 1, ten graphs of n = 1000 nodes, k = 2, mean NMI of unnormalized SC and Bethe Hessian SC.\n\n" +
				"Protocol (ours): graphs from `synth.SBM` (sparse SBM, p_in = c_in/n, p_out = c_out/n, two blocks of 500);\n" +
				"`usc` (k smallest eigenvectors of L = D − A, k-means) and `bethe` (k smallest eigenvectors of\n" +
				"H(r) = (r² − 1)I − rA + D with r = √c, c = (c_in + c_out)/2, seed 004 §3.2; k-means); NMI = 2I/(H₁+H₂)\n" +
				"(seed 004 eq. 6.3). c_in ∈ {7, 8.5, …, 25} (13 values), 10 graphs per point as published.\n" +
				fmt.Sprintf("With c_out = 1 the detectability threshold c_in − c_out = k√c lies at c_in = 2 + √5 ≈ %.2f, so every point of\n", fig61Threshold) +
				"the published range is above it; \"close to the limit\" means the left end, c_in = 7 (c_in − c_out = 6\n" +
				"against k√c = 4).\n"
			out, err := sbmReport(env, results, "fig6.1", intro, figs)
			if err != nil {
				return nil, err
			}
			out.Claims = fig61Claims(env, figs[0], results)
			return out, nil
		},
	}
}

// fig61Claims checks the three statements of seed 004 §6.2's discussion.
func fig61Claims(env *Env, f sbmFigure, results map[string]Values) []Claim {
	usc, bh := f.methods[0], f.methods[1]
	first, last := f.xs[0], f.xs[len(f.xs)-1]
	u0, b0 := sbmAggregate(env, f, first, usc, results), sbmAggregate(env, f, first, bh, results)
	uL, bL := sbmAggregate(env, f, last, usc, results), sbmAggregate(env, f, last, bh, results)
	var claims []Claim
	if u0.count == 0 || b0.count == 0 {
		return []Claim{{Source: "seed 004 §6.2", Quote: "Bethe Hessian clustering has a much better performance", Verdict: NotTestable, Reason: "cells missing"}}
	}
	c := Claim{
		Source: "seed 004 §6.2 (Fig. 6.1)",
		Quote:  "although unnormalized spectral clustering fails completely when c_in − c_out is close to the theoretical limit, Bethe Hessian clustering has a much better performance",
		Rule: "at the c_in nearest the threshold (the smallest), unnormalized SC has mean NMI < 0.1 and Bethe Hessian a mean NMI at least 0.2 higher: " +
			"held when both hold, partly held when Bethe Hessian is 0.2 higher but unnormalized SC does not fail, not held when it is not 0.2 higher " +
			"(two conditions, not a count of cases: the one of two that makes it partly held is the claim's \"much better\")",
		Ours: fmt.Sprintf("c_in = %g: unnormalized SC %.3f, Bethe Hessian %.3f", first, u0.mean, b0.mean),
	}
	fails, better := u0.mean < 0.1, b0.mean-u0.mean >= 0.2
	switch {
	case fails && better:
		c.Verdict = Held
	case better:
		c.Verdict, c.Reason = PartlyHeld, "Bethe Hessian is much better, but unnormalized SC does not fail completely"
	default:
		c.Verdict = NotHeld
	}
	claims = append(claims, c)
	// Spread: mean over points of the per-point sd across graphs.
	var su, sb float64
	var np int
	for _, x := range f.xs {
		a, b := sbmAggregate(env, f, x, usc, results), sbmAggregate(env, f, x, bh, results)
		if a.count > 1 && b.count > 1 {
			su += a.sd
			sb += b.sd
			np++
		}
	}
	c = Claim{
		Source: "seed 004 §6.2 (Fig. 6.1)",
		Quote:  "the range of values that Bethe Hessian clustering takes is much smaller than the ones for unnormalized clustering, even when c_in − c_out is very big",
		Rule: "the sd of the NMI across graphs, averaged over the points, is at most half that of unnormalized SC, and Bethe Hessian's sd is the smaller at the largest c_in: " +
			"held when both hold, partly held when one of the two does, not held when neither",
	}
	if np == 0 {
		c.Verdict, c.Reason = NotTestable, "one graph per point (quick mode): no spread"
	} else {
		su, sb = su/float64(np), sb/float64(np)
		c.Ours = fmt.Sprintf("mean sd: unnormalized SC %.3f, Bethe Hessian %.3f; at c_in = %g: %.3f vs %.3f", su, sb, last, uL.sd, bL.sd)
		switch a, b := sb <= su/2, bL.sd < uL.sd; {
		case a && b:
			c.Verdict = Held
		case a || b:
			c.Verdict, c.Reason = PartlyHeld, "one of the two parts of the rule holds"
		default:
			c.Verdict = NotHeld
		}
	}
	claims = append(claims, c)
	wins, total := 0, 0
	for _, x := range f.xs {
		a, b := sbmAggregate(env, f, x, usc, results), sbmAggregate(env, f, x, bh, results)
		if a.count > 0 && b.count > 0 {
			total++
			if b.mean >= a.mean-0.01 {
				wins++
			}
		}
	}
	c = Claim{
		Source:  "seed 004 §6.2 (Fig. 6.1)",
		Quote:   "the use of the Bethe Hessian for clustering graphs generated by SBM was a success",
		Rule:    "Bethe Hessian's mean NMI is at least unnormalized SC's (within 0.01) at every c_in: " + quantBands(allOf(total), total, "values of c_in"),
		Ours:    fmt.Sprintf("%d of %d points", wins, total),
		Verdict: shareVerdict(wins, total),
	}
	return append(claims, c)
}

// Fig. 6.2.

// fig62Features are the ten Statlog heart features we read as seed 004
// §6.3's "ten features (one real, nine integers)": the thirteen of the
// dataset without the three nominal codes (chest pain type, resting ECG,
// thal). oldpeak is the one non-integer; the others are integer-valued
// (age, blood pressure, cholesterol, maximum heart rate, vessels) or
// binary/ordinal codes (sex, fasting blood sugar, exercise angina, slope).
// The seed does not list its ten; this is our reading.
var fig62Features = []string{
	"age", "sex", "resting_blood_pressure", "serum_cholestoral", "fasting_blood_sugar",
	"maximum_heart_rate_achieved", "exercise_induced_angina", "oldpeak", "slope", "number_of_major_vessels",
}

// fig62Sigma is the σ of seed 004 §6.3's Gaussian similarity.
const fig62Sigma = 5.0

// fig62Data is Statlog heart with its graph.
type fig62Data struct {
	x     *mat.Dense // raw values of fig62Features
	g     *graph.Graph
	truth []int
	note  string
}

// fig62Readings are the two readings of the features run: "raw" (the
// values as recorded, the literal reading of σ = 5) and "z" (each feature
// standardized to mean 0 and sample sd 1). The seed does not say whether it
// scaled its features.
var fig62Readings = []struct{ key, label string }{{"z", "standardized"}, {"raw", "raw"}}

// fig62Load reads heart-statlog unscaled, keeps fig62Features (standardized
// for reading "z") and builds the fully connected RBF graph with σ = 5 (no
// self loops).
func fig62Load(ctx context.Context, root, reading string) (*fig62Data, error) {
	d, err := loadCatalog(ctx, "heart-statlog", root, &catalog.Options{Raw: true})
	if err != nil {
		return nil, err
	}
	t := d.Table
	col := map[string]int{}
	for j, f := range t.Features {
		col[f] = j
	}
	n, _ := t.X.Dims()
	x := mat.NewDense(n, len(fig62Features), nil)
	for j, f := range fig62Features {
		c, ok := col[f]
		if !ok {
			return nil, fmt.Errorf("heart-statlog: no feature %q (have %v)", f, t.Features)
		}
		for i := 0; i < n; i++ {
			x.Set(i, j, t.X.At(i, c))
		}
	}
	if reading == "z" {
		for j := range fig62Features {
			col := mat.Col(nil, j, x)
			m, sd := stat.MeanStdDev(col, nil)
			if !(sd > 0) {
				return nil, fmt.Errorf("heart-statlog: feature %q is constant", fig62Features[j])
			}
			for i := range col {
				x.Set(i, j, (col[i]-m)/sd)
			}
		}
	}
	g, err := graph.Build(ctx, x, graph.Spec{Kind: graph.Full, Affinity: graph.RBF, Sigma: graph.Sigma{Rule: graph.SigmaFixed, Value: fig62Sigma}})
	if err != nil {
		return nil, err
	}
	deg := g.Degrees()
	dmin, dmax := math.Inf(1), 0.0
	for _, v := range deg {
		dmin, dmax = math.Min(dmin, v), math.Max(dmax, v)
	}
	note := fmt.Sprintf("n = %d, %d edges of weight > 0, degrees from %.3g to %.3g", n, g.NNZ()/2, dmin, dmax)
	return &fig62Data{x: x, g: g, truth: d.Labels, note: note}, nil
}

// fig62Counts are the n_c of Fig. 6.2 ("between 10 and 280").
func fig62Counts(env *Env) []int {
	if env.Quick {
		return []int{10, 140, 260}
	}
	return []int{10, 40, 70, 100, 130, 160, 190, 220, 250, 270}
}

func fig62Draws(env *Env) int {
	if env.Quick {
		return 2
	}
	return 10
}

// fig62Methods are the two curves.
var fig62Methods = []struct{ key, label string }{{"fast-ge2", "FAST-GE-2.0"}, {"cvqe", "CVQE"}}

const fig62Version = "v1"

func fig62Key(reading string, nc int, m string, draw int) string {
	return fmt.Sprintf("%s/%s/nc=%d/%s/draw=%d", fig62Version, reading, nc, m, draw)
}

// fig62Labels draws n_c labelled nodes uniformly at random (seed 004
// §6.3: "we selected the elements of ∪V_i randomly"), redrawn until both
// classes occur (FAST-GE-2.0 needs a cannot-link). Both methods of a draw
// see the same labels.
func fig62Labels(truth []int, nc, draw int, seed uint64) (constraint.Labels, error) {
	f := float64(nc) / float64(len(truth))
	for attempt := 0; ; attempt++ {
		l, err := constraint.FractionLabels(truth, f, rand.NewPCG(seed, seedStream("fig6.2", fmt.Sprint(nc), fmt.Sprint(draw), fmt.Sprint(attempt))))
		if err != nil {
			return nil, err
		}
		seen := map[int]bool{}
		for _, c := range l {
			if c != constraint.Unlabeled {
				seen[c] = true
			}
		}
		if len(seen) >= 2 || attempt >= 100 {
			return l, nil
		}
	}
}

// Seed004Fig62 is seed 004 Fig. 6.2: FAST-GE-2.0 against CVQE on Statlog
// heart.
func Seed004Fig62() Experiment {
	var data memo[string, *fig62Data]
	load := func(ctx context.Context, env *Env, reading string) (*fig62Data, error) {
		return data.get(ctx, env.DataRoot+"|"+reading, func(ctx context.Context) (*fig62Data, error) { return fig62Load(ctx, env.DataRoot, reading) })
	}
	available := func(env *Env) bool {
		e, _ := catalog.Lookup("heart-statlog")
		for _, f := range e.Files {
			if _, err := os.Stat(filepath.Join(env.DataRoot, f)); err != nil {
				return false
			}
		}
		return true
	}
	return Experiment{
		Name:   "seed004-fig6.2",
		Title:  "FAST-GE-2.0 vs CVQE on Statlog heart (σ = 5 full RBF graph), NMI vs number of labelled nodes",
		Source: "seed 004 §6.3, Fig. 6.2",
		Cells: func(env *Env) ([]Cell, error) {
			if !available(env) {
				return nil, nil
			}
			var cells []Cell
			for _, rd := range fig62Readings {
				for _, nc := range fig62Counts(env) {
					for draw := 0; draw < fig62Draws(env); draw++ {
						for _, m := range fig62Methods {
							rd, nc, draw, m := rd.key, nc, draw, m.key
							cells = append(cells, Cell{Key: fig62Key(rd, nc, m, draw), Data: []string{"heart-statlog"}, Run: func(ctx context.Context) (Values, error) {
								d, err := load(ctx, env, rd)
								if err != nil {
									return nil, err
								}
								return fig62Run(ctx, env, d, nc, m, draw)
							}})
						}
					}
				}
			}
			return cells, nil
		},
		Report: func(env *Env, results map[string]Values) (*Output, error) {
			if !available(env) {
				return &Output{Markdown: "# Seed 004 Fig. 6.2: FAST-GE-2.0 against CVQE\n\n**Not run**: heart-statlog not found under " + env.DataRoot + ".\n",
					Claims: []Claim{{Source: "seed 004 §6.3 (Fig. 6.2)", Quote: "although the CVQE algorithm shows better results for n_c < 80, FAST-GE-2.0 is generally better", Verdict: NotTestable, Reason: "dataset missing"}}}, nil
			}
			ds := map[string]*fig62Data{}
			for _, rd := range fig62Readings {
				d, err := load(context.Background(), env, rd.key)
				if err != nil {
					return nil, err
				}
				ds[rd.key] = d
			}
			return fig62Report(env, ds, results)
		},
	}
}

// fig62Run computes one cell: NMI (2I/(H₁+H₂), seed 004 eq. 6.3) over all
// 270 rows.
func fig62Run(ctx context.Context, env *Env, d *fig62Data, nc int, method string, draw int) (Values, error) {
	labels, err := fig62Labels(d.truth, nc, draw, env.Seed)
	if err != nil {
		return nil, err
	}
	p := &cluster.Problem{Graph: d.g, K: 2, Labels: labels, Features: d.x, Disconnected: publishedDisconnected}
	var m cluster.Method
	switch method {
	case "fast-ge2":
		m = cluster.FastGE2{}
	case "cvqe":
		m = cluster.CVQE{}
	default:
		return nil, fmt.Errorf("unknown method %q", method)
	}
	t0 := time.Now()
	res, err := cluster.Run(ctx, m, p, &cluster.Settings{Seed: env.Seed + uint64(draw)})
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		// A method that cannot solve this input is a result of the
		// experiment (FAST-GE-2.0 on the raw reading), recorded and
		// counted on the page rather than retried on every run.
		return Values{"failed": 1}, nil
	}
	sec := time.Since(t0).Seconds()
	nmi, err := metrics.NMI(d.truth, res.Labels, metrics.Arithmetic)
	if err != nil {
		return nil, err
	}
	return Values{"nmi": nmi, "seconds": sec}, nil
}

// fig62Point is the NMI of one method at one n_c over the draws, and the
// number of draws that failed (no cell).
func fig62Point(env *Env, results map[string]Values, reading string, nc int, m string) (nmi, secs []float64, failed int) {
	for draw := 0; draw < fig62Draws(env); draw++ {
		if r, ok := results[fig62Key(reading, nc, m, draw)]; ok && r["failed"] == 0 {
			nmi = append(nmi, r["nmi"])
			secs = append(secs, r["seconds"])
		} else {
			failed++
		}
	}
	return nmi, secs, failed
}

func fig62Report(env *Env, ds map[string]*fig62Data, results map[string]Values) (*Output, error) {
	counts := fig62Counts(env)
	out := &Output{Files: map[string][]byte{}}
	var md strings.Builder
	md.WriteString("# Seed 004 Fig. 6.2: FAST-GE-2.0 against CVQE on Statlog heart\n\n" +
		"Regenerate with `tether repro seed004-fig6.2` (add `-quick` for the smoke test).\n\n" +
		"**Published** (seed 004 §6.3; the figure did not survive the text conversion): ten features (one real,\n" +
		"nine integers) of Statlog heart, a fully connected graph with Gaussian weights exp(−‖x − y‖²/2σ²),\n" +
		"σ = 5; n_c = |∪V_i| labelled nodes from 10 to 280, drawn at random 10 times each; mean NMI of\n" +
		"FAST-GE-2.0 and CVQE with linear regression lines and their 95% confidence bands.\n\n" +
		"Protocol (ours): `heart-statlog`, the ten features " + strings.Join(fig62Features, ", ") + "\n" +
		"(our reading of \"one real, nine integers\": the thirteen without the three nominal codes chest pain,\n" +
		"resting ECG and thal; oldpeak is the one real), and the full RBF graph with σ = 5 on them. The seed does\n" +
		"not say whether it scaled the features, so two readings are run: **raw** (the recorded values; the\n" +
		"literal reading) and **standardized** (each feature to mean 0, sd 1).\n" +
		"For each n_c and draw, n_c nodes are labelled uniformly at random (redrawn until both classes occur);\n" +
		"`fast-ge2` gets them as the label sets V_1, V_2 (seed 004 eq. 4.1) on the graph, `cvqe` (Davidson &\n" +
		"Ravi 2005) as all must-link / cannot-link pairs among them on the same ten features; 10 k-means++\n" +
		"restarts each; both see the same labels. NMI = 2I/(H₁+H₂) over all 270 rows, labelled ones included.\n" +
		fmt.Sprintf("n_c ∈ %v, %d draws per point (Statlog heart has 270 rows, so the largest n_c is 270, not 280).\n\n", counts, fig62Draws(env)))
	fmt.Fprintf(&md, "Graphs: raw: %s; standardized: %s.\n", ds["raw"].note, ds["z"].note)
	md.WriteString("\n**CVQE does not gain from labels here, and that is the published algorithm, not the data.** Its\n" +
		"assignment step places each pair as if it were the only one (a node in many pairs follows the last), and\n" +
		"a violated pair costs only the distance between the centroids, which the update pulls together. With\n" +
		"all 270 nodes labelled (36 315 pairs, standardized reading), the kept run has CVQE 1354 with 11 825 pairs\n" +
		"violated, while the class partition, which violates none, has CVQE 1208, and a run started from the class\n" +
		"means ends at 1346: the steps leave the better solution (measured once outside the cells of this page;\n" +
		"cluster.CVQE's doc, and TestCVQEDenseLabels on generated data). The comparison below is therefore against\n" +
		"CVQE as Davidson and Ravi define it, whose NMI stays near its 10-label value; a constrained k-means that\n" +
		"uses dense labels would not lose so.\n")
	var csv bytes.Buffer
	csv.WriteString("reading,n_c,method,mean_nmi,sd_nmi,draws,failed,mean_seconds\n")
	var series []plotfig.Series
	meanAt := map[string]map[int]float64{}
	sds := map[string][]float64{}
	slopes := map[string]float64{}
	failures := map[string]int{}
	for _, rd := range fig62Readings {
		fmt.Fprintf(&md, "\n### %s features\n\n| n_c | FAST-GE-2.0 | CVQE |\n|---:|---|---|\n", rd.label)
		ser := make([]plotfig.Series, len(fig62Methods))
		var fx, fy [2][]float64
		for j, m := range fig62Methods {
			ser[j].Name = fmt.Sprintf("%s (%s)", m.label, rd.label)
			ser[j].Marked, ser[j].Dashed = true, rd.key == "raw"
			meanAt[rd.key+"/"+m.key] = map[int]float64{}
		}
		for _, nc := range counts {
			fmt.Fprintf(&md, "| %d |", nc)
			for j, m := range fig62Methods {
				v, secs, failed := fig62Point(env, results, rd.key, nc, m.key)
				failures[rd.key+"/"+m.key] += failed
				mean, sd := meanStdDev(v)
				ms, _ := meanStdDev(secs)
				switch {
				case len(v) == 0:
					fmt.Fprintf(&md, " failed (%d of %d) |", failed, failed)
				default:
					fmt.Fprintf(&md, " %.3f ± %.3f", mean, sd)
					if failed > 0 {
						fmt.Fprintf(&md, " (%d failed)", failed)
					}
					md.WriteString(" |")
					meanAt[rd.key+"/"+m.key][nc] = mean
					if len(v) > 1 {
						sds[rd.key+"/"+m.key] = append(sds[rd.key+"/"+m.key], sd)
					}
				}
				ser[j].X = append(ser[j].X, float64(nc))
				ser[j].Y = append(ser[j].Y, mean)
				ser[j].Err = append(ser[j].Err, sd)
				for _, y := range v {
					fx[j] = append(fx[j], float64(nc))
					fy[j] = append(fy[j], y)
				}
				fmt.Fprintf(&csv, "%s,%d,%s,%.6f,%.6f,%d,%d,%.4f\n", rd.key, nc, m.key, mean, sd, len(v), failed, ms)
			}
			md.WriteString("\n")
		}
		var fits []string
		for j, m := range fig62Methods {
			if len(fx[j]) < 2 {
				continue
			}
			a, b := stat.LinearRegression(fx[j], fy[j], nil, false)
			slopes[rd.key+"/"+m.key] = b
			fits = append(fits, fmt.Sprintf("%s NMI ≈ %.3f + %.5f·n_c", m.label, a, b))
		}
		if len(fits) > 0 {
			fmt.Fprintf(&md, "\nLinear fits of the NMI on n_c over all draws (the published figure draws them): %s.\n", strings.Join(fits, "; "))
		}
		series = append(series, ser...)
	}
	if n := failures["raw/fast-ge2"]; n > 0 {
		fmt.Fprintf(&md, "\n**FAST-GE-2.0 fails on the raw reading** (%d of %d runs): with σ = 5 in the units of cholesterol and blood\n"+
			"pressure most weights underflow; the degrees span %s, so the constraint weight 1/(d_min·d_max) of seed 004\n"+
			"eq. 4.3 is astronomically large and the pencil's M is not numerically positive definite (the eigensolver's\n"+
			"Cholesky factorization fails: \"B is not positive definite\"; tether reports the error, never a silent\n"+
			"result, and the page counts these runs as failed). The claims below are\n"+
			"therefore checked on the standardized reading.\n", n, len(counts)*fig62Draws(env), strings.TrimPrefix(ds["raw"].note[strings.Index(ds["raw"].note, "degrees"):], "degrees "))
	}
	out.Files["fig6.2.csv"] = csv.Bytes()
	chart := plotfig.LineChart{Title: "seed 004 Fig. 6.2: Statlog heart, σ = 5", XLabel: "n_c (labelled nodes)", YLabel: "NMI (2I/(H₁+H₂))", Series: series, YMin: 0, YMax: 1}
	p, err := plotfig.Lines(chart)
	if err != nil {
		return nil, err
	}
	if env.OutDir != "" {
		b, err := plotfig.PNG(16*vg.Centimeter, 11*vg.Centimeter, p)
		if err != nil {
			return nil, err
		}
		addFigure(out, "fig6.2.png", b)
		md.WriteString("\n![fig6.2](fig6.2.png)\n")
	}
	md.WriteString("\nAll figures are in `fig6.2.csv` (mean and sd of the NMI over the draws, failed runs, mean seconds per run).\n")
	out.Claims = fig62Claims(counts, meanAt, sds, slopes, "z")
	out.Markdown = md.String()
	return out, nil
}

// fig62Claims checks seed 004 §6.3's discussion on reading rd.
func fig62Claims(counts []int, meanAt map[string]map[int]float64, sds map[string][]float64, slopes map[string]float64, rd string) []Claim {
	const src = "seed 004 §6.3 (Fig. 6.2)"
	note := "standardized features; "
	var below, belowOK, above, aboveOK int
	for _, nc := range counts {
		f, ok1 := meanAt[rd+"/fast-ge2"][nc]
		c, ok2 := meanAt[rd+"/cvqe"][nc]
		if !ok1 || !ok2 {
			continue
		}
		if nc < 80 {
			below++
			if c > f {
				belowOK++
			}
		} else {
			above++
			if f > c {
				aboveOK++
			}
		}
	}
	c1 := Claim{
		Source: src, Quote: "the CVQE algorithm shows better results for n_c < 80",
		Rule:    "CVQE's mean NMI is above FAST-GE-2.0's at every n_c < 80: " + quantBands(allOf(below), below, "points with n_c < 80"),
		Ours:    fmt.Sprintf("%s%d of %d points with n_c < 80", note, belowOK, below),
		Verdict: shareVerdict(belowOK, below),
	}
	c2 := Claim{
		Source: src, Quote: "FAST-GE-2.0 is generally better",
		Rule:    "FAST-GE-2.0's mean NMI is above CVQE's on at least two thirds of the points with n_c ≥ 80: " + quantBands(twoThirdsOf(above), above, "points with n_c ≥ 80"),
		Ours:    fmt.Sprintf("%s%d of %d points with n_c ≥ 80", note, aboveOK, above),
		Verdict: quantVerdict(aboveOK, above, twoThirdsOf(above)),
	}
	if c2.Verdict == PartlyHeld {
		c2.Reason = fmt.Sprintf("FAST-GE-2.0 is ahead on %d of the %d points needed", aboveOK, twoThirdsOf(above))
	}
	if s1, ok := slopes[rd+"/fast-ge2"]; ok {
		c2.Ours += fmt.Sprintf("; fitted slopes FAST-GE-2.0 %.5f, CVQE %.5f per labelled node (CVQE's steps stall on dense pair sets: see the text)", s1, slopes[rd+"/cvqe"])
	}
	sf, _ := meanStdDev(sds[rd+"/fast-ge2"])
	sc, _ := meanStdDev(sds[rd+"/cvqe"])
	c3 := Claim{
		Source: src, Quote: "FAST-GE-2.0's results exhibit less variance and the algorithm is thus more reliable",
		Rule: "the sd of the NMI across draws, averaged over the points, is smaller for FAST-GE-2.0 than for CVQE",
		Ours: fmt.Sprintf("%smean sd FAST-GE-2.0 %.3f, CVQE %.3f", note, sf, sc),
	}
	switch {
	case len(sds[rd+"/fast-ge2"]) == 0 || len(sds[rd+"/cvqe"]) == 0:
		c3.Verdict, c3.Reason = NotTestable, "fewer than two draws per point"
	case sf < sc:
		c3.Verdict = Held
	default:
		c3.Verdict = NotHeld
	}
	return []Claim{c1, c2, c3}
}
