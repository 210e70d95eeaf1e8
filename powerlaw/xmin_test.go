package powerlaw

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// bruteXmin is the oracle of the choice of x_min: for every distinct value
// v of x leaving at least minTail values, two of them distinct, in the
// tail, α = 1 + m/Σ ln(x_i/v) over the tail (thesis eq. 5.1.3, summed
// directly) and D = max_i max((i+1)/m − F(x_(i)), F(x_(i)) − i/m) with F
// the continuous CDF 1 − (x/v)^{1−α}; the smallest D, ties to the smaller
// v. A tail's D stops being computed once it exceeds the best so far,
// which cannot change the minimum.
func bruteXmin(x []float64, minTail int) (xmin, alpha, ks float64) {
	y := slices.Clone(x)
	slices.Sort(y)
	n := len(y)
	ly := make([]float64, n)
	for i, v := range y {
		ly[i] = math.Log(v)
	}
	ks = math.Inf(1)
	for i := 0; i < n; i++ {
		if (i > 0 && y[i] == y[i-1]) || n-i < minTail || y[i] == y[n-1] {
			continue
		}
		m := n - i
		s := 0.0
		for _, l := range ly[i:] {
			s += l - ly[i]
		}
		a := 1 + float64(m)/s
		d := 0.0
		for j, l := range ly[i:] {
			F := -math.Expm1((1 - a) * (l - ly[i])) // 1 − (x/v)^{1−α}
			d = math.Max(d, math.Max(float64(j+1)/float64(m)-F, F-float64(j)/float64(m)))
			if d > ks {
				break
			}
		}
		if d < ks {
			xmin, alpha, ks = y[i], a, d
		}
	}
	return xmin, alpha, ks
}

// TestFitFullScanMatchesBruteForce: with the default ScanBudget, small
// data sets are scanned at every distinct value, and Fit's x_min, α and
// KS are the brute-force minimum's (bruteXmin). Before, Fit tried 100
// candidates spaced in rank and missed the minimum whenever there were
// more distinct values. Random data: power laws above a uniform or
// lognormal body, with ties, 12 to 2000 values. Tolerances: KS and α to
// 1e-9 relative (suffix sums of ln x against direct sums of ln(x/v)).
func TestFitFullScanMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 2))
	for trial := range 60 {
		n := []int{12, 15, 30, 70, 150, 400, 2000}[trial%7]
		x := make([]float64, n)
		split := 0.3 + 0.5*r.Float64()
		a := 1.5 + 2*r.Float64()
		for i := range x {
			if r.Float64() < split {
				x[i] = math.Exp(0.6*r.NormFloat64()) * 2
			} else {
				x[i] = 3 * math.Pow(1-r.Float64(), -1/(a-1))
			}
			if trial%3 == 0 {
				x[i] = math.Round(x[i]*4) / 4 // ties
			}
		}
		if trial%3 == 0 {
			for i := range x {
				x[i] = math.Max(x[i], 0.25)
			}
		}
		minTail := 10
		if trial%2 == 1 {
			minTail = 5
		}
		bx, ba, bks := bruteXmin(x, minTail)
		for _, w := range []int{1, 2} {
			f, err := Fit(x, &Options{MinTail: minTail, Workers: w})
			if math.IsInf(bks, 1) {
				if err == nil {
					t.Errorf("trial %d: no brute-force candidate, Fit gave %+v", trial, f)
				}
				continue
			}
			if err != nil {
				t.Fatalf("trial %d (n = %d): %v", trial, n, err)
			}
			if f.Candidates != f.Eligible {
				t.Errorf("trial %d: %d of %d candidates tried, want all", trial, f.Candidates, f.Eligible)
			}
			if f.Xmin != bx || math.Abs(f.KS-bks) > 1e-9*bks || math.Abs(f.Alpha-ba) > 1e-9*ba {
				t.Errorf("trial %d (n = %d, workers %d): x_min %v α %v KS %v, brute force %v %v %v", trial, n, w, f.Xmin, f.Alpha, f.KS, bx, ba, bks)
			}
		}
	}
}

// TestFitSmallTail: a tail of 2% of the values (smallTail: lognormal body
// below 10, 240 power-law values above 10 with α = 2.2) among 12000
// distinct values, too many for a full scan within DefaultScanBudget
// (7.2·10⁷ > 5·10⁷), so the coarse-to-fine search runs. It must find the
// brute-force minimum, x_min in the tail (10.9 here). Before, Fit tried
// 100 candidates spaced in rank, two of them in the tail, and gave a body
// x_min (the QA pass's data set, gen4.py, 1% of 49955 values in the tail:
// x_min 2.25, α 3.29, KS 0.032 and a bootstrap p = 0 where the full scan
// gives x_min 9.88, α 2.16, KS 0.018). With 1% of 12000 values in the
// tail the KS minimum is in the body for most seeds (the tail is too
// short to tell), and for seed 7 of 15000 values the search misses a tail
// minimum 3% below the body's: the limit of the coarse-to-fine search. The
// same holds with a full scan forced by a large ScanBudget.
func TestFitSmallTail(t *testing.T) {
	if testing.Short() {
		t.Skip("brute force over 1.2·10⁴ candidates")
	}
	x := smallTail(12000, 50, 4)
	bx, ba, bks := bruteXmin(x, 10)
	if bx < 10 {
		t.Fatalf("oracle: x_min %v below the tail: the test data do not test the tail", bx)
	}
	for _, tc := range []struct {
		name string
		opt  Options
		all  bool
	}{
		{"coarse-to-fine", Options{}, false},
		{"full scan", Options{ScanBudget: 1 << 40}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Fit(x, &tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if (f.Candidates == f.Eligible) != tc.all {
				t.Errorf("%d of %d candidates tried", f.Candidates, f.Eligible)
			}
			if f.Xmin != bx || math.Abs(f.KS-bks) > 1e-9*bks || math.Abs(f.Alpha-ba) > 1e-9*ba {
				t.Errorf("x_min %v α %v KS %v (%d of %d candidates), brute force %v %v %v", f.Xmin, f.Alpha, f.KS, f.Candidates, f.Eligible, bx, ba, bks)
			}
		})
	}
}

// TestFitCoarseToFineDeterministic: the coarse-to-fine search (forced by
// ScanBudget = 1) gives the same result whatever the number of workers —
// pruning only skips candidates that cannot be the minimum — tries fewer
// candidates than there are, and finds a KS distance no smaller than the
// brute-force minimum; FitContext stops on a cancelled context.
func TestFitCoarseToFineDeterministic(t *testing.T) {
	x := smallTail(5000, 100, 9)
	_, _, bks := bruteXmin(x, 10)
	a, err := Fit(x, &Options{ScanBudget: 1, MaxCandidates: 20, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Fit(x, &Options{ScanBudget: 1, MaxCandidates: 20, Workers: 3})
	if *a != *b {
		t.Errorf("workers 1: %+v, workers 3: %+v", a, b)
	}
	if a.Candidates >= a.Eligible || a.KS < bks*(1-1e-9) {
		t.Errorf("%d of %d candidates, KS %v (brute-force minimum %v)", a.Candidates, a.Eligible, a.KS, bks)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := FitContext(ctx, x, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("FitContext cancelled: %v", err)
	}
}

// TestFitAllEqualXmin: a tail whose values all equal x_min has an
// infinite exponent, an error, whatever the value. Before, Σ ln x_i −
// n ln x_min rounded to about 1e-15 for 3 and 1.5 (not for 2, 5, 7) and
// MLE and Fit with a fixed Xmin returned α ≈ 5.6e15.
func TestFitAllEqualXmin(t *testing.T) {
	for _, tc := range []struct {
		v float64
		n int
	}{{3, 20}, {1.5, 20}, {3, 1000}, {0.1, 20}, {1e300, 20}, {2, 20}, {7, 3}, {3, 1}} {
		x := make([]float64, tc.n)
		for i := range x {
			x[i] = tc.v
		}
		want := "values equal x_min: the exponent is infinite"
		if tc.n == 1 {
			want = "the only value equals x_min: the exponent is infinite"
		}
		if a, _, err := MLE(x, tc.v); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), want) {
			t.Errorf("MLE(%d × %v): α %v, error %v; want %q", tc.n, tc.v, a, err, want)
		}
		if f, err := Fit(x, &Options{Xmin: tc.v}); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), want) {
			t.Errorf("Fit(%d × %v, Xmin): %+v, error %v; want %q", tc.n, tc.v, f, err, want)
		}
		// Values below a fixed x_min do not count.
		y := append([]float64{tc.v / 2}, x...)
		if f, err := Fit(y, &Options{Xmin: tc.v}); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), want) {
			t.Errorf("Fit(%v and %d × %v, Xmin): %+v, error %v; want %q", tc.v/2, tc.n, tc.v, f, err, want)
		}
	}
}
