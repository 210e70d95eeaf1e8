package cluster

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSolveCGScales: solveCG's answer does not depend on the scale of
// b, against the exact solution of A = diag(2, 3) and the dense Cholesky
// solve (gonum) of a random 6×6 positive definite A, for b = s·b₀ with s
// from 10⁻³⁰⁰ to 10³⁰⁰, from a zero and from a nonzero warm start (the
// identity preconditioner, so that CG iterates). Review 136: ‖b‖ = √(bᵀb)
// underflowed or overflowed beyond about 10^∓154: b ≈ 10⁻²⁰⁰ returned
// x = 0 with ok = true after 0 iterations, b ≈ 10¹⁶⁰ the warm start with
// ok = true, b = 10⁻¹⁶⁰ ok = true with relative error 4·10⁻⁴ for tol 10⁻⁸.
// A b with an infinite or NaN entry gives ok = false.
func TestSolveCGScales(t *testing.T) {
	rng := rand.New(rand.NewPCG(136, 2))
	const m = 6
	g := mat.NewDense(m, m, nil)
	for i := 0; i < m; i++ {
		for j := 0; j < m; j++ {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	a6 := mat.NewSymDense(m, nil)
	a6.SymOuterK(1, g)
	for i := 0; i < m; i++ {
		a6.SetSym(i, i, a6.At(i, i)+0.5)
	}
	b6 := make([]float64, m)
	for i := range b6 {
		b6[i] = rng.NormFloat64()
	}
	var chol mat.Cholesky
	if !chol.Factorize(a6) {
		t.Fatal("6×6 A is not positive definite")
	}
	var x6 mat.VecDense
	if err := chol.SolveVecTo(&x6, mat.NewVecDense(m, b6)); err != nil {
		t.Fatal(err)
	}
	type system struct {
		name string
		a    *mat.SymDense
		b, x []float64 // b₀ and the solution of A x = b₀
	}
	systems := []system{
		{"diag(2,3)", mat.NewSymDense(2, []float64{2, 0, 0, 3}), []float64{1, 1}, []float64{0.5, 1.0 / 3}},
		{"random 6×6", a6, b6, x6.RawVector().Data},
	}
	ident := func(dst, r []float64) { copy(dst, r) }
	const tol, errTol = 1e-12, 1e-9 // residual tolerance; relative error of x (cond(A) < 10³)
	for _, sys := range systems {
		n := len(sys.b)
		mul := func(dst, x []float64) {
			mat.NewVecDense(n, dst).MulVec(sys.a, mat.NewVecDense(n, x))
		}
		for _, s := range []float64{1e-300, 1e-200, 1e-160, 1e-100, 1, 1e100, 1e160, 1e200, 1e300} {
			for _, warm := range []bool{false, true} {
				name := fmt.Sprintf("%s, s = %g, warm %v", sys.name, s, warm)
				b := make([]float64, n)
				x := make([]float64, n)
				for i := range b {
					b[i] = s * sys.b[i]
					if warm {
						x[i] = s * float64(1-2*(i%2))
					}
				}
				it, ok := solveCG(mul, ident, b, x, tol, 100, newCGWork(n))
				if !ok || it == 0 {
					t.Errorf("%s: ok = %v after %d iterations", name, ok, it)
				}
				var e, xn float64
				for i := range x {
					want := s * sys.x[i]
					e = max(e, math.Abs(x[i]-want))
					xn = max(xn, math.Abs(want))
				}
				if !(e <= errTol*xn) {
					t.Errorf("%s: x = %v, want s·%v (relative error %.3g)", name, x, sys.x, e/xn)
				}
			}
		}
	}
	for _, bad := range [][]float64{{math.Inf(1), 1}, {1, math.NaN()}} {
		x := make([]float64, 2)
		a := systems[0].a
		mul := func(dst, x []float64) { mat.NewVecDense(2, dst).MulVec(a, mat.NewVecDense(2, x)) }
		if _, ok := solveCG(mul, ident, bad, x, tol, 100, newCGWork(2)); ok {
			t.Errorf("b = %v: ok = true (x = %v)", bad, x)
		}
	}
}

// TestL1CSCCGWeightScales: on a blobs graph (300 nodes, 10-NN) with its
// weights multiplied by 2^e, e = 0, −665 and 600, the conjugate-gradient
// solves of L1CSC's ADMM (H⁻¹d and H⁻¹Mx of the x̂-update, eq. 4.10) agree
// with the dense Cholesky solves (l1Chol) to 10⁻⁶ relative, and Alg. 1
// run with them descends. Review 136: at 2⁻⁶⁶⁵, ‖d‖² underflowed in
// solveCG, H⁻¹d came back 0, x̂ NaN, and Alg. 1 reported no descent at
// its start; at 2⁶⁰⁰ ‖d‖² overflowed and the solve returned its warm
// start (0).
func TestL1CSCCGWeightScales(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 4))
	x, truth := fgpwcBlobs(rng, 300, 2, 2, 2)
	g0 := fgpwcKNNGraph(t, x, 10)
	pairs := coscRandomPairs(rng, truth, 150).Pairs
	all := make([]int, g0.N())
	for i := range all {
		all[i] = i
	}
	for _, e := range []int{0, -665, 600} {
		g := g0.ScaledPow2(e)
		q := newL1Problem(g, all, pairs, false)
		xs, _, err := q.spectralStarts(context.Background(), &Settings{Seed: 1}, 1)
		if err != nil {
			t.Fatalf("2^%d: %v", e, err)
		}
		x0 := xs[0]
		var h [2][2][]float64 // [CG, Cholesky][H⁻¹d, H⁻¹Mx]
		for k, sv := range []l1Solver{l1SolveCG, l1SolveChol} {
			ad := newL1ADMM(q, l1Config{lambda: 1, mu: 1, relTol: 1e-9, solver: sv})
			if (ad.chol != nil) != (sv == l1SolveChol) {
				t.Fatalf("2^%d: solver %d: dense factor %v", e, sv, ad.chol != nil)
			}
			for i := range ad.a2 {
				ad.a2[i] = q.m[i] * x0[i]
			}
			ad.factor()
			h[k] = [2][]float64{ad.h1, ad.h2}
		}
		for j, what := range []string{"H⁻¹d", "H⁻¹Mx"} {
			cg, ch := h[0][j], h[1][j]
			var dmax, nmax float64
			for i := range cg {
				dmax = max(dmax, math.Abs(cg[i]-ch[i]))
				nmax = max(nmax, math.Abs(ch[i]))
			}
			if !(nmax > 0) || !(dmax <= 1e-6*nmax) {
				t.Errorf("2^%d: %s by CG differs from Cholesky's by %.3g (largest entry %.3g)", e, what, dmax, nmax)
			}
		}
		// Alg. 1 (5 steps): with each solver, J decreases beyond rounding
		// exactly when it does with the other (at 2⁶⁰⁰ the penalty is
		// negligible and the spectral start is optimal to rounding).
		var descends [2]bool
		var js [2]float64
		for k, sv := range []l1Solver{l1SolveCG, l1SolveChol} {
			cfg := l1Config{lambda: 1, mu: 1, maxIter: 5, outerTol: 1e-4, maxInner: 1000, absTol: 1e-7, relTol: 1e-5, solver: sv}
			run, err := q.alg1(context.Background(), x0, cfg, nil)
			if err != nil {
				t.Fatalf("2^%d: %v", e, err)
			}
			js[k] = run.objective
			descends[k] = run.objective < run.trace[0]*(1-1e-9)
			if math.IsNaN(run.objective) || run.objective > run.trace[0] {
				t.Errorf("2^%d: solver %d: J = %v from %v", e, sv, run.objective, run.trace[0])
			}
		}
		if descends[0] != descends[1] || (e <= 0) != descends[1] {
			t.Errorf("2^%d: Alg. 1 descends: CG %v (J = %.6g), Cholesky %v (J = %.6g)", e, descends[0], js[0], descends[1], js[1])
		}
	}
}
