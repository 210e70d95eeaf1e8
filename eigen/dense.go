package eigen

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/progress"
)

// Matrix is a dense symmetric matrix used as an Operator, so that dense
// problems can be handed to the iterative solvers and the Dense solver can
// skip materialization. The zero value is the 0×0 matrix, which the solvers
// refuse (their Problem needs dimension at least 1).
type Matrix struct {
	a *mat.SymDense // nil for the 0×0 matrix
}

// NewMatrix returns a as an Operator. The matrix is copied (O(n²)), so later
// changes to a are not seen; a 0×0 a (an empty mat.SymDense) gives the zero
// Matrix. MulTo costs O(n²·p) for an n×p block. A nil a is a programming
// error: NewMatrix panics naming it.
func NewMatrix(a mat.Symmetric) *Matrix {
	if a == nil {
		panic("eigen: NewMatrix: a is nil")
	}
	if s, ok := a.(*mat.SymDense); ok && s == nil {
		panic("eigen: NewMatrix: a is a nil *mat.SymDense")
	}
	n := a.SymmetricDim()
	if n == 0 {
		return &Matrix{}
	}
	s := mat.NewSymDense(n, nil)
	s.CopySym(a)
	return &Matrix{a: s}
}

// Dim returns n (0 for the zero Matrix and a nil *Matrix).
func (m *Matrix) Dim() int {
	if m == nil || m.a == nil {
		return 0
	}
	return m.a.SymmetricDim()
}

// MulTo sets dst = A·x. On the zero Matrix it panics naming the method:
// no block has 0 rows.
func (m *Matrix) MulTo(dst, x *mat.Dense) {
	if m.a == nil {
		panic("eigen: Matrix.MulTo on the zero (0×0) Matrix")
	}
	dst.Mul(m.a, x)
}

// Dense solves eigenproblems with a dense decomposition. It materializes A
// (and B) by applying the operator to the identity, n single-vector
// applications, unless they are *Matrix values; then it costs O(n³) time
// and O(n²) memory whatever K is. It is exact to rounding and the right
// choice up to a few hundred nodes. For K ≤ n/2 (n ≥ 32) it reduces to
// tridiagonal form, computes the eigenvalues without vectors and the K
// vectors by inverse iteration (LAPACK dsyevx's route; symselect.go:
// 4/3·n³ + 2·n²·K flops, about 4× faster than dsyev for K = 10 at n =
// 400); for larger K, or if an inverse iteration does not converge, LAPACK
// dsyev through gonum's mat.EigenSym.
//
// A generalized problem A x = λ B x is reduced to standard form by the
// Cholesky factorization B = LLᵀ: C = L⁻¹AL⁻ᵀ has the same eigenvalues and
// x = L⁻ᵀy for each eigenvector y of C (Golub & Van Loan §8.7.2). When B is
// not positive definite the error wraps ErrNotPositiveDefinite. Deflated
// vectors Q are handled exactly: the problem is restricted to an orthonormal
// basis Z of the complement {x : QᵀBx = 0}, found by a QR factorization of BQ.
//
// Settings.MaxDenseBytes bounds its memory (DenseBytes): a larger
// problem is refused with an error wrapping ErrInvalid before A is
// materialized.
//
// The zero value is ready to use. Dense ignores Settings.Tol and MaxIter.
type Dense struct{}

// Solve implements Solver.
func (Dense) Solve(ctx context.Context, p Problem, s *Settings) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n, d, err := p.check()
	if err != nil {
		return nil, err
	}
	cfg, err := s.resolve(1)
	if err != nil {
		return nil, err
	}
	if need := DenseBytes(n, p.B != nil); cfg.maxDense > 0 && need > cfg.maxDense {
		return nil, memoryBoundError{fmt.Errorf("%w: a dense solve of n = %d for K = %d eigenpairs needs about %s of n×n matrices, more than Settings.MaxDenseBytes = %s (the iterative solvers solve densely when K is a large share of n): ask for fewer eigenpairs", ErrInvalid, n, p.K, wording.Bytes(need), wording.Bytes(cfg.maxDense))}
	}
	matvecs := 0
	a, err := materialize(p.A, &matvecs, "A")
	if err != nil {
		return nil, err
	}
	var b *mat.SymDense
	if p.B != nil {
		var dummy int
		if b, err = materialize(p.B, &dummy, "B"); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	kk := p.K - d
	vals, vecs, err := denseSolve(a, b, p.Deflate, kk, p.Which)
	if err != nil {
		return nil, err
	}
	mulA := func(dst, x *mat.Dense) { dst.Mul(a, x) }
	var mulB func(dst, x *mat.Dense)
	if b != nil {
		mulB = func(dst, x *mat.Dense) { dst.Mul(b, x) }
	}
	res := finish(p, n, vals, vecs, mulA, mulB)
	res.Iterations = 1
	res.MatVecs = matvecs
	progress.Send(cfg.rec, progress.Event{Stage: "eigen", Done: kk, Total: kk, Message: fmt.Sprintf("dense n=%d", n)})
	return res, nil
}

// materialize returns the matrix of op, symmetrized as (M+Mᵀ)/2, adding the
// number of operator applications to *count. It returns an error naming the
// first non-finite entry, of a *Matrix too (read as it is, in O(n²)).
func materialize(op Operator, count *int, name string) (*mat.SymDense, error) {
	if m, ok := op.(*Matrix); ok {
		if err := finiteSym(m.a, "operator "+name); err != nil {
			return nil, err
		}
		return m.a, nil
	}
	n := op.Dim()
	id := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		id.Set(i, i, 1)
	}
	full := mat.NewDense(n, n, nil)
	op.MulTo(full, id)
	*count += n
	s := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := 0.5 * (full.At(i, j) + full.At(j, i))
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: operator %s has entry %v at (%d,%d)", ErrNonFinite, name, v, i, j)
			}
			s.SetSym(i, j, v)
		}
	}
	return s, nil
}

// denseSolve returns the kk eigenpairs of (a, b) selected by which in the
// b-orthogonal complement of the columns of q (q may be nil; b nil means the
// identity). Vectors are returned as the columns of an n×kk matrix.
func denseSolve(a, b *mat.SymDense, q *mat.Dense, kk int, which Which) ([]float64, *mat.Dense, error) {
	if kk == 0 {
		return nil, nil, nil
	}
	// z: orthonormal basis of the complement (nil means the identity),
	// held as the Householder reflectors of a QR factorization of BQ.
	var z *complementBasis
	ar, br := a, b
	if q != nil {
		bq := contiguous(q)
		if b != nil {
			bq.Mul(b, q)
			if err := checkOrthonormal(q, bq, "B-orthonormal"); err != nil {
				return nil, nil, err
			}
		}
		z = newComplementBasis(bq)
		ar = z.project(a)
		if b != nil {
			br = z.project(b)
		}
	}
	m := ar.SymmetricDim()
	c := ar
	var lt blas64.Triangular
	if br != nil {
		var chol mat.Cholesky
		if ok := chol.Factorize(br); !ok {
			return nil, nil, fmt.Errorf("%w: Cholesky factorization failed (dense solver, n = %d)", ErrNotPositiveDefinite, m)
		}
		var l mat.TriDense
		chol.LTo(&l)
		lt = l.RawTriangular()
		// c = L⁻¹ A L⁻ᵀ: solve from the left, then from the right.
		g := mat.NewDense(m, m, nil)
		g.Copy(ar)
		blas64.Trsm(blas.Left, blas.NoTrans, 1, lt, g.RawMatrix())
		blas64.Trsm(blas.Right, blas.Trans, 1, lt, g.RawMatrix())
		c = mat.NewSymDense(m, nil)
		for i := 0; i < m; i++ {
			for j := i; j < m; j++ {
				c.SetSym(i, j, 0.5*(g.At(i, j)+g.At(j, i)))
			}
		}
	}
	// kk ≤ m/2 eigenpairs: symSelect's tridiagonal reduction, eigenvalues
	// and inverse iteration (about 4× faster than dsyev at m = 400, kk =
	// 10); all of them or nearly: dsyev.
	vals, sel, ok := []float64(nil), (*mat.Dense)(nil), false
	if m >= symSelectMinN && 2*kk <= m {
		vals, sel, ok = symSelect(c, kk, which)
	}
	if !ok {
		var es mat.EigenSym
		if ok := es.Factorize(c, true); !ok {
			return nil, nil, fmt.Errorf("%w: dense symmetric eigendecomposition failed (n = %d)", ErrNoConvergence, m)
		}
		ev := es.Values(nil)
		var y mat.Dense
		es.VectorsTo(&y)
		sel = mat.NewDense(m, kk, nil)
		vals = make([]float64, kk)
		for j := 0; j < kk; j++ {
			col := j
			if which == Largest {
				col = m - 1 - j
			}
			vals[j] = ev[col]
			for i := 0; i < m; i++ {
				sel.Set(i, j, y.At(i, col))
			}
		}
	}
	if br != nil {
		// x = L⁻ᵀ y.
		blas64.Trsm(blas.Left, blas.Trans, 1, lt, sel.RawMatrix())
	}
	if z == nil {
		return vals, sel, nil
	}
	return vals, z.lift(sel), nil
}

// finiteSym returns an error wrapping ErrNonFinite naming the first entry
// (i ≤ j) of a that is a NaN or an infinity, what naming a. Cost O(n²).
func finiteSym(a mat.Symmetric, what string) error {
	n := a.SymmetricDim()
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if v := a.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: %s has entry %v at (%d,%d)", ErrNonFinite, what, v, i, j)
			}
		}
	}
	return nil
}
