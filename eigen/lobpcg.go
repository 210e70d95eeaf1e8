package eigen

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/progress"
)

// LOBPCG computes the K smallest or largest eigenpairs of the generalized
// symmetric-definite problem A x = λ B x (B symmetric positive definite,
// nil meaning the identity) by the locally optimal block preconditioned
// conjugate gradient method of Knyazev (SIAM J. Sci. Comput. 23(2), 2001).
//
// Each iteration performs a Rayleigh–Ritz step on the subspace spanned by the
// current block X, the preconditioned residuals W = T(AX − BXΘ) of the
// columns not yet converged and the previous search directions P. The
// stabilizations follow Hetmaniuk & Lehoucq (J. Comput. Phys. 218, 2006) and
// Duersch, Shao, Yang & Gu (SIAM J. Sci. Comput. 40(5), 2018):
//   - the basis [X, P, W] is kept B-orthonormal: W is projected out of the
//     deflated vectors, X and P twice and then orthonormalized by SVQB
//     (Stathopoulos & Wu 2002) — a scaled eigendecomposition of WᵀBW — in
//     which near-dependent directions are dropped instead of letting an
//     ill-conditioned Gram matrix break the Rayleigh–Ritz step;
//   - P is taken as the component of the new Ritz coefficients outside the
//     new X (Duersch et al. Alg. 4), so it is B-orthogonal to X by
//     construction and the projected problem is a standard one;
//   - converged columns are soft-locked: they stay in X but get no new
//     directions;
//   - AX, BX, AP, BP are updated implicitly and recomputed explicitly before
//     convergence is accepted.
//
// A block of p vectors counts p applications of A in Result.MatVecs. Cost per
// iteration: at most BlockSize applications of A, of B and of T, plus
// O(n·BlockSize²) flops of dense block algebra (with a constant of about 30);
// memory, BlockSize being the effective block size (LOBPCG.BlockSize, at
// least K − d, or K − d + max(2, ⌈(K − d)/2⌉) when it is 0):
// 12·n·BlockSize floats (16 with B), a copy of the d deflated vectors
// (n·d, and n·d more with B for B times them), three 3·BlockSize square
// projected matrices (SᵀAS, its eigenvectors and the eigensolver's
// copy) with O(BlockSize) values a row of work, and at the end the check
// of the result (the n×(K − d) vectors and two products of at most n×64,
// three with B, besides the n×K result). Settings.MaxDenseBytes bounds
// all but the result, as Workspace counts it (a solve that needs more is
// refused before allocating any). When the complement of
// the deflated vectors has fewer than 4·BlockSize dimensions the dense
// solver is used.
//
// Scale. The iteration's norms and Gram matrices are sums of squares, which
// underflow or overflow once ‖A‖ or ‖B‖ leaves about [1e-150, 1e150]: at
// ‖A‖ ≈ 1e-170 a residual norm of 0 was taken as converged at iteration 0,
// and near 1e-155 the Gram matrix of the residuals lost definiteness (review
// 117). So LOBPCG solves an exactly rescaled problem when an operator's
// scale, estimated from its first block product as max|Op·X| / max|X|,
// lies outside [2⁻²⁰⁰, 2²⁰⁰]: B by the product with the random starting
// block, A by the one with the B-orthonormal starting block, T by its first
// block of residuals. It then applies 2^−eB·B, 2^−eA·A and 2^−eT·T instead,
// powers of two (eB even) that bring the estimates near 1, and returns the
// eigenvalues times 2^(eA−eB) and the vectors times 2^(−eB/2), which makes
// them eigenpairs of A x = λ B x, B-orthonormal: exact in floating point.
// Scaling T changes only the length of the new search directions, not their
// span. Within that range nothing is rescaled. Rescaling the operators is
// preferred to scaled norms (dnrm2's) throughout, as it also covers the
// Gram matrices, the Rayleigh–Ritz matrices and the block updates, and it
// costs O(n·BlockSize) once. Products with a NaN or an infinity (an
// operator out of floating-point range before any scaling) give an error
// wrapping ErrNonFinite.
//
// If B is not positive definite on the vectors it meets, Solve returns an
// error wrapping ErrNotPositiveDefinite. The zero value is ready to use.
type LOBPCG struct {
	// T is an optional symmetric positive definite preconditioner
	// approximating A⁻¹ (or (A − σB)⁻¹ for a shift σ below the wanted
	// eigenvalues); it is applied to blocks of residuals. Nil means none.
	T Operator
	// BlockSize is the number of columns of X. Extra columns beyond K speed
	// convergence of the K-th pair. If BlockSize is 0, K + max(2, ⌈K/2⌉) is
	// used (K counting the pairs not deflated). Values below K are raised to K.
	BlockSize int
}

// lobpcgMaxIter is the default number of iterations.
const lobpcgMaxIter = 1000

// Solve implements Solver. Settings.MaxIter counts iterations (default 1000).
func (l LOBPCG) Solve(ctx context.Context, p Problem, s *Settings) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n, d, err := p.check()
	if err != nil {
		return nil, err
	}
	if l.BlockSize < 0 {
		return nil, fmt.Errorf("%w: negative LOBPCG BlockSize %d", ErrInvalid, l.BlockSize)
	}
	if l.T != nil && l.T.Dim() != n {
		return nil, fmt.Errorf("%w: LOBPCG preconditioner has dimension %d, A has %d", ErrInvalid, l.T.Dim(), n)
	}
	cfg, err := s.resolve(lobpcgMaxIter)
	if err != nil {
		return nil, err
	}
	kk := p.K - d
	bs := l.blockSize(kk)
	if n-d < 4*bs {
		return Dense{}.Solve(ctx, p, s)
	}
	if kk == 0 {
		// Nothing beyond the deflated pairs: no block is allocated, only
		// the deflated vectors' B-orthonormality checked (B·q, n×d) and
		// the result assembled.
		matvecs := 0
		mulA := counted(p.A, &matvecs)
		var mulB func(dst, x *mat.Dense)
		if p.B != nil {
			mulB = p.B.MulTo
			if d > 0 {
				q := contiguous(p.Deflate)
				bq := mat.NewDense(n, d, nil)
				p.B.MulTo(bq, q)
				if err := checkOrthonormal(q, bq, "B-orthonormal"); err != nil {
					return nil, err
				}
			}
		}
		res := finish(p, n, nil, nil, mulA, mulB)
		res.MatVecs = matvecs
		return res, nil
	}
	if need := lobpcgBytes(n, d, bs, p.K, p.B != nil); cfg.maxDense > 0 && need > float64(cfg.maxDense) {
		what := fmt.Sprintf("its %d blocks of n×%d values, the copy of its %d deflated vectors", lobpcgBlocks(p.B != nil), bs, d)
		if p.B != nil && d > 0 {
			what += ", B times them"
		}
		return nil, memoryBoundError{fmt.Errorf("%w: a LOBPCG solve of n = %d for K = %d eigenpairs needs about %s for %s, its %d×%d projected matrices with their work, and the check of the vectors it returns, more than Settings.MaxDenseBytes = %s: ask for fewer eigenpairs, or set a smaller LOBPCG.BlockSize", ErrInvalid, n, p.K, wording.Bytes(sat(need)), what, 3*bs, 3*bs, wording.Bytes(cfg.maxDense))}
	}
	w := newLobpcgWork(p, n, d, bs, l.T, cfg)
	if err := w.setupDeflation(p.Deflate); err != nil {
		return nil, err
	}
	vals, vecs, iters, conv, err := w.run(ctx, kk)
	if err != nil && vecs == nil {
		return nil, err
	}
	w.unscale(vals, vecs)
	if !finiteSlice(vals) {
		// The rescaled problem's eigenvalues, scaled back, leave
		// float64's range: A's and B's ranges allowed a pencil whose
		// eigenvalues are not representable.
		return nil, fmt.Errorf("%w: the eigenvalues of the pencil overflow float64 (LOBPCG solved it scaled by 2^%d)", ErrNonFinite, w.expB-w.expA)
	}
	// The workspace is not held while finish copies and checks the
	// result: its products with A are counted on from w's count by a
	// counter of their own (w.mulA's counter is a field of w).
	matvecs, mulB, worst := w.matvecs, w.mulB, slices.Max(w.rel[:kk])
	w = nil
	res := finish(p, n, vals, vecs, counted(p.A, &matvecs), mulB)
	res.MatVecs = matvecs
	res.Iterations = iters
	if err != nil {
		return res, err
	}
	if !conv {
		return res, fmt.Errorf("%w: LOBPCG reached %s with largest relative residual %.3g > %.3g", ErrNoConvergence, wording.Count(cfg.maxIter, "iteration", "iterations"), worst, cfg.tol)
	}
	return res, nil
}

// lobpcgWork holds the workspace. Blocks are n×c row-major; the basis S has
// room for smax = 3·bs columns laid out as [X | P | W].
type lobpcgWork struct {
	a, b, t    Operator
	mulA, mulB func(dst, x *mat.Dense) // A and B as given (for finish)
	// opA, opB and opT apply 2^−expA·A, 2^−expB·B and 2^−eT·T, the
	// operators of the rescaled problem the iteration solves (see
	// LOBPCG); they are A, B and T at ordinary scales.
	opA, opB, opT func(dst, x *mat.Dense)
	expA, expB    int
	tScaled       bool // T's scale has been estimated
	n, bs, s3     int
	which         Which
	cfg           config
	gen           bool // B is set

	q, bq *mat.Dense // deflated vectors and B·q (bq = q when !gen)

	sBuf, asBuf, bsBuf []float64 // n×s3
	nBuf               []float64 // n×s3 scratch for updates
	u, bu, au, tu      []float64 // n×bs contiguous blocks

	theta, rel    []float64
	normA, normB  float64
	matvecs       int
	iterations    int
	newP          int // columns of P after the last Rayleigh–Ritz step
	xnorm, rnorm  []float64
	before, after []float64
	gram          []float64 // s3×s3: the projected matrix SᵀAS
	ev            mat.Dense
}

// blockSize returns the number of columns of X for kk pairs not
// deflated: BlockSize, kk + max(2, ⌈kk/2⌉) when it is 0, and at least kk.
// Cost O(1).
func (l LOBPCG) blockSize(kk int) int {
	bs := l.BlockSize
	if bs == 0 {
		bs = kk + max(2, (kk+1)/2)
	}
	return max(bs, kk)
}

// Workspace returns what a Solve of K eigenpairs, d of them deflated
// (Problem.Deflate's columns), on n rows holds at its peak besides the
// result's n×K vectors, with B (generalized) or without: bytes, the memory
// Settings.MaxDenseBytes bounds and refuses a solve beyond, as lobpcgBytes
// counts it (its lobpcgBlocks blocks of n×BlockSize values, 16 with B and
// 12 without, the copy of the deflated vectors and with B their products
// B·q, n×d each, three 3·BlockSize square projected matrices with the
// eigensolve's workspace, and the check of the result: the solver's n×(K
// − d) vectors and finish's products; 8 bytes a value, saturating at
// math.MaxInt64), and projected, the order 3·BlockSize of the matrix each
// iteration's Rayleigh–Ritz step diagonalizes (gonum's mat.EigenSym, with
// its vectors, which takes no context: Solve polls its context once an
// iteration, between such steps). BlockSize is the effective block size:
// l's (at least K − d), or K − d + max(2, ⌈(K − d)/2⌉) when 0. It
// describes the iterative solve: Solve passes a problem whose complement
// of the deflated vectors has fewer than 4·BlockSize dimensions to the
// dense solver instead (DenseBytes), and one of K = d allocates nothing
// of this. A front end that bounds a request's memory and time before it
// runs (tether serve) counts the same bytes the solver refuses at. Cost
// O(1).
func (l LOBPCG) Workspace(n, k, d int, generalized bool) (bytes int64, projected int) {
	bs := l.blockSize(max(k-d, 0))
	return sat(lobpcgBytes(n, d, bs, k, generalized)), 3 * bs
}

// lobpcgBlocks returns the number of n×bs blocks newLobpcgWork allocates:
// the basis S = [X | P | W], A·S and the update scratch, three blocks
// each, and the blocks u, A·u and T·u; with B, B·S (three) and B·u too.
func lobpcgBlocks(gen bool) int {
	if gen {
		return 16
	}
	return 12
}

// lobpcgBytes returns the memory a LOBPCG solve of k pairs, d of them
// deflated, with block size bs holds at its peak besides the n×k vectors
// it returns, as Settings.MaxDenseBytes counts it, 8 bytes a value, as a
// float64 so that it cannot overflow:
//   - newLobpcgWork's lobpcgBlocks(gen) blocks of n×bs values, the copy
//     of the deflated vectors q and with B their products B·q (n×d each);
//   - the projected matrices, s3 = 3bs: the matrix SᵀAS (w.gram) and the
//     eigenvectors w.ev, s3×s3 each, held throughout, and what the
//     Rayleigh–Ritz step adds to them: gonum's EigenSym's copy of the
//     matrix and its workspace (eigWork·s3 values); the other steps add
//     less (the s3×2bs Ritz coefficients, svqb's bs×bs matrices) but for
//     the projection's d×bs coefficients on the deflated vectors;
//   - finishBytes(n, k, k − d, gen): the check of the result, which a
//     collector that has not yet reclaimed the workspace sees beside it.
//
// Cost O(1).
func lobpcgBytes(n, d, bs, k int, gen bool) float64 {
	fn, fd := float64(n), float64(d)
	vals := float64(lobpcgBlocks(gen))*fn*float64(bs) + fn*fd
	if gen {
		vals += fn * fd
	}
	s3 := 3 * float64(bs)
	vals += 2*s3*s3 + max(s3*s3+eigWork*s3, fd*float64(bs))
	return 8*vals + finishBytes(n, k, k-d, gen)
}

// newLobpcgWork allocates the workspace: the blocks of lobpcgBytes and
// the s3×s3 matrix w.gram (setupDeflation the copy of q and B·q, the
// iteration the rest). Cost O(n·bs) (B·q is computed by
// setupDeflation).
func newLobpcgWork(p Problem, n, d, bs int, t Operator, cfg config) *lobpcgWork {
	s3 := 3 * bs
	w := &lobpcgWork{
		a: p.A, b: p.B, t: t, n: n, bs: bs, s3: s3, which: p.Which, cfg: cfg, gen: p.B != nil,
		sBuf: make([]float64, n*s3), asBuf: make([]float64, n*s3), nBuf: make([]float64, n*s3),
		u: make([]float64, n*bs), au: make([]float64, n*bs), tu: make([]float64, n*bs),
		theta: make([]float64, s3), rel: make([]float64, bs), gram: make([]float64, s3*s3),
		xnorm: make([]float64, bs), rnorm: make([]float64, bs), before: make([]float64, bs), after: make([]float64, bs),
	}
	w.mulA = counted(p.A, &w.matvecs)
	w.opA = w.mulA
	if t != nil {
		w.opT = t.MulTo
	}
	if w.gen {
		w.bsBuf = make([]float64, n*s3)
		w.bu = make([]float64, n*bs)
		w.mulB = p.B.MulTo
		w.opB = w.mulB
	} else {
		w.bsBuf = w.sBuf
		w.bu = w.u
	}
	return w
}

// block returns the contiguous n×c block over buf.
func (w *lobpcgWork) block(buf []float64, c int) blas64.General {
	return blas64.General{Rows: w.n, Cols: c, Stride: max(c, 1), Data: buf[:w.n*c]}
}

// cols returns columns [off, off+c) of an n×s3 buffer.
func (w *lobpcgWork) cols(buf []float64, off, c int) blas64.General {
	return blas64.General{Rows: w.n, Cols: c, Stride: w.s3, Data: buf[off:]}
}

// apply sets dst = op·src for contiguous n×c blocks.
func (w *lobpcgWork) apply(op func(dst, x *mat.Dense), dst, src []float64, c int) {
	if c == 0 {
		// No column: nothing to compute, and an Operator need not take
		// an empty block (gonum's Dense.Scale panics on one; helper
		// 121 met it).
		return
	}
	var dd, sd mat.Dense
	dd.SetRawMatrix(w.block(dst, c))
	sd.SetRawMatrix(w.block(src, c))
	op(&dd, &sd)
}

func (w *lobpcgWork) setupDeflation(q *mat.Dense) error {
	if q == nil {
		return nil
	}
	w.q = contiguous(q)
	w.bq = w.q
	if w.gen {
		_, d := q.Dims()
		w.bq = mat.NewDense(w.n, d, nil)
		w.b.MulTo(w.bq, w.q)
		if err := checkOrthonormal(w.q, w.bq, "B-orthonormal"); err != nil {
			return err
		}
	}
	return nil
}

// scaleB estimates the scale of B from its product with the random block
// w.u (n×bs) and, when it lies outside [2⁻²⁰⁰, 2²⁰⁰], has the iteration use
// 2^−expB·B, expB even, with the deflated vectors q and B·q rescaled to
// 2^(expB/2)·q and 2^(−expB/2)·B·q, B-orthonormal for it (see LOBPCG). It
// costs one block product with B, which the B-orthonormalization of the
// starting block repeats after projecting out q; products with a NaN or
// an infinity are left to that step to report. Cost O(n·bs) besides.
func (w *lobpcgWork) scaleB() {
	n, bs := w.n, w.bs
	w.apply(w.mulB, w.bu, w.u, bs)
	e := scaleExponent(w.bu[:n*bs], w.u[:n*bs]) &^ 1
	if e == 0 {
		return
	}
	w.expB, w.opB = e, scaledMul(w.mulB, e)
	if w.q != nil {
		scaleSlice(w.q.RawMatrix().Data, e/2)
		scaleSlice(w.bq.RawMatrix().Data, -e/2)
	}
}

// unscale turns the eigenpairs of the rescaled problem 2^−expA·A x =
// μ·2^−expB·B x that run returns into those of A x = λ B x: λ = 2^(expA −
// expB)·μ and B-orthonormal vectors 2^(−expB/2)·x. Either may be nil. Cost
// O(n·len(vals)).
func (w *lobpcgWork) unscale(vals []float64, vecs *mat.Dense) {
	if w.expA != w.expB {
		scaleSlice(vals, w.expA-w.expB)
	}
	if w.expB != 0 && vecs != nil {
		scaleSlice(vecs.RawMatrix().Data, -w.expB/2)
	}
}

// gemm computes c = alpha·op(a)·op(b) + beta·c.
func gemm(ta, tb blas.Transpose, alpha float64, a, b blas64.General, beta float64, c blas64.General) {
	if c.Rows == 0 || c.Cols == 0 {
		return
	}
	if (ta == blas.NoTrans && a.Cols == 0) || (ta == blas.Trans && a.Rows == 0) {
		if beta != 1 {
			for i := 0; i < c.Rows; i++ {
				row := c.Data[i*c.Stride : i*c.Stride+c.Cols]
				for j := range row {
					row[j] *= beta
				}
			}
		}
		return
	}
	blas64.Gemm(ta, tb, alpha, a, b, beta, c)
}

// colNorms sets out[j] to the Euclidean norm of column j of g.
func colNorms(out []float64, g blas64.General) {
	clear(out[:g.Cols])
	for i := 0; i < g.Rows; i++ {
		row := g.Data[i*g.Stride : i*g.Stride+g.Cols]
		for j, v := range row {
			out[j] += v * v
		}
	}
	for j := range out[:g.Cols] {
		out[j] = math.Sqrt(out[j])
	}
}

// project removes from the contiguous block u (n×c) its B-components along
// the B-orthonormal columns of v (with bv = B·v): u ← u − v(bvᵀu), and
// updates bu likewise when updateBU is set.
func (w *lobpcgWork) project(u, bu blas64.General, v, bv blas64.General, updateBU bool) {
	if v.Cols == 0 || u.Cols == 0 {
		return
	}
	c := blas64.General{Rows: v.Cols, Cols: u.Cols, Stride: u.Cols, Data: make([]float64, v.Cols*u.Cols)}
	gemm(blas.Trans, blas.NoTrans, 1, bv, u, 0, c)
	gemm(blas.NoTrans, blas.NoTrans, -1, v, c, 1, u)
	if updateBU {
		gemm(blas.NoTrans, blas.NoTrans, -1, bv, c, 1, bu)
	}
}

// ortho makes the first c columns of w.u B-orthonormal and B-orthogonal to
// the deflated vectors and to columns [0, m) of the basis S, dropping
// directions that are numerically dependent. It sets w.bu = B·w.u and returns
// the number of columns kept (stored contiguously in w.u, w.bu).
//
// A second round is done only when the first one shows cancellation (a
// column lost more than 30% of its norm in the projection: "twice is
// enough", Parlett §6.9), dropped a direction, or met a scaled Gram matrix
// with condition number above 100.
func (w *lobpcgWork) ortho(c, m int) (int, error) {
	for round := 0; round < 2 && c > 0; round++ {
		u := w.block(w.u, c)
		bu := w.block(w.bu, c)
		colNorms(w.before, u)
		update := w.gen && round > 0
		if w.q != nil {
			w.project(u, bu, generalOf(w.q), generalOf(w.bq), update)
		}
		w.project(u, bu, w.cols(w.sBuf, 0, m), w.cols(w.bsBuf, 0, m), update)
		if w.gen && round == 0 {
			w.apply(w.opB, w.bu, w.u, c)
		}
		var (
			err  error
			c2   int
			cond float64
		)
		if c2, cond, err = w.svqb(c); err != nil {
			return 0, err
		}
		again := c2 < c || cond > 100
		for j := 0; j < c && !again; j++ {
			again = w.after[j] < 0.7*w.before[j]
		}
		c = c2
		if !again {
			break
		}
	}
	return c, nil
}

// svqb B-orthonormalizes the first c columns of w.u (with w.bu = B·w.u) by
// the scaled eigendecomposition of G = uᵀBu, dropping columns that lost all
// but 1e-10 of their norm in the projection (w.before) and eigendirections
// of the scaled Gram matrix below 1e-12·c. It returns the number of columns
// kept and the condition number of the scaled Gram matrix on the kept
// columns. The column norms before orthonormalization are left in w.after.
func (w *lobpcgWork) svqb(c int) (int, float64, error) {
	u := w.block(w.u, c)
	bu := w.block(w.bu, c)
	after := w.after[:c]
	colNorms(after, u)
	g := blas64.General{Rows: c, Cols: c, Stride: c, Data: make([]float64, c*c)}
	gemm(blas.Trans, blas.NoTrans, 1, u, bu, 0, g)
	var keep []int
	for j := 0; j < c; j++ {
		if !(after[j] > 1e-10*w.before[j]) || after[j] == 0 {
			continue
		}
		gjj := g.Data[j*c+j]
		if math.IsNaN(gjj) || math.IsInf(gjj, 0) {
			return 0, 0, fmt.Errorf("%w produced by the operator (LOBPCG)", ErrNonFinite)
		}
		if gjj <= 0 {
			return 0, 0, fmt.Errorf("%w: xᵀBx = %.3g ≤ 0 for a nonzero x (LOBPCG)", ErrNotPositiveDefinite, gjj)
		}
		keep = append(keep, j)
	}
	k := len(keep)
	if k == 0 {
		return 0, 0, nil
	}
	dsc := make([]float64, k)
	gs := mat.NewSymDense(k, nil)
	for a, ja := range keep {
		dsc[a] = 1 / math.Sqrt(g.Data[ja*c+ja])
	}
	for a, ja := range keep {
		for b := a; b < k; b++ {
			jb := keep[b]
			v := 0.5 * (g.Data[ja*c+jb] + g.Data[jb*c+ja])
			gs.SetSym(a, b, v*dsc[a]*dsc[b])
		}
	}
	var es mat.EigenSym
	if !es.Factorize(gs, true) {
		return 0, 0, fmt.Errorf("%w: Gram matrix eigendecomposition failed (LOBPCG)", ErrNoConvergence)
	}
	lam := es.Values(nil)
	w.ev.Reset()
	es.VectorsTo(&w.ev)
	if lam[0] < -1e-8*lam[k-1] {
		return 0, 0, fmt.Errorf("%w: B-Gram matrix has eigenvalue %.3g (LOBPCG)", ErrNotPositiveDefinite, lam[0])
	}
	var dirs []int
	for i := k - 1; i >= 0; i-- {
		if lam[i] > 1e-12*float64(k)*lam[k-1] {
			dirs = append(dirs, i)
		}
	}
	c2 := len(dirs)
	// M (c×c2) = D Z Λ^{-1/2} restricted to kept columns/directions.
	mm := blas64.General{Rows: c, Cols: c2, Stride: max(c2, 1), Data: make([]float64, c*max(c2, 1))}
	for a, ja := range keep {
		for q, i := range dirs {
			mm.Data[ja*mm.Stride+q] = dsc[a] * w.ev.At(a, i) / math.Sqrt(lam[i])
		}
	}
	tmp := w.block(w.tu, c2)
	gemm(blas.NoTrans, blas.NoTrans, 1, u, mm, 0, tmp)
	copy(w.u[:w.n*c2], w.tu[:w.n*c2])
	if w.gen {
		gemm(blas.NoTrans, blas.NoTrans, 1, bu, mm, 0, tmp)
		copy(w.bu[:w.n*c2], w.tu[:w.n*c2])
	}
	return c2, lam[k-1] / math.Max(lam[0], math.SmallestNonzeroFloat64), nil
}

// putCols copies the contiguous n×c block src into columns [off, off+c) of
// the n×s3 buffer dst.
func (w *lobpcgWork) putCols(dst []float64, off int, src []float64, c int) {
	for i := 0; i < w.n; i++ {
		copy(dst[i*w.s3+off:i*w.s3+off+c], src[i*c:(i+1)*c])
	}
}

// run iterates until the first kk columns of X converge. It returns the kk
// values and vectors (n×kk), the iteration count and whether they converged.
// A non-nil error with non-nil vectors is a partial result.
func (w *lobpcgWork) run(ctx context.Context, kk int) (vals []float64, vecs *mat.Dense, iters int, conv bool, err error) {
	n, bs := w.n, w.bs
	// Starting block: random, B-orthonormal, orthogonal to the deflated vectors.
	randomize(w.u[:n*bs], w.cfg.rng)
	if w.gen {
		w.scaleB()
	}
	c, err := w.ortho(bs, 0)
	if err != nil {
		return nil, nil, 0, false, err
	}
	if c < bs {
		return nil, nil, 0, false, fmt.Errorf("eigen: LOBPCG could not build %d independent B-orthonormal starting vectors (got %d)", bs, c)
	}
	w.putCols(w.sBuf, 0, w.u, bs)
	if w.gen {
		w.putCols(w.bsBuf, 0, w.bu, bs)
	}
	w.apply(w.opA, w.au, w.u, bs)
	if !finiteSlice(w.au[:n*bs]) {
		return nil, nil, 0, false, fmt.Errorf("%w produced by the operator (LOBPCG starting block)", ErrNonFinite)
	}
	if e := scaleExponent(w.au[:n*bs], w.u[:n*bs]); e != 0 {
		w.expA, w.opA = e, scaledMul(w.mulA, e)
		scaleSlice(w.au[:n*bs], -e)
	}
	w.putCols(w.asBuf, 0, w.au, bs)
	np, nw := 0, 0 // columns of P and W in S
	active := make([]int, 0, bs)
	lastActive := []int(nil)
	verified := false
	for iter := 0; ; iter++ {
		s := bs + np + nw
		if err := w.rayleighRitz(ctx, s, np, lastActive); err != nil {
			return nil, nil, iter, false, err
		}
		np = w.newP
		nw = 0
		if err := ctx.Err(); err != nil {
			return nil, nil, iter, false, err
		}
		// Residuals R = AX − BXΘ in w.u.
		if err := w.residuals(); err != nil {
			return nil, nil, iter, false, err
		}
		nconv := 0
		for j := 0; j < kk; j++ {
			if w.rel[j] <= w.cfg.tol {
				nconv++
			}
		}
		if nconv == kk && !verified {
			// Recompute AX and BX explicitly before accepting.
			w.refresh()
			if err := w.residuals(); err != nil {
				return nil, nil, iter, false, err
			}
			verified = true
			nconv = 0
			for j := 0; j < kk; j++ {
				if w.rel[j] <= w.cfg.tol {
					nconv++
				}
			}
		}
		progress.Send(w.cfg.rec, progress.Event{Stage: "eigen", Done: nconv, Total: kk,
			Message: fmt.Sprintf("LOBPCG iteration %d: %d/%d converged, max relative residual %.2e", iter, nconv, kk, slices.Max(w.rel[:kk]))})
		if nconv == kk || iter >= w.cfg.maxIter {
			vals = slices.Clone(w.theta[:kk])
			vecs = mat.NewDense(n, kk, nil)
			x := vecs.RawMatrix()
			for i := 0; i < n; i++ {
				copy(x.Data[i*kk:(i+1)*kk], w.sBuf[i*w.s3:i*w.s3+kk])
			}
			return vals, vecs, iter, nconv == kk, nil
		}
		if verified && nconv < kk {
			verified = false
		}
		if err := ctx.Err(); err != nil {
			return nil, nil, iter, false, err
		}
		// Active columns and their (preconditioned) residuals.
		active = active[:0]
		for j := 0; j < bs; j++ {
			if w.rel[j] > w.cfg.tol {
				active = append(active, j)
			}
		}
		na := len(active)
		// Gather R[:, active] into tu, then W = T·R or R into u.
		for i := 0; i < n; i++ {
			row := w.u[i*bs : (i+1)*bs]
			out := w.tu[i*na : (i+1)*na]
			for q, j := range active {
				out[q] = row[j]
			}
		}
		if w.t != nil {
			w.apply(w.opT, w.u, w.tu, na)
		} else {
			copy(w.u[:n*na], w.tu[:n*na])
		}
		if !finiteSlice(w.u[:n*na]) {
			return nil, nil, iter, false, fmt.Errorf("%w produced by the preconditioner (LOBPCG iteration %d)", ErrNonFinite, iter)
		}
		if w.t != nil && !w.tScaled {
			w.tScaled = true
			if e := scaleExponent(w.u[:n*na], w.tu[:n*na]); e != 0 {
				w.opT = scaledMul(w.t.MulTo, e)
				scaleSlice(w.u[:n*na], -e)
			}
		}
		nw, err = w.ortho(na, bs+np)
		if err != nil {
			return nil, nil, iter, false, err
		}
		if err := ctx.Err(); err != nil {
			return nil, nil, iter, false, err
		}
		if nw == 0 && np == 0 {
			vals = slices.Clone(w.theta[:kk])
			vecs = mat.NewDense(n, kk, nil)
			for i := 0; i < n; i++ {
				copy(vecs.RawMatrix().Data[i*kk:(i+1)*kk], w.sBuf[i*w.s3:i*w.s3+kk])
			}
			return vals, vecs, iter, false, fmt.Errorf("%w: LOBPCG stagnated at iteration %d (no new search directions), largest relative residual %.3g", ErrNoConvergence, iter, slices.Max(w.rel[:kk]))
		}
		w.apply(w.opA, w.au, w.u, nw)
		if !finiteSlice(w.au[:n*nw]) {
			return nil, nil, iter, false, fmt.Errorf("%w produced by the operator (LOBPCG iteration %d)", ErrNonFinite, iter)
		}
		off := bs + np
		w.putCols(w.sBuf, off, w.u, nw)
		w.putCols(w.asBuf, off, w.au, nw)
		if w.gen {
			w.putCols(w.bsBuf, off, w.bu, nw)
		}
		lastActive = append(lastActive[:0], active...)
		w.iterations = iter + 1
	}
}

// residuals sets w.u (n×bs) to R = AX − BXΘ, the relative residuals w.rel
// and updates the norm estimates. It returns an error wrapping ErrNonFinite
// when a residual norm is not finite: products out of floating-point range
// (after rescaling, an operator that grew far beyond the scale of its first
// product). Cost O(n·bs).
func (w *lobpcgWork) residuals() error {
	n, bs, s3 := w.n, w.bs, w.s3
	r := w.u
	an := make([]float64, bs)
	bn := make([]float64, bs)
	clear(w.xnorm)
	clear(w.rnorm)
	for i := 0; i < n; i++ {
		x := w.sBuf[i*s3 : i*s3+bs]
		ax := w.asBuf[i*s3 : i*s3+bs]
		bx := w.bsBuf[i*s3 : i*s3+bs]
		out := r[i*bs : (i+1)*bs]
		for j := range out {
			v := ax[j] - w.theta[j]*bx[j]
			out[j] = v
			w.rnorm[j] += v * v
			w.xnorm[j] += x[j] * x[j]
			an[j] += ax[j] * ax[j]
			bn[j] += bx[j] * bx[j]
		}
	}
	for j := 0; j < bs; j++ {
		xn := math.Sqrt(w.xnorm[j])
		w.xnorm[j] = xn
		w.rnorm[j] = math.Sqrt(w.rnorm[j])
		if xn > 0 {
			w.normA = max(w.normA, math.Sqrt(an[j])/xn)
			w.normB = max(w.normB, math.Sqrt(bn[j])/xn)
		}
	}
	for j := 0; j < bs; j++ {
		scale := w.normA
		if w.gen {
			scale += math.Abs(w.theta[j]) * w.normB
		}
		den := w.xnorm[j] * scale
		switch {
		case w.rnorm[j] == 0:
			w.rel[j] = 0
		case den > 0:
			w.rel[j] = w.rnorm[j] / den
		default:
			w.rel[j] = math.Inf(1)
		}
	}
	if !finiteSlice(w.rnorm) || !finiteSlice([]float64{w.normA, w.normB}) {
		return fmt.Errorf("%w produced by the operator (LOBPCG residual or operator norm)", ErrNonFinite)
	}
	return nil
}

// refresh recomputes AX and BX explicitly.
func (w *lobpcgWork) refresh() {
	n, bs := w.n, w.bs
	for i := 0; i < n; i++ {
		copy(w.tu[i*bs:(i+1)*bs], w.sBuf[i*w.s3:i*w.s3+bs])
	}
	w.apply(w.opA, w.au, w.tu, bs)
	w.putCols(w.asBuf, 0, w.au, bs)
	if w.gen {
		w.apply(w.opB, w.au, w.tu, bs)
		w.putCols(w.bsBuf, 0, w.au, bs)
	}
}

// rayleighRitz solves the projected problem on the first s columns of S
// (B-orthonormal), replaces X by the bs Ritz vectors selected by which and P
// by the part of the new Ritz vectors outside X for the columns listed in
// active (the previous iteration's active set); it sets w.theta and w.newP.
// It returns ctx's error, leaving S in no usable state, when ctx is done
// between its steps: the projection SᵀAS, the projected eigensolve and
// each block update (n·s² flops each, the bulk of an iteration: about
// 0.4 s at n = 6000, s = 270 on 2 cores; one poll an iteration let a
// solve run up to a whole iteration, 1.7 s under load, past its
// deadline: TestLOBPCGDeadline). Cost O(n·s² + s³).
func (w *lobpcgWork) rayleighRitz(ctx context.Context, s, np int, active []int) error {
	n, bs, s3 := w.n, w.bs, w.s3
	sv := w.cols(w.sBuf, 0, s)
	// The projected matrix SᵀAS in w.gram, symmetrized in place into its
	// upper triangle (each entry (i, j), j > i, reads (j, i) of the lower
	// one, which is not written), which the eigensolve reads: no copy of
	// it is made besides EigenSym's, and es is new each step, so that the
	// previous step's vectors are not held while it runs (lobpcgBytes
	// counts w.gram, EigenSym's copy and w.ev).
	g := blas64.General{Rows: s, Cols: s, Stride: s, Data: w.gram[:s*s]}
	gemm(blas.Trans, blas.NoTrans, 1, sv, w.cols(w.asBuf, 0, s), 0, g)
	if err := ctx.Err(); err != nil {
		return err
	}
	for i := 0; i < s; i++ {
		for j := i; j < s; j++ {
			v := 0.5 * (g.Data[i*s+j] + g.Data[j*s+i])
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w produced by the operator (LOBPCG Rayleigh–Ritz)", ErrNonFinite)
			}
			g.Data[i*s+j] = v
		}
	}
	var gs mat.SymDense
	gs.SetRawSymmetric(blas64.Symmetric{Uplo: blas.Upper, N: s, Stride: s, Data: g.Data})
	var es mat.EigenSym
	if !es.Factorize(&gs, true) {
		return fmt.Errorf("%w: projected eigenproblem failed (LOBPCG)", ErrNoConvergence)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	lam := es.Values(nil)
	w.ev.Reset()
	es.VectorsTo(&w.ev)
	// Coefficients: columns [0, bs) select X, then P's directions.
	nnew := bs
	if s > bs {
		nnew += len(active)
	}
	cm := make([]float64, s*nnew) // s×nnew, row-major
	for j := 0; j < bs; j++ {
		col := j
		if w.which == Largest {
			col = s - 1 - j
		}
		w.theta[j] = lam[col]
		for i := 0; i < s; i++ {
			cm[i*nnew+j] = w.ev.At(i, col)
		}
	}
	newP := 0
	if s > bs {
		// Y = [0; C_P; C_W] restricted to active columns, made orthogonal to
		// the X coefficients and orthonormalized (modified Gram–Schmidt with
		// dropping).
		y := make([]float64, s)
		for _, j := range active {
			for i := range s {
				if i < bs {
					y[i] = 0
				} else {
					y[i] = cm[i*nnew+j]
				}
			}
			orig := math.Sqrt(dot(y, y))
			if orig == 0 {
				continue
			}
			for pass := 0; pass < 2; pass++ {
				for q := 0; q < bs+newP; q++ {
					var c float64
					for i := range s {
						c += cm[i*nnew+q] * y[i]
					}
					for i := range s {
						y[i] -= c * cm[i*nnew+q]
					}
				}
			}
			nrm := math.Sqrt(dot(y, y))
			if nrm <= 1e-8*orig {
				continue
			}
			for i := range s {
				cm[i*nnew+bs+newP] = y[i] / nrm
			}
			newP++
		}
	}
	_ = np
	out := bs + newP
	cg := blas64.General{Rows: s, Cols: out, Stride: nnew, Data: cm}
	tmp := blas64.General{Rows: n, Cols: out, Stride: s3, Data: w.nBuf}
	bufs := [][]float64{w.sBuf, w.asBuf}
	if w.gen {
		bufs = append(bufs, w.bsBuf)
	}
	for _, buf := range bufs {
		if err := ctx.Err(); err != nil {
			return err
		}
		gemm(blas.NoTrans, blas.NoTrans, 1, w.cols(buf, 0, s), cg, 0, tmp)
		for i := 0; i < n; i++ {
			copy(buf[i*s3:i*s3+out], w.nBuf[i*s3:i*s3+out])
		}
	}
	w.newP = newP
	return nil
}

func dot(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}
