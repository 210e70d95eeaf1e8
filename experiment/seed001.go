package experiment

import (
	"bytes"
	"context"
	"encoding/csv"
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

// seed001Fig23 is seed 001 (Kawale & Boley, SDM 2013) Fig. 3, purity and
// NMI of L1-regularized constrained spectral clustering against the
// baseline of Wang & Davidson (CSP) as the share of known labels grows, and
// Fig. 2, the same on wine with 10% of the known labels flipped (§5.1.2),
// and, as a second reading that is not the paper's, 10% of the pairs.
//
// Protocol (seed 001 §5.1): two-class UCI sets (wine restricted to its
// classes 2 and 3, 119 points; glass to its two largest classes, 146
// points, as SPEC §10 states; ionosphere, hepatitis and wdbc are two-class;
// diabetes is not in ../shared/datasets), a full RBF graph with σ² the
// mean variance of the features (eq. 5.13, "σ² set to the variance present
// in the dataset"), must-links and cannot-links between every pair of
// nodes whose labels are known (a random p% of the nodes; at most
// seed001MaxPairs pairs, sampled above), purity and NMI (arithmetic
// normalization, eq. 5.11–5.12) over all nodes, seed001Reps runs instead of
// the paper's 100 (budget).
func seed001Fig23() Experiment {
	graphs := &memo[string, *seed001Data]{}
	return Experiment{
		Name:   "seed001-fig2-3",
		Title:  "L1-constrained spectral clustering against CSP as known labels grow, clean and with 10% of the known labels flipped",
		Source: "seed 001 Fig. 3 and Fig. 2",
		Cells: func(env *Env) ([]Cell, error) {
			s := seed001SetupFor(env.Quick)
			var cells []Cell
			for _, ds := range s.datasets {
				if _, err := os.Stat(filepath.Join(env.DataRoot, ds)); err != nil {
					continue
				}
				for _, noise := range s.noises(ds) {
					for _, pct := range s.pcts {
						for rep := 0; rep < s.reps; rep++ {
							for _, m := range seed001Methods {
								ds, noise, pct, rep, m := ds, noise, pct, rep, m
								cells = append(cells, Cell{
									Key:  seed001Key(ds, m, noise, pct, rep),
									Data: []string{ds},
									Run: func(ctx context.Context) (Values, error) {
										return seed001Cell(ctx, env, graphs, ds, m, noise, pct, rep)
									},
								})
							}
						}
					}
				}
			}
			return cells, nil
		},
		Report: func(env *Env, res map[string]Values) (*Output, error) {
			return seed001Report(env, seed001SetupFor(env.Quick), res)
		},
	}
}

// seed001Methods are the two methods of Fig. 3: ours (l1csc) and the
// baseline (csp, Wang & Davidson 2010), both with default knobs.
var seed001Methods = []string{"l1csc", "csp"}

// seed001MaxPairs caps the constraints of one run: 80% of wdbc's labels
// give 10⁵ pairs; above the cap a uniform sample is kept (seeded).
const seed001MaxPairs = 50000

type seed001Setup struct {
	datasets []string
	pcts     []float64
	reps     int
}

// seed001Noise is the noise of a constraint set: a share of the known
// nodes whose label is flipped before the pairs are made (labels: seed
// 001 §5.1.2, "we randomly flipped the value of 10% of the known labels"),
// or a share of the pairs flipped, must-link ↔ cannot-link (our first
// reading, kept as a second table; its pairs can contradict each other).
type seed001Noise struct {
	share  float64
	labels bool
}

// key is the noise's part of a cell key: "noise=0.1" for flipped pairs
// (and for no noise), "labelnoise=0.1" for flipped labels.
func (n seed001Noise) key() string {
	if n.labels {
		return fmt.Sprintf("labelnoise=%g", n.share)
	}
	return fmt.Sprintf("noise=%g", n.share)
}

// noises returns the noises run on ds: none everywhere, and on wine 10%
// of the known labels flipped (Fig. 2) and 10% of the pairs flipped.
func (s seed001Setup) noises(ds string) []seed001Noise {
	if ds == "wine" {
		return []seed001Noise{{}, {0.1, true}, {0.1, false}}
	}
	return []seed001Noise{{}}
}

func seed001SetupFor(quick bool) seed001Setup {
	if quick {
		return seed001Setup{datasets: []string{"wine"}, pcts: []float64{0.4}, reps: 2}
	}
	return seed001Setup{datasets: []string{"wine", "glass", "ionosphere", "hepatitis", "wdbc"}, pcts: []float64{0.2, 0.4, 0.6, 0.8}, reps: 10}
}

func seed001Key(ds, m string, noise seed001Noise, pct float64, rep int) string {
	return fmt.Sprintf("%s/%s/%s/known=%g/rep=%d", ds, m, noise.key(), pct, rep)
}

// seed001Data is a two-class dataset with its graph.
type seed001Data struct {
	g     *graph.Graph
	truth []int
}

// seed001Load loads ds, keeps its two classes of seed 001 (wine: classes
// 2 and 3; glass: the two largest; others as they are) and builds the RBF
// graph of eq. 5.13.
func seed001Load(ctx context.Context, env *Env, graphs *memo[string, *seed001Data], ds string) (*seed001Data, error) {
	return graphs.get(ctx, ds+"|"+env.DataRoot, func(ctx context.Context) (*seed001Data, error) {
		d, err := loadCatalog(ctx, ds, env.DataRoot, nil)
		if err != nil {
			return nil, err
		}
		keep := seed001Classes(ds, d)
		var rows []int
		for i, c := range d.Labels {
			if keep[c] >= 0 {
				rows = append(rows, i)
			}
		}
		_, cols := d.Table.X.Dims()
		x := mat.NewDense(len(rows), cols, nil)
		truth := make([]int, len(rows))
		for r, i := range rows {
			x.SetRow(r, d.Table.X.RawRowView(i))
			truth[r] = keep[d.Labels[i]]
		}
		g, err := graph.Build(ctx, x, graph.Spec{Kind: graph.Full, Affinity: graph.RBF, Sigma: graph.Sigma{Rule: graph.SigmaMeanVariance}})
		if err != nil {
			return nil, err
		}
		return &seed001Data{g: g, truth: truth}, nil
	})
}

// seed001Classes maps each class of d to 0 or 1 (kept) or −1 (dropped).
func seed001Classes(ds string, d *catalog.Data) []int {
	k := len(d.ClassNames)
	keep := make([]int, k)
	for c := range keep {
		keep[c] = c
	}
	if k <= 2 {
		return keep
	}
	for c := range keep {
		keep[c] = -1
	}
	switch ds {
	case "wine": // classes 2 and 3 (71 + 48 instances)
		keep[1], keep[2] = 0, 1
	default: // the two largest classes (glass: 76 + 70)
		count := make([]int, k)
		for _, c := range d.Labels {
			count[c]++
		}
		order := make([]int, k)
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return count[order[a]] > count[order[b]] })
		keep[min(order[0], order[1])], keep[max(order[0], order[1])] = 0, 1
	}
	return keep
}

// seed001Pairs draws the known nodes (a share pct of all, seeded), flips
// the two-class label of a share of them when noise.labels, turns every
// pair of them into a must-link or cannot-link by their labels (sampled
// down to seed001MaxPairs) and flips a share of the pairs when not
// noise.labels.
func seed001Pairs(truth []int, pct float64, noise seed001Noise, src rand.Source) *constraint.Set {
	rng := rand.New(src)
	n := len(truth)
	perm := rng.Perm(n)
	known := perm[:int(math.Round(pct*float64(n)))]
	sort.Ints(known)
	label := make(map[int]int, len(known))
	for _, i := range known {
		label[i] = truth[i]
	}
	if noise.labels {
		for _, a := range rng.Perm(len(known))[:int(math.Round(noise.share*float64(len(known))))] {
			label[known[a]] = 1 - label[known[a]] // two classes
		}
	}
	var pairs []constraint.Pair
	for a := 0; a < len(known); a++ {
		for b := a + 1; b < len(known); b++ {
			i, j := known[a], known[b]
			kind := constraint.CannotLink
			if label[i] == label[j] {
				kind = constraint.MustLink
			}
			pairs = append(pairs, constraint.Pair{I: i, J: j, Kind: kind})
		}
	}
	if len(pairs) > seed001MaxPairs {
		rng.Shuffle(len(pairs), func(a, b int) { pairs[a], pairs[b] = pairs[b], pairs[a] })
		pairs = pairs[:seed001MaxPairs]
	}
	flip := 0
	if !noise.labels {
		flip = int(math.Round(noise.share * float64(len(pairs))))
	}
	for _, p := range rng.Perm(len(pairs))[:flip] {
		if pairs[p].Kind == constraint.MustLink {
			pairs[p].Kind = constraint.CannotLink
		} else {
			pairs[p].Kind = constraint.MustLink
		}
	}
	return &constraint.Set{N: n, Pairs: pairs}
}

// seed001Draw loads ds (seed001Load) and draws its constraint set rep
// with a share pct of the nodes known and the noise (seed001Pairs),
// seeded by env.Seed, ds, noise, pct and rep: without noise
// seed001-tables2-3 gets the clean sets of seed001-fig2-3. Cost: the load
// on ds's first use, then one seed001Pairs.
func seed001Draw(ctx context.Context, env *Env, graphs *memo[string, *seed001Data], ds string, noise seed001Noise, pct float64, rep int) (*seed001Data, *constraint.Set, error) {
	data, err := seed001Load(ctx, env, graphs, ds)
	if err != nil {
		return nil, nil, err
	}
	stream := fmt.Sprint(noise.share) // the streams of the first reading
	if noise.labels {
		stream = "labels " + stream
	}
	src := rand.NewPCG(env.Seed, seedStream("seed001", ds, stream, fmt.Sprint(pct), fmt.Sprint(rep)))
	return data, seed001Pairs(data.truth, pct, noise, src), nil
}

func seed001Cell(ctx context.Context, env *Env, graphs *memo[string, *seed001Data], ds, method string, noise seed001Noise, pct float64, rep int) (Values, error) {
	data, set, err := seed001Draw(ctx, env, graphs, ds, noise, pct, rep)
	if err != nil {
		return nil, err
	}
	m, err := cluster.New(method)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	res, err := cluster.Run(ctx, m, &cluster.Problem{Graph: data.g, K: 2, Constraints: set, Regularize: publishedLaplacian, Disconnected: publishedDisconnected}, &cluster.Settings{Seed: env.Seed + uint64(rep)})
	if err != nil {
		return nil, err
	}
	nmi, err := metrics.NMI(data.truth, res.Labels, metrics.Arithmetic)
	if err != nil {
		return nil, err
	}
	pur, err := metrics.Purity(data.truth, res.Labels)
	if err != nil {
		return nil, err
	}
	return Values{"nmi": nmi, "purity": pur, "pairs": float64(len(set.Pairs)), "seconds": time.Since(t0).Seconds()}, nil
}

func seed001Report(env *Env, s seed001Setup, res map[string]Values) (*Output, error) {
	var b strings.Builder
	b.WriteString("# Seed 001 Figures 3 and 2: L1-constrained spectral clustering against CSP\n\n")
	b.WriteString("Regenerate with `tether repro seed001-fig2-3`.\n\n")
	b.WriteString("**Published** (seed 001 §5.1.1; the figures did not survive the text conversion, so only the text's statements are checked): " +
		"as the share of known labels grows both methods improve; \"our approach consistently matches the performance of the prior " +
		"state-of-art model\" and on glass \"it beats the baseline\"; NMI is poor with few constraints on glass, ionosphere, hepatitis " +
		"and diabetes and high already with few on wine and wdbc. Fig. 2: with 10% of the known labels flipped, on wine, the L1 method " +
		"keeps a higher NMI than the baseline.\n\n")
	fmt.Fprintf(&b, "**Protocol** (ours, following §5.1): two-class sets (wine classes 2 and 3, 119 points; glass's two largest "+
		"classes, 146 points; ionosphere, hepatitis, wdbc; diabetes is not in ../shared/datasets), full RBF graph with σ² the mean "+
		"feature variance of the catalogue's min–max scaled features (eq. 5.13), a random share of the nodes labelled and every pair of "+
		"labelled nodes a must-link or cannot-link (at most %d pairs, a uniform sample above), purity and NMI (eq. 5.11–5.12, "+
		"arithmetic normalization) over all nodes, %d runs per point (the paper: 100). Methods with default knobs: `l1csc` "+
		"(λ = 1, μ = 1, Ncut variant) and `csp` (α = 0.5·λ_max(Q̄)·vol, seed 002's rule; seed 001 says α is \"the largest eigenvalue "+
		"of the normalized matrix Q\" but reports α from 0.2 to 4.34·10³⁴ in its Table 3 (its text says up to 10²³), so its scale is not ours). Fig. 2 flips the class of a random 10%% of "+
		"the known nodes before the pairs are made, as §5.1.2 says (\"we randomly flipped the value of 10%% of the known labels\"), so "+
		"the pairs agree with each other and 10%% of the nodes carry a wrong class. A second table flips a random 10%% of the pairs "+
		"instead (must-link ↔ cannot-link; its pairs can contradict each other): our first reading of the figure, which checked the "+
		"claim under that protocol until a review found the text says labels; it checks no claim now.\n\n", seed001MaxPairs, s.reps)
	rows := [][]string{{"dataset", "noise", "flipped", "known", "method", "nmi_mean", "nmi_sd", "purity_mean", "purity_sd", "pairs_mean", "seconds_mean", "runs"}}
	type stat struct{ nmi, nsd, pur, psd, pairs, secs float64 }
	get := func(ds, m string, noise seed001Noise, pct float64) (stat, int) {
		var nm, pu, pa, se []float64
		for r := 0; r < s.reps; r++ {
			if v, ok := res[seed001Key(ds, m, noise, pct, r)]; ok {
				nm, pu, pa, se = append(nm, v["nmi"]), append(pu, v["purity"]), append(pa, v["pairs"]), append(se, v["seconds"])
			}
		}
		if len(nm) == 0 {
			return stat{}, 0
		}
		var st stat
		st.nmi, st.nsd = meanStdDev(nm)
		st.pur, st.psd = meanStdDev(pu)
		st.pairs, _ = meanStdDev(pa)
		st.secs, _ = meanStdDev(se)
		return st, len(nm)
	}
	var wins, points int
	var glassWins, glassPoints int
	var charts []figure.LineChart
	var missing []string
	for _, ds := range s.datasets {
		if _, err := os.Stat(filepath.Join(env.DataRoot, ds)); err != nil {
			missing = append(missing, ds)
			continue
		}
		for _, noise := range s.noises(ds) {
			title := ds
			switch {
			case noise.labels:
				title = fmt.Sprintf("%s, %g%% of the known labels flipped (Fig. 2)", ds, 100*noise.share)
			case noise.share > 0:
				title = fmt.Sprintf("%s, %g%% of the pairs flipped (not the paper's protocol)", ds, 100*noise.share)
			}
			fmt.Fprintf(&b, "## %s\n\n| known labels | pairs | L1-CSC NMI | CSP NMI | L1-CSC purity | CSP purity | s (L1-CSC / CSP) |\n|---:|---:|---:|---:|---:|---:|---:|\n", title)
			chart := figure.LineChart{Title: title + ": NMI", XLabel: "known labels (%)", YLabel: "NMI", YMin: 0, YMax: 1}
			series := map[string]*figure.Series{}
			for _, m := range seed001Methods {
				series[m] = &figure.Series{Name: m}
			}
			for _, pct := range s.pcts {
				l1, nl := get(ds, "l1csc", noise, pct)
				cs, nc := get(ds, "csp", noise, pct)
				cell := func(x, sd float64, n int) string {
					if n == 0 {
						return "failed"
					}
					return fmt.Sprintf("%.3f ± %.3f", x, sd)
				}
				fmt.Fprintf(&b, "| %g%% | %.0f | %s | %s | %s | %s | %.2f / %.2f |\n", 100*pct, l1.pairs,
					cell(l1.nmi, l1.nsd, nl), cell(cs.nmi, cs.nsd, nc), cell(l1.pur, l1.psd, nl), cell(cs.pur, cs.psd, nc), l1.secs, cs.secs)
				for _, m := range seed001Methods {
					st, cnt := get(ds, m, noise, pct)
					if cnt == 0 {
						continue
					}
					series[m].X = append(series[m].X, 100*pct)
					series[m].Y = append(series[m].Y, st.nmi)
					series[m].Err = append(series[m].Err, st.nsd)
					flipped := "none"
					switch {
					case noise.labels:
						flipped = "labels"
					case noise.share > 0:
						flipped = "pairs"
					}
					rows = append(rows, []string{ds, fmt.Sprint(noise.share), flipped, fmt.Sprint(pct), m, f4(st.nmi), f4(st.nsd), f4(st.pur), f4(st.psd), f4(st.pairs), f4(st.secs), fmt.Sprint(cnt)})
				}
				if nl > 0 && nc > 0 && noise.share == 0 {
					points++
					if l1.nmi >= cs.nmi-0.02 {
						wins++
					}
					if ds == "glass" {
						glassPoints++
						if l1.nmi > cs.nmi {
							glassWins++
						}
					}
				}
			}
			b.WriteString("\n")
			for _, m := range seed001Methods {
				chart.Series = append(chart.Series, *series[m])
			}
			charts = append(charts, chart)
		}
	}
	b.WriteString("## Claims\n\n")
	var claims []Claim
	// The page's verdicts are the claims' (TestPageProseVerdictsMatchClaims).
	c := Claim{Source: "seed 001 §5.1.1, Fig. 3", Quote: "our approach consistently matches the performance of the prior state-of-art model",
		Rule: "at every (dataset, share of known labels) point, L1-CSC's mean NMI is at least CSP's minus 0.02: " + quantBands(allOf(points), points, "points"),
		Ours: fmt.Sprintf("%d of %d points", wins, points), Verdict: shareVerdict(wins, points)}
	claims = append(claims, c)
	fmt.Fprintf(&b, "- \"Our approach consistently matches the baseline\": L1-CSC's mean NMI is at least CSP's minus 0.02 at %d of %d (dataset, known-labels) points: %s.\n",
		wins, points, verdictMark(c.Verdict))
	if glassPoints > 0 {
		c := Claim{Source: "seed 001 §5.1.1, Fig. 3", Quote: "In the case of Glass dataset, it beats the baseline approach.",
			Rule: "on glass, L1-CSC's mean NMI is above CSP's at every share of known labels: " + quantBands(allOf(glassPoints), glassPoints, "shares"),
			Ours: fmt.Sprintf("%d of %d points", glassWins, glassPoints), Verdict: shareVerdict(glassWins, glassPoints)}
		claims = append(claims, c)
		fmt.Fprintf(&b, "- \"On glass it beats the baseline\": higher mean NMI at %d of %d points: %s.\n", glassWins, glassPoints, verdictMark(c.Verdict))
	}
	for _, ds := range s.datasets {
		for _, noise := range s.noises(ds) {
			if noise.share == 0 {
				continue
			}
			better, total := 0, 0
			for _, pct := range s.pcts {
				l1, nl := get(ds, "l1csc", noise, pct)
				cs, nc := get(ds, "csp", noise, pct)
				if nl > 0 && nc > 0 {
					total++
					if l1.nmi > cs.nmi {
						better++
					}
				}
			}
			switch {
			case total > 0 && noise.labels:
				c := Claim{Source: "seed 001 §5.1.2, Fig. 2", Quote: "our approach is more robust to noisy constraints as compared to the baseline method for the Wine dataset",
					Rule: fmt.Sprintf("on %s with %g%% of the known labels flipped, L1-CSC's mean NMI is above CSP's at every share of known labels: %s", ds, 100*noise.share, quantBands(allOf(total), total, "shares")),
					Ours: fmt.Sprintf("%d of %d points", better, total), Verdict: shareVerdict(better, total)}
				claims = append(claims, c)
				fmt.Fprintf(&b, "- Fig. 2, %s with %g%% of the known labels flipped: L1-CSC's mean NMI above CSP's at %d of %d points: %s.\n", ds, 100*noise.share, better, total, verdictMark(c.Verdict))
			case total > 0:
				fmt.Fprintf(&b, "- %s with %g%% of the pairs flipped (not the paper's protocol; no claim): L1-CSC's mean NMI above CSP's at %d of %d points.\n", ds, 100*noise.share, better, total)
			}
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(&b, "\nNot run (not found under %s): %s; diabetes is not in the shared datasets.\n", env.DataRoot, strings.Join(missing, ", "))
	}
	b.WriteString("\n")
	var buf bytes.Buffer
	if err := csv.NewWriter(&buf).WriteAll(rows); err != nil {
		return nil, err
	}
	out := &Output{Files: map[string][]byte{"seed001-fig2-3.csv": buf.Bytes()}, Claims: claims}
	if env.OutDir != "" && len(charts) > 0 {
		png, err := lineChartsPNG(9*vg.Centimeter, 7*vg.Centimeter, charts)
		if err != nil {
			return nil, err
		}
		addFigure(out, "seed001-fig2-3.png", png)
		b.WriteString("![NMI against the share of known labels](seed001-fig2-3.png)\n")
	}
	out.Markdown = b.String()
	out.Files["README.md"] = []byte(out.Markdown)
	return out, nil
}
