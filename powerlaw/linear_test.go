package powerlaw

import (
	"math"
	"math/rand/v2"
	"testing"
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
