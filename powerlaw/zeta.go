package powerlaw

import (
	"math"

	"github.com/tether-sc/tether/internal/safelog"
)

// emCoef[j-1] = B_{2j}/(2j)!, the Euler–Maclaurin coefficients (B_{2j} the
// Bernoulli numbers: 1/6, −1/30, 1/42, −1/30, 5/66, −691/2730, 7/6,
// −3617/510, 43867/798, −174611/330).
var emCoef = [...]float64{
	1.0 / 12,
	-1.0 / 720,
	1.0 / 30240,
	-1.0 / 1209600,
	1.0 / 47900160,
	-691.0 / 1307674368000,
	1.0 / 74724249600,
	-3617.0 / 10670622842880000,
	43867.0 / 5109094217170944000,
	-174611.0 / 802857662698291200000,
}

// Zeta returns the Hurwitz zeta function ζ(s, q) = Σ_{k≥0} (k+q)^{−s} for
// s > 1 and q > 0, the normalizing constant of the discrete power law
// p(x) = x^{−α}/ζ(α, x_min) (Clauset, Shalizi & Newman 2009, eq. 2.3). ζ(s, 1)
// is the Riemann zeta function. Like the functions of package math it
// returns NaN outside its domain, which is 1 < s < +Inf and 0 < q < +Inf
// (NaN when s ≤ 1, q ≤ 0, or s or q is NaN or +Inf). Inside it, it returns
// +Inf when ζ overflows (q^{−s} does, for q near 0) and 0 when ζ underflows;
// for large q, where ζ ≈ q^{1−s}/(s−1), it is computed scaled by q^{s−1},
// so that neither q/(s−1) nor q^{−s} leaves the float64 range before ζ
// does (ζ(1.001, 10³⁰⁶) ≈ 494.3).
//
// Method: the Euler–Maclaurin formula, summing N = max(0, ⌈max(10, s) − q⌉)
// terms directly and the remainder at a = q + N as
// a^{1−s}/(s−1) + a^{−s}/2 + Σ_{j=1}^{10} B_{2j}/(2j)!·s(s+1)…(s+2j−2)·a^{1−s−2j}.
// With a ≥ max(10, s) the omitted term is below 10⁻¹⁵ relative. Above
// s = 1000 the direct sum stops once its remaining terms are below 10⁻¹⁸ of
// it. Cost O(max(10, s)) operations, O(1 + q/s·ln(1/ε)) above s = 1000.
func Zeta(s, q float64) float64 {
	if !(s > 1) || !(q > 0) || math.IsInf(s, 1) || math.IsInf(q, 1) {
		return math.NaN()
	}
	z, _, ls := zetaScaled(s, q)
	if zetaLargeQ(s, q) {
		// Scaled by q^{s−1}: ζ may be far larger than e^{−ls}.
		return math.Exp(safelog.Log(z) - ls)
	}
	return z * math.Exp(-ls)
}

// zetaLargeQ reports whether zetaScaled scales by q^{s−1} rather than q^s:
// for q ≥ max(10, s) (no direct term) so large that q/(s−1)², a term of
// ∂ζ/∂s·q^s, could overflow, or that q^{−s} underflows (below e^{−700}).
func zetaLargeQ(s, q float64) bool {
	return q >= max(10, s) && (q > 1e250 || s*safelog.Log(q) > 700)
}

// zetaScaled returns ζ(s, q)·e^{ls} and ∂ζ(s, q)/∂s·e^{ls} and the scale's
// logarithm ls, for s > 1, q > 0. ls is s·ln q (ζ·q^s), or (s−1)·ln q
// (ζ·q^{s−1} ≈ 1/(s−1)) for large q (zetaLargeQ): the scaling keeps both
// finite when q^{−s} underflows or q/(s−1) overflows, and their ratio is
// ∂ ln ζ/∂s. Euler–Maclaurin as in Zeta, differentiated term by term.
func zetaScaled(s, q float64) (z, dz, ls float64) {
	lq := safelog.Log(q)
	if zetaLargeQ(s, q) {
		// No direct term; the remainder at a = q, times q^{s−1}:
		// 1/(s−1) + q^{−1}/2 + Σ_j c_j·(s)_{2j−1}·q^{−2j}.
		inv := 1 / q
		t := 1 / (s - 1)
		z = t + inv/2
		dz = -lq*t - t/(s-1) - lq*inv/2
		z, dz = emTail(s, q, lq, inv*inv, z, dz)
		return z, dz, (s - 1) * lq
	}
	// Capped so that the conversion cannot overflow for s near the float64
	// range; above zetaShortcutS the sum stops long before the cap.
	n := int(min(math.Ceil(max(10, s)-q), 1<<62))
	if n < 0 {
		n = 0
	}
	for k := 0; k < n; k++ {
		// ((q+k)/q)^{−s}
		l := safelog.Log(q + float64(k))
		t := math.Exp(-s * (l - lq))
		if s > zetaShortcutS {
			// ln(q+k) − ln q loses about s·10⁻¹⁵ of the exponent when q
			// is large; log1p does not.
			t = math.Exp(-s * math.Log1p(float64(k)/q))
		}
		z += t
		dz -= l * t
		// Beyond zetaShortcutS the N = ⌈s − q⌉ terms would cost O(s)
		// (ζ(10¹⁰, 1) ran for minutes); stop once the rest is negligible:
		// Σ_{j>k} t_j ≤ ∫_k^∞ ((q+x)/q)^{−s} dx = t·(q+k)/(s−1), and the
		// Euler–Maclaurin remainder at a > q + k is part of that sum.
		if s > zetaShortcutS && t*(1+(q+float64(k))/(s-1))*(1+math.Abs(l)) < 1e-18*z {
			return z, dz, s * lq
		}
	}
	a := q + float64(n)
	la := safelog.Log(a)
	base := math.Exp(-s * (la - lq)) // (a/q)^{−s}
	if s > zetaShortcutS {
		base = math.Exp(-s * math.Log1p(float64(n)/q))
	}
	// a^{1−s}/(s−1) and its s-derivative −ln a·a^{1−s}/(s−1) − a^{1−s}/(s−1)².
	t := a * base / (s - 1)
	z += t
	dz += -la*t - t/(s-1)
	// a^{−s}/2.
	z += base / 2
	dz -= la * base / 2
	z, dz = emTail(s, a, la, base/a, z, dz) // base/a: a^{−s−1}
	return z, dz, s * lq
}

// emTail adds to z and dz the Euler–Maclaurin terms at a (la = ln a)
// Σ_j c_j·(s)_{2j−1}·a^{1−s−2j}, scaled as apow, which is the scaled
// a^{−s−1}, and their s-derivatives: poch is the rising factorial
// s(s+1)…(s+2j−2), dlog its logarithmic derivative Σ 1/(s+i).
func emTail(s, a, la, apow, z, dz float64) (float64, float64) {
	poch, dlog := s, 1/s
	for j, c := range emCoef {
		if j > 0 {
			i := float64(2*j - 1)
			poch *= (s + i) * (s + i + 1)
			dlog += 1/(s+i) + 1/(s+i+1)
			apow /= a * a
		}
		term := c * poch * apow
		z += term
		dz += term * (dlog - la)
		if math.Abs(term) < 1e-17*z {
			break
		}
	}
	return z, dz
}

// zetaShortcutS is the exponent above which zetaScaled stops its direct
// sum as soon as the rest is below 10⁻¹⁸ of it. Below it (every α a fit or
// the sampler uses: MaxAlpha is 1000) the evaluation is the plain
// Euler–Maclaurin one, so results there do not depend on the shortcut.
const zetaShortcutS = 1000

// logZeta returns ln ζ(s, q) without underflow or overflow.
func logZeta(s, q float64) float64 {
	z, _, ls := zetaScaled(s, q)
	return safelog.Log(z) - ls
}
