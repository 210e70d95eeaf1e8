package powerlaw

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// golden maximizes a unimodal f on [a, b] by golden-section search to
// width tol: the test's own optimizer, independent of the package's
// bisection on the score.
func golden(f func(float64) float64, a, b, tol float64) float64 {
	g := (math.Sqrt(5) - 1) / 2
	c, d := b-g*(b-a), a+g*(b-a)
	fc, fd := f(c), f(d)
	for b-a > tol {
		if fc > fd {
			b, d, fd = d, c, fc
			c = b - g*(b-a)
			fc = f(c)
		} else {
			a, c, fc = c, d, fd
			d = a + g*(b-a)
			fd = f(d)
		}
	}
	return (a + b) / 2
}

// gridThenGolden maximizes f on a grid over [lo, hi] and refines the best
// cell with golden section.
func gridThenGolden(f func(float64) float64, lo, hi float64) float64 {
	const steps = 400
	best, bestF := lo, math.Inf(-1)
	h := (hi - lo) / steps
	for i := 0; i <= steps; i++ {
		a := lo + float64(i)*h
		if v := f(a); v > bestF {
			best, bestF = a, v
		}
	}
	return golden(f, max(lo, best-h), min(hi, best+h), 1e-10)
}

// discreteLogLik is the discrete log-likelihood written from the definition
// with ζ by direct summation (zetaDirect), not the package's evaluation.
func discreteLogLik(x []float64, alpha, xmin float64) float64 {
	s := 0.0
	for _, v := range x {
		s += math.Log(v)
	}
	return -float64(len(x))*math.Log(zetaDirect(alpha, xmin, 5000)) - alpha*s
}

func TestMLEHandComputed(t *testing.T) {
	// x = {1, e, e²}, x_min = 1: Σ ln x = 3, α̂ = 1 + 3/3 = 2, SE = 1/√3.
	a, se, err := MLE([]float64{1, math.E, math.E * math.E}, 1)
	if err != nil || math.Abs(a-2) > 1e-15 || math.Abs(se-1/math.Sqrt(3)) > 1e-15 {
		t.Fatalf("MLE = %v ± %v, %v; want 2 ± 0.57735", a, se, err)
	}
	// x = {2, 4}, x_min = 2, discrete approximation: Σ ln(x/1.5) =
	// ln(4/3) + ln(8/3) = ln(32/9); α̂ = 1 + 2/ln(32/9).
	a, _, err = DiscreteMLEApprox([]float64{2, 4}, 2)
	if want := 1 + 2/math.Log(32.0/9); err != nil || math.Abs(a-want) > 1e-14 {
		t.Fatalf("DiscreteMLEApprox = %v, %v; want %v", a, err, want)
	}
}

func TestMLEMaximizesContinuousLikelihood(t *testing.T) {
	for _, tc := range []struct {
		alpha, xmin float64
		n           int
	}{{1.75, 1, 1000}, {2.5, 3, 500}, {3.5, 0.5, 2000}} {
		x, err := Sample(tc.n, tc.alpha, tc.xmin, false, rand.NewPCG(1, uint64(tc.n)))
		if err != nil {
			t.Fatal(err)
		}
		a, _, err := MLE(x, tc.xmin)
		if err != nil {
			t.Fatal(err)
		}
		// The log-likelihood of thesis §5.1.2 written out: Σ ln p(x_i).
		ll := func(al float64) float64 {
			s := 0.0
			for _, v := range x {
				s += math.Log(PDF(v, al, tc.xmin))
			}
			return s
		}
		num := gridThenGolden(ll, 1.01, 10)
		if math.Abs(a-num) > 1e-6 {
			t.Errorf("α=%v: MLE %v, numerical maximum %v", tc.alpha, a, num)
		}
	}
}

func TestDiscreteMLEMaximizesLikelihood(t *testing.T) {
	for _, tc := range []struct {
		name        string
		alpha, xmin float64
		n           int
	}{
		{"a1.75-xmin1", 1.75, 1, 2000},
		{"a2.5-xmin1", 2.5, 1, 2000},
		{"a2.5-xmin3", 2.5, 3, 1000},
		{"a3.5-xmin10", 3.5, 10, 1000},
		{"a6-xmin1", 6, 1, 500},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, err := Sample(tc.n, tc.alpha, tc.xmin, true, rand.NewPCG(2, uint64(tc.n)))
			if err != nil {
				t.Fatal(err)
			}
			a, se, err := DiscreteMLE(x, tc.xmin)
			if err != nil {
				t.Fatal(err)
			}
			ll := func(al float64) float64 { return discreteLogLik(x, al, tc.xmin) }
			num := gridThenGolden(ll, 1.01, 12)
			if math.Abs(a-num) > 1e-5 {
				t.Errorf("DiscreteMLE %v, numerical maximum of the directly summed likelihood %v", a, num)
			}
			// SE = 1/√(−ℓ″(α̂)), ℓ″ by a central second difference (h = 1e-3,
			// error O(h²) relative).
			h := 1e-3
			d2 := (ll(a+h) - 2*ll(a) + ll(a-h)) / (h * h)
			if want := 1 / math.Sqrt(-d2); math.Abs(se-want) > 1e-3*want {
				t.Errorf("stderr %v, from the likelihood's curvature %v", se, want)
			}
			// The estimate is within 4 standard errors of the truth.
			if math.Abs(a-tc.alpha) > 4*se {
				t.Errorf("α̂ = %v ± %v, sampled with α = %v", a, se, tc.alpha)
			}
			if got, _ := LogLikelihood(x, a, tc.xmin, true); math.Abs(got-ll(a)) > 1e-9*math.Abs(got) {
				t.Errorf("LogLikelihood %v, direct %v", got, ll(a))
			}
		})
	}
}

func TestDiscreteMLEApproxAccuracy(t *testing.T) {
	// Clauset et al. 2009 (§3.2, Fig. 3): the approximation is within about
	// 1% of the exact discrete MLE for x_min ≳ 6; far off at x_min = 1.
	for _, tc := range []struct {
		alpha, xmin, tol float64
	}{{2.5, 6, 0.01}, {2.5, 20, 0.003}, {3.5, 10, 0.01}} {
		x, _ := Sample(20000, tc.alpha, tc.xmin, true, rand.NewPCG(3, 0))
		exact, _, _ := DiscreteMLE(x, tc.xmin)
		approx, _, _ := DiscreteMLEApprox(x, tc.xmin)
		if math.Abs(approx-exact) > tc.tol*exact {
			t.Errorf("α=%v x_min=%v: approx %v, exact %v", tc.alpha, tc.xmin, approx, exact)
		}
	}
}

func TestMLERecoversAlpha(t *testing.T) {
	for _, alpha := range []float64{1.5, 2.5, 3.5} {
		x, _ := Sample(100000, alpha, 2, false, rand.NewPCG(4, 0))
		a, se, _ := MLE(x, 2)
		if math.Abs(a-alpha) > 4*se {
			t.Errorf("continuous α=%v: α̂ = %v ± %v", alpha, a, se)
		}
	}
}

func TestBadInput(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		name string
		f    func() error
		want string
	}{
		{"empty", func() error { _, _, err := MLE(nil, 1); return err }, "no data"},
		{"below xmin", func() error { _, _, err := MLE([]float64{2, 0.5}, 1); return err }, "x[1] = 0.5 is below x_min = 1"},
		{"nan", func() error { _, _, err := MLE([]float64{2, nan}, 1); return err }, "x[1] = NaN is not finite"},
		{"inf", func() error { _, _, err := DiscreteMLE([]float64{inf}, 1); return err }, "x[0] = +Inf is not finite"},
		{"non-integer", func() error { _, _, err := DiscreteMLE([]float64{1, 2.5}, 1); return err }, "x[1] = 2.5 is not an integer"},
		{"all at xmin", func() error { _, _, err := MLE([]float64{1, 1}, 1); return err }, "exponent is infinite"},
		{"discrete all at xmin", func() error { _, _, err := DiscreteMLE([]float64{3, 3}, 3); return err }, "exponent is infinite"},
		// The approximation refuses what the exact MLE refuses; it gave
		// α̂ = 1 + 3/(3 ln(2/1.5)) ≈ 4.476 for {2, 2, 2}.
		{"discrete approx all at xmin", func() error { _, _, err := DiscreteMLEApprox([]float64{2, 2, 2}, 2); return err }, "all 3 values equal x_min: the exponent is infinite"},
		{"discrete approx all at xmin 1", func() error { _, _, err := DiscreteMLEApprox([]float64{1}, 1); return err }, "exponent is infinite"},
		{"xmin 0", func() error { _, _, err := MLE([]float64{1}, 0); return err }, "x_min = 0"},
		{"discrete xmin 1.5", func() error { _, _, err := DiscreteMLE([]float64{2}, 1.5); return err }, "x_min = 1.5"},
		{"ks alpha 1", func() error { _, err := KS([]float64{2}, 1, 1); return err }, "α = 1"},
		{"ks alpha nan", func() error { _, err := KSDiscrete([]float64{2}, nan, 1); return err }, "α = NaN"},
		{"ks below", func() error { _, err := KS([]float64{3, 2, 0.1}, 2, 1); return err }, "x[2] = 0.1 is below x_min = 1"},
		{"sample alpha 0.9", func() error { _, err := Sample(3, 0.9, 1, false, rand.NewPCG(1, 1)); return err }, "α = 0.9"},
		{"sample n", func() error { _, err := Sample(MaxSample+1, 2, 1, false, rand.NewPCG(1, 1)); return err }, "MaxSample"},
		{"sample negative n", func() error { _, err := Sample(-1, 2, 1, false, rand.NewPCG(1, 1)); return err }, "n = -1"},
		{"linear width", func() error { _, err := LinearFit([]float64{1, 2}, 1, 0, 0); return err }, "bin width 0"},
		{"linear one bin", func() error { _, err := LinearFit([]float64{1, 1.5}, 1, 1, 0); return err }, "1 non-empty histogram bin(s)"},
		{"linear one point", func() error { _, err := LinearFit([]float64{1, 2, 3, 4}, 1, 1, 1); return err }, "points = 1, want 0 (every non-empty bin) or ≥ 2"},
		{"logbin base", func() error { _, err := LogBinFit([]float64{1, 2}, 1, 1); return err }, "base 1"},
		{"fit negative", func() error { _, err := Fit([]float64{1, -2}, nil); return err }, "x[1] = -2 is not positive"},
		{"fit xmin too large", func() error { _, err := Fit([]float64{1, 2}, &Options{Xmin: 5}); return err }, "no value ≥ x_min = 5"},
		{"fit no candidate", func() error { _, err := Fit([]float64{1, 2, 3}, nil); return err }, "no candidate x_min"},
		{"loglik alpha", func() error { _, err := LogLikelihood([]float64{2}, 0.5, 1, false); return err }, "α = 0.5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.f()
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want ErrInvalid containing %q", err, tc.want)
			}
		})
	}
	for _, v := range []float64{PDF(2, 1, 1), CDF(2, 2, 0), DiscretePMF(2, 2, 0.5), DiscreteCDF(2, 0.5, 1)} {
		if !math.IsNaN(v) {
			t.Errorf("invalid law gave %v, want NaN", v)
		}
	}
}

// TestSubnormalData: the continuous estimators depend on the data only
// through x/x_min, so data scaled by c = 2⁻¹⁰⁵⁰ (exactly, into the
// subnormal range: small integers keep every bit) must give what the
// unscaled data give, and the log-likelihood must rise by exactly
// −n·ln c = 1050·n·ln 2. The references are the closed forms computed here
// on the unscaled data. math.Log on amd64 misreads subnormals
// (golang/go#56600): MLE, KS, Fit and LogLikelihood were off.
func TestSubnormalData(t *testing.T) {
	const c = 0x1p-1050
	x := []float64{3, 3, 4, 5, 7, 9, 12, 20, 33, 100}
	const xmin, alpha = 3.0, 2.5
	n := float64(len(x))
	var sumLog float64 // Σ ln(x_i/x_min)
	for _, v := range x {
		sumLog += math.Log(v / xmin)
	}
	wantMLE := 1 + n/sumLog
	wantLL := n*math.Log((alpha-1)/xmin) - alpha*sumLog
	var wantKS float64
	for i, v := range x { // sorted: the empirical CDF steps at each value
		f := 1 - math.Pow(v/xmin, 1-alpha)
		wantKS = max(wantKS, float64(i+1)/n-f, f-float64(i)/n)
	}
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = v * c
	}
	gotMLE, _, err := MLE(y, xmin*c)
	if err != nil {
		t.Fatal(err)
	}
	gotLL, err := LogLikelihood(y, alpha, xmin*c, false)
	if err != nil {
		t.Fatal(err)
	}
	gotKS, err := KS(y, alpha, xmin*c)
	if err != nil {
		t.Fatal(err)
	}
	fit, err := Fit(y, &Options{Xmin: xmin * c})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"MLE", gotMLE, wantMLE},
		{"LogLikelihood", gotLL, wantLL + 1050*n*math.Ln2},
		{"KS", gotKS, wantKS},
		{"Fit α", fit.Alpha, wantMLE},
	} {
		if math.Abs(tc.got-tc.want) > 1e-12*math.Max(1, math.Abs(tc.want)) {
			t.Errorf("%s = %.17g, want %.17g", tc.name, tc.got, tc.want)
		}
	}
}

// TestLogLikelihoodTinyXmin: (α−1)/x_min overflows for x_min near the
// smallest float64 while the log-likelihood is finite. Reference:
// Σ ln((α−1)/x_min) − α ln(x_i/x_min) in 40-digit arithmetic (mpmath).
func TestLogLikelihoodTinyXmin(t *testing.T) {
	for _, tc := range []struct {
		name        string
		x           []float64
		alpha, xmin float64
		want        float64
	}{
		// Was +Inf.
		{"x_min 1e-308 (subnormal), α = 3", []float64{1e-308, 2e-308, 5e-308}, 3, 1e-308, 2122.760312189195911},
		// A normal x_min whose ratio (α−1)/x_min is finite: unchanged path.
		{"x_min 1e-300, α = 3", []float64{1e-300, 2e-300, 5e-300}, 3, 1e-300, 2067.498269957338815},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := LogLikelihood(tc.x, tc.alpha, tc.xmin, false)
			if err != nil || math.Abs(got-tc.want) > 1e-12*math.Abs(tc.want) {
				t.Errorf("LogLikelihood = %.17g (%v), want %.17g", got, err, tc.want)
			}
		})
	}
}
