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
// Jacobi preconditioner inv (inv[i] = 1/A_ii), starting from the x given
// (a warm start). It stops when ‖b − A x‖ ≤ tol·‖b‖ or after maxIter
// iterations, and returns the iterations done and whether the tolerance
// was met. A zero b gives x = 0. Cost: one product and O(n) per iteration.
func solveCG(mul func(dst, x []float64), inv, b, x []float64, tol float64, maxIter int, w *cgWork) (int, bool) {
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
	var rz float64
	for i := range z {
		z[i] = inv[i] * r[i]
		rz += r[i] * z[i]
	}
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
		var rzNew float64
		for i := range z {
			z[i] = inv[i] * r[i]
			rzNew += r[i] * z[i]
		}
		beta := rzNew / rz
		rz = rzNew
		for i := range p {
			p[i] = z[i] + beta*p[i]
		}
	}
	return maxIter, false
}
