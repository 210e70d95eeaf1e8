package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/wording"
)

// pencilOptions controls solvePencil.
type pencilOptions struct {
	// z, if not nil, is s·ZZᵀ for an orthonormal basis Z of the common null
	// space of P and L (Theorem 4.2.5).
	z *compOp
	// mu is μ of Theorem 4.2.5 (> 0).
	mu float64
	// denseLimit is the largest n for the dense Schur-complement fallback.
	denseLimit int
	// singularL skips the test of path 1: L is known to be singular (a
	// Laplacian).
	singularL bool
	// definiteM skips the test of path 2: M is known to be positive
	// definite (P and L Laplacians, z their common null space).
	definiteM bool
	// cholesky solves path 2 through the dense Cholesky factor of M
	// (cholPencil) instead of LOBPCG with B = M. Set it when the operators
	// are (nearly) dense, so a product costs about as much as n² flops
	// anyway; p, l and z must then implement denseAdder.
	cholesky bool
	// precond, if not nil, is LOBPCG's preconditioner T ≈ M⁻¹ on path 2
	// when s.Eigen is nil (FAST-GE's fastGEPrecond).
	precond eigen.Operator
}

// pencilResult is the outcome of solvePencil.
type pencilResult struct {
	values   []float64  // the k smallest finite λ, ascending
	vectors  *mat.Dense // n×k
	path     string     // "definite", "regularized" or "dense"
	warnings []string
	// preconditioned: path 2 ran LOBPCG with pencilOptions.precond.
	preconditioned bool
}

// PencilDenseLimit is the largest n of the dense fallback of the pencil
// solver that fast-ge2-bh (and FAST-GE-2.0 when its pencil is
// indefinite) takes: a Schur complement of eight n×n matrices, 64n²
// bytes. Above it an indefinite pencil is an error. Exported for
// estimates of a request's memory (tether serve).
const PencilDenseLimit = 3000

// errPencil is wrapped when the pencil has fewer than k finite eigenvalues
// or cannot be solved. Fewer than k finite eigenvalues (too few
// constraints for k: rank L_H < k) is the caller's problem, so that error
// wraps ErrInvalid as well, as does a problem beyond the dense path's
// limit on n; the other failures (a factorization or decomposition that
// fails, P singular on L's null space to working precision) are
// numerical, and solvePencil marks them ErrNumerical (pencilError).
var errPencil = errors.New("cluster: generalized eigenproblem")

// pencilError returns err marked as a numerical failure (numericalError)
// when it wraps errPencil and neither ErrInvalid nor ErrNumerical: tether
// serve answered them 500 as unclassified (review 92: "P is singular on
// the null space of L"). Other errors, nil included, are returned as
// they are.
func pencilError(err error) error {
	if errors.Is(err, errPencil) && !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrNumerical) {
		return numericalError{err}
	}
	return err
}

// solvePencil returns the k smallest finite eigenvalues λ of P x = λ L x for
// symmetric P and a symmetric L that is positive semidefinite (a Laplacian)
// or positive definite (a Bethe Hessian of small weights), and their
// eigenvectors. Three paths, tried in order:
//
//  1. definite: if L is positive definite, P x = λ L x is solved directly
//     (eigensolver with B = L).
//  2. regularized: seed 004 Theorem 4.2.5 (Jiang, Xie, Bai 2017): with
//     K = −L and M = P + μL + Z S Zᵀ (Z an orthonormal basis of the common
//     null space of P and L, S = sI), M is positive definite when P and L
//     are Laplacians, and the finite eigenvalues map to σ = −1/(λ + μ) < 0
//     while the n − rank(L) infinite ones map to σ = 0. The wanted λ are the
//     k most negative σ — "largest" in seed 004 Alg. 3 means largest in
//     magnitude, as σ_i increases with λ_i. We solve the equivalent
//     L x = τ M x, τ = −σ = 1/(λ + μ), for the k largest τ with B = M.
//  3. dense: if M is not positive definite (a Bethe Hessian P is indefinite
//     on the null space of L, so no μ helps), the finite eigenvalues are
//     those of the Schur complement of P onto the range of L, a
//     symmetric-definite problem of size rank(L), solved densely. Only for
//     n ≤ opt.denseLimit.
//
// An indefinite L (λ_min(L) < −10⁻⁹·scale, tested unless opt.singularL)
// is an error wrapping errPencil and ErrNumerical (pencilError): path 2
// keeps only τ > 0 and path 3 needs L ⪰ 0, so the eigenpairs with
// xᵀLx < 0, the smallest λ, would be dropped silently (review 136:
// P = diag(1, …, 6), L = diag(1, 1, 1, 1, 1, −0.2), μ = 1 gave [1, 2] for
// the exact [−30, 1]).
//
// Cost: paths 1 and 2 one iterative solve (plus one smallest-eigenvalue
// estimate each for the definiteness tests); path 3 O(n³) time and O(n²)
// memory.
func solvePencil(ctx context.Context, p, l eigen.Operator, k int, opt pencilOptions, s *Settings) (result *pencilResult, err error) {
	// The warnings of the λ_min estimates that chose the path go first
	// in the result's, on every path.
	var pathWarnings []string
	defer func() {
		err = pencilError(err)
		if result != nil && len(pathWarnings) > 0 {
			result.warnings = append(pathWarnings, result.warnings...)
		}
	}()
	n := p.Dim()
	if k < 1 || k > n {
		return nil, fmt.Errorf("%w: %d eigenvectors requested for %d nodes", ErrInvalid, k, n)
	}
	s = s.orDefault()
	lmin, scale := 0.0, 1.0
	if !opt.singularL {
		var err error
		var w string
		if lmin, scale, w, err = extremeEig(ctx, l, s); err != nil {
			return nil, err
		}
		if w != "" {
			pathWarnings = append(pathWarnings, w)
		}
		if lmin < -1e-9*scale {
			return nil, fmt.Errorf("%w: L is indefinite (λ_min(L) ≈ %.3g, scale %.3g): the pencil's smallest finite eigenvalues, those of the vectors with xᵀLx < 0, are out of reach of its solvers (which take L positive semidefinite)", errPencil, lmin, scale)
		}
	}
	if lmin > 1e-9*scale {
		res, err := genSolve(ctx, eigen.Problem{A: p, B: l, K: k, Which: eigen.Smallest}, s)
		if err != nil && res == nil {
			return nil, err
		}
		out := &pencilResult{values: res.Values, vectors: res.Vectors, path: "definite"}
		if err != nil {
			out.warnings = append(out.warnings, err.Error())
		}
		return out, nil
	}
	ops := []eigen.Operator{p, l}
	coef := []float64{1, opt.mu}
	if opt.z != nil {
		ops = append(ops, opt.z)
		coef = append(coef, 1)
	}
	m := &comboOp{ops: ops, coef: coef}
	mmin, mscale := 1.0, 1.0
	if !opt.definiteM {
		var err error
		var w string
		if mmin, mscale, w, err = extremeEig(ctx, m, s); err != nil {
			return nil, err
		}
		if w != "" {
			pathWarnings = append(pathWarnings, w)
		}
	}
	if mmin > 1e-9*mscale {
		var res *eigen.Result
		var err error
		preconditioned := false
		switch {
		case opt.cholesky:
			res, err = cholPencil(ctx, l, m, k, s)
		case opt.precond != nil && s.Eigen == nil:
			ss := *s
			ss.Eigen = eigen.LOBPCG{T: opt.precond}
			res, err = ss.solve(ctx, eigen.Problem{A: l, B: m, K: k, Which: eigen.Largest})
			preconditioned = true
		default:
			res, err = genSolve(ctx, eigen.Problem{A: l, B: m, K: k, Which: eigen.Largest}, s)
		}
		if err != nil && res == nil {
			return nil, err
		}
		out := &pencilResult{values: make([]float64, k), vectors: res.Vectors, path: "regularized", preconditioned: preconditioned}
		if err != nil {
			out.warnings = append(out.warnings, err.Error())
		}
		tmax := res.Values[0]
		for j, t := range res.Values {
			if !(t > 1e-10*tmax) {
				return nil, fmt.Errorf("%w: %w: only %s, %d requested (too few constraints, or constraints that contradict each other?)", ErrInvalid, errPencil, wording.Count(j, "finite generalized eigenvalue", "finite generalized eigenvalues"), k)
			}
			out.values[j] = 1/t - opt.mu
		}
		return out, nil
	}
	limit := opt.denseLimit
	if limit == 0 {
		limit = PencilDenseLimit
	}
	if n > limit {
		return nil, fmt.Errorf("%w: %w: P + μL is indefinite (λ_min ≈ %.3g), so only the dense solver applies, and n = %d exceeds its limit %d", ErrInvalid, errPencil, mmin, n, limit)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pp := p
	if opt.z != nil {
		// sZZᵀ turns the common null vectors into infinite eigenvalues and
		// leaves the finite ones unchanged (their vectors can be taken ⊥ Z).
		pp = &comboOp{ops: []eigen.Operator{p, opt.z}, coef: []float64{1, 1}}
	}
	// Each dense form is n products of a sparse operator, 0.2–0.35 s at
	// n = 3000; the context is checked after each.
	dp := graph.Dense(pp)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dl := graph.Dense(l)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	vals, vecs, err := densePencil(ctx, dp, dl, k, s)
	if err != nil && vals == nil {
		return nil, err
	}
	dense := &pencilResult{values: vals, vectors: vecs, path: "dense"}
	if err != nil {
		dense.warnings = append(dense.warnings, err.Error())
	}
	return dense, nil
}

// extremeEig returns the smallest eigenvalue of op and a scale (the largest
// |diagonal| entry's order, estimated as max_i |(op e_i)_i| over a probe) for
// relative tests, and, when the eigensolve did not converge, a warning
// saying so ("" otherwise): its λ_min chose the path (it was used without
// a word; review 117). Cost: one eigensolve for one pair.
func extremeEig(ctx context.Context, op eigen.Operator, s *Settings) (lmin, scale float64, warning string, err error) {
	res, err := s.solve(ctx, eigen.Problem{A: op, K: 1, Which: eigen.Smallest})
	if err != nil && res == nil {
		return 0, 0, "", err
	}
	if err != nil {
		warning = fmt.Sprintf("the smallest eigenvalue that decides the pencil's path (definite or not): %v", err)
	}
	lmin = res.Values[0]
	// ‖op‖ estimate: one application to a fixed ±1 vector.
	n := op.Dim()
	x := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i++ {
		x.Set(i, 0, float64(1-2*(i%2)))
	}
	y := mat.NewDense(n, 1, nil)
	op.MulTo(y, x)
	scale = mat.Norm(y, 2)/math.Sqrt(float64(n)) + math.Abs(lmin)
	return lmin, scale, warning, nil
}

// cholDenseMinN and cholProductFlops decide when FAST-GE solves its pencil
// through a dense Cholesky factorization (cholPencil) rather than by LOBPCG
// with B = M: for n above the dense eigensolver's limit and up to
// cholDenseMaxN (the factor takes 8n² bytes), when the n³/3 flops of the
// factorization cost less than cholProductFlops flops per stored weight of
// the graph — about 250 LOBPCG iterations of 4 products each, fewer than
// the ill-conditioned pencils of dense graphs with widely spread degrees
// need (spambase: > 1000 without convergence; BenchmarkFASTGESpamSized).
const (
	cholDenseMaxN    = 6000
	cholProductFlops = 2000
)

// fastGEMuFactor divides FAST-GE's default μ on the Cholesky path and on
// the multigrid-preconditioned one (fastGEPrecond). The
// eigenvectors do not depend on μ, but the Lanczos iteration on
// C = R⁻ᵀL R⁻¹ converges at a rate set by the relative gap
// (λ_{k+1} − λ_k)/(λ_k + μ) of τ = 1/(λ + μ): the default μ =
// tr(L_G)/(10·tr(L_H)) is a tenth of the mean generalized eigenvalue and
// can exceed the wanted λ by far (spambase: μ = 0.14, λ₁,₂ = 0.0039,
// 0.0058; 156 products against 56 with μ/100, same λ to 10 digits). M =
// L_G + μL_H + sZZᵀ stays well conditioned for μ/100 (its smallest
// eigenvalue shrinks at most by that factor), and the factorization is
// exact, so no LOBPCG iteration suffers from it. With the multigrid
// preconditioner, which approximates M⁻¹, LOBPCG does not suffer from it
// either: μ/100 took 56 iterations at 3·10⁵ nodes where the default μ
// took 315 without the preconditioner.
const fastGEMuFactor = 100

// FastGEDenseCholesky reports whether FAST-GE with the default
// eigensolver solves its pencil on a graph of n nodes and nnz stored
// weights, with pairs constraint pairs, by the dense Cholesky path: an
// n×n factor, 8n² bytes, and its workspace. Exported for estimates of a
// request's memory (tether serve). Cost O(1).
func FastGEDenseCholesky(n, nnz, pairs int) bool { return useCholPencil(n, nnz+2*pairs) }

// useCholPencil reports whether a pencil of n nodes whose operators store
// nnz weights in all is solved by cholPencil.
func useCholPencil(n, nnz int) bool {
	if n <= DenseLimit || n > cholDenseMaxN {
		return false
	}
	fn := float64(n)
	return fn*fn*fn/3 < cholProductFlops*float64(nnz)
}

// cholPencil returns the k largest τ of L x = τ M x (M symmetric positive
// definite, L symmetric; both denseAdder) and their M-orthonormal vectors.
// M is formed densely and factorized, M = RᵀR, and the standard problem
// C y = τ y, C = R⁻ᵀ L R⁻¹, is solved by the eigensolver of s (applied
// implicitly: two triangular solves and one product by L per vector), then
// x = R⁻¹y. The eigenpairs are those of the pencil; only the arithmetic
// differs from LOBPCG with B = M, whose convergence depends on the
// conditioning of M (the degree spread of the graph) and which can need
// thousands of products where this needs one O(n³/3) factorization and a
// few dozen O(n²) solves. It returns an error wrapping errPencil when M is
// not numerically positive definite. Memory: one n×n array. ctx is checked
// between the blocks of the factorization (potrfContext; about 8 s in all
// at n = 4600 on 2 cores) and by the eigensolver.
func cholPencil(ctx context.Context, l, m eigen.Operator, k int, s *Settings) (*eigen.Result, error) {
	n := m.Dim()
	ma, ok := m.(denseAdder)
	if !ok {
		return nil, fmt.Errorf("%w: M cannot be formed densely", errPencil)
	}
	buf := make([]float64, n*n)
	ma.addDenseTo(buf, 1)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: n, Stride: n, Data: buf}
	if ok, err := potrfContext(ctx, blas64.Symmetric{Uplo: blas.Upper, N: n, Stride: n, Data: buf}, nil); err != nil {
		return nil, err
	} else if !ok {
		return nil, fmt.Errorf("%w: M = P + μL + sZZᵀ is not numerically positive definite (Cholesky failed)", errPencil)
	}
	op := &cholStdOp{r: r, a: l}
	res, err := s.orDefault().solve(ctx, eigen.Problem{A: op, K: k, Which: eigen.Largest})
	if err != nil && res == nil {
		return nil, err
	}
	x := mat.DenseCopyOf(res.Vectors)
	op.solve(blas.NoTrans, x)
	res.Vectors = x
	return res, err
}

// cholStdOp is C = R⁻ᵀ A R⁻¹ for an upper triangular R and an operator A,
// applied implicitly. Cost 2n²p + cost(A) per n×p block.
type cholStdOp struct {
	r blas64.Triangular
	a eigen.Operator
	y mat.Dense // workspace of MulTo, reused while the block size stays
}

// Dim returns n.
func (c *cholStdOp) Dim() int { return c.r.N }

// MulTo sets dst = R⁻ᵀ A R⁻¹ x.
func (c *cholStdOp) MulTo(dst, x *mat.Dense) {
	r, p := x.Dims()
	if yr, yp := c.y.Dims(); yr != r || yp != p {
		c.y = *mat.NewDense(r, p, nil)
	}
	c.y.Copy(x)
	c.solve(blas.NoTrans, &c.y)
	c.a.MulTo(dst, &c.y)
	c.solve(blas.Trans, dst)
}

// solve sets b = R⁻¹b (or R⁻ᵀb): column by column when b has one column
// (gonum's Dtrsv is several times faster than its Dtrsm on one column).
func (c *cholStdOp) solve(t blas.Transpose, b *mat.Dense) {
	raw := b.RawMatrix()
	if raw.Cols == 1 {
		blas64.Trsv(t, c.r, blas64.Vector{N: raw.Rows, Inc: raw.Stride, Data: raw.Data})
		return
	}
	blas64.Trsm(blas.Left, t, 1, c.r, raw)
}

// genSolve runs a generalized (or standard) symmetric problem with the
// solver of s, or when s.Eigen is nil the dense solver for n ≤ DenseLimit
// and LOBPCG otherwise (Lanczos does not take a B).
func genSolve(ctx context.Context, pr eigen.Problem, s *Settings) (*eigen.Result, error) {
	ss := *s
	if ss.Eigen == nil {
		if pr.A.Dim() <= DenseLimit {
			ss.Eigen = eigen.Dense{}
		} else {
			ss.Eigen = eigen.LOBPCG{}
		}
	}
	return ss.solve(ctx, pr)
}

// densePencil returns the k smallest finite eigenpairs of P x = λ L x for
// dense symmetric P and positive semidefinite L, through the Schur
// complement onto the range of L (see densePencilEig for the formulas).
// When the null space of L restricted to its support S is spanned by 1_S —
// always the case for the Laplacian L_H of FAST-GE-2.0, whose graph is
// complete on S — the range basis is the Householder complement of 1_S and
// the reduced symmetric-definite problem (S̃, QᵀL_SS Q) is solved for its k
// smallest pairs only (dense solver up to DenseLimit, LOBPCG above), so the
// cost is O(|S|²·|S| + |U|³) in matrix products and one LU instead of two
// full eigendecompositions. Otherwise densePencilEig is used. s may be nil.
// ctx is checked between the blocks of the Cholesky factorization
// (potrfContext), the products (mulContext) and the Schur complement
// (schurComplement), whose numbers are those of mat.Cholesky, mat.Dense.Mul
// and mat.LU bit for bit, and by the eigensolver. When the reduced
// problem's iterative solve does not converge, its pairs are returned
// with an error wrapping eigen.ErrNoConvergence.
func densePencil(ctx context.Context, p, l *mat.Dense, k int, s ...*Settings) ([]float64, *mat.Dense, error) {
	n, _ := p.Dims()
	sup, out := pencilSupport(l)
	ns, nu := len(sup), len(out)
	if ns < k+1 {
		return densePencilEig(ctx, p, l, k)
	}
	lss := subMatrix(l, sup, sup)
	// L_SS 1_S must vanish (relative to ‖L_SS‖) for 1_S to be null.
	var lnorm, rmax float64
	for a := 0; a < ns; a++ {
		var rs float64
		for b := 0; b < ns; b++ {
			v := lss.At(a, b)
			rs += v
			lnorm = math.Max(lnorm, math.Abs(v))
		}
		rmax = math.Max(rmax, math.Abs(rs))
	}
	if rmax > 1e-10*lnorm*float64(ns) {
		return densePencilEig(ctx, p, l, k)
	}
	// Householder H = I − 2wwᵀ maps 1_S/√ns to e_1; Q = H[:, 1:].
	w := make([]float64, ns)
	c := 1 / math.Sqrt(float64(ns))
	for a := range w {
		w[a] = c
	}
	w[0] -= 1
	var wn float64
	for _, v := range w {
		wn += v * v
	}
	wn = math.Sqrt(wn)
	for a := range w {
		w[a] /= wn
	}
	r := ns - 1
	lq := mat.NewSymDense(r, nil)
	{
		t := hhBoth(lss, w)
		for a := 0; a < r; a++ {
			for b := a; b < r; b++ {
				lq.SetSym(a, b, (t.At(a, b)+t.At(b, a))/2)
			}
		}
	}
	v0 := mat.NewDense(ns, 1, nil)
	for a := 0; a < ns; a++ {
		v0.Set(a, 0, c)
	}
	// L̃ = RᵀR: the factorization mat.Cholesky.Factorize performs, on a
	// copy of the upper triangle, polling ctx between blocks.
	rbuf := make([]float64, r*r)
	lraw := lq.RawSymmetric()
	for a := 0; a < r; a++ {
		copy(rbuf[a*r+a:(a+1)*r], lraw.Data[a*lraw.Stride+a:a*lraw.Stride+r])
	}
	if ok, err := potrfContext(ctx, blas64.Symmetric{Uplo: blas.Upper, N: r, Stride: r, Data: rbuf}, nil); err != nil {
		return nil, nil, err
	} else if !ok {
		return densePencilEig(ctx, p, l, k)
	}
	pss := subMatrix(p, sup, sup)
	pq := hhRight(pss, w) // P_SS Q
	prr := hhBoth(pss, w) // Qᵀ P_SS Q
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	nn := nu + 1
	pnr := mat.NewDense(nn, r, nil)
	pnn := mat.NewDense(nn, nn, nil)
	var pus *mat.Dense
	if nu > 0 {
		pus = subMatrix(p, out, sup)
		pnr.Slice(0, nu, 0, r).(*mat.Dense).Copy(hhRight(pus, w))
		pnn.Slice(0, nu, 0, nu).(*mat.Dense).Copy(subMatrix(p, out, out))
		t := mat.NewDense(nu, 1, nil)
		if err := mulContext(ctx, t, pus, v0, nil); err != nil {
			return nil, nil, err
		}
		pnn.Slice(0, nu, nu, nn).(*mat.Dense).Copy(t)
		pnn.Slice(nu, nn, 0, nu).(*mat.Dense).Copy(t.T())
	}
	if err := mulContext(ctx, pnr.Slice(nu, nn, 0, r).(*mat.Dense), v0.T(), pq, nil); err != nil {
		return nil, nil, err
	}
	{
		t := mat.NewDense(ns, 1, nil)
		if err := mulContext(ctx, t, pss, v0, nil); err != nil {
			return nil, nil, err
		}
		var v float64
		for a := 0; a < ns; a++ {
			v += c * t.At(a, 0)
		}
		pnn.Set(nu, nu, v)
	}
	x, err := schurComplement(ctx, pnn, pnr, prr)
	if err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	st := mat.NewSymDense(r, nil)
	for a := 0; a < r; a++ {
		for b := a; b < r; b++ {
			st.SetSym(a, b, (prr.At(a, b)+prr.At(b, a))/2)
		}
	}
	var set *Settings
	if len(s) > 0 {
		set = s[0]
	}
	// Standard form C = R⁻ᵀ S̃ R⁻¹ with L̃ = RᵀR, applied implicitly (two
	// triangular solves and one product per vector); a = R⁻¹y.
	cop := &cholOp{r: blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: r, Stride: r, Data: rbuf}, s: mat.DenseCopyOf(st)}
	res, err := set.orDefault().solve(ctx, eigen.Problem{A: cop, K: k, Which: eigen.Smallest})
	if err != nil && res == nil {
		if ctx.Err() != nil {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("%w: reduced problem: %v", errPencil, err)
	}
	// A solve that did not converge gives its pairs with its error
	// (eigen.ErrNoConvergence), for the caller's warnings: it was
	// dropped (review 117).
	unconverged := err
	ar := mat.DenseCopyOf(res.Vectors) // r×k; aᵀL̃a = yᵀy = 1, so xᵀLx = 1
	blas64.Trsm(blas.Left, blas.NoTrans, 1, cop.r, ar.RawMatrix())
	// Q·ar = H·[0; ar] = [0; ar] − 2w (w_{1:}ᵀ ar).
	xs := mat.NewDense(ns, k, nil)
	for j := 0; j < k; j++ {
		var dot float64
		for a := 0; a < r; a++ {
			dot += w[a+1] * ar.At(a, j)
		}
		for a := 0; a < ns; a++ {
			v := -2 * w[a] * dot
			if a > 0 {
				v += ar.At(a-1, j)
			}
			xs.Set(a, j, v)
		}
	}
	b := mat.NewDense(nn, k, nil)
	if err := mulContext(ctx, b, x, ar, nil); err != nil {
		return nil, nil, err
	}
	for a := 0; a < ns; a++ {
		for j := 0; j < k; j++ {
			xs.Set(a, j, xs.At(a, j)-c*b.At(nu, j))
		}
	}
	vecs := mat.NewDense(n, k, nil)
	for a, i := range sup {
		vecs.SetRow(i, xs.RawRowView(a))
	}
	for a, i := range out {
		for j := 0; j < k; j++ {
			vecs.Set(i, j, -b.At(a, j))
		}
	}
	if unconverged != nil {
		unconverged = fmt.Errorf("reduced problem: %w", unconverged)
	}
	return append([]float64(nil), res.Values...), vecs, unconverged
}

// hhRight returns (A H)[:, 1:] for H = I − 2wwᵀ: A − 2(Aw)wᵀ without its
// first column. Cost O(m·ns).
func hhRight(a *mat.Dense, w []float64) *mat.Dense {
	m, ns := a.Dims()
	out := mat.NewDense(m, ns-1, nil)
	for i := 0; i < m; i++ {
		row := a.RawRowView(i)
		var aw float64
		for b, v := range row {
			aw += v * w[b]
		}
		o := out.RawRowView(i)
		for b := 1; b < ns; b++ {
			o[b-1] = row[b] - 2*aw*w[b]
		}
	}
	return out
}

// hhBoth returns (H A H)[1:, 1:] for symmetric A and H = I − 2wwᵀ:
// A − 2w(Aw)ᵀ − 2(Aw)wᵀ + 4(wᵀAw)wwᵀ without its first row and column.
// Cost O(ns²).
func hhBoth(a *mat.Dense, w []float64) *mat.Dense {
	ns, _ := a.Dims()
	aw := make([]float64, ns)
	var waw float64
	for i := 0; i < ns; i++ {
		row := a.RawRowView(i)
		for b, v := range row {
			aw[i] += v * w[b]
		}
		waw += w[i] * aw[i]
	}
	out := mat.NewDense(ns-1, ns-1, nil)
	for i := 1; i < ns; i++ {
		row := a.RawRowView(i)
		o := out.RawRowView(i - 1)
		for b := 1; b < ns; b++ {
			o[b-1] = row[b] - 2*w[i]*aw[b] - 2*aw[i]*w[b] + 4*waw*w[i]*w[b]
		}
	}
	return out
}

// cholOp is C = R⁻ᵀ S R⁻¹ for an upper triangular R, applied implicitly.
type cholOp struct {
	r blas64.Triangular
	s *mat.Dense
}

func (c *cholOp) Dim() int { return c.r.N }

func (c *cholOp) MulTo(dst, x *mat.Dense) {
	y := mat.DenseCopyOf(x)
	blas64.Trsm(blas.Left, blas.NoTrans, 1, c.r, y.RawMatrix())
	dst.Mul(c.s, y)
	blas64.Trsm(blas.Left, blas.Trans, 1, c.r, dst.RawMatrix())
}

// densePencilEig is densePencil by full eigendecompositions: of L_SS for
// its range and null space, and of the reduced problem. Let S be the
// support of L (rows with a non-zero entry) and U the other nodes, and
// [V_R V_0] an orthonormal eigenbasis of L_SS (range, null). With
// x_S = V_R a + V_0 b_0 and x_U = b_U, the null-space rows give
// b = −P_nn⁻¹ P_nr a and the range rows (P_rr − P_rn P_nn⁻¹ P_nr) a = λ Λ a,
// Λ the positive eigenvalues of L, where
//
//	P_rr = V_Rᵀ P_SS V_R,  P_nr = [P_US V_R; V_0ᵀ P_SS V_R],
//	P_nn = [P_UU, P_US V_0; V_0ᵀ P_SU, V_0ᵀ P_SS V_0].
//
// The vectors are scaled to xᵀLx = 1. It returns an error when L has a
// negative eigenvalue, rank(L) < k, or P_nn is singular (P and L share a
// null vector). Cost O(|S|³ + |U|³ + |U|²·|S|) — for FAST-GE-2.0 S is the
// set of labelled nodes.
//
// ctx is checked between the blocks of the products (mulContext) and of
// the Schur complement (schurComplement), and right before and after each
// of the two eigendecompositions, of L_SS (|S|×|S|) and of S̃
// (rank(L)×rank(L)). Those are mat.EigenSym with vectors (LAPACK dsyev),
// single gonum calls that cannot poll without copying gonum's code into
// ours: each is an unpolled stretch of 0.23 s at size 500, 2.4 s at 1000
// and 29 s at 2000 on the 2-core machine (about 9m³ flops, so some 100 s
// at 3000, the dense limit). densePencil, the path FAST-GE-2.0 takes,
// avoids them.
func densePencilEig(ctx context.Context, p, l *mat.Dense, k int) ([]float64, *mat.Dense, error) {
	n, _ := p.Dims()
	sup, out := pencilSupport(l)
	ns, nu := len(sup), len(out)
	if ns < k {
		return nil, nil, fmt.Errorf("%w: %w: only %s, %d requested (too few constraints, or constraints that contradict each other?)", ErrInvalid, errPencil, wording.Count(max(ns-1, 0), "finite generalized eigenvalue", "finite generalized eigenvalues"), k)
	}
	ls := mat.NewSymDense(ns, nil)
	for a, i := range sup {
		for b := a; b < ns; b++ {
			j := sup[b]
			ls.SetSym(a, b, (l.At(i, j)+l.At(j, i))/2)
		}
	}
	// mat.EigenSym with vectors (LAPACK dsyev: tridiagonal reduction,
	// Dorgtr, Dsteqr) is one gonum call that cannot poll; ctx is checked
	// right before and after it, as for the second one below.
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	var es mat.EigenSym
	if !es.Factorize(ls, true) {
		return nil, nil, fmt.Errorf("%w: eigendecomposition of L failed", errPencil)
	}
	w := es.Values(nil)
	var v mat.Dense
	es.VectorsTo(&v)
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	wmax := 0.0
	for _, x := range w {
		wmax = math.Max(wmax, math.Abs(x))
	}
	tol := 1e-10 * math.Max(wmax, 1e-300)
	var rng, nul []int
	for j, x := range w {
		switch {
		case x < -1e3*tol:
			return nil, nil, fmt.Errorf("%w: L has the negative eigenvalue %g", errPencil, x)
		case x > tol:
			rng = append(rng, j)
		default:
			nul = append(nul, j)
		}
	}
	r, n0 := len(rng), len(nul)
	if r < k {
		return nil, nil, fmt.Errorf("%w: %w: only %s, %d requested (too few constraints, or constraints that contradict each other?)", ErrInvalid, errPencil, wording.Count(r, "finite generalized eigenvalue", "finite generalized eigenvalues"), k)
	}
	all := make([]int, ns)
	for j := range all {
		all[j] = j
	}
	vr := subMatrix(&v, all, rng)
	pss := subMatrix(p, sup, sup)
	pssVr := mat.NewDense(ns, r, nil)
	if err := mulContext(ctx, pssVr, pss, vr, nil); err != nil {
		return nil, nil, err
	}
	prr := mat.NewDense(r, r, nil)
	if err := mulContext(ctx, prr, vr.T(), pssVr, nil); err != nil {
		return nil, nil, err
	}
	var b0, bu *mat.Dense // P_nn⁻¹ P_nr split into the V_0 rows and the U rows
	var v0 *mat.Dense
	if nn := nu + n0; nn > 0 {
		pnr := mat.NewDense(nn, r, nil)
		pnn := mat.NewDense(nn, nn, nil)
		var pus *mat.Dense
		if nu > 0 {
			pus = subMatrix(p, out, sup)
			if err := mulContext(ctx, pnr.Slice(0, nu, 0, r).(*mat.Dense), pus, vr, nil); err != nil {
				return nil, nil, err
			}
			pnn.Slice(0, nu, 0, nu).(*mat.Dense).Copy(subMatrix(p, out, out))
		}
		if n0 > 0 {
			v0 = subMatrix(&v, all, nul)
			if err := mulContext(ctx, pnr.Slice(nu, nn, 0, r).(*mat.Dense), v0.T(), pssVr, nil); err != nil {
				return nil, nil, err
			}
			t := mat.NewDense(ns, n0, nil)
			if err := mulContext(ctx, t, pss, v0, nil); err != nil {
				return nil, nil, err
			}
			if err := mulContext(ctx, pnn.Slice(nu, nn, nu, nn).(*mat.Dense), v0.T(), t, nil); err != nil {
				return nil, nil, err
			}
			if nu > 0 {
				c := mat.NewDense(nu, n0, nil)
				if err := mulContext(ctx, c, pus, v0, nil); err != nil {
					return nil, nil, err
				}
				pnn.Slice(0, nu, nu, nn).(*mat.Dense).Copy(c)
				pnn.Slice(nu, nn, 0, nu).(*mat.Dense).Copy(c.T())
			}
		}
		x, err := schurComplement(ctx, pnn, pnr, prr)
		if err != nil {
			return nil, nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if nu > 0 {
			bu = x.Slice(0, nu, 0, r).(*mat.Dense)
		}
		if n0 > 0 {
			b0 = x.Slice(nu, nn, 0, r).(*mat.Dense)
		}
	}
	// S̃ = Λ^{-1/2} S Λ^{-1/2}.
	st := mat.NewSymDense(r, nil)
	for a := 0; a < r; a++ {
		for b := a; b < r; b++ {
			val := (prr.At(a, b) + prr.At(b, a)) / 2 / math.Sqrt(w[rng[a]]*w[rng[b]])
			st.SetSym(a, b, val)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	var es2 mat.EigenSym
	if !es2.Factorize(st, true) {
		return nil, nil, fmt.Errorf("%w: eigendecomposition of the Schur complement failed", errPencil)
	}
	vals := es2.Values(nil)[:k:k]
	var y mat.Dense
	es2.VectorsTo(&y)
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	ar := mat.NewDense(r, k, nil)
	for a := 0; a < r; a++ {
		f := 1 / math.Sqrt(w[rng[a]])
		for j := 0; j < k; j++ {
			ar.Set(a, j, y.At(a, j)*f)
		}
	}
	xs := mat.NewDense(ns, k, nil)
	if err := mulContext(ctx, xs, vr, ar, nil); err != nil {
		return nil, nil, err
	}
	if b0 != nil {
		t := mat.NewDense(n0, k, nil)
		if err := mulContext(ctx, t, b0, ar, nil); err != nil {
			return nil, nil, err
		}
		c := mat.NewDense(ns, k, nil)
		if err := mulContext(ctx, c, v0, t, nil); err != nil {
			return nil, nil, err
		}
		xs.Sub(xs, c)
	}
	vecs := mat.NewDense(n, k, nil)
	for a, i := range sup {
		vecs.SetRow(i, xs.RawRowView(a))
	}
	if bu != nil {
		t := mat.NewDense(nu, k, nil)
		if err := mulContext(ctx, t, bu, ar, nil); err != nil {
			return nil, nil, err
		}
		for a, i := range out {
			row := t.RawRowView(a)
			for j := range row {
				vecs.Set(i, j, -row[j])
			}
		}
	}
	return append([]float64(nil), vals...), vecs, nil
}

// pencilSupport splits the nodes into the support S of L (rows with a
// nonzero entry) and the rest U, in increasing order. Cost O(n²).
func pencilSupport(l *mat.Dense) (sup, out []int) {
	n, _ := l.Dims()
	for i := 0; i < n; i++ {
		nz := false
		for j := 0; j < n && !nz; j++ {
			nz = l.At(i, j) != 0
		}
		if nz {
			sup = append(sup, i)
		} else {
			out = append(out, i)
		}
	}
	return sup, out
}

// subMatrix returns the submatrix of m on the given rows and columns (a
// view of a new matrix; either list may be empty).
func subMatrix(m *mat.Dense, rows, cols []int) *mat.Dense {
	o := mat.NewDense(max(len(rows), 1), max(len(cols), 1), nil)
	for a, i := range rows {
		for b, j := range cols {
			o.Set(a, b, m.At(i, j))
		}
	}
	return o.Slice(0, len(rows), 0, len(cols)).(*mat.Dense)
}

// schurComplement eliminates the null-space block of the pencil matrix P:
// it solves P_nn X = P_nr and sets P_rr ← P_rr − P_nrᵀ X, the Schur
// complement, returning X. A singular P_nn (P and L share a null vector)
// gives an error wrapping errPencil. The numbers are those of mat.LU's
// Factorize, Cond and SolveTo and of mat.Dense.Mul, bit for bit, with ctx
// checked between their blocks (luFactorContext, solveContext,
// mulContext; the condition estimate, O(nn²), does not poll); the error
// is then ctx.Err(). Cost 2nn³/3 + 2nn²·r + 2nn·r² flops for an nn×nn
// P_nn and r columns.
func schurComplement(ctx context.Context, pnn, pnr, prr *mat.Dense) (*mat.Dense, error) {
	lu, err := luFactorContext(ctx, pnn, nil)
	if err != nil {
		return nil, err
	}
	if cond := lu.cond; math.IsInf(cond, 1) || cond > 1e14 {
		return nil, fmt.Errorf("%w: P is singular on the null space of L (condition %.3g): P and L share a null vector", errPencil, cond)
	}
	nn, _ := pnn.Dims()
	_, r := pnr.Dims()
	x := mat.NewDense(nn, r, nil)
	if err := lu.solveContext(ctx, x, pnr, nil); err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %v", errPencil, err)
	}
	corr := mat.NewDense(r, r, nil)
	if err := mulContext(ctx, corr, pnr.T(), x, nil); err != nil {
		return nil, err
	}
	prr.Sub(prr, corr)
	return x, nil
}
