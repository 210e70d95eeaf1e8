package cluster

import "math"

// cgWork holds the work vectors of solveCG for systems of one size.
type cgWork struct {
	r, z, p, ap []float64
}

func newCGWork(n int) *cgWork {
	return &cgWork{r: make([]float64, n), z: make([]float64, n), p: make([]float64, n), ap: make([]float64, n)}
}

// solveCG solves A x = b for a symmetric positive definite A, given only
// its product mul(dst, x) (dst = A·x), by conjugate gradients with the
// symmetric positive definite preconditioner prec (prec(dst, r) sets
// dst = P⁻¹r; see jacobiPrec and forestPrec), starting from the x given
// (a warm start). It stops when ‖b − A x‖ ≤ tol·‖b‖ or after maxIter
// iterations, and returns the iterations done and whether the tolerance
// was met. A zero b gives x = 0. Cost: one product, one application of
// prec and O(n) per iteration.
func solveCG(mul func(dst, x []float64), prec func(dst, r []float64), b, x []float64, tol float64, maxIter int, w *cgWork) (int, bool) {
	r, z, p, ap := w.r, w.z, w.p, w.ap
	bn := math.Sqrt(dot(b, b))
	if bn == 0 {
		for i := range x {
			x[i] = 0
		}
		return 0, true
	}
	mul(ap, x)
	for i := range r {
		r[i] = b[i] - ap[i]
	}
	rn := math.Sqrt(dot(r, r))
	if rn <= tol*bn {
		return 0, true
	}
	prec(z, r)
	rz := dot(r, z)
	copy(p, z)
	for it := 1; it <= maxIter; it++ {
		mul(ap, p)
		pap := dot(p, ap)
		if !(pap > 0) {
			return it, false // A is not positive definite along p
		}
		alpha := rz / pap
		var rr float64
		for i := range x {
			x[i] += alpha * p[i]
			r[i] -= alpha * ap[i]
			rr += r[i] * r[i]
		}
		if math.Sqrt(rr) <= tol*bn {
			return it, true
		}
		prec(z, r)
		rzNew := dot(r, z)
		beta := rzNew / rz
		rz = rzNew
		for i := range p {
			p[i] = z[i] + beta*p[i]
		}
	}
	return maxIter, false
}

// jacobiPrec returns the preconditioner dst = inv ⊙ r (inv[i] = 1/A_ii).
func jacobiPrec(inv []float64) func(dst, r []float64) {
	return func(dst, r []float64) {
		for i, v := range r {
			dst[i] = inv[i] * v
		}
	}
}
