package powerlaw

import (
	"errors"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tether-sc/tether/internal/testmem"
)

// repeat returns v repeated c times for each (v, c).
func repeat(pairs ...float64) []float64 {
	var x []float64
	for i := 0; i < len(pairs); i += 2 {
		for range int(pairs[i+1]) {
			x = append(x, pairs[i])
		}
	}
	return x
}

func TestLinearFitsHandComputed(t *testing.T) {
	// Values 1, 2, 4, 8 with counts 64, 16, 4, 1: ln count = ln 64 − 2 ln x
	// exactly, so every line through these points has slope −2.
	x := repeat(1, 64, 2, 16, 4, 4, 8, 1)
	for _, tc := range []struct {
		name string
		got  func() (float64, error)
		want float64
	}{
		{"full", func() (float64, error) { return LinearFit(x, 1, 1, 0) }, 2},
		{"first 2", func() (float64, error) { return LinearFit(x, 1, 1, 2) }, 2},
		{"first 5 of 4", func() (float64, error) { return LinearFit(x, 1, 1, 5) }, 2},
		// Log bins of base 2 hold one value each: densities 64/1, 16/2, 4/4,
		// 1/8 = 64·8^{−j} at centres 2^{j+½}: slope −ln 8/ln 2 = −3.
		{"log bins", func() (float64, error) { return LogBinFit(x, 1, 2) }, 3},
		// Base 10, two values a bin, edges among them (10, 100, 1000:
		// log 1000/log 10 rounds below 3): densities 2/(9·10^j) at
		// centres 10^{j+½}, slope −1.
		{"log bins base 10 on edges", func() (float64, error) { return LogBinFit([]float64{1, 3, 10, 30, 100, 300, 1000, 3000}, 1, 10) }, 1},
		// Base 3 from x_min = 2: edges 2, 6, 18, 54, 162, 486 hold one
		// value each and 3 more values per bin above its edge.
		{"log bins base 3 on edges", func() (float64, error) {
			return LogBinFit([]float64{2, 3, 4, 5, 6, 9, 12, 15, 18, 27, 36, 45, 54, 81, 108, 135, 162, 243, 324, 405, 486, 729, 972, 1215}, 2, 3)
		}, 1},
		// Width 2 from x_min = 1: bins [1,3) 80, [3,5) 4, [7,9) 1 at left
		// edges 1, 3, 7. OLS slope of (0, ln 80), (ln 3, ln 4), (ln 7, 0)
		// computed by hand below.
		{"width 2", func() (float64, error) { return LinearFit(x, 1, 2, 0) }, olsExponent([]float64{1, 3, 7}, []float64{80, 4, 1})},
		// Sparse bins beyond 2²⁰: values 1, 2, 3·10⁹ with counts 4, 2, 1.
		{"sparse", func() (float64, error) { return LinearFit(repeat(1, 4, 2, 2, 3e9, 1), 1, 1, 0) }, olsExponent([]float64{1, 2, 3e9}, []float64{4, 2, 1})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.got()
			if err != nil || math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("got %v (%v), want %v", got, err, tc.want)
			}
		})
	}
}

// olsExponent is −slope of ln y on ln x by the textbook formula
// Σ(x−x̄)(y−ȳ)/Σ(x−x̄)².
func olsExponent(xs, ys []float64) float64 {
	var mx, my float64
	for i := range xs {
		mx += math.Log(xs[i])
		my += math.Log(ys[i])
	}
	mx /= float64(len(xs))
	my /= float64(len(xs))
	var sxy, sxx float64
	for i := range xs {
		dx := math.Log(xs[i]) - mx
		sxy += dx * (math.Log(ys[i]) - my)
		sxx += dx * dx
	}
	return -sxy / sxx
}

func TestLinearFitsBiased(t *testing.T) {
	// The thesis's point (Table 5.1): on power-law samples the graphical
	// estimators miss α by far more than the MLE's standard error. The
	// raw-histogram fits are dominated by the tail's counts of 1.
	x, _ := Sample(100000, 2.5, 1, false, rand.NewPCG(11, 0))
	mle, se, _ := MLE(x, 1)
	full, _ := LinearFit(x, 1, 1, 0)
	if math.Abs(full-2.5) < 20*se || math.Abs(mle-2.5) > 4*se {
		t.Errorf("full-histogram fit %v, MLE %v ± %v: want the fit biased, the MLE not", full, mle, se)
	}
}

// within runs f and fails t if it has not returned after a minute: the
// fits below once looped forever. Not a speed check.
func within(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("did not return")
	}
}

// TestLogBinFitExtremes: ratios v/x_min beyond the largest float64, a
// subnormal x_min, bin widths beyond the largest float64 and bases close
// to 1. The references are exact: with equal counts in every non-empty
// bin, ln(count/width) = const − j·ln b against x = const + j·ln b, so
// the exponent is 1 whatever the bins; otherwise the closed form of the
// two-point slope, or the least-squares slope over the bins (found by
// hand below) computed in 50-digit arithmetic (mpmath).
func TestLogBinFitExtremes(t *testing.T) {
	maxF := math.MaxFloat64
	for _, tc := range []struct {
		name    string
		x       []float64
		xmin, b float64
		want    float64
		tol     float64 // relative
	}{
		// Bins 0, 2, 3, 997 and 1024 (v/x_min = 2·MaxFloat64 < 2¹⁰²⁵):
		// one value each. Panicked (index −1).
		{"b = 2, v/x_min overflows", []float64{0.5, 3, 7, 1e300, maxF}, 0.5, 2, 1, 1e-12},
		// Bins 0 (0.5 and 3), 1, 300 and 308: counts 2, 1, 1, 1. Looped
		// forever.
		{"b = 10, v/x_min overflows", []float64{0.5, 3, 7, 1e300, maxF}, 0.5, 10, 1.0004973893449148338562, 1e-12},
		// Bins 0 (count 2, width 1e-310: subnormal) and 33: slope
		// (−ln 2 − 33 ln 2)/(33 ln 2). Was NaN.
		{"subnormal x_min", []float64{1e-310, 1e-310, 1e-300}, 1e-310, 2, 34.0 / 33, 1e-12},
		// Bins 0 (count 2) and 8, whose width 9·10³⁰⁸ overflows: slope
		// (−ln 2 − 8 ln 10)/(8 ln 10). Was NaN.
		{"width overflows", []float64{1e300, 1e300, maxF}, 1e300, 10, 1 + math.Ln2/(8*math.Ln10), 1e-12},
		// Bins 0, 6 931 472 and 138 155 112 of 1.4·10⁸: one value each.
		// Allocated 5.4 GB. The widths x_min·b^j(b−1) come from Pow(b, j),
		// whose rounding grows with j: 10⁻⁹.
		{"b = 1 + 1e-7", []float64{1, 2, 1e6}, 1, 1 + 1e-7, 1, 1e-9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got float64
			var err error
			alloc := testmem.Allocated(func() { within(t, func() { got, err = LogBinFit(tc.x, tc.xmin, tc.b) }) })
			if err != nil || !(math.Abs(got-tc.want) <= tc.tol*tc.want) {
				t.Errorf("LogBinFit = %v (%v), want %v ± %g relative", got, err, tc.want, tc.tol)
			}
			if mb := alloc >> 20; mb > 1 {
				t.Errorf("allocated %d MB for %d values", mb, len(tc.x))
			}
		})
	}
}

// TestLogBinFitSparse: a base close to 1 spans more bins than 2n + 64,
// held in a map; the exponent is the least-squares slope over the
// non-empty bins, computed here from the definition (bins by
// ⌊ln(v/x_min)/ln b⌋, textbook two-pass sums).
func TestLogBinFitSparse(t *testing.T) {
	x, _ := Sample(300, 2, 1, false, rand.NewPCG(3, 5))
	const b = 1.001
	counts := map[int]int{}
	for _, v := range x {
		counts[int(math.Floor(math.Log(v)/math.Log(b)))]++
	}
	var xs, ys []float64
	for j, c := range counts {
		xs = append(xs, (float64(j)+0.5)*math.Log(b))
		ys = append(ys, math.Log(float64(c))-float64(j)*math.Log(b)-math.Log(b-1))
	}
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx /= float64(len(xs))
	my /= float64(len(xs))
	var sxy, sxx float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	want := -sxy / sxx
	if top := slices.Max(slices.Collect(maps.Keys(counts))); top < 2*len(x)+64 {
		t.Fatalf("largest bin %d: the map is not used", top)
	}
	got, err := LogBinFit(x, 1, b)
	if err != nil || math.Abs(got-want) > 1e-9*math.Abs(want) {
		t.Errorf("LogBinFit = %v (%v), want %v", got, err, want)
	}
}

// TestLinearFitsInvalidBins: a bin count beyond reason is refused, naming
// the parameter at fault, instead of allocating by the bin index or
// fitting points at +Inf.
func TestLinearFitsInvalidBins(t *testing.T) {
	for _, tc := range []struct {
		name string
		fit  func() (float64, error)
		want string
	}{
		// 1.4·10¹⁰ bins: ran out of memory.
		{"log bins, b = 1 + 1e-9", func() (float64, error) { return LogBinFit([]float64{1, 2, 1e6}, 1, 1+1e-9) }, "log-bin base 1.000000001 gives 1.38e+10 bins"},
		// (10¹⁰ − 1)/5e-324 overflows: the bins beyond the first were at
		// x_min + Inf·w, "2 non-empty histogram bin(s), need at least 2".
		{"linear, w = 5e-324", func() (float64, error) { return LinearFit([]float64{1, 1, 2, 3, 1e10}, 1, 5e-324, 0) }, "bin width 5e-324"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			within(t, func() { _, err = tc.fit() })
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrInvalid naming %q", err, tc.want)
			}
		})
	}
}
