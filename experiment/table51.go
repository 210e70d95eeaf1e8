package experiment

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/powerlaw"
)

// Thesis Table 5.1 (seed 000 §5.1.2): samples from continuous power laws
// with α = 1.75, 2.5 and 3.5, the exponent estimated by the MLE of eq.
// 5.1.3 and by three least-squares fits of log–log histograms, each with
// its error and the KS distance of the data to the law it estimates.

// t51Version is part of every cell key: change it when a cell's definition
// changes.
const t51Version = "v1"

// t51Est is one published row of Table 5.1: estimate, error in per cent
// and KS distance, copied from the thesis (seed 000, Table 5.1).
type t51Est struct {
	est, errPct, ks float64
}

// t51Published holds Table 5.1 by α, in the order linear, linear 5-points,
// logarithmic bins, MLE. TestTable51PublishedConsistent checks that each
// published error is |est − α|/α of the published estimate.
var t51Published = []struct {
	alpha float64
	rows  [4]t51Est
}{
	{1.75, [4]t51Est{{4.69, 168, 0.95}, {0.87, 50, 0.94}, {2.66, 52, 0.89}, {1.7498, 0.01, 0.31}}},
	{2.5, [4]t51Est{{13.39, 436, 0.35}, {0.52, 79, 0.21}, {5.12, 105, 0.29}, {2.5016, 0.06, 0.01}}},
	{3.5, [4]t51Est{{15.03, 329, 0.16}, {3.31, 5, 0.02}, {8.53, 144, 0.13}, {3.4975, 0.07, 4.5e-4}}},
}

// t51Estimators are the rows of the table: value keys and names.
var t51Estimators = []struct{ key, name string }{
	{"lin", "Linear"}, {"lin5", "Linear 5-points"}, {"logbin", "Logarithmic bins"}, {"mle", "MLE"},
}

// t51EqualBins and t51LogBases are the other binnings of the sensitivity
// table: numbers of equal-width bins, bases of logarithmic bins.
var (
	t51EqualBins = []int{10, 100, 1000, 10000}
	t51LogBases  = []float64{1.5, 10}
)

// t51Params is the protocol: n samples per draw, x_min = 1, reps draws.
type t51Params struct {
	n, reps int
	xmin    float64
}

// t51Protocol returns the full or quick protocol. The thesis states
// neither n nor x_min; n = 10⁶ is what its MLE errors suggest (0.06% and
// 0.07% at α = 2.5 and 3.5 are about one standard error (α−1)/√n there),
// and x_min = 1 is the scale-free choice (every estimator is invariant to
// the scale of x when the bins scale with x_min).
func t51Protocol(quick bool) t51Params {
	if quick {
		return t51Params{n: 100_000, reps: 3, xmin: 1}
	}
	return t51Params{n: 1_000_000, reps: 10, xmin: 1}
}

func t51Key(p t51Params, alpha float64, rep int, seed uint64) string {
	return fmt.Sprintf("%s/alpha=%g/n=%d/xmin=%g/rep=%d/seed=%d", t51Version, alpha, p.n, p.xmin, rep, seed)
}

// t51Cell draws one sample and applies every estimator. A KS figure is
// left out when the estimate is ≤ 1 (no power law has that exponent).
func t51Cell(ctx context.Context, p t51Params, alpha float64, rep int, seed uint64) (Values, error) {
	src := rand.NewPCG(seed, seedStream("table5.1", strconv.FormatFloat(alpha, 'g', -1, 64), strconv.Itoa(rep)))
	x, err := powerlaw.Sample(p.n, alpha, p.xmin, false, src)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	v := Values{}
	a, se, err := powerlaw.MLE(x, p.xmin)
	if err != nil {
		return nil, err
	}
	v["mle"], v["mle_se"] = a, se
	xmax := slices.Max(x)
	fits := []struct {
		key string
		fit func() (float64, error)
	}{
		{"lin", func() (float64, error) { return powerlaw.LinearFit(x, p.xmin, 1, 0) }},
		{"lin5", func() (float64, error) { return powerlaw.LinearFit(x, p.xmin, 1, 5) }},
		{"logbin", func() (float64, error) { return powerlaw.LogBinFit(x, p.xmin, 2) }},
	}
	// Sensitivity to the bins: B equal-width bins over [x_min, max x] (the
	// width is stretched by 10⁻¹² so that max x falls in bin B−1), and log
	// bins of other bases.
	for _, b := range t51EqualBins {
		w := (xmax - p.xmin) / float64(b) * (1 + 1e-12)
		fits = append(fits,
			struct {
				key string
				fit func() (float64, error)
			}{fmt.Sprintf("lin_b%d", b), func() (float64, error) { return powerlaw.LinearFit(x, p.xmin, w, 0) }},
			struct {
				key string
				fit func() (float64, error)
			}{fmt.Sprintf("lin5_b%d", b), func() (float64, error) { return powerlaw.LinearFit(x, p.xmin, w, 5) }})
	}
	for _, base := range t51LogBases {
		fits = append(fits, struct {
			key string
			fit func() (float64, error)
		}{fmt.Sprintf("logbin_%g", base), func() (float64, error) { return powerlaw.LogBinFit(x, p.xmin, base) }})
	}
	for _, f := range fits {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		est, err := f.fit()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.key, err)
		}
		v[f.key] = est
	}
	for _, k := range []string{"mle", "lin", "lin5", "logbin"} {
		if v[k] <= 1 {
			continue
		}
		if v[k+"_ks"], err = powerlaw.KS(x, v[k], p.xmin); err != nil {
			return nil, err
		}
	}
	v["xmax"] = xmax
	return v, nil
}

// Table51 reproduces thesis Table 5.1.
func Table51() Experiment {
	alphas := []float64{1.75, 2.5, 3.5}
	return Experiment{
		Name:   "table5.1",
		Title:  "power-law exponent: MLE vs linear fits of log–log histograms",
		Source: "seed 000 Table 5.1 (§5.1.2)",
		Cells: func(env *Env) ([]Cell, error) {
			p := t51Protocol(env.Quick)
			var cells []Cell
			for _, a := range alphas {
				for rep := range p.reps {
					cells = append(cells, Cell{Key: t51Key(p, a, rep, env.Seed), Run: func(ctx context.Context) (Values, error) {
						return t51Cell(ctx, p, a, rep, env.Seed)
					}})
				}
			}
			return cells, nil
		},
		Report: func(env *Env, results map[string]Values) (*Output, error) {
			return t51Report(env, alphas, results)
		},
	}
}

// t51Summary is one estimator at one α over the repetitions.
type t51Summary struct {
	est, ks  meanSD
	errPct   float64 // |mean estimate − α|/α in per cent
	maxErr   float64 // largest |estimate − α|/α over the repetitions, per cent
	ksMissed int     // repetitions without a KS figure (estimate ≤ 1)
	reps     int
}

func t51Summarize(results map[string]Values, p t51Params, alpha float64, seed uint64, key string) t51Summary {
	var est, ks []float64
	s := t51Summary{}
	for rep := range p.reps {
		v, ok := results[t51Key(p, alpha, rep, seed)]
		if !ok {
			continue
		}
		s.reps++
		est = append(est, v[key])
		s.maxErr = max(s.maxErr, 100*math.Abs(v[key]-alpha)/alpha)
		if d, ok := v[key+"_ks"]; ok {
			ks = append(ks, d)
		} else {
			s.ksMissed++
		}
	}
	s.est, s.ks = summarize(est), summarize(ks)
	s.errPct = 100 * math.Abs(s.est.mean-alpha) / alpha
	return s
}

// t51Fmt formats a figure with a precision that shows its size.
func t51Fmt(x float64) string {
	switch {
	case math.IsNaN(x):
		return "—"
	case x != 0 && math.Abs(x) < 0.01:
		return strconv.FormatFloat(x, 'e', 1, 64)
	case math.Abs(x) < 10:
		return strconv.FormatFloat(x, 'f', 4, 64)
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}

func t51KS(s t51Summary) string {
	if s.ks.mean != s.ks.mean { // NaN: no repetition had an estimate > 1
		return "n/a (α̂ ≤ 1)"
	}
	out := t51Fmt(s.ks.mean)
	if s.ksMissed > 0 {
		out += fmt.Sprintf(" (%d of %d with α̂ ≤ 1: none)", s.ksMissed, s.reps)
	}
	return out
}

func t51Report(env *Env, alphas []float64, results map[string]Values) (*Output, error) {
	p := t51Protocol(env.Quick)
	mode := ""
	if env.Quick {
		mode = " -quick"
	}
	var md, csv bytes.Buffer
	fmt.Fprintf(&md, "# Thesis Table 5.1: estimating a power-law exponent (seed 000 §5.1.2)\n\n")
	fmt.Fprintf(&md, "Regenerate with `tether repro%s table5.1`.\n\n", mode)
	fmt.Fprintf(&md, "Each α: %d independent samples of n = %d values from the continuous power law of thesis eq. 5.1.2 with x_min = %g "+
		"(powerlaw.Sample, inverse transform; seed %d). The thesis states neither n nor x_min: n = 10⁶ is what its MLE errors suggest "+
		"(0.06%% and 0.07%% at α = 2.5 and 3.5 are about one standard error (α−1)/√n at n = 10⁶), and it reports one sample per α, "+
		"where we give the mean ± standard deviation over the samples. ", p.reps, p.n, p.xmin, env.Seed)
	md.WriteString("Estimators (package powerlaw): **MLE** is eq. 5.1.3 with x_min known; **Linear** is the least-squares line through " +
		"(ln x, ln count) of the raw histogram with unit-width bins [x_min + j, x_min + j + 1), every non-empty bin, x the bin's left edge; " +
		"**Linear 5-points** the same through the first five non-empty bins; **Logarithmic bins** the line through " +
		"(ln of the geometric centre, ln count/width) of bins [2^j, 2^{j+1}). The thesis does not give its bins; these are the usual choices " +
		"(unit bins are the values themselves for integer data such as cluster sizes; base-2 bins are Newman 2005's). α̂ = −slope. " +
		"The error is |mean α̂ − α|/α. KS is the Kolmogorov–Smirnov distance max |F_n − F_α̂| between the sample and the power law with the " +
		"estimated exponent (undefined when α̂ ≤ 1).\n\n")
	md.WriteString("| α | estimator | thesis α̂ | thesis error | thesis KS | our α̂ (mean ± sd) | our error | largest error | our KS |\n")
	md.WriteString("|---:|---|---:|---:|---:|---:|---:|---:|---:|\n")
	fmt.Fprintf(&csv, "# tether repro%s table5.1\nalpha,estimator,reps,n,estimate_mean,estimate_sd,error_pct,max_error_pct,ks_mean,ks_sd,thesis_estimate,thesis_error_pct,thesis_ks\n", mode)
	sum := map[string]map[float64]t51Summary{}
	for ai, a := range alphas {
		for ei, e := range t51Estimators {
			s := t51Summarize(results, p, a, env.Seed, e.key)
			if sum[e.key] == nil {
				sum[e.key] = map[float64]t51Summary{}
			}
			sum[e.key][a] = s
			pub := t51Published[ai].rows[ei]
			alphaCell := ""
			if ei == 0 {
				alphaCell = strconv.FormatFloat(a, 'g', -1, 64)
			}
			if s.reps == 0 {
				fmt.Fprintf(&md, "| %s | %s | %g | %g%% | %g | — | — | — | — |\n", alphaCell, e.name, pub.est, pub.errPct, pub.ks)
				continue
			}
			fmt.Fprintf(&md, "| %s | %s | %g | %g%% | %g | %s ± %s | %s%% | %s%% | %s |\n", alphaCell, e.name, pub.est, pub.errPct, pub.ks,
				t51Fmt(s.est.mean), t51Fmt(s.est.sd), t51Fmt(s.errPct), t51Fmt(s.maxErr), t51KS(s))
			fmt.Fprintf(&csv, "%g,%s,%d,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%g,%g,%g\n", a, e.key, s.reps, p.n, s.est.mean, s.est.sd, s.errPct, s.maxErr, s.ks.mean, s.ks.sd, pub.est, pub.errPct, pub.ks)
		}
	}
	var sensKeys []string
	for _, b := range t51EqualBins {
		sensKeys = append(sensKeys, fmt.Sprintf("lin_b%d", b), fmt.Sprintf("lin5_b%d", b))
	}
	for _, base := range t51LogBases {
		sensKeys = append(sensKeys, fmt.Sprintf("logbin_%g", base))
	}
	for _, a := range alphas {
		for _, k := range sensKeys {
			s := t51Summarize(results, p, a, env.Seed, k)
			if sum[k] == nil {
				sum[k] = map[float64]t51Summary{}
			}
			sum[k][a] = s
			if s.reps > 0 {
				fmt.Fprintf(&csv, "%g,%s,%d,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,,,\n", a, k, s.reps, p.n, s.est.mean, s.est.sd, s.errPct, s.maxErr, s.ks.mean, s.ks.sd)
			}
		}
	}

	// The claims.
	md.WriteString("\n## Which published claims hold here\n\n")
	// Each verdict the page writes is its claim's
	// (TestPageProseVerdictsMatchClaims); a part of a claim (one linear
	// fit of three) says "holds" or "fails", not in bold.
	part := func(ok bool) string {
		if ok {
			return "holds"
		}
		return "fails"
	}
	complete := true
	for _, m := range sum {
		for _, s := range m {
			complete = complete && s.reps == p.reps
		}
	}
	if !complete {
		md.WriteString("Some cells are missing; the verdicts below use the samples that ran.\n\n")
	}
	// 1. MLE within 1%.
	var mleErrs []string
	mleOK := 0 // exponents whose every sample has an MLE error below 1%
	for _, a := range alphas {
		s := sum["mle"][a]
		if s.reps > 0 && s.maxErr < 1 {
			mleOK++
		}
		mleErrs = append(mleErrs, fmt.Sprintf("α = %g: largest error %s%%, mean α̂ %s, standard error (α−1)/√n = %s",
			a, t51Fmt(s.maxErr), t51Fmt(s.est.mean), t51Fmt((a-1)/math.Sqrt(float64(p.n)))))
	}
	const src = "thesis (seed 000) §5.1.2, Table 5.1"
	claims := []Claim{{Source: src, Quote: "the MLE reports values very close to α (paraphrase; its errors: 0.01%–0.07%)",
		Rule: "the MLE's error is below 1% on every sample, at each α: " + quantBands(allOf(len(alphas)), len(alphas), "exponents α"), Ours: strings.Join(mleErrs, "; "),
		Verdict: shareVerdict(mleOK, len(alphas))}}
	fmt.Fprintf(&md, "1. *The MLE reports values very close to α (thesis: errors 0.01%%–0.07%%; the rule here: within 1%%).* %s on every sample at %d of the %d exponents: %s.\n",
		verdictMark(claims[0].Verdict), mleOK, len(alphas), strings.Join(mleErrs, "; "))
	linOK := 0
	// 2. Linear fits biased.
	var verdicts []string
	for _, e := range t51Estimators[:3] {
		ok := true
		var parts []string
		for _, a := range alphas {
			s := sum[e.key][a]
			ok = ok && s.reps > 0 && s.errPct > 5
			sem := s.est.sd / math.Sqrt(float64(max(s.reps, 1)))
			parts = append(parts, fmt.Sprintf("%s%% at α = %g (bias %s ± %s, %.0f× the MLE's error)", t51Fmt(s.errPct), a,
				t51Fmt(s.est.mean-a), t51Fmt(sem), s.errPct/math.Max(sum["mle"][a].errPct, 1e-9)))
		}
		verdicts = append(verdicts, fmt.Sprintf("%s for %s: %s", part(ok), strings.ToLower(e.name), strings.Join(parts, ", ")))
		if ok {
			linOK++
		}
	}
	claims = append(claims, Claim{Source: src, Quote: "estimators based on linear regression report values with large errors (paraphrase; its errors: 5% to 436%)",
		Rule: "each linear fit (raw histogram, its first 5 points, log bins) has a mean error above 5% at every α: " + quantBands(allOf(3), 3, "linear fits"), Ours: strings.Join(verdicts, "; "),
		Verdict: shareVerdict(linOK, 3), Reason: fmt.Sprintf("held for %d of the 3 linear fits", linOK)})
	fmt.Fprintf(&md, "2. *Estimators based on linear regression report values with large errors (thesis: 5%% to 436%%).* Large meaning above 5%%, the smallest published error: %s "+
		"(for %d of the 3 linear fits): it %s.", verdictMark(claims[1].Verdict), linOK, strings.Join(verdicts, "; it "))
	over, under := 0, 0
	for _, a := range alphas {
		for _, e := range t51Estimators[:2] {
			if sum[e.key][a].est.mean > a {
				over++
			} else {
				under++
			}
		}
	}
	fmt.Fprintf(&md, " The direction of the raw-histogram bias differs from the thesis's: its full-histogram fits overestimate α (4.69, 13.39, 15.03), "+
		"ours overestimate in %d and underestimate in %d of the 6 raw-histogram cases. The sparse tail, a long floor of counts 0 or 1 of which only the "+
		"1s can be plotted, flattens an unweighted line. No binning we tried gives the thesis's overestimates (sensitivity table below), nor its "+
		"log-bin figures (2.66, 5.12, 8.53): on samples this large, log-binned densities lie close to the line and their fit is nearly right.\n", over, under)
	// 3. Five points most accurate.
	fiveOK := 0 // exponents where the 5-points fit is the most accurate
	var fiveParts []string
	for _, a := range alphas {
		best := ""
		bestErr := math.Inf(1)
		for _, e := range t51Estimators[:3] {
			if s := sum[e.key][a]; s.errPct < bestErr {
				best, bestErr = e.name, s.errPct
			}
		}
		if best == "Linear 5-points" {
			fiveOK++
		}
		fiveParts = append(fiveParts, fmt.Sprintf("α = %g: %s (%s%%)", a, strings.ToLower(best), t51Fmt(bestErr)))
	}
	claims = append(claims, Claim{Source: src, Quote: "the first-5-points fit is the most accurate of the linear fits (paraphrase)",
		Rule: "the linear 5-points fit has the smallest mean error of the linear fits at every α: " + quantBands(allOf(len(alphas)), len(alphas), "exponents α"), Ours: strings.Join(fiveParts, "; "),
		Verdict: shareVerdict(fiveOK, len(alphas))})
	fmt.Fprintf(&md, "3. *The first-5-points fit is the most accurate of the linear fits (thesis text; its table: 50%%, 79%%, 5%% against 52%%, 105%%, 144%% for log bins).* %s: the most accurate linear fit is %s.\n",
		verdictMark(claims[2].Verdict), strings.Join(fiveParts, "; "))
	// 4. KS fails for the linear fits.
	ksLinOK, ksLinN := 0, 0 // (fit, α) whose mean KS distance exceeds the critical value, of those with one
	crit := 1.36 / math.Sqrt(float64(p.n))
	var ksParts []string
	for _, a := range alphas {
		for _, e := range t51Estimators[:3] {
			s := sum[e.key][a]
			if s.ks.mean == s.ks.mean {
				ksLinN++
				if s.ks.mean > crit {
					ksLinOK++
				}
			}
		}
		ksParts = append(ksParts, fmt.Sprintf("α = %g: %s, %s, %s", a, t51KS(sum["lin"][a]), t51KS(sum["lin5"][a]), t51KS(sum["logbin"][a])))
	}
	claims = append(claims, Claim{Source: src, Quote: "the KS test fails for every linear-fit estimate (paraphrase)",
		Rule: fmt.Sprintf("every linear fit's mean KS distance exceeds the 5%% critical value 1.36/√n = %s, at each α: %s", t51Fmt(crit), quantBands(allOf(ksLinN), ksLinN, "(fit, α) with a KS distance")),
		Ours: strings.Join(ksParts, "; "), Verdict: shareVerdict(ksLinOK, ksLinN)})
	ksHow := "all far above"
	if ksLinOK < ksLinN {
		ksHow = fmt.Sprintf("%d of the %d above", ksLinOK, ksLinN)
	}
	fmt.Fprintf(&md, "4. *The KS test fails for every linear-fit estimate.* %s: their KS distances (linear, 5-points, log bins) are %s, %s the 5%% critical value 1.36/√n = %s of a fully specified law.\n",
		verdictMark(claims[3].Verdict), strings.Join(ksParts, "; "), ksHow, t51Fmt(crit))
	// 5. KS of the MLE large at 1.75.
	var mleKS []string
	large := sum["mle"][1.75].ks.mean > 10*sum["mle"][2.5].ks.mean
	for _, a := range alphas {
		s := sum["mle"][a]
		mleKS = append(mleKS, fmt.Sprintf("α = %g: %s (√n·D = %.2f)", a, t51Fmt(s.ks.mean), s.ks.mean*math.Sqrt(float64(p.n))))
	}
	claims = append(claims, Claim{Source: src, Quote: "the KS figure of the MLE is particularly large at α = 1.75 (0.31) and small for α ≥ 2 (0.01, 4.5·10⁻⁴), because the mean diverges for α < 2 (paraphrase)",
		Rule: "the MLE's mean KS distance at α = 1.75 is more than 10 times that at α = 2.5", Ours: strings.Join(mleKS, "; "), Verdict: boolVerdict(large)})
	fmt.Fprintf(&md, "5. *The KS figure of the MLE is particularly large at α = 1.75 (0.31) and small for α ≥ 2 (0.01, 4.5·10⁻⁴), because the mean diverges for α < 2.* %s: ours is %s.\n\n",
		verdictMark(claims[4].Verdict), strings.Join(mleKS, "; "))
	md.WriteString("**Why our KS figures differ from the thesis's.** For a continuous law, the distribution of D = max |F_n − F| when F is the true law " +
		"does not depend on F at all (F(X) is uniform): √n·D follows Kolmogorov's distribution (mean ≈ 0.87, 95% quantile 1.36) whatever α, " +
		"a diverging mean included, and fitting α by maximum likelihood only makes D smaller. So at any α the MLE's D is about 0.87/√n — " +
		"what we measure at all three exponents — and a D of 0.31 is out of reach for a correctly fitted sample of more than a few dozen values. " +
		"The thesis's explanation (arbitrarily large values when α < 2) does not apply to D, which depends only on ranks. Its 0.31, 0.01 and " +
		"4.5·10⁻⁴ decrease with α, as the weight of the far tail does, which suggests its KS was computed on something that loses the tail: " +
		"a truncated sample or range, or a histogram. We cannot tell which from the text; our figures are the KS distance as the thesis defines it " +
		"(§5.1.2, D_α = max_x |P_emp(x) − P_α(x)|).\n\n")

	md.WriteString("## Sensitivity of the graphical estimates to the bins\n\n")
	fmt.Fprintf(&md, "The same samples; α̂ (mean over %d samples) from the raw histogram with B equal-width bins over [x_min, max x] "+
		"(full and first 5 non-empty bins, x at the left edge) and from logarithmic bins of other bases.\n\n", p.reps)
	md.WriteString("| α | largest value (mean) |")
	for _, b := range t51EqualBins {
		fmt.Fprintf(&md, " B = %d full | B = %d 5-pt |", b, b)
	}
	for _, base := range t51LogBases {
		fmt.Fprintf(&md, " log bins base %g |", base)
	}
	md.WriteString("\n|---:|---:|" + strings.Repeat("---:|", 2*len(t51EqualBins)+len(t51LogBases)) + "\n")
	for _, a := range alphas {
		var xm []float64
		for rep := range p.reps {
			if v, ok := results[t51Key(p, a, rep, env.Seed)]; ok {
				xm = append(xm, v["xmax"])
			}
		}
		if len(xm) == 0 {
			continue
		}
		fmt.Fprintf(&md, "| %g | %.3g |", a, summarize(xm).mean)
		for _, k := range sensKeys {
			fmt.Fprintf(&md, " %.2f |", sum[k][a].est.mean)
		}
		md.WriteString("\n")
	}
	minErr := math.Inf(1)
	for _, a := range alphas {
		for _, k := range sensKeys {
			if strings.HasPrefix(k, "lin") && sum[k][a].reps > 0 {
				minErr = min(minErr, 100*math.Abs(sum[k][a].est.mean-a)/a)
			}
		}
	}
	fmt.Fprintf(&md, "\nThe raw-histogram estimates move with the binning and miss α by %.0f%% or more in every column; the log-binned ones are close "+
		"for every base on samples this large. Either way the estimate depends on a choice the MLE does not have to make.\n", minErr)
	return &Output{Markdown: md.String(), Files: map[string][]byte{"table5.1.csv": csv.Bytes()}, Claims: claims}, nil
}
