package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/internal/inputfile"
	"github.com/tether-sc/tether/internal/suggest"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/powerlaw"
)

const powerlawUsage = `powerlaw fit|sample [flags]

  fit     fit a power law to a file of values (one per line): the MLE of
          thesis eq. 5.1.3 (or the exact discrete MLE), x_min by KS
          minimization, optionally a bootstrap goodness-of-fit p-value
  sample  draw values from a power law

Run "tether powerlaw <command> -h" for the flags of each.`

// runPowerlaw implements "tether powerlaw".
func runPowerlaw(ctx context.Context, m *Main, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		if len(args) == 0 {
			fmt.Fprint(m.Stderr, citeSources("Usage: tether "+powerlawUsage+"\n"))
			return usagef("powerlaw", "no command (fit or sample)")
		}
		// Help asked for: standard output, as -h prints it.
		fmt.Fprint(m.Stdout, citeSources("Usage: tether "+powerlawUsage+"\n"))
		return nil
	}
	switch args[0] {
	case "fit":
		return runPowerlawFit(ctx, m, args[1:])
	case "sample":
		return runPowerlawSample(ctx, m, args[1:])
	}
	// A mistyped command gets the error alone, which lists the
	// commands, as tether's own do (Main.Run).
	return usagef("powerlaw", "unknown command %q%s (want fit or sample)", args[0], suggest.Hint(args[0], []string{"fit", "sample"}))
}

const plFitUsage = `powerlaw fit -input FILE [-discrete] [-xmin auto|VALUE] [-xmin-budget N] [-bootstrap N] [-seed S] [-json] [-quiet]

Fits p(x) ∝ x^−α for x ≥ x_min to the values of FILE (one number per line,
with a decimal point; blank lines, whole-line '#' or '%' comments — not a
comment after a value — and a first line of words that begins with a letter,
a header, are skipped, the header with a note; a first line that is a
malformed number, such as 3x, is an error; "-" reads standard input). Every
value must be positive; with -discrete, an integer ≥ 1 (cluster sizes,
counts). When every value is an integer and -discrete is not given, a note
suggests it: the continuous law only approximates integer data (Clauset et
al. §3).

  continuous  α̂ = 1 + n(Σ ln(x_i/x_min))⁻¹, thesis eq. 5.1.3, standard
              error (α̂−1)/√n
  -discrete   the exact maximum of the discrete likelihood x^−α/ζ(α, x_min)
              (Clauset, Shalizi & Newman 2009, eq. 3.5), standard error
              1/√(n·Var ln X)

-xmin auto chooses x_min among the data's distinct values by minimizing the
Kolmogorov–Smirnov distance between the tail and the law fitted to it
(Clauset et al. §3.3): every value is tried when the tails sum to at most
-xmin-budget values (about 10⁴ distinct values by default), giving the
minimum over all; beyond, a coarse-to-fine search (values spaced in rank and
in log x, then every value around the best ones), which can miss a narrow
minimum: the output then says how many of the candidates were tried.

-bootstrap N adds the semi-parametric bootstrap p-value of Clauset et al.
§4.1 over N synthetic data sets, each fitted like the data (x_min chosen
the same way); p ≤ 0.1 rules the power law out. The verdict is marked weak
when more than 10% of the synthetic sets could not be fitted or the tail
holds fewer than 50 values (the test has little power). The choice of x_min
and the bootstrap report their progress on standard error when they take
more than a second (not with -quiet).`

// plFitReport is the JSON form of "tether powerlaw fit".
type plFitReport struct {
	File         string  `json:"file"`
	N            int     `json:"n"`
	NTail        int     `json:"n_tail"`
	Xmin         float64 `json:"xmin"`
	XminSelected bool    `json:"xmin_selected"`
	Candidates   int     `json:"xmin_candidates"`
	// Eligible is the number of candidate x_min values, all of them tried
	// when Candidates equals it (powerlaw.Result.Eligible).
	Eligible int  `json:"xmin_eligible"`
	Discrete bool `json:"discrete"`
	// Alpha, StdErr and KS are null when not a finite number (a standard
	// error the discrete fit cannot estimate is NaN).
	Alpha     jsonNumber `json:"alpha"`
	StdErr    jsonNumber `json:"stderr"`
	KS        jsonNumber `json:"ks"`
	Bootstrap int        `json:"bootstrap,omitempty"`
	Seed      *uint64    `json:"seed,omitempty"` // with Bootstrap, even 0
	P         *float64   `json:"p,omitempty"`
	// Unfitted and Redrawn are powerlaw.GOF's: synthetic sets that could
	// not be fitted (counted as exceeding), and tail values drawn beyond
	// the largest float64 and drawn again.
	Unfitted int `json:"unfitted,omitempty"`
	Redrawn  int `json:"redrawn,omitempty"`
	// Weak, with Bootstrap, says why the verdict is weak (weakVerdict),
	// empty when it is not.
	Weak string `json:"weak,omitempty"`
}

// Thresholds of weakVerdict.
const (
	// weakUnfitted is the share of unfitted synthetic sets above which the
	// p-value says more about the fit's failures than about the data.
	weakUnfitted = 0.1
	// weakTail is the tail size below which the bootstrap has little power
	// (Clauset et al. 2009, §4.1: with n ≲ 50 a power law is rarely ruled
	// out, even for data drawn from another law).
	weakTail = 50
)

// weakVerdict returns why the bootstrap verdict of g is weak, or "": more
// than weakUnfitted of the synthetic sets unfitted (each counted as
// exceeding, which pushes p up), or a tail of fewer than weakTail values.
// Cost O(1).
func weakVerdict(g *powerlaw.GOF) string {
	var why []string
	if float64(g.Unfitted) > weakUnfitted*float64(g.Reps) {
		why = append(why, fmt.Sprintf("%d of %d synthetic sets (%.0f%%) could not be fitted and count as exceeding, which raises p", g.Unfitted, g.Reps, 100*float64(g.Unfitted)/float64(g.Reps)))
	}
	if g.Fit.NTail < weakTail {
		why = append(why, fmt.Sprintf("the tail holds only %s: the test has little power either way (%d or more wanted)", wording.Count(g.Fit.NTail, "value", "values"), weakTail))
	}
	return strings.Join(why, "; ")
}

// allIntegerValues reports whether every value of x is an integer. Cost O(n).
func allIntegerValues(x []float64) bool {
	for _, v := range x {
		if v != math.Trunc(v) {
			return false
		}
	}
	return len(x) > 0
}

// decimalComma matches a value of a reading error written with a decimal
// comma, such as "1,5".
var decimalComma = regexp.MustCompile(`value "[-+]?[0-9]*,[0-9]+"`)

// decimalCommaHint adds to a reading error of a value such as "1,5" that
// the decimal separator is a point.
func decimalCommaHint(err error) error {
	if err != nil && decimalComma.MatchString(err.Error()) {
		return fmt.Errorf("%w (the decimal separator is a point: write 1.5, not 1,5)", err)
	}
	return err
}

// noCandidateHint is the hint added to an error of the choice of x_min
// that found no candidate: give x_min.
func noCandidateHint(err error) string {
	if errors.Is(err, powerlaw.ErrNoCandidate) {
		return " (give -xmin VALUE to fit the values ≥ VALUE)"
	}
	return ""
}

// jsonNumber is a float64 that JSON writes as null when it is NaN or
// infinite: encoding/json refuses those, and with them the whole report
// ("json: unsupported value: +Inf").
type jsonNumber float64

// MarshalJSON writes f as encoding/json writes a float64, or null.
func (f jsonNumber) MarshalJSON() ([]byte, error) {
	if v := float64(f); !math.IsNaN(v) && !math.IsInf(v, 0) {
		return json.Marshal(v)
	}
	return []byte("null"), nil
}

// runPowerlawFit implements "tether powerlaw fit".
func runPowerlawFit(ctx context.Context, m *Main, args []string) (err error) {
	fs := m.newFlagSet("powerlaw fit", plFitUsage)
	var input, xminFlag string
	var boot int
	var seed uint64
	var asJSON, quiet bool
	opt := powerlaw.Options{}
	fs.StringVar(&input, "input", "", "`file` of values, one per line (\"-\": standard input)")
	fs.BoolVar(&opt.Discrete, "discrete", false, "integer data: the discrete power law and its exact MLE")
	fs.StringVar(&xminFlag, "xmin", "auto", "lower bound of the power law: auto (KS minimization) or a `value`")
	fs.Int64Var(&opt.ScanBudget, "xmin-budget", powerlaw.DefaultScanBudget, "with -xmin auto, the most tail values summed over the candidates for which every distinct value is tried (a coarse-to-fine search beyond)")
	fs.Var(intIn(&boot, 0, powerlaw.MaxReps), "bootstrap", "bootstrap replicates for the goodness-of-fit p-value (0: none)")
	fs.Uint64Var(&seed, "seed", 1, "seed of the bootstrap")
	fs.BoolVar(&asJSON, "json", false, "write the result as JSON")
	fs.BoolVar(&quiet, "quiet", false, "no progress messages and no notes")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef(cmdName(fs), "unexpected argument %q%s (%s)", pos[0], fileArgHint(pos, "-input "+pos[0]), usageHint(fs))
	}
	if input == "" {
		return usagef(cmdName(fs), "-input is required (%s)", usageHint(fs))
	}
	defer func() { err = nameFileFlag(err, []pathFlag{{"-input", input}}) }()
	if opt.ScanBudget < 1 {
		return usagef(cmdName(fs), "-xmin-budget %d: want ≥ 1 (%s)", opt.ScanBudget, usageHint(fs))
	}
	if xminFlag != "auto" {
		v, err := strconv.ParseFloat(xminFlag, 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) || (opt.Discrete && (v != math.Trunc(v) || v < 1)) {
			want := "auto or a finite number > 0"
			if opt.Discrete {
				want = "auto or an integer ≥ 1 (with -discrete)"
			}
			return usagef(cmdName(fs), "-xmin %q: want %s (%s)", xminFlag, want, usageHint(fs))
		}
		opt.Xmin = v
	}
	var d *dataset.ValueData
	name := input
	if input == "-" {
		// The reader polls ctx, and the cancellation ends a read of
		// standard input that waits for data (a terminal, a pipe whose
		// writer is slow), as it does for the files (inputfile).
		name = "<stdin>"
		r := m.Stdin
		if f, ok := r.(*os.File); ok {
			in := inputfile.Reopen(ctx, f)
			defer in.Close()
			r = in
		}
		if d, err = dataset.ReadValuesContext(ctx, r, name, dataset.ValueOptions{}); err != nil {
			return decimalCommaHint(err)
		}
	} else if d, err = dataset.ReadValuesFileContext(ctx, input, dataset.ValueOptions{}); err != nil {
		return decimalCommaHint(err)
	}
	if d.Header != "" && !quiet {
		fmt.Fprintf(m.Stderr, "tether powerlaw fit: note: %s:%d, %q, read as a header and skipped\n", name, d.HeaderLine, d.Header)
	}
	for i, v := range d.Values {
		switch {
		case !(v > 0):
			return fmt.Errorf("%s:%d: value %v: not positive (a power law lives on x > 0)", name, d.Lines[i], v)
		case opt.Discrete && v != math.Trunc(v):
			return fmt.Errorf("%s:%d: value %v: not an integer (-discrete)", name, d.Lines[i], v)
		}
	}
	if !opt.Discrete && !quiet && allIntegerValues(d.Values) {
		fmt.Fprintf(m.Stderr, "tether powerlaw fit: note: every value is an integer: -discrete fits the discrete power law x^-α/ζ(α, x_min), which the continuous fit only approximates (Clauset, Shalizi & Newman 2009, §3)\n")
	}
	rep := plFitReport{File: input, Discrete: opt.Discrete, XminSelected: opt.Xmin == 0}
	var res *powerlaw.Result
	rec := m.recorder(ctx, quiet)
	opt.Recorder = rec
	done := rec.step("powerlaw fit")
	if boot > 0 {
		g, err := powerlaw.GoodnessOfFit(ctx, d.Values, &opt, powerlaw.Bootstrap{Reps: boot, Seed: seed, Recorder: rec})
		done()
		if err != nil {
			return fmt.Errorf("%s: %w%s", name, err, noCandidateHint(err))
		}
		res = g.Fit
		rep.Bootstrap, rep.Seed, rep.P = boot, &seed, &g.P
		rep.Unfitted, rep.Redrawn = g.Unfitted, g.Redrawn
		rep.Weak = weakVerdict(g)
	} else {
		// FitContext stops between candidates x_min when ctx is
		// cancelled; untilDone returns at once even so.
		err := untilDone(ctx, func() (err error) {
			res, err = powerlaw.FitContext(ctx, d.Values, &opt)
			return err
		})
		done()
		if err != nil {
			return fmt.Errorf("%s: %w%s", name, err, noCandidateHint(err))
		}
	}
	rep.N, rep.NTail, rep.Xmin, rep.Candidates, rep.Eligible = res.N, res.NTail, res.Xmin, res.Candidates, res.Eligible
	rep.Alpha, rep.StdErr, rep.KS = jsonNumber(res.Alpha), jsonNumber(res.StdErr), jsonNumber(res.KS)
	if asJSON {
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', 0)
	method := "continuous MLE (thesis eq. 5.1.3)"
	if opt.Discrete {
		method = "discrete MLE (x^-α/ζ(α, x_min), Clauset et al. eq. 3.5)"
	}
	fmt.Fprintf(tw, "file\t%s\n", input)
	fmt.Fprintf(tw, "values\t%d\n", rep.N)
	how := "given"
	if rep.XminSelected {
		switch {
		case rep.Candidates < rep.Eligible:
			how = fmt.Sprintf("selected by KS minimization over %d of %d candidates, coarse to fine; a larger -xmin-budget tries them all", rep.Candidates, rep.Eligible)
		case rep.Candidates == 1:
			how = "the only candidate"
		default:
			how = fmt.Sprintf("selected by KS minimization over all %d candidates", rep.Candidates)
		}
	}
	fmt.Fprintf(tw, "x_min\t%g (%s)\n", rep.Xmin, how)
	fmt.Fprintf(tw, "tail\t%d values ≥ x_min\n", rep.NTail)
	fmt.Fprintf(tw, "alpha\t%.6g ± %.2g (standard error)\t%s\n", rep.Alpha, rep.StdErr, method)
	fmt.Fprintf(tw, "KS\t%.4g\n", rep.KS)
	if rep.P != nil {
		verdict := "the power law is plausible (p > 0.1)"
		if *rep.P <= 0.1 {
			verdict = "the power law is ruled out (p ≤ 0.1)"
		}
		fmt.Fprintf(tw, "p\t%.3f\t%d bootstrap replicates, seed %d: %s\n", *rep.P, boot, seed, verdict)
		if rep.Unfitted > 0 {
			fmt.Fprintf(tw, "unfitted\t%d\tsynthetic sets that could not be fitted, counted as exceeding\n", rep.Unfitted)
		}
		if rep.Weak != "" {
			fmt.Fprintf(tw, "weak\t\tthe verdict is weak: %s\n", rep.Weak)
		}
		if rep.Redrawn > 0 {
			fmt.Fprintf(tw, "redrawn\t%d\tsynthetic values beyond the largest float64, drawn again: %s\n", rep.Redrawn, redrawCause(float64(rep.Alpha), rep.Xmin))
		}
	}
	return tw.Flush()
}

// redrawCause says why the bootstrap of a power law fitted with alpha and
// xmin redraws values, and how often: a draw exceeds the largest float64
// M with probability p = (M/x_min)^{1−α} = exp(−(α−1)·ln(M/x_min))
// (powerlaw.Sampler.OverflowProb), not negligible only when the product
// (α−1)·ln(M/x_min) is small. Which factor makes it small is judged
// against a typical law's, α − 1 = 1 (α = 2, the low end of the 2 < α < 3
// Clauset et al. 2009 find usual) and ln(M/x_min) = ln M ≈ 709.8 (x_min =
// 1): the product is ln M·e^{−(sα+sx)}, with the shortfalls sα = −ln(α−1)
// and sx = ln(ln M/ln(M/x_min)) (+∞ when its factor is not positive). The
// cause named is the factor with the larger shortfall: α "close to 1", or
// x_min "within a factor M/x_min" of M; both when the smaller shortfall is
// positive and at least half the larger (at least a third of their sum);
// neither when no shortfall is positive (then p ≤ 1/M).
// So α = 1.01 (sα = 4.6) with x_min = 1e200 (sx = 1.0) names α, and α =
// 4.41 with x_min = 1e308 (sα = −1.2, sx = 7.1) names x_min. Cost O(1).
func redrawCause(alpha, xmin float64) string {
	lnM := math.Log(math.MaxFloat64)
	a, l := alpha-1, lnM-math.Log(xmin) // l = ln(M/x_min) without overflow for x_min < 1
	p := math.Exp(-max(a, 0) * max(l, 0))
	sa, sx := math.Inf(1), math.Inf(1)
	if a > 0 {
		sa = -math.Log(a)
	}
	if l > 0 {
		sx = math.Log(lnM / l)
	}
	lo, hi := min(sa, sx), max(sa, sx)
	switch {
	case !(hi > 0): // p ≤ 1/M: neither is small (no redraw is expected)
		return fmt.Sprintf("a draw of the fitted law (α = %.6g, x_min = %g) passes it with probability %.3g", alpha, xmin, p)
	case lo > 0 && (lo >= hi/2 || math.IsInf(lo, 1)):
		return fmt.Sprintf("α = %.6g is close to 1 and x_min = %g within a factor %.3g of it, and a draw of the fitted law passes it with probability %.3g", alpha, xmin, math.Exp(max(l, 0)), p)
	case sx > sa:
		return fmt.Sprintf("x_min = %g is within a factor %.3g of it, and a draw of the fitted law passes it with probability %.3g", xmin, math.Exp(max(l, 0)), p)
	}
	return fmt.Sprintf("α = %.6g is close to 1, and a draw of the fitted law's heavy tail passes it with probability %.3g", alpha, p)
}

const plSampleUsage = `powerlaw sample -alpha A -n N [-xmin X] [-discrete] [-seed S] [-o FILE]

Writes N values drawn from the power law p(x) ∝ x^−α, x ≥ x_min, one per
line: continuous by inverse transform (thesis eq. 5.1.2), or with -discrete
integers from x^−α/ζ(α, x_min) by exact inversion. The same seed gives the
same file. Without -o (or with -o -) the values go to standard output; a file
is written atomically and removed if interrupted.`

// runPowerlawSample implements "tether powerlaw sample".
func runPowerlawSample(ctx context.Context, m *Main, args []string) error {
	fs := m.newFlagSet("powerlaw sample", plSampleUsage)
	var alpha, xmin float64
	var n int
	var discrete bool
	var seed uint64
	var out string
	fs.Float64Var(&alpha, "alpha", 0, fmt.Sprintf("exponent α > 1 (required; at most %d with -discrete)", powerlaw.MaxAlpha))
	fs.Float64Var(&xmin, "xmin", 1, "lower bound x_min > 0 (an integer ≥ 1 with -discrete)")
	fs.IntVar(&n, "n", 0, fmt.Sprintf("number of values, 1…%d (required)", powerlaw.MaxSample))
	fs.BoolVar(&discrete, "discrete", false, "draw integers from the discrete power law")
	fs.Uint64Var(&seed, "seed", 1, "seed (PCG)")
	fs.StringVar(&out, "o", "-", "output `file` (\"-\": standard output)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef(cmdName(fs), "unexpected argument %q (%s)", pos[0], usageHint(fs))
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["alpha"] || !set["n"] {
		return usagef(cmdName(fs), "-alpha and -n are required (%s)", usageHint(fs))
	}
	if err := checkOutputs(cmdName(fs), nil, []pathFlag{{"-o", out}}); err != nil {
		return err
	}
	// Refused before anything is allocated or written.
	if n < 1 || n > powerlaw.MaxSample {
		return usagef(cmdName(fs), "-n %d: want 1…%d (powerlaw.MaxSample) (%s)", n, powerlaw.MaxSample, usageHint(fs))
	}
	switch {
	case !(alpha > 1) || math.IsInf(alpha, 1):
		return usagef(cmdName(fs), "-alpha %v: want a finite number > 1 (%s)", alpha, usageHint(fs))
	case discrete && alpha > powerlaw.MaxAlpha:
		return usagef(cmdName(fs), "-alpha %v: want at most %d with -discrete (powerlaw.MaxAlpha: with a larger α nearly every draw is x_min) (%s)", alpha, powerlaw.MaxAlpha, usageHint(fs))
	case !(xmin > 0) || math.IsInf(xmin, 1):
		return usagef(cmdName(fs), "-xmin %v: want a finite number > 0 (%s)", xmin, usageHint(fs))
	case discrete && (xmin != math.Trunc(xmin) || xmin < 1):
		return usagef(cmdName(fs), "-xmin %v: want an integer ≥ 1 with -discrete (%s)", xmin, usageHint(fs))
	}
	s, err := powerlaw.NewSampler(alpha, xmin, discrete)
	if err != nil {
		return usagef(cmdName(fs), "%v (%s)", err, usageHint(fs))
	}
	r := rand.New(rand.NewPCG(seed, 0x706f776572)) // stream "power"
	return m.stageOutput(ctx, out, m.Stderr, fmt.Sprintf("wrote %s to %s", wording.Count(n, "value", "values"), out), func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		var buf []byte
		for i := range n {
			if i&0xffff == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			v := s.Draw(r)
			if math.IsInf(v, 0) {
				return fmt.Errorf("powerlaw sample: value %d is +Inf: with α = %v and x_min = %v, P(X > %.3g) ≈ %.3g, beyond the float64 range; use a larger α or a smaller x_min", i+1, alpha, xmin, math.MaxFloat64, s.OverflowProb())
			}
			if discrete {
				buf = strconv.AppendFloat(buf[:0], v, 'f', 0, 64)
			} else {
				buf = strconv.AppendFloat(buf[:0], v, 'g', -1, 64)
			}
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
		return bw.Flush()
	})
}
