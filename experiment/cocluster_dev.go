package experiment

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/metrics"
)

// The development suite of cocluster's default γ (beyond the sources).
// cluster.CoCluster's γ = 0.3 was chosen on Medline/Cranfield
// (seed001-fig4) for an earlier constraint operator; since the operator
// is seed 001 eq. 3.6's penalty its stated reason no longer holds. The
// default is decided here, on generated document–word matrices only, by a
// rule fixed before any constrained cell was computed (coDevPick), so
// that seed001-fig4's Classic3 cells stay a test set.

// coDevGammas are the values of γ compared, the default before this
// page (coDevDefaultBefore) first.
var coDevGammas = []float64{coDevDefaultBefore, 0.1, 1, 3, 10}

// coDevDefaultBefore is cocluster's default γ when this page was fixed.
const coDevDefaultBefore = 0.3

// coDevShares are the fractions of documents whose label is given.
var coDevShares = []float64{0.1, 0.2, 0.4}

// coDevReps is the number of repetitions of every (dataset, share).
const coDevReps = 20

// coDevRev names the definition of the cells; change it to recompute.
const coDevRev = "v1"

// coDevRow is one generated document–word matrix (coDevGenerate).
type coDevRow struct {
	name   string
	docs   int       // documents (rows)
	words  int       // vocabulary before unused words are dropped
	k      int       // topics = classes
	length int       // mean document length in tokens
	mix    float64   // share of a document's tokens drawn from the background
	sizes  []float64 // class proportions; nil: equal
}

// coDevRows is the suite: two to four topics, balanced and unbalanced
// classes, short and long documents. The mixes were set by running
// Dhillon's algorithm (no constraints, so no γ; 3 seeds, the matrix of
// seed 1) on candidate mixes: its NMI falls from about 0.9 to about 0
// within a mix step of 0.1, and each mix was taken in that transition
// (unconstrained NMI 0.24–0.76), where constraints have room to act.
var coDevRows = []coDevRow{
	{"k2-d400-w3000-l60-m0.75", 400, 3000, 2, 60, 0.75, nil},
	{"k2-d400-w3000-l30-m0.6-unequal", 400, 3000, 2, 30, 0.6, []float64{0.75, 0.25}},
	{"k3-d450-w3000-l60-m0.8", 450, 3000, 3, 60, 0.8, nil},
	{"k3-d450-w4000-l40-m0.7-unequal", 450, 4000, 3, 40, 0.7, []float64{0.5, 0.3, 0.2}},
	{"k4-d600-w4000-l80-m0.85", 600, 4000, 4, 80, 0.85, nil},
	{"k4-d600-w4000-l50-m0.75", 600, 4000, 4, 50, 0.75, nil},
}

// coDevQuickRows: quick mode runs one small matrix.
var coDevQuickRows = []coDevRow{{"k2-d120-w800-l40-m0.7", 120, 800, 2, 40, 0.7, nil}}

// coDevGenerate samples a document–word count matrix of r and returns its
// tf–idf weights (dataset.TFIDF, words in no document dropped) and the
// topic of every document. The vocabulary is split into r.k equal groups,
// one per topic, each with Zipf frequencies 1/rank within the group; a
// background distribution puts Zipf frequencies on all words in a random
// order. A document of topic t has a length uniform in [length/2,
// 3·length/2] and draws each token from the background with probability
// mix, else from topic t's group. Documents are grouped by topic. Cost
// O(docs·length·log words).
func coDevGenerate(r coDevRow, seed uint64) (*dataset.Sparse, []int, error) {
	rnd := rand.New(rand.NewPCG(seed, 0xc0de))
	cum := func(w []float64) []float64 {
		c := make([]float64, len(w))
		s := 0.0
		for i, v := range w {
			s += v
			c[i] = s
		}
		for i := range c {
			c[i] /= s
		}
		return c
	}
	draw := func(c []float64) int {
		return min(sort.SearchFloat64s(c, rnd.Float64()), len(c)-1)
	}
	group := make([][]float64, r.k) // cumulative Zipf over group t's words
	for t := range group {
		lo, hi := t*r.words/r.k, (t+1)*r.words/r.k
		w := make([]float64, hi-lo)
		for i := range w {
			w[i] = 1 / float64(i+1)
		}
		group[t] = cum(w)
	}
	perm := rnd.Perm(r.words)
	bw := make([]float64, r.words)
	for i := range bw {
		bw[i] = 1 / float64(perm[i]+1)
	}
	background := cum(bw)
	sizes := r.sizes
	if sizes == nil {
		sizes = make([]float64, r.k)
		for i := range sizes {
			sizes[i] = 1
		}
	}
	var total float64
	for _, s := range sizes {
		total += s
	}
	truth := make([]int, 0, r.docs)
	acc := 0.0
	for t, s := range sizes {
		acc += s
		for len(truth) < int(math.Round(acc/total*float64(r.docs))) {
			truth = append(truth, t)
		}
	}
	counts := &dataset.Sparse{Rows: r.docs, Cols: r.words, Ptr: make([]int, r.docs+1)}
	for i, t := range truth {
		row := map[int32]float64{}
		length := r.length/2 + rnd.IntN(r.length+1)
		for range length {
			var j int
			if rnd.Float64() < r.mix {
				j = draw(background)
			} else {
				j = t*r.words/r.k + draw(group[t])
			}
			row[int32(j)]++
		}
		idx := make([]int32, 0, len(row))
		for j := range row {
			idx = append(idx, j)
		}
		sort.Slice(idx, func(a, b int) bool { return idx[a] < idx[b] })
		for _, j := range idx {
			counts.Idx = append(counts.Idx, j)
			counts.Val = append(counts.Val, row[j])
		}
		counts.Ptr[i+1] = len(counts.Idx)
	}
	all := make([]int, r.docs)
	for i := range all {
		all[i] = i
	}
	a, _ := dataset.TFIDF(counts).SelectRows(all)
	for i := 0; i < a.Rows; i++ {
		if idx, _ := a.Row(i); len(idx) == 0 {
			return nil, nil, fmt.Errorf("cocluster-dev: %s: document %d has no word of positive tf–idf weight", r.name, i)
		}
	}
	return a, truth, a.Validate()
}

// CoClusterDev is the development suite of cocluster's default γ.
func CoClusterDev() Experiment {
	var data memo[string, *coDevData]
	return Experiment{
		Name:   "cocluster-dev",
		Title:  "Development suite of cocluster's default γ (the weight of seed 001 eq. 3.6's penalty) on generated document–word matrices",
		Source: "seed 001 §5.2, eq. 3.6 (beyond the sources: the choice of default)",
		Cells: func(env *Env) ([]Cell, error) {
			var cells []Cell
			for ri, r := range coDevRowsFor(env) {
				for _, share := range coDevSharesFor(env) {
					for rep := range coDevRepsFor(env) {
						for _, m := range coDevMethodsFor(env) {
							ri, r, share, rep, m := ri, r, share, rep, m
							cells = append(cells, Cell{
								Key: coDevKey(r.name, share, rep, m, env.Seed),
								Run: func(ctx context.Context) (Values, error) {
									return coDevCell(ctx, env, &data, ri, r, share, rep, m)
								},
							})
						}
					}
				}
			}
			return cells, nil
		},
		Report: coDevReport,
	}
}

// coDevData is a generated matrix with its document topics.
type coDevData struct {
	a     *dataset.Sparse
	truth []int
}

func coDevRowsFor(env *Env) []coDevRow {
	if env.Quick {
		return coDevQuickRows
	}
	return coDevRows
}

func coDevSharesFor(env *Env) []float64 {
	if env.Quick {
		return []float64{0.2}
	}
	return coDevShares
}

func coDevRepsFor(env *Env) int {
	if env.Quick {
		return 2
	}
	return coDevReps
}

// coDevMethodsFor returns the columns: "dhillon" (no constraints), then
// "g<γ>" for each γ of coDevGammas.
func coDevMethodsFor(env *Env) []string {
	gs := coDevGammas
	if env.Quick {
		gs = gs[:3]
	}
	m := []string{"dhillon"}
	for _, g := range gs {
		m = append(m, coDevMethod(g))
	}
	return m
}

func coDevMethod(g float64) string { return "g" + strconv.FormatFloat(g, 'g', -1, 64) }

func coDevKey(name string, share float64, rep int, m string, seed uint64) string {
	return fmt.Sprintf("%s/share=%g/rep=%d/%s/seed=%d/%s", name, share, rep, m, seed, coDevRev)
}

func coDevCell(ctx context.Context, env *Env, data *memo[string, *coDevData], ri int, r coDevRow, share float64, rep int, m string) (Values, error) {
	d, err := data.get(ctx, r.name, func(context.Context) (*coDevData, error) {
		a, truth, err := coDevGenerate(r, env.Seed+uint64(ri))
		if err != nil {
			return nil, err
		}
		return &coDevData{a: a, truth: truth}, nil
	})
	if err != nil {
		return nil, err
	}
	rows, cols := d.a.Dims()
	// The known documents: round(share·docs), the same for every column.
	rnd := rand.New(rand.NewPCG(env.Seed, 0xc0de<<32|uint64(ri)<<24|uint64(rep)<<12|uint64(math.Round(share*1000))))
	known := rnd.Perm(rows)[:int(math.Round(share*float64(rows)))]
	labelled := make([]bool, rows)
	p := &cluster.Problem{Bipartite: d.a, K: r.k}
	method := cluster.CoCluster{}
	if m != "dhillon" {
		g, err := strconv.ParseFloat(strings.TrimPrefix(m, "g"), 64)
		if err != nil {
			return nil, fmt.Errorf("cocluster-dev: column %q: %w", m, err)
		}
		method.Gamma = g
		p.Labels = make(constraint.Labels, rows+cols)
		for i := range p.Labels {
			p.Labels[i] = constraint.Unlabeled
		}
	}
	for _, i := range known {
		labelled[i] = true
		if p.Labels != nil {
			p.Labels[i] = d.truth[i]
		}
	}
	res, err := cluster.Run(ctx, method, p, &cluster.Settings{Seed: env.Seed + uint64(rep)})
	if err != nil {
		return nil, err
	}
	pred := res.Labels[:rows]
	v := Values{}
	if v["nmi_all"], err = metrics.NMI(d.truth, pred, metrics.Arithmetic); err != nil {
		return nil, err
	}
	var tu, pu []int
	for i := 0; i < rows; i++ {
		if !labelled[i] {
			tu, pu = append(tu, d.truth[i]), append(pu, pred[i])
		}
	}
	if v["nmi_unknown"], err = metrics.NMI(tu, pu, metrics.Arithmetic); err != nil {
		return nil, err
	}
	if v["ari_unknown"], err = metrics.ARI(tu, pu); err != nil {
		return nil, err
	}
	return v, nil
}

// coDevPick returns the index into gammas of the γ chosen from each γ's
// mean NMI on the unlabelled documents over the cases (mean[i]) and its
// eligibility (ok[i]: on every case its mean is at least Dhillon's, no
// constraints, minus 0.01). The eligible γ of highest mean is chosen,
// except that the default before (index 0) is kept when it is eligible and
// within 0.002 of that mean; when none is eligible, the default before.
func coDevPick(mean []float64, ok []bool) int {
	best := -1
	for i := range mean {
		if ok[i] && (best < 0 || mean[i] > mean[best]) {
			best = i
		}
	}
	if best < 0 || (ok[0] && mean[0] >= mean[best]-0.002) {
		return 0
	}
	return best
}

func coDevReport(env *Env, res map[string]Values) (*Output, error) {
	methods := coDevMethodsFor(env)
	ng := len(methods) - 1
	mean := func(r coDevRow, share float64, m, metric string) (float64, int) {
		var s float64
		var n int
		for rep := range coDevRepsFor(env) {
			if v, ok := res[coDevKey(r.name, share, rep, m, env.Seed)]; ok {
				s += v[metric]
				n++
			}
		}
		if n == 0 {
			return math.NaN(), 0
		}
		return s / float64(n), n
	}
	var tab strings.Builder
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	head := []string{"dataset", "share", "reps"}
	for _, m := range methods {
		head = append(head, "nmi_unknown_"+m, "nmi_all_"+m)
	}
	w.Write(head)
	sum := make([]float64, ng)
	ok := make([]bool, ng)
	for i := range ok {
		ok[i] = true
	}
	worst := make([]float64, ng) // least mean − Dhillon's over the cases
	for i := range worst {
		worst[i] = math.Inf(1)
	}
	var cases, missing int
	for _, r := range coDevRowsFor(env) {
		for _, share := range coDevSharesFor(env) {
			base, nb := mean(r, share, "dhillon", "nmi_unknown")
			fmt.Fprintf(&tab, "| %s | %g | %.3f |", r.name, share, base)
			rec := []string{r.name, fmt.Sprint(share), strconv.Itoa(coDevRepsFor(env))}
			all := nb == coDevRepsFor(env)
			vals := make([]float64, ng)
			for i, m := range methods[1:] {
				v, n := mean(r, share, m, "nmi_unknown")
				vals[i] = v
				all = all && n == coDevRepsFor(env)
			}
			for _, m := range methods {
				u, _ := mean(r, share, m, "nmi_unknown")
				a, _ := mean(r, share, m, "nmi_all")
				rec = append(rec, fmt.Sprintf("%.4f", u), fmt.Sprintf("%.4f", a))
			}
			w.Write(rec)
			if !all {
				missing++
				tab.WriteString(strings.Repeat(" – |", ng) + "\n")
				continue
			}
			cases++
			for i, v := range vals {
				sum[i] += v
				worst[i] = math.Min(worst[i], v-base)
				if v < base-0.01 {
					ok[i] = false
				}
				fmt.Fprintf(&tab, " %.3f |", v)
			}
			tab.WriteString("\n")
		}
	}
	w.Flush()
	avg := make([]float64, ng)
	for i := range avg {
		avg[i] = math.NaN()
		if cases > 0 {
			avg[i] = sum[i] / float64(cases)
		} else {
			ok[i] = false
		}
	}
	pick := coDevPick(avg, ok)
	gammas := coDevGammas[:ng]

	var md strings.Builder
	writePageHead(&md, env, "Development suite of cocluster's default γ", "flock /work/bench.lock go run ./cmd/tether repro cocluster-dev", "one small matrix, one share, two repetitions, three values of γ.")
	md.WriteString("**Why.** cocluster (cluster.CoCluster) adds pairwise constraints to Dhillon's bipartite spectral co-clustering as " +
		"seed 001 eq. 3.6's penalty γ·zᵀQz, Q = D^{-1/2}(D̄_C − C)D^{-1/2}/ρ. Its default γ = 0.3 was chosen on Medline/Cranfield " +
		"([seed001-fig4](../seed001-fig4/README.md)) for an earlier operator without the −D̄_C term, where a larger γ let a vector " +
		"living on the labelled documents alone lead the embedding; Q ⪰ 0 rules that out, so the reason no longer holds. This page " +
		"chooses the default on generated matrices only, so that Classic3 stays a test set.\n\n")
	fmt.Fprintf(&md, "**Fixed before any constrained cell of the suite was computed** (in the commit that added this page; only the quick "+
		"mode's smoke test, on a smaller matrix outside the suite, had run): the values of γ "+
		"(%s), the suite, the protocol and the rule: **a γ is eligible when, on every (dataset, share) case, its mean NMI on the "+
		"documents whose label was not given is at least Dhillon's (no constraints, same documents, same k-means seed) minus 0.01; "+
		"the eligible γ of highest mean over the cases is chosen, except that the default before (%g) is kept when it is eligible "+
		"and within 0.002 of that mean; when none is eligible the default stays.** The suite's mixes were set by running Dhillon's "+
		"algorithm alone (no γ) on candidate mixes: its NMI falls from about 0.9 to about 0 within a mix step of 0.1, and each "+
		"mix was taken in that transition (unconstrained NMI 0.24–0.76 in that check), where constraints have room to act.\n\n", coDevGammaList(gammas), coDevDefaultBefore)
	fmt.Fprintf(&md, "**Suite.** %s (coDevGenerate): k topics, the vocabulary split into k equal "+
		"groups with Zipf frequencies (1/rank) inside each, and a background Zipf distribution over all words in a random order; "+
		"a document of topic t has a length uniform in [L/2, 3L/2] tokens, each drawn from the background with probability m, else "+
		"from t's group; tf–idf weights as seed001-fig4 (count·ln(N/df)), words in no document dropped. Names give k, documents, "+
		"vocabulary, L and m; \"unequal\" has classes of 75/25%% (k = 2) or 50/30/20%% (k = 3). Known labels: round(share·documents) "+
		"documents drawn uniformly per repetition, the same for every column; all pairs among them become constraints (must-link "+
		"within a topic, cannot-link across), as seed 001 §5.1–5.2. %d repetitions per (dataset, share), Settings{Seed: base + "+
		"repetition}; k = the number of topics; every other knob of cocluster at its default (signed pairs, ℓ = ⌈log₂ k⌉). NMI "+
		"with the arithmetic normalization, on the documents only.\n\n", wording.Count(len(coDevRowsFor(env)), "generated document–word matrix", "generated document–word matrices"), coDevRepsFor(env))
	fmt.Fprintf(&md, "## Result (%s; %d with missing cells)\n\n| γ | mean NMI, unlabelled documents | eligible | worst case − Dhillon |\n|---|---:|---|---:|\n", wording.Count(cases, "case", "cases"), missing)
	for i, g := range gammas {
		mark := ""
		if i == pick {
			mark = " **(chosen)**"
		}
		el := "yes"
		if !ok[i] {
			el = "no"
		}
		fmt.Fprintf(&md, "| %g%s | %.3f | %s | %+.3f |\n", g, mark, avg[i], el, worst[i])
	}
	fmt.Fprintf(&md, "\nThe rule picks **γ = %g**. cluster.CoClusterDefaultGamma is %g: ", gammas[pick], cluster.CoClusterDefaultGamma)
	if gammas[pick] == cluster.CoClusterDefaultGamma {
		md.WriteString("the value picked here.\n\n")
	} else {
		md.WriteString("**not the value picked here.**\n\n")
	}
	md.WriteString("## Per case: mean NMI on the documents whose label was not given\n\n| dataset | share | Dhillon |")
	for _, g := range gammas {
		fmt.Fprintf(&md, " γ = %g |", g)
	}
	md.WriteString("\n|---|---|---:|" + strings.Repeat("---:|", ng) + "\n")
	md.WriteString(tab.String())
	md.WriteString("\nThe CSV has the same means and the NMI on all documents, labelled ones included.\n")
	return &Output{Markdown: md.String(), Files: map[string][]byte{"cocluster-dev.csv": buf.Bytes()}}, nil
}

func coDevGammaList(gs []float64) string {
	s := make([]string, len(gs))
	for i, g := range gs {
		s[i] = strconv.FormatFloat(g, 'g', -1, 64)
	}
	return strings.Join(s, ", ")
}
