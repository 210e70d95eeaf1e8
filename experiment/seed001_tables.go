package experiment

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/metrics"
)

// seed001Tables is seed 001 (Kawale & Boley, SDM 2013) Tables 2 and 3
// (§5.1.2): the parameter each method needs, L1-CSC's λ (eq. 4.9) and the
// baseline CSP's α (eq. 3.7), to reach a fixed NMI (Table 2) or at a fixed
// share of known labels (Table 3). The paper reports the baseline's α per
// cell and states that λ ∈ [0.1, 10] reaches the same performance
// everywhere.
//
// Protocol (ours): the graphs, classes and constraints of seed001-fig2-3
// (seed001Draw: seed001Load, seed001Pairs; the same constraint sets for
// the same rep), each method run over a grid of its parameter
// (seed001LambdaGrid, seed001AlphaGrid), seed001TableReps runs per point,
// NMI averaged.
func seed001Tables() Experiment {
	graphs := &memo[string, *seed001Data]{}
	return Experiment{
		Name:   "seed001-tables2-3",
		Title:  "The parameter L1-CSC (λ) and CSP (α) need for a fixed NMI and for a fixed share of known labels",
		Source: "seed 001 §5.1.2, Tables 2 and 3",
		Cells: func(env *Env) ([]Cell, error) {
			s := seed001TablesSetupFor(env.Quick)
			var cells []Cell
			for _, ds := range s.datasets {
				if _, err := os.Stat(filepath.Join(env.DataRoot, ds)); err != nil {
					continue
				}
				for _, pct := range s.pcts {
					for rep := 0; rep < s.reps; rep++ {
						for _, m := range seed001Methods {
							for _, v := range s.grid(m) {
								ds, pct, rep, m, v := ds, pct, rep, m, v
								cells = append(cells, Cell{
									Key:  seed001TablesKey(ds, m, v, pct, rep),
									Data: []string{ds},
									Run: func(ctx context.Context) (Values, error) {
										return seed001TablesCell(ctx, env, graphs, ds, m, v, pct, rep)
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
			return seed001TablesReport(env, seed001TablesSetupFor(env.Quick), res)
		},
	}
}

// seed001LambdaGrid is L1-CSC's λ grid: the paper's range [0.1, 10] and a
// decade beyond each end, to see whether the range matters.
var seed001LambdaGrid = []float64{0.01, 0.1, 0.3, 1, 3, 10, 100}

// seed001AlphaGrid is CSP's α, as a fraction of its feasibility limit
// λ_max(Q̄)·vol (cluster.CSP.AlphaFraction; the default is 0.5). The
// paper's α is on another scale (see the page), so the fraction is what
// is compared.
var seed001AlphaGrid = []float64{0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99}

// seed001NMILevels are the lower ends of Table 2's NMI bins.
var seed001NMILevels = []float64{0.6, 0.7, 0.8, 0.9}

// seed001TableReps is the runs per point (the paper: 100; budget).
const seed001TableReps = 3

type seed001TablesSetup struct {
	datasets []string
	pcts     []float64
	reps     int
	lambdas  []float64
	alphas   []float64
}

func (s seed001TablesSetup) grid(method string) []float64 {
	if method == "l1csc" {
		return s.lambdas
	}
	return s.alphas
}

func seed001TablesSetupFor(quick bool) seed001TablesSetup {
	if quick {
		return seed001TablesSetup{datasets: []string{"wine"}, pcts: []float64{0.2, 0.4}, reps: 1,
			lambdas: []float64{0.1, 1, 10}, alphas: []float64{0.1, 0.5, 0.9}}
	}
	return seed001TablesSetup{datasets: []string{"wine", "glass", "ionosphere", "hepatitis", "wdbc"}, pcts: []float64{0.2, 0.4, 0.6, 0.8},
		reps: seed001TableReps, lambdas: seed001LambdaGrid, alphas: seed001AlphaGrid}
}

func seed001TablesKey(ds, m string, v, pct float64, rep int) string {
	return fmt.Sprintf("%s/%s/param=%g/known=%g/rep=%d", ds, m, v, pct, rep)
}

// seed001TablesCell runs one method with parameter v on constraint set rep
// of seed001-fig2-3 (clean).
func seed001TablesCell(ctx context.Context, env *Env, graphs *memo[string, *seed001Data], ds, method string, v, pct float64, rep int) (Values, error) {
	data, set, err := seed001Draw(ctx, env, graphs, ds, seed001Noise{}, pct, rep)
	if err != nil {
		return nil, err
	}
	var m cluster.Method
	switch method {
	case "l1csc":
		m = cluster.L1CSC{Lambda: v}
	case "csp":
		m = cluster.CSP{AlphaFraction: v}
	default:
		return nil, fmt.Errorf("seed001-tables2-3: unknown method %q", method)
	}
	t0 := time.Now()
	res, err := cluster.Run(ctx, m, &cluster.Problem{Graph: data.g, K: 2, Constraints: set, Disconnected: publishedDisconnected}, &cluster.Settings{Seed: env.Seed + uint64(rep)})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// A failed run (e.g. no feasible vector at a large α) is a point
		// without NMI, kept so the page can count it.
		return Values{"failed": 1, "pairs": float64(len(set.Pairs))}, nil
	}
	nmi, err := metrics.NMI(data.truth, res.Labels, metrics.Arithmetic)
	if err != nil {
		return nil, err
	}
	return Values{"nmi": nmi, "pairs": float64(len(set.Pairs)), "seconds": time.Since(t0).Seconds()}, nil
}

// seed001Published are the paper's Tables 2 and 3 (α of the baseline),
// transcribed from the seed text; "" is a blank ("the required NMI value
// was not reached"). Diabetes is not in ../shared/datasets.
var seed001PublishedT2 = map[string][4]string{
	"wine":       {"", "56.56", "88447", "2.1624e+05"},
	"glass":      {"", "", "", ""},
	"ionosphere": {"0.62", "0.82", "0.9294", "1.0325"},
	"hepatitis":  {"6.19e+07", "5.36e+09", "6.42e+09", "6.424e+09"},
	"wdbc":       {"", "1.99e+03", "6.77e+14", "6.16e+23"},
	"diabetes":   {"217", "485.50", "2.12e+03", "2.28e+03"},
}

var seed001PublishedT3 = map[string][4]string{
	"wine":       {"1.85e+02", "1.33e+03", "8.85e+04", "3.03e+05"},
	"glass":      {"3.27e+06", "3.27e+06", "3.29e+06", "4.34e+34"},
	"ionosphere": {"0.20", "0.41", "0.61", "0.82"},
	"hepatitis":  {"6.19e+07", "1.20e+05", "6.36e+09", "6.424e+09"},
	"wdbc":       {"6.77e+14", "1.53e+14", "6.16e+23", "6.16e+23"},
	"diabetes":   {"279", "346", "2.12e+03", "2.28e+03"},
}

// seed001TablesTol is the NMI slack of "reaches the same performance":
// 0.02, as seed001-fig2-3's "matches".
const seed001TablesTol = 0.02

func seed001TablesReport(env *Env, s seed001TablesSetup, res map[string]Values) (*Output, error) {
	// mean returns the mean NMI of a point over the runs that succeeded,
	// the runs, and the failures.
	mean := func(ds, m string, v, pct float64) (float64, int, int) {
		var xs []float64
		var failed int
		for r := 0; r < s.reps; r++ {
			x, ok := res[seed001TablesKey(ds, m, v, pct, r)]
			switch {
			case !ok:
			case x["failed"] > 0:
				failed++
			default:
				xs = append(xs, x["nmi"])
			}
		}
		if len(xs) == 0 {
			return nan, 0, failed
		}
		mu, _ := meanStdDev(xs)
		return mu, len(xs), failed
	}
	inRange := func(l float64) bool { return l >= 0.1 && l <= 10 }
	var b strings.Builder
	b.WriteString("# Seed 001 Tables 2 and 3: the parameter each method needs\n\n")
	b.WriteString("Regenerate with `flock /work/bench.lock go run ./cmd/tether repro seed001-tables2-3` (about 15 minutes on 2 cores).\n\n")
	b.WriteString("**Published** (seed 001 §5.1.2): Table 2 gives, per dataset and NMI bin (0.6–0.7, 0.7–0.8, 0.8–0.9, ≥ 0.9), the α the " +
		"baseline (Wang & Davidson's constrained spectral clustering, tether's `csp`) needs, with blanks where the NMI was not reached; " +
		"Table 3 gives α per share of known labels (20, 40, 60, 80%). For L1-CSC the text states that \"the λ of our method was found to be in " +
		"the range [0.1, 10] for all the datasets and for all NMI values\" and, for Table 3, that \"again λ of our approach was found to be in the " +
		"range [0.1, 10]\"; α \"goes as high as 10²³\", \"λ is much smaller than α in all cases\", and \"only in the case of the Ionosphere " +
		"dataset, the value of α is close to λ\".\n\n")
	fmt.Fprintf(&b, "**Protocol** (ours): the graphs, two-class subsets and constraint sets of [seed001-fig2-3](../seed001-fig2-3/README.md) "+
		"(every pair of the known nodes a must-link or a cannot-link, full RBF graph with σ² the mean feature variance), clean constraints, "+
		"%d run(s) per point (the paper: 100), mean NMI. L1-CSC is run at λ ∈ {%s} (the paper's range and a decade beyond each end); CSP at "+
		"α = f·λ_max(Q̄)·vol for f ∈ {%s} (cluster.CSP.AlphaFraction; f < 1 is required for a feasible vector, the default is 0.5). "+
		"**The two α are on different scales**: the paper says α is \"set to the largest eigenvalue of the normalized matrix Q\" yet reports "+
		"values from 0.2 to 4.34·10³⁴ (Table 3, glass at 80%%; the text says \"as high as 10²³\"), which no normalization of ours reproduces, so we report the fraction f of the feasibility limit, and the "+
		"claims that compare magnitudes of α and λ are marked not testable. \"Reaches\" a level means a mean NMI at least the level "+
		"(Table 2) or at least the baseline's best mean NMI over its grid minus %.2f (Table 3). A method that fails on a run (CSP: no "+
		"feasible vector) has no NMI there; failures are counted in the CSV.\n\n",
		s.reps, joinFloats(s.lambdas), joinFloats(s.alphas), seed001TablesTol)

	rows := [][]string{{"dataset", "method", "param", "known", "nmi_mean", "runs", "failed"}}
	var missing []string
	var avail []string
	for _, ds := range s.datasets {
		if _, err := os.Stat(filepath.Join(env.DataRoot, ds)); err != nil {
			missing = append(missing, ds)
			continue
		}
		avail = append(avail, ds)
		for _, m := range seed001Methods {
			for _, v := range s.grid(m) {
				for _, pct := range s.pcts {
					mu, n, f := mean(ds, m, v, pct)
					rows = append(rows, []string{ds, m, fmt.Sprint(v), fmt.Sprint(pct), f4(mu), fmt.Sprint(n), fmt.Sprint(f)})
				}
			}
		}
	}

	// Table 2: for each NMI level, the smallest parameter of each method
	// whose mean NMI reaches it at some share of known labels (and that
	// share).
	type need struct {
		v, pct float64
		ok     bool
	}
	smallest := func(ds, m string, level float64) need {
		for _, v := range s.grid(m) { // grids are increasing
			for _, pct := range s.pcts {
				if mu, _, _ := mean(ds, m, v, pct); mu >= level {
					return need{v, pct, true}
				}
			}
		}
		return need{}
	}
	// withinRange: L1-CSC reaches the level with some λ ∈ [0.1, 10].
	withinRange := func(ds string, level float64) bool {
		for _, v := range s.lambdas {
			if !inRange(v) {
				continue
			}
			for _, pct := range s.pcts {
				if mu, _, _ := mean(ds, "l1csc", v, pct); mu >= level {
					return true
				}
			}
		}
		return false
	}
	fmtNeed := func(n need) string {
		if !n.ok {
			return "–"
		}
		return fmt.Sprintf("%g (%g%%)", n.v, 100*n.pct)
	}
	b.WriteString("## Table 2: the parameter needed for a fixed NMI\n\n")
	b.WriteString("Per NMI level: the smallest grid value with which the method's mean NMI reaches the level at some share of known labels " +
		"(that share in brackets; – : not reached on the grid), and the paper's α for the baseline in the bin starting at that level.\n\n")
	b.WriteString("| dataset | NMI ≥ | L1-CSC λ | λ ∈ [0.1, 10] reaches it | CSP f | paper: α (baseline) |\n|---|---:|---:|---|---:|---:|\n")
	t2Cells, t2OK := 0, 0
	var t2Fail []string
	var smallestOut []string
	for _, ds := range avail {
		for li, level := range seed001NMILevels {
			l1 := smallest(ds, "l1csc", level)
			cs := smallest(ds, "csp", level)
			wr := withinRange(ds, level)
			pub := seed001PublishedT2[ds][li]
			if pub == "" {
				pub = "blank"
			}
			fmt.Fprintf(&b, "| %s | %.1f | %s | %s | %s | %s |\n", ds, level, fmtNeed(l1), yesNo(wr), fmtNeed(cs), pub)
			if cs.ok {
				t2Cells++
				if wr {
					t2OK++
				} else {
					t2Fail = append(t2Fail, fmt.Sprintf("%s at %.1f", ds, level))
				}
			}
			if l1.ok && !inRange(l1.v) {
				smallestOut = append(smallestOut, fmt.Sprintf("%s at %.1f: %g", ds, level, l1.v))
			}
		}
	}
	b.WriteString("\n")

	// Table 3: per share of known labels, the best mean NMI of each method
	// over its grid, the parameter giving it, and whether λ ∈ [0.1, 10]
	// reaches CSP's best.
	b.WriteString("## Table 3: the parameter at a fixed share of known labels\n\n")
	fmt.Fprintf(&b, "Per share of known labels: CSP's best mean NMI over its grid and the f giving it (the smallest on ties), CSP at its default "+
		"f = 0.5, L1-CSC's best over λ ∈ [0.1, 10] and the smallest λ in that range reaching CSP's best − %.2f, and the paper's α.\n\n", seed001TablesTol)
	b.WriteString("| dataset | known | CSP best NMI (f) | CSP f = 0.5 | L1-CSC best NMI, λ ∈ [0.1, 10] (λ) | smallest λ reaching CSP's best | L1-CSC λ = 0.01 / 100 | paper: α (baseline) |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	t3Cells, t3OK, t3Outside := 0, 0, 0
	var t3Fail []string
	for _, ds := range avail {
		for pi, pct := range s.pcts {
			bestC, bestF := math.Inf(-1), nan
			for _, f := range s.alphas {
				if mu, _, _ := mean(ds, "csp", f, pct); mu > bestC+1e-12 {
					bestC, bestF = mu, f
				}
			}
			bestL, bestLam := math.Inf(-1), nan
			reach := nan
			for _, l := range s.lambdas {
				if !inRange(l) {
					continue
				}
				mu, _, _ := mean(ds, "l1csc", l, pct)
				if mu > bestL+1e-12 {
					bestL, bestLam = mu, l
				}
				if math.IsNaN(reach) && mu >= bestC-seed001TablesTol {
					reach = l
				}
			}
			def, _, _ := mean(ds, "csp", 0.5, pct)
			lo, _, _ := mean(ds, "l1csc", 0.01, pct)
			hi, _, _ := mean(ds, "l1csc", 100, pct)
			pub := "–"
			if pi < 4 && len(s.pcts) == 4 {
				pub = seed001PublishedT3[ds][pi]
			}
			reachS := "not reached"
			if !math.IsNaN(reach) {
				reachS = fmt.Sprint(reach)
			}
			fmt.Fprintf(&b, "| %s | %g%% | %s (%g) | %s | %s (%g) | %s | %s / %s | %s |\n", ds, 100*pct, fmtARI(bestC), bestF, fmtARI(def),
				fmtARI(bestL), bestLam, reachS, fmtARI(lo), fmtARI(hi), pub)
			if !math.IsInf(bestC, -1) && !math.IsInf(bestL, -1) {
				t3Cells++
				if !math.IsNaN(reach) {
					t3OK++
				} else {
					t3Fail = append(t3Fail, fmt.Sprintf("%s at %g%% (%.3f vs %.3f)", ds, 100*pct, bestL, bestC))
					for _, l := range s.lambdas {
						if mu, _, _ := mean(ds, "l1csc", l, pct); mu >= bestC-seed001TablesTol {
							t3Outside++
							break
						}
					}
				}
			}
		}
	}
	b.WriteString("\n")
	// How much the parameter matters: the largest spread (max − min over
	// the grid) of the mean NMI at one share of known labels.
	spread := func(ds, m string) (float64, float64) {
		worst, at := 0.0, s.pcts[0]
		for _, pct := range s.pcts {
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, v := range s.grid(m) {
				if mu, _, _ := mean(ds, m, v, pct); !math.IsNaN(mu) {
					lo, hi = math.Min(lo, mu), math.Max(hi, mu)
				}
			}
			if hi-lo > worst {
				worst, at = hi-lo, pct
			}
		}
		return worst, at
	}
	var spreads []string
	var maxL, maxC float64
	for _, ds := range avail {
		l, lp := spread(ds, "l1csc")
		c, cp := spread(ds, "csp")
		maxL, maxC = max(maxL, l), max(maxC, c)
		spreads = append(spreads, fmt.Sprintf("%s: L1-CSC %.3f (at %g%%), CSP %.3f (at %g%%)", ds, l, 100*lp, c, 100*cp))
	}
	if len(spreads) > 0 {
		fmt.Fprintf(&b, "How much the parameter matters: the largest spread of the mean NMI over the grid (max − min, at one share of known labels) — %s. "+
			"With every pair of the known nodes constrained, L1-CSC's λ moves the mean NMI by at most %.3f across its four decades, CSP's f by up "+
			"to %.3f. Of the %d (dataset, share) cells of Table 3 where no λ ∈ [0.1, 10] reaches CSP's best − %.2f, a λ outside the range "+
			"(0.01 or 100) reaches it in %d.\n\n", strings.Join(spreads, "; "), maxL, maxC, len(t3Fail), seed001TablesTol, t3Outside)
	}

	// Claims.
	var claims []Claim
	c2 := Claim{Source: "seed 001 §5.1.2, Table 2",
		Quote: "The λ of our method, was found to be in the range [0.1, 10] for all the datasets and for all NMI values.",
		Rule:  "for every dataset and NMI level (0.6, 0.7, 0.8, 0.9) that CSP reaches on its grid, L1-CSC reaches it with some λ ∈ {0.1, 0.3, 1, 3, 10} at some share of known labels: " + quantBands(allOf(t2Cells), t2Cells, "(dataset, level) cells"),
		Ours:  fmt.Sprintf("%d of %d (dataset, level) cells", t2OK, t2Cells)}
	if len(t2Fail) > 0 {
		c2.Ours += "; not reached: " + strings.Join(t2Fail, ", ")
	}
	c2.Verdict = shareVerdict(t2OK, t2Cells)
	claims = append(claims, c2)
	c3 := Claim{Source: "seed 001 §5.1.2, Table 3",
		Quote: "Again λ of our approach was found to be in the range [0.1, 10].",
		Rule:  fmt.Sprintf("for every dataset and share of known labels, L1-CSC's mean NMI with some λ ∈ [0.1, 10] is at least CSP's best mean NMI over its grid minus %.2f: %s", seed001TablesTol, quantBands(allOf(t3Cells), t3Cells, "(dataset, share) cells")),
		Ours:  fmt.Sprintf("%d of %d (dataset, share) cells", t3OK, t3Cells)}
	if len(t3Fail) > 0 {
		c3.Ours += "; not reached (L1-CSC best vs CSP best): " + strings.Join(t3Fail, ", ")
	}
	c3.Verdict = shareVerdict(t3OK, t3Cells)
	claims = append(claims, c3)
	claims = append(claims, Claim{Source: "seed 001 §5.1.2, Tables 2–3",
		Quote:   "We observe here that λ is much smaller than α in all cases. The value of α goes as high as 10^23.",
		Rule:    "none: α and λ are on different scales",
		Ours:    "CSP's α is reported as the fraction f of its feasibility limit λ_max(Q̄)·vol",
		Verdict: NotTestable,
		Reason:  "the paper's α (0.2 to 4.34·10³⁴ in Table 3, although the text says \"as high as 10^23\"; said to be the largest eigenvalue of the normalized Q) has no reproducible normalization; comparing its magnitude with λ says nothing about the methods"})
	claims = append(claims, Claim{Source: "seed 001 §5.1.2, Table 2",
		Quote:   "Only in the case of the Ionosphere dataset, the value of α is close to λ.",
		Rule:    "none: α and λ are on different scales",
		Verdict: NotTestable,
		Reason:  "as above"})

	b.WriteString("## Claims\n\n")
	for _, c := range claims {
		fmt.Fprintf(&b, "- %s — \"%s\" Rule: %s. Ours: %s. **%s**", c.Source, c.Quote, c.Rule, orDash(c.Ours), c.Verdict)
		if c.Reason != "" {
			fmt.Fprintf(&b, " (%s)", c.Reason)
		}
		b.WriteString(".\n")
	}
	if len(smallestOut) > 0 {
		fmt.Fprintf(&b, "\nWhere the smallest λ reaching a level lies outside [0.1, 10] (the claim needs only some λ inside the range): %s.\n", strings.Join(smallestOut, ", "))
	}
	if len(missing) > 0 {
		fmt.Fprintf(&b, "\nNot run (not found under %s): %s.", env.DataRoot, strings.Join(missing, ", "))
	}
	b.WriteString("\nDiabetes (in the paper's tables) is neither in ../shared/datasets nor in tether's dataset catalogue: not run. " +
		"The paper's blanks in Table 2 mean the NMI of the bin was not reached (for wine at 0.6–0.7, presumably because the NMI was higher already).\n\n")
	b.WriteString("All points (mean NMI per dataset, method, parameter and share of known labels, with runs and failures) are in `seed001-tables2-3.csv`.\n")

	var buf bytes.Buffer
	if err := csv.NewWriter(&buf).WriteAll(rows); err != nil {
		return nil, err
	}
	out := &Output{Markdown: b.String(), Files: map[string][]byte{"seed001-tables2-3.csv": buf.Bytes()}, Claims: claims}
	out.Files["README.md"] = []byte(out.Markdown)
	return out, nil
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

func joinFloats(xs []float64) string {
	var ss []string
	for _, x := range xs {
		ss = append(ss, fmt.Sprint(x))
	}
	return strings.Join(ss, ", ")
}
