package eigen

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/progress"
)

// Operator is a real symmetric n×n linear operator known only through its
// action on blocks of vectors. Graph Laplacians, the Bethe Hessian and dense
// matrices (see NewMatrix) all satisfy it.
//
// The solvers in this package pass blocks whose stride equals their column
// count, so implementations may work on x.RawMatrix().Data directly.
type Operator interface {
	// Dim returns n.
	Dim() int
	// MulTo sets dst = A·x for n×p blocks x and dst. dst does not alias x.
	MulTo(dst, x *mat.Dense)
}

// Which selects the end of the spectrum a solver returns.
type Which int

const (
	// Smallest asks for the algebraically smallest eigenvalues.
	Smallest Which = iota
	// Largest asks for the algebraically largest eigenvalues.
	Largest
)

// String returns "Smallest" or "Largest".
func (w Which) String() string {
	switch w {
	case Smallest:
		return "Smallest"
	case Largest:
		return "Largest"
	}
	return fmt.Sprintf("Which(%d)", int(w))
}

// Problem is a symmetric eigenproblem A x = λ B x.
type Problem struct {
	// A is the symmetric operator. Required.
	A Operator
	// B is the symmetric positive definite right-hand side. If B is nil the
	// problem is the standard one, A x = λ x.
	B Operator
	// K is the number of eigenpairs wanted, 1 ≤ K ≤ n.
	K int
	// Which selects the smallest or largest eigenvalues.
	Which Which
	// Deflate holds known exact eigenvectors as columns (n×d, orthonormal, or
	// B-orthonormal when B is set), for example the normalized component
	// indicators of a disconnected graph's Laplacian. The solver works in
	// their (B-)orthogonal complement and returns them among the K pairs, with
	// the eigenvalues in DeflateValues (len d ≤ K). Nil means none.
	//
	// The returned pairs are ordered by Which, deflated ones first among equal
	// values; when the deflated values are the extreme ones (the usual case:
	// the zero eigenvalues of L with Which = Smallest) they come first.
	Deflate       *mat.Dense
	DeflateValues []float64
}

// Settings controls when a solver stops and how it reports. A nil *Settings
// means the defaults documented on each field.
type Settings struct {
	// Tol is the relative residual tolerance: a pair (λ, x) is accepted when
	// ‖Ax − λBx‖ ≤ Tol·(‖A‖ + |λ|·‖B‖)·‖x‖, with ‖A‖ and ‖B‖ estimated by the
	// solver (for standard problems the bound is Tol·‖A‖·‖x‖). If Tol is 0,
	// 1e-10 is used. Tol must lie in [0, 1).
	Tol float64
	// MaxIter caps the solver's outer iterations (restarts for Lanczos,
	// iterations for LOBPCG). If MaxIter is 0, a solver-specific default is used.
	MaxIter int
	// Src is the source of randomness for starting vectors. If Src is nil a
	// fixed seed is used, so results are reproducible by default.
	Src rand.Source
	// Recorder, if not nil, receives progress events: Stage "eigen", Done
	// of Total the eigenpairs converged of the K − d that the solver
	// computes (the d columns of Problem.Deflate are given, not counted),
	// with Message saying the same count, the iteration and the largest
	// residual ("Lanczos restart 3: 5/16 converged, max residual
	// 1.2e-06" with Done 5 and Total 16); after each restart (Lanczos,
	// BlockLanczos) or iteration (LOBPCG), once at the end for Dense.
	Recorder progress.Recorder
	// MaxDenseBytes, if positive, bounds the memory of a dense solve: Dense,
	// and the iterative solvers' fallback to it when the wanted pairs are a
	// large share of n (Lanczos from K ≈ n/3, BlockLanczos and LOBPCG from
	// K ≈ n/6). A problem whose dense solve needs more than MaxDenseBytes
	// bytes by DenseBytes fails with an error wrapping ErrInvalid and
	// ErrMemoryBound, naming n, K and both sizes, before anything n×n is
	// allocated, instead of
	// exhausting the memory (for K = n − 1 on 3·10⁴ nodes that is 7.2 GB
	// per matrix). It bounds Lanczos's dense blocks too, 8 bytes a value:
	// the K + NCV + 1 vectors of n values its basis starts with and its
	// two NCV×NCV projected matrices (K = 35 000 on 2·10⁵ nodes asked
	// for 168 GB); a solve whose starting basis exceeds the bound fails
	// the same way, and a basis that grows (Lanczos.MaxNCV) grows only
	// as far as the bound allows, to the largest size m ≤ MaxNCV whose
	// K + m + 1 vectors and m×m matrices fit, and neither allocates nor
	// touches more. It bounds BlockLanczos's and LOBPCG's blocks as well,
	// which do not grow: what they hold at their peak besides the n×K
	// vectors they return (their basis and work blocks of n values, their
	// projected matrices with the eigensolver's copy and workspace, and
	// the check of the result), as BlockLanczos and LOBPCG document it
	// (for LOBPCG 12·n·BlockSize values, 16 with B, where BlockSize is the
	// effective block size, K − d + max(2, ⌈(K − d)/2⌉) by default; n·d
	// more for the copy of the deflated vectors and n·d more with B for B
	// times them; three 3·BlockSize square matrices; and the check's n×(K
	// − d) vectors and products: LOBPCG.Workspace); a solve whose blocks
	// exceed the bound fails the same way, before any product, and one of
	// K = d, which computes no pair, allocates none of them. If MaxDenseBytes is 0, there is no
	// bound; a negative value is an error. It changes no result of a
	// problem whose dense solve, whose Lanczos basis grown to MaxNCV, or
	// whose BlockLanczos or LOBPCG blocks fit in the bound.
	MaxDenseBytes int64
}

// DenseBytes returns the memory a dense solve of an n×n problem needs at
// its peak, as Settings.MaxDenseBytes counts it: five n×n matrices of
// 8-byte values (the identity and the product that materialize an
// operator, its symmetric copy, the decomposition's copy and its
// vectors), eight with a right-hand side B (its own copies and the
// Cholesky reduction). It saturates at math.MaxInt64. Cost O(1).
func DenseBytes(n int, generalized bool) int64 {
	per := int64(5)
	if generalized {
		per = 8
	}
	nn := int64(max(n, 0))
	if nn > 0 && nn > math.MaxInt64/(8*per)/nn {
		return math.MaxInt64
	}
	return 8 * per * nn * nn
}

// Result holds the eigenpairs found, ordered by Which (ascending for
// Smallest, descending for Largest).
type Result struct {
	Values  []float64
	Vectors *mat.Dense // n×K, columns orthonormal (B-orthonormal when B is set)
	// Residuals[j] = ‖A v_j − λ_j B v_j‖ / ‖v_j‖, computed explicitly at the end.
	Residuals  []float64
	Iterations int
	MatVecs    int // number of single-vector operator applications of A
}

// Solver computes a few eigenpairs of a symmetric problem.
type Solver interface {
	Solve(ctx context.Context, p Problem, s *Settings) (*Result, error)
}

var (
	// ErrNoConvergence is returned (wrapped) when MaxIter is reached before
	// all K pairs meet the tolerance; the partial Result is returned with it.
	ErrNoConvergence = errors.New("eigen: no convergence")
	// ErrNotPositiveDefinite is returned when B is not positive definite.
	ErrNotPositiveDefinite = errors.New("eigen: B is not positive definite")
	// ErrNonFinite is returned (wrapped) when an operator, the deflated
	// vectors or the iteration hold a NaN or an infinity: the operator's
	// entries or their products are out of floating-point range (weights
	// near 1e±300, for example), a numerical failure of the caller's
	// operator rather than of the solver.
	ErrNonFinite = errors.New("eigen: non-finite value")
	// ErrInvalid is wrapped by every error reporting the caller's mistake:
	// an invalid Problem (K out of range, dimensions that differ, Deflate
	// that is not orthonormal, …), Settings out of range, a solver field
	// out of range, or a problem the solver does not take (a generalized
	// one, B set, given to Lanczos or BlockLanczos).
	ErrInvalid = errors.New("eigen: invalid argument")
	// ErrMemoryBound is wrapped, besides ErrInvalid, by the error of a
	// solve refused because it needs more than Settings.MaxDenseBytes (a
	// dense solve, Lanczos's starting basis, or BlockLanczos's or
	// LOBPCG's blocks): a caller that set the
	// bound can tell this refusal from the others, and say where its
	// bound came from, without reading the message.
	ErrMemoryBound = errors.New("eigen: beyond the memory bound")
)

// memoryBoundError is an error whose text and chain are those of the
// wrapped error (wrapping ErrInvalid), and which is ErrMemoryBound too.
type memoryBoundError struct{ error }

func (e memoryBoundError) Unwrap() error        { return e.error }
func (e memoryBoundError) Is(target error) bool { return target == ErrMemoryBound }

// DefaultTol is the relative residual tolerance used when Settings.Tol
// is 0.
const DefaultTol = 1e-10

// defaultSeed seeds the PCG generator used when Settings.Src is nil.
const defaultSeed1, defaultSeed2 = 0x7e7e5eed, 0x1a2c05

// config is a resolved Settings.
type config struct {
	tol      float64
	maxIter  int
	rng      *rand.Rand
	rec      progress.Recorder
	maxDense int64 // Settings.MaxDenseBytes, 0 for no bound
}

// Validate returns an error wrapping ErrInvalid, naming the field and its
// value, when Tol lies outside [0, 1) (NaN included), or MaxIter or
// MaxDenseBytes is negative; nil for a nil s.
// Every solver checks its Settings so; callers that hold Settings for a
// later solve (cluster.Run) check them up front with Validate.
func (s *Settings) Validate() error {
	switch {
	case s == nil:
		return nil
	case math.IsNaN(s.Tol) || s.Tol < 0 || s.Tol >= 1:
		return fmt.Errorf("%w: tolerance %v outside [0, 1)", ErrInvalid, s.Tol)
	case s.MaxIter < 0:
		return fmt.Errorf("%w: negative MaxIter %d", ErrInvalid, s.MaxIter)
	case s.MaxDenseBytes < 0:
		return fmt.Errorf("%w: negative MaxDenseBytes %d", ErrInvalid, s.MaxDenseBytes)
	}
	return nil
}

// resolve applies the documented defaults without modifying s.
func (s *Settings) resolve(defMaxIter int) (config, error) {
	c := config{tol: DefaultTol, maxIter: defMaxIter}
	if err := s.Validate(); err != nil {
		return c, err
	}
	var src rand.Source
	if s != nil {
		if s.Tol > 0 {
			c.tol = s.Tol
		}
		if s.MaxIter > 0 {
			c.maxIter = s.MaxIter
		}
		src = s.Src
		c.rec = s.Recorder
		c.maxDense = s.MaxDenseBytes
	}
	if src == nil {
		src = rand.NewPCG(defaultSeed1, defaultSeed2)
	}
	c.rng = rand.New(src)
	return c, nil
}

// check validates p and returns n and the number d of deflated vectors.
// Orthonormality of Deflate is checked here for standard problems; for
// generalized ones the solvers check QᵀBQ = I once they have BQ.
func (p *Problem) check() (n, d int, err error) {
	if p.A == nil {
		return 0, 0, fmt.Errorf("%w: Problem.A is nil", ErrInvalid)
	}
	n = p.A.Dim()
	if n < 1 {
		return 0, 0, fmt.Errorf("%w: operator dimension %d, need at least 1", ErrInvalid, n)
	}
	if p.K < 1 || p.K > n {
		return 0, 0, fmt.Errorf("%w: K = %d outside [1, %d]", ErrInvalid, p.K, n)
	}
	if p.Which != Smallest && p.Which != Largest {
		return 0, 0, fmt.Errorf("%w: unknown %v", ErrInvalid, p.Which)
	}
	if p.B != nil && p.B.Dim() != n {
		return 0, 0, fmt.Errorf("%w: B has dimension %d, A has %d", ErrInvalid, p.B.Dim(), n)
	}
	if p.Deflate == nil {
		if len(p.DeflateValues) != 0 {
			return 0, 0, fmt.Errorf("%w: %d DeflateValues but Deflate is nil", ErrInvalid, len(p.DeflateValues))
		}
		return n, 0, nil
	}
	r, c := p.Deflate.Dims()
	if r != n {
		return 0, 0, fmt.Errorf("%w: Deflate has %d rows, operator dimension is %d", ErrInvalid, r, n)
	}
	if c > p.K {
		return 0, 0, fmt.Errorf("%w: %d deflated vectors exceed K = %d", ErrInvalid, c, p.K)
	}
	if len(p.DeflateValues) != c {
		return 0, 0, fmt.Errorf("%w: Deflate has %d columns but %d DeflateValues", ErrInvalid, c, len(p.DeflateValues))
	}
	for j, v := range p.DeflateValues {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, 0, fmt.Errorf("%w: DeflateValues[%d] = %v", ErrNonFinite, j, v)
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < c; j++ {
			if v := p.Deflate.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, 0, fmt.Errorf("%w: Deflate[%d,%d] = %v", ErrNonFinite, i, j, v)
			}
		}
	}
	if p.B == nil {
		if err := checkOrthonormal(p.Deflate, p.Deflate, "orthonormal"); err != nil {
			return 0, 0, err
		}
	}
	return n, c, nil
}

// deflTol bounds |QᵀBQ − I| entrywise for accepted Deflate blocks.
const deflTol = 1e-8

// checkOrthonormal returns nil when qᵀbq = I to within deflTol, else an
// error wrapping ErrInvalid naming the first entry that differs.
func checkOrthonormal(q, bq *mat.Dense, what string) error {
	_, c := q.Dims()
	g := mat.NewDense(c, c, nil)
	g.Mul(q.T(), bq)
	for i := 0; i < c; i++ {
		for j := 0; j < c; j++ {
			want := 0.0
			if i == j {
				want = 1
			}
			if v := g.At(i, j); !(math.Abs(v-want) <= deflTol) {
				return fmt.Errorf("%w: Deflate columns are not %s: (QᵀQ)[%d,%d] = %g", ErrInvalid, what, i, j, v)
			}
		}
	}
	return nil
}

// contiguous returns a copy of m with stride equal to its column count.
func contiguous(m *mat.Dense) *mat.Dense {
	r, c := m.Dims()
	out := mat.NewDense(r, c, nil)
	out.Copy(m)
	return out
}

// better reports whether a comes before b in the order selected by w.
func (w Which) better(a, b float64) bool {
	if w == Largest {
		return a > b
	}
	return a < b
}

// finish assembles the Result from the deflated pairs of p and the computed
// pairs (vals, vecs n×len(vals), or its transpose stored row-major: see
// column): it orders them by p.Which (stably, deflated first), computes
// explicit residuals with mulA and mulB (which multiply by A and B; mulB
// nil for the standard problem) and returns the result. The residuals are
// computed finishBlock columns at a time, so that finish holds at most two
// n×finishBlock products besides the result.
func finish(p Problem, n int, vals []float64, vecs mat.Matrix, mulA, mulB func(dst, x *mat.Dense)) *Result {
	d := len(p.DeflateValues)
	k := d + len(vals)
	type src struct {
		v   float64
		col int // < d: deflated column; ≥ d: computed column col−d
	}
	order := make([]src, 0, k)
	for j, v := range p.DeflateValues {
		order = append(order, src{v, j})
	}
	for j, v := range vals {
		order = append(order, src{v, d + j})
	}
	sort.SliceStable(order, func(a, b int) bool { return p.Which.better(order[a].v, order[b].v) })
	res := &Result{Values: make([]float64, k), Vectors: mat.NewDense(n, k, nil), Residuals: make([]float64, k)}
	col := make([]float64, n)
	for j, o := range order {
		res.Values[j] = o.v
		if o.col < d {
			mat.Col(col, o.col, p.Deflate)
		} else {
			column(col, vecs, o.col-d)
		}
		res.Vectors.SetCol(j, col)
	}
	if k == 0 {
		return res
	}
	bw := min(k, finishBlock)
	x, av := mat.NewDense(n, bw, nil), mat.NewDense(n, bw, nil)
	var bv *mat.Dense
	if mulB != nil {
		bv = mat.NewDense(n, bw, nil)
	}
	vr := res.Vectors.RawMatrix()
	for lo := 0; lo < k; lo += bw {
		w := min(bw, k-lo)
		if w < bw {
			x, av = mat.NewDense(n, w, nil), mat.NewDense(n, w, nil)
			if mulB != nil {
				bv = mat.NewDense(n, w, nil)
			}
		}
		xr := x.RawMatrix()
		for i := 0; i < n; i++ {
			copy(xr.Data[i*xr.Stride:i*xr.Stride+w], vr.Data[i*vr.Stride+lo:i*vr.Stride+lo+w])
		}
		mulA(av, x)
		b := x
		if mulB != nil {
			mulB(bv, x)
			b = bv
		}
		residuals(res.Residuals[lo:lo+w], res.Values[lo:lo+w], av.RawMatrix(), b.RawMatrix(), xr)
	}
	return res
}

// finishBlock is the number of columns finish multiplies at a time.
const finishBlock = 32

// finishBytes returns what finish holds besides the n×k result, for an
// iterative solver's Settings.MaxDenseBytes, 8 bytes a value, as a float64:
// the solver's n×kk vectors it copies from, its column of n values and its
// products x and A·x (and B·x when gen) of at most finishBlock columns, a
// narrower set allocated for the last columns while the wider one may
// not yet be reclaimed: 2 (3 with B) blocks of n×min(k, 2·finishBlock)
// values. Cost O(1).
func finishBytes(n, k, kk int, gen bool) float64 {
	blocks := 2.0
	if gen {
		blocks = 3
	}
	return 8 * float64(n) * (float64(kk) + 1 + blocks*float64(min(k, 2*finishBlock)))
}

// eigWork is the number of values, per row of the matrix, of what gonum's
// EigenSym.Factorize allocates besides its copy of the matrix with
// vectors: dsyev's workspace ((32+2)·m for DSYTRD's block size 32), the m
// eigenvalues and their copy by Values.
const eigWork = 36

// residuals sets res[j] = ‖a_j − values[j]·b_j‖ / ‖x_j‖ for the columns of
// the n×len(res) row-major blocks a = A·x and b = B·x (b = x for the
// standard problem); 0 for a zero column. Cost O(n·len(res)).
//
// The norms are sums of squares, which underflow or overflow for entries
// outside about [1e-154, 1e154]: an operator of norm 1e-170 had every
// residual read exactly 0 and one of norm 1e200 +Inf, and B-orthonormal
// vectors of a B of norm 1e-170 (entries near 1e85) had the quotient of
// the sums underflow (review 117). A column whose sum of squares leaves
// [sumSafeMin, sumSafeMax] is measured again with the scaled 2-norm of
// BLAS dnrm2 (blas64.Nrm2), which squares no entry unscaled, and a
// quotient outside that range is taken as the quotient of the square
// roots; otherwise the plain sums lose nothing and are kept as they were,
// so ordinary residuals are unchanged to the bit.
func residuals(res, values []float64, a, b, x blas64.General) {
	k := len(res)
	num := make([]float64, k)
	den := make([]float64, k)
	for i := 0; i < x.Rows; i++ {
		ar, br, xr := a.Data[i*a.Stride:i*a.Stride+k], b.Data[i*b.Stride:i*b.Stride+k], x.Data[i*x.Stride:i*x.Stride+k]
		for j := range k {
			r := ar[j] - values[j]*br[j]
			num[j] += r * r
			den[j] += xr[j] * xr[j]
		}
	}
	var col []float64
	for j := range k {
		switch q := num[j] / den[j]; {
		case sumSafe(num[j]) && sumSafe(den[j]) && sumSafe(q):
			res[j] = math.Sqrt(q)
		case sumSafe(num[j]) && sumSafe(den[j]):
			res[j] = math.Sqrt(num[j]) / math.Sqrt(den[j])
		default:
			if col == nil {
				col = make([]float64, x.Rows)
			}
			for i := range col {
				col[i] = a.Data[i*a.Stride+j] - values[j]*b.Data[i*b.Stride+j]
			}
			rn := blas64.Nrm2(blas64.Vector{N: x.Rows, Inc: 1, Data: col})
			xn := blas64.Nrm2(blas64.Vector{N: x.Rows, Inc: x.Stride, Data: x.Data[j:]})
			res[j] = 0
			if xn > 0 {
				res[j] = rn / xn
			}
		}
	}
}

// sumSafeMin and sumSafeMax bound the sums of squares that residuals takes
// as they are: a sum of at least 2⁻⁹⁰⁰ has lost to underflow only squares
// below 2⁻¹⁰²², a relative 2⁻¹²² of it, and a sum of at most 2⁹⁰⁰ is far
// from overflow.
const sumSafeMin, sumSafeMax = 0x1p-900, 0x1p900

// sumSafe reports whether the sum of squares s lies in [sumSafeMin,
// sumSafeMax], where its square root is accurate to rounding.
func sumSafe(s float64) bool { return s >= sumSafeMin && s <= sumSafeMax }

// column copies column j of m into dst (len(dst) rows). m is a *mat.Dense,
// or the mat.Transpose of one (a row-major block of vectors, such as
// Lanczos' basis rows), whose row j is copied directly.
func column(dst []float64, m mat.Matrix, j int) {
	if t, ok := m.(mat.Transpose); ok {
		if d, ok := t.Matrix.(*mat.Dense); ok {
			raw := d.RawMatrix()
			copy(dst, raw.Data[j*raw.Stride:j*raw.Stride+raw.Cols])
			return
		}
	}
	mat.Col(dst, j, m)
}

// counted wraps op.MulTo, adding the number of columns applied to *count.
func counted(op Operator, count *int) func(dst, x *mat.Dense) {
	return func(dst, x *mat.Dense) {
		_, c := x.Dims()
		*count += c
		op.MulTo(dst, x)
	}
}

// randomize fills x with independent standard normal entries.
func randomize(x []float64, rng *rand.Rand) {
	for i := range x {
		x[i] = rng.NormFloat64()
	}
}

// generalOf returns the blas64 view of a row-major Dense.
func generalOf(m *mat.Dense) blas64.General { return m.RawMatrix() }

// finiteSlice reports whether every entry of x is finite.
func finiteSlice(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
