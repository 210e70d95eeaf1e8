package cluster

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// errQCQPInfeasible reports a quadratic constraint that no point satisfies.
var errQCQPInfeasible = errors.New("cluster: infeasible quadratic constraint")

// nearestQuadratic solves exactly the QCQP with one quadratic constraint,
// in general non-convex, of thesis §5.3.3 (eq. 5.3.5) with the objective
// of the updates 5.3.1–5.3.3:
//
//	min ‖u − u₀‖²  s.t.  g(u) = uᵀAu + 2bᵀu + c ≤ 0,
//
// A symmetric and possibly indefinite. Strong duality holds for one
// quadratic constraint when some point is strictly feasible (the S-lemma;
// Boyd & Vandenberghe, appendix B), so the problem is solved through its
// dual: with λ ≥ 0 and I + λA ⪰ 0, the Lagrangian ‖u − u₀‖² + λg(u) is
// minimized by u(λ) = (I + λA)⁻¹(u₀ − λb), and the dual derivative is
// g(u(λ)), decreasing in λ. If g(u₀) ≤ 0, u₀ is the answer (λ = 0).
// Otherwise λ* is the root of g(u(λ)) = 0 on (0, λ_max), λ_max =
// −1/λ_min(A) (∞ when A ⪰ 0), found by bisection in the eigenbasis of A
// (A = VΛVᵀ, where u(λ) has the coordinates (y₀ − λβ)/(1 + λΛ)). In the
// "hard case", where g(u(λ)) stays positive up to λ_max because u₀ − λ_max b
// has no component along the eigenvectors of λ_min(A), the answer is
// u(λ_max) plus the multiple of such an eigenvector that reaches g = 0.
//
// The tests for zero are relative: eigenvalues to 10⁻¹⁴·‖A‖ (rounding of
// the eigendecomposition), the components of b and of u₀ − λ_max·b in the
// eigenbasis to 10⁻¹² of their largest, so the answer does not depend on
// the scale of A, b, c or u₀; λ stays below λ_max whenever λ_min(A) < 0,
// even at rounding level.
//
// It returns the minimizer and λ*, which certifies optimality: u is
// feasible, I + λ*A ⪰ 0 and (I + λ*A)u = u₀ − λ*b with λ*g(u) = 0. The
// error wraps errQCQPInfeasible when A ⪰ 0 and min g > 0 (no feasible
// point; an indefinite A always has one). Cost O(m³) for the eigendecomposition of the m×m A,
// then O(m) per bisection step (at most 200).
func nearestQuadratic(u0 []float64, a *mat.SymDense, b []float64, c float64) (u []float64, lambda float64, err error) {
	m := len(u0)
	if r := a.SymmetricDim(); r != m || len(b) != m {
		panic(fmt.Sprintf("cluster: nearestQuadratic: A is %d×%d, u₀ has %d entries, b %d", r, r, m, len(b)))
	}
	g := func(x []float64) float64 {
		ax := mat.NewVecDense(m, nil)
		ax.MulVec(a, mat.NewVecDense(m, x))
		s := c
		for i := range x {
			s += x[i]*ax.AtVec(i) + 2*b[i]*x[i]
		}
		return s
	}
	if g(u0) <= 0 {
		return append([]float64(nil), u0...), 0, nil
	}
	var es mat.EigenSym
	if !es.Factorize(a, true) {
		return nil, 0, fmt.Errorf("%w: QCQP: eigendecomposition failed", ErrNumerical)
	}
	ev := es.Values(nil) // ascending
	var v mat.Dense
	es.VectorsTo(&v)
	y0 := make([]float64, m)
	beta := make([]float64, m)
	for i := 0; i < m; i++ {
		for r := 0; r < m; r++ {
			y0[i] += v.At(r, i) * u0[r]
			beta[i] += v.At(r, i) * b[r]
		}
	}
	scale := 0.0
	for _, l := range ev {
		scale = max(scale, math.Abs(l))
	}
	// Eigenvalues within rounding of the eigendecomposition (about
	// m·ε·‖A‖) are zero; relative, so that a small A (‖A‖ = 10⁻²⁰) keeps
	// its negative eigenvalues (an absolute floor of 10⁻¹² read λ_min =
	// −10⁻²⁰ as 0, review 136).
	tol := 1e-14 * scale
	// phi(λ) = g(u(λ)) in eigen-coordinates.
	y := make([]float64, m)
	phi := func(l float64) float64 {
		s := c
		for i := range y {
			y[i] = (y0[i] - l*beta[i]) / (1 + l*ev[i])
			s += ev[i]*y[i]*y[i] + 2*beta[i]*y[i]
		}
		return s
	}
	// λ_max = −1/λ_min(A) whenever λ_min(A) < 0, even at rounding level:
	// beyond it I + λA is indefinite and a root of φ is feasible but not
	// optimal (review 136: λ = 76, 1 + λλ_min = −98, ‖u − u₀‖² = 98.0
	// for the optimum 49.0).
	lmax := math.Inf(1)
	if ev[0] < 0 {
		lmax = -1 / ev[0]
	}
	hi := lmax
	lo := 0.0
	if ev[0] >= -tol {
		// A ⪰ 0 to rounding: g is bounded below by c − Σ β_i²/Λ_i unless
		// some β_i lies in the null space of A.
		// (β's entries relative to the largest: rounding of Vᵀb.)
		bmax := 0.0
		for _, x := range beta {
			bmax = max(bmax, math.Abs(x))
		}
		ming, bounded := c, true
		for i := range ev {
			switch {
			case ev[i] > tol:
				ming -= beta[i] * beta[i] / ev[i]
			case math.Abs(beta[i]) > 1e-12*bmax:
				bounded = false
			}
		}
		if bounded && ming > 0 {
			return nil, 0, fmt.Errorf("%w: min g = %v > 0", errQCQPInfeasible, ming)
		}
		// Doubling, capped at the pole λ_max when λ_min(A) < 0 (the
		// bisection then runs on (the last λ with φ > 0, λ_max)).
		hi = 1
		for phi(hi) > 0 {
			if 2*hi >= lmax {
				lo, hi = hi, lmax
				break
			}
			hi *= 2
			if hi > 1e300 {
				return nil, 0, fmt.Errorf("%w: min g > 0", errQCQPInfeasible)
			}
		}
	}
	if hi == lmax {
		// Hard case: the numerators of the eigenvalues equal to λ_min
		// vanish at λ_max, so φ stays finite there.
		hard := true
		ynorm := 0.0
		for i := range y0 {
			ynorm = max(ynorm, math.Abs(y0[i]), math.Abs(lmax*beta[i]))
		}
		// The eigenvalues equal to λ_min (to rounding; negative, also
		// when λ_min is at rounding level).
		atMin := func(i int) bool { return ev[i] < 0 && ev[i]-ev[0] <= tol }
		for i := range ev {
			if atMin(i) && math.Abs(y0[i]-lmax*beta[i]) > 1e-12*ynorm {
				hard = false
			}
		}
		if hard {
			// The limit of φ at λ_max: the coordinates along λ_min tend
			// to −β_i/Λ_i (= y0_i), the others are finite.
			s := c
			yh := make([]float64, m)
			for i := range yh {
				if atMin(i) {
					yh[i] = -beta[i] / ev[i]
				} else {
					yh[i] = (y0[i] - lmax*beta[i]) / (1 + lmax*ev[i])
				}
				s += ev[i]*yh[i]*yh[i] + 2*beta[i]*yh[i]
			}
			if s > 0 {
				// g along the first eigenvector of λ_min is s + Λ_min t².
				yh[0] += math.Sqrt(s / -ev[0])
				return fromEigen(&v, yh), lmax, nil
			}
		}
	}
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if f := phi(mid); f > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	// hi has φ ≤ 0: a feasible point (strictly inside the domain, where
	// 1 + λΛ_min > 0 also in rounded arithmetic).
	if hi >= lmax {
		hi = math.Nextafter(lmax, 0)
	}
	for ev[0] < 0 && !(1+hi*ev[0] > 0) && hi > 0 {
		hi = math.Nextafter(hi, 0)
	}
	if ev[0] < 0 && !(1+hi*ev[0] >= 0) {
		return nil, 0, fmt.Errorf("%w: QCQP: multiplier λ = %v beyond −1/λ_min(A) = %v", ErrNumerical, hi, lmax)
	}
	phi(hi)
	return fromEigen(&v, y), hi, nil
}

// fromEigen returns V·y.
func fromEigen(v *mat.Dense, y []float64) []float64 {
	m := len(y)
	u := make([]float64, m)
	for r := 0; r < m; r++ {
		for i := 0; i < m; i++ {
			u[r] += v.At(r, i) * y[i]
		}
	}
	return u
}
