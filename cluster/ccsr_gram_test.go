package cluster

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The Gram form's pieces against the constraints computed one by one
// (ccsrRefObjective's entry-by-entry sums and ccsrOp): Σ_k w_k⟨S_k, D⟩²
// equals dᵀHd, the matrix of 2(Hx − h) equals the gradient
// 2Σ_k w_k(⟨S_k, X⟩ − t_k)S_k, and f(X) = xᵀHx − 2h·x + Σ w t², each to
// 1e-10 relative, on random symmetric X and D.
func TestCCSRGramPieces(t *testing.T) {
	for _, c := range []struct{ m, k int }{{1, 4}, {3, 10}, {6, 50}, {15, 300}} {
		p := ccsrRandomLS(c.m, c.k, nil, 0, uint64(7*c.m+c.k))
		gram, err := newCCSRGram(context.Background(), p.a, p.b, p.t, p.w)
		if err != nil {
			t.Fatal(err)
		}
		rnd := rand.New(rand.NewPCG(uint64(c.m), 3))
		x, d := mat.NewSymDense(c.m, nil), mat.NewSymDense(c.m, nil)
		for i := 0; i < c.m; i++ {
			for j := i; j < c.m; j++ {
				x.SetSym(i, j, rnd.NormFloat64())
				d.SetSym(i, j, rnd.NormFloat64())
			}
		}
		// Σ w⟨S_k, D⟩², entry by entry.
		var want float64
		for k := 0; k < c.k; k++ {
			v := mat.Inner(p.a.RowView(k), d, p.b.RowView(k))
			want += p.w[k] * v * v
		}
		if got := gram.quad(d); math.Abs(got-want) > 1e-10*math.Abs(want) {
			t.Errorf("m=%d K=%d: dᵀHd = %v, Σ w⟨S,D⟩² = %v", c.m, c.k, got, want)
		}
		// The gradient.
		o := newCCSROp(p.a, p.b, p.t, p.w)
		ax := make([]float64, c.k)
		o.apply(ax, x)
		for k := range ax {
			ax[k] = p.w[k] * (ax[k] - p.t[k])
		}
		gWant := mat.NewSymDense(c.m, nil)
		o.adjoint(gWant, ax, 2)
		r := make([]float64, len(gram.hv))
		gram.resid(r, x)
		gGot := mat.NewSymDense(c.m, nil)
		gram.toMatrix(gGot, r, 2)
		if diff := math.Sqrt(symDist2(gGot, gWant)); diff > 1e-10*symNorm(gWant) {
			t.Errorf("m=%d K=%d: ‖G_gram − G‖ = %g (‖G‖ = %g)", c.m, c.k, diff, symNorm(gWant))
		}
		// f.
		var c0 float64
		for k := range p.t {
			c0 += p.w[k] * p.t[k] * p.t[k]
		}
		xv := make([]float64, len(gram.hv))
		gram.coef(xv, x)
		fGram := gram.quad(x) - 2*dotVec(gram.hv, xv) + c0
		if fRef := ccsrRefObjective(p, x); math.Abs(fGram-fRef) > 1e-10*fRef {
			t.Errorf("m=%d K=%d: f from H = %v, entry by entry %v", c.m, c.k, fGram, fRef)
		}
	}
}

// The Gram form and the constraints form of the solver reach the same
// minimizer (whitened, as CCSR calls them): on over-determined random
// instances, with 0/1 targets and with a planted PSD solution, both
// converge, their objectives agree to 1e-9 relative and their M to 1e-4
// relative (the minimizer is unique there; the residuals are below
// Tol = 1e-8 relative to ‖G(0)‖).
func TestCCSRGramMatchesConstraints(t *testing.T) {
	for _, c := range []struct {
		m, k    int
		planted bool
	}{{2, 5, false}, {5, 40, false}, {10, 400, false}, {15, 2000, false}, {8, 200, true}} {
		var planted *mat.SymDense
		if c.planted {
			rnd := rand.New(rand.NewPCG(9, uint64(c.m)))
			f := mat.NewDense(c.m, 3, nil)
			for i := 0; i < c.m; i++ {
				for j := 0; j < 3; j++ {
					f.Set(i, j, rnd.NormFloat64())
				}
			}
			planted = mat.NewSymDense(c.m, nil)
			planted.SymOuterK(1, f)
		}
		p := ccsrRandomLS(c.m, c.k, planted, 0.01, uint64(31*c.m+c.k))
		if !ccsrUseGram(c.k, c.m) {
			t.Fatalf("m=%d K=%d: not a Gram instance", c.m, c.k)
		}
		opt := ccsrOptions{tol: 1e-8, maxIter: 200000}
		opt.form = ccsrFormConstraints
		ref, err := ccsrSolve(context.Background(), p.a, p.b, p.t, p.w, opt)
		if err != nil {
			t.Fatal(err)
		}
		opt.form = ccsrFormAuto // the Gram form here
		got, err := ccsrSolve(context.Background(), p.a, p.b, p.t, p.w, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !ref.converged || !got.converged {
			t.Errorf("m=%d K=%d: converged: constraints %v (KKT %g), Gram %v (KKT %g)", c.m, c.k, ref.converged, ref.kkt, got.converged, got.kkt)
		}
		if math.Abs(got.f-ref.f) > 1e-9*ref.f+1e-12 {
			t.Errorf("m=%d K=%d: f Gram %.15g, constraints %.15g", c.m, c.k, got.f, ref.f)
		}
		if d := math.Sqrt(symDist2(got.m, ref.m)); d > 1e-4*symNorm(ref.m) {
			t.Errorf("m=%d K=%d: ‖M_Gram − M‖ = %g, ‖M‖ = %g", c.m, c.k, d, symNorm(ref.m))
		}
		ccsrCheckKKT(t, p, got.m, 1e-6)
		t.Logf("m=%d K=%d: iterations Gram %d, constraints %d; f %.10g / %.10g", c.m, c.k, got.iters, ref.iters, got.f, ref.f)
	}
}
