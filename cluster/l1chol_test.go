package cluster

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestL1CholSolvesH: the dense factor l1Chol solves H x = b for H = L +
// 2μM + ρCᵀC built from the definitions (l1Dense, independent of
// l1Problem), on the whole node set and on a subset, for both cuts, with
// weighted constraints and a self loop, for a small and a dominating ρ.
// The residual ‖Hx − b‖ is compared with ‖H‖_F‖x‖ times 10⁻¹² (a backward
// stable solve of size ≤ 40 leaves about n·ε).
func TestL1CholSolvesH(t *testing.T) {
	for _, c := range []struct {
		n, p   int
		subset bool
		node   bool
		rho    float64
	}{
		{2, 1, false, false, 1}, {3, 2, false, true, 0.1}, {5, 3, false, false, 1e4},
		{12, 8, true, false, 3.5}, {12, 8, false, true, 1e6}, {30, 40, true, false, 1e3}, {40, 10, false, false, 0.01},
	} {
		t.Run(fmt.Sprintf("n%d_p%d_sub%v_node%v_rho%g", c.n, c.p, c.subset, c.node, c.rho), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(c.n), uint64(c.p)+9))
			g := l1RandomGraph(t, c.n, 0.3, true, rng)
			pairs := l1RandomPairs(c.n, min(c.p, c.n*(c.n-1)/2), true, rng)
			nodes := make([]int, 0, c.n)
			for i := 0; i < c.n; i++ {
				if !c.subset || rng.IntN(3) > 0 {
					nodes = append(nodes, i)
				}
			}
			q := newL1Problem(g, nodes, pairs, c.node)
			d := newL1Dense(g, nodes, pairs, c.node)
			n := len(nodes)
			const mu = 0.7
			h := mat.NewDense(n, n, nil)
			if d.c != nil {
				h.Mul(d.c.T(), d.c)
				h.Scale(c.rho, h)
			}
			h.Add(h, d.l)
			for i := 0; i < n; i++ {
				h.Set(i, i, h.At(i, i)+2*mu*d.m[i])
			}
			ch := newL1Chol(n)
			if !ch.factor(q, mu, c.rho) {
				t.Fatal("factorization failed")
			}
			b := make([]float64, n)
			for i := range b {
				b[i] = rng.NormFloat64()
			}
			x := make([]float64, n)
			ch.solveTo(x, b)
			var r mat.VecDense
			r.MulVec(h, mat.NewVecDense(n, x))
			r.SubVec(&r, mat.NewVecDense(n, b))
			if e, s := mat.Norm(&r, 2), mat.Norm(h, 2)*l1Norm2(x); e > 1e-12*s {
				t.Errorf("‖Hx − b‖ = %g, scale ‖H‖‖x‖ = %g", e, s)
			}
			// In place: dst and b the same slice.
			ch.solveTo(b, b)
			if e := l1MaxDiff(b, x); e > 0 {
				t.Errorf("in-place solve differs by %g", e)
			}
		})
	}
}

// TestL1UseDense pins the size rule of the x̂-update's solver.
func TestL1UseDense(t *testing.T) {
	for _, c := range []struct {
		n, nnz, p int
		want      bool
	}{
		{569, 569 * 568, 1365, true},  // wdbc, full RBF graph
		{1000, 20000, 500, false},     // 10-NN graph
		{10, 20, 5, true},             // tiny: n² ≤ 4(n + nnz + 2p)
		{2000, 2000 * 1999, 0, true},  // the largest dense one
		{2001, 2001 * 2000, 0, false}, // above l1DenseMaxN
		{100, 100 * 100 / 4, 0, true}, // a quarter full
		{100, 100*100/4 - 200, 0, false},
	} {
		if got := l1UseDense(c.n, c.nnz, c.p); got != c.want {
			t.Errorf("l1UseDense(%d, %d, %d) = %v, want %v", c.n, c.nnz, c.p, got, c.want)
		}
	}
}
