package powerlaw

import (
	"errors"
	"fmt"
	"math"

	"github.com/tether-sc/tether/internal/safelog"
)

// ErrInvalid is wrapped by every error caused by the input: values below
// x_min, non-finite or non-positive values, non-integers where integers are
// due, α ≤ 1, an x_min ≤ 0, empty data.
var ErrInvalid = errors.New("powerlaw: invalid input")

// MaxAlpha is the largest exponent the discrete MLE searches; a sample
// whose maximum-likelihood exponent is larger (almost every value equal to
// x_min) is reported as an error.
const MaxAlpha = 1000

// checkLaw validates α and x_min.
func checkLaw(alpha, xmin float64) error {
	if !(alpha > 1) || math.IsInf(alpha, 1) {
		return fmt.Errorf("%w: α = %v, want a finite value > 1", ErrInvalid, alpha)
	}
	if !(xmin > 0) || math.IsInf(xmin, 1) {
		return fmt.Errorf("%w: x_min = %v, want a finite value > 0", ErrInvalid, xmin)
	}
	return nil
}

func checkXmin(xmin float64, discrete bool) error {
	if !(xmin > 0) || math.IsInf(xmin, 1) {
		return fmt.Errorf("%w: x_min = %v, want a finite value > 0", ErrInvalid, xmin)
	}
	if discrete && (xmin != math.Trunc(xmin) || xmin < 1) {
		return fmt.Errorf("%w: x_min = %v, want an integer ≥ 1 for the discrete law", ErrInvalid, xmin)
	}
	return nil
}

// checkTail validates that x is non-empty and every x[i] is finite and
// ≥ xmin (an integer when discrete), naming the first offender.
func checkTail(x []float64, xmin float64, discrete bool) error {
	if err := checkXmin(xmin, discrete); err != nil {
		return err
	}
	if len(x) == 0 {
		return fmt.Errorf("%w: no data", ErrInvalid)
	}
	for i, v := range x {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return fmt.Errorf("%w: x[%d] = %v is not finite", ErrInvalid, i, v)
		case v < xmin:
			return fmt.Errorf("%w: x[%d] = %v is below x_min = %v", ErrInvalid, i, v, xmin)
		case discrete && v != math.Trunc(v):
			return fmt.Errorf("%w: x[%d] = %v is not an integer (discrete law)", ErrInvalid, i, v)
		}
	}
	return nil
}

// PDF returns the continuous power-law density of thesis eq. 5.1.2,
// p(x) = ((α−1)/x_min)(x/x_min)^{−α} for x ≥ x_min, and 0 below x_min.
// Like the functions of package math it returns NaN outside its domain,
// which is 1 < α < +Inf and 0 < x_min < +Inf: NaN when α ≤ 1, x_min ≤ 0,
// α or x_min is +Inf, or x, α or x_min is NaN.
func PDF(x, alpha, xmin float64) float64 {
	if checkLaw(alpha, xmin) != nil || math.IsNaN(x) {
		return math.NaN()
	}
	if x < xmin {
		return 0
	}
	p := (alpha - 1) / xmin * math.Pow(x/xmin, -alpha)
	if math.IsNaN(p) || math.IsInf(p, 0) {
		// (α−1)/x_min overflowed (x_min near the smallest float64), and
		// with it perhaps x/x_min: the same density as
		// ((α−1)/x)(x/x_min)^{1−α}, whose first factor is smaller.
		p = (alpha - 1) / x * math.Pow(x/xmin, 1-alpha)
	}
	return p
}

// CDF returns P(X ≤ x) = 1 − (x/x_min)^{1−α} of the continuous law of eq.
// 5.1.2, 0 below x_min; NaN outside the domain of PDF.
func CDF(x, alpha, xmin float64) float64 {
	if checkLaw(alpha, xmin) != nil || math.IsNaN(x) {
		return math.NaN()
	}
	if x <= xmin {
		return 0
	}
	return -math.Expm1((1 - alpha) * safelog.Log(x/xmin))
}

// DiscretePMF returns p(x) = x^{−α}/ζ(α, x_min) of the discrete power law
// (Clauset et al. 2009, eq. 2.3) for integers x ≥ x_min and 0 for every
// other x. Like the functions of package math it returns NaN outside its
// domain, which is 1 < α < +Inf and x_min an integer in [1, +Inf): NaN when
// α ≤ 1, α is +Inf, x_min is not such an integer, or x, α or x_min is NaN.
// Cost O(max(10, α)).
func DiscretePMF(x, alpha, xmin float64) float64 {
	if checkLaw(alpha, xmin) != nil || checkXmin(xmin, true) != nil || math.IsNaN(x) {
		return math.NaN()
	}
	if x < xmin || x != math.Trunc(x) {
		return 0
	}
	return math.Exp(-alpha*safelog.Log(x) - logZeta(alpha, xmin))
}

// DiscreteCDF returns P(X ≤ x) = 1 − ζ(α, ⌊x⌋+1)/ζ(α, x_min) of the
// discrete law, 0 below x_min; NaN outside the domain of DiscretePMF. Cost
// O(max(10, α)).
func DiscreteCDF(x, alpha, xmin float64) float64 {
	if checkLaw(alpha, xmin) != nil || checkXmin(xmin, true) != nil || math.IsNaN(x) {
		return math.NaN()
	}
	if x < xmin {
		return 0
	}
	if math.IsInf(x, 1) {
		return 1
	}
	// Near α = 1 both ζ's are about 1/(α−1) and their difference can round
	// to ≥ 0 (a CDF ≤ 0, −0 included); the CDF at x ≥ x_min is at least
	// the mass at x_min, so a value ≤ 0 is rounding: +0.
	return math.Max(0, -math.Expm1(logZeta(alpha, math.Floor(x)+1)-logZeta(alpha, xmin)))
}

// MLE returns the maximum-likelihood exponent of the continuous power law
// of thesis eq. 5.1.2 for data x ≥ xmin, α̂ = 1 + n(Σ ln(x_i/x_min))⁻¹
// (thesis eq. 5.1.3), and its standard error (α̂−1)/√n (Clauset et al.
// 2009, eq. 3.2), the asymptotic one. For integer data it is an
// approximation: see DiscreteMLE.
//
// Errors wrap ErrInvalid: empty x, xmin ≤ 0, a value that is not finite or
// is below xmin (named by index), every value equal to xmin (α̂ = ∞: "all N
// values equal x_min: the exponent is infinite", checked by comparison,
// not from the rounded sum of logarithms).
// Cost O(n): one logarithm per value.
func MLE(x []float64, xmin float64) (alpha, stderr float64, err error) {
	if err := checkTail(x, xmin, false); err != nil {
		return 0, 0, err
	}
	s, above := 0.0, false
	for _, v := range x {
		s += safelog.Log(v)
		above = above || v > xmin
	}
	if !above {
		// Σ ln x_i − n ln x_min can round to a tiny positive number
		// (x_min = 3 or 1.5: α̂ ≈ 5.6e15 before): refuse it exactly.
		return 0, 0, errInfinite(len(x))
	}
	return mleFromSum(len(x), s-float64(len(x))*safelog.Log(xmin))
}

// errInfinite returns the error wrapping ErrInvalid of the estimators for
// a sample of n values that all equal x_min, whose likelihood increases
// without bound with α.
func errInfinite(n int) error {
	if n == 1 {
		return fmt.Errorf("%w: the only value equals x_min: the exponent is infinite", ErrInvalid)
	}
	return fmt.Errorf("%w: all %d values equal x_min: the exponent is infinite", ErrInvalid, n)
}

// mleFromSum returns eq. 5.1.3 from n and L = Σ ln(x_i/x_min).
func mleFromSum(n int, L float64) (float64, float64, error) {
	if !(L > 0) {
		return 0, 0, errInfinite(n)
	}
	a := 1 + float64(n)/L
	return a, (a - 1) / math.Sqrt(float64(n)), nil
}

// DiscreteMLEApprox returns the closed-form approximation of the discrete
// maximum-likelihood exponent, α̂ ≈ 1 + n(Σ ln(x_i/(x_min − ½)))⁻¹ (Clauset
// et al. 2009, eq. 3.7), and its standard error (α̂−1)/√n, for integer data
// x ≥ xmin, xmin an integer ≥ 1. Clauset et al. find it accurate to about 1%
// for x_min ≳ 6; DiscreteMLE is exact. Errors as for MLE, and for
// non-integers: a sample whose values all equal x_min is refused, as
// DiscreteMLE refuses it (its exponent is infinite), although the formula,
// shifted by ½, would give a finite α̂. Cost O(n).
func DiscreteMLEApprox(x []float64, xmin float64) (alpha, stderr float64, err error) {
	if err := checkTail(x, xmin, true); err != nil {
		return 0, 0, err
	}
	s, above := 0.0, false
	for _, v := range x {
		s += safelog.Log(v)
		above = above || v > xmin
	}
	if !above {
		return 0, 0, errInfinite(len(x))
	}
	return mleFromSum(len(x), s-float64(len(x))*safelog.Log(xmin-0.5))
}

// DiscreteMLE returns the exact maximum-likelihood exponent of the discrete
// power law p(x) = x^{−α}/ζ(α, x_min) for integer data x ≥ xmin: the root
// of the score −ζ′(α, x_min)/ζ(α, x_min) = (1/n)Σ ln x_i (Clauset et al.
// 2009, eq. 3.5), found by bisection on α ∈ (1, MaxAlpha] to machine
// precision (the log-likelihood is concave in α, its score decreasing).
// stderr is 1/√(n·V(α̂)) with V = ∂²ln ζ/∂α², the variance of ln X under the
// fitted law (the observed Fisher information; Clauset et al. eq. 3.8),
// taken by a central difference of ∂ ln ζ/∂α.
//
// Errors as for MLE and DiscreteMLEApprox; also when α̂ would exceed
// MaxAlpha. Cost O(n) for the logarithms plus about 100 evaluations of ζ.
func DiscreteMLE(x []float64, xmin float64) (alpha, stderr float64, err error) {
	if err := checkTail(x, xmin, true); err != nil {
		return 0, 0, err
	}
	s := 0.0
	for _, v := range x {
		s += safelog.Log(v)
	}
	return discreteMLEFromMean(len(x), s/float64(len(x)), xmin)
}

// dlogZeta returns ∂ ln ζ(s, q)/∂s = E[−ln X] under the discrete law.
func dlogZeta(s, q float64) float64 {
	z, dz, _ := zetaScaled(s, q)
	return dz / z
}

// discreteMLEFromMean solves −∂ln ζ(α, xmin)/∂α = m, m = mean of ln x.
func discreteMLEFromMean(n int, m, xmin float64) (float64, float64, error) {
	lq := safelog.Log(xmin)
	if !(m > lq+1e-15*math.Max(1, lq)) {
		return 0, 0, errInfinite(n)
	}
	// g(α) = −∂ln ζ/∂α − m decreases from +∞ at α → 1 to ln xmin − m < 0.
	g := func(a float64) float64 { return -dlogZeta(a, xmin) - m }
	lo, hi := 1.0, 2.0
	for g(hi) > 0 {
		lo = hi
		hi *= 2
		if hi > MaxAlpha {
			if g(MaxAlpha) > 0 {
				return 0, 0, fmt.Errorf("%w: the discrete MLE exponent exceeds %d (%d values, nearly all equal to x_min = %v)", ErrInvalid, MaxAlpha, n, xmin)
			}
			hi = MaxAlpha
			break
		}
	}
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if g(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	a := lo + (hi-lo)/2
	h := 1e-4 * math.Min(1, a-1)
	v := (dlogZeta(a+h, xmin) - dlogZeta(a-h, xmin)) / (2 * h)
	se := math.NaN()
	if v > 0 {
		se = 1 / math.Sqrt(float64(n)*v)
	}
	return a, se, nil
}

// LogLikelihood returns the log-likelihood of data x ≥ xmin under the
// continuous law (thesis §5.1.2: Σ ln((α−1)/x_min) − α ln(x_i/x_min)) or,
// when discrete, under x^{−α}/ζ(α, x_min): −n ln ζ(α, x_min) − αΣ ln x_i.
// ln((α−1)/x_min) is ln(α−1) − ln x_min where the ratio overflows (x_min
// near the smallest float64), so the result is finite whenever the true
// one is. Errors as for MLE, and for α ≤ 1 or a result that is not a
// finite number. Cost O(n).
func LogLikelihood(x []float64, alpha, xmin float64, discrete bool) (float64, error) {
	if err := checkLaw(alpha, xmin); err != nil {
		return 0, err
	}
	if err := checkTail(x, xmin, discrete); err != nil {
		return 0, err
	}
	s := 0.0
	for _, v := range x {
		s += safelog.Log(v)
	}
	n := float64(len(x))
	if discrete {
		return checkFinite("log-likelihood", -n*logZeta(alpha, xmin)-alpha*s, alpha, xmin)
	}
	lx := safelog.Log(xmin)
	// ln((α−1)/x_min), as ln(α−1) − ln x_min where the ratio is not a
	// normal float64 (it overflows for x_min near the smallest float64).
	norm := (alpha - 1) / xmin
	if isNormal(norm) {
		norm = safelog.Log(norm)
	} else {
		norm = safelog.Log(alpha-1) - lx
	}
	return checkFinite("log-likelihood", n*norm-alpha*(s-n*lx), alpha, xmin)
}

// checkFinite returns v, or an error wrapping ErrInvalid naming what v
// is when it is NaN or infinite: no such number leaves the package with a
// nil error.
func checkFinite(what string, v, alpha, xmin float64) (float64, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%w: the %s at α = %v, x_min = %v is %v, not a finite number", ErrInvalid, what, alpha, xmin, v)
	}
	return v, nil
}
