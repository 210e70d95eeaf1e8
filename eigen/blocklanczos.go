package eigen

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/internal/parallel"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/progress"
)

// BlockLanczos computes the K smallest or largest eigenpairs of a standard
// symmetric problem A x = λ x by thick-restart block Lanczos with full
// reorthogonalization, the symmetric case of the block Krylov–Schur method
// (Stewart, SIAM J. Matrix Anal. Appl. 23(3), 2002; Zhou & Saad, "Block
// Krylov–Schur method for large symmetric eigenvalue problems", Numer.
// Algorithms 47, 2008). Generalized problems (B ≠ nil) are rejected with an
// error: use LOBPCG or Dense.
//
// The basis V grows by blocks of BlockSize vectors: the last block X is
// multiplied by A in one block product (graph operators read the matrix once
// for the whole block, on both cores), and A·X is orthogonalized against all
// of V (and the deflated vectors) by block classical Gram–Schmidt, C = VᵀW
// then W −= V·C, each a matrix–matrix product (BLAS dgemm) split over row
// blocks run concurrently, followed by a rank-revealing orthonormalization
// of the block (SVQB, from the eigendecomposition of WᵀW). The components
// along the last two blocks (the block three-term recurrence) are removed
// first, so that one full pass usually passes the DGKS test; a second one
// is made when it does not. The Gram–Schmidt coefficients give the
// projected matrix H = VᵀAV; the Ritz pairs (θ, Vy) of H have residuals
// ‖R·y_last‖, where R couples V to the next block. When the wanted K have
// residual ≤ Tol·‖A‖ (‖A‖ estimated by the largest |θ| and ‖AX‖ seen) the run
// stops; otherwise V is compressed to the best Keep Ritz vectors plus the
// next block, whose coupling to them is R·Y_last (the Krylov–Schur
// relation), and extended again.
//
// Why a block. A block of p vectors resolves eigenvalues of multiplicity up
// to p, and clusters of up to p close eigenvalues, at the speed of a
// separated one: the convergence rate depends on the gap between the
// wanted eigenvalues and the (p+1)-th next one rather than the next one.
// Single-vector Lanczos (see Lanczos) resolves a tight cluster only after
// many restarts, and how many depends chaotically on rounding. If a new
// block loses rank (the Krylov space is invariant, as for the Laplacian of a
// disjoint union of cliques) the lost directions are replaced by random
// vectors orthogonal to the basis, so that every eigenspace is eventually
// reached; multiplicities above BlockSize are still best handled by
// deflation (Problem.Deflate). Without clusters a block costs more products
// than single-vector Lanczos for the same accuracy: for FGPWC's 48
// eigenvectors of a 10⁵-node k-NN graph it took 5711 products and 108 s
// where Lanczos took 2724 and 26 s (package doc, "Which solver").
//
// Cost per restart, with a basis of NCV vectors and p = BlockSize: (NCV −
// Keep) applications of A in blocks of p; 4·n·NCV flops of Gram–Schmidt
// per new vector for one pass, 8·n·NCV for two, all in dgemm (compute-bound,
// where single-vector Lanczos' gemv is bound by memory bandwidth, and run
// on two cores);
// 2·n·NCV·Keep flops for the Ritz vectors of the restart and O(NCV³) for
// the projected eigenproblem. Memory: n·(d + NCV + 2p) floats for the
// basis and deflated vectors plus n·3p of work blocks, three
// (NCV + p)×(NCV + p) projected matrices (H, the Ritz coefficients and
// the eigensolver's copy of H) with O(NCV·p) of work, and at the end the
// check of the result (the n×(K − d) Ritz vectors and two products of
// at most n×64, besides the n×K result); Settings.MaxDenseBytes bounds
// all but the result, as blockBytes counts it (a solve that needs more
// is refused before allocating any). When
// the complement of the d deflated vectors has fewer than 2·(NCV + 2p)
// dimensions the dense solver is used instead.
//
// Scale. The Gram matrices WᵀW of the new blocks are sums of squares, which
// underflow or overflow once ‖A‖ leaves about [1e-150, 1e150]: at ‖A‖ ≈
// 1e-160 every direction of a new block looked lost, the basis was taken
// for an invariant subspace and wrong values were returned as exact, and
// at 1e155 the run failed (review 117). So, as LOBPCG does, BlockLanczos
// estimates the scale of A from its first block product, max|A·X| /
// max|X|, and when that lies outside [2⁻²⁰⁰, 2²⁰⁰] it applies 2^−e·A
// instead, a power of two that brings the estimate near 1, and multiplies
// the eigenvalues by 2^e: exact in floating point, and within that range
// nothing is rescaled. A block that cannot be orthonormalized gives an
// error wrapping the cause (ErrNonFinite for products out of range).
//
// Results are deterministic: the row blocks of the products are fixed, not
// set by GOMAXPROCS. The zero value is ready to use.
type BlockLanczos struct {
	// BlockSize is the number p of vectors per block. If BlockSize is 0,
	// min(K, 4) is used, where K counts the pairs not deflated; it is
	// raised to 1 and lowered to K when out of [1, K].
	BlockSize int
	// NCV is the maximum dimension of the basis (without the deflated
	// vectors and the next block). If NCV is 0, max(2K, Keep + min(20p,
	// K + 32)) is used: a cycle must add many blocks, since the degree of the Krylov
	// polynomial a cycle builds is the number of blocks it adds (with
	// Lanczos' NCV = 2K + 1 and blocks of 8, K = 51 took 6835 products and
	// 168 restarts where Lanczos took 1427 and 32). It is raised to at
	// least K + p and rounded up so that a cycle adds whole blocks.
	NCV int
	// Keep is the number of Ritz vectors kept at a restart. If Keep is 0,
	// K + max(p, ⌈K/4⌉) is used, at most K + (NCV − K)/2 (as for Lanczos,
	// keeping few unwanted vectors saves Ritz vector work). It is clamped
	// to [K, NCV − p].
	Keep int
}

// blockMaxIter is the default number of restarts of BlockLanczos.
const blockMaxIter = 1000

// blockChunks is the number of row blocks of the parallel dgemm products,
// and blockMinWork the size (rows × columns of the products) below which
// they run serially.
const (
	blockChunks  = 4
	blockMinWork = 1 << 16
)

// blockDrop is the relative norm below which a direction of a new block is
// taken as lost (invariant subspace) and replaced by a random one.
const blockDrop = 1e-12

// Solve implements Solver. Settings.MaxIter counts restarts (default 1000).
func (l BlockLanczos) Solve(ctx context.Context, p Problem, s *Settings) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n, d, err := p.check()
	if err != nil {
		return nil, err
	}
	if p.B != nil {
		return nil, fmt.Errorf("%w: BlockLanczos solves standard problems only (B is set); use LOBPCG or Dense", ErrInvalid)
	}
	if l.BlockSize < 0 || l.NCV < 0 || l.Keep < 0 {
		return nil, fmt.Errorf("%w: negative BlockLanczos BlockSize %d, NCV %d or Keep %d", ErrInvalid, l.BlockSize, l.NCV, l.Keep)
	}
	cfg, err := s.resolve(blockMaxIter)
	if err != nil {
		return nil, err
	}
	kk := p.K - d
	matvecs := 0
	mulA := counted(p.A, &matvecs)
	if kk == 0 {
		res := finish(p, n, nil, nil, mulA, nil)
		res.MatVecs = matvecs
		return res, nil
	}
	bs, ncv, keep := l.shape(kk)
	if n-d < 2*(ncv+2*bs) {
		return Dense{}.Solve(ctx, p, s)
	}
	if need := blockBytes(n, d, bs, ncv, keep, p.K); cfg.maxDense > 0 && need > float64(cfg.maxDense) {
		return nil, memoryBoundError{fmt.Errorf("%w: a BlockLanczos solve of n = %d for K = %d eigenpairs needs about %s for its basis of %d vectors of n values (%d deflated, NCV = %d and two blocks of %d), its three work blocks of %d vectors, its %d×%d projected matrices with their work, and the check of the vectors it returns, more than Settings.MaxDenseBytes = %s: ask for fewer eigenpairs, or set a smaller BlockLanczos.NCV or BlockSize", ErrInvalid, n, p.K, wording.Bytes(sat(need)), d+ncv+2*bs, d, ncv, bs, bs, ncv+bs, ncv+bs, wording.Bytes(cfg.maxDense))}
	}
	r := newBlockRun(p.A, n, d, bs, ncv, cfg.rng)
	if d > 0 {
		raw := p.Deflate.RawMatrix()
		for i := 0; i < n; i++ {
			copy(r.v[i*r.ld:i*r.ld+d], raw.Data[i*raw.Stride:i*raw.Stride+d])
		}
	}
	report := func(done int, msg string) {
		progress.Send(cfg.rec, progress.Event{Stage: "eigen", Done: done, Total: kk, Message: msg})
	}
	vals, vecs, worst, ok, err := r.solve(ctx, kk, keep, p.Which, cfg.tol, cfg.maxIter, report)
	if err != nil {
		return nil, err
	}
	// The eigenvalues of A = 2^exp·(2^−exp·A), which the run solved.
	scaleSlice(vals, r.exp)
	if !finiteSlice(vals) {
		return nil, fmt.Errorf("%w: the eigenvalues of A overflow float64 (BlockLanczos solved 2^%d·A)", ErrNonFinite, -r.exp)
	}
	worst = math.Ldexp(worst, r.exp)
	matvecs += r.matvecs
	restarts := r.restarts
	r = nil // the basis is not held while finish copies and checks the result
	res := finish(p, n, vals, vecs, mulA, nil)
	res.MatVecs = matvecs
	res.Iterations = restarts
	if !ok {
		return res, fmt.Errorf("%w: BlockLanczos reached %d restarts with largest residual %.3g > %.3g·‖A‖", ErrNoConvergence, cfg.maxIter, worst, cfg.tol)
	}
	return res, nil
}

// shape resolves the block size, basis dimension and Keep for kk wanted
// pairs. The basis dimension is Keep + p + j·p for some j ≥ 1, so that every
// restart cycle adds whole blocks.
func (l BlockLanczos) shape(kk int) (bs, ncv, keep int) {
	bs = l.BlockSize
	if bs == 0 {
		bs = min(kk, 4)
	}
	bs = min(max(bs, 1), kk)
	keep = l.Keep
	if keep == 0 {
		keep = kk + max(bs, (kk+3)/4)
		if l.NCV > 0 {
			keep = min(keep, kk+max(l.NCV-kk, 0)/2)
		}
	}
	keep = max(keep, kk)
	ncv = l.NCV
	if ncv == 0 {
		ncv = max(2*kk, keep+min(20*bs, kk+32))
	}
	ncv = max(ncv, kk+bs)
	keep = min(keep, ncv-bs)
	// Round the basis so that cycles add whole blocks.
	ncv = keep + ((ncv-keep+bs-1)/bs)*bs
	return bs, ncv, keep
}

// blockRun holds the workspace of one BlockLanczos run. The basis is stored
// row-major as an n×ld matrix: columns [0, d) are the deflated vectors,
// columns [d, d+s) the current basis and [d+s, d+s+p) the next block.
type blockRun struct {
	a Operator
	// mul applies 2^−exp·A, the operator of the rescaled problem the run
	// solves (see BlockLanczos); exp is 0 and mul A's MulTo at ordinary
	// scales. scaled reports that exp has been estimated.
	mul                  func(dst, x *mat.Dense)
	exp                  int
	scaled               bool
	n, d, p, ncv, ld, mh int
	v                    []float64 // n×ld
	h                    []float64 // mh×mh projected matrix, mh = ncv + p
	x, w, q              []float64 // n×p contiguous blocks
	rlast                []float64 // p×p coupling of the next block
	rng                  *rand.Rand
	normA                float64
	matvecs, restarts    int
	y                    mat.Dense
}

// blockBytes returns the memory a BlockLanczos solve of k pairs, d of
// them deflated, holds at its peak besides the n×k vectors it returns,
// as Settings.MaxDenseBytes counts it, 8 bytes a value, as a float64 so
// that it cannot overflow:
//   - newBlockRun's basis of d + ncv + 2p vectors of n values (the
//     deflated ones, ncv and two blocks of p) and its three work blocks x,
//     w and q of p vectors;
//   - the projected matrices: H and the Ritz coefficients Y, mh×mh each
//     (mh = ncv + p), held throughout, and the largest of what the three
//     steps of a restart add to them: the Rayleigh–Ritz step's copy of H
//     (gonum's EigenSym, which copies its matrix) and its workspace
//     (dsyev's (32+2)·mh values, and mh eigenvalues twice:
//     eigWork·mh), the orthonormalization of a new block (orthoBlock's
//     four ld×p coefficient matrices and innerTo's blockChunks partial
//     products of as many values, ld = d + ncv + 2p, and svqb's p×p
//     matrices) or the thick restart (the mh×keep coefficients and
//     ritzInPlace's row tiles, blockChunks·min(512, n)·keep values);
//   - finishBytes(n, k, kk, false): the check of the result, which a
//     collector that has not yet reclaimed the basis sees beside it.
//
// Cost O(1).
func blockBytes(n, d, p, ncv, keep, k int) float64 {
	mh := float64(ncv + p)
	ld := float64(d + ncv + 2*p)
	fp, fk := float64(p), float64(keep)
	step := max(mh*mh+eigWork*mh, 8*ld*fp+4*fp*fp, mh*fk+blockChunks*float64(min(512, n))*fk)
	return 8*(float64(d+ncv+5*p)*float64(n)+2*mh*mh+step) + finishBytes(n, k, k-d, false)
}

// newBlockRun allocates the workspace of a run: the basis, the work blocks
// of blockBytes and H (mh×mh); the run allocates the rest as it solves. Cost
// O(n·(d + ncv + p) + (ncv + p)²).
func newBlockRun(a Operator, n, d, p, ncv int, rng *rand.Rand) *blockRun {
	ld, mh := d+ncv+2*p, ncv+p
	return &blockRun{
		a: a, mul: a.MulTo, n: n, d: d, p: p, ncv: ncv, ld: ld, mh: mh,
		v:     make([]float64, n*ld),
		h:     make([]float64, mh*mh),
		x:     make([]float64, n*p),
		w:     make([]float64, n*p),
		q:     make([]float64, n*p),
		rlast: make([]float64, p*p),
		rng:   rng,
	}
}

// cols returns columns [lo, lo+c) of the basis as a blas64 view.
func (r *blockRun) cols(lo, c int) blas64.General {
	return blas64.General{Rows: r.n, Cols: c, Stride: r.ld, Data: r.v[lo:]}
}

// blockOf returns the contiguous n×p block over buf.
func (r *blockRun) blockOf(buf []float64) blas64.General {
	return blas64.General{Rows: r.n, Cols: r.p, Stride: r.p, Data: buf}
}

// rowsOf returns rows [lo, hi) of g.
func rowsOf(g blas64.General, lo, hi int) blas64.General {
	return blas64.General{Rows: hi - lo, Cols: g.Cols, Stride: g.Stride, Data: g.Data[lo*g.Stride:]}
}

// rowChunks calls f on blockChunks row ranges covering [0, n), concurrently
// when n·width is large. The ranges do not depend on GOMAXPROCS.
func rowChunks(n, width int, f func(q, lo, hi int)) {
	if n*width < blockMinWork || n < 4*blockChunks {
		f(0, 0, n)
		return
	}
	size := (n + blockChunks - 1) / blockChunks
	parallel.For(context.Background(), blockChunks, 0, func(q int) error {
		f(q, q*size, min((q+1)*size, n))
		return nil
	})
}

// innerTo sets c (a.Cols×b.Cols, contiguous) to aᵀb for n-row blocks a and
// b, summing per-row-block partial products in a fixed order. Give the
// wider block as b: gonum's kernel for this shape runs one vectorized axpy
// of length b.Cols per row and column of a.
func innerTo(c []float64, a, b blas64.General) {
	m, k := a.Cols, b.Cols
	if m == 0 || k == 0 {
		return
	}
	out := blas64.General{Rows: m, Cols: k, Stride: k, Data: c[:m*k]}
	if a.Rows*(m+k) < blockMinWork || a.Rows < 4*blockChunks {
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, a, b, 0, out)
		return
	}
	part := make([]float64, blockChunks*m*k)
	rowChunks(a.Rows, m+k, func(q, lo, hi int) {
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, rowsOf(a, lo, hi), rowsOf(b, lo, hi), 0,
			blas64.General{Rows: m, Cols: k, Stride: k, Data: part[q*m*k:]})
	})
	copy(c[:m*k], part[:m*k])
	for q := 1; q < blockChunks; q++ {
		for i, v := range part[q*m*k : (q+1)*m*k] {
			c[i] += v
		}
	}
}

// mulAdd sets dst = alpha·a·c + beta·dst for an n-row block a and a small
// contiguous a.Cols×dst.Cols matrix c, by row blocks.
func mulAdd(dst blas64.General, alpha float64, a blas64.General, c []float64, beta float64) {
	if dst.Cols == 0 {
		return
	}
	if a.Cols == 0 {
		scaleRows(dst, beta)
		return
	}
	cm := blas64.General{Rows: a.Cols, Cols: dst.Cols, Stride: dst.Cols, Data: c}
	rowChunks(a.Rows, a.Cols+dst.Cols, func(_, lo, hi int) {
		blas64.Gemm(blas.NoTrans, blas.NoTrans, alpha, rowsOf(a, lo, hi), cm, beta, rowsOf(dst, lo, hi))
	})
}

// mulAddT sets dst = alpha·a·ctᵀ + beta·dst for an n-row block a and a
// small contiguous dst.Cols×a.Cols matrix ct. For a narrow dst (a block of
// p vectors) and a wide a (the basis) this form runs dot products of length
// a.Cols, where mulAdd would run axpys of length p.
func mulAddT(dst blas64.General, alpha float64, a blas64.General, ct []float64, beta float64) {
	if dst.Cols == 0 {
		return
	}
	if a.Cols == 0 {
		scaleRows(dst, beta)
		return
	}
	cm := blas64.General{Rows: dst.Cols, Cols: a.Cols, Stride: a.Cols, Data: ct}
	rowChunks(a.Rows, a.Cols+dst.Cols, func(_, lo, hi int) {
		blas64.Gemm(blas.NoTrans, blas.Trans, alpha, rowsOf(a, lo, hi), cm, beta, rowsOf(dst, lo, hi))
	})
}

// scaleRows multiplies g by beta.
func scaleRows(g blas64.General, beta float64) {
	if beta == 1 {
		return
	}
	for i := 0; i < g.Rows; i++ {
		row := g.Data[i*g.Stride : i*g.Stride+g.Cols]
		for j := range row {
			row[j] *= beta
		}
	}
}

// orthoBlock makes the contiguous block r.w orthonormal and orthogonal to
// basis columns [0, upto), leaving the result in r.w. It returns the
// coefficients c (upto×p) and r (p×p) with W_in = V·c + W_out·r, up to
// directions of relative norm below blockDrop, which are replaced by random
// unit vectors with zero rows in r. ok is false when no independent
// replacement could be found (the basis spans the space). err reports an
// orthonormalization that failed (svqb's error: ErrNonFinite for a block
// out of floating-point range), with c and rr nil.
//
// When local > 0 the components along the last local columns (the two
// blocks of the block three-term recurrence, Zhou & Saad 2008 §2) are
// removed first. Then each pass is block classical Gram–Schmidt against all
// upto columns followed by SVQB. After the local step one full pass is
// enough when it passes the DGKS test of Daniel, Gragg, Kaufman & Stewart
// (Math. Comp. 30, 1976) column by column — no column lost more than
// 1 − 1/√2 of its norm — and the block is well conditioned (see svqb);
// otherwise passes are repeated (at most five), as they are while a pass
// had to replace a direction.
func (r *blockRun) orthoBlock(upto, local int, scale float64) (c, rr []float64, ok bool, err error) {
	p := r.p
	c = make([]float64, upto*p)
	rr = make([]float64, p*p)
	for i := 0; i < p; i++ {
		rr[i*p+i] = 1
	}
	ck := make([]float64, upto*p)
	ckT := make([]float64, upto*p)
	before := make([]float64, p)
	tmpC := make([]float64, upto*p)
	rk := make([]float64, p*p)
	tmpR := make([]float64, p*p)
	vb := r.cols(0, upto)
	onePass := false
	if local > 0 && local < upto {
		// The block-tridiagonal part first: W −= V_loc·(V_locᵀW) for the
		// last local columns, so that the full pass below measures the
		// rounding-level remainder relative to what is left.
		lo := upto - local
		vl := r.cols(lo, local)
		clT := make([]float64, p*local)
		innerTo(clT, r.blockOf(r.w), vl)
		mulAddT(r.blockOf(r.w), -1, vl, clT, 1)
		for i := 0; i < local; i++ {
			for q := 0; q < p; q++ {
				c[(lo+i)*p+q] += clT[q*local+i]
			}
		}
		onePass = true
	}
	for pass := 0; pass < 5; pass++ {
		w := r.blockOf(r.w) // svqb swaps r.w and r.q
		ref := scale
		if pass > 0 {
			ref = 1
		}
		colNorms(before, w)
		if upto > 0 {
			// ckᵀ = WᵀV, W −= V·ck, in the shapes gonum runs fastest.
			innerTo(ckT, w, vb)
			mulAddT(w, -1, vb, ckT, 1)
			for i := 0; i < upto; i++ {
				for q := 0; q < p; q++ {
					ck[i*p+q] = ckT[q*upto+i]
				}
			}
		}
		replaced, clean, err := r.svqb(rk, ref, before)
		if err != nil {
			return nil, nil, false, err
		}
		// W_in = V(c + ck·R) + Q(rk·R) with the previous W = V·ck + Q·rk.
		if upto > 0 {
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
				blas64.General{Rows: upto, Cols: p, Stride: p, Data: ck},
				blas64.General{Rows: p, Cols: p, Stride: p, Data: rr}, 0,
				blas64.General{Rows: upto, Cols: p, Stride: p, Data: tmpC})
			for i, v := range tmpC {
				c[i] += v
			}
		}
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
			blas64.General{Rows: p, Cols: p, Stride: p, Data: rk},
			blas64.General{Rows: p, Cols: p, Stride: p, Data: rr}, 0,
			blas64.General{Rows: p, Cols: p, Stride: p, Data: tmpR})
		copy(rr, tmpR)
		if (pass >= 1 || onePass) && !replaced && clean {
			return c, rr, true, nil
		}
	}
	return c, rr, false, nil
}

// svqb orthonormalizes the block r.w in place by the eigendecomposition
// WᵀW = U Λ Uᵀ: W ← W U Λ^{-1/2}, and sets rk = Λ^{1/2} Uᵀ, so that the old W
// equals the new W times rk. Directions with √λ ≤ blockDrop·ref are replaced
// by random unit vectors (not yet orthogonal to anything) and their rows of
// rk set to zero; replaced reports whether that happened. clean reports that
// the pass was accurate enough to be the last one: every column kept at
// least 1/√2 of its norm (before, the column norms before the projection)
// and the Gram matrix of the kept directions has condition number at most
// 10, so the result is orthonormal to about 100 ulps (SVQB's error grows
// like κ(W)²).
func (r *blockRun) svqb(rk []float64, ref float64, before []float64) (replaced, clean bool, err error) {
	p, n := r.p, r.n
	g := make([]float64, p*p)
	w := r.blockOf(r.w)
	innerTo(g, w, w)
	gs := mat.NewSymDense(p, nil)
	for i := 0; i < p; i++ {
		for j := i; j < p; j++ {
			v := 0.5 * (g[i*p+j] + g[j*p+i])
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false, false, fmt.Errorf("%w produced by the operator (BlockLanczos)", ErrNonFinite)
			}
			gs.SetSym(i, j, v)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(gs, true) {
		return false, false, fmt.Errorf("%w: Gram matrix eigendecomposition failed (BlockLanczos)", ErrNoConvergence)
	}
	lam := es.Values(nil)
	var u mat.Dense
	es.VectorsTo(&u)
	mm := make([]float64, p*p)
	clear(rk)
	lim := blockDrop * ref
	var lost []int
	for i := 0; i < p; i++ {
		sq := math.Sqrt(max(lam[i], 0))
		if !(sq > lim) || sq == 0 {
			lost = append(lost, i)
			continue
		}
		for j := 0; j < p; j++ {
			uji := u.At(j, i)
			mm[j*p+i] = uji / sq
			rk[i*p+j] = sq * uji
		}
	}
	qb := r.blockOf(r.q)
	mulAdd(qb, 1, w, mm, 0)
	for _, i := range lost {
		col := make([]float64, n)
		randomize(col, r.rng)
		nrm := blas64.Nrm2(blas64.Vector{N: n, Inc: 1, Data: col})
		for t, v := range col {
			r.q[t*p+i] = v / nrm
		}
	}
	r.w, r.q = r.q, r.w
	clean = true
	for j := 0; j < p; j++ {
		if !(g[j*p+j] >= 0.5*before[j]*before[j]) {
			clean = false
		}
	}
	lmax, lmin := 0.0, math.Inf(1)
	for i, l := range lam {
		if !slices.Contains(lost, i) {
			lmax, lmin = max(lmax, l), min(lmin, l)
		}
	}
	if lmax > 10*lmin {
		clean = false
	}
	return len(lost) > 0, clean, nil
}

// putBlock copies the contiguous n×p block src into basis columns
// [lo, lo+p).
func (r *blockRun) putBlock(lo int, src []float64) {
	p := r.p
	for i := 0; i < r.n; i++ {
		copy(r.v[i*r.ld+lo:i*r.ld+lo+p], src[i*p:(i+1)*p])
	}
}

// getBlock copies basis columns [lo, lo+p) into the contiguous block dst.
func (r *blockRun) getBlock(dst []float64, lo int) {
	p := r.p
	for i := 0; i < r.n; i++ {
		copy(dst[i*p:(i+1)*p], r.v[i*r.ld+lo:i*r.ld+lo+p])
	}
}

// extend grows the basis from s vectors to at least r.ncv by blocks: it
// multiplies the next block (basis columns [d+s, d+s+p)) by A,
// orthogonalizes the product against everything before it, which fills
// columns [s, s+p) of H (and, mirrored, rows), and stores the new next block
// after it with its coupling in r.rlast. It returns the new s, and exact =
// true when the basis came to span an invariant subspace that could not be
// left (then H[0:s, 0:s] is the exact restriction of A and there is no next
// block). It checks ctx before every block product.
func (r *blockRun) extend(ctx context.Context, s int) (int, bool, error) {
	n, p, d, mh := r.n, r.p, r.d, r.mh
	var xd, wd mat.Dense
	s0 := s
	for s < r.ncv {
		if err := ctx.Err(); err != nil {
			return s, false, err
		}
		r.getBlock(r.x, d+s)
		xd.SetRawMatrix(r.blockOf(r.x))
		wd.SetRawMatrix(r.blockOf(r.w))
		r.mul(&wd, &xd)
		r.matvecs += p
		if !finiteSlice(r.w) {
			return s, false, fmt.Errorf("%w produced by the operator (BlockLanczos, basis size %d)", ErrNonFinite, s)
		}
		if !r.scaled {
			r.scaled = true
			if e := scaleExponent(r.w, r.x); e != 0 {
				r.exp, r.mul = e, scaledMul(r.a.MulTo, e)
				scaleSlice(r.w, -e)
			}
		}
		scale := r.normA
		for j := 0; j < p; j++ {
			nrm := blas64.Nrm2(blas64.Vector{N: n, Inc: p, Data: r.w[j:]})
			scale = max(scale, nrm)
			r.normA = max(r.normA, nrm)
		}
		local := 2 * p
		if s == s0 {
			// The first block of a cycle couples to every kept vector.
			local = 0
		}
		c, rr, ok, err := r.orthoBlock(d+s+p, local, scale)
		if err != nil {
			return s, false, fmt.Errorf("eigen: BlockLanczos could not orthonormalize a block (basis size %d): %w", s, err)
		}
		// H[0:s+p, s:s+p] from the coefficients, mirrored; the diagonal
		// block symmetrized.
		for i := 0; i < s+p; i++ {
			for q := 0; q < p; q++ {
				j := s + q
				v := c[(d+i)*p+q]
				if i >= s {
					v = 0.5 * (v + c[(d+j)*p+(i-s)])
				}
				r.h[i*mh+j] = v
				r.h[j*mh+i] = v
			}
		}
		s += p
		if !ok {
			return s, true, nil
		}
		r.putBlock(d+s, r.w)
		copy(r.rlast, rr)
	}
	return s, false, nil
}

// solve runs thick-restart block Lanczos for the kk extreme pairs (by which)
// of A restricted to the complement of the deflated columns. It returns the
// values, the vectors (n×kk), the largest residual estimate of the wanted
// pairs and whether they converged.
func (r *blockRun) solve(ctx context.Context, kk, keep int, which Which, tol float64, maxIter int, report func(int, string)) (vals []float64, vecs *mat.Dense, worst float64, ok bool, err error) {
	n, p, d, m := r.n, r.p, r.d, r.mh
	// Starting block: random, orthonormal, orthogonal to the deflated vectors.
	randomize(r.w, r.rng)
	if _, _, good, err := r.orthoBlock(d, 0, 0); err != nil {
		return nil, nil, 0, false, fmt.Errorf("eigen: BlockLanczos could not orthonormalize its starting block: %w", err)
	} else if !good {
		return nil, nil, 0, false, fmt.Errorf("eigen: BlockLanczos found no %d independent start vectors outside %d deflated ones", p, d)
	}
	r.putBlock(d, r.w)
	s := 0
	order := make([]int, m)
	resid := make([]float64, m)
	for iter := 1; ; iter++ {
		var exact bool
		s, exact, err = r.extend(ctx, s)
		if err != nil {
			r.restarts += iter - 1
			return nil, nil, 0, false, err
		}
		// H's leading s×s block, read in place (upper triangle, stride
		// m): H is kept symmetric, so no copy is needed besides the one
		// EigenSym makes. es is a new decomposition each restart, so the
		// previous one's s×s vectors are not held while the next is
		// computed (blockBytes counts H, that copy and Y).
		var hs mat.SymDense
		hs.SetRawSymmetric(blas64.Symmetric{Uplo: blas.Upper, N: s, Stride: m, Data: r.h})
		var es mat.EigenSym
		if !es.Factorize(&hs, true) {
			return nil, nil, 0, false, fmt.Errorf("%w: projected eigenproblem failed (BlockLanczos)", ErrNoConvergence)
		}
		theta := es.Values(nil)
		r.y.Reset()
		es.VectorsTo(&r.y)
		yr := r.y.RawMatrix()
		for i := 0; i < s; i++ {
			order[i] = i
			if which == Largest {
				order[i] = s - 1 - i
			}
			resid[i] = 0
			if !exact {
				// ‖R·y[s−p:s, i]‖.
				var sum float64
				for a := 0; a < p; a++ {
					var t float64
					for b := 0; b < p; b++ {
						t += r.rlast[a*p+b] * yr.Data[(s-p+b)*yr.Stride+i]
					}
					sum += t * t
				}
				resid[i] = math.Sqrt(sum)
			}
		}
		r.normA = max(r.normA, math.Abs(theta[0]), math.Abs(theta[s-1]))
		lim := tol * r.normA
		nconv := 0
		worst = 0
		for q := 0; q < kk; q++ {
			if resid[order[q]] <= lim {
				nconv++
			}
			worst = max(worst, resid[order[q]])
		}
		done := nconv == kk || exact
		stop := done || iter >= maxIter
		if report != nil {
			report(nconv, fmt.Sprintf("BlockLanczos restart %d: %d/%d converged, max residual %.2e", iter, nconv, kk, math.Ldexp(worst, r.exp)))
		}
		if stop {
			r.restarts += iter
			vals = make([]float64, kk)
			for q := 0; q < kk; q++ {
				vals[q] = theta[order[q]]
			}
			vecs = mat.NewDense(n, kk, nil)
			r.ritzTo(vecs.RawMatrix(), s, order[:kk])
			return vals, vecs, worst, done, nil
		}
		if err := ctx.Err(); err != nil {
			r.restarts += iter
			return nil, nil, 0, false, err
		}
		// Thick restart: the best keep Ritz vectors, then the next block.
		// Its coupling R·Y[s−p:s, kept] to them is recomputed as Gram–Schmidt
		// coefficients when it is multiplied by A.
		r.ritzInPlace(s, order[:keep])
		for i := 0; i < n; i++ {
			row := r.v[i*r.ld:]
			copy(row[d+keep:d+keep+p], row[d+s:d+s+p])
		}
		clear(r.h)
		for q := 0; q < keep; q++ {
			r.h[q*m+q] = theta[order[q]]
		}
		s = keep
	}
}

// coeffs returns Y[:s, cols] as a contiguous s×len(cols) matrix.
func (r *blockRun) coeffs(s int, cols []int) []float64 {
	k := len(cols)
	yr := r.y.RawMatrix()
	ys := make([]float64, s*k)
	for l := 0; l < s; l++ {
		for q, c := range cols {
			ys[l*k+q] = yr.Data[l*yr.Stride+c]
		}
	}
	return ys
}

// ritzTo sets dst (n×len(cols)) to the Ritz vectors V[:, d:d+s]·Y[:, cols].
func (r *blockRun) ritzTo(dst blas64.General, s int, cols []int) {
	ys := r.coeffs(s, cols)
	mulAdd(dst, 1, r.cols(r.d, s), ys, 0)
}

// ritzInPlace overwrites basis columns [d, d+len(cols)) with the Ritz vectors
// V[:, d:d+s]·Y[:, cols], a tile of rows at a time (each output row depends
// only on the same row of V), so no n×Keep copy is needed.
func (r *blockRun) ritzInPlace(s int, cols []int) {
	k := len(cols)
	ys := r.coeffs(s, cols)
	cm := blas64.General{Rows: s, Cols: k, Stride: k, Data: ys}
	const tile = 512
	rowChunks(r.n, s+k, func(_, lo, hi int) {
		buf := make([]float64, tile*k)
		for t := lo; t < hi; t += tile {
			e := min(t+tile, hi)
			out := blas64.General{Rows: e - t, Cols: k, Stride: k, Data: buf}
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, rowsOf(r.cols(r.d, s), t, e), cm, 0, out)
			for i := t; i < e; i++ {
				copy(r.v[i*r.ld+r.d:i*r.ld+r.d+k], buf[(i-t)*k:(i-t+1)*k])
			}
		}
	})
}
