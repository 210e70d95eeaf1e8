package cluster

import "math"

// cgWork holds the work vectors of solveCG for systems of one size.
type cgWork struct {
	r, z, p, ap, b []float64
}

func newCGWork(n int) *cgWork {
	return &cgWork{r: make([]float64, n), z: make([]float64, n), p: make([]float64, n), ap: make([]float64, n), b: make([]float64, n)}
}

// solveCG solves A x = b for a symmetric positive definite A, given only
// its product mul(dst, x) (dst = A·x), by conjugate gradients with the
// symmetric positive definite preconditioner prec (prec(dst, r) sets
// dst = P⁻¹r; see jacobiPrec and forestPrec), starting from the x given
// (a warm start). It stops when ‖b − A x‖ ≤ tol·‖b‖ or after maxIter
// iterations, and returns the iterations done and whether the tolerance
// was met. A zero b gives x = 0; a b with an entry that is not finite,
// or a residual that overflows, gives ok = false.
//
// b and the warm start are scaled by the power of two 2⁻ᵉ that brings
// b's largest entry into [½, 1), and x back by 2ᵉ: exact, so the
// iterates are those of the unscaled system (bit for bit, mul and prec
// being linear) wherever that one stays in floating-point range, while
// ‖b‖ and the inner products neither underflow nor overflow when b is
// far from 1 (review 136: ‖b‖ = √(bᵀb) was 0 for b ≈ 10⁻²⁰⁰, giving x = 0
// with ok = true, and +Inf for b ≈ 10¹⁶⁰, giving the warm start). Cost:
// one product, one application of prec and O(n) per iteration, plus
// O(n) for the scaling.
func solveCG(mul func(dst, x []float64), prec func(dst, r []float64), b, x []float64, tol float64, maxIter int, w *cgWork) (int, bool) {
	var bmax float64
	for _, v := range b {
		bmax = max(bmax, math.Abs(v))
	}
	switch {
	case bmax == 0:
		for i := range x {
			x[i] = 0
		}
		return 0, true
	case !(bmax <= math.MaxFloat64): // an entry is ±Inf or NaN
		return 0, false
	}
	_, e := math.Frexp(bmax)
	bs := w.b
	for i, v := range b {
		bs[i] = math.Ldexp(v, -e)
	}
	for i, v := range x {
		x[i] = math.Ldexp(v, -e)
	}
	it, ok := solveCGUnit(mul, prec, bs, x, tol, maxIter, w)
	for i, v := range x {
		x[i] = math.Ldexp(v, e)
	}
	return it, ok
}

// solveCGUnit is solveCG for a b of norm in [½, √n) (solveCG scales it
// so). It returns ok = false when a residual norm is not finite. Cost as
// solveCG.
func solveCGUnit(mul func(dst, x []float64), prec func(dst, r []float64), b, x []float64, tol float64, maxIter int, w *cgWork) (int, bool) {
	r, z, p, ap := w.r, w.z, w.p, w.ap
	bn := math.Sqrt(dot(b, b))
	mul(ap, x)
	for i := range r {
		r[i] = b[i] - ap[i]
	}
	rn := math.Sqrt(dot(r, r))
	if !(rn <= math.MaxFloat64) {
		return 0, false // the warm start overflows A·x, or is not finite
	}
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
		if !(rr <= math.MaxFloat64) {
			return it, false
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
