package eigen

import (
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
)

// complementBasis is Q = H_0·H_1···H_{d−1}, the orthogonal factor of the
// QR factorization of an n×d matrix Y (LAPACK dgeqrf, Householder
// reflectors H_i = I − τ_i·v_i·v_iᵀ, v_i zero above row i, 1 at row i):
// Z = Q[:, d:] is an orthonormal basis of the complement of Y's columns.
// Z is never formed: projections and liftings apply the d reflectors.
type complementBasis struct {
	n, d int
	qr   []float64 // n×d, row-major: the reflectors below the diagonal
	tau  []float64
}

// newComplementBasis factors y (n×d, d ≤ n). O(n·d²).
func newComplementBasis(y *mat.Dense) *complementBasis {
	n, d := y.Dims()
	h := &complementBasis{n: n, d: d, qr: make([]float64, n*d), tau: make([]float64, d)}
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			h.qr[i*d+j] = y.At(i, j)
		}
	}
	var impl gonum.Implementation
	work := []float64{0}
	impl.Dgeqrf(n, d, h.qr, d, h.tau, work, -1)
	work = make([]float64, max(int(work[0]), 1))
	impl.Dgeqrf(n, d, h.qr, d, h.tau, work, len(work))
	return h
}

// reflector sets v (length n) to v_i.
func (h *complementBasis) reflector(i int, v []float64) {
	clear(v[:i])
	v[i] = 1
	for r := i + 1; r < h.n; r++ {
		v[r] = h.qr[r*h.d+i]
	}
}

// project returns ZᵀAZ = (QᵀAQ)[d:, d:] for symmetric a, applying each
// reflector from both sides (A ← H·A·H = A − v·wᵀ − w·vᵀ with p = τ·A·v
// and w = p − (τ/2)(vᵀp)·v, as LAPACK dsytd2). O(d·n²), against O(n³)
// for the products with an explicit Z.
func (h *complementBasis) project(a *mat.SymDense) *mat.SymDense {
	n, d := h.n, h.d
	full := make([]float64, n*n)
	raw := a.RawSymmetric()
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := raw.Data[i*raw.Stride+j]
			full[i*n+j], full[j*n+i] = v, v
		}
	}
	v := make([]float64, n)
	p := make([]float64, n)
	for i := 0; i < d; i++ {
		t := h.tau[i]
		if t == 0 {
			continue
		}
		h.reflector(i, v)
		// p = τ·A·v; v is zero above row i.
		for r := 0; r < n; r++ {
			row := full[r*n : r*n+n]
			var s float64
			for c := i; c < n; c++ {
				s += row[c] * v[c]
			}
			p[r] = t * s
		}
		var vp float64
		for r := i; r < n; r++ {
			vp += v[r] * p[r]
		}
		k := 0.5 * t * vp
		for r := range p {
			p[r] -= k * v[r]
		}
		for r := 0; r < n; r++ {
			row := full[r*n : r*n+n]
			vr, pr := v[r], p[r]
			for c := range row {
				row[c] -= vr*p[c] + pr*v[c]
			}
		}
	}
	m := n - d
	out := mat.NewSymDense(m, nil)
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			out.SetSym(i, j, 0.5*(full[(d+i)*n+d+j]+full[(d+j)*n+d+i]))
		}
	}
	return out
}

// lift returns Z·y = Q·[0; y] for an (n−d)×k matrix y. O(d·n·k).
func (h *complementBasis) lift(y *mat.Dense) *mat.Dense {
	n, d := h.n, h.d
	_, k := y.Dims()
	out := mat.NewDense(n, k, nil)
	out.Slice(d, n, 0, k).(*mat.Dense).Copy(y)
	raw := out.RawMatrix()
	s := make([]float64, k)
	for i := d - 1; i >= 0; i-- {
		if h.tau[i] != 0 {
			reflectRows(raw.Data, raw.Stride, k, i, h.qr, d, i, i+1, n, h.tau[i], s)
		}
	}
	return out
}
