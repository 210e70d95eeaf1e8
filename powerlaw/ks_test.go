package powerlaw

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// ksBrute computes sup_t |F_n(t) − F(t)| by counting, for every observed
// value t, the values < t and ≤ t (the empirical CDF just before and at t):
// O(n²), no sorting, for a continuous F.
func ksBrute(x []float64, cdf func(float64) float64) float64 {
	n := float64(len(x))
	d := 0.0
	for _, t := range x {
		lt, le := 0, 0
		for _, v := range x {
			if v < t {
				lt++
			}
			if v <= t {
				le++
			}
		}
		f := cdf(t)
		d = max(d, math.Abs(float64(lt)/n-f), math.Abs(float64(le)/n-f))
	}
	return d
}

// ksBruteDiscrete evaluates |F_n(k) − P(X ≤ k)| at every integer k from
// x_min to max(x), with P(X ≤ k) = Σ_{j ≤ k} pmf(j) summed directly.
func ksBruteDiscrete(x []float64, alpha, xmin float64) float64 {
	n := float64(len(x))
	z := zetaDirect(alpha, xmin, 5000)
	d, cum := 0.0, 0.0
	for k := xmin; k <= slices.Max(x); k++ {
		cum += math.Pow(k, -alpha) / z
		le := 0
		for _, v := range x {
			if v <= k {
				le++
			}
		}
		d = max(d, math.Abs(float64(le)/n-cum))
	}
	return d
}

func TestKSAgainstBruteForce(t *testing.T) {
	for _, tc := range []struct {
		name        string
		alpha, xmin float64
		n           int
		fitAlpha    float64
	}{
		{"n1", 2.5, 1, 1, 2.5},
		{"n7-misfit", 2.5, 1, 7, 3},
		{"n300", 1.75, 2, 300, 1.75},
		{"n500-misfit", 3.5, 1, 500, 2.2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, _ := Sample(tc.n, tc.alpha, tc.xmin, false, rand.NewPCG(5, uint64(tc.n)))
			got, err := KS(x, tc.fitAlpha, tc.xmin)
			if err != nil {
				t.Fatal(err)
			}
			want := ksBrute(x, func(v float64) float64 { return 1 - math.Pow(v/tc.xmin, 1-tc.fitAlpha) })
			if math.Abs(got-want) > 1e-12 {
				t.Errorf("KS = %.15g, brute force %.15g", got, want)
			}
			xd, _ := Sample(tc.n, tc.alpha, math.Ceil(tc.xmin), true, rand.NewPCG(6, uint64(tc.n)))
			got, err = KSDiscrete(xd, tc.fitAlpha, math.Ceil(tc.xmin))
			if err != nil {
				t.Fatal(err)
			}
			want = ksBruteDiscrete(xd, tc.fitAlpha, math.Ceil(tc.xmin))
			if math.Abs(got-want) > 1e-9 {
				t.Errorf("KSDiscrete = %.15g, brute force %.15g", got, want)
			}
		})
	}
	// Hand-computed: x = {2} with x_min = 1, α = 2: F(2) = 1/2, the empirical
	// CDF jumps 0 → 1 at 2, D = 1/2.
	if d, _ := KS([]float64{2}, 2, 1); math.Abs(d-0.5) > 1e-15 {
		t.Errorf("KS({2}) = %v, want 0.5", d)
	}
}

func TestRadixSort(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, n := range []int{1 << 14, 100000} {
		x := make([]float64, n)
		for i := range x {
			switch i % 3 {
			case 0:
				x[i] = r.ExpFloat64() * 1e6
			case 1:
				x[i] = float64(r.IntN(50))
			default:
				x[i] = r.Float64() * 1e-300
			}
		}
		got := sortedCopy(x)
		want := slices.Clone(x)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: radix sort differs from slices.Sort", n)
		}
	}
}

func TestKSUnsortedAgainstSorted(t *testing.T) {
	// The bucketed KS against the sorted one on large samples, fitted and
	// misfitted (a bad α makes many buckets need sorting).
	for _, tc := range []struct{ alpha, fit float64 }{{2.5, 2.5}, {2.5, 2.49}, {1.75, 4}, {3.5, 1.2}, {2, 2}} {
		x, _ := Sample(1<<17, tc.alpha, 1, false, rand.NewPCG(14, uint64(tc.fit*100)))
		got := ksUnsorted(x, tc.fit, 1)
		want := ksSorted(sortedCopy(x), tc.fit, 1)
		if math.Abs(got-want) > 1e-15 {
			t.Errorf("α=%v fit %v: bucketed %.17g, sorted %.17g", tc.alpha, tc.fit, got, want)
		}
	}
}

// TestDiscreteHugeValues: values near the float64 range with α close to 1
// (Fit's choice for this sample). KSDiscrete returned +Inf with a nil
// error, and so did Fit's KS (ζ(α, x) overflowed in the survival
// function). References in 40-digit arithmetic (mpmath): the KS distance
// from the definition (the empirical CDF against 1 − ζ(α, x+1)/ζ(α, 1) at
// every value and just before the next), the log-likelihood
// −n ln ζ(α, 1) − αΣ ln x_i, and the MLE by bisection on the score.
func TestDiscreteHugeValues(t *testing.T) {
	x := []float64{1, 1, 2, 3, 5, 8, 1e305, 2e306}
	ks, err := KSDiscrete(x, 1.0056, 1)
	if err != nil || math.Abs(ks-0.73489811440926170909) > 1e-12 {
		t.Errorf("KSDiscrete = %v (%v), want 0.73489811440926170909", ks, err)
	}
	ll, err := LogLikelihood(x, 1.0056, 1, true)
	if err != nil || math.Abs(ll-(-1462.4721214897278293)) > 1e-12*1462 {
		t.Errorf("LogLikelihood = %v (%v), want −1462.4721214897278293", ll, err)
	}
	r, err := Fit(x, &Options{Discrete: true, Xmin: 1})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.Alpha-1.0056430918640647265) > 1e-13 || math.Abs(r.KS-0.73478281672585866606) > 1e-12 {
		t.Errorf("Fit: α = %.17g, KS = %.17g; want 1.0056430918640647265, 0.73478281672585866606", r.Alpha, r.KS)
	}
}
