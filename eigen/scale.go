package eigen

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// LOBPCG and BlockLanczos form column norms and Gram matrices as sums of
// squares and products, which underflow below entries of about 1e-154 and
// overflow above 1e154. For an operator whose norm lies far from 1 they
// therefore solve an exactly rescaled problem: they estimate the
// operator's scale from its first block product and, when that lies
// outside [2⁻²⁰⁰, 2²⁰⁰] (scaleRange), multiply every product by the power
// of two 2⁻ᵉ that brings it near 1 — exact in floating point unless a
// product is subnormal, where the operator itself has already lost
// precision — and scale the results back. Within the range nothing is
// rescaled and the iteration is the one it was: 2²⁰⁰ (1.6e60) leaves a
// factor of about 2³⁰⁰ before the squares of the entries of products with
// unit columns of up to 2⁴⁰ rows underflow or overflow.
const scaleRange = 200

// maxScaleExp bounds the exponents scaleExponent returns, so that 2^±e is
// a normal number.
const maxScaleExp = 1000

// maxAbs returns the largest |v| of x: 0 for an empty x, NaN if x holds one.
// Cost O(len(x)).
func maxAbs(x []float64) float64 {
	var m float64
	for _, v := range x {
		m = max(m, math.Abs(v))
	}
	return m
}

// scaleExponent returns the exponent e of the power of two that estimates
// the scale of an operator from one block product y = op·x: e ≈ log₂(max|y|
// / max|x|), computed from the binary exponents so that nothing is squared
// or divided. It returns 0 when the estimate lies within 2^±scaleRange,
// when y or x is zero (a zero operator has no scale to correct) and when
// either holds a NaN or an infinity (the caller reports that as
// ErrNonFinite), and
// bounds e to ±maxScaleExp. Cost O(len(y) + len(x)).
func scaleExponent(y, x []float64) int {
	my, mx := maxAbs(y), maxAbs(x)
	if my == 0 || mx == 0 || math.IsInf(my, 0) || math.IsInf(mx, 0) || math.IsNaN(my) || math.IsNaN(mx) {
		return 0
	}
	_, ey := math.Frexp(my)
	_, ex := math.Frexp(mx)
	e := ey - ex
	if -scaleRange <= e && e <= scaleRange {
		return 0
	}
	return min(max(e, -maxScaleExp), maxScaleExp)
}

// scaleSlice multiplies x by 2^e, element by element with math.Ldexp:
// exactly when the results are normal, and for any e, so that an
// eigenvalue 2^(eA−eB)·μ is found when it is representable though 2^(eA −
// eB) is not (a factor math.Ldexp(1, e) overflowed to +Inf for e ≥ 1024
// and made every value infinite; review 124). Cost O(len(x)).
func scaleSlice(x []float64, e int) {
	for i, v := range x {
		x[i] = math.Ldexp(v, e)
	}
}

// scaledMul returns mul followed by multiplying the product by 2^−e: the
// operator 2^−e·op for mul = op.MulTo. e = 0 returns mul itself.
func scaledMul(mul func(dst, x *mat.Dense), e int) func(dst, x *mat.Dense) {
	if e == 0 {
		return mul
	}
	s := math.Ldexp(1, -e)
	return func(dst, x *mat.Dense) {
		mul(dst, x)
		scaleRows(dst.RawMatrix(), s)
	}
}
