package pitmanyor

import (
	"math"
	"testing"
)

// TestExpectedClustersLargeN: E[K_n] where the old code either summed n
// logarithms (α ≥ 10⁴: 10.8 s at n = 2·10⁹) or ran the O(n) recursion
// (θ < 10⁻⁶), or took a difference of Lgamma values whose rounding its
// check underestimated (α = 9998.9: 1.3·10⁻⁹ of the value against the
// documented 10⁻⁹; review 125). References: mpmath 1.3 at 60 digits,
// (α+θ)/θ·expm1(ln Γ(α+θ+n) + ln Γ(α+1) − ln Γ(α+θ+1) − ln Γ(α+n)) + 1
// with α and θ the float64 values given; for the subnormal θ, whose
// logarithm mpmath cannot resolve at 60 digits, the limit θ → 0,
// α(ψ(α+n) − ψ(α)), which E[K_n] meets within θ·n < 10⁻³¹⁶.
func TestExpectedClustersLargeN(t *testing.T) {
	for _, tc := range []struct {
		alpha, theta float64
		n            int
		want         float64
	}{
		{2e4, 0.5, 2_000_000_000, 12609252.942861871586},
		{2e4, 0.5, 3_000_000, 451531.28081397382244},
		{9998.9, 0.5, 3_000_000, 326974.40644054271689},
		{9998.9, 0.5, 100_000, 46331.469602314050646},
		{0.5, 1e-7, 3_000_000, 8.4388234343229560715},
		{0.5, 1e-7, 2_000_000_000, 11.689975063924248555},
		{1, 0.5, 2_000_000_000, 100923.30089972989584},
		{5, 0.9, 2_000_000, 617136.39682568777582},
		{1e6, 0.3, 2_000_000_000, 29269317.848059160467},
		{-0.4, 0.5, 3_000_000, 543.051383916403365},
		{1e12, 0.7, 2_000_000_000, 1999400519.4030880504},
		{0.5, 1e-6, 10_000_000, 9.0408833413770483887},
		{3, 1e-9, 1<<20 + 1, 38.82048809244435529}, // the first n past the recursion
		{1, 5e-324, 3_000_000, 15.491338678200574064},
	} {
		got, err := CRP{tc.alpha, tc.theta}.ExpectedClusters(tc.n)
		if err != nil || math.Abs(got-tc.want) > 1e-12*tc.want {
			t.Errorf("α = %v, θ = %v: E[K_%d] = %.17g (%v), want %.17g (relative error %.2g)", tc.alpha, tc.theta, tc.n, got, err, tc.want, math.Abs(got-tc.want)/tc.want)
		}
	}
}

// TestPowerSumAgainstSum: the Euler–Maclaurin sums of (y+i)^{−j} against
// the sums themselves (m ≤ 10⁵ terms, compensated: Neumaier's summation),
// 10⁻¹⁴ (a plain sum of 10⁵ nearly equal terms drifts by 1.7·10⁻¹³).
func TestPowerSumAgainstSum(t *testing.T) {
	for _, y := range []float64{1e4, 3.5e4, 1e7, 1e15} {
		for _, m := range []int{1, 2, 17, 1000, 100_000} {
			for j := 2; j <= 5; j++ {
				want, c := 0.0, 0.0
				for i := m - 1; i >= 0; i-- {
					v := math.Pow(y+float64(i), -float64(j))
					s := want + v
					if math.Abs(want) >= math.Abs(v) {
						c += (want - s) + v
					} else {
						c += (v - s) + want
					}
					want = s
				}
				want += c
				if got := powerSum(y, m, j); math.Abs(got-want) > 1e-14*want {
					t.Errorf("y = %g, m = %d, j = %d: %.17g, sum %.17g", y, m, j, got, want)
				}
			}
		}
	}
}

// BenchmarkExpectedClustersLargeAlpha: α ≥ 10⁴ and θ > 0 at n = 2·10⁹,
// which summed n logarithms (10.8 s) before the series of
// risingRatioOverTheta.
func BenchmarkExpectedClustersLargeAlpha(b *testing.B) {
	c := CRP{2e4, 0.5}
	for b.Loop() {
		if _, err := c.ExpectedClusters(2_000_000_000); err != nil {
			b.Fatal(err)
		}
	}
}
