package experiment

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/tether-sc/tether/dataset/catalog"
	"github.com/tether-sc/tether/graph"
)

// gsReading is one plausible reading of the graph the sources do not state.
type gsReading struct {
	key, title string
	// spec returns the graph of a dataset whose own graph is (or not) a
	// cosine one.
	spec func(cosine bool) graph.Spec
	// full readings build the dense n×n graph: datasets above gsMaxFull
	// nodes are skipped.
	full bool
}

// gsMaxFull is the largest dataset run on a full RBF graph: a dense graph
// of n² weights, 8 MB at n = 1000 (spam, 4601 nodes, would take 250 MB per
// graph and minutes per cell).
const gsMaxFull = 1000

// gsKNN is the symmetric k-NN graph with the row's weights: RBF under
// local scaling, or cosine similarity for the cosine rows.
func gsKNN(k int) func(bool) graph.Spec {
	return func(cosine bool) graph.Spec {
		s := graph.Spec{Kind: graph.SymmetricKNN, K: k, Affinity: graph.RBF, Sigma: graph.Sigma{Rule: graph.SigmaLocal}}
		if cosine {
			s.Affinity = graph.Cosine
		}
		return s
	}
}

// gsFull is the full RBF graph with σ by rule (cosine rows too: their
// one-hot or binary features are scaled like the others).
func gsFull(rule graph.SigmaRule) func(bool) graph.Spec {
	return func(bool) graph.Spec {
		return graph.Spec{Kind: graph.Full, Affinity: graph.RBF, Sigma: graph.Sigma{Rule: rule}}
	}
}

// gsReadings are the graphs compared: the symmetric k-NN graphs (k = 10 is
// the graph of Tables 3.1 and 4.2) and the full RBF graphs (local scaling is
// the graph of fgpwc-table1's RBF rows; σ² = the mean feature variance is
// what seed 002 §6.1 states; the median heuristic is the common default).
var gsReadings = []gsReading{
	{key: "knn5", title: "5-NN, local σ", spec: gsKNN(5)},
	{key: "knn10", title: "10-NN, local σ", spec: gsKNN(10)},
	{key: "knn20", title: "20-NN, local σ", spec: gsKNN(20)},
	{key: "knn50", title: "50-NN, local σ", spec: gsKNN(50)},
	{key: "full-local", title: "full RBF, local σ", spec: gsFull(graph.SigmaLocal), full: true},
	{key: "full-meanvar", title: "full RBF, σ² = mean feature variance", spec: gsFull(graph.SigmaMeanVariance), full: true},
	{key: "full-median", title: "full RBF, σ = median distance", spec: gsFull(graph.SigmaMedian), full: true},
}

// gsTable is one published table re-run under every reading.
type gsTable struct {
	key, title string
	// current is the reading the table's own page uses.
	current string
	methods []ssMethod
	// published returns the published mean ARI of method j on a dataset
	// (NaN when absent).
	published func(d string, j int) float64
}

// gsFGPWCSets and gsFGPWCMaxN bound the fgpwc-table1 part (budget): the
// first 3 constraint sets of the rows of at most 600 nodes.
const (
	gsFGPWCSets = 3
	gsFGPWCMaxN = 600
)

// gsFGPWCMethods are the fgpwc-table1 columns re-run: FGPWC with the paper's
// defaults and the peers with a published figure that beat it here.
var gsFGPWCMethods = []ssMethod{
	{"fgpwc", "FGPWC no tuning"}, {"sl", "SL"}, {"sscka", "SSC:KA"}, {"fast-ge", "FAST-GE"}, {"cscap", "CSCAP"},
}

// gsFGPWCRows returns the fgpwc-table1 rows of the study: feature data
// (no network) of at most gsFGPWCMaxN nodes, available under root.
func gsFGPWCRows(root string, quick bool) []fgpwcRow {
	var rows []fgpwcRow
	for _, r := range fgpwcRows {
		if r.skip != "" || r.sim == "Network" || fgpwcSize(r) > gsFGPWCMaxN || !fgpwcAvailable(r, root) {
			continue
		}
		if quick && r.name != "iris" && r.name != "wine" {
			continue
		}
		rows = append(rows, r)
	}
	return rows
}

func gsTables() []gsTable {
	ssPub := func(t int) func(string, int) float64 {
		return func(name string, j int) float64 {
			for _, d := range ssDatasets {
				if d.name == name {
					if t == 31 {
						return d.t31[j].mean
					}
					return d.t42[j].mean
				}
			}
			return math.NaN()
		}
	}
	return []gsTable{
		{key: "table3.1", title: "thesis Table 3.1 (10% labels)", current: "knn10", methods: t31Methods, published: ssPub(31)},
		{key: "table4.2", title: "thesis Table 4.2 (1% of all pairs)", current: "knn10", methods: t42Methods, published: ssPub(42)},
		{key: "fgpwc-table1", title: "seed 003 Table 1 / thesis Table 4.4 (pairs with probability 1/n)", current: "full-local", methods: gsFGPWCMethods,
			published: func(name string, j int) float64 {
				for _, r := range fgpwcRows {
					if r.name == name {
						if gsFGPWCMethods[j].key == "fgpwc" {
							return r.noTune[0]
						}
						return fgpwcPublished(r)[gsFGPWCMethods[j].key][0]
					}
				}
				return math.NaN()
			}},
	}
}

// GraphSensitivity returns the graph-sensitivity study: Tables 3.1 and 4.2
// and the fgpwc-table1 columns whose baselines beat the published figures,
// re-run on seven graphs with the tables' own protocols and seeds (each
// cell computed as in Table31, Table42 and fgpwc-table1): the symmetric
// 5-, 10-, 20- and 50-NN graphs with locally scaled RBF weights (cosine
// similarity for the cosine rows; k = 10 is the graph of Tables 3.1 and
// 4.2), and the full RBF graphs with σ by local scaling, σ² the mean
// feature variance, and σ the median distance. The report gives,
// per column and graph, the mean ARI and the mean |ours − published|, the
// graph that brings each column nearest the published values, and whether
// the published order of the columns (by mean ARI over the datasets) holds.
//
// Cost: the full RBF graphs are dense, n² weights (8 MB at n = 1000), fine
// for these sets; datasets above 1000 nodes are skipped on them.
func GraphSensitivity() Experiment {
	ss := map[string]*ssCache{}
	fl := map[string]*fgpwcLoader{}
	for _, rd := range gsReadings {
		// Cells run reading by reading, dataset by dataset: a few graphs
		// at a time are enough (the dense ones are 10 MB each).
		ss[rd.key] = &ssCache{spec: rd.spec, graphs: memo[string, *ssGraph]{keep: 4}}
	}
	loader := func(env *Env, rd gsReading) *fgpwcLoader {
		if fl[rd.key] == nil {
			fl[rd.key] = newFGPWCLoader(env.dataRoot(), env.Seed)
			fl[rd.key].spec = rd.spec
		}
		return fl[rd.key]
	}
	return Experiment{
		Name:   "graph-sensitivity",
		Title:  "Tables 3.1, 4.2 and 4.4 re-run on other plausible graphs: which graph brings each column nearest the published values",
		Source: "seed 000 Tables 3.1, 4.2, 4.4; seed 003 Table 1; graphs of seed 002 §6.1",
		Cells: func(env *Env) ([]Cell, error) {
			var cells []Cell
			run, _ := ssSelected(env)
			rows := gsFGPWCRows(env.dataRoot(), env.Quick)
			for _, rd := range gsReadings {
				cache, ld := ss[rd.key], loader(env, rd)
				for _, d := range run {
					if rd.full && gsSize(env, d) > gsMaxFull {
						continue
					}
					for rep := 0; rep < ssReps(env); rep++ {
						for _, m := range t31Methods {
							cells = append(cells, Cell{Key: fmt.Sprintf("%s/table3.1/%s/%s/rep%d", rd.key, d.name, m.key, rep), Data: d.data(),
								Run: func(ctx context.Context) (Values, error) { return table31Cell(ctx, env, cache, d, m.key, rep) }})
						}
						for _, m := range t42Methods {
							cells = append(cells, Cell{Key: fmt.Sprintf("%s/table4.2/%s/%s/rep%d", rd.key, d.name, m.key, rep), Data: d.data(),
								Run: func(ctx context.Context) (Values, error) {
									return table42Cell(ctx, env, cache, d, m.key, rep, false)
								}})
						}
					}
				}
				for _, r := range rows {
					for rep := 0; rep < gsSets(env); rep++ {
						for _, m := range gsFGPWCMethods {
							cells = append(cells, Cell{Key: fmt.Sprintf("%s/fgpwc-table1/%s/%s/rep%d", rd.key, r.name, m.key, rep), Data: r.data(),
								Run: func(ctx context.Context) (Values, error) { return fgpwcRun(ctx, ld, r, m.key, rep, env.Seed) }})
						}
					}
				}
			}
			return cells, nil
		},
		Report: func(env *Env, results map[string]Values) (*Output, error) { return gsReport(env, results) },
	}
}

// gsSize is the number of nodes of a dataset of Tables 3.1/4.2.
func gsSize(env *Env, d ssDataset) int {
	if strings.HasPrefix(d.source, "synth:") {
		return 900
	}
	if e, ok := catalog.Lookup(d.source); ok {
		return e.N
	}
	return 0
}

// gsSets is the number of constraint sets of the fgpwc-table1 part.
func gsSets(env *Env) int {
	if env.Quick {
		return 1
	}
	return gsFGPWCSets
}

// gsColumn is one column's figures under one reading, over the datasets
// every reading ran.
type gsColumn struct {
	mean, dist float64 // mean ARI; mean |ours − published|
	n          int
}

func gsReport(env *Env, results map[string]Values) (*Output, error) {
	var md, csv bytes.Buffer
	fmt.Fprintf(&md, "# Graph sensitivity: are the gaps to the published tables the graphs'?\n\n")
	fmt.Fprintf(&md, "Regenerate with `tether repro graph-sensitivity` (quick version: `tether repro -quick graph-sensitivity`).\n\n")
	fmt.Fprintf(&md, "The sources do not state their graphs (SPEC §1), and our baselines sit far above several published columns: SL in Table 4.2 and "+
		"seed 003 Table 1, label propagation in Table 3.1, FAST-GE, SSC:KA and CSCAP in Table 4.4. The pages put this down to the graphs. "+
		"Here the same protocols, seeds, constraint and label draws run on %d graphs: the symmetric k-NN graph for k = 5, 10, 20, 50 "+
		"(RBF weights under local scaling, σ_i = distance to the 7th neighbour; cosine similarity on the rows whose own graph is cosine: "+
		"the webkb sets, and hayes-roth, promoters and zoo in seed 003), and the full RBF graph with local scaling, with σ² = the mean "+
		"of the feature variances (what seed 002 §6.1 states) and with σ = the median pairwise distance. The full graphs are dense n×n "+
		"(%d MB of weights at n = 1000): fine for these sets, and datasets above %d nodes (spam) are skipped on them. "+
		"Tables 3.1 and 4.2 (10-NN: their pages' graph) use every dataset and %d repetitions; the seed 003 part (full RBF with local σ: "+
		"its page's graph) uses the rows of at most %d nodes that are feature data (no network) and the first %d constraint sets (budget).\n\n",
		len(gsReadings), 8, gsMaxFull, ssReps(env), gsFGPWCMaxN, gsSets(env))
	fmt.Fprintf(&md, "For each column: mean ARI over the datasets every graph ran, and mean |ours − published| (the distance to the published column). "+
		"\"nearest\" is the graph with the smallest distance. The published ranking is the order of the columns by their mean published ARI over the same datasets; "+
		"\"order kept\" says whether ours under a graph has the same order, and Kendall's τ between the two orders.\n\n")
	fmt.Fprintf(&csv, "# tether repro graph-sensitivity\ntable,graph,method,datasets,ari_mean,published_mean,mean_abs_diff\n")
	run, _ := ssSelected(env)
	rows := gsFGPWCRows(env.dataRoot(), env.Quick)
	for _, t := range gsTables() {
		// Datasets of the table and the result prefix of each.
		var names []string
		var fullOK []bool
		reps := ssReps(env)
		if t.key == "fgpwc-table1" {
			for _, r := range rows {
				names = append(names, r.name)
				fullOK = append(fullOK, true)
			}
			reps = gsSets(env)
		} else {
			for _, d := range run {
				names = append(names, d.name)
				fullOK = append(fullOK, gsSize(env, d) <= gsMaxFull)
			}
		}
		// The datasets every reading ran, for every method.
		var common []string
		for i, name := range names {
			ok := fullOK[i]
			for _, rd := range gsReadings {
				for _, m := range t.methods {
					if len(ssCollect(results, fmt.Sprintf("%s/%s/%s/%s", rd.key, t.key, name, m.key), "ari", reps)) == 0 {
						ok = false
					}
				}
			}
			if ok && !math.IsNaN(gsPublishedRow(t, name)) {
				common = append(common, name)
			}
		}
		// The (graph, dataset) pairs left out because some column has no
		// cell there (skipped or failed).
		var gaps []string
		for i, name := range names {
			for _, rd := range gsReadings {
				if rd.full && !fullOK[i] {
					continue
				}
				var miss []string
				for _, m := range t.methods {
					if len(ssCollect(results, fmt.Sprintf("%s/%s/%s/%s", rd.key, t.key, name, m.key), "ari", reps)) == 0 {
						miss = append(miss, m.title)
					}
				}
				if len(miss) > 0 {
					gaps = append(gaps, fmt.Sprintf("%s on %s (%s)", name, rd.title, strings.Join(miss, ", ")))
				}
			}
		}
		fmt.Fprintf(&md, "## %s\n\n", t.title)
		if len(gaps) > 0 {
			fmt.Fprintf(&md, "Left out of the comparison because a column has no result there (the run's log gives each error; on the webkb sets' "+
				"binary features σ² = mean feature variance is so small that every RBF weight underflows, and FAST-GE's dense solver can fail on the "+
				"mean-variance graphs): %s.\n\n", strings.Join(gaps, "; "))
		}
		if len(common) == 0 {
			fmt.Fprintf(&md, "No dataset ran under every graph.\n\n")
			continue
		}
		fmt.Fprintf(&md, "%d datasets: %s.", len(common), strings.Join(common, ", "))
		if t.key == "fgpwc-table1" {
			md.WriteString(" The page's graph is the full RBF graph with local σ on its RBF rows, but the cosine 10-NN graph on its cosine rows " +
				"(hayes-roth, promoters, the webkb sets, zoo), which is this study's 10-NN reading there; the full readings use RBF weights on every row.")
		}
		md.WriteString("\n\n")
		pubMean := make([]float64, len(t.methods))
		for j := range t.methods {
			var xs []float64
			for _, name := range common {
				if p := t.published(name, j); !math.IsNaN(p) {
					xs = append(xs, p)
				}
			}
			pubMean[j], _ = meanStdDev(xs)
		}
		cols := map[string][]gsColumn{}
		fmt.Fprintf(&md, "| graph |")
		for _, m := range t.methods {
			fmt.Fprintf(&md, " %s ARI | dist. |", m.title)
		}
		fmt.Fprintf(&md, " order kept | τ |\n|---|%s---:|---:|\n", strings.Repeat("---:|---:|", len(t.methods)))
		fmt.Fprintf(&md, "| *published* |")
		for j := range t.methods {
			fmt.Fprintf(&md, " *%.3f* | |", pubMean[j])
		}
		fmt.Fprintf(&md, " | |\n")
		for _, rd := range gsReadings {
			ours := make([]float64, len(t.methods))
			for j, m := range t.methods {
				var aris, dists []float64
				for _, name := range common {
					a, _ := meanStdDev(ssCollect(results, fmt.Sprintf("%s/%s/%s/%s", rd.key, t.key, name, m.key), "ari", reps))
					p := t.published(name, j)
					if math.IsNaN(p) {
						continue
					}
					aris = append(aris, a)
					dists = append(dists, math.Abs(a-p))
				}
				c := gsColumn{n: len(aris)}
				c.mean, _ = meanStdDev(aris)
				c.dist, _ = meanStdDev(dists)
				cols[rd.key] = append(cols[rd.key], c)
				ours[j] = c.mean
				fmt.Fprintf(&csv, "%s,%s,%s,%d,%.4f,%.4f,%.4f\n", t.key, rd.key, m.key, c.n, c.mean, pubMean[j], c.dist)
			}
			label := rd.title
			if rd.key == t.current {
				label += " (the page's)"
			}
			fmt.Fprintf(&md, "| %s |", label)
			for _, c := range cols[rd.key] {
				fmt.Fprintf(&md, " %.3f | %.3f |", c.mean, c.dist)
			}
			tau := kendallTau(pubMean, ours)
			fmt.Fprintf(&md, " %s | %+.2f |\n", yesNo(sameOrder(pubMean, ours)), tau)
		}
		md.WriteString("\nNearest graph per column: ")
		var near []string
		for j, m := range t.methods {
			best, bestD := "", math.Inf(1)
			for _, rd := range gsReadings {
				if d := cols[rd.key][j].dist; d < bestD {
					best, bestD = rd.title, d
				}
			}
			cur := cols[t.current][j].dist
			near = append(near, fmt.Sprintf("%s: %s (%.3f; the page's graph %.3f)", m.title, best, bestD, cur))
		}
		md.WriteString(strings.Join(near, "; ") + ".\n\n")
		var kept []string
		for _, rd := range gsReadings {
			ours := make([]float64, len(t.methods))
			for j := range t.methods {
				ours[j] = cols[rd.key][j].mean
			}
			if sameOrder(pubMean, ours) {
				kept = append(kept, rd.title)
			}
		}
		if len(kept) == 0 {
			fmt.Fprintf(&md, "The published order of the columns survives on none of the %d graphs.\n\n", len(gsReadings))
		} else {
			fmt.Fprintf(&md, "The published order of the columns survives on %d of the %d graphs: %s.\n\n", len(kept), len(gsReadings), strings.Join(kept, "; "))
		}
	}
	md.WriteString("No graph is tuned here on the ground truth: every graph is run and all are reported. The distances use the published means only " +
		"(the sources' standard deviations are mostly 0.00–0.1). Table 4.2 under the caption's other reading of \"1%\" (1% of the graph's edges) " +
		"is on the [table4.2 page](../table4.2/README.md).\n")
	return &Output{Markdown: md.String(), Files: map[string][]byte{"graph-sensitivity.csv": csv.Bytes()}}, nil
}

// gsPublishedRow is the first published figure of a dataset in t (NaN when
// the table has no such row).
func gsPublishedRow(t gsTable, name string) float64 {
	for j := range t.methods {
		if p := t.published(name, j); !math.IsNaN(p) {
			return p
		}
	}
	return math.NaN()
}

// order returns the indices of x sorted by decreasing value (ties by index).
func order(x []float64) []int {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return x[idx[a]] > x[idx[b]] })
	return idx
}

// sameOrder reports whether a and b rank their entries identically.
func sameOrder(a, b []float64) bool {
	oa, ob := order(a), order(b)
	for i := range oa {
		if oa[i] != ob[i] {
			return false
		}
	}
	return true
}

// kendallTau is Kendall's τ-a between a and b: (concordant − discordant)
// pairs over all n(n−1)/2 pairs; a pair tied in either counts as neither.
// O(n²); 0 for fewer than two entries.
func kendallTau(a, b []float64) float64 {
	n := len(a)
	if n < 2 {
		return 0
	}
	s := 0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			p := (a[i] - a[j]) * (b[i] - b[j])
			switch {
			case p > 0:
				s++
			case p < 0:
				s--
			}
		}
	}
	return float64(s) / float64(n*(n-1)/2)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
