package experiment

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// t42Methods are the columns of thesis Table 4.2.
var t42Methods = []ssMethod{
	{"sl", "SPECTRAL LEARNING"}, {"mcl-noa-ssc", "MCL-NOA-SSC"},
}

// t42Version is part of every cell key: change it when a cell's definition
// changes. t42EdgesVersion keys the cells of the second reading of "1%"
// (1% of the graph's edges).
const (
	t42Version      = "v1"
	t42EdgesVersion = "v1e"
)

// t42Reading is one reading of the thesis's "1% of the pairwise
// constraints" (§4.1.3 text) / "1% of the edges" (Table 4.2 caption).
type t42Reading struct {
	version, name string
	edges         bool // 1% of the graph's edges instead of 1% of all pairs
}

var t42Readings = []t42Reading{
	{t42Version, "1% of all pairs", false},
	{t42EdgesVersion, "1% of the graph's edges", true},
}

func table42Cells(env *Env, cache *ssCache) ([]Cell, error) {
	var cells []Cell
	for _, rd := range t42Readings {
		cells = append(cells, ssCells(env, rd.version, t42Methods, func(ctx context.Context, d ssDataset, method string, rep int) (Values, error) {
			return table42Cell(ctx, env, cache, d, method, rep, rd.edges)
		})...)
	}
	return cells, nil
}

// edgeFractionPairs draws round(f·|E|) distinct edges of g uniformly without
// replacement (a partial Fisher–Yates shuffle of the edge list, self loops
// excluded) and labels each with the oracle truth: must-link when both
// nodes share a class, cannot-link otherwise. This is the reading "1% of
// the edges" of thesis Table 4.2's caption. Pairs come in edge-list order.
// Cost: O(|E|) time and memory.
func edgeFractionPairs(g *graph.Graph, truth []int, f float64, src rand.Source) (*constraint.Set, error) {
	if len(truth) != g.N() {
		return nil, fmt.Errorf("edge pairs: %d labels for %d nodes", len(truth), g.N())
	}
	if !(f >= 0 && f <= 1) {
		return nil, fmt.Errorf("edge pairs: fraction %v outside [0, 1]", f)
	}
	var edges []graph.Edge
	for _, e := range g.Edges() {
		if e.I != e.J {
			edges = append(edges, e)
		}
	}
	m := int(math.Round(f * float64(len(edges))))
	rng := rand.New(src)
	for i := 0; i < m; i++ {
		j := i + rng.IntN(len(edges)-i)
		edges[i], edges[j] = edges[j], edges[i]
	}
	chosen := edges[:m]
	sort.Slice(chosen, func(a, b int) bool {
		if chosen[a].I != chosen[b].I {
			return chosen[a].I < chosen[b].I
		}
		return chosen[a].J < chosen[b].J
	})
	set := &constraint.Set{N: g.N(), Pairs: make([]constraint.Pair, m)}
	for k, e := range chosen {
		kind := constraint.CannotLink
		if truth[e.I] == truth[e.J] {
			kind = constraint.MustLink
		}
		set.Pairs[k] = constraint.Pair{I: e.I, J: e.J, Kind: kind}
	}
	return set, nil
}

// table42Cell runs one method on 1% of all pairs (or, with edges, 1% of the
// graph's edges) drawn uniformly without replacement and labelled by the
// ground truth (seed 000 §4.1.3; the same pairs for both methods in a
// repetition).
func table42Cell(ctx context.Context, env *Env, cache *ssCache, d ssDataset, method string, rep int, edges bool) (Values, error) {
	sg, err := cache.get(ctx, env, d)
	if err != nil {
		return nil, err
	}
	src := rand.NewPCG(env.Seed, seedStream(d.name)^0x42+uint64(rep)*7919)
	var set *constraint.Set
	if edges {
		set, err = edgeFractionPairs(sg.g, sg.truth, 0.01, src)
	} else {
		set, err = constraint.FractionPairsContext(ctx, sg.truth, 0.01, src)
	}
	if err != nil {
		return nil, err
	}
	var m cluster.Method
	switch method {
	case "sl":
		m = cluster.SpectralLearning{}
	case "mcl-noa-ssc":
		// The thesis's algorithm (Alg. 9) as published (NoResolve; the
		// constraints come from the ground truth and are consistent, so
		// the default resolve of issue 17 would not act on them either).
		m = cluster.MCLNOASSC{NoResolve: true}
	default:
		return nil, fmt.Errorf("unknown method %q", method)
	}
	p := &cluster.Problem{Graph: sg.g, K: sg.k, Constraints: set, Regularize: publishedLaplacian, Disconnected: publishedDisconnected}
	t0 := time.Now()
	res, err := cluster.Run(ctx, m, p, &cluster.Settings{Seed: env.Seed*1000 + uint64(rep)})
	if err != nil {
		return nil, err
	}
	v := Values{"seconds": time.Since(t0).Seconds(), "pairs": float64(len(set.Pairs))}
	if v["ari"], err = metrics.ARI(sg.truth, res.Labels); err != nil {
		return nil, err
	}
	ml, cl := constraint.Violations(set, res.Labels)
	v["violations"] = float64(ml + cl)
	return v, nil
}

// t42Row is one dataset's mean ARI per method under one reading.
type t42Row struct {
	d     ssDataset
	means [2]float64
	ok    bool // both methods have cells
}

// table42Section writes the table of one reading of "1%" into md and its
// CSV rows into csv, and returns the per-dataset means.
func table42Section(md, csv *bytes.Buffer, results map[string]Values, run, missing []ssDataset, reps int, rd t42Reading) []t42Row {
	fmt.Fprintf(md, "| dataset | k | pairs | SL ours | viol. | thesis | MCL-NOA-SSC ours | viol. | thesis |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	fmt.Fprintf(csv, "# tether repro table4.2 (%s)\ndataset,k,method,reps,pairs_mean,ari_mean,ari_sd,violations_mean,thesis_mean,thesis_sd,seconds_mean\n", rd.name)
	if !rd.edges {
		// The first reading's CSV keeps the header it always had.
		csv.Reset()
		fmt.Fprintf(csv, "# tether repro table4.2\ndataset,k,method,reps,pairs_mean,ari_mean,ari_sd,violations_mean,thesis_mean,thesis_sd,seconds_mean\n")
	}
	better, tied, compared, thesisBetter, thesisTied := 0, 0, 0, 0, 0
	var rows []t42Row
	for _, d := range run {
		pairs, _ := meanStdDev(ssCollect(results, fmt.Sprintf("%s/%s/%s", rd.version, d.name, t42Methods[0].key), "pairs", reps))
		fmt.Fprintf(md, "| %s | %d | %.0f |", d.name, d.k, pairs)
		row := t42Row{d: d, ok: true}
		for j, m := range t42Methods {
			prefix := fmt.Sprintf("%s/%s/%s", rd.version, d.name, m.key)
			ari := ssCollect(results, prefix, "ari", reps)
			viol, _ := meanStdDev(ssCollect(results, prefix, "violations", reps))
			secs, _ := meanStdDev(ssCollect(results, prefix, "seconds", reps))
			pm, _ := meanStdDev(ssCollect(results, prefix, "pairs", reps))
			mean, sd := meanStdDev(ari)
			row.means[j] = mean
			if len(ari) == 0 {
				row.ok = false
				fmt.Fprintf(md, " — | — | %.2f ± %.2f |", d.t42[j].mean, d.t42[j].sd)
			} else {
				fmt.Fprintf(md, " %s | %.1f | %.2f ± %.2f |", ssFmt(ari), viol, d.t42[j].mean, d.t42[j].sd)
			}
			fmt.Fprintf(csv, "%s,%d,%s,%d,%.1f,%.4f,%.4f,%.2f,%.2f,%.2f,%.4f\n", d.name, d.k, m.key, len(ari), pm, mean, sd, viol, d.t42[j].mean, d.t42[j].sd, secs)
		}
		md.WriteString("\n")
		if row.ok {
			compared++
			switch {
			case row.means[1] > row.means[0]+t42Tie:
				better++
			case row.means[1] >= row.means[0]-t42Tie:
				tied++
			}
			switch {
			case d.t42[1].mean > d.t42[0].mean:
				thesisBetter++
			case d.t42[1].mean == d.t42[0].mean:
				thesisTied++
			}
		}
		rows = append(rows, row)
	}
	for _, d := range missing {
		fmt.Fprintf(md, "| %s | %d | — | — | — | %.2f ± %.2f | — | — | %.2f ± %.2f |\n", d.name, d.k, d.t42[0].mean, d.t42[0].sd, d.t42[1].mean, d.t42[1].sd)
	}
	fmt.Fprintf(md, "\nMCL-NOA-SSC's mean ARI is above Spectral Learning's by more than %.3f on %d of %d datasets here, within ±%.3f on %d and below on %d; in the thesis it is higher on %d of them and equal (to the published two decimals) on %d.",
		t42Tie, better, compared, t42Tie, tied, compared-better-tied, thesisBetter, thesisTied)
	var dist [2][]float64
	for _, r := range rows {
		if r.ok {
			for j := range t42Methods {
				dist[j] = append(dist[j], math.Abs(r.means[j]-r.d.t42[j].mean))
			}
		}
	}
	if len(dist[0]) > 0 {
		d0, _ := meanStdDev(dist[0])
		d1, _ := meanStdDev(dist[1])
		fmt.Fprintf(md, " Mean |ours − thesis| over the %d datasets: SL %.3f, MCL-NOA-SSC %.3f.", len(dist[0]), d0, d1)
	}
	md.WriteString("\n")
	return rows
}

func table42Report(env *Env, cache *ssCache, results map[string]Values) (*Output, error) {
	run, missing := ssSelected(env)
	reps := ssReps(env)
	var md bytes.Buffer
	fmt.Fprintf(&md, "# Thesis Table 4.2: pairwise constraints, Spectral Learning vs MCL-NOA-SSC (seed 000 §4.1.3)\n\n")
	fmt.Fprintf(&md, "Regenerate with `tether repro table4.2` (quick version: `tether repro -quick table4.2`).\n\n")
	fmt.Fprintf(&md, "ARI (mean ± sample standard deviation over %d repetitions) of Spectral Learning (Kamvar et al., thesis §4.1.1) and MCL-NOA-SSC (thesis Alg. 9: must-link closure, normalized cut of the group graph with cannot-linked groups disconnected, then NOA-SSC with γ = 1.25), given 1%% of the pairs drawn uniformly without replacement, each a must-link when the ground truth puts both nodes in one class and a cannot-link otherwise (the same pairs for both methods in a repetition). \"viol.\" is the mean number of constraints the partition violates, \"pairs\" the number of constraints. \"thesis\" is copied from thesis Table 4.2. k-means: thesis Alg. 4, 10 restarts.\n\n", reps)
	fmt.Fprintf(&md, "**Two readings of \"1%%\".** The thesis's text says \"We obtain 1%% of the pairwise constraints from an oracle uniformly at random\" while the table's caption says \"Pairwise constraints represent 1%% of the edges, selected uniformly at random\". The first table takes 1%% of all n(n−1)/2 pairs of nodes (SPEC §5). With that many pairs the must-link closure alone nearly recovers the classes on the larger sets (the Erdős–Rényi threshold of thesis §4.1.3), which the thesis's much lower figures suggest it did not have. The second table takes the caption's reading: 1%% of the edges of the graph below (each edge an unordered pair i < j, drawn uniformly without replacement, then labelled by the oracle), one constraint per 100 edges, far fewer than the first reading on every set (the \"pairs\" columns give both counts). Neither reading matches the thesis's figures everywhere; the claims above are checked under both.\n\n")
	fmt.Fprintf(&md, "%s\n\n", ssGraphNote)
	out := &Output{Files: map[string][]byte{}}
	var sections [2][]t42Row
	for i, rd := range t42Readings {
		var csv bytes.Buffer
		fmt.Fprintf(&md, "## Reading %d: %s\n\n", i+1, rd.name)
		sections[i] = table42Section(&md, &csv, results, run, missing, reps, rd)
		md.WriteString("\n")
		name := "table4.2.csv"
		if rd.edges {
			name = "table4.2-edges.csv"
		}
		out.Files[name] = csv.Bytes()
	}
	var details []string
	for _, d := range run {
		if sg, err := cache.get(context.Background(), env, d); err == nil {
			details = append(details, fmt.Sprintf("- %s: %s", d.name, sg.detail))
		}
	}
	ssFooter(&md, env, missing, details)
	out.Markdown = md.String()
	for i, rd := range t42Readings {
		out.Claims = append(out.Claims, table42Claims(sections[i], rd)...)
	}
	return out, nil
}

// t42Tie is the margin within which two mean ARIs of Table 4.2 count as a
// tie: "better" needs more.
const t42Tie = 0.005

// table42Claims checks the statements of thesis §4.1.3 on Table 4.2 under
// one reading of "1%".
func table42Claims(rows []t42Row, rd t42Reading) []Claim {
	src := "thesis (seed 000) §4.1.3, Table 4.2 (" + rd.name + ")"
	ok, total := 0, 0
	var gap2, gapK []float64
	var tied, lost []string
	for _, r := range rows {
		if !r.ok {
			continue
		}
		total++
		switch {
		case r.means[1] > r.means[0]+t42Tie:
			ok++
		case r.means[1] >= r.means[0]-t42Tie:
			tied = append(tied, fmt.Sprintf("%s %.3f vs %.3f", r.d.name, r.means[1], r.means[0]))
		default:
			lost = append(lost, fmt.Sprintf("%s %.2f vs %.2f", r.d.name, r.means[1], r.means[0]))
		}
		if r.d.k == 2 {
			gap2 = append(gap2, r.means[1]-r.means[0])
		} else {
			gapK = append(gapK, r.means[1]-r.means[0])
		}
	}
	ours := fmt.Sprintf("MCL-NOA-SSC above SL (by more than %.3f) on %d of %d datasets", t42Tie, ok, total)
	if len(tied) > 0 {
		ours += fmt.Sprintf("; within ±%.3f on %s", t42Tie, strings.Join(tied, ", "))
	}
	if len(lost) > 0 {
		ours += "; below on " + strings.Join(lost, ", ")
	}
	claims := []Claim{{Source: src,
		Quote: "Spectral learning algorithm does not really take advantage of semi-supervision when there are only few constraints. By contrast, MCL-NOA-SSC achieves better results",
		Rule: "MCL-NOA-SSC's mean ARI > SL's + 0.005 (a strict win; a tie within ±0.005 does not count) on at least 2/3 of the datasets: " + quantBands(twoThirdsOf(total), total, "datasets") + ". " +
			"This rule was written after the cells existed (commit f4534a2, with table4.2.csv already computed; the edges reading's cells were computed in the same commit), " +
			"and on review 53 it was tightened from \"≥ SL's − 0.005\", which counted ties as support for \"better\"; until the ledger's rule was made one (review of the claims ledger), below 1/2 was not held",
		Ours:    ours,
		Verdict: quantVerdict(ok, total, twoThirdsOf(total))}}
	m2, _ := meanStdDev(gap2)
	mk, _ := meanStdDev(gapK)
	c := Claim{Source: src,
		Quote: "MCL-NOA-SSC achieves better results, especially when the number of clusters increases",
		Rule:  "the mean ARI gain of MCL-NOA-SSC over SL is larger on the datasets with k > 2 than on those with k = 2",
		Ours:  fmt.Sprintf("mean gain %+.3f for k = 2 (%d datasets), %+.3f for k > 2 (%d datasets)", m2, len(gap2), mk, len(gapK)),
	}
	if len(gap2) == 0 || len(gapK) == 0 {
		c.Verdict, c.Reason = NotTestable, "needs datasets with k = 2 and k > 2"
	} else {
		c.Verdict = boolVerdict(mk > m2)
	}
	return append(claims, c)
}

// Table42 reproduces thesis Table 4.2.
func Table42() Experiment {
	cache := newSSCache()
	return Experiment{
		Name:   "table4.2",
		Title:  "pairwise constraints: Spectral Learning vs MCL-NOA-SSC with 1% of pairs",
		Source: "seed 000 Table 4.2 (§4.1.3)",
		Cells:  func(env *Env) ([]Cell, error) { return table42Cells(env, cache) },
		Report: func(env *Env, res map[string]Values) (*Output, error) { return table42Report(env, cache, res) },
	}
}
