package experiment

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gonum.org/v1/plot"
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
		methods:  []string{"njw", "sl", "csc", "fgpwc"},
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
		Title:  "accuracy and Rand index against the constraint rate (cSC, SL, FGPWC, SC)",
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
							if m == "sl" && rate == 0 {
								continue // SL needs constraints (it is SC on an edited graph)
							}
							ds, m, rate, r := ds, m, rate, r
							cells = append(cells, Cell{
								Key: rateKey(ds, m, rate, r, env.Seed),
								Run: func(ctx context.Context) (Values, error) { return rateCell(ctx, env, graphs, ds, m, rate, r) },
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

func rateKey(ds, m string, rate float64, r int, seed uint64) string {
	return fmt.Sprintf("%s/%s/rate=%g/rep=%d/seed=%d", ds, m, rate, r, seed)
}

// rateData is a dataset with its graph.
type rateData struct {
	g     *graph.Graph
	truth []int
}

// rateGraph is the graph of seed 002 §6.1: fully connected, Gaussian
// weights, σ² = mean of the feature variances. It is built once per dataset
// and data root; the cells of the dataset share it.
func rateGraph(ctx context.Context, env *Env, graphs *memo[string, *rateData], ds string) (*rateData, error) {
	return graphs.get(ctx, ds+"|"+env.DataRoot, func(ctx context.Context) (*rateData, error) {
		d, err := catalog.Load(ds, env.DataRoot, nil)
		if err != nil {
			return nil, err
		}
		if d.Table == nil {
			return nil, fmt.Errorf("%s has no feature table", ds)
		}
		g, err := graph.Build(ctx, d.Table.X, graph.Spec{Kind: graph.Full, Affinity: graph.RBF, Sigma: graph.Sigma{Rule: graph.SigmaMeanVariance}})
		if err != nil {
			return nil, err
		}
		return &rateData{g: g, truth: d.Labels}, nil
	})
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
	p := &cluster.Problem{Graph: g, K: k}
	// The same constraint set for every method at a given (rate, rep).
	src := rand.NewPCG(env.Seed, uint64(rep)<<32|uint64(rate*1e6))
	if rate > 0 {
		if p.Constraints, err = constraint.FractionPairs(truth, rate, src); err != nil {
			return nil, err
		}
	}
	m, err := cluster.New(method)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	res, err := cluster.Run(ctx, m, p, &cluster.Settings{Seed: env.Seed + uint64(rep)})
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
	return Values{"accuracy": acc, "rand": ri, "seconds": secs}, nil
}

func rateReport(env *Env, s rateSetup, res map[string]Values) (*Output, error) {
	var b strings.Builder
	b.WriteString("# Seed 002 Figures 1–2: accuracy and Rand index against the constraint rate\n\n")
	b.WriteString("Regenerate with `tether repro seed002-rate` (add `-quick` for the smoke test).\n\n")
	b.WriteString("**Published** (seed 002 §6.1; the figures did not survive the text conversion): on six UCI datasets, ")
	b.WriteString("cSC (γ = 0.5) has the best accuracy and Rand index at every constraint rate, followed by SL; both improve ")
	b.WriteString("as the rate grows from 0 to 20%; unconstrained SC is flat; the linear projections cPCA and cLPP are worst.\n\n")
	b.WriteString("**Protocol** (ours, following §6.1): fully connected graph with Gaussian weights, σ² = mean of the feature ")
	b.WriteString("variances (`graph.SigmaMeanVariance`) on the catalogue's min–max scaled features; pairs drawn uniformly without ")
	fmt.Fprintf(&b, "replacement, ML if same class, else CL (`constraint.FractionPairs`), the rate being the fraction of all n(n−1)/2 pairs (the paper says \"from 0%% to 20%% constraints\"); %d repetitions; ", s.reps)
	b.WriteString("accuracy under the best cluster-to-class map (Hungarian, eq. 45–46) and Rand index (eq. 47) over all points. ")
	b.WriteString("Methods: `njw` (SC, no constraints), `sl`, `csc` (γ = 0.5), and `fgpwc` (defaults; not in seed 002). ")
	b.WriteString("cPCA, cLPP and FCSC are not implemented in tether; Dermatology and Ecoli are not in ../shared/datasets.\n\n")
	var files []string
	csv := [][]string{{"dataset", "method", "rate", "accuracy_mean", "accuracy_sd", "rand_mean", "rand_sd", "seconds_mean", "reps"}}
	for _, ds := range s.datasets {
		if _, err := os.Stat(filepath.Join(env.DataRoot, ds)); err != nil {
			fmt.Fprintf(&b, "%s: not found under %s, skipped.\n\n", ds, env.DataRoot)
			continue
		}
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
							vals = append(vals, v[metric])
							secs = append(secs, v["seconds"])
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
				ch.Series = append(ch.Series, ser)
			}
			charts = append(charts, ch)
		}
		b.WriteString("\n")
		if env.OutDir != "" {
			var plots []*plot.Plot
			for _, c := range charts {
				p, err := figure.Lines(c)
				if err != nil {
					return nil, err
				}
				plots = append(plots, p)
			}
			name := "rate-" + ds + ".png"
			if err := os.MkdirAll(env.OutDir, 0o755); err != nil {
				return nil, err
			}
			if err := figure.SavePNG(filepath.Join(env.OutDir, name), 5*vg.Inch, 4*vg.Inch, plots...); err != nil {
				return nil, err
			}
			files = append(files, name)
			fmt.Fprintf(&b, "![%s](%s)\n\n", ds, name)
		}
	}
	var c strings.Builder
	for _, row := range csv {
		c.WriteString(strings.Join(row, ",") + "\n")
	}
	return &Output{Markdown: b.String(), Files: map[string][]byte{"seed002-rate.csv": []byte(c.String())}, Figures: files}, nil
}

// ratef formats a figure of the rate experiment with four decimals.
func ratef(x float64) string { return fmt.Sprintf("%.4f", x) }
