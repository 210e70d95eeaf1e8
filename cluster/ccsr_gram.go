package cluster

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"
)

// ccsrGramMaxM is the largest m for which ccsrSolve may take the Gram form
// (ccsrUseGram): p = m(m+1)/2 ≤ 528 unknowns, a p×p Gram matrix of at most
// 2.2 MB.
const ccsrGramMaxM = 32

// ccsrUseGram reports whether ccsrSolve, in whitened coordinates, works
// with the Gram matrix of the constraints (ccsrSolveGram) rather than with
// the constraints themselves: when there are at least as many constraints
// K as unknowns p = m(m+1)/2 and m ≤ ccsrGramMaxM. (Without the whitening,
// which the tests use, the Gram matrix squares a worse conditioning: on
// one test instance the rounding floor rose above Tol = 1e-8.) Forming the Gram matrix costs K·p²/2 once, and
// then an iteration costs O(p² + m³) instead of O(K·m² + m³): with the
// default m = 15 (p = 120) and K = 23 005 pairs (spambase with 5n pairs),
// 15 000 entries per product instead of 5.2 million.
func ccsrUseGram(k, m int) bool {
	return m <= ccsrGramMaxM && k >= m*(m+1)/2
}

// ccsrGram is f(X) = Σ_k w_k(⟨S_k, X⟩ − t_k)² written over the p = m(m+1)/2
// coefficients x of a symmetric X (x_{ij} = X_ij for i ≤ j, in row order of
// the upper triangle): ⟨S_k, X⟩ = a_kᵀXb_k = s_k·x with s_{k,ii} =
// a_ki·b_ki and s_{k,ij} = a_ki·b_kj + a_kj·b_ki, so that
//
//	f(X) = xᵀHx − 2h·x + Σ_k w_k t_k²,   H = Σ_k w_k s_k s_kᵀ,  h = Σ_k w_k t_k s_k.
type ccsrGram struct {
	m    int
	h    *mat.SymDense // H, p×p
	hv   []float64     // h
	x, y []float64     // p-long scratch
}

// newCCSRGram forms H and h from the K×m rows a and b, the targets t and
// the weights w, in blocks of 256 constraints (H += S_blkᵀ S_blk with the
// rows of S_blk scaled by √w_k). Cost O(K·p²/2) time, O(p² + 256·p)
// memory; ctx is checked between blocks.
func newCCSRGram(ctx context.Context, a, b *mat.Dense, t, w []float64) (*ccsrGram, error) {
	kk, m := a.Dims()
	p := m * (m + 1) / 2
	g := &ccsrGram{m: m, h: mat.NewSymDense(p, nil), hv: make([]float64, p), x: make([]float64, p), y: make([]float64, p)}
	const blk = 256
	s := mat.NewDense(min(blk, max(kk, 1)), p, nil)
	for lo := 0; lo < kk; lo += blk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+blk, kk)
		for k := lo; k < hi; k++ {
			row := s.RawRowView(k - lo)
			ak, bk := a.RawRowView(k)[:m], b.RawRowView(k)[:m]
			sw := math.Sqrt(w[k])
			q := 0
			for i := 0; i < m; i++ {
				row[q] = ak[i] * bk[i]
				q++
				for j := i + 1; j < m; j++ {
					row[q] = ak[i]*bk[j] + ak[j]*bk[i]
					q++
				}
			}
			for c, v := range row {
				g.hv[c] += w[k] * t[k] * v
				row[c] = sw * v
			}
		}
		sub := s.Slice(0, hi-lo, 0, p)
		g.h.SymRankK(g.h, 1, sub.T())
	}
	return g, nil
}

// coef sets v to the coefficients of X.
func (g *ccsrGram) coef(v []float64, x *mat.SymDense) {
	q := 0
	for i := 0; i < g.m; i++ {
		for j := i; j < g.m; j++ {
			v[q] = x.At(i, j)
			q++
		}
	}
}

// quad returns Σ_k w_k⟨S_k, D⟩² = dᵀHd for the coefficients d of D.
// Cost O(p²).
func (g *ccsrGram) quad(d *mat.SymDense) float64 {
	g.coef(g.x, d)
	v := mat.NewVecDense(len(g.x), g.x)
	u := mat.NewVecDense(len(g.y), g.y)
	u.MulVec(g.h, v)
	return mat.Dot(v, u)
}

// resid sets r = Hx − h for the coefficients x of X: ∂f/∂x = 2r. Cost
// O(p²).
func (g *ccsrGram) resid(r []float64, x *mat.SymDense) {
	g.coef(g.x, x)
	u := mat.NewVecDense(len(r), r)
	u.MulVec(g.h, mat.NewVecDense(len(g.x), g.x))
	for c := range r {
		r[c] -= g.hv[c]
	}
}

// toMatrix sets dst to the symmetric matrix G with ⟨G, Y⟩_F = c·(v·y) for
// every Y (y its coefficients): G_ii = c·v_ii, G_ij = c·v_ij/2.
func (g *ccsrGram) toMatrix(dst *mat.SymDense, v []float64, c float64) {
	q := 0
	for i := 0; i < g.m; i++ {
		dst.SetSym(i, i, c*v[q])
		q++
		for j := i + 1; j < g.m; j++ {
			dst.SetSym(i, j, c*v[q]/2)
			q++
		}
	}
}

// ccsrSolveGram is ccsrSolveRaw on the Gram form (ccsrGram): the same
// restarted FISTA, backtracking, restart and stopping rules, and the same
// start, with every map of the constraints replaced by the Gram matrix:
// the gradient G(X) = 2Σ_k w_k r_k S_k is the matrix of 2(Hx − h), the
// backtracking's Σ_k w_k⟨S_k, Z − Y⟩² is (z − y)ᵀH(z − y), and the change
// f(Z) − f(X) = Δᵀ(HΔ + 2(Hx − h)), Δ = z − x, still formed from
// differences of iterates. f(M) and G(M) of the result are computed from
// the constraints themselves, as ccsrSolveRaw computes them. Cost O(K·p²)
// to form H, then O(p² + m³) per iteration; ccsrUseGram says when.
func ccsrSolveGram(ctx context.Context, a, b *mat.Dense, t, w []float64, opt ccsrOptions) (*ccsrSolution, error) {
	kk, m := a.Dims()
	o := newCCSROp(a, b, t, w)
	gram, err := newCCSRGram(ctx, a, b, t, w)
	if err != nil {
		return nil, err
	}
	p := len(gram.hv)
	// G(0) = −2·(matrix of h).
	g := mat.NewSymDense(m, nil)
	gram.toMatrix(g, gram.hv, -2)
	scale := symNorm(g)
	if scale == 0 {
		zero := make([]float64, kk)
		return &ccsrSolution{m: mat.NewSymDense(m, nil), f: o.objective(zero), grad: g, converged: true}, nil
	}
	lip, err := ccsrGramLipschitz(ctx, gram)
	if err != nil {
		return nil, err
	}
	fx := float64(0)
	for k := range t {
		fx += w[k] * t[k] * t[k]
	}
	fm := &ccsrGramModel{gram: gram, o: o, ax: make([]float64, kk), gf: mat.NewSymDense(m, nil), rx: make([]float64, p), ry: make([]float64, p), delta: mat.NewSymDense(m, nil), hd: make([]float64, p)}
	gram.resid(fm.rx, mat.NewSymDense(m, nil))
	return ccsrFISTA(ctx, fm, o, m, lip, scale, fx, opt)
}

// ccsrGramModel is ccsrFISTA's f from the Gram form: it tracks Hx − h,
// so that every evaluation costs O(p²), p = m(m+1)/2; the KKT check at
// the iterate goes back to the constraints (O(K·m²)), as the residual
// reported.
type ccsrGramModel struct {
	gram   *ccsrGram
	o      *ccsrOp
	ax     []float64
	gf     *mat.SymDense
	rx, ry []float64 // Hx − h, Hy − h
	delta  *mat.SymDense
	hd     []float64
}

func (r *ccsrGramModel) gradAt(g, y *mat.SymDense) {
	r.gram.resid(r.ry, y)
	r.gram.toMatrix(g, r.ry, 2)
}

func (r *ccsrGramModel) stepQuad(step *mat.SymDense) float64 { return r.gram.quad(step) }

func (r *ccsrGramModel) change(z, x *mat.SymDense) float64 {
	// f(z) − f(x) = Δᵀ(HΔ + 2(Hx − h)), Δ = z − x.
	axpySym(r.delta, z, -1, x)
	r.gram.coef(r.hd, r.delta)
	return r.gram.quad(r.delta) + 2*dotVec(r.rx, r.hd)
}

func (r *ccsrGramModel) restart() {}

func (r *ccsrGramModel) accept(x *mat.SymDense, _ float64) { r.gram.resid(r.rx, x) }

func (r *ccsrGramModel) kkt(x *mat.SymDense, proj *psdProjector, step *mat.SymDense, lip float64) float64 {
	r.o.apply(r.ax, x)
	return ccsrKKT(x, r.ax, r.o.gradient, r.gf, proj, step, lip)
}

// ccsrGramLipschitz is ccsrLipschitz on the Gram form: the same power
// iterations on T(X) = Σ_k w_k⟨S_k, X⟩S_k, the matrix of Hx, with
// ⟨X, TX⟩ = xᵀHx. Cost O(p²) per iteration.
func ccsrGramLipschitz(ctx context.Context, gram *ccsrGram) (float64, error) {
	hx := make([]float64, len(gram.hv))
	return ccsrPowerLipschitz(ctx, gram.m, func(y, x *mat.SymDense) float64 {
		rq := gram.quad(x)
		// gram.quad left Hx in its scratch gram.y.
		copy(hx, gram.y)
		gram.toMatrix(y, hx, 1)
		return rq
	})
}
