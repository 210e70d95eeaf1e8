package graph

import (
	"context"
	"math"
	"math/big"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestRBFHugeMedianSigma checks the median rule's weights at scales where
// 2σ² overflows: x = s·(−1.08, −1, 1, 1.08) has σ = 2.04·s, and at s =
// 6e153 1/(2σ²) was 0, so every weight was exactly 1 (review 130). The
// weights do not depend on s; the references are numpy's at s = 1:
//
//	x = np.array([-1.08, -1, 1, 1.08]); D = (x[:, None] - x[None, :])**2
//	iu = np.triu_indices(4, 1); med = np.median(np.sqrt(D[iu]))  # 2.04
//	W = np.exp(-D / (2 * med * med))                             # W[iu]
//
// The scales cover the path kept as it was (σ² normal) and the one that
// scales σ by a power of two (setSigma): s = 1e153 has σ² ≈ 4.2e306,
// normal; 6e153 overflows 2σ²; 6.2e153 is near the largest row
// checkScale accepts (‖x‖² ≤ MaxFloat64/4).
func TestRBFHugeMedianSigma(t *testing.T) {
	want := map[[2]int]float64{
		{0, 1}: 0.999231360529787,
		{0, 2}: 0.5946394182470827,
		{0, 3}: 0.5708929110610673,
		{1, 2}: 0.6184218862373007,
		{1, 3}: 0.5946394182470827,
		{2, 3}: 0.999231360529787,
	}
	for _, s := range []float64{1, 1e-130, 1e153, 6e153, 6.2e153} {
		x := mat.NewDense(4, 1, []float64{-1.08 * s, -1 * s, 1 * s, 1.08 * s})
		g, err := Build(context.Background(), x, Spec{Kind: Full, Affinity: RBF, Sigma: Sigma{Rule: SigmaMedian}})
		if err != nil {
			t.Fatalf("s = %g: %v", s, err)
		}
		for p, w := range want {
			if got := g.Weight(p[0], p[1]); math.Abs(got-w) > 1e-14*w {
				t.Errorf("s = %g: W%d%d = %.17g, want %.17g (numpy)", s, p[0], p[1], got, w)
			}
		}
	}
}

// TestWeighterSigmaExtremes checks weighter.setSigma at σ whose square is
// outside float64's normal range, against exp(−d²/(2σ²)) with the ratio
// computed in 200-bit arithmetic (math/big): relative error ≤ 10⁻¹⁴.
func TestWeighterSigmaExtremes(t *testing.T) {
	ref := func(d2, sigma float64) float64 {
		r := new(big.Float).SetPrec(200).SetFloat64(d2)
		s := new(big.Float).SetPrec(200).SetFloat64(sigma)
		s.Mul(s, s)
		s.Mul(s, big.NewFloat(2))
		r.Quo(r, s)
		q, _ := r.Float64()
		return math.Exp(-q)
	}
	for _, sigma := range []float64{1e-160, 3e-155, 1e-150, 1, 1e150, 1e154, 1.3e154, 1e200, math.MaxFloat64} {
		var w weighter
		w.aff = RBF
		w.setSigma(sigma)
		for _, c := range []float64{1e-3, 0.25, 1, 4, 100} {
			d2 := c * sigma * sigma
			if math.IsInf(d2, 0) || d2 == 0 {
				// σ² out of range: the largest or a tiny squared distance.
				d2 = math.MaxFloat64 / 2 * min(c, 1)
				if sigma < 1 {
					d2 = 0x1p-1074 * math.Ceil(c)
				}
			}
			want := ref(d2, sigma)
			got := w.weight(0, 1, d2)
			if math.Abs(got-want) > 1e-14*want {
				t.Errorf("σ = %g, d² = %g: weight %.17g, want %.17g", sigma, d2, got, want)
			}
		}
	}
}
