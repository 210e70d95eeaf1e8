package eigen

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
)

// symSelectMinN is the smallest order for which denseSolve uses symSelect:
// below it the full decomposition costs less than the set-up.
const symSelectMinN = 32

// symSelectMaxIter bounds the inverse iterations per eigenvector; it
// converges in 2–3 (the shift is an eigenvalue to working accuracy).
const symSelectMaxIter = 8

// symSelect computes the kk smallest (which == Smallest) or largest
// eigenpairs of the symmetric matrix a, without the full eigenvector matrix
// that mat.EigenSym (LAPACK dsyev) forms. It is the LAPACK dsyevx route
// with the building blocks gonum offers:
//
//  1. a = Q·T·Qᵀ, T tridiagonal (gonum's Dsytrd, 4/3·m³ flops);
//  2. all eigenvalues of T (Dsterf, Pal–Walker–Kahan QL, O(m²), no
//     vectors);
//  3. the kk eigenvectors of T by inverse iteration (as LAPACK dstein):
//     T − λ_j·I factored by LU with partial pivoting (O(m)), each iterate
//     orthogonalized (modified Gram–Schmidt, twice) against the vectors
//     already found for eigenvalues within 10⁻³·‖T‖₁ of λ_j (a cluster),
//     shifts within one cluster separated by at least 10·ε·‖T‖₁;
//  4. the vectors of a as Q·y, the reflectors of step 1 applied to the
//     m×kk block (2·m²·kk flops).
//
// The cost is 4/3·m³ + 2·m²·kk + O(m·kk·(iterations + cluster size)) flops
// against about 4/3·m³ + 4/3·m³ + 6·m³ for dsyev with vectors (its QL
// sweeps apply every rotation to the m×m eigenvector matrix), so it pays
// when kk is well below m.
//
// Each vector is accepted when its residual ‖T·y − λ_j·y‖₂ is at most
// 64·m·ε·‖T‖₁, the accuracy of dsyev's. If a vector does not reach it
// within symSelectMaxIter steps, or Dsterf fails, ok is false and the
// caller must use the full decomposition. Values are in the order of
// denseSolve: increasing for Smallest, decreasing for Largest; column j of
// vecs is the unit eigenvector of value j. The sign of each vector is fixed
// so that its entry of largest magnitude is positive; within an eigenvalue
// of multiplicity > 1 the basis is an arbitrary orthonormal one (as with
// dsyev). The random starting vectors come from a fixed seed, so the result
// is a deterministic function of a.
func symSelect(a *mat.SymDense, kk int, which Which) (vals []float64, vecs *mat.Dense, ok bool) {
	m := a.SymmetricDim()
	if kk <= 0 || kk > m {
		return nil, nil, false
	}
	// gonum's Dsterf (v0.17.0) panics when it rescales a block of T whose
	// norm lies outside [√safmin/ε², √safmax/3] (it passes the diagonal to
	// Dlascl as a column with stride n): such matrices, and any other
	// panic of the LAPACK routines, go to the caller's dsyev instead.
	defer func() {
		if r := recover(); r != nil {
			vals, vecs, ok = nil, nil, false
		}
	}()
	var impl gonum.Implementation
	// Step 1: the upper triangle of a, reduced in place.
	w := make([]float64, m*m)
	raw := a.RawSymmetric()
	for i := 0; i < m; i++ {
		copy(w[i*m+i:i*m+m], raw.Data[i*raw.Stride+i:i*raw.Stride+m])
	}
	d := make([]float64, m)
	e := make([]float64, max(m-1, 1))
	tau := make([]float64, max(m-1, 1))
	work := []float64{0}
	impl.Dsytrd(blas.Upper, m, w, m, d, e, tau, work, -1)
	work = make([]float64, int(work[0]))
	impl.Dsytrd(blas.Upper, m, w, m, d, e, tau, work, len(work))
	e = e[:m-1]

	// ‖T‖₁ (= ‖T‖∞, T symmetric) and its largest entry.
	var norm, tnorm float64
	for i := 0; i < m; i++ {
		s := math.Abs(d[i])
		tnorm = max(tnorm, s)
		if i > 0 {
			s += math.Abs(e[i-1])
		}
		if i < m-1 {
			s += math.Abs(e[i])
			tnorm = max(tnorm, math.Abs(e[i]))
		}
		norm = max(norm, s)
	}

	// Step 2: the eigenvalues of T, increasing (not through Dsterf's
	// rescaling branch: see above).
	if tnorm > math.Sqrt(math.MaxFloat64)/3 || (tnorm > 0 && tnorm < math.Sqrt(0x1p-1022)/(0x1p-53*0x1p-53)) {
		return nil, nil, false
	}
	ev := append([]float64(nil), d...)
	e2 := append([]float64(nil), e...)
	if !impl.Dsterf(m, ev, e2) {
		return nil, nil, false
	}
	// The selection, as a contiguous range [lo, lo+kk) of ev.
	lo := 0
	if which == Largest {
		lo = m - kk
	}

	eps := 0x1p-52
	ortol := 1e-3 * norm
	pertol := 10 * eps * norm
	tol := 64 * float64(m) * eps * norm
	tiny := eps * norm
	if norm == 0 {
		// a = 0: the unit vectors, of value 0.
		vecs = mat.NewDense(m, kk, nil)
		for j := 0; j < kk; j++ {
			vecs.Set(lo+j, j, 1)
		}
		return make([]float64, kk), vecs, true
	}

	// Step 3: inverse iteration on T, in increasing order of eigenvalue.
	y := mat.NewDense(m, kk, nil) // column c: the vector of ev[lo+c]
	cols := make([][]float64, kk)
	rng := rand.New(rand.NewPCG(0x7e7e, uint64(m)))
	lu := newTridiagLU(m)
	x := make([]float64, m)
	clusterStart := 0
	prevShift := math.Inf(-1)
	for c := 0; c < kk; c++ {
		lam := ev[lo+c]
		shift := lam
		if c > 0 && lam-ev[lo+c-1] > ortol {
			clusterStart = c
		}
		if c > clusterStart && shift-prevShift < pertol {
			shift = prevShift + pertol
		}
		prevShift = shift
		lu.factor(d, e, shift, tiny)
		for i := range x {
			x[i] = 2*rng.Float64() - 1
		}
		unit(x)
		done := false
		for it := 0; it < symSelectMaxIter; it++ {
			lu.solve(x)
			for pass := 0; pass < 2; pass++ {
				for _, q := range cols[clusterStart:c] {
					s := dot(q, x)
					for i := range x {
						x[i] -= s * q[i]
					}
				}
			}
			if !unit(x) {
				return nil, nil, false
			}
			if it >= 1 && tridiagResidual(d, e, lam, x) <= tol {
				done = true
				break
			}
		}
		if !done {
			return nil, nil, false
		}
		// Sign: the entry of largest magnitude positive.
		imax := 0
		for i := range x {
			if math.Abs(x[i]) > math.Abs(x[imax]) {
				imax = i
			}
		}
		if x[imax] < 0 {
			for i := range x {
				x[i] = -x[i]
			}
		}
		cols[c] = append([]float64(nil), x...)
	}
	// Columns in denseSolve's order: increasing value for Smallest,
	// decreasing for Largest.
	vals = make([]float64, kk)
	raw2 := y.RawMatrix()
	for c, q := range cols {
		col := c
		if which == Largest {
			col = kk - 1 - c
		}
		vals[col] = ev[lo+c]
		for i, v := range q {
			raw2.Data[i*raw2.Stride+col] = v
		}
	}

	// Step 4: a's vectors Q·y, Q = H_{m−2}···H_0, H_i = I − τ_i·v·vᵀ with
	// v[i] = 1, v[0:i] = w[0:i, i+1] (gonum's Dsytrd, upper): H_0 first.
	row := make([]float64, kk)
	for i := 0; i < m-1; i++ {
		if tau[i] != 0 {
			reflectRows(raw2.Data, raw2.Stride, kk, i, w, m, i+1, 0, i, tau[i], row)
		}
	}
	return vals, y, true
}

// reflectRows applies H = I − τ·v·vᵀ from the left to the row-major block
// y (k columns, row stride ys), where v is 1 at row p, v_r = a[r·as + col]
// for r in [lo, hi) (p outside it), and 0 elsewhere: the Householder
// reflectors of Dsytrd and Dgeqrf, read in place. s is scratch of length
// k. O((hi − lo + 1)·k).
func reflectRows(y []float64, ys, k, p int, a []float64, as, col, lo, hi int, tau float64, s []float64) {
	// s = τ·vᵀy: row p first, then the others in increasing order.
	copy(s, y[p*ys:p*ys+k])
	for r := lo; r < hi; r++ {
		v := a[r*as+col]
		for j, x := range y[r*ys : r*ys+k] {
			s[j] += v * x
		}
	}
	for j := range s {
		s[j] *= tau
	}
	yp := y[p*ys : p*ys+k]
	for j := range yp {
		yp[j] -= s[j]
	}
	for r := lo; r < hi; r++ {
		v := a[r*as+col]
		yr := y[r*ys : r*ys+k]
		for j := range yr {
			yr[j] -= v * s[j]
		}
	}
}

// unit scales x to unit norm; false if x is zero or not finite.
func unit(x []float64) bool {
	n := math.Sqrt(dot(x, x))
	if !(n > 0) || math.IsInf(n, 0) {
		return false
	}
	for i := range x {
		x[i] /= n
	}
	return true
}

// tridiagResidual returns ‖T·x − λ·x‖₂ for T = tridiag(e, d, e). O(m).
func tridiagResidual(d, e []float64, lam float64, x []float64) float64 {
	m := len(d)
	var s float64
	for i := 0; i < m; i++ {
		r := (d[i] - lam) * x[i]
		if i > 0 {
			r += e[i-1] * x[i-1]
		}
		if i < m-1 {
			r += e[i] * x[i+1]
		}
		s += r * r
	}
	return math.Sqrt(s)
}

// tridiagLU is the LU factorization with partial pivoting of T − σ·I for a
// symmetric tridiagonal T (LAPACK dlagtf's form): U has two
// superdiagonals, L one multiplier per step, and swap[k] says whether rows
// k and k+1 were exchanged at step k.
type tridiagLU struct {
	u0, u1, u2, l []float64
	swap          []bool
}

func newTridiagLU(m int) *tridiagLU {
	return &tridiagLU{u0: make([]float64, m), u1: make([]float64, m), u2: make([]float64, m), l: make([]float64, m), swap: make([]bool, m)}
}

// factor factors T − σ·I, T with diagonal d and off-diagonal e; pivots of
// magnitude below tiny are replaced by ±tiny (as dlagts with a tolerance),
// so the solves amplify the eigenvector's component. O(m).
func (f *tridiagLU) factor(d, e []float64, sigma, tiny float64) {
	m := len(d)
	// The current row k holds (ak, bk) in columns k, k+1.
	ak := d[0] - sigma
	var bk float64
	if m > 1 {
		bk = e[0]
	}
	for k := 0; k < m-1; k++ {
		ck := e[k] // row k+1, column k
		an := d[k+1] - sigma
		var bn float64
		if k+1 < m-1 {
			bn = e[k+1]
		}
		if math.Abs(ak) >= math.Abs(ck) {
			f.swap[k] = false
			mult := 0.0
			if ak != 0 {
				mult = ck / ak
			}
			f.u0[k], f.u1[k], f.u2[k], f.l[k] = ak, bk, 0, mult
			ak, bk = an-mult*bk, bn
		} else {
			f.swap[k] = true
			mult := ak / ck
			f.u0[k], f.u1[k], f.u2[k], f.l[k] = ck, an, bn, mult
			ak, bk = bk-mult*an, -mult*bn
		}
		if math.Abs(f.u0[k]) < tiny {
			f.u0[k] = math.Copysign(tiny, f.u0[k])
		}
	}
	if math.Abs(ak) < tiny {
		ak = math.Copysign(tiny, ak)
	}
	f.u0[m-1] = ak
}

// solve overwrites b with (T − σ·I)⁻¹·b through the factors. O(m).
func (f *tridiagLU) solve(b []float64) {
	m := len(b)
	for k := 0; k < m-1; k++ {
		if f.swap[k] {
			b[k], b[k+1] = b[k+1], b[k]-f.l[k]*b[k+1]
		} else {
			b[k+1] -= f.l[k] * b[k]
		}
	}
	b[m-1] /= f.u0[m-1]
	if m > 1 {
		b[m-2] = (b[m-2] - f.u1[m-2]*b[m-1]) / f.u0[m-2]
	}
	for k := m - 3; k >= 0; k-- {
		b[k] = (b[k] - f.u1[k]*b[k+1] - f.u2[k]*b[k+2]) / f.u0[k]
	}
}
