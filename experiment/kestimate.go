package experiment

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
)

// The k-estimation study (issue 19, beyond the sources): the number of
// negative eigenvalues of the Bethe Hessian H(r) as an estimate of k
// (Saade, Krzakala & Zdeborová 2014; seed 004 §3.2), with the old rule
// r = √c and the non-backtracking rule r = √(Σd²/Σd − 1) (Le & Levina
// 2015; Dall'Amico, Couillet & Tremblay 2019), on degree-corrected block
// models across a grid of (k, mean degree, degree heterogeneity) and on
// the labelled networks of ../shared/datasets.

// kestGrid is the DC-SBM grid of one mode.
type kestGrid struct {
	n      int
	reps   int
	ks     []int
	cs     []float64 // mean degrees
	gammas []float64 // power-law exponents (0: plain SBM)
	eps    float64   // c_out/c_in
}

func kestGridFor(quick bool) kestGrid {
	if quick {
		return kestGrid{n: 600, reps: 1, ks: []int{2, 4}, cs: []float64{5, 10}, gammas: []float64{0, 2.5}, eps: 0.1}
	}
	return kestGrid{n: 3000, reps: 5, ks: []int{2, 3, 5, 8}, cs: []float64{3, 5, 10, 20}, gammas: []float64{0, 3, 2.5, 2.2}, eps: 0.1}
}

// kestBlocks returns c_in and c_out of mean degree c with c_out = eps·c_in:
// c = (c_in + (k−1)c_out)/k.
func kestBlocks(k int, c, eps float64) (cin, cout float64) {
	cin = float64(k) * c / (1 + float64(k-1)*eps)
	return cin, eps * cin
}

// kestAbove reports whether the plain SBM of these parameters is above the
// Kesten–Stigum threshold c_in − c_out > k√c; degree correction only lowers
// the threshold (by the factor √⟨θ²⟩, Gulikers, Lelarge & Massoulié 2017),
// so the DC-SBM cells with the same (k, c) are above it too.
func kestAbove(k int, c, eps float64) bool {
	cin, cout := kestBlocks(k, c, eps)
	return cin-cout > float64(k)*math.Sqrt(c)
}

// kestNetworks are the labelled networks: karate, wiki and the four WebKB
// citation graphs.
var kestNetworks = []string{"karate", "wiki", "webkb-cornell", "webkb-texas", "webkb-washington", "webkb-wisconsin"}

// kestRules are the two rules compared, in column order.
var kestRules = []struct {
	key  string
	rule cluster.BetheRule
}{{"mean", cluster.BetheRuleMean}, {"nb", cluster.BetheRuleNB}}

// KEstimate is the k-estimation experiment (issue 19).
func KEstimate() Experiment {
	return Experiment{
		Name:   "kestimate",
		Title:  "Bethe Hessian estimate of k on DC-SBM graphs and real networks: r = √c against r = √(Σd²/Σd − 1)",
		Source: "issue 19; Saade, Krzakala & Zdeborová 2014 (seed 004 §3.2); Le & Levina 2015; Dall'Amico, Couillet & Tremblay 2019",
		Cells:  kestCells,
		Report: kestReport,
	}
}

// kestEstimate returns the Bethe Hessian estimate of k on g with each rule.
func kestEstimate(ctx context.Context, g *graph.Graph, v Values, seed uint64) error {
	for _, r := range kestRules {
		res, err := cluster.Run(ctx, cluster.BetheHessian{Rule: r.rule}, &cluster.Problem{Graph: g}, &cluster.Settings{Seed: seed, Restarts: 1})
		if err != nil {
			return fmt.Errorf("bethe rule %s: %w", r.key, err)
		}
		v[r.key] = float64(res.K)
		v["r_"+r.key] = r.rule.R(g)
	}
	st := g.Stats()
	v["cv"] = graph.DegreeCV(g)
	v["meandeg"] = st.MeanDegree
	v["components"] = float64(st.Components)
	return nil
}

func kestCells(env *Env) ([]Cell, error) {
	gr := kestGridFor(env.Quick)
	var cells []Cell
	for _, gamma := range gr.gammas {
		for _, k := range gr.ks {
			for _, c := range gr.cs {
				for rep := 0; rep < gr.reps; rep++ {
					key := kestKey(gr.n, k, c, gamma, rep)
					cells = append(cells, Cell{Key: key, Run: func(ctx context.Context) (Values, error) {
						cin, cout := kestBlocks(k, c, gr.eps)
						src := rand.NewPCG(env.Seed, seedStream("kestimate", key))
						g, _, _, err := synth.DCSBMContext(ctx, gr.n, k, cin, cout, gamma, src)
						if err != nil {
							return nil, err
						}
						v := Values{}
						if err := kestEstimate(ctx, g, v, env.Seed); err != nil {
							return nil, err
						}
						return v, nil
					}})
				}
			}
		}
	}
	for _, name := range kestNetworks {
		if (env.Quick && name == "wiki") || !fgpwcAvailable(fgpwcRow{name: name}, env.DataRoot) {
			continue // wiki takes seconds; absent datasets are reported as not run
		}
		name := name
		cells = append(cells, Cell{Key: "net/" + name, Data: []string{name}, Run: func(ctx context.Context) (Values, error) {
			d, err := loadCatalog(ctx, name, env.DataRoot, nil)
			if err != nil {
				return nil, err
			}
			v := Values{"classes": float64(d.K()), "homophily": edgeHomophily(d.Graph.G, d.Labels)}
			if err := kestEstimate(ctx, d.Graph.G, v, env.Seed); err != nil {
				return nil, err
			}
			return v, nil
		}})
	}
	return cells, nil
}

func kestKey(n, k int, c, gamma float64, rep int) string {
	return fmt.Sprintf("dcsbm/n=%d/k=%d/c=%g/gamma=%g/rep=%d", n, k, c, gamma, rep)
}

// kestTally counts hits per rule over a set of DC-SBM cells.
type kestTally struct {
	hits  [2]int
	cells int
}

func (t *kestTally) add(v Values, k int) {
	t.cells++
	for i, r := range kestRules {
		if int(v[r.key]) == k {
			t.hits[i]++
		}
	}
}

func (t kestTally) rate(i int) float64 {
	if t.cells == 0 {
		return math.NaN()
	}
	return float64(t.hits[i]) / float64(t.cells)
}

func kestReport(env *Env, results map[string]Values) (*Output, error) {
	gr := kestGridFor(env.Quick)
	var b strings.Builder
	var rows [][]string
	rows = append(rows, []string{"n", "k", "c", "gamma", "c_in", "c_out", "above_threshold", "degree_cv", "mean_degree", "hits_mean", "hits_nb", "reps", "estimates_mean", "estimates_nb"})
	fmt.Fprintf(&b, "# Estimating k with the Bethe Hessian\n\n")
	fmt.Fprintf(&b, "Issue 19 found the Bethe Hessian's estimate of k (the number of negative eigenvalues of H(r), Saade, Krzakala & Zdeborová 2014, seed 004 §3.2) wrong on every real network tried. This page measures it on degree-corrected block models (`tether gen dcsbm`: Karrer–Newman Poisson form, power-law propensities θ of exponent γ, γ = 0 a plain SBM) and on the labelled networks of ../shared/datasets, with two rules for r:\n\n")
	fmt.Fprintf(&b, "- **mean** (before; still the default of `-method bethe`): r = √c, c the mean degree (seed 004 §3.2, optimal for the SBM);\n")
	fmt.Fprintf(&b, "- **nb** (`-set Rule=nb`): r = √ρ̂, ρ̂ = Σd²/Σd − 1, the spectral radius of the non-backtracking matrix of a configuration model or DC-SBM (Saade et al. 2014; Le & Levina 2015's BHm; Dall'Amico, Couillet & Tremblay 2019). On an SBM ρ̂ ≈ c.\n\n")
	fmt.Fprintf(&b, "Graphs: n = %d nodes, k equal blocks, c_out = %g·c_in, mean degree c = (c_in + (k−1)c_out)/k before the Poisson multigraph is made simple (hubs saturate, so the measured mean degree is lower for small γ), %d graph(s) per cell, seeded. A hit is an estimate equal to k. \"Above\" marks the cells whose plain SBM is above the Kesten–Stigum threshold c_in − c_out > k√c, where the estimate can be expected to work (degree correction only lowers the threshold, Gulikers, Lelarge & Massoulié 2017).\n\n", gr.n, gr.eps, gr.reps)
	fmt.Fprintf(&b, "| γ | k | c | above | degree CV | hits r = √c | hits r = √ρ̂ | estimates r = √c | estimates r = √ρ̂ |\n|---|---|---|---|---|---|---|---|---|\n")
	var all, above, aboveHet, aboveHom kestTally
	for _, gamma := range gr.gammas {
		for _, k := range gr.ks {
			for _, c := range gr.cs {
				var t kestTally
				var cv, md float64
				est := [2][]string{}
				for rep := 0; rep < gr.reps; rep++ {
					v, ok := results[kestKey(gr.n, k, c, gamma, rep)]
					if !ok {
						continue
					}
					t.add(v, k)
					all.add(v, k)
					ab := kestAbove(k, c, gr.eps)
					if ab {
						above.add(v, k)
						if gamma > 0 {
							aboveHet.add(v, k)
						} else {
							aboveHom.add(v, k)
						}
					}
					cv += v["cv"]
					md += v["meandeg"]
					for i, r := range kestRules {
						est[i] = append(est[i], strconv.Itoa(int(v[r.key])))
					}
				}
				if t.cells == 0 {
					continue
				}
				cv /= float64(t.cells)
				md /= float64(t.cells)
				ab := kestAbove(k, c, gr.eps)
				cin, cout := kestBlocks(k, c, gr.eps)
				fmt.Fprintf(&b, "| %g | %d | %g | %s | %.2f | %d/%d | %d/%d | %s | %s |\n", gamma, k, c, yesNo(ab), cv, t.hits[0], t.cells, t.hits[1], t.cells, strings.Join(est[0], " "), strings.Join(est[1], " "))
				rows = append(rows, []string{strconv.Itoa(gr.n), strconv.Itoa(k), f4(c), f4(gamma), f4(cin), f4(cout), strconv.FormatBool(ab), f4(cv), f4(md), strconv.Itoa(t.hits[0]), strconv.Itoa(t.hits[1]), strconv.Itoa(t.cells), strings.Join(est[0], " "), strings.Join(est[1], " ")})
			}
		}
	}
	fmt.Fprintf(&b, "\n**Hit rates.** All cells: r = √c %s, r = √ρ̂ %s. Above the threshold: r = √c %s, r = √ρ̂ %s; of these, with degree correction (γ > 0): r = √c %s, r = √ρ̂ %s; plain SBM: r = √c %s, r = √ρ̂ %s.\n\n",
		pct(all, 0), pct(all, 1), pct(above, 0), pct(above, 1), pct(aboveHet, 0), pct(aboveHet, 1), pct(aboveHom, 0), pct(aboveHom, 1))

	// Real networks.
	fmt.Fprintf(&b, "## Real networks\n\nEdge homophily is the share of edges whose ends have the same class (1: every edge inside a class).\n\n| network | classes | edge homophily | degree CV | components | r = √c | k̂ | r = √ρ̂ | k̂ |\n|---|---|---|---|---|---|---|---|---|\n")
	var netRows [][]string
	netRows = append(netRows, []string{"network", "classes", "edge_homophily", "degree_cv", "components", "r_mean", "k_mean", "r_nb", "k_nb"})
	netHits := [2]int{}
	nets := 0
	var netOurs []string
	for _, name := range kestNetworks {
		v, ok := results["net/"+name]
		if !ok {
			fmt.Fprintf(&b, "| %s | – | – | – | – | – | not run | – | not run |\n", name)
			continue
		}
		nets++
		cl := int(v["classes"])
		for i, r := range kestRules {
			if int(v[r.key]) == cl {
				netHits[i]++
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %.2f | %.2f | %d | %.3f | %d | %.3f | %d |\n", name, cl, v["homophily"], v["cv"], int(v["components"]), v["r_mean"], int(v["mean"]), v["r_nb"], int(v["nb"]))
		netRows = append(netRows, []string{name, strconv.Itoa(cl), f4(v["homophily"]), f4(v["cv"]), strconv.Itoa(int(v["components"])), f4(v["r_mean"]), strconv.Itoa(int(v["mean"])), f4(v["r_nb"]), strconv.Itoa(int(v["nb"]))})
		netOurs = append(netOurs, fmt.Sprintf("%s %d classes: %d (√c), %d (√ρ̂)", name, cl, int(v["mean"]), int(v["nb"])))
	}
	if nets > 0 {
		var closerNB, closerMean []string
		hmin, hmax := math.Inf(1), math.Inf(-1)
		for _, name := range kestNetworks {
			v, ok := results["net/"+name]
			if !ok {
				continue
			}
			cl := v["classes"]
			dm, dn := math.Abs(v["mean"]-cl), math.Abs(v["nb"]-cl)
			switch {
			case dn < dm:
				closerNB = append(closerNB, name)
			case dm < dn:
				closerMean = append(closerMean, name)
			}
			if strings.HasPrefix(name, "webkb-") {
				hmin, hmax = math.Min(hmin, v["homophily"]), math.Max(hmax, v["homophily"])
			}
		}
		fmt.Fprintf(&b, "\nHits: r = √c %d of %d networks, r = √ρ̂ %d of %d. Closer to the class count with r = √ρ̂: %s; with r = √c: %s.", netHits[0], nets, netHits[1], nets, orNone(closerNB), orNone(closerMean))
		if !math.IsInf(hmin, 0) {
			fmt.Fprintf(&b, " The WebKB citation graphs have edge homophily %.2f–%.2f: most links join pages of different classes, which are therefore not link communities (students' pages cite course and faculty pages), so no count of communities can be expected to find 5 there, and the hubs of these graphs make ρ̂ large.", hmin, hmax)
		}
		b.WriteString(" A class count is a property of the labels, not of the graph: these misses say as much about the labels as about the estimator.\n\n")
	}

	// Claims.
	var claims []Claim
	rate := func(t kestTally, i int) string {
		return fmt.Sprintf("%d/%d (%.0f%%)", t.hits[i], t.cells, 100*t.rate(i))
	}
	// A hit rate counts cases (one graph per cell): quantVerdict by the
	// ledger's rule, held from 90% of the cells.
	hitClaim := func(source, quote, rule string, t kestTally, i int) Claim {
		c := Claim{Source: source, Quote: quote,
			Rule: rule + ": " + quantBands(percentOf(90, t.cells), t.cells, "cells") +
				". Until the ledger's rule was made one (review of the claims ledger), a rate below 90% was not held",
			Ours: rate(t, i), Verdict: quantVerdict(t.hits[i], t.cells, percentOf(90, t.cells))}
		if c.Verdict == NotTestable {
			c.Reason = "no cell of this kind ran"
		}
		return c
	}
	claims = append(claims, hitClaim("Saade, Krzakala & Zdeborová 2014; seed 004 §3.2",
		"the number of negative eigenvalues of the Bethe Hessian H(√c) estimates the number of groups (above the detectability threshold, SBM)",
		"hit rate ≥ 90% over the plain-SBM cells (γ = 0) above the threshold, r = √c", aboveHom, 0))
	claims = append(claims, hitClaim("Le & Levina 2015; Dall'Amico, Couillet & Tremblay 2019",
		"with r = √ρ(B), estimated by Σd²/Σd − 1, the count of negative eigenvalues estimates k on degree-corrected block models (paraphrase)",
		"hit rate ≥ 90% over the DC-SBM cells (γ > 0) above the threshold, r = √ρ̂", aboveHet, 1))
	claims = append(claims, kestClaim("issue 19",
		"a k estimate that survives degree heterogeneity (target: better than the old rule on DC-SBM graphs)",
		"on the DC-SBM cells (γ > 0) above the threshold, r = √ρ̂ hits strictly more often than r = √c",
		fmt.Sprintf("√ρ̂ %s against √c %s", rate(aboveHet, 1), rate(aboveHet, 0)), aboveHet.cells > 0, aboveHet.hits[1] > aboveHet.hits[0]))
	netClaim := Claim{Source: "issue 19",
		Quote: "the estimate was wrong on every network tried; measure it on the real networks and report hits and misses",
		Rule: "r = √ρ̂ finds the class count on at least half of the labelled networks: " + quantBands(halfOf(nets), nets, "networks") + ". " +
			"Until review 53 the code gave partly held to a hit on fewer than half but at least one, a band the rule did not state, and review 53 removed it; " +
			"the ledger's rule (review of the claims ledger) states its band: partly held on at least half of what the claim needs",
		Ours: strings.Join(netOurs, "; "), Verdict: quantVerdict(netHits[1], nets, halfOf(nets))}
	if netClaim.Verdict != NotTestable {
		netClaim.Reason = fmt.Sprintf("%d of %d networks", netHits[1], nets)
	} else {
		netClaim.Reason = "no cell of this kind ran"
	}
	claims = append(claims, netClaim)
	return &Output{
		Markdown: b.String(),
		Files:    map[string][]byte{"kestimate.csv": csvBytes(rows), "kestimate-networks.csv": csvBytes(netRows)},
		Claims:   claims,
	}, nil
}

// kestClaim builds a claim whose verdict is ok's, NotTestable without data.
func kestClaim(source, quote, rule, ours string, testable, ok bool) Claim {
	c := Claim{Source: source, Quote: quote, Rule: rule, Ours: ours, Verdict: NotHeld}
	switch {
	case !testable:
		c.Verdict, c.Reason = NotTestable, "no cell of this kind ran"
	case ok:
		c.Verdict = Held
	}
	return c
}

func pct(t kestTally, i int) string {
	if t.cells == 0 {
		return "–"
	}
	return fmt.Sprintf("%d/%d (%.0f%%)", t.hits[i], t.cells, 100*t.rate(i))
}

// csvBytes writes rows as CSV.
func csvBytes(rows [][]string) []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.WriteAll(rows)
	return buf.Bytes()
}

// edgeHomophily returns the share of the edges {i, j}, i ≠ j, of g whose
// ends have the same label (unweighted count), NaN without such edges.
// Cost O(nnz).
func edgeHomophily(g *graph.Graph, labels []int) float64 {
	var same, all float64
	for _, e := range g.Edges() {
		if e.I == e.J {
			continue
		}
		all++
		if labels[e.I] == labels[e.J] {
			same++
		}
	}
	if all == 0 {
		return math.NaN()
	}
	return same / all
}
