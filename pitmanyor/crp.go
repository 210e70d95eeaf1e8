package pitmanyor

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/tether-sc/tether/internal/safelog"
)

// ErrInvalid is wrapped by the errors for parameters outside θ ∈ [0, 1),
// α > −θ, and for invalid sizes.
var ErrInvalid = errors.New("pitmanyor: invalid input")

// MaxN bounds the n of Sample (2²⁸ labels), so that an absurd size is
// refused before anything is allocated.
const MaxN = 1 << 28

// CRP is the Pitman–Yor Chinese restaurant process CRP(α, θ) of thesis
// §5.1.3 (see the package documentation for the seating rule).
type CRP struct {
	// Alpha is the concentration α > −Theta.
	Alpha float64
	// Theta is the discount θ ∈ [0, 1).
	Theta float64
}

// Validate returns an error wrapping ErrInvalid unless θ ∈ [0, 1) and
// α > −θ, both finite.
func (c CRP) Validate() error {
	if !(c.Theta >= 0 && c.Theta < 1) {
		return fmt.Errorf("%w: θ = %v, want 0 ≤ θ < 1", ErrInvalid, c.Theta)
	}
	if !(c.Alpha > -c.Theta) || math.IsInf(c.Alpha, 1) {
		return fmt.Errorf("%w: α = %v, want a finite α > −θ = %v", ErrInvalid, c.Alpha, 0-c.Theta) // 0 − θ: never "-0"
	}
	return nil
}

// Sample seats n customers and returns their tables: labels[i] is the
// table of customer i, tables numbered 0, 1, … in order of opening (so
// labels[0] = 0 and a new table always gets the next number). The same src
// state gives the same partition.
//
// Method: customer m+1 opens a table with probability (α + kθ)/(α + m);
// otherwise an earlier customer is picked uniformly (table c with
// probability n_c/m) and accepted with probability (n_c − θ)/n_c, else picked
// again: rejection sampling, exact, whose acceptance rate (m − kθ)/m is at
// least 1 − θ. Cost O(n/(1−θ)) expected time, O(n) memory.
//
// Errors wrap ErrInvalid: invalid parameters, n < 0 or n > MaxN, a nil
// src.
func (c CRP) Sample(n int, src rand.Source) ([]int, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if n < 0 || n > MaxN {
		return nil, fmt.Errorf("%w: n = %d, want 0…%d (MaxN)", ErrInvalid, n, MaxN)
	}
	if src == nil {
		return nil, fmt.Errorf("%w: nil random source", ErrInvalid)
	}
	labels := make([]int, n)
	if n == 0 {
		return labels, nil
	}
	r := rand.New(src)
	sizes := []int{1}
	for m := 1; m < n; m++ {
		k := len(sizes)
		if r.Float64()*(c.Alpha+float64(m)) < c.Alpha+float64(k)*c.Theta {
			labels[m] = k
			sizes = append(sizes, 1)
			continue
		}
		for {
			t := labels[r.IntN(m)]
			nc := float64(sizes[t])
			if c.Theta == 0 || r.Float64()*nc < nc-c.Theta {
				labels[m] = t
				sizes[t]++
				break
			}
		}
	}
	return labels, nil
}

// Sizes returns the cluster sizes of a partition given as labels (any
// integers; only equality matters), in order of first appearance.
// Cost O(n) with a map.
func Sizes(labels []int) []int {
	index := map[int]int{}
	var sizes []int
	for _, l := range labels {
		j, ok := index[l]
		if !ok {
			j = len(sizes)
			index[l] = j
			sizes = append(sizes, 0)
		}
		sizes[j]++
	}
	return sizes
}

// LogProb returns log p(Z | α, θ) of the partition Z given as labels, as
// printed in thesis §5.2.1 (Pitman 2006, Thm. 3.2):
//
//	log p(Z|α,θ) = Σ_{i=1}^{k−1} ln(α + iθ) − Σ_{i=1}^{n−1} ln(α + i) + Σ_c Σ_{i=1}^{n_c−1} ln(i − θ),
//
// the probability that CRP(α, θ) seats n customers in this partition (in
// any order: the law is exchangeable). It is evaluated in closed form with
// rising factorials [x]_m = Γ(x+m)/Γ(x) through math.Lgamma:
// (k−1) ln θ + ln [α/θ + 1]_{k−1} (or (k−1) ln α when θ = 0)
// − ln [α + 1]_{n−1} + Σ_c ln [1 − θ]_{n_c−1}. The empty partition has log
// probability 0. Errors wrap ErrInvalid for invalid parameters. Cost O(n)
// to count the sizes plus LogProbSizes's.
func (c CRP) LogProb(labels []int) (float64, error) {
	return c.LogProbSizes(Sizes(labels))
}

// LogProbSizes is LogProb for a partition given by its cluster sizes
// (n = Σ sizes). Errors wrap ErrInvalid for invalid parameters or a size
// < 1. Cost O(k) Lgamma calls, except that a rising factorial ln [x]_m
// with x > 10⁷ sums its m logarithms (lnRising): O(n) when α > 10⁷, plus
// O(k) when α/θ > 10⁷ (one cluster of 2·10⁸ nodes: 1.9 s at α = 2·10⁷).
// Where α/θ exceeds 10³⁰⁰ (it may overflow) or θ is subnormal, the first
// sum is Σ_{i=1}^{k−1} ln(α + iθ) as printed, O(k).
func (c CRP) LogProbSizes(sizes []int) (float64, error) {
	if err := c.Validate(); err != nil {
		return 0, err
	}
	n := 0
	for i, s := range sizes {
		if s < 1 {
			return 0, fmt.Errorf("%w: size[%d] = %d, want ≥ 1", ErrInvalid, i, s)
		}
		n += s
	}
	k := len(sizes)
	if k == 0 {
		return 0, nil
	}
	lp := 0.0
	if k > 1 {
		switch {
		case c.Theta == 0:
			lp += float64(k-1) * safelog.Log(c.Alpha)
		case c.Alpha/c.Theta > 1e300 || c.Theta < 0x1p-1022:
			// α/θ overflows (or nearly), or θ is subnormal: the
			// logarithms Σ_{i=1}^{k−1} ln(α + iθ) themselves.
			for i := 1; i < k; i++ {
				lp += safelog.Log(c.Alpha + float64(i)*c.Theta)
			}
		default:
			lp += float64(k-1)*math.Log(c.Theta) + lnRising(c.Alpha/c.Theta+1, k-1)
		}
	}
	lp -= lnRising(c.Alpha+1, n-1)
	for _, s := range sizes {
		lp += lnRising(1-c.Theta, s-1)
	}
	return lp, nil
}

// lnRising returns ln [x]_m = ln x(x+1)…(x+m−1) for x > 0, m ≥ 0: as
// ln Γ(x+m) − ln Γ(x), except for short products and for x > 10⁷, where
// that difference would lose digits to cancellation and the logarithms are
// summed.
func lnRising(x float64, m int) float64 {
	if m <= 32 || x > 1e7 {
		s := 0.0
		for i := range m {
			s += math.Log(x + float64(i))
		}
		return s
	}
	a, _ := math.Lgamma(x + float64(m))
	b, _ := math.Lgamma(x)
	return a - b
}

// ExpectedClusters returns E[K_n], the expected number of tables after n
// customers. For θ > 0 it is the closed form
//
//	E[K_n] = (α+θ)/θ · Γ(α+θ+n)Γ(α+1) / (Γ(α+θ+1)Γ(α+n)) − α/θ
//	       = α/θ · (Γ(α+θ+n)Γ(α) / (Γ(α+θ)Γ(α+n)) − 1)   (α ≠ 0),
//
// derived from the recursion E[K_{n+1}] = E[K_n] + (α + θE[K_n])/(α + n),
// E[K_1] = 1: F_n = E[K_n] + α/θ satisfies F_{n+1} = F_n(α+θ+n)/(α+n),
// F_1 = (α+θ)/θ. It grows as Γ(α+1)/(θΓ(α+θ))·n^θ (for n ≫ α). For
// θ = 0 it is Σ_{i=0}^{n−1} α/(α+i) = α(ψ(α+n) − ψ(α)) ≈ α ln(1 + n/α), the
// sum for n ≤ 2²⁰ and the digamma form above (digammaDiff). For
// 0 < θ < 10⁻⁶ and n ≤ 2²⁰ the recursion is run. Otherwise it is taken as
// E[K_n] = 1 + (α+θ)·q·(e^{θq} − 1)/(θq), with θq = ln R the logarithm of
// the ratio of rising factorials R = [α+θ+1]_{n−1}/[α+1]_{n−1}, summed
// (risingRatioOverTheta) as its terms ln(1 + θ/(α+1+i))/θ up to
// α+1+i = 10⁴ and by a series in the sums of powers of 1/(α+1+i) beyond
// (no difference of Lgamma values of about (α+n)·ln(α+n), which lost
// 6·10⁻⁴ of the value at α = 0.5, θ = 10⁻⁶, n = 10⁷, review 109, and
// 1.3·10⁻⁹ at α = 9998.9, review 125; no O(n) sum, 10.8 s at α ≥ 10⁴,
// n = 2·10⁹). For α > 10²⁵⁰, where (α+θ)/θ overflows, it is n (within
// n²/α). n = 0 gives 0. Errors wrap ErrInvalid: invalid parameters, n < 0.
// Relative error about 10⁻¹³. Cost O(min(n, 10⁴)), and O(n) for θ < 10⁻⁶
// or θ = 0 with n ≤ 2²⁰.
func (c CRP) ExpectedClusters(n int) (float64, error) {
	if err := c.Validate(); err != nil {
		return 0, err
	}
	if n < 0 {
		return 0, fmt.Errorf("%w: n = %d, want ≥ 0", ErrInvalid, n)
	}
	if n == 0 {
		return 0, nil
	}
	a, t := c.Alpha, c.Theta
	if a > 1e250 {
		// E[K_n] = n − Σ_{i<n} (i − θ·E[K_i])/(α+i), within n²/α of n:
		// below 10⁻²¹² of it for any int n, so n itself. (α+θ)/θ·(R − 1)
		// overflowed to +Inf, or NaN at n = 1 (review 134).
		return float64(n), nil
	}
	if t == 0 && n > dpClosedFormN {
		// Σ_{i<n} α/(α+i) = α(ψ(α+n) − ψ(α)) = 1 + α(ψ(α+1+(n−1)) − ψ(α+1)).
		return 1 + a*digammaDiff(a+1, n-1), nil
	}
	if t < 1e-6 && n <= dpClosedFormN {
		e := 1.0
		for m := 1; m < n; m++ {
			e += (a + t*e) / (a + float64(m))
		}
		return e, nil
	}
	// E[K_n] = (α+θ)/θ·(R − 1) + 1 = 1 + (α+θ)·q·expm1(θq)/(θq), with
	// θq = ln R: no division by θ, which may be tiny, and no cancellation
	// in R − 1.
	q := risingRatioOverTheta(a+1, t, n-1)
	return 1 + (a+t)*q*expm1Over(t*q), nil
}

// risingRatioOverTheta returns Σ_{i<m} ln(1 + θ/(x+i)) / θ, the logarithm
// of the ratio of rising factorials [x+θ]_m/[x]_m divided by θ, for x > 0,
// 0 < θ < 1, m ≥ 0. The terms with x+i < 10⁴ are summed, each as
// log1p(θu)/θ with u = 1/(x+i) (or its series u(1 − θu/2 + (θu)²/3 −
// (θu)³/4) when θu < 10⁻⁵, so that a tiny θ loses no digits); the rest,
// from y = x+i₀ ≥ 10⁴ on, is Σ_{j=1}^{5} (−θ)^{j−1}/j · H_j with
// H_j = Σ_{i<m−i₀} (y+i)^{−j}: H_1 = ψ(y+m−i₀) − ψ(y) (digammaDiff) and
// H_j for j ≥ 2 by Euler–Maclaurin (powerSum). As θ/y ≤ 10⁻⁴, the
// series' first omitted term is below 2·10⁻¹⁷ of the sum. Cost O(1) when
// x ≥ 10⁴, at most 10⁴ logarithms otherwise.
func risingRatioOverTheta(x, t float64, m int) float64 {
	const tailFrom = 1e4
	s := 0.0
	i := 0
	for ; i < m && x+float64(i) < tailFrom; i++ {
		u := 1 / (x + float64(i))
		if z := t * u; z < 1e-5 {
			s += u * (1 - z*(0.5-z*(1.0/3-z/4)))
		} else {
			s += math.Log1p(z) / t
		}
	}
	if i == m {
		return s
	}
	y, rest := x+float64(i), m-i
	tail := digammaDiff(y, rest)
	p := 1.0 // (−θ)^{j−1}
	for j := 2; j <= 5; j++ {
		p *= -t
		tail += p / float64(j) * powerSum(y, rest, j)
	}
	return s + tail
}

// powerSum returns Σ_{i<m} (y+i)^{−j} for y ≥ 10⁴, m ≥ 1, j ≥ 2, by
// Euler–Maclaurin with b = y+m: (y^{1−j} − b^{1−j})/(j−1) + (y^{−j} −
// b^{−j})/2 + j/12·(y^{−j−1} − b^{−j−1}) − j(j+1)(j+2)/720·(y^{−j−3} −
// b^{−j−3}), the first difference as −expm1((1−j)·log1p(m/y))·y^{1−j}
// (no cancellation when m ≪ y). Relative error below 10⁻¹⁶ at y ≥ 10⁴.
// Cost O(1).
func powerSum(y float64, m, j int) float64 {
	b := y + float64(m)
	fj := float64(j)
	s := -math.Expm1((1-fj)*math.Log1p(float64(m)/y)) * math.Pow(y, 1-fj) / (fj - 1)
	s += (math.Pow(y, -fj) - math.Pow(b, -fj)) / 2
	s += fj / 12 * (math.Pow(y, -fj-1) - math.Pow(b, -fj-1))
	s -= fj * (fj + 1) * (fj + 2) / 720 * (math.Pow(y, -fj-3) - math.Pow(b, -fj-3))
	return s
}

// expm1Over returns (e^z − 1)/z for z ≥ 0 (1 at z = 0), by its series
// 1 + z/2 + z²/6 + z³/24 below z = 10⁻⁵, where expm1(z)/z would lose
// digits to a subnormal z. Cost O(1).
func expm1Over(z float64) float64 {
	if z < 1e-5 {
		return 1 + z*(0.5+z*(1.0/6+z/24))
	}
	return math.Expm1(z) / z
}

// dpClosedFormN is the n above which ExpectedClusters takes the digamma
// form for θ = 0 instead of the O(n) sum (a few milliseconds at 2²⁰; n =
// 2·10⁹ took 12.7 s). Below it the results are the sum's, as before.
const dpClosedFormN = 1 << 20

// digammaDiff returns ψ(x+n) − ψ(x) = Σ_{i<n} 1/(x+i) for x > 0, n ≥ 0,
// without cancellation: while x < 10 the first term is split off
// (ψ(x+1) = ψ(x) + 1/x), then the asymptotic series
// ψ(y) ~ ln y − 1/(2y) − Σ_{k=1}^{6} B_{2k}/(2k·y^{2k}) is differenced term
// by term, ln((x+n)/x) as log1p(n/x). From x = 10 on the omitted term is
// below 10⁻¹⁵ of ψ(10) − ψ(x) for any x. Cost O(1).
func digammaDiff(x float64, n int) float64 {
	d := 0.0
	for ; x < 10 && n > 0; n-- {
		d += 1 / x
		x++
	}
	if n == 0 {
		return d
	}
	b := x + float64(n)
	d += math.Log1p(float64(n)/x) + (1/x-1/b)/2
	// B_{2k}/(2k) for k = 1…6: 1/12, −1/120, 1/252, −1/240, 1/132, −691/32760.
	coef := [...]float64{1.0 / 12, -1.0 / 120, 1.0 / 252, -1.0 / 240, 1.0 / 132, -691.0 / 32760}
	ix2, ib2 := 1/(x*x), 1/(b*b)
	px, pb := ix2, ib2
	for _, c := range coef {
		d += c * (px - pb)
		px *= ix2
		pb *= ib2
	}
	return d
}
