package eigen

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/internal/parallel"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/progress"
)

// Lanczos computes the K smallest or largest eigenpairs of a standard
// symmetric problem A x = λ x by the thick-restart Lanczos method of Wu and
// Simon (SIAM J. Matrix Anal. Appl. 22(2), 2000) with full
// reorthogonalization. It needs only A.MulTo on single vectors. Generalized
// problems (B ≠ nil) are rejected with an error: use LOBPCG or Dense.
//
// Each restart cycle extends a Krylov basis V of at most NCV vectors by
// A·v_j followed by two passes of classical Gram–Schmidt against all previous
// vectors (and the deflated ones), so V stays orthonormal to rounding and the
// projected matrix T = VᵀAV is formed from the Gram–Schmidt coefficients. The
// Ritz pairs (θ, Vy) of T have residuals |β·y_last|; when the wanted K have
// residual ≤ Tol·‖A‖ (‖A‖ estimated by the largest |θ| seen) the run stops;
// otherwise the basis is compressed to the best Keep Ritz vectors plus the
// last Lanczos vector (the "thick restart") and extended again. If a new
// vector vanishes (the Krylov space is invariant, as for the Laplacian of a
// disjoint union of cliques) the run continues from a random vector
// orthogonal to the basis, so no NaN or division by zero can arise.
//
// Repeated eigenvalues. A Krylov space built from one vector contains only
// one direction of each eigenspace (in exact arithmetic), so single-vector
// Lanczos can miss copies of a multiple eigenvalue. Unless
// SkipMultiplicityCheck is set, Solve therefore verifies its answer: it runs
// Lanczos again from a fresh random vector in the orthogonal complement of
// the K vectors found (deflating them) and asks for the extreme eigenvalue
// there. If that eigenvalue is beyond the K-th one found by more than
// 100·Tol·‖A‖ (a missed copy), it replaces the K-th pair and the check is
// repeated; otherwise the answer stands. The check stops when the candidate
// pair has residual ≤ √Tol·‖A‖, which typically costs a fraction of the main
// run. For the Laplacian of c disjoint cliques this finds all c zero
// eigenvalues; deflating the known component indicators (Problem.Deflate) is
// cheaper still and is what the clustering code does.
//
// Cost per restart: (NCV−Keep) applications of A plus O(n·NCV²) flops of
// reorthogonalization and O(NCV³) for the projected eigenproblem; memory
// n·(NCV+K+d+2) floats for d deflated vectors. When the complement is
// smaller than about NCV the dense solver is used instead (it then costs n
// applications of A and O(n³)).
//
// The zero value is ready to use.
type Lanczos struct {
	// NCV is the maximum dimension of the Krylov basis. If NCV is 0,
	// max(2K+1, K+20) is used, where K counts the pairs not deflated.
	// Values below K+2 are raised to K+2. (A longer cycle needs fewer
	// restarts but longer Gram–Schmidt: for K = 50 on a 10⁵-node 10-NN
	// graph NCV = 150 needs 24 restarts instead of 69, yet FGPWC end to
	// end took 25–28 s instead of 23.7 s on an idle 2-core machine,
	// because Gram–Schmidt is bound by memory bandwidth and the Ritz
	// vector products run on both cores.)
	NCV int
	// Keep is the number of Ritz vectors kept at a restart. If Keep is 0,
	// K + min((NCV−K)/2, max(10, ⌈K/4⌉)) is used: for many wanted pairs the
	// restart's O(n·NCV·Keep) Ritz vector products dominate, and keeping
	// fewer than half of the unwanted ones costs no extra products of A
	// (for K = 51 on a 2·10⁴-node 10-NN graph: the same 1090 products, 2.1 s
	// instead of 3.2 s with Keep = K + (NCV−K)/2; at 10⁵ nodes 34 s instead
	// of 43 s). It is clamped to [K, NCV−1].
	Keep int
	// SkipMultiplicityCheck disables the verification run described above.
	// Set it when repeated eigenvalues are deflated or known not to occur.
	SkipMultiplicityCheck bool
	// MaxNCV lets the basis grow on hard problems. If MaxNCV exceeds NCV
	// (after its default), every restart of a run that has not converged
	// after 8 cycles doubles the number of new vectors per cycle,
	// NCV − Keep, until NCV reaches MaxNCV; Keep stays as it was. If MaxNCV is 0 (or at most
	// NCV), NCV is fixed.
	//
	// Why: a thick restart discards the Krylov information outside the
	// Keep Ritz vectors, and when the wanted eigenvalues are separated
	// from the rest by a tiny gap (the graph of a 2-D point cloud, whose
	// L_sym eigenvalues near 0 grow like j/n) a short cycle loses most of
	// what it built: for K = 5 (one deflated) on L_sym of a 10⁵-node 2-D
	// 10-NN graph, tolerance 1e-8, the default NCV = 24 takes 3866
	// products and 383 restarts, NCV = 64 1633 products and 32 restarts
	// (with MaxNCV = 64, growing, about 1600 and 12 s → 6 s;
	// BenchmarkLanczos2DKNN). Growing instead of starting long keeps easy
	// problems, which converge in a few cycles, at the default cycle
	// length and bit-identical. Cost: memory rises to
	// n·(MaxNCV + K + 1) floats (K counting the deflated columns), and a
	// step's Gram–Schmidt to O(n·MaxNCV). Under Settings.MaxDenseBytes
	// the basis grows only as far as the bound allows.
	MaxNCV int
	// PerValue makes the convergence test relative to each wanted Ritz
	// value instead of to ‖A‖: a pair (θ, x) is accepted when its residual
	// is at most Tol·max(|θ|, ε·‖A‖) (ARPACK's test: Lehoucq, Sorensen and
	// Yang, ARPACK Users' Guide, 1998, §4.6), so that every pair is
	// resolved to Tol relative to its own eigenvalue. It is meant for
	// shift-and-invert operators (L + σI)⁻¹, whose wanted values
	// θ = 1/(λ + σ) span orders of magnitude: there a residual r ≤ Tol·θ
	// bounds ‖Lx − λx‖ = ‖(L + σI)r‖/θ by Tol·‖L + σI‖, for every pair,
	// while the default test bounds it only by Tol·‖L + σI‖·θ_max/θ. The
	// smallest wanted |θ| then set the pace, so a run may need more
	// restarts.
	PerValue bool
}

// lanczosMaxIter is the default number of restarts.
const lanczosMaxIter = 1000

// lanczosGrowAfter is the number of restart cycles of one run after which
// the basis may grow (Lanczos.MaxNCV). Easy problems converge before: the
// 6 smallest pairs of L_sym of BenchmarkEigen100k's planted graph take 4
// cycles and 88 products with the fixed basis, and 148 products (twice the
// time) when the basis grows from the first restart on.
const lanczosGrowAfter = 8

// Solve implements Solver. Settings.MaxIter counts restarts of the main run
// (default 1000); the verification runs get the same budget each.
func (l Lanczos) Solve(ctx context.Context, p Problem, s *Settings) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n, d, err := p.check()
	if err != nil {
		return nil, err
	}
	if p.B != nil {
		return nil, fmt.Errorf("%w: Lanczos solves standard problems only (B is set); use LOBPCG or Dense", ErrInvalid)
	}
	if l.NCV < 0 || l.Keep < 0 || l.MaxNCV < 0 {
		return nil, fmt.Errorf("%w: negative Lanczos NCV %d, Keep %d or MaxNCV %d", ErrInvalid, l.NCV, l.Keep, l.MaxNCV)
	}
	cfg, err := s.resolve(lanczosMaxIter)
	if err != nil {
		return nil, err
	}
	kk := p.K - d
	ncv := l.NCV
	if ncv == 0 {
		ncv = max(2*kk+1, kk+20)
	}
	ncv = max(ncv, kk+2)
	matvecs := 0
	mulA := counted(p.A, &matvecs)
	if kk == 0 {
		res := finish(p, n, nil, nil, mulA, nil)
		res.MatVecs = matvecs
		return res, nil
	}
	if n-d <= ncv+kk+1 {
		return Dense{}.Solve(ctx, p, s)
	}
	maxNCV := max(l.MaxNCV, ncv)
	if cfg.maxDense > 0 {
		if need := lanczosBytes(n, d+kk, ncv); need > float64(cfg.maxDense) {
			return nil, memoryBoundError{fmt.Errorf("%w: a Lanczos solve of n = %d for K = %d eigenpairs needs about %s for its basis of %d vectors of n values and its %d×%d projected matrices, more than Settings.MaxDenseBytes = %s: ask for fewer eigenpairs", ErrInvalid, n, p.K, wording.Bytes(sat(need)), d+kk+ncv+1, ncv, ncv, wording.Bytes(cfg.maxDense))}
		}
		maxNCV = lanczosFit(n, d+kk, ncv, maxNCV, cfg.maxDense)
	}
	r := newLanczosRun(p.A, n, d+kk, ncv, maxNCV, cfg.rng)
	r.perValue = l.PerValue
	// A tolerance within two orders of orthoSkip needs a basis kept
	// orthonormal more tightly: the residual estimate |β·y_last| holds
	// for an orthonormal basis only, and at Tol 1e-12…1e-14 it accepted
	// pairs whose explicit residual was 2 to 240 times the bound (review
	// 117). At the default Tol, and any above 1e-10, skip is orthoSkip.
	r.skip = min(orthoSkip, cfg.tol/100)
	if d > 0 {
		for i := 0; i < d; i++ {
			mat.Col(r.row(i), i, p.Deflate)
		}
	}
	keep := l.Keep
	if keep == 0 {
		keep = kk + min((ncv-kk)/2, max(10, (kk+3)/4))
	}
	keep = min(max(keep, kk), ncv-1)
	report := func(done int, msg string) {
		progress.Send(cfg.rec, progress.Event{Stage: "eigen", Done: done, Total: kk, Message: msg})
	}
	vals, vecs, resid, ok, err := r.solve(ctx, d, kk, keep, p.Which, cfg.tol, cfg.maxIter, nil, nil, report)
	if err != nil {
		return nil, err
	}
	if !ok {
		res := finish(p, n, vals, mat.NewDense(kk, n, vecs).T(), mulA, nil)
		res.MatVecs = matvecs + r.matvecs
		res.Iterations = r.restarts
		worst := slices.Max(resid)
		test := fmt.Sprintf("%.3g", cfg.tol*r.normA)
		if l.PerValue {
			test = fmt.Sprintf("%.3g·|θ|", cfg.tol)
		}
		return res, fmt.Errorf("%w: Lanczos reached %d restarts with largest residual %.3g > %s", ErrNoConvergence, cfg.maxIter, worst, test)
	}
	if !l.SkipMultiplicityCheck && n-d-kk > 0 {
		// Verification: look for a pair beyond the kk-th found one in the
		// complement of everything found so far.
		start := r.next
		for round := 0; round <= kk; round++ {
			copy(r.v[d*n:(d+kk)*n], vecs)
			thr := vals[kk-1]
			cv, cx, cr, found, err := r.solve(ctx, d+kk, 1, keep1(ncv), p.Which, cfg.tol, cfg.maxIter, &thr, start, report)
			start = nil
			if errors.Is(err, errUnsettled) {
				// The answer so far, with ErrNoConvergence, as when
				// the main run does not converge: its pairs are
				// right, but a repeated eigenvalue may be missed.
				res := finish(p, n, vals, mat.NewDense(kk, n, vecs).T(), mulA, nil)
				res.MatVecs = matvecs + r.matvecs
				res.Iterations = r.restarts
				return res, fmt.Errorf("%w: Lanczos' check for a missed repeated eigenvalue reached %d restarts without settling: a pair near %.6g (residual %.3g) may lie beyond the %d-th value found, %.6g", ErrNoConvergence, cfg.maxIter, cv[0], cr[0], kk, thr)
			}
			if err != nil {
				return nil, err
			}
			if !found {
				break
			}
			// Insert the new pair in order, dropping the kk-th.
			pos := kk - 1
			for pos > 0 && p.Which.better(cv[0], vals[pos-1]) {
				vals[pos] = vals[pos-1]
				copy(vecs[pos*n:(pos+1)*n], vecs[(pos-1)*n:pos*n])
				pos--
			}
			vals[pos] = cv[0]
			copy(vecs[pos*n:(pos+1)*n], cx)
		}
	}
	// The basis (r.v, (d+kk+ncv+1)·n values) is not needed any more: its
	// counters are read first so that it can be collected during finish.
	runMatVecs, restarts := r.matvecs, r.restarts
	res := finish(p, n, vals, mat.NewDense(kk, n, vecs).T(), mulA, nil)
	res.MatVecs = matvecs + runMatVecs
	res.Iterations = restarts
	return res, nil
}

// errUnsettled is the error of a verification run (lanczosRun.solve with
// a threshold) that reached its restarts without settling whether a pair
// lies beyond the threshold.
var errUnsettled = errors.New("eigen: Lanczos verification unsettled")

// limit is the residual at or below which the Ritz pair of value theta
// is accepted: tol·‖A‖, or tol·max(|θ|, ε·‖A‖) with Lanczos.PerValue.
func (r *lanczosRun) limit(tol, theta float64) float64 {
	if r.perValue {
		return tol * max(math.Abs(theta), 0x1p-52*r.normA)
	}
	return tol * r.normA
}

// keep1 is the number of Ritz vectors kept when one pair is wanted.
func keep1(ncv int) int { return max(1, (ncv-1)/2) }

// lanczosRun holds the workspace of thick-restart Lanczos runs on one
// operator. The basis is stored row-wise: row i of v is the i-th vector, the
// first `locked` rows are deflated vectors that every new vector is made
// orthogonal to.
type lanczosRun struct {
	a        Operator
	n        int
	ncv      int
	maxNCV   int       // the largest ncv that grow may set (Lanczos.MaxNCV)
	locked   int       // maxLocked of newLanczosRun
	v        []float64 // (maxLocked+ncv+1)×n
	t        []float64 // ncv×ncv projected matrix, symmetric
	h, h2    []float64
	w        []float64
	rbuf     []float64 // orthoChunks blocks of the restart's products
	xd, wd   mat.Dense // n×1 headers over a basis row and w
	tsym     *mat.SymDense
	es       mat.EigenSym
	y        mat.Dense
	rng      *rand.Rand
	normA    float64
	perValue bool      // Lanczos.PerValue
	next     []float64 // Ritz vector after the kk wanted ones, from the last run
	part     []float64 // per-chunk partial products of project
	matvecs  int
	restarts int
	// skipped and corrected count the Lanczos steps whose rounding-level
	// components along the basis were left in place, or subtracted
	// (orthoSkip).
	skipped, corrected int
	// skip is the relative size below which those components are left
	// in place: orthoSkip, or less for a tolerance near it.
	skip float64
}

// lanczosBytes returns the memory of newLanczosRun's workspace for a
// basis of ncv vectors after maxLocked locked ones, as
// Settings.MaxDenseBytes counts it: maxLocked + ncv + 1 vectors of n
// values and the ncv×ncv projected matrix and its symmetric copy, 8 bytes
// a value, as a float64 so that it cannot overflow. A basis grown to m
// vectors (lanczosRun.grow) takes lanczosBytes(n, maxLocked, m). Cost
// O(1).
func lanczosBytes(n, maxLocked, ncv int) float64 {
	return 8 * (float64(maxLocked+ncv+1)*float64(n) + 2*float64(ncv)*float64(ncv))
}

// lanczosFit returns the largest basis size in [ncv, maxNCV] whose
// workspace (lanczosBytes) fits in bound bytes, ncv when none larger
// does: the cap on the growth of the basis (Lanczos.MaxNCV) under
// Settings.MaxDenseBytes, which leaves maxNCV as it is when the grown
// basis fits. The caller has checked that ncv fits. Cost O(log(maxNCV −
// ncv)).
func lanczosFit(n, maxLocked, ncv, maxNCV int, bound int64) int {
	if lanczosBytes(n, maxLocked, maxNCV) <= float64(bound) {
		return maxNCV
	}
	// lanczosBytes grows with its basis size: the first size above ncv
	// that does not fit, less one.
	return ncv + sort.Search(maxNCV-ncv, func(i int) bool {
		return lanczosBytes(n, maxLocked, ncv+i+1) > float64(bound)
	})
}

// sat returns b as an int64, saturating at math.MaxInt64.
func sat(b float64) int64 {
	if b >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(b)
}

// newLanczosRun allocates the workspace for a basis of ncv vectors that
// grow may extend to maxNCV: the basis has room for all of them from the
// start, so growing copies nothing, and the rows never reached are never
// written (the memory of a large allocation becomes resident only when
// touched). Its memory is lanczosBytes(n, maxLocked, ncv), and the
// basis's capacity lanczosBytes(n, maxLocked, maxNCV) without the
// projected matrices. Cost O(n·(maxLocked + maxNCV)) address space,
// O(ncv²) written.
func newLanczosRun(a Operator, n, maxLocked, ncv, maxNCV int, rng *rand.Rand) *lanczosRun {
	rows := maxLocked + ncv + 1
	return &lanczosRun{
		a: a, n: n, ncv: ncv, maxNCV: max(maxNCV, ncv), locked: maxLocked,
		v:    make([]float64, rows*n, (maxLocked+max(maxNCV, ncv)+1)*n),
		t:    make([]float64, ncv*ncv),
		h:    make([]float64, rows),
		h2:   make([]float64, rows),
		w:    make([]float64, n),
		tsym: mat.NewSymDense(ncv, nil),
		rng:  rng,
		skip: orthoSkip,
	}
}

func (r *lanczosRun) row(i int) []float64 { return r.v[i*r.n : (i+1)*r.n] }

// grow raises ncv to ncv2 (at most maxNCV), keeping the basis rows and
// reallocating the projected matrix, which must be rebuilt by the caller
// (it is called at a restart, where T is cleared anyway).
func (r *lanczosRun) grow(ncv2 int) {
	ncv2 = min(ncv2, r.maxNCV)
	if ncv2 <= r.ncv {
		return
	}
	rows := r.locked + ncv2 + 1
	r.v = r.v[:rows*r.n] // zero: allocated with this capacity, never written
	r.h = make([]float64, rows)
	r.h2 = make([]float64, rows)
	r.t = make([]float64, ncv2*ncv2)
	r.tsym = mat.NewSymDense(ncv2, nil)
	r.ncv = ncv2
}

// orthogonalize makes x orthogonal to rows [0, m) of v by classical
// Gram–Schmidt, storing the summed coefficients in h[:m], and returns ‖x‖
// afterwards. With ref = 0 it always makes two passes; with ref > 0 (the
// norm of x before any projection) the second pass is made only when the
// first one cancelled more than 1 − 1/√2 of ref, the criterion of Daniel,
// Gragg, Kaufman & Stewart (Math. Comp. 30, 1976) used by ARPACK, and the
// first one's subtraction is skipped when every coefficient is below
// orthoSkip·ref. Large products are split over orthoChunks column blocks
// run concurrently; the chunking does not depend on GOMAXPROCS, so the
// result is the same on every machine.
//
// With ref < 0, ref is ‖x‖ computed here, concurrently with the first
// projection (both only read x), and the DGKS test applies as for ref > 0.
// When the subtraction is skipped, x is unchanged and ref is returned as
// its norm.
func (r *lanczosRun) orthogonalize(x []float64, m int, ref float64) float64 {
	h := r.h[:m]
	clear(h)
	xv := blas64.Vector{N: r.n, Inc: 1, Data: x}
	if m == 0 {
		return blas64.Nrm2(xv)
	}
	c := r.h2[:m]
	var nrm float64
	for pass := 0; pass < 2; pass++ {
		if ref < 0 {
			concurrently(r.n, func() { ref = blas64.Nrm2(xv) }, func() { r.project(c, x, m) })
		} else {
			r.project(c, x, m)
		}
		if ref > 0 && pass == 0 {
			if negligible(c, ref, r.skip) {
				// The coefficients are still added to h: they are
				// entries of VᵀAV whether or not x is corrected.
				r.skipped++
				copy(h, c)
				return ref
			}
			r.corrected++
		}
		r.subtract(x, c, m)
		for i, v := range c {
			h[i] += v
		}
		nrm = blas64.Nrm2(xv)
		if ref > 0 && nrm >= dgksEta*ref {
			break
		}
	}
	return nrm
}

// dgksEta is the DGKS threshold 1/√2.
const dgksEta = 0.7071067811865476

// orthoSkip is the relative size below which the components of a new
// Lanczos vector along the basis are left in place. After the three-term
// recurrence has been subtracted they are rounding errors, most of them
// 1e-13…1e-15 of ‖x‖ (K = 51 on a 2·10⁴-node graph: 1235 of 1336 steps),
// and subtracting them costs a second sweep over the basis, the dominant
// cost of Lanczos for many pairs. Because every step still measures them
// exactly (the projection sweep), the basis stays orthonormal to about
// orthoSkip, four orders of magnitude below the tightest tolerance the
// clustering code asks for (TestLanczosBasis checks it); steps above it
// are corrected as before.
//
// Tried and measured (FGPWC100k, K = 48, 10⁵ nodes, where half the steps
// need a correction): a larger orthoSkip does not skip more — components
// left in place grow by a factor 10–100 per step, and at 10⁻¹⁰ every
// second step still needed one; subtracting only the components above
// orthoSkip, row by row, leaves the small ones to grow, so that 2370 of
// 2500 steps then subtracted 22 rows each on average with memory-bound
// axpys, no faster than the full sweep every second step.
const orthoSkip = 1e-12

// negligible reports whether max_i |c_i| ≤ skip·ref.
func negligible(c []float64, ref, skip float64) bool {
	lim := skip * ref
	for _, v := range c {
		if !(math.Abs(v) <= lim) {
			return false
		}
	}
	return true
}

// orthoChunks is the number of column blocks of the parallel Gram–Schmidt
// products, and orthoMinWork the size m·n below which they run serially.
const (
	orthoChunks  = 4
	orthoMinWork = 1 << 18
)

// block returns rows [0, m) and columns [lo, hi) of v.
func (r *lanczosRun) block(m, lo, hi int) blas64.General {
	return blas64.General{Rows: m, Cols: hi - lo, Stride: r.n, Data: r.v[lo : (m-1)*r.n+hi]}
}

// chunks calls f on orthoChunks column ranges covering [0, n), concurrently
// when m·n is large.
func (r *lanczosRun) chunks(m int, f func(q, lo, hi int)) {
	n := r.n
	if m*n < orthoMinWork || n < 4*orthoChunks {
		f(0, 0, n)
		return
	}
	size := (n + orthoChunks - 1) / orthoChunks
	parallel.For(context.Background(), orthoChunks, 0, func(q int) error {
		f(q, q*size, min((q+1)*size, n))
		return nil
	})
}

// project sets c = V·x for rows [0, m) of V.
func (r *lanczosRun) project(c, x []float64, m int) {
	if m*r.n < orthoMinWork || r.n < 4*orthoChunks {
		gemvRows(c, r.block(m, 0, r.n), x)
		return
	}
	if len(r.part) < orthoChunks*m {
		r.part = make([]float64, orthoChunks*len(r.h))
	}
	r.chunks(m, func(q, lo, hi int) {
		gemvRows(r.part[q*m:(q+1)*m], r.block(m, lo, hi), x[lo:hi])
	})
	copy(c, r.part[:m])
	for q := 1; q < orthoChunks; q++ {
		for i, v := range r.part[q*m : (q+1)*m] {
			c[i] += v
		}
	}
}

// subtract sets x −= Vᵀ·c for rows [0, m) of V.
func (r *lanczosRun) subtract(x, c []float64, m int) {
	cv := blas64.Vector{N: m, Inc: 1, Data: c}
	r.chunks(m, func(_, lo, hi int) {
		blas64.Gemv(blas.Trans, -1, r.block(m, lo, hi), cv, 1, blas64.Vector{N: hi - lo, Inc: 1, Data: x[lo:hi]})
	})
}

// randomRow fills row i with a random unit vector orthogonal to rows [0, i).
// It returns false when no such vector can be found (the rows span ℝⁿ).
func (r *lanczosRun) randomRow(i int) bool {
	x := r.row(i)
	for attempt := 0; attempt < 3; attempt++ {
		randomize(x, r.rng)
		before := blas64.Nrm2(blas64.Vector{N: r.n, Inc: 1, Data: x})
		after := r.orthogonalize(x, i, 0)
		if after > 1e-6*before {
			blas64.Scal(1/after, blas64.Vector{N: r.n, Inc: 1, Data: x})
			return true
		}
	}
	clear(x)
	return false
}

// expand extends the basis rows locked+j0 … locked+m−1, filling columns
// j0…m−1 of t, and returns the last β (the norm of the residual vector stored
// in row locked+m) and the number of basis vectors, which is less than m only
// if the basis came to span the whole complement. It checks ctx before every
// step (one operator product and one orthogonalization, seconds at n ≈ 10⁶)
// and returns its error when cancelled.
//
// The first new vector after a (thick) restart couples to every kept vector
// and is orthogonalized by two full passes. Later ones satisfy the
// three-term recurrence A v_j = β_{j−1} v_{j−1} + α_j v_j + β_j v_{j+1}
// (Wu & Simon 2000, §2), so the known β_{j−1} v_{j−1} and α_j v_j are
// subtracted first and one full pass, repeated only when the DGKS test
// asks for it, removes the rounding left along the other vectors: about
// half the work of two unconditional passes.
//
// At 10⁶ nodes a step's vector operations (norms, a dot product, the
// recurrence, the normalization) cost about as much as the products that
// are not the operator's, so they overlap: ‖A v_j‖ (needed only for the
// invariance test) runs beside α_j and the recurrence, ‖w‖ beside the
// first projection, and the elementwise passes run in parallel chunks.
// Each reduction still runs sequentially as written, so the results do
// not depend on the overlap or on GOMAXPROCS (NJW at 10⁶: Lanczos 10.5 s
// → 8.0–8.4 s, the same vectors bit for bit).
func (r *lanczosRun) expand(ctx context.Context, locked, j0, m int) (beta float64, size int, err error) {
	n := r.n
	prevBeta := 0.0 // β_{j−1}, 0 after a restart from a random direction
	for j := j0; j < m; j++ {
		if err := ctx.Err(); err != nil {
			return 0, j, err
		}
		x := r.row(locked + j)
		r.xd.SetRawMatrix(blas64.General{Rows: n, Cols: 1, Stride: 1, Data: x})
		r.wd.SetRawMatrix(blas64.General{Rows: n, Cols: 1, Stride: 1, Data: r.w})
		r.a.MulTo(&r.wd, &r.xd)
		r.matvecs++
		wv := blas64.Vector{N: n, Inc: 1, Data: r.w}
		next := r.row(locked + j + 1)
		var anorm float64
		src := next // the new vector before its normalization
		if j == j0 {
			anorm = blas64.Nrm2(wv)
			if math.IsNaN(anorm) || math.IsInf(anorm, 0) {
				return math.NaN(), j, nil
			}
			beta = r.orthogonalize(r.w, locked+j+1, 0)
			src = r.w
		} else {
			// ‖w‖ is needed only for the tests below: it is computed
			// while α = xᵀw and the recurrence w − αx − β_{j−1}v_{j−1},
			// written to the next row, are (w is only read), and the
			// norm of the latter with the first projection.
			var alpha float64
			concurrently(n, func() { anorm = blas64.Nrm2(wv) }, func() {
				alpha = blas64.Dot(blas64.Vector{N: n, Inc: 1, Data: x}, wv)
				recurrence(next, r.w, x, r.row(locked+j-1), alpha, prevBeta)
			})
			if math.IsNaN(anorm) || math.IsInf(anorm, 0) {
				return math.NaN(), j, nil
			}
			beta = r.orthogonalize(next, locked+j+1, -1)
			r.h[locked+j] += alpha
			r.h[locked+j-1] += prevBeta
		}
		for i := 0; i <= j; i++ {
			c := r.h[locked+i]
			r.t[i*r.ncv+j] = c
			r.t[j*r.ncv+i] = c
		}
		if locked+j+1 == n {
			// The basis spans the whole space: T is exact.
			return 0, j + 1, nil
		}
		if beta <= 1e-12*max(anorm, r.normA) {
			// Invariant subspace: continue from a random direction.
			if !r.randomRow(locked + j + 1) {
				return 0, j + 1, nil
			}
			beta, prevBeta = 0, 0
			continue
		}
		scaleTo(next, src, 1/beta)
		prevBeta = beta
	}
	return beta, m, nil
}

// lanczosConcurrentMin is the vector length from which the vector
// operations of a Lanczos step run on two goroutines or in parallel
// chunks: below it they take microseconds.
const lanczosConcurrentMin = 1 << 15

// concurrently calls f and g, on two goroutines when n is at least
// lanczosConcurrentMin, and returns when both have. Each runs sequentially
// as written, so the results are those of calling f then g.
func concurrently(n int, f, g func()) {
	if n < lanczosConcurrentMin {
		f()
		g()
		return
	}
	var wg sync.WaitGroup
	wg.Go(f)
	g()
	wg.Wait()
}

// scaleTo sets dst = s·src elementwise (dst may be src), in parallel
// chunks for long vectors. Cost O(n).
func scaleTo(dst, src []float64, s float64) {
	parallel.Range(len(dst), len(dst), func(lo, hi int) {
		d := dst[lo:hi]
		for i, v := range src[lo:hi] {
			d[i] = v * s
		}
	})
}

// recurrence sets dst = w − α·x − β·v elementwise, the three-term
// recurrence of a Lanczos step, in parallel chunks for long vectors. The
// operations and roundings are those of two axpy calls (w + (−α)·x, then
// + (−β)·v; a term with a zero coefficient is skipped, as Daxpy does),
// which the explicit conversions keep from being fused. Cost O(n).
func recurrence(dst, w, x, v []float64, alpha, beta float64) {
	a, b := -alpha, -beta
	parallel.Range(len(dst), 2*len(dst), func(lo, hi int) {
		d, xs, vs := dst[lo:hi], x[lo:hi], v[lo:hi]
		for i, wi := range w[lo:hi] {
			t := wi
			if a != 0 {
				t = float64(t + float64(a*xs[i]))
			}
			if b != 0 {
				t = float64(t + float64(b*vs[i]))
			}
			d[i] = t
		}
	})
}

// solve runs thick-restart Lanczos for the kk extreme pairs (by which) of A
// restricted to the complement of rows [0, locked). It returns the values, the
// vectors as kk rows of length n, the residual estimates and whether the run
// converged.
//
// If thr is not nil the run is a verification run (kk = 1): it returns
// ok = true only when it found a converged pair beyond *thr by more than
// 100·tol·‖A‖, and stops with ok = false once the candidate pair is on the
// other side with residual ≤ √tol·‖A‖; it returns errUnsettled, with the
// candidate, when maxIter restarts settle neither (it was read as "no
// pair beyond").
func (r *lanczosRun) solve(ctx context.Context, locked, kk, keep int, which Which, tol float64, maxIter int, thr *float64, start []float64, report func(int, string)) (vals, vecs, resid []float64, ok bool, err error) {
	n := r.n
	m := min(r.ncv, n-locked)
	if !r.randomRow(locked) {
		return nil, nil, nil, false, fmt.Errorf("eigen: Lanczos found no start vector outside %d deflated ones", locked)
	}
	if start != nil {
		// Mix the suggested start with the random unit vector, equal weights.
		x := r.row(locked)
		sn := blas64.Nrm2(blas64.Vector{N: n, Inc: 1, Data: start})
		if sn > 0 {
			for i, v := range start {
				x[i] += v / sn
			}
			if nrm := r.orthogonalize(x, locked, 0); nrm > 0 {
				blas64.Scal(1/nrm, blas64.Vector{N: n, Inc: 1, Data: x})
			} else {
				r.randomRow(locked)
			}
		}
	}
	clear(r.t)
	kept := 0
	order := make([]int, r.ncv)
	resid = make([]float64, r.ncv)
	for iter := 1; ; iter++ {
		beta, size, err := r.expand(ctx, locked, kept, m)
		if err != nil {
			r.restarts += iter - 1
			return nil, nil, nil, false, err
		}
		if math.IsNaN(beta) {
			return nil, nil, nil, false, fmt.Errorf("%w produced by the operator (Lanczos step %d)", ErrNonFinite, size)
		}
		// Rayleigh–Ritz on T[:size,:size].
		ts := r.tsym.RawSymmetric()
		for i := 0; i < size; i++ {
			for j := i; j < size; j++ {
				ts.Data[i*ts.Stride+j] = r.t[i*r.ncv+j]
			}
		}
		tview := r.tsym.SliceSym(0, size).(*mat.SymDense)
		if !r.es.Factorize(tview, true) {
			return nil, nil, nil, false, fmt.Errorf("%w: projected eigenproblem failed (Lanczos)", ErrNoConvergence)
		}
		theta := r.es.Values(nil)
		r.y.Reset()
		r.es.VectorsTo(&r.y)
		for i := 0; i < size; i++ {
			order[i] = i
			if which == Largest {
				order[i] = size - 1 - i
			}
			resid[i] = math.Abs(beta * r.y.At(size-1, i))
		}
		r.normA = max(r.normA, math.Abs(theta[0]), math.Abs(theta[size-1]))
		lim := tol * r.normA
		nconv := 0
		for q := 0; q < kk; q++ {
			if resid[order[q]] <= r.limit(tol, theta[order[q]]) {
				nconv++
			}
		}
		done := nconv == kk
		found := false
		if thr != nil {
			c := order[0]
			if which.better(theta[c], *thr) && math.Abs(theta[c]-*thr) > 100*lim {
				found = resid[c] <= lim
				done = found
			} else {
				// Not beyond: accept once the candidate is resolved to
				// √tol·‖A‖ or to a tenth of its distance from *thr.
				done = resid[c] <= max(math.Sqrt(tol)*r.normA, 0.1*math.Abs(theta[c]-*thr))
			}
		}
		stop := done || iter >= maxIter || size < m
		if stop || (thr == nil && report != nil) {
			worst := 0.0
			for q := 0; q < kk; q++ {
				worst = max(worst, resid[order[q]])
			}
			if thr == nil {
				report(nconv, fmt.Sprintf("Lanczos restart %d: %d/%d converged, max residual %.2e", iter, nconv, kk, worst))
			}
		}
		if stop {
			// size < m means the basis spans the complement: T is exact.
			k := kk
			vals = make([]float64, k)
			rs := make([]float64, k)
			for q := 0; q < k; q++ {
				vals[q] = theta[order[q]]
				rs[q] = resid[order[q]]
			}
			// The next Ritz vector, if any, is kept in r.next as a
			// starting guess for the verification run.
			nv := min(k+1, size)
			out := make([]float64, nv*n)
			if err := r.ritzVectors(ctx, out, locked, size, order[:nv]); err != nil {
				r.restarts += iter
				return nil, nil, nil, false, err
			}
			r.next = nil
			if nv > k {
				r.next = out[k*n:]
			}
			out = out[:k*n]
			r.restarts += iter
			if thr != nil {
				if !done && size >= m {
					// MaxIter restarts without settling whether the
					// candidate lies beyond *thr: a missed pair
					// cannot be ruled out (review 117).
					return vals, out, rs, false, errUnsettled
				}
				return vals, out, rs, found, nil
			}
			return vals, out, rs, done || size < m, nil
		}
		if err := ctx.Err(); err != nil {
			r.restarts += iter
			return nil, nil, nil, false, err
		}
		// Thick restart: keep the best `keep` Ritz vectors, then the residual
		// vector (row locked+size) becomes basis vector keep.
		if err := r.restart(ctx, locked, size, order[:keep]); err != nil {
			r.restarts += iter
			return nil, nil, nil, false, err
		}
		copy(r.row(locked+keep), r.row(locked+size))
		if iter >= lanczosGrowAfter && r.ncv < r.maxNCV && m == r.ncv {
			// Not converged: twice as many new vectors next cycle
			// (Lanczos.MaxNCV).
			r.grow(r.ncv + (r.ncv - keep))
			m = min(r.ncv, n-locked)
		}
		clear(r.t)
		for q := 0; q < keep; q++ {
			r.t[q*r.ncv+q] = theta[order[q]]
		}
		if len(order) < r.ncv {
			order = make([]int, r.ncv)
			resid = make([]float64, r.ncv)
		}
		kept = keep
	}
}

// ritzCoefficients returns the columns cols of y's first size rows as the
// rows of a len(cols)×size matrix.
func (r *lanczosRun) ritzCoefficients(size int, cols []int) []float64 {
	ys := make([]float64, len(cols)*size)
	for q, c := range cols {
		for l := 0; l < size; l++ {
			ys[q*size+l] = r.y.At(l, c)
		}
	}
	return ys
}

// restartBlock is the number of basis columns (vector entries) restart
// multiplies at a time.
const restartBlock = 1024

// restart sets the basis rows locked…locked+len(cols)−1 to the Ritz
// vectors Σ_l y[l][c] v_{locked+l} of the columns c in cols (len(cols) ≤
// size), in place. Each block of restartBlock entries of the size rows is
// multiplied into a buffer of len(cols)×restartBlock values and copied
// back over its own entries, which the product has finished reading, so a
// restart needs orthoChunks such buffers instead of a second basis of
// ncv×n values (at 10⁵ nodes and 201 pairs, 322 MB). Cost: len(cols)·size·n
// multiply-adds, as a product into a separate matrix.
//
// It checks ctx before every block (len(cols)·size·restartBlock
// multiply-adds: 0.3 s for K = 800 on 10⁴ nodes, where the whole product
// takes seconds, review of tether serve's compute limit) and returns its
// error when cancelled, the basis then half rotated and unusable. The
// blocks do not change the result: each entry is the same inner product
// of a row of the coefficients with a column of the basis, whether or not
// the context is checked between them.
func (r *lanczosRun) restart(ctx context.Context, locked, size int, cols []int) error {
	k, n := len(cols), r.n
	if k == 0 || size == 0 {
		return nil
	}
	ys := r.ritzCoefficients(size, cols)
	per := k * min(restartBlock, n)
	if len(r.rbuf) < orthoChunks*per {
		r.rbuf = make([]float64, orthoChunks*per)
	}
	v := r.v[locked*n : (locked+size)*n]
	var cancelled [orthoChunks]error
	r.chunks(size, func(q, lo, hi int) {
		buf := r.rbuf[q*per : (q+1)*per]
		for a := lo; a < hi; a += restartBlock {
			if err := ctx.Err(); err != nil {
				cancelled[q] = err
				return
			}
			b := min(a+restartBlock, hi)
			w := b - a
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
				blas64.General{Rows: k, Cols: size, Stride: size, Data: ys},
				blas64.General{Rows: size, Cols: w, Stride: n, Data: v[a : (size-1)*n+b]},
				0, blas64.General{Rows: k, Cols: w, Stride: w, Data: buf[:k*w]})
			for i := 0; i < k; i++ {
				copy(v[i*n+a:i*n+b], buf[i*w:(i+1)*w])
			}
		}
	})
	for _, err := range cancelled {
		if err != nil {
			return err
		}
	}
	return nil
}

// ritzVectors sets the rows of dst to Σ_l y[l][c] v_{locked+l} for the
// columns c listed in cols: the Ritz vectors of the converged pairs.
// Cost: len(cols)·size·n multiply-adds.
//
// Like restart, it checks ctx before every block of restartBlock columns
// (len(cols)·size·restartBlock multiply-adds) and returns its error when
// cancelled, dst then partly written: on 10⁶ nodes with 200 basis
// vectors and 100 pairs the product is 2·10¹⁰ multiply-adds, seconds of
// work that would otherwise run on after cancellation. The blocks do not change the result: each entry is
// the same inner product of a row of the coefficients with a column of
// the basis (TestLanczosRitzVectorsBlockedExact).
func (r *lanczosRun) ritzVectors(ctx context.Context, dst []float64, locked, size int, cols []int) error {
	k, n := len(cols), r.n
	if k == 0 || size == 0 {
		return nil
	}
	ys := r.ritzCoefficients(size, cols)
	// Column blocks of dst are independent: split them like the
	// Gram–Schmidt products (gonum runs this shape serially).
	v := r.v[locked*n : (locked+size)*n]
	var cancelled [orthoChunks]error
	r.chunks(size, func(q, lo, hi int) {
		for a := lo; a < hi; a += restartBlock {
			if err := ctx.Err(); err != nil {
				cancelled[q] = err
				return
			}
			b := min(a+restartBlock, hi)
			blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
				blas64.General{Rows: k, Cols: size, Stride: size, Data: ys},
				blas64.General{Rows: size, Cols: b - a, Stride: n, Data: v[a : (size-1)*n+b]},
				0, blas64.General{Rows: k, Cols: b - a, Stride: n, Data: dst[a : (k-1)*n+b]})
		}
	})
	for _, err := range cancelled {
		if err != nil {
			return err
		}
	}
	return nil
}

// gemvRows sets h = V·x for the rows of V.
func gemvRows(h []float64, v blas64.General, x []float64) {
	blas64.Gemv(blas.NoTrans, 1, v, blas64.Vector{N: len(x), Inc: 1, Data: x}, 0, blas64.Vector{N: len(h), Inc: 1, Data: h})
}
