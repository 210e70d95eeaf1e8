package powerlaw

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestSampleContinuousDistribution(t *testing.T) {
	// KS distance of 10⁵ draws to the law they were drawn from: under the
	// null, P(√n·D > 1.95) ≈ 0.001 (Kolmogorov distribution).
	for _, alpha := range []float64{1.1, 1.75, 2.5, 3.5} {
		n := 100000
		x, err := Sample(n, alpha, 3, false, rand.NewPCG(8, 0))
		if err != nil {
			t.Fatal(err)
		}
		d, _ := KS(x, alpha, 3)
		if d*math.Sqrt(float64(n)) > 1.95 {
			t.Errorf("α=%v: √n·D = %v", alpha, d*math.Sqrt(float64(n)))
		}
	}
}

func TestSampleDiscreteDistribution(t *testing.T) {
	// Counts of the first values and of ranges beyond the tabulated 4096
	// against n·p from the directly summed ζ, each within 5 binomial
	// standard deviations.
	for _, tc := range []struct{ alpha, xmin float64 }{{1.5, 1}, {2.5, 1}, {3.5, 5}} {
		n := 200000
		x, err := Sample(n, tc.alpha, tc.xmin, true, rand.NewPCG(9, 0))
		if err != nil {
			t.Fatal(err)
		}
		z := zetaDirect(tc.alpha, tc.xmin, 5000)
		check := func(lo, hi float64) { // values in [lo, hi)
			p := (zetaDirect(tc.alpha, lo, 5000) - zetaDirect(tc.alpha, hi, 5000)) / z
			if math.IsInf(hi, 1) {
				p = zetaDirect(tc.alpha, lo, 5000) / z
			}
			c := 0
			for _, v := range x {
				if v >= lo && v < hi {
					c++
				}
			}
			sd := math.Sqrt(float64(n) * p * (1 - p))
			if math.Abs(float64(c)-float64(n)*p) > 5*sd+1 {
				t.Errorf("α=%v: %d values in [%v, %v), expected %.1f ± %.1f", tc.alpha, c, lo, hi, float64(n)*p, sd)
			}
		}
		for k := tc.xmin; k < tc.xmin+5; k++ {
			check(k, k+1)
		}
		check(tc.xmin+4000, tc.xmin+4200) // across the end of the table
		check(tc.xmin+4096, tc.xmin+20000)
		check(tc.xmin+20000, math.Inf(1))
		for _, v := range x {
			if v != math.Trunc(v) || v < tc.xmin {
				t.Fatalf("draw %v is not an integer ≥ %v", v, tc.xmin)
			}
		}
	}
}

func TestSampleDeterministic(t *testing.T) {
	for _, discrete := range []bool{false, true} {
		a, _ := Sample(1000, 2.2, 2, discrete, rand.NewPCG(10, 1))
		b, _ := Sample(1000, 2.2, 2, discrete, rand.NewPCG(10, 1))
		c, _ := Sample(1000, 2.2, 2, discrete, rand.NewPCG(10, 2))
		if !slices.Equal(a, b) || slices.Equal(a, c) {
			t.Errorf("discrete=%v: same seed must give the same sample, another seed another", discrete)
		}
	}
}

func TestDiscreteCDFAndPMF(t *testing.T) {
	// Σ_{x ≤ k} pmf(x) against DiscreteCDF(k), and pmf(1) = 1/ζ(2) = 6/π².
	if got := DiscretePMF(1, 2, 1); math.Abs(got-6/(math.Pi*math.Pi)) > 1e-14 {
		t.Errorf("pmf(1) = %v, want 6/π²", got)
	}
	cum := 0.0
	for k := 3.0; k < 60; k++ {
		cum += DiscretePMF(k, 2.7, 3)
		if got := DiscreteCDF(k+0.5, 2.7, 3); math.Abs(got-cum) > 1e-13 {
			t.Fatalf("CDF(%v) = %v, Σ pmf = %v", k, got, cum)
		}
	}
	// Continuous: CDF is the integral of PDF (Simpson on [2, 9], 2000 panels).
	a, xmin := 2.3, 2.0
	h := 7.0 / 2000
	s := PDF(2, a, xmin) + PDF(9, a, xmin)
	for i := 1; i < 2000; i++ {
		w := 2.0 + float64(i%2)*2
		s += w * PDF(2+float64(i)*h, a, xmin)
	}
	if got := CDF(9, a, xmin); math.Abs(got-s*h/3) > 1e-10 {
		t.Errorf("CDF(9) = %v, ∫pdf = %v", got, s*h/3)
	}
}

// TestNewSamplerDiscreteAlphaLimit: the discrete sampler refuses α above
// MaxAlpha. Its ζ evaluations cost O(α) each, so α = 10¹⁰ ran for more
// than ten minutes (deaf to Ctrl-C), and at α = 10³⁰⁰ the table broke
// down and every draw was 4096 instead of x_min. The continuous sampler,
// O(1), takes any finite α > 1.
func TestNewSamplerDiscreteAlphaLimit(t *testing.T) {
	if _, err := NewSampler(MaxAlpha, 1, true); err != nil {
		t.Errorf("α = MaxAlpha: %v", err)
	}
	for _, alpha := range []float64{MaxAlpha + 1, 1e300} {
		if _, err := NewSampler(alpha, 1, true); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "MaxAlpha") {
			t.Errorf("discrete α = %g: err = %v, want ErrInvalid naming MaxAlpha", alpha, err)
		}
		s, err := NewSampler(alpha, 2, false)
		if err != nil {
			t.Errorf("continuous α = %g: %v", alpha, err)
			continue
		}
		if x := s.Draw(rand.New(rand.NewPCG(1, 2))); !(x >= 2 && x < 3) {
			t.Errorf("continuous α = %g: drew %v, want about x_min = 2", alpha, x)
		}
	}
}

// TestOverflowProb: P(X > M) = (M/x_min)^{1−α} by math.Pow, and the share of
// +Inf draws in a large sample at α close to 1 matches it.
func TestOverflowProb(t *testing.T) {
	for _, tc := range []struct{ alpha, xmin float64 }{{1.011, 1}, {1.002, 3}, {2.5, 1}} {
		s, err := NewSampler(tc.alpha, tc.xmin, false)
		if err != nil {
			t.Fatal(err)
		}
		want := math.Pow(math.MaxFloat64/tc.xmin, 1-tc.alpha)
		if got := s.OverflowProb(); math.Abs(got-want) > 1e-12*want {
			t.Errorf("α = %v: OverflowProb = %v, want %v", tc.alpha, got, want)
		}
	}
	s, _ := NewSampler(1.002, 1, false)
	r := rand.New(rand.NewPCG(5, 6))
	const n = 20000
	inf := 0
	for i := 0; i < n; i++ {
		if math.IsInf(s.Draw(r), 1) {
			inf++
		}
	}
	// p ≈ 0.242; binomial standard error ≈ 0.003, tolerance 5 of them.
	if p := s.OverflowProb(); math.Abs(float64(inf)/n-p) > 5*math.Sqrt(p*(1-p)/n) {
		t.Errorf("share of +Inf draws %v, OverflowProb %v", float64(inf)/n, p)
	}
}
