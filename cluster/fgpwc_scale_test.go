package cluster

import (
	"context"
	"math"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
)

// fgpwcPairDist2 returns the squared distances of the constrained pairs in
// the rows of emb, in the order of pairs.
func fgpwcPairDist2(emb *mat.Dense, pairs []constraint.Pair) []float64 {
	_, m := emb.Dims()
	d := make([]float64, len(pairs))
	for k, q := range pairs {
		for c := 0; c < m; c++ {
			e := emb.At(q.I, c) - emb.At(q.J, c)
			d[k] += e * e
		}
	}
	return d
}

func fgpwcMedian(x []float64) float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return 0.5 * (s[len(s)/2-1] + s[len(s)/2])
}

// TestFGPWCScaleStart checks the start point of FGPWC.ScaleStart: with a
// GradTol so large that the descent stops at its start, the embedding is
// V·cX₀ with the median constrained squared distance equal to σ_m, c·(the
// embedding without ScaleStart), and the automatic γ keeps the regularizer
// at 10⁻³ Σ w_k of the start (recomputed here from the embedding).
func TestFGPWCScaleStart(t *testing.T) {
	const tol = 1e-9
	for _, tc := range []struct {
		name    string
		count   int
		sigmaML float64
		sigmaCL float64
	}{
		{"paper σ, odd count", 61, fgpwcSigmaML, fgpwcSigmaCL},
		{"other σ, even count", 80, 0.5, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _, _ := fgpwcMoonsProblem(t, 120, tc.count, 7)
			run := func(scale bool) *Result {
				f := NewFGPWC()
				f.M, f.SigmaML, f.SigmaCL, f.GradTol, f.ScaleStart = 6, tc.sigmaML, tc.sigmaCL, 1e300, scale
				r, err := Run(context.Background(), f, p, &Settings{Seed: 1})
				if err != nil {
					t.Fatal(err)
				}
				if r.Iterations != 0 {
					t.Fatalf("ScaleStart=%v: %d descent iterations, want 0", scale, r.Iterations)
				}
				return r
			}
			plain, scaled := run(false), run(true)
			pairs := p.Constraints.Pairs
			dPlain, dScaled := fgpwcPairDist2(plain.Embedding, pairs), fgpwcPairDist2(scaled.Embedding, pairs)
			med0, med := fgpwcMedian(dPlain), fgpwcMedian(dScaled)
			if math.Abs(med-tc.sigmaML) > tol*tc.sigmaML {
				t.Errorf("median constrained squared distance at the start = %.12g, want σ_m = %g", med, tc.sigmaML)
			}
			c := math.Sqrt(tc.sigmaML / med0)
			n, m := plain.Embedding.Dims()
			for i := 0; i < n; i++ {
				for j := 0; j < m; j++ {
					if want, got := c*plain.Embedding.At(i, j), scaled.Embedding.At(i, j); math.Abs(got-want) > tol*math.Max(1, math.Abs(want)) {
						t.Fatalf("embedding[%d,%d] = %g, want c·V X₀ = %g (c = %g)", i, j, got, want, c)
					}
				}
			}
			// F(cX₀) − data term = γ‖cX₀‖²_F = 10⁻³·K (unit weights).
			data := 0.0
			for k, q := range pairs {
				if q.Kind == constraint.MustLink {
					g := math.Exp(-dScaled[k] / tc.sigmaML)
					data += (g - 1) * (g - 1)
				} else {
					g := math.Exp(-dScaled[k] / tc.sigmaCL)
					data += g * g
				}
			}
			if reg, want := scaled.Objective-data, 1e-3*float64(len(pairs)); math.Abs(reg-want) > tol*want {
				t.Errorf("regularizer at the start = %.12g, want 10⁻³·K = %g", reg, want)
			}
		})
	}
}
