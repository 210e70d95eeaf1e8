package experiment

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/figure"
	"github.com/tether-sc/tether/metrics"
)

// fig4Setup is the protocol of seed 001 §5.2.1 (Figure 4).
type fig4Setup struct {
	perClass int       // documents taken from each of Medline and Cranfield
	known    []float64 // fraction of the documents whose label is known
	methods  []string
	reps     int
	cspReps  int // CSP costs about 1 s a run, 15× cocluster
	l1Reps   int // l1csc costs 0.2–5 s a run, more with more labels
}

func seed001Fig4Setup(quick bool) fig4Setup {
	s := fig4Setup{
		perClass: 200,
		known:    []float64{0, 0.1, 0.2, 0.4, 0.6, 0.8},
		methods:  []string{"dhillon", "cocluster", "cocluster-ml", "cocluster-g1", "csp", "l1csc"},
		reps:     100,
		cspReps:  25,
		l1Reps:   100,
	}
	if quick {
		s.known = []float64{0, 0.2, 0.8}
		s.methods = []string{"dhillon", "cocluster", "cocluster-ml", "l1csc"}
		s.reps, s.cspReps, s.l1Reps = 2, 2, 2
	}
	return s
}

// fig4Files are the Classic3 files the experiment reads under DataRoot.
var fig4Files = []string{"classic3/docbyterm.txt", "classic3/documents.txt"}

// fig4Data is the Medline/Cranfield bipartite graph.
type fig4Data struct {
	a     *dataset.Sparse // documents × words, tf–idf
	g     *graph.Graph    // its bipartite graph, documents first
	truth []int           // 0 Medline, 1 Cranfield, per document
}

// Seed001Fig4 is seed 001 §5.2, Figure 4: mean purity and NMI of
// constrained spectral co-clustering of the Medline/Cranfield documents of
// Classic3 (200 each, documents × words weighted by tf–idf) against the
// percentage of documents whose label is known, the labels entering as
// pairwise constraints between documents.
func Seed001Fig4() Experiment {
	data := &memo[string, *fig4Data]{}
	return Experiment{
		Name:   "seed001-fig4",
		Title:  "constrained spectral co-clustering of Medline/Cranfield (Classic3): purity and NMI against the % of known labels",
		Source: "seed 001 §5.2, Figure 4, Table 4",
		Cells: func(env *Env) ([]Cell, error) {
			if !fig4Available(env) {
				return nil, nil // reported as not run
			}
			s := seed001Fig4Setup(env.Quick)
			var cells []Cell
			for _, m := range s.methods {
				for _, known := range s.known {
					if !fig4Runs(m, known) {
						continue
					}
					for r := 0; r < s.repsOf(m); r++ {
						m, known, r := m, known, r
						cells = append(cells, Cell{
							Key:  fig4Key(m, known, r, s.perClass, env.Seed),
							Data: []string{"classic3"}, // fig4Files
							Run:  func(ctx context.Context) (Values, error) { return fig4Cell(ctx, env, data, s, m, known, r) },
						})
					}
				}
			}
			return cells, nil
		},
		Report: func(env *Env, res map[string]Values) (*Output, error) {
			return fig4Report(env, seed001Fig4Setup(env.Quick), data, res)
		},
	}
}

// repsOf returns the repetitions of method m.
func (s fig4Setup) repsOf(m string) int {
	switch m {
	case "csp":
		return s.cspReps
	case "l1csc":
		return s.l1Reps
	}
	return s.reps
}

// fig4Runs reports whether method m has cells at the share known: dhillon
// at 0 only (the unconstrained point of the cocluster and CSP curves),
// l1csc at every share (its own unconstrained point: Alg. 1 without
// constraints, the sign of its vector, differs from Dhillon's k-means on
// the singular vectors), the others at positive shares.
func fig4Runs(m string, known float64) bool {
	switch m {
	case "dhillon":
		return known == 0
	case "l1csc":
		return true
	}
	return known > 0
}

// fig4Own0 reports whether method m has its own 0% point (else its curves
// start at Dhillon's).
func fig4Own0(m string) bool { return m == "dhillon" || m == "l1csc" }

func fig4Available(env *Env) bool {
	for _, f := range fig4Files {
		if _, err := os.Stat(filepath.Join(env.DataRoot, f)); err != nil {
			return false
		}
	}
	return true
}

// fig4Key is a cell's key. The constrained cocluster cells (every column
// but dhillon and csp, at a positive share of known labels, whose pairs
// always include must-links) end in fig4CoRevision, so that they are
// recomputed when cocluster's constraint operator changes while the
// unconstrained and CSP cells stay cached.
func fig4Key(m string, known float64, r, perClass int, seed uint64) string {
	key := fmt.Sprintf("%s/known=%g/rep=%d/per=%d/seed=%d", m, known, r, perClass, seed)
	if strings.HasPrefix(m, "cocluster") && known > 0 {
		key += "/" + fig4CoRevision
	}
	return key
}

// fig4CoRevision names the revision of cocluster's constraint operator:
// "eq3.6" since it is seed 001 eq. 3.6's penalty, the normalized
// Laplacian of the constraint graph (with the −D̄_C diagonal, ρ its
// largest absolute row sum); the cells before, under keys without it,
// used S + γ·D^{-1/2}CD^{-1/2}/ρ.
const fig4CoRevision = "eq3.6"

// fig4Load builds the bipartite graph of seed 001 §5.2: the first perClass
// Medline and the first perClass Cranfield documents of Classic3 (in the
// order of documents.txt), the words that occur in them, and tf–idf
// weights count·ln(N/df) with N and df over these documents.
func fig4Load(ctx context.Context, env *Env, data *memo[string, *fig4Data], perClass int) (*fig4Data, error) {
	noteData(ctx, "classic3") // it reads fig4Files, catalog's classic3 files
	return data.get(ctx, fmt.Sprintf("%s|%d", env.DataRoot, perClass), func(ctx context.Context) (*fig4Data, error) {
		docs := filepath.Join(env.DataRoot, "classic3/documents.txt")
		raw, err := os.ReadFile(docs)
		if err != nil {
			return nil, err
		}
		// documents.txt: "name class", class 2 = cran, 3 = med (catalog).
		var med, cran []int
		for ln, line := range strings.Split(strings.TrimRight(string(raw), "\r\n"), "\n") {
			f := strings.Fields(line)
			if len(f) != 2 {
				return nil, fmt.Errorf("%s:%d: %d fields, want \"name class\"", docs, ln+1, len(f))
			}
			switch {
			case f[1] == "3" && len(med) < perClass:
				med = append(med, ln)
			case f[1] == "2" && len(cran) < perClass:
				cran = append(cran, ln)
			}
		}
		if len(med) < perClass || len(cran) < perClass {
			return nil, fmt.Errorf("%s: %d Medline and %d Cranfield documents, want %d of each", docs, len(med), len(cran), perClass)
		}
		all, err := dataset.ReadDocTermFile(filepath.Join(env.DataRoot, "classic3/docbyterm.txt"), 0)
		if err != nil {
			return nil, err
		}
		sub, _ := all.SelectRows(append(append([]int(nil), med...), cran...))
		a := dataset.TFIDF(sub)
		truth := make([]int, 2*perClass)
		for i := perClass; i < 2*perClass; i++ {
			truth[i] = 1
		}
		r, c := a.Dims()
		edges := make([]graph.Edge, 0, a.NNZ())
		for i := 0; i < r; i++ {
			idx, val := a.Row(i)
			for q, j := range idx {
				edges = append(edges, graph.Edge{I: i, J: r + int(j), W: val[q]})
			}
		}
		g, err := graph.FromEdges(r+c, edges)
		if err != nil {
			return nil, err
		}
		return &fig4Data{a: a, g: g, truth: truth}, nil
	})
}

// fig4Known draws the documents whose label is known: round(known·N)
// documents uniformly, the same for every method at (known, rep).
func fig4Known(n int, known float64, rep int, seed uint64) []int {
	rnd := rand.New(rand.NewPCG(seed, 0xf164<<32|uint64(rep)<<16|uint64(math.Round(known*1000))))
	return rnd.Perm(n)[:int(math.Round(known*float64(n)))]
}

func fig4Cell(ctx context.Context, env *Env, data *memo[string, *fig4Data], s fig4Setup, method string, known float64, rep int) (Values, error) {
	d, err := fig4Load(ctx, env, data, s.perClass)
	if err != nil {
		return nil, err
	}
	r, c := d.a.Dims()
	p := &cluster.Problem{Bipartite: d.a, K: 2}
	labelled := map[int]bool{}
	if known > 0 {
		p.Labels = make(constraint.Labels, r+c)
		for i := range p.Labels {
			p.Labels[i] = constraint.Unlabeled
		}
		for _, i := range fig4Known(r, known, rep, env.Seed) {
			p.Labels[i] = d.truth[i]
			labelled[i] = true
		}
	}
	var m cluster.Method
	switch method {
	case "dhillon", "cocluster":
		m = cluster.CoCluster{}
	case "cocluster-ml":
		m = cluster.CoCluster{Pairs: cluster.CoMustLink}
	case "cocluster-g1":
		m = cluster.CoCluster{Gamma: 1}
	case "l1csc":
		// Seed 001's own method (§4, Alg. 1), as §5.2 runs it: on the
		// bipartite graph, documents and words as its nodes.
		m, p.Graph, p.Bipartite = cluster.L1CSC{}, d.g, nil
	case "csp":
		// CSP (Wang & Davidson), seed 001's baseline of §5.1, on the
		// bipartite graph with the same document labels.
		m, p.Graph, p.Bipartite = cluster.CSP{}, d.g, nil
	default:
		return nil, fmt.Errorf("seed001-fig4: unknown column %q", method)
	}
	t0 := time.Now()
	res, err := cluster.Run(ctx, m, p, &cluster.Settings{Seed: env.Seed + uint64(rep)})
	if err != nil {
		return nil, err
	}
	v := Values{"seconds": time.Since(t0).Seconds()}
	pred := res.Labels[:r]
	if v["purity"], err = metrics.Purity(d.truth, pred); err != nil {
		return nil, err
	}
	if v["nmi"], err = metrics.NMI(d.truth, pred, metrics.Arithmetic); err != nil {
		return nil, err
	}
	// The same figures on the documents whose label was not given.
	var tu, pu []int
	for i := 0; i < r; i++ {
		if !labelled[i] {
			tu, pu = append(tu, d.truth[i]), append(pu, pred[i])
		}
	}
	if len(tu) > 1 {
		if v["purity_unknown"], err = metrics.Purity(tu, pu); err != nil {
			return nil, err
		}
		if v["nmi_unknown"], err = metrics.NMI(tu, pu, metrics.Arithmetic); err != nil {
			return nil, err
		}
	}
	// Words: the share of the word side's weight in the co-cluster of the
	// documents it belongs to most, a check that the word clusters follow
	// the document clusters (1 when every word's weight lies in its own
	// co-cluster's documents).
	inOwn, total := 0.0, 0.0
	for i := 0; i < r; i++ {
		idx, val := d.a.Row(i)
		for q, j := range idx {
			total += val[q]
			if res.Labels[r+int(j)] == pred[i] {
				inOwn += val[q]
			}
		}
	}
	v["word_weight_in_cocluster"] = inOwn / total
	_ = c
	return v, nil
}

// fig4Mean returns the mean and sd of metric over the repetitions of
// (m, known); dhillon is computed at 0 only, and the curves of the methods
// without their own 0% point start at Dhillon's (fig4Own0).
func fig4Mean(env *Env, s fig4Setup, res map[string]Values, m string, known float64, metric string) (meanSD, int) {
	if m == "dhillon" {
		known = 0
	}
	if known == 0 && !fig4Own0(m) {
		m = "dhillon"
	}
	var vals []float64
	for r := 0; r < s.repsOf(m); r++ {
		if v, ok := res[fig4Key(m, known, r, s.perClass, env.Seed)]; ok {
			if x, ok := v[metric]; ok {
				vals = append(vals, x)
			}
		}
	}
	if len(vals) == 0 {
		return meanSD{math.NaN(), math.NaN()}, 0
	}
	return summarize(vals), len(vals)
}

var fig4Names = map[string]string{
	"dhillon":      "Dhillon (no constraints)",
	"cocluster":    "cocluster (ML + CL)",
	"cocluster-ml": "cocluster ML only (Shi-style overlay)",
	"cocluster-g1": "cocluster ML + CL, γ = 1",
	"csp":          "CSP on the bipartite graph",
	"l1csc":        "L1-CSC (seed 001 §4) on the bipartite graph",
}

func fig4Report(env *Env, s fig4Setup, data *memo[string, *fig4Data], res map[string]Values) (*Output, error) {
	var b strings.Builder
	b.WriteString("# Seed 001 Figure 4: constrained spectral co-clustering of Medline/Cranfield (Classic3)\n\n")
	b.WriteString("Regenerate with `tether repro seed001-fig4` (add `-quick` for the smoke test).\n\n")
	b.WriteString("**Published** (seed 001 §5.2, Table 4, Figure 4; the figure's curves did not survive the text conversion): ")
	b.WriteString("a bipartite graph of 400 documents (200 Medline, 200 Cranfield abstracts of Classic3) and their 3141 words, ")
	b.WriteString("edge weight the TF/IDF score of the word in the document (10510 + 10210 = 20720 edges, Table 4); ")
	b.WriteString("constraints between documents from a random percentage of known labels, as in §5.1; 100 runs; mean cluster ")
	b.WriteString("purity and NMI of the two-way partition. The paper compares its L1-regularized method (§4) on the bipartite ")
	b.WriteString("graph against Shi et al. (ICDM 2010), which overlays must-link constraints on the graph and minimizes the ")
	b.WriteString("normalized cut. Claims: (1) \"our approach performs much better in comparison to the baseline\"; ")
	b.WriteString("(2) implicitly, as in §5.1, performance grows with the percentage of known labels.\n\n")
	b.WriteString("**What we run.** The paper's L1 method (`l1csc`, seed 001 §4, Alg. 1) on the bipartite graph, and tether's `cocluster`: ")
	b.WriteString("Dhillon's spectral co-clustering (SVD of D₁^{-1/2}AD₂^{-1/2}, ℓ = 1 singular vector after the first for k = 2, ")
	b.WriteString("k-means on Z = [D₁^{-1/2}u₂; D₂^{-1/2}v₂]) with the constraints entering as the penalty of seed 001 eq. 3.6, ")
	b.WriteString("γ times the normalized Laplacian of the constraint graph D^{-1/2}(D̄_C − C)D^{-1/2}/ρ (signed for cannot-links), on the ")
	b.WriteString("bipartite graph (γ = 0.3, the method's default for k = 2, chosen on this data for an earlier operator without the D̄_C term; ")
	b.WriteString("[cocluster-dev](../cocluster-dev/README.md) kept it on generated matrices, where no γ of 0.1–10 stayed within 0.01 of ")
	b.WriteString("unconstrained Dhillon on every case, though every one did at k = 2):\n\n")
	b.WriteString("- `dhillon`: no constraints (the 0% point of every curve);\n")
	b.WriteString("- `cocluster`: must-links and cannot-links (the stand-in for the paper's method, which handles both);\n")
	b.WriteString("- `cocluster-ml`: must-links only, the must-link Laplacian of eq. 3.6 — the baseline as seed 001 describes Shi et al.; ")
	b.WriteString("it is our rendering of that description, not Shi et al.'s algorithm;\n")
	b.WriteString("- `cocluster-g1`: `cocluster` with γ = 1, a stronger penalty;\n")
	if contains(s.methods, "l1csc") {
		b.WriteString("- `l1csc`: seed 001's own method (§4, Alg. 1, eq. 4.8–4.10, with its defaults λ = 1, μ = 1, the normalized cut, 3 starts), ")
		b.WriteString("as §5.2 runs it: on the bipartite graph, documents and words as its nodes, the constraints between documents; the two clusters ")
		fmt.Fprintf(&b, "are the signs of its vector. Its 0%% point is the method without constraints (Alg. 1 from the same starts), not Dhillon's; %d repetitions (0.2–5 s each).\n", s.l1Reps)
	}
	if contains(s.methods, "csp") {
		b.WriteString("- `csp`: Wang & Davidson's flexible constrained spectral clustering, seed 001's baseline of §5.1, on the ")
		fmt.Fprintf(&b, "bipartite graph (documents and words as its nodes), the same labels; %d repetitions (about 1 s each).\n", s.cspReps)
	}
	fmt.Fprintf(&b, "\nKnown labels: round(p·400) documents drawn uniformly per repetition, the same for every method; all pairs among them ")
	fmt.Fprintf(&b, "become constraints (ML within a class, CL across). %d repetitions (seeds 1…%d of k-means and the eigensolver; the paper's 100 runs). ", s.reps, s.reps)
	b.WriteString("Purity (the usual Σ_k max_j |c_k ∩ l_j| / N; eq. 5.11 as printed omits the 1/N) and NMI with the arithmetic ")
	b.WriteString("normalization of eq. 5.12, on the 400 documents (as the paper) and, in the second table, on the documents whose ")
	b.WriteString("label was not given (the transductive figure: the given labels cannot inflate it).\n\n")
	if !fig4Available(env) {
		fmt.Fprintf(&b, "**Not run**: %s not found under %s. Supply the Classic3 release (docbyterm.txt, documents.txt) there to run it.\n", strings.Join(fig4Files, " and "), env.DataRoot)
		return &Output{Markdown: b.String()}, nil
	}
	d, err := fig4Load(context.Background(), env, data, s.perClass)
	if err != nil {
		return nil, err
	}
	r, c := d.a.Dims()
	medE, cranE := 0, 0
	for i := 0; i < r; i++ {
		if idx, _ := d.a.Row(i); d.truth[i] == 0 {
			medE += len(idx)
		} else {
			cranE += len(idx)
		}
	}
	fmt.Fprintf(&b, "**Our graph** (Table 4 beside it): the first %d Medline and %d Cranfield documents of documents.txt; ", s.perClass, s.perClass)
	fmt.Fprintf(&b, "%d words (paper 3141), %d + %d = %d edges (paper 10510 + 10210 = 20720). Classic3 here is the Porter-stemmed ", c, medE, cranE, medE+cranE)
	b.WriteString("release with terms of ≥ 3 letters in ≥ 3 documents (dataset-info.txt), hence fewer words than the paper's; ")
	b.WriteString("which 200 documents the paper took is not stated. TF-IDF = count·ln(400/df), df over the 400 documents.\n\n")

	csv := [][]string{{"method", "known", "purity_mean", "purity_sd", "nmi_mean", "nmi_sd", "purity_unknown_mean", "nmi_unknown_mean", "word_weight_in_cocluster", "seconds_mean", "reps"}}
	var charts []figure.LineChart
	for _, part := range []struct{ suffix, title string }{{"", "all 400 documents"}, {"_unknown", "documents whose label was not given"}} {
		fmt.Fprintf(&b, "## Mean (± sd) on %s\n\n| method | metric |", part.title)
		for _, k := range s.known {
			fmt.Fprintf(&b, " %g%% |", 100*k)
		}
		b.WriteString("\n|---|---|" + strings.Repeat("---:|", len(s.known)) + "\n")
		for _, metric := range []string{"purity", "nmi"} {
			ch := figure.LineChart{Title: fmt.Sprintf("Medline/Cranfield: %s (%s)", map[string]string{"purity": "purity", "nmi": "NMI"}[metric], part.title),
				XLabel: "known document labels (%)", YLabel: metric, LegendRight: true}
			for _, m := range s.methods {
				fmt.Fprintf(&b, "| %s | %s |", m, metric)
				ser := figure.Series{Name: fig4Names[m]}
				for _, k := range s.known {
					if part.suffix != "" && k == 0 && !fig4Own0(m) {
						b.WriteString(" — |")
						continue
					}
					if k > 0 && m == "dhillon" && part.suffix != "" {
						b.WriteString(" — |")
						continue
					}
					ms, nrep := fig4Mean(env, s, res, m, k, metric+part.suffix)
					if nrep == 0 {
						b.WriteString(" — |")
						continue
					}
					fmt.Fprintf(&b, " %.3f ± %.3f |", ms.mean, ms.sd)
					ser.X, ser.Y, ser.Err = append(ser.X, 100*k), append(ser.Y, ms.mean), append(ser.Err, ms.sd)
				}
				b.WriteString("\n")
				if m != "dhillon" || part.suffix == "" {
					ch.Series = append(ch.Series, ser)
				}
			}
			charts = append(charts, ch)
		}
		b.WriteString("\n")
	}
	for _, m := range s.methods {
		for _, k := range s.known {
			if !fig4Runs(m, k) {
				continue
			}
			p, n := fig4Mean(env, s, res, m, k, "purity")
			if n == 0 {
				continue
			}
			nm, _ := fig4Mean(env, s, res, m, k, "nmi")
			pu, _ := fig4Mean(env, s, res, m, k, "purity_unknown")
			nu, _ := fig4Mean(env, s, res, m, k, "nmi_unknown")
			ww, _ := fig4Mean(env, s, res, m, k, "word_weight_in_cocluster")
			sec, _ := fig4Mean(env, s, res, m, k, "seconds")
			csv = append(csv, []string{m, fmt.Sprint(k), ratef(p.mean), ratef(p.sd), ratef(nm.mean), ratef(nm.sd), ratef(pu.mean), ratef(nu.mean), ratef(ww.mean), ratef(sec.mean), fmt.Sprint(n)})
		}
	}
	findings, claims := fig4Findings(env, s, res)
	b.WriteString(findings)
	var png []byte
	name := "seed001-fig4.png"
	if env.OutDir != "" {
		var err error
		if png, err = lineChartsPNG(5*vg.Inch, 4*vg.Inch, charts); err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "![purity and NMI against the known labels](%s)\n\n", name)
	}
	var out strings.Builder
	for _, row := range csv {
		out.WriteString(strings.Join(row, ",") + "\n")
	}
	o := &Output{Markdown: b.String(), Files: map[string][]byte{"seed001-fig4.csv": []byte(out.String())}, Claims: claims}
	if png != nil {
		addFigure(o, name, png)
	}
	return o, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// fig4Weak reports whether seq is non-decreasing within 0.005 from one
// point to the next.
func fig4Weak(seq []float64) bool {
	for i := 1; i < len(seq); i++ {
		if seq[i] < seq[i-1]-0.005 {
			return false
		}
	}
	return true
}

// fig4Grows reports whether seq grows: non-decreasing within 0.005 and its
// last point more than 0.01 above its first.
func fig4Grows(seq []float64) bool {
	return len(seq) > 1 && fig4Weak(seq) && seq[len(seq)-1] > seq[0]+0.01
}

// fig4Findings marks the paper's claims held or not from the finished
// cells.
func fig4Findings(env *Env, s fig4Setup, res map[string]Values) (string, []Claim) {
	var claims []Claim
	var b strings.Builder
	b.WriteString("## The claims\n\n")
	mean := func(m string, k float64, metric string) float64 {
		ms, _ := fig4Mean(env, s, res, m, k, metric)
		return ms.mean
	}
	var pos []float64
	for _, k := range s.known {
		if k > 0 {
			pos = append(pos, k)
		}
	}
	if len(pos) == 0 {
		return "", nil
	}
	// (1) the method beats the must-link overlay: cocluster standing in
	// for the L1 method, and l1csc, the L1 method itself.
	claim1 := func(m, rule string) Claim {
		wins, ties, count := 0, 0, 0
		var diffs []string
		for _, k := range pos {
			for _, metric := range []string{"nmi", "nmi_unknown"} {
				a, o := mean(m, k, metric), mean("cocluster-ml", k, metric)
				if math.IsNaN(a) || math.IsNaN(o) {
					continue
				}
				count++
				switch {
				case a > o+0.01:
					wins++
				case math.Abs(a-o) <= 0.01:
					ties++
				}
			}
			if a, o := mean(m, k, "nmi"), mean("cocluster-ml", k, "nmi"); !math.IsNaN(a) && !math.IsNaN(o) {
				diffs = append(diffs, fmt.Sprintf("%g%%: %.3f vs %.3f", 100*k, a, o))
			}
		}
		c := Claim{Source: "seed 001 §5.2, Fig. 4", Quote: "our approach performs much better in comparison to the baseline",
			Rule:    rule,
			Ours:    fmt.Sprintf("%d of %d comparisons (%d within ±0.01); NMI on all documents, %s vs cocluster-ml: %s", wins, count, ties, m, strings.Join(diffs, "; ")),
			Verdict: shareVerdict(wins, count)}
		c.Rule += ": " + quantBands(allOf(count), count, "comparisons (share × all or unlabelled documents)")
		fmt.Fprintf(&b, "- (1) `%s` beats the must-link overlay baseline `cocluster-ml` (NMI higher by more than 0.01, on all documents and on the unlabelled ones): **%s** in %d of %d comparisons (%d within ±0.01). NMI on all documents, `%s` vs `cocluster-ml`: %s. ",
			m, c.Verdict, wins, count, ties, m, strings.Join(diffs, "; "))
		return c
	}
	claims = append(claims, claim1("cocluster", "constrained co-clustering with must- and cannot-links (standing in for the L1 method) has a mean NMI above the must-link overlay baseline's by more than 0.01, on all documents and on the unlabelled ones, at every share of known labels"))
	b.WriteString("This tests the claim with our constrained co-clustering standing in for the L1 method: the advantage of handling cannot-links, not of the L1 penalty.\n")
	if contains(s.methods, "l1csc") {
		claims = append(claims, claim1("l1csc", "seed 001's own method (l1csc, §4) has a mean NMI above the must-link overlay baseline's by more than 0.01, on all documents and on the unlabelled ones, at every share of known labels (the stand-in's rule, applied to the paper's method when it joined the page in stop 53; a timing run of four of its cells had been seen)"))
		own0, dh := mean("l1csc", 0, "nmi"), mean("dhillon", 0, "nmi")
		fmt.Fprintf(&b, "This is the paper's method. Without constraints it already has NMI %.3f against Dhillon's %.3f: ", own0, dh)
		if own0 > dh+0.01 {
			b.WriteString("part of its lead comes from splitting by the sign of its vector instead of k-means on the singular vectors, not from the constraints (see (2) for what they add).\n")
		} else {
			b.WriteString("the two unconstrained partitions are within 0.01.\n")
		}
	}
	if contains(s.methods, "csp") {
		var cs []string
		for _, k := range pos {
			cs = append(cs, fmt.Sprintf("%g%%: %.3f vs %.3f", 100*k, mean("cocluster", k, "nmi"), mean("csp", k, "nmi")))
		}
		fmt.Fprintf(&b, "- Beside it, CSP on the bipartite graph (NMI, `cocluster` vs `csp`): %s.\n", strings.Join(cs, "; "))
	}
	if contains(s.methods, "cocluster-g1") {
		var gs []string
		differ := 0 // shares where the two differ by more than 0.01
		for _, k := range pos {
			a, g := mean("cocluster", k, "nmi_unknown"), mean("cocluster-g1", k, "nmi_unknown")
			gs = append(gs, fmt.Sprintf("%g%%: %.3f vs %.3f", 100*k, a, g))
			if math.Abs(a-g) > 0.01 {
				differ++
			}
		}
		how := fmt.Sprintf("changes the NMI on the unlabelled documents by more than 0.01 at %d of %d shares, as the paper says of additive penalties (§5.1.2)", differ, len(pos))
		if differ == 0 {
			how = fmt.Sprintf("does not change the NMI on the unlabelled documents by more than 0.01 at any of the %d shares", len(pos))
		}
		fmt.Fprintf(&b, "- The weight of the constraints (γ = 0.3 vs γ = 1) %s: %s.\n", how, strings.Join(gs, "; "))
	}
	// (2) growth with the known labels, read on the documents whose label
	// was not given: on all documents the given labels raise the NMI by
	// themselves (each labelled document is placed by its constraints).
	seqOf := func(m, metric string) []float64 {
		seq := []float64{mean(m, 0, metric)}
		for _, k := range pos {
			seq = append(seq, mean(m, k, metric))
		}
		return seq
	}
	fmtSeq := func(seq []float64) string {
		var parts []string
		for i, x := range seq {
			k := 0.0
			if i > 0 {
				k = pos[i-1]
			}
			parts = append(parts, fmt.Sprintf("%g%% %.3f", 100*k, x))
		}
		return strings.Join(parts, ", ")
	}
	growers := []string{"cocluster", "cocluster-ml"}
	if contains(s.methods, "l1csc") {
		growers = append(growers, "l1csc")
	}
	for _, m := range growers {
		seq := seqOf(m, "nmi_unknown")
		all := seqOf(m, "nmi")
		up := fig4Grows(seq)
		rule := fmt.Sprintf("the mean NMI of %s on the documents whose label was not given, starting from unconstrained Dhillon at 0%%, is non-decreasing within 0.005 over the shares of known labels "+
			"and ends above its 0%% value by more than 0.01 (the page's margin for \"beats\"). "+
			"Changed on review 53, after the cells were computed: the rule read the NMI on all 400 documents, which the given labels raise by themselves, and asked only non-decreasing within 0.005, "+
			"which a flat curve passes; under that rule the verdict is %s on all documents and %s on the unlabelled ones", m, boolVerdict(fig4Weak(all)), boolVerdict(fig4Weak(seq)))
		if m == "l1csc" {
			rule = "the mean NMI of l1csc on the documents whose label was not given, starting from l1csc without constraints at 0%, is non-decreasing within 0.005 over the shares of known labels " +
				"and ends above its 0% value by more than 0.01 (the rule of the cocluster rows, from the method's own unconstrained point; added in stop 53)"
		}
		c := Claim{Source: "seed 001 §5.2, Fig. 4", Quote: "implicitly, as in §5.1: performance grows with the percentage of known labels (paraphrase)",
			Rule:    rule,
			Ours:    "unlabelled documents: " + fmtSeq(seq) + "; all 400 documents: " + fmtSeq(all),
			Verdict: NotHeld}
		if up {
			c.Verdict = Held
		} else if fig4Weak(seq) {
			c.Reason = "flat: non-decreasing within 0.005, but the supervision does not raise the NMI of the documents it does not label"
		}
		claims = append(claims, c)
		allHow := "it rises (%s), but that rise is supplied by the given labels themselves, so the claim is read on the unlabelled documents"
		if !(all[len(all)-1] > all[0]+0.01) {
			allHow = "it does not rise either (%s): the constraints do not even place the labelled documents better than the graph does"
		}
		fmt.Fprintf(&b, "- (2) NMI of `%s` on the documents whose label was not given grows with the known labels (non-decreasing within 0.005 and more than 0.01 above 0%% at the largest share): %s — %s. "+
			"On all 400 documents "+allHow+".\n",
			m, verdictMark(c.Verdict), fmtSeq(seq), fmtSeq(all))
	}
	// The same on the documents whose label was not given: does the
	// supervision reach them?
	for _, m := range []string{"cocluster", "csp"} {
		if !contains(s.methods, m) {
			continue
		}
		base := mean("dhillon", 0, "nmi_unknown")
		var parts []string
		better := 0
		for _, k := range pos {
			x := mean(m, k, "nmi_unknown")
			if x > base+0.01 {
				better++
			}
			parts = append(parts, fmt.Sprintf("%g%% %.3f", 100*k, x))
		}
		fmt.Fprintf(&b, "- On the documents whose label was not given, `%s` beats unconstrained Dhillon (NMI %.3f) by more than 0.01 at %d of %d percentages: %s.\n", m, base, better, len(pos), strings.Join(parts, ", "))
	}
	fmt.Fprintf(&b, "- Without constraints, Dhillon's co-clustering already separates the two collections: purity %.3f, NMI %.3f; the word clusters follow the documents (share of the tf–idf weight whose word lies in its document's co-cluster: %.3f).\n\n",
		mean("dhillon", 0, "purity"), mean("dhillon", 0, "nmi"), mean("dhillon", 0, "word_weight_in_cocluster"))
	return b.String(), claims
}
