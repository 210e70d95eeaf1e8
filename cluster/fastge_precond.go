package cluster

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
)

// FastGEMultigridMinN is the number of nodes from which FAST-GE
// preconditions its LOBPCG solve with a multigrid V-cycle
// (fastGEPrecond), when Settings.Eigen is nil and the graph is sparse.
// Without it the iterations grow with n on k-NN graphs (5 blobs in 10-D,
// 10-NN, pairs-1/n: 123 at 3·10⁴, 141 at 10⁵, 315 at 3·10⁵ nodes); with
// it they stay near 50 (45, 59, 56). A preconditioned iteration costs
// about two and a half plain ones, so the gain grows with n:
// BenchmarkFASTGEPencilBlobs, 4 runs each, 7.3 s → 5.3 s at 3·10⁴ and
// 19.7 s → 15.5 s at 10⁵; 139 s → 66 s at 3·10⁵ (one run each). The
// threshold is the multigrid embedding's (MultigridMinN): only this graph
// family was measured below it, and the committed experiments stay below
// it, so their figures do not move.
const FastGEMultigridMinN = 100000

// fastGEPrecond is the preconditioner T ≈ M⁻¹ of FAST-GE's pencil
// L_H x = τ M x, M = L_G + μL_H + sZZᵀ (see FastGE), for LOBPCG with
// B = M. Splitting M into a sparse positive definite part and a rank-two
// part,
//
//	M = S + U C Uᵀ,  S = L(W + G_ML + μG_CL) + (μ/n)D,
//	U = [d 1],  C = diag(−μ/(n·vol), s/n),
//
// (L_H = L(G_CL) + (D − ddᵀ/vol)/n; the ZZᵀ of one component is 11ᵀ/n),
// T applies the Woodbury formula with an approximation Ŝ⁻¹ of S⁻¹:
//
//	T = Ŝ⁻¹ − Ŝ⁻¹U (C⁻¹ + UᵀŜ⁻¹U)⁻¹ UᵀŜ⁻¹,
//
// exactly M⁻¹ when Ŝ⁻¹ = S⁻¹ (TestFastGEPrecondWoodbury). Ŝ⁻¹ is
// D'^{-1/2} V D'^{-1/2} with V a V-cycle of graph.Multigrid for
// L_sym(G') + (μ/n)I, G' = W + G_ML + μG_CL with degrees d': S =
// D'^{1/2}(L_sym(G') + E)D'^{1/2} with E = (μ/n)·diag(d_i/d'_i) ⪯ (μ/n)I,
// equal for every node without must-links. The correction matters: Ŝ⁻¹
// alone is about vol/(μ·s) times too large on the constant vector, which
// M's sZZᵀ lifts and S does not, and LOBPCG with it stalled at relative
// residuals near 10⁻⁵ on a 10⁵-node graph. Cost per n×p block: one
// V-cycle (about a dozen products with the graph) plus O(n·p); building:
// the multigrid hierarchy (O(nnz) per level) and one V-cycle on U.
type fastGEPrecond struct {
	inner eigen.Operator // Ŝ⁻¹
	tu    *mat.Dense     // n×2: Ŝ⁻¹U
	core  *mat.Dense     // 2×2: (C⁻¹ + UᵀŜ⁻¹U)⁻¹
	a, b  mat.Dense      // 2×p workspace
}

// newFastGEPrecond builds T for FAST-GE's graphs (g = W, gml, gcl as in
// buildFastGE) and μ; s is the coefficient of 11ᵀ/n in M. It returns an
// error wrapping graph.ErrNoCoarsening when the graph does not coarsen (the
// caller then solves without it).
func newFastGEPrecond(ctx context.Context, g, gml, gcl *graph.Graph, mu, s float64) (*fastGEPrecond, error) {
	gp, u, c, err := fastGESplit(g, gml, gcl, mu, s)
	if err != nil {
		return nil, err
	}
	mg, err := graph.NewMultigrid(ctx, gp, mu/float64(g.N()))
	if err != nil {
		return nil, err
	}
	scale := gp.Degrees()
	for i, v := range scale {
		scale[i] = 1 / math.Sqrt(v)
	}
	return woodburyPrecond(&diagScaledOp{op: mg, s: scale}, u, c)
}

// fastGESplit returns the parts of M = S + U diag(c) Uᵀ (see
// fastGEPrecond): the graph G' = W + G_ML + μG_CL, with S = L(G') +
// (μ/n)D, U = [d 1] and c = (−μ/(n·vol), s/n).
func fastGESplit(g, gml, gcl *graph.Graph, mu, s float64) (gp *graph.Graph, u *mat.Dense, c [2]float64, err error) {
	n := g.N()
	edges := g.Edges()
	edges = append(edges, gml.Edges()...)
	for _, e := range gcl.Edges() {
		e.W *= mu
		edges = append(edges, e)
	}
	if gp, err = graph.FromEdges(n, edges); err != nil {
		return nil, nil, c, fmt.Errorf("cluster: fast-ge: preconditioner graph: %w", err)
	}
	u = mat.NewDense(n, 2, nil)
	for i, v := range g.Degrees() {
		u.Set(i, 0, v)
		u.Set(i, 1, 1)
	}
	return gp, u, [2]float64{-mu / (float64(n) * g.Volume()), s / float64(n)}, nil
}

// woodburyPrecond returns the operator inner − inner·U(C⁻¹ + Uᵀ·inner·U)⁻¹
// Uᵀ·inner for an n×2 U and C = diag(c), the inverse of (inner⁻¹ + UCUᵀ)
// by the Woodbury formula. It returns an error wrapping ErrNumerical when
// the 2×2 core is singular.
func woodburyPrecond(inner eigen.Operator, u *mat.Dense, c [2]float64) (*fastGEPrecond, error) {
	n, q := u.Dims()
	tu := mat.NewDense(n, q, nil)
	inner.MulTo(tu, u)
	var core mat.Dense
	core.Mul(u.T(), tu)
	for j, cj := range c {
		core.Set(j, j, core.At(j, j)+1/cj)
	}
	// Symmetrize: UᵀŜ⁻¹U is symmetric up to the V-cycle's rounding.
	off := (core.At(0, 1) + core.At(1, 0)) / 2
	core.Set(0, 1, off)
	core.Set(1, 0, off)
	if err := core.Inverse(&core); err != nil {
		return nil, fmt.Errorf("%w: fast-ge: preconditioner's Woodbury core is singular: %v", ErrNumerical, err)
	}
	return &fastGEPrecond{inner: inner, tu: tu, core: &core}, nil
}

// Dim returns n.
func (t *fastGEPrecond) Dim() int { return t.inner.Dim() }

// MulTo sets dst = T·x. dst must not alias x.
func (t *fastGEPrecond) MulTo(dst, x *mat.Dense) {
	_, p := x.Dims()
	t.inner.MulTo(dst, x)
	if r, c := t.a.Dims(); r != 2 || c != p {
		t.a, t.b = *mat.NewDense(2, p, nil), *mat.NewDense(2, p, nil)
	}
	t.a.Mul(t.tu.T(), x)
	t.b.Mul(t.core, &t.a)
	// dst −= (Ŝ⁻¹U)·b, row by row (two columns of U).
	raw, tu, b := dst.RawMatrix(), t.tu.RawMatrix(), t.b.RawMatrix()
	b0, b1 := b.Data[:p], b.Data[b.Stride:b.Stride+p]
	for i := 0; i < raw.Rows; i++ {
		u0, u1 := tu.Data[i*tu.Stride], tu.Data[i*tu.Stride+1]
		row := raw.Data[i*raw.Stride : i*raw.Stride+p]
		for j := range row {
			row[j] -= u0*b0[j] + u1*b1[j]
		}
	}
}

// diagScaledOp is diag(s)·A·diag(s) for an operator A.
type diagScaledOp struct {
	op  eigen.Operator
	s   []float64
	buf mat.Dense // n×p workspace
}

// Dim returns n.
func (d *diagScaledOp) Dim() int { return len(d.s) }

// MulTo sets dst = diag(s)·A·diag(s)·x. dst must not alias x.
func (d *diagScaledOp) MulTo(dst, x *mat.Dense) {
	n, p := x.Dims()
	if r, c := d.buf.Dims(); r != n || c != p {
		d.buf = *mat.NewDense(n, p, nil)
	}
	xr, br := x.RawMatrix(), d.buf.RawMatrix()
	for i, si := range d.s {
		src, out := xr.Data[i*xr.Stride:i*xr.Stride+p], br.Data[i*br.Stride:i*br.Stride+p]
		for j, v := range src {
			out[j] = si * v
		}
	}
	d.op.MulTo(dst, &d.buf)
	dr := dst.RawMatrix()
	for i, si := range d.s {
		row := dr.Data[i*dr.Stride : i*dr.Stride+p]
		for j := range row {
			row[j] *= si
		}
	}
}
