package cluster

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
)

// TestFGPWCBlockEmbedding: FGPWC's embedding computed with
// eigen.BlockLanczos (Settings.Eigen) agrees with one computed by the dense
// solver on the same graph: eigenvalues to 1e-6 (the embedding's tolerance
// is 1e-5 in relative residual, and eigenvalue errors are quadratic in it)
// and the embedding's subspace to a principal angle of sine 1e-3 when the
// eigengap after λ_{m+1} exceeds 1e-3. (BlockLanczos is not FGPWC's
// default: see BenchmarkFGPWC100kSolver.)
func TestFGPWCBlockEmbedding(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 1))
	x, _ := fgpwcBlobs(rnd, 700, 3, 4, 4)
	g := fgpwcKNNGraph(t, x, 8)
	const m = 30
	f := *NewFGPWC()
	f.M, f.RowNormalize = m, false // orthonormal columns, for the angle
	b, err := f.Embed(context.Background(), g, &Settings{Seed: 1, Eigen: eigen.BlockLanczos{}})
	if err != nil {
		t.Fatal(err)
	}
	f.M = m + 1 // one more, for the gap
	ref, err := f.Embed(context.Background(), g, &Settings{Seed: 1, Eigen: eigen.Dense{}})
	if err != nil {
		t.Fatal(err)
	}
	got, want := b.Eigenvalues(), ref.Eigenvalues()
	for j := 0; j < m; j++ {
		if d := math.Abs(got[j] - want[j]); !(d <= 1e-6) {
			t.Errorf("λ_%d = %.10g, dense %.10g", j+2, got[j], want[j])
		}
	}
	if gap := want[m] - want[m-1]; gap > 1e-3 {
		u := ref.Vectors()
		n, _ := u.Dims()
		u = mat.DenseCopyOf(u.Slice(0, n, 0, m))
		v := b.Vectors()
		// ‖(I − UUᵀ)V‖₂ is the sine of the largest principal angle.
		var p, r mat.Dense
		p.Mul(u.T(), v)
		r.Mul(u, &p)
		r.Sub(v, &r)
		if sn := mat.Norm(&r, 2); !(sn <= 1e-3) {
			t.Errorf("largest principal angle has sine %.3g (gap %.3g)", sn, gap)
		}
	} else {
		t.Logf("gap %.3g after λ_%d: subspace not compared", gap, m+1)
	}
}
