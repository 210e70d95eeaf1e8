package experiment

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot/vg"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/catalog"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/figure"
	"github.com/tether-sc/tether/metrics"
)

// rateSetup is the protocol of seed 002 §6.1 (Figures 1 and 2).
type rateSetup struct {
	datasets []string
	methods  []string
	rates    []float64 // fraction of all pairs given as constraints
	reps     int
}

func seed002Setup(quick bool) rateSetup {
	s := rateSetup{
		// Dermatology and Ecoli of seed 002 Table 1 are not in ../shared/datasets.
		datasets: []string{"hepatitis", "ionosphere", "wine", "glass"},
		methods:  []string{"njw", "sl", "cpca", "clpp", "csp", "csc", "fgpwc", "cpca-minmax", "clpp-minmax"},
		rates:    []float64{0, 0.02, 0.05, 0.1, 0.15, 0.2},
		reps:     10,
	}
	if quick {
		s.datasets = []string{"wine"}
		s.rates = []float64{0, 0.05, 0.2}
		s.reps = 2
	}
	return s
}

// Seed002Rate is seed 002 §6.1, Figures 1 and 2: accuracy (Hungarian
// matching, eq. 45–46) and Rand index (eq. 47) of spectral methods against
// the constraint rate, on UCI datasets with a full Gaussian graph whose σ²
// is the mean of the feature variances.
func Seed002Rate() Experiment {
	graphs := &memo[string, *rateData]{}
	return Experiment{
		Name:   "seed002-rate",
		Title:  "accuracy and Rand index against the constraint rate (cSC, SL, cPCA, cLPP, FCSC as CSP, FGPWC, SC)",
		Source: "seed 002 §6.1, Figures 1–2",
		Cells: func(env *Env) ([]Cell, error) {
			s := seed002Setup(env.Quick)
			var cells []Cell
			for _, ds := range s.datasets {
				if _, err := os.Stat(filepath.Join(env.DataRoot, ds)); err != nil {
					continue // reported as missing by Report
				}
				for _, m := range s.methods {
					for _, rate := range s.rates {
						for r := 0; r < s.reps; r++ {
							if m == "njw" && rate > 0 {
								continue // unconstrained: computed once per repetition
							}
							if (m == "sl" || m == "csp") && rate == 0 {
								continue // SL and FCSC need constraints (SL is SC on an edited graph)
							}
							ds, m, rate, r := ds, m, rate, r
							cells = append(cells, Cell{
								Key:  rateKey(ds, m, rate, r, env.Seed),
								Data: []string{ds},
								Run:  func(ctx context.Context) (Values, error) { return rateCell(ctx, env, graphs, ds, m, rate, r) },
							})
						}
					}
				}
			}
			return cells, nil
		},
		Report: func(env *Env, res map[string]Values) (*Output, error) {
			return rateReport(env, seed002Setup(env.Quick), res)
		},
	}
}

// rateKey is a cell's key. CSP's column carries its revision on the
// datasets of more than two classes (cspColumn; catalog.Entry.K, the
// classes rateCell counts).
func rateKey(ds, m string, rate float64, r int, seed uint64) string {
	if e, ok := catalog.Lookup(ds); ok {
		m = cspColumn(m, e.K)
	}
	return fmt.Sprintf("%s/%s/rate=%g/rep=%d/seed=%d", ds, m, rate, r, seed)
}

// rateData is a dataset with its graphs and features.
type rateData struct {
	g     *graph.Graph // full Gaussian graph of the min–max scaled features
	truth []int
	// x and knn are the min–max scaled features and their Gaussian 10-NN
	// graph; raw and rawKNN the unscaled ones (see rateColumn).
	x, raw      *mat.Dense
	knn, rawKNN *graph.Graph
}

// rateKNNSpec is cLPP's graph in seed 002: Gaussian weights on the 10
// nearest neighbours, "x_i among the nearest neighbours of x_j or x_j among
// those of x_i" (eq. 15, §6.1 line 295), with the σ² of every affinity of
// §6.1 (line 300), the mean of the feature variances.
var rateKNNSpec = graph.Spec{Kind: graph.SymmetricKNN, K: 10, Affinity: graph.RBF, Sigma: graph.Sigma{Rule: graph.SigmaMeanVariance}}

// rateGraph is the graph of seed 002 §6.1: fully connected, Gaussian
// weights, σ² = mean of the feature variances, with the features and the
// 10-NN graphs of cPCA and cLPP. It is built once per dataset and data
// root; the cells of the dataset share it.
func rateGraph(ctx context.Context, env *Env, graphs *memo[string, *rateData], ds string) (*rateData, error) {
	return graphs.get(ctx, ds+"|"+env.DataRoot, func(ctx context.Context) (*rateData, error) {
		d, err := loadCatalog(ctx, ds, env.DataRoot, nil)
		if err != nil {
			return nil, err
		}
		if d.Table == nil {
			return nil, fmt.Errorf("%s has no feature table", ds)
		}
		raw, err := loadCatalog(ctx, ds, env.DataRoot, &catalog.Options{Raw: true})
		if err != nil {
			return nil, err
		}
		g, err := graph.Build(ctx, d.Table.X, graph.Spec{Kind: graph.Full, Affinity: graph.RBF, Sigma: graph.Sigma{Rule: graph.SigmaMeanVariance}})
		if err != nil {
			return nil, err
		}
		knn, err := graph.Build(ctx, d.Table.X, rateKNNSpec)
		if err != nil {
			return nil, err
		}
		rawKNN, err := graph.Build(ctx, raw.Table.X, rateKNNSpec)
		if err != nil {
			return nil, err
		}
		return &rateData{g: g, truth: d.Labels, x: d.Table.X, raw: raw.Table.X, knn: knn, rawKNN: rawKNN}, nil
	})
}

// rateColumn returns the registered method of a column of the rate
// experiment and whether it projects the unscaled features. The linear
// projections cpca and clpp run, as seed 002 evidently did, on the raw
// features: 95% of their variance takes 3, 24, 1 and 5 dimensions on
// hepatitis, ionosphere, wine and glass, the paper's 3, 24, 2 and 5 but
// for wine (line 291–292), against 14, 24, 10 and 6 on the min–max scaled
// features the spectral methods use; cpca-minmax and clpp-minmax are the
// projections of those.
func rateColumn(col string) (method string, raw bool) {
	if m, ok := strings.CutSuffix(col, "-minmax"); ok {
		return m, false
	}
	return col, col == "cpca" || col == "clpp"
}

func rateCell(ctx context.Context, env *Env, graphs *memo[string, *rateData], ds, method string, rate float64, rep int) (Values, error) {
	data, err := rateGraph(ctx, env, graphs, ds)
	if err != nil {
		return nil, err
	}
	g, truth := data.g, data.truth
	k := 0
	for _, c := range truth {
		k = max(k, c+1)
	}
	p := &cluster.Problem{Graph: g, K: k, Regularize: publishedLaplacian, Disconnected: publishedDisconnected}
	// The same constraint set for every method at a given (rate, rep).
	src := rand.NewPCG(env.Seed, uint64(rep)<<32|uint64(rate*1e6))
	if rate > 0 {
		if p.Constraints, err = constraint.FractionPairsContext(ctx, truth, rate, src); err != nil {
			return nil, err
		}
	}
	name, raw := rateColumn(method)
	m, err := cluster.New(name)
	if err != nil {
		return nil, err
	}
	if m.Uses().Input&cluster.FeatureInput != 0 {
		p.Features, p.Graph = data.x, data.knn
		if raw {
			p.Features, p.Graph = data.raw, data.rawKNN
		}
	}
	t0 := time.Now()
	res, err := cluster.Run(ctx, m, p, &cluster.Settings{Seed: env.Seed + uint64(rep)})
	if name == "csp" && errors.Is(err, cluster.ErrInvalid) {
		// FCSC has no feasible K-way solution at the default α: seed 002
		// §6.1 reports the same for K > 2. Recorded, not a failure.
		return Values{"infeasible": 1, "seconds": time.Since(t0).Seconds()}, nil
	}
	if err != nil {
		return nil, err
	}
	secs := time.Since(t0).Seconds()
	acc, err := metrics.Accuracy(truth, res.Labels)
	if err != nil {
		return nil, err
	}
	ri, err := metrics.RandIndex(truth, res.Labels)
	if err != nil {
		return nil, err
	}
	v := Values{"accuracy": acc, "rand": ri, "seconds": secs}
	if m.Uses().Input&cluster.FeatureInput != 0 && res.Embedding != nil {
		_, dim := res.Embedding.Dims()
		v["dim"] = float64(dim)
	}
	return v, nil
}

func rateReport(env *Env, s rateSetup, res map[string]Values) (*Output, error) {
	var b strings.Builder
	b.WriteString("# Seed 002 Figures 1–2: accuracy and Rand index against the constraint rate\n\n")
	b.WriteString("Regenerate with `tether repro seed002-rate` (add `-quick` for the smoke test).\n\n")
	b.WriteString("**Published** (seed 002 §6.1; the figures did not survive the text conversion): on six UCI datasets, ")
	b.WriteString("cSC (γ = 0.5) \"outperforms all algorithms followed by SL\" in accuracy and in Rand index (lines 326–327, 331–332; checked below); both improve ")
	b.WriteString("as the rate grows from 0 to 20%; unconstrained SC is flat; the linear projections cPCA and cLPP are worst.\n\n")
	b.WriteString("**Protocol** (ours, following §6.1): fully connected graph with Gaussian weights, σ² = mean of the feature ")
	b.WriteString("variances (`graph.SigmaMeanVariance`) on the catalogue's min–max scaled features; pairs drawn uniformly without ")
	fmt.Fprintf(&b, "replacement, ML if same class, else CL (`constraint.FractionPairs`), the rate being the fraction of all n(n−1)/2 pairs (the paper says \"from 0%% to 20%% constraints\"); %d repetitions; ", s.reps)
	b.WriteString("accuracy under the best cluster-to-class map (Hungarian, eq. 45–46) and Rand index (eq. 47) over all points. ")
	b.WriteString("Methods: `njw` (SC, no constraints), `sl`, `cpca` and `clpp` (seed 002 §3, eq. 9–14 and 15–22), `csc` (γ = 0.5), ")
	b.WriteString("and `fgpwc` (defaults; not in seed 002). cPCA and cLPP project the *unscaled* features, keep the fewest principal ")
	b.WriteString("directions holding 95% of their variance (§6.1, lines 289–293) and run k-means on the projection (10 runs, lowest ")
	b.WriteString("distortion); cLPP's graph is the Gaussian 10-NN graph of eq. 15 (either point among the other's 10 nearest, ")
	b.WriteString("σ² = mean feature variance). The raw features give the paper's dimensions (see below); `cpca-minmax` and ")
	b.WriteString("`clpp-minmax` are the same methods on the min–max scaled features of the other columns. All methods see the same ")
	b.WriteString("constraint set at a given rate and repetition. FCSC is `csp` (Wang & Davidson 2010, seed 002 §4.3, α = 0.5·λ_max(Q̄)·vol as §6.1 ")
	b.WriteString("states): where no K-way solution is feasible at that α the cell is counted as infeasible, as seed 002 reports for K > 2, ")
	b.WriteString("and shown as — when no repetition was feasible. Dermatology and Ecoli are not in ../shared/datasets.\n\n")
	findings, claims := rateLinearFindings(env, s, res)
	b.WriteString(findings)
	if f, c, ok := rateCSCFindings(env, s, res); ok {
		b.WriteString(f)
		claims = append(claims, c)
	}
	var figs []struct {
		name string
		png  []byte
	}
	csv := [][]string{{"dataset", "method", "rate", "accuracy_mean", "accuracy_sd", "rand_mean", "rand_sd", "seconds_mean", "reps"}}
	for _, ds := range s.datasets {
		if _, err := os.Stat(filepath.Join(env.DataRoot, ds)); err != nil {
			fmt.Fprintf(&b, "%s: not found under %s, skipped.\n\n", ds, env.DataRoot)
			continue
		}
		infeasible := map[string]int{}
		fmt.Fprintf(&b, "## %s\n\n| method | metric |", ds)
		for _, r := range s.rates {
			fmt.Fprintf(&b, " %g%% |", 100*r)
		}
		b.WriteString("\n|---|---|" + strings.Repeat("---:|", len(s.rates)) + "\n")
		var charts []figure.LineChart
		for _, metric := range []string{"accuracy", "rand"} {
			ch := figure.LineChart{Title: fmt.Sprintf("%s: %s", ds, map[string]string{"accuracy": "accuracy", "rand": "Rand index"}[metric]),
				XLabel: "constraint rate (% of pairs)", YLabel: metric, LegendRight: true}
			for _, m := range s.methods {
				fmt.Fprintf(&b, "| %s | %s |", m, metric)
				var ser figure.Series
				ser.Name = m
				for _, rate := range s.rates {
					var vals, secs []float64
					for r := 0; r < s.reps; r++ {
						key := rateKey(ds, m, rate, r, env.Seed)
						if m == "njw" {
							key = rateKey(ds, m, 0, r, env.Seed)
						}
						if v, ok := res[key]; ok {
							if x, ok := v[metric]; ok {
								vals = append(vals, x)
								secs = append(secs, v["seconds"])
							} else if v["infeasible"] == 1 && metric == "accuracy" {
								infeasible[m]++
							}
						}
					}
					if len(vals) == 0 {
						b.WriteString(" — |")
						continue
					}
					ms := summarize(vals)
					fmt.Fprintf(&b, " %.3f ± %.3f |", ms.mean, ms.sd)
					ser.X = append(ser.X, 100*rate)
					ser.Y = append(ser.Y, ms.mean)
					ser.Err = append(ser.Err, ms.sd)
					if metric == "accuracy" {
						csv = append(csv, []string{ds, m, fmt.Sprint(rate), ratef(ms.mean), ratef(ms.sd), "", "", ratef(summarize(secs).mean), fmt.Sprint(len(vals))})
					} else {
						for i := len(csv) - 1; i > 0; i-- {
							if csv[i][0] == ds && csv[i][1] == m && csv[i][2] == fmt.Sprint(rate) {
								csv[i][5], csv[i][6] = ratef(ms.mean), ratef(ms.sd)
							}
						}
					}
				}
				b.WriteString("\n")
				if !strings.HasSuffix(m, "-minmax") {
					// The min–max variants are in the tables only: eight
					// curves crowd the plot.
					ch.Series = append(ch.Series, ser)
				}
			}
			charts = append(charts, ch)
		}
		b.WriteString("\n")
		if c := infeasible["csp"]; c > 0 {
			cells := s.reps * (len(s.rates) - 1)
			fmt.Fprintf(&b, "FCSC (`csp`) had no feasible solution at the default α on %d of its %d cells (rates above 0 × repetitions).\n\n", c, cells)
		}
		if env.OutDir != "" {
			name := "rate-" + ds + ".png"
			png, err := lineChartsPNG(5*vg.Inch, 4*vg.Inch, charts)
			if err != nil {
				return nil, err
			}
			figs = append(figs, struct {
				name string
				png  []byte
			}{name, png})
			fmt.Fprintf(&b, "![%s](%s)\n\n", ds, name)
		}
	}
	var c strings.Builder
	for _, row := range csv {
		c.WriteString(strings.Join(row, ",") + "\n")
	}
	out := &Output{Markdown: b.String(), Files: map[string][]byte{"seed002-rate.csv": []byte(c.String())}, Claims: claims}
	for _, f := range figs {
		addFigure(out, f.name, f.png)
	}
	return out, nil
}

// ratef formats a figure of the rate experiment with four decimals.
func ratef(x float64) string { return fmt.Sprintf("%.4f", x) }

// seed002Dims are the projection dimensions seed 002 §6.1 reports for cPCA
// and cLPP at 95% of the variance (lines 290–293).
var seed002Dims = map[string]int{"hepatitis": 3, "ionosphere": 24, "wine": 2, "dermatology": 3, "glass": 5, "ecoli": 5}

// rateMean returns the mean of metric over the repetitions of (ds, m,
// rate), NaN when none finished; njw is computed at rate 0 only.
func rateMean(env *Env, s rateSetup, res map[string]Values, ds, m string, rate float64, metric string) float64 {
	if m == "njw" {
		rate = 0
	}
	var vals []float64
	for r := 0; r < s.reps; r++ {
		if v, ok := res[rateKey(ds, m, rate, r, env.Seed)]; ok {
			if x, ok := v[metric]; ok {
				vals = append(vals, x)
			}
		}
	}
	return summarize(vals).mean
}

// rateLinearFindings is the section that places cPCA and cLPP against
// seed 002's statements (lines 328–329 and 337–339) and against cSC, from
// the finished cells.
func rateLinearFindings(env *Env, s rateSetup, res map[string]Values) (string, []Claim) {
	var b strings.Builder
	b.WriteString("## Where cPCA and cLPP land\n\n")
	b.WriteString("Accuracy (Rand index) of the linear projections at 0% and at the largest rate, beside cSC at that rate; then, ")
	b.WriteString("over the rates above 0, the rank of cPCA and cLPP among the five seed-002 methods we run (SC, SL, cPCA, cLPP, cSC; ")
	b.WriteString("1 = best) by mean accuracy, and the rates at which both are below cSC in accuracy and in Rand index.\n\n")
	b.WriteString("| dataset | dim: cPCA / cLPP (paper) | cPCA 0% → max | cLPP 0% → max | cSC at max | rank cPCA, cLPP of 5 | both below cSC | cPCA / cLPP on min–max features at max |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	last := s.rates[len(s.rates)-1]
	pair := func(ds, m string, rate float64) string {
		return fmt.Sprintf("%.3f (%.3f)", rateMean(env, s, res, ds, m, rate, "accuracy"), rateMean(env, s, res, ds, m, rate, "rand"))
	}
	seed002 := []string{"njw", "sl", "cpca", "clpp", "csc"}
	type gapT struct {
		ds  string
		gap float64
	}
	var gaps []gapT
	var worstBoth, worstOne, total int
	var worstNames, partNames, notNames []string
	for _, ds := range s.datasets {
		if _, err := os.Stat(filepath.Join(env.DataRoot, ds)); err != nil {
			continue
		}
		// Dimensions kept (the same at every rate; the largest if not).
		dims := map[string]float64{}
		for _, m := range []string{"cpca", "clpp"} {
			for _, rate := range s.rates {
				for r := 0; r < s.reps; r++ {
					if v, ok := res[rateKey(ds, m, rate, r, env.Seed)]; ok {
						dims[m] = max(dims[m], v["dim"])
					}
				}
			}
		}
		paper := "—"
		if d, ok := seed002Dims[ds]; ok {
			paper = fmt.Sprint(d)
		}
		// Means over the rates above 0, and the rates where cSC leads.
		mean := map[string]map[string]float64{}
		belowCSC, counted := 0, 0
		for _, rate := range s.rates {
			if rate == 0 {
				continue
			}
			counted++
			below := true
			for _, metric := range []string{"accuracy", "rand"} {
				for _, m := range seed002 {
					if mean[m] == nil {
						mean[m] = map[string]float64{}
					}
					mean[m][metric] += rateMean(env, s, res, ds, m, rate, metric)
				}
				csc := rateMean(env, s, res, ds, "csc", rate, metric)
				below = below && rateMean(env, s, res, ds, "cpca", rate, metric) < csc && rateMean(env, s, res, ds, "clpp", rate, metric) < csc
			}
			if below {
				belowCSC++
			}
		}
		rank := func(m string) int {
			r := 1
			for _, o := range seed002 {
				if o != m && mean[o]["accuracy"] > mean[m]["accuracy"] {
					r++
				}
			}
			return r
		}
		// "Worst": below SC, SL and cSC in mean accuracy and Rand index.
		worst := func(m string) bool {
			for _, metric := range []string{"accuracy", "rand"} {
				for _, o := range []string{"njw", "sl", "csc"} {
					if mean[m][metric] >= mean[o][metric] {
						return false
					}
				}
			}
			return true
		}
		total++
		switch wp, wl := worst("cpca"), worst("clpp"); {
		case wp && wl:
			worstBoth++
			worstNames = append(worstNames, ds)
		case wp || wl:
			worstOne++
			partNames = append(partNames, fmt.Sprintf("%s (%s only)", ds, map[bool]string{true: "cPCA", false: "cLPP"}[wp]))
		default:
			notNames = append(notNames, ds)
		}
		other := math.Inf(1)
		for _, o := range []string{"njw", "sl", "csc"} {
			other = math.Min(other, mean[o]["accuracy"])
		}
		gaps = append(gaps, gapT{ds, (other - math.Max(mean["cpca"]["accuracy"], mean["clpp"]["accuracy"])) / float64(counted)})
		fmt.Fprintf(&b, "| %s | %g / %g (%s) | %s → %s | %s → %s | %s | %d, %d | %d of %d rates | %s / %s |\n", ds,
			dims["cpca"], dims["clpp"], paper,
			pair(ds, "cpca", 0), pair(ds, "cpca", last), pair(ds, "clpp", 0), pair(ds, "clpp", last),
			pair(ds, "csc", last), rank("cpca"), rank("clpp"), belowCSC, counted,
			pair(ds, "cpca-minmax", last), pair(ds, "clpp-minmax", last))
	}
	if total == 0 {
		return "", nil
	}
	sort.Slice(gaps, func(i, j int) bool { return gaps[i].gap > gaps[j].gap })
	b.WriteString("\n")
	list := func(xs []string) string {
		if len(xs) == 0 {
			return "none"
		}
		return strings.Join(xs, ", ")
	}
	c1 := Claim{Source: "seed 002 §6.1, lines 328–329 (Figs. 1–2)", Quote: "Globally, cPCA and cLPP produce the worst performances",
		Rule: "on each available dataset, cPCA's and cLPP's mean accuracy and mean Rand index over the rates above 0 are below those of SC, SL and cSC, counted over the (method, dataset) pairs " +
			"(a dataset where only one of the two is below counts one pair of its two): " + quantBands(allOf(2*total), 2*total, "(method, dataset) pairs") +
			". Until the ledger's rule was made one (review of the claims ledger), it was partly held when one of the two was below on some dataset",
		Ours:    fmt.Sprintf("both worst on %s; one of them on %s; neither on %s", list(worstNames), list(partNames), list(notNames)),
		Verdict: shareVerdict(2*worstBoth+worstOne, 2*total)}
	verdict := "**" + c1.Verdict.String() + "**"
	fmt.Fprintf(&b, "- \"Globally, cPCA and cLPP produce the worst performances\" (lines 328–329; here: mean accuracy and Rand index over the rates above 0 below those of SC, SL and cSC): %s. Both worst on %s; one of them on %s; neither on %s.\n",
		verdict, list(worstNames), list(partNames), list(notNames))
	c2 := Claim{Source: "seed 002 §6.1, lines 328–329", Quote: "… specifically for the Wine database",
		Rule:    "the mean accuracy gap by which the better of cPCA and cLPP trails the weakest of SC, SL and cSC (rates above 0) is largest on wine",
		Verdict: NotHeld}
	var gapParts []string
	for _, g := range gaps {
		gapParts = append(gapParts, fmt.Sprintf("%s %.3f", g.ds, g.gap))
	}
	c2.Ours = strings.Join(gapParts, ", ")
	if gaps[0].ds == "wine" {
		c2.Verdict = Held
	}
	wine := "**" + c2.Verdict.String() + "**"
	fmt.Fprintf(&b, "- \"… specifically for the Wine database\": the mean accuracy by which the better linear method trails the weakest of SC, SL and cSC over the rates above 0 is largest on %s (%.3f)", gaps[0].ds, gaps[0].gap)
	for _, g := range gaps[1:] {
		fmt.Fprintf(&b, ", then %s (%.3f)", g.ds, g.gap)
	}
	fmt.Fprintf(&b, "; negative: the linear method leads: %s.\n", wine)
	b.WriteString("- Why cPCA hardly moves with the rate: eq. 9 averages the constraint terms (1/|C|, 1/|M|), so more pairs only ")
	b.WriteString("sharpen the same matrix; and its directions are orthonormal, so the constraints only choose the subspace kept, ")
	b.WriteString("without rescaling it. When that subspace holds nearly all of the data (24 of ionosphere's 34 dimensions) or one ")
	b.WriteString("feature dominates the variance (proline in raw wine: one direction), k-means sees the same geometry at every rate. ")
	b.WriteString("cLPP adds each constraint with weight ±1 (eq. 21) and is normalized by XᵀD̄X, which rescales the projection: ")
	b.WriteString("it moves with the rate, up on hepatitis and ionosphere, down on raw wine, where its single direction (the paper ")
	b.WriteString("reports 2) is the first of two discriminant-like directions and cannot separate three classes.\n\n")
	return b.String(), []Claim{c1, c2}
}

// rateCSCFindings checks seed 002's headline statement, cSC first and SL
// second, on the means over the rates above 0, and lists the rates where
// cSC is not the best or SL falls below unconstrained SC. ok is false
// when no dataset ran.
func rateCSCFindings(env *Env, s rateSetup, res map[string]Values) (string, Claim, bool) {
	metrics := []string{"accuracy", "rand"}
	var held, total int
	var heldNames, failNames, notes []string
	for _, ds := range s.datasets {
		if _, err := os.Stat(filepath.Join(env.DataRoot, ds)); err != nil {
			continue
		}
		// The seed-002 methods, FCSC (csp) only where it has a mean at
		// every rate above 0 (the paper leaves it out for K > 2).
		methods := []string{"njw", "sl", "cpca", "clpp", "csc"}
		cspOK := true
		for _, rate := range s.rates {
			if rate > 0 && math.IsNaN(rateMean(env, s, res, ds, "csp", rate, "accuracy")) {
				cspOK = false
			}
		}
		if cspOK {
			methods = append(methods, "csp")
		}
		mean := map[string]map[string]float64{}
		counted := 0
		var cscLost, slBelowSC []string
		for _, rate := range s.rates {
			if rate == 0 {
				continue
			}
			counted++
			for _, metric := range metrics {
				at := map[string]float64{}
				for _, m := range methods {
					x := rateMean(env, s, res, ds, m, rate, metric)
					at[m] = x
					if mean[m] == nil {
						mean[m] = map[string]float64{}
					}
					mean[m][metric] += x
				}
				var above []string
				for _, m := range methods {
					if m != "csc" && at[m] > at["csc"] {
						above = append(above, fmt.Sprintf("%s %.3f", rateName(m), at[m]))
					}
				}
				if len(above) > 0 {
					cscLost = append(cscLost, fmt.Sprintf("%g%% %s (cSC %.3f; %s)", 100*rate, metric, at["csc"], strings.Join(above, ", ")))
				}
				if at["sl"] < at["njw"] {
					slBelowSC = append(slBelowSC, fmt.Sprintf("%g%% %s (SL %.3f, SC %.3f)", 100*rate, metric, at["sl"], at["njw"]))
				}
			}
		}
		if counted == 0 {
			continue
		}
		total++
		ok := true
		for _, metric := range metrics {
			for _, m := range methods {
				if m != "csc" && mean[m][metric] >= mean["csc"][metric] {
					ok = false
				}
				if m != "csc" && m != "sl" && mean[m][metric] >= mean["sl"][metric] {
					ok = false
				}
			}
		}
		if ok {
			held++
			heldNames = append(heldNames, ds)
		} else {
			var order []string
			for _, metric := range metrics {
				ms := append([]string(nil), methods...)
				sort.SliceStable(ms, func(i, j int) bool { return mean[ms[i]][metric] > mean[ms[j]][metric] })
				var parts []string
				for _, m := range ms[:3] {
					parts = append(parts, fmt.Sprintf("%s %.3f", rateName(m), mean[m][metric]/float64(counted)))
				}
				order = append(order, metric+" "+strings.Join(parts, " > "))
			}
			failNames = append(failNames, fmt.Sprintf("%s (%s)", ds, strings.Join(order, "; ")))
		}
		var n []string
		if len(cscLost) > 0 {
			n = append(n, "cSC is not the best at "+strings.Join(cscLost, ", "))
		}
		if len(slBelowSC) > 0 {
			n = append(n, "SL is below unconstrained SC at "+strings.Join(slBelowSC, ", "))
		}
		if len(n) > 0 {
			notes = append(notes, fmt.Sprintf("%s: %s", ds, strings.Join(n, "; ")))
		}
	}
	if total == 0 {
		return "", Claim{}, false
	}
	list := func(xs []string) string {
		if len(xs) == 0 {
			return "none"
		}
		return strings.Join(xs, "; ")
	}
	c := Claim{Source: "seed 002 §6.1, lines 326–327 and 331–332 (Figs. 1–2)",
		Quote: "cSC algorithm outperforms all algorithms followed by SL algorithm",
		Rule: "on each available dataset, over the rates above 0, cSC's mean accuracy and mean Rand index are the highest of the seed-002 methods we run " +
			"(SC, SL, cPCA, cLPP, cSC, and FCSC where it is feasible at every rate) and SL's the second: " + quantBands(allOf(total), total, "datasets") + ". " +
			"Rule written on review 53, after the cells were computed (the page restated the claim without checking it)",
		Ours:    fmt.Sprintf("cSC first and SL second on %d of %d datasets: %s; not on %s", held, total, list(heldNames), list(failNames)),
		Verdict: shareVerdict(held, total)}
	var b strings.Builder
	b.WriteString("## cSC first, SL second?\n\n")
	fmt.Fprintf(&b, "- \"cSC algorithm outperforms all algorithms followed by SL algorithm\" (lines 326–327 for accuracy, 331–332 for the Rand index; "+
		"here: means over the rates above 0, cSC highest and SL second of SC, SL, cPCA, cLPP, cSC and FCSC where feasible): %s on %d of %d datasets (%s); not on %s.\n",
		verdictMark(c.Verdict), held, total, list(heldNames), list(failNames))
	if len(notes) > 0 {
		b.WriteString("- Where they lose, rate by rate (mean over the repetitions):\n")
		for _, n := range notes {
			fmt.Fprintf(&b, "  - %s.\n", n)
		}
	}
	b.WriteString("\n")
	return b.String(), c, true
}

// rateName is the paper's name of a method of this page.
func rateName(m string) string {
	switch m {
	case "njw":
		return "SC"
	case "sl":
		return "SL"
	case "cpca":
		return "cPCA"
	case "clpp":
		return "cLPP"
	case "csc":
		return "cSC"
	case "csp":
		return "FCSC"
	}
	return m
}
