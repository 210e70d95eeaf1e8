package graph

import (
	"context"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// twoFarClusters returns n points in d dimensions, the even rows at
// +off + N(0, 1) in every coordinate, the odd ones at −off + N(0, 1).
func twoFarClusters(n, d int, off float64, seed uint64) *mat.Dense {
	r := rand.New(rand.NewPCG(seed, 1))
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		s := off
		if i%2 == 1 {
			s = -off
		}
		for c := 0; c < d; c++ {
			x.Set(i, c, s+r.NormFloat64())
		}
	}
	return x
}

// directD2 is Σ_c (a_c − b_c)² of rows i and j of x, summed directly.
func directD2(x *mat.Dense, i, j int) float64 {
	_, d := x.Dims()
	var s float64
	for c := 0; c < d; c++ {
		t := x.At(i, c) - x.At(j, c)
		s += t * t
	}
	return s
}

// TestFullRBFFarFromCentre checks the weights of Full RBF graphs above 16
// dimensions, built from the Gram matrix, against exp(−Σ(a_c − b_c)²/2σ²)
// computed directly, for every weight above 10⁻³⁰⁰. Two unit clusters at
// ±offset, n = 200: with only the values within the Gram formula's error
// bound recomputed, the worst relative error was 9·10⁻⁸ at offset 10⁴,
// 7.2·10⁻⁴ at 10⁶ and 0.071 at 10⁷ in 17-D (review 130; 16-D, computed
// by dist2, 10⁻¹⁵). Now (gramTrigger): ≤ 10⁻¹² at offsets 10⁶ and 10⁷,
// where some weight is off by more than 10⁻⁶ and every one off by more
// than 10⁻¹² is recomputed, and at offset 0; ≤ 10⁻⁶ at offsets 100 to
// 10⁴, whose Gram values stand (2.5·10⁻⁷ at most here). Local σ (σ_i² the 3rd smallest
// squared distance from i, found by sorting the direct values) and the
// median σ (the median of the direct lengths, the mean of the two middle
// ones) read the same distances and are checked the same way.
func TestFullRBFFarFromCentre(t *testing.T) {
	const n, sigma, lk = 200, 3.0, 3
	for _, d := range []int{17, 40} {
		for _, off := range []float64{0, 100, 1e3, 1e4, 1e6, 1e7} {
			x := twoFarClusters(n, d, off, uint64(d))
			D := make([][]float64, n)
			for i := range D {
				D[i] = make([]float64, n)
				for j := range D[i] {
					if j != i {
						D[i][j] = directD2(x, i, j)
					}
				}
			}
			loc := make([]float64, n)
			for i := range loc {
				row := append([]float64(nil), D[i]...)
				row = append(row[:i], row[i+1:]...)
				sort.Float64s(row)
				loc[i] = math.Sqrt(row[lk-1])
			}
			var lens []float64
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					lens = append(lens, D[i][j])
				}
			}
			sort.Float64s(lens) // an even count: the two middle ones
			med := (math.Sqrt(lens[len(lens)/2-1]) + math.Sqrt(lens[len(lens)/2])) / 2
			for _, tc := range []struct {
				name string
				spec Spec
				want func(i, j int) float64
			}{
				{"fixed σ = 3", Spec{Kind: Full, Affinity: RBF, Sigma: Sigma{Rule: SigmaFixed, Value: sigma}},
					func(i, j int) float64 { return math.Exp(-D[i][j] / (2 * sigma * sigma)) }},
				{"local σ", Spec{Kind: Full, Affinity: RBF, Sigma: Sigma{Rule: SigmaLocal, K: lk}},
					func(i, j int) float64 { return math.Exp(-D[i][j] / (loc[i] * loc[j])) }},
				{"median σ", Spec{Kind: Full, Affinity: RBF, Sigma: Sigma{Rule: SigmaMedian}},
					func(i, j int) float64 { return math.Exp(-D[i][j] / (2 * med * med)) }},
			} {
				g, err := Build(context.Background(), x, tc.spec)
				if err != nil {
					t.Fatalf("d=%d offset %g %s: %v", d, off, tc.name, err)
				}
				worst, wi, wj := 0.0, 0, 0
				for i := 0; i < n; i++ {
					for j := i + 1; j < n; j++ {
						want := tc.want(i, j)
						if want <= 1e-300 {
							continue
						}
						if e := math.Abs(g.Weight(i, j)-want) / want; e > worst {
							worst, wi, wj = e, i, j
						}
					}
				}
				tol := 1e-12
				if off > 0 && off <= 1e4 {
					tol = gramTrigger
				}
				if worst > tol {
					t.Errorf("d=%d offset %g %s: weight (%d,%d) = %.17g, want %.17g: relative error %.3g > %g", d, off, tc.name, wi, wj, g.Weight(wi, wj), tc.want(wi, wj), worst, tol)
				}
			}
		}
	}
}
