package cluster

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
)

// Dense factorizations that poll a context. A single LAPACK call on an
// n×n matrix cannot be interrupted and takes seconds for n in the
// thousands (about 3 s for a Cholesky factorization at n = 3000 on 2
// cores); the functions here perform the same blocked algorithm as
// gonum's, with the same calls in the same order, and check ctx between
// blocks, so that the numbers are identical, bit for bit
// (TestPotrfContextMatchesPotrf, TestLUContextMatchesLU,
// TestSymValuesContextMatchesSymValues), and a
// cancellation is seen after one block of work.

// lapackImpl returns the implementation lapack64 uses by default (tether
// never calls lapack64.Use), a zero-size value: a function, so that the
// package holds no variable.
func lapackImpl() gonum.Implementation { return gonum.Implementation{} }

// potrfContext computes the Cholesky factorization A = UᵀU of the
// symmetric positive definite a in place (upper triangle), as
// lapack64.Potrf does for an upper blas64.Symmetric: gonum's blocked
// Dpotrf, one block column of nb (64) at a time, with ctx checked before
// each. It returns ok = false when a is not positive definite, and
// ctx.Err() (a left part way) when cancelled. t (nil: none) receives the
// fraction of the flops done after each block column: 3x² − 2x³ after the
// first x·n columns (block column j costs about j·(n − j)·nb). Cost n³/3
// flops, about n²·nb per poll.
func potrfContext(ctx context.Context, a blas64.Symmetric, t tick) (ok bool, err error) {
	if a.Uplo != blas.Upper {
		panic("cluster: potrfContext: lower triangle")
	}
	n, lda := a.N, max(1, a.Stride)
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if n == 0 {
		return true, nil
	}
	nb := lapackImpl().Ilaenv(1, "DPOTRF", string(blas.Upper), n, -1, -1, -1)
	if nb <= 1 || n <= nb {
		return lapackImpl().Dpotf2(blas.Upper, n, a.Data, lda), nil
	}
	bi := blas64.Implementation()
	d := a.Data
	for j := 0; j < n; j += nb {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		jb := min(nb, n-j)
		bi.Dsyrk(blas.Upper, blas.Trans, jb, j,
			-1, d[j:], lda,
			1, d[j*lda+j:], lda)
		if !lapackImpl().Dpotf2(blas.Upper, jb, d[j*lda+j:], lda) {
			return false, nil
		}
		if j+jb < n {
			bi.Dgemm(blas.Trans, blas.NoTrans, jb, n-j-jb, j,
				-1, d[j:], lda, d[j+jb:], lda,
				1, d[j*lda+j+jb:], lda)
			bi.Dtrsm(blas.Left, blas.Upper, blas.Trans, blas.NonUnit, jb, n-j-jb,
				1, d[j*lda+j:], lda,
				d[j*lda+j+jb:], lda)
		}
		x := float64(j+jb) / float64(n)
		t.at(x * x * (3 - 2*x))
	}
	return true, ctx.Err()
}

// geconColumns is the number of columns geconContext takes the norms of
// between two checks of its context.
const geconColumns = 256

// luSolveBlock is the number of right-hand sides luFactors.solveContext
// solves between two polls.
const luSolveBlock = 128

// luFactors is the LU factorization with partial pivoting P A = L U of a
// square matrix, as mat.LU holds it after Factorize: the packed factors,
// the row swaps, whether A is nonsingular, and the condition number in
// the max-row-sum norm (mat.CondNorm).
type luFactors struct {
	lu    blas64.General
	swaps []int
	ok    bool
	cond  float64
}

// luFactorContext factorizes a copy of the n×n a (any mat.Matrix, copied
// as mat.LU.Factorize copies it) as mat.LU.Factorize does (lapack64.Lange
// for ‖A‖, gonum's blocked Dgetrf one block column of nb (64) at a time
// with ctx checked before each, gonum's Dgecon for the condition number,
// through geconContext, which checks ctx before each of its triangular
// solves), so that the factors and the condition number are the same,
// bit for bit. The error is ctx.Err(). t (nil: none) receives the fraction of the
// flops done after each block column: 1 − (1 − x)³ after the first x·n
// columns (block column j updates the trailing (n − j)² block). Cost
// 2n³/3 flops, about 2n²·nb per poll; one n×n copy.
func luFactorContext(ctx context.Context, a mat.Matrix, t tick) (*luFactors, error) {
	n, c := a.Dims()
	if n != c {
		panic(mat.ErrSquare)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f := &luFactors{lu: blas64.General{Rows: n, Cols: n, Stride: max(1, n), Data: make([]float64, n*n)}, swaps: make([]int, n)}
	mat.NewDense(n, n, f.lu.Data).Copy(a)
	work := make([]float64, 4*n)
	anorm := lapack64.Lange(mat.CondNorm, f.lu, work)
	d, lda, ipiv := f.lu.Data, f.lu.Stride, f.swaps
	nb := lapackImpl().Ilaenv(1, "DGETRF", " ", n, n, -1, -1)
	if nb <= 1 || n <= nb {
		f.ok = lapackImpl().Dgetf2(n, n, d, lda, ipiv)
	} else {
		bi := blas64.Implementation()
		f.ok = true
		for j := 0; j < n; j += nb {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			jb := min(n-j, nb)
			if !lapackImpl().Dgetf2(n-j, jb, d[j*lda+j:], lda, ipiv[j:j+jb]) {
				f.ok = false
			}
			for i := j; i <= min(n-1, j+jb-1); i++ {
				ipiv[i] = j + ipiv[i]
			}
			lapackImpl().Dlaswp(j, d, lda, j, j+jb-1, ipiv[:j+jb], 1)
			if j+jb < n {
				lapackImpl().Dlaswp(n-j-jb, d[j+jb:], lda, j, j+jb-1, ipiv[:j+jb], 1)
				bi.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit,
					jb, n-j-jb, 1,
					d[j*lda+j:], lda,
					d[j*lda+j+jb:], lda)
				bi.Dgemm(blas.NoTrans, blas.NoTrans, n-j-jb, n-j-jb, jb, -1,
					d[(j+jb)*lda+j:], lda,
					d[j*lda+j+jb:], lda,
					1, d[(j+jb)*lda+j+jb:], lda)
			}
			x := 1 - float64(j+jb)/float64(n)
			t.at(1 - x*x*x)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rcond, err := geconContext(ctx, mat.CondNorm, f.lu, anorm, work, make([]int, n))
	if err != nil {
		return nil, err
	}
	f.cond = 1 / rcond
	return f, nil
}

// geconContext returns the reciprocal condition number estimate of
// lapack64.Gecon(norm, lu, anorm, work, iwork) for the LU factors lu of
// Dgetrf, by the same calls in the same order as gonum's Dgecon (Hager's
// and Higham's estimator, Dlacn2, driving pairs of triangular solves,
// Dlatrs), so that it is the same, bit for bit
// (TestGeconContextMatchesGecon), with ctx checked before each solve:
// the estimate, one gonum call of about ten O(n²) solves, took 1.1–1.7 s
// at n = 6000 on the 2-core machine without a check, a solve 0.1 s. The
// error is ctx.Err().
//
// (A cheaper estimate would change the numbers, and running Gecon on a
// goroutine that a cancellation abandons would leave it using a core and
// the factors' memory after the method returned: the same calls with
// checks between them keep both.)
func geconContext(ctx context.Context, norm lapack.MatrixNorm, lu blas64.General, anorm float64, work []float64, iwork []int) (float64, error) {
	n := lu.Cols
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	// Dgecon's checks and quick returns; a malformed call panics there.
	switch {
	case n == 0 || anorm == 0 || math.IsNaN(anorm) || math.IsInf(anorm, 1) || anorm < 0 ||
		len(work) < 4*n || len(iwork) < n || lu.Rows != n || (norm != lapack.MaxColumnSum && norm != lapack.MaxRowSum):
		return lapack64.Gecon(norm, lu, anorm, work, iwork), nil
	}
	impl, bi := lapackImpl(), blas64.Implementation()
	a, lda := lu.Data, max(1, lu.Stride)
	// The column norms of the strict triangles, which Dlatrs computes
	// in its first calls (normin false, a strided pass over the matrix,
	// 0.15 s at n = 6000), as it computes them, ctx checked every
	// geconColumns columns; the solves then reuse them (normin true), as
	// Dgecon's later calls do.
	lower, upper := work[2*n:3*n], work[3*n:4*n]
	lower[n-1], upper[0] = 0, 0
	for j := 0; j < n; j++ {
		if j%geconColumns == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
		if j < n-1 {
			lower[j] = bi.Dasum(n-j-1, a[(j+1)*lda+j:], lda)
		}
		if j > 0 {
			upper[j] = bi.Dasum(j, a[j:], lda)
		}
	}
	var rcond, ainvnm float64
	var kase int
	normin := true
	isave := new([3]int)
	kase1 := 2
	if norm == lapack.MaxColumnSum {
		kase1 = 1
	}
	for {
		ainvnm, kase = impl.Dlacn2(n, work[n:], work, iwork, ainvnm, kase, isave)
		if kase == 0 {
			if ainvnm != 0 {
				rcond = (1 / ainvnm) / anorm
			}
			return rcond, nil
		}
		// The two solves, L then U (kase1) or Uᵀ then Lᵀ, as Dgecon.
		lo := dlatrsStep{blas.Lower, blas.NoTrans, blas.Unit, work[2*n:]}
		up := dlatrsStep{blas.Upper, blas.NoTrans, blas.NonUnit, work[3*n:]}
		if kase != kase1 {
			lo.trans, up.trans = blas.Trans, blas.Trans
			lo, up = up, lo
		}
		s1, err := lo.solve(ctx, impl, normin, n, a, lda, work)
		if err != nil {
			return 0, err
		}
		s2, err := up.solve(ctx, impl, normin, n, a, lda, work)
		if err != nil {
			return 0, err
		}
		scale := s1 * s2
		normin = true
		if scale != 1 {
			ix := bi.Idamax(n, work, 1)
			if scale == 0 || scale < math.Abs(work[ix])*0x1p-1022 { // Dgecon's dlamchS
				return rcond, nil
			}
			impl.Drscl(n, scale, work, 1)
		}
	}
}

// poconContext returns the reciprocal condition number estimate of
// lapack64.Pocon(a, anorm, work, iwork) for the Cholesky factor U of
// potrfContext (a's upper triangle), by the same calls in the same order
// as gonum's Dpocon (Dlacn2 driving pairs of triangular solves, Dlatrs),
// so that it is the same, bit for bit (TestPoconContextMatchesPocon),
// with ctx checked before each solve and every geconColumns columns of
// the column norms that Dpocon's first solve computes (normin false;
// computed here as Dlatrs does, the solves then reusing them, as
// Dpocon's later ones do): one gonum call of about ten O(q²) solves and
// a strided pass over the factor, 0.09 s at q = 3000 on the 2-core
// machine and growing as q², without a check. Malformed or degenerate
// arguments (q = 0, anorm not a finite positive number, short work, a
// lower triangle) go to Pocon, which answers or panics as it does. The
// error is ctx.Err().
func poconContext(ctx context.Context, a blas64.Symmetric, anorm float64, work []float64, iwork []int) (float64, error) {
	n := a.N
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	switch {
	case n == 0 || anorm == 0 || math.IsNaN(anorm) || math.IsInf(anorm, 1) || anorm < 0 ||
		len(work) < 3*n || len(iwork) < n || a.Uplo != blas.Upper:
		return lapack64.Pocon(a, anorm, work, iwork), nil
	}
	impl, bi := lapackImpl(), blas64.Implementation()
	d, lda := a.Data, max(1, a.Stride)
	// The norms of the columns above the diagonal, as Dlatrs computes
	// them for an upper triangle.
	cnorm := work[2*n : 3*n]
	cnorm[0] = 0
	for j := 1; j < n; j++ {
		if j%geconColumns == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
		cnorm[j] = bi.Dasum(j, d[j:], lda)
	}
	var rcond, ainvnm float64
	var kase int
	isave := new([3]int)
	for {
		ainvnm, kase = impl.Dlacn2(n, work[n:], work, iwork, ainvnm, kase, isave)
		if kase == 0 {
			if ainvnm != 0 {
				rcond = (1 / ainvnm) / anorm
			}
			return rcond, nil
		}
		// Uᵀ then U, as Dpocon.
		sl, err := dlatrsStep{blas.Upper, blas.Trans, blas.NonUnit, cnorm}.solve(ctx, impl, true, n, d, lda, work)
		if err != nil {
			return 0, err
		}
		su, err := dlatrsStep{blas.Upper, blas.NoTrans, blas.NonUnit, cnorm}.solve(ctx, impl, true, n, d, lda, work)
		if err != nil {
			return 0, err
		}
		scale := sl * su
		if scale != 1 {
			ix := bi.Idamax(n, work, 1)
			if scale == 0 || scale < math.Abs(work[ix])*0x1p-1022 { // Dpocon's dlamchS
				return rcond, nil
			}
			impl.Drscl(n, scale, work, 1)
		}
	}
}

// solveContext sets dst = A⁻¹b, as mat.LU.SolveTo(dst, false, b) does
// (lapack64.Getrs), luSolveBlock columns at a time with ctx checked
// before each block: each column's solve (row swaps and two triangular
// solves, gonum's Dtrsm updating the rows column by column independently)
// is the same sequence of operations whatever the other columns, so dst
// is the same, bit for bit. dst must be n×(columns of b) and not share b's
// storage. The error is SolveTo's (mat.Condition for a singular or
// ill-conditioned A) or ctx.Err(). t (nil: none) receives the fraction of
// the columns solved after each block. Cost 2n² flops per column,
// 2n²·luSolveBlock per poll.
func (f *luFactors) solveContext(ctx context.Context, dst *mat.Dense, b mat.Matrix, t tick) error {
	if !f.ok {
		return mat.Condition(math.Inf(1))
	}
	r, c := b.Dims()
	for c0 := 0; c0 < c; c0 += luSolveBlock {
		if err := ctx.Err(); err != nil {
			return err
		}
		w := min(luSolveBlock, c-c0)
		blk := dst.Slice(0, r, c0, c0+w).(*mat.Dense)
		for i := 0; i < r; i++ {
			row := blk.RawRowView(i)
			for j := range row {
				row[j] = b.At(i, c0+j)
			}
		}
		lapack64.Getrs(blas.NoTrans, f.lu, blk.RawMatrix(), f.swaps)
		t.at(float64(c0+w) / float64(c))
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if f.cond > mat.ConditionTolerance {
		return mat.Condition(f.cond)
	}
	return nil
}

// symValuesContext returns the eigenvalues of the symmetric a in
// ascending order, those of eigen.SymValues bit for bit for n ≤
// symValuesBitN (mat.EigenSym without vectors: LAPACK dsyev, that is
// gonum's blocked Householder tridiagonalization Dsytrd and the QL/QR
// iteration Dsterf), with ctx checked before each panel of the
// tridiagonalization, the O(4n³/3) part. A panel has
// symValuesPanelWidth(n) columns: dsyev's 32 up to symValuesBitN, fewer
// above, so that it takes at most 0.2 s at n = 4000 and 0.4–0.6 s at
// n = 6000 on the 2-core machine, where 32 columns took 1.9 s and
// 5.3–6.7 s. The narrower panels compute the same reduction with another
// rounding, in about the same time (BenchmarkSymValuesPanel, the whole
// computation: 56 s with 32 columns and 55 s with 4 at n = 4000, means
// of 3 runs; 231 s with 32 and 256 s with 2 at n = 6000, one run each,
// where runs vary by 10–15%). a is left unchanged. A matrix whose largest
// entry dsyev would scale (outside about [1e-146, 1e146]), or on which
// the iteration fails or panics (gonum's Dsterf on some tridiagonal
// matrices that split into blocks), is passed to eigen.SymValues, whose
// error it returns; that second decomposition does not poll, nor does
// Dsterf, one gonum call of O(n²) work (0.13 s at n = 3000, 0.45 s at
// n = 6000). t (nil: none) receives the fraction of the reduction's
// flops done after each panel: 1 − (i/n)³ once the leading i×i block is
// left (a panel at i works on that block). Cost O(4n³/3) flops; one n×n
// copy.
func symValuesContext(ctx context.Context, a *mat.SymDense, t tick) ([]float64, error) {
	return symValuesPanel(ctx, a, symValuesPanelWidth(a.SymmetricDim()), t)
}

// symValuesBitN is the largest n for which symValuesContext reduces in
// dsyev's panels of 32 columns, and so gives eigen.SymValues' numbers bit
// for bit: every n of the committed experiments. Above it the panels
// shrink (symValuesPanelWidth).
const symValuesBitN = 3000

// symValuesPanelWork bounds nb·n² for the panels of nb columns that
// symValuesContext uses above symValuesBitN: 0.2 s per panel at n = 4000
// (nb = 4) on the 2-core machine. A panel's work is about 4·nb·n² flops,
// but its time grows faster than n², as the trailing matrix outgrows the
// caches (a column of the panel took 0.06 s at n = 4000 and 0.2–0.3 s at
// n = 6000), so the panels of 2 columns that the floor of 2 gives at
// n = 6000 take 0.4–0.6 s.
const symValuesPanelWork = 4 * 4000 * 4000

// symValuesPanelWidth returns the panel width of symValuesContext's
// tridiagonalization of an n×n matrix: dsyev's (32) for n ≤
// symValuesBitN, otherwise the largest nb ≤ 32 with nb·n² ≤
// symValuesPanelWork, and at least 2 (a width of 1 would make gonum's
// blocked loop hand the whole matrix to the unblocked Dsytd2, which does
// not poll).
func symValuesPanelWidth(n int) int {
	nb := lapackImpl().Ilaenv(1, "DSYTRD", "U", n, -1, -1, -1)
	if n <= symValuesBitN {
		return nb
	}
	return max(2, min(nb, symValuesPanelWork/(n*n)))
}

// symValuesPanel is symValuesContext with panels of nb columns, the
// computation of eigen.SymValues bit for bit when nb is dsyev's (32).
func symValuesPanel(ctx context.Context, a *mat.SymDense, nb int, t tick) ([]float64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n := a.SymmetricDim()
	if n <= 1 {
		return eigen.SymValues(a)
	}
	sd := mat.NewSymDense(n, nil)
	sd.CopySym(a)
	raw := sd.RawSymmetric()
	d, lda := raw.Data, raw.Stride
	// dsyev's scaling bounds (dlamchS = 2^-1022, dlamchP = 2^-52).
	smlnum := 0x1p-1022 / 0x1p-52
	rmin, rmax := math.Sqrt(smlnum), math.Sqrt(1/smlnum)
	work := make([]float64, n)
	if anrm := lapackImpl().Dlansy(lapack.MaxAbs, blas.Upper, n, d, lda, work); !(anrm >= rmin && anrm <= rmax) {
		return eigen.SymValues(a)
	}
	// e is as long as dsyev's workspace, (nb+2)·n for dsyev's nb (32)
	// whatever the panel width, which it passes whole to Dsterf; gonum's
	// Dsterf can index e beyond that (its Dlascl on e takes n as leading
	// dimension) and panic, as in eigen.SymValues, which then computes the
	// values with the vectors: the same fallback.
	w := make([]float64, n)
	e, tau := make([]float64, max(1, (lapackImpl().Ilaenv(1, "DSYTRD", "U", n, -1, -1, -1)+2)*n)), make([]float64, n)
	// Dsytrd, upper triangle, with the workspace dsyev gives it (n·nb, so
	// nb is not reduced).
	nx := n
	if 1 < nb && nb < n {
		if nx = max(nb, lapackImpl().Ilaenv(3, "DSYTRD", "U", n, -1, -1, -1)); nx >= n {
			nx = n
		}
	} else {
		nb = 1
	}
	kk := n - ((n-nx+nb-1)/nb)*nb
	bi := blas64.Implementation()
	wk := make([]float64, n*nb)
	for i := n - nb; i >= kk; i -= nb {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		lapackImpl().Dlatrd(blas.Upper, i+nb, nb, d, lda, e, tau, wk, nb)
		bi.Dsyr2k(blas.Upper, blas.NoTrans, i, nb, -1, d[i:], lda, wk, nb, 1, d, lda)
		for j := i; j < i+nb; j++ {
			d[(j-1)*lda+j] = e[j-1]
			w[j] = d[j*lda+j]
		}
		x := float64(i) / float64(n)
		t.at(1 - x*x*x)
	}
	lapackImpl().Dsytd2(blas.Upper, kk, d, lda, w, e, tau)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if ok, panicked := dsterf(n, w, e); panicked || !ok {
		return eigen.SymValues(a)
	}
	return w, nil
}

// dsterf is lapackImpl().Dsterf with a panic reported instead of raised.
func dsterf(n int, d, e []float64) (ok, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			ok, panicked = false, true
		}
	}()
	return lapackImpl().Dsterf(n, d, e), false
}

// mulBlock and mulFlops bound the rows of the product mulContext
// computes between two polls: mulBlock, or fewer when those rows would
// take more than mulFlops flops (0.1–0.2 s on the 2-core machine, where
// gonum's Dgemm computes A·B at 9 GFlop/s and Aᵀ·B at 5–6), but
// never fewer than mulMinBlock, gonum's Dgemm block size, below which its
// parallel product runs on fewer blocks.
const (
	mulBlock    = 256
	mulMinBlock = 64
	mulFlops    = 1e9
)

// mulContext sets dst = a·b, as dst.Mul(a, b) does, for a dense b, an a
// that is a *mat.Dense or the transpose of one (a mat.Transpose, as
// m.T() returns), and an r×c dst of the right shape that shares no
// storage with a or b: a block of rows of dst at a time with ctx checked
// before each block, each block by dst's slice Mul with a's rows (for
// a = Aᵀ, the columns of A, A.Slice(0, k, r0, r1).T()). dst.Mul calls
// gonum's Dgemm, whose A·B and Aᵀ·B kernels add the terms a_il·b_lj of
// each entry one at a time in the order of l, by an axpy over the row of
// b_l· and starting from zero, whatever the row range, the blocks of 64 it
// hands to its workers and the serial or parallel path: so dst is the
// same, bit for bit. (A transposed b would take Dgemm's dot-product kernel,
// which is also independent of the rows, but no caller needs it.) The
// error is ctx.Err(). t (nil: none) receives the fraction of the rows
// computed after each block. Cost 2·r·c·k flops for an r×k a, about
// mulFlops per poll when c·k is large.
func mulContext(ctx context.Context, dst *mat.Dense, a mat.Matrix, b *mat.Dense, t tick) error {
	r, k := a.Dims()
	var rows func(r0, r1 int) mat.Matrix
	switch a := a.(type) {
	case *mat.Dense:
		rows = func(r0, r1 int) mat.Matrix { return a.Slice(r0, r1, 0, k) }
	case mat.Transpose:
		at, ok := a.Matrix.(*mat.Dense)
		if !ok {
			panic("cluster: mulContext: a transposed matrix other than *mat.Dense")
		}
		rows = func(r0, r1 int) mat.Matrix { return at.Slice(0, k, r0, r1).T() }
	default:
		panic("cluster: mulContext: a is neither a *mat.Dense nor its transpose")
	}
	_, c := dst.Dims()
	block := mulBlock
	if f := 2 * float64(c) * float64(k); f*mulBlock > mulFlops {
		block = max(mulMinBlock, int(mulFlops/f))
	}
	for r0 := 0; r0 < r; r0 += block {
		if err := ctx.Err(); err != nil {
			return err
		}
		r1 := min(r, r0+block)
		dst.Slice(r0, r1, 0, c).(*mat.Dense).Mul(rows(r0, r1), b)
		t.at(float64(r1) / float64(r))
	}
	return ctx.Err()
}

// dlatrsStep is one triangular solve of the condition estimators
// (geconContext, poconContext): the triangle, the transposition, the
// diagonal and the column norms Dlatrs reads.
type dlatrsStep struct {
	uplo  blas.Uplo
	trans blas.Transpose
	diag  blas.Diag
	cnorm []float64
}

// solve checks ctx, then solves in place in x with Dlatrs, returning its
// scale; the error is ctx.Err().
func (st dlatrsStep) solve(ctx context.Context, impl gonum.Implementation, normin bool, n int, a []float64, lda int, x []float64) (float64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return impl.Dlatrs(st.uplo, st.trans, st.diag, normin, n, a, lda, x, st.cnorm), nil
}
