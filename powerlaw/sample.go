package powerlaw

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/tether-sc/tether/internal/safelog"
)

// MaxSample bounds the n of Sample (2²⁸ values, 2 GiB of float64), so that
// an absurd size is refused with an error before anything is allocated.
const MaxSample = 1 << 28

// discreteTable is the number of values x_min, x_min+1, … whose survival
// function the discrete sampler tabulates.
const discreteTable = 4096

// Sampler draws from a continuous or discrete power law. It is immutable
// after NewSampler and safe for concurrent use with separate generators.
//
// Continuous: inverse transform, x = x_min·(1−u)^{−1/(α−1)} with u uniform
// on [0, 1) (Clauset et al. 2009, eq. D.4).
//
// Discrete: exact inversion of the survival function
// S(x) = P(X ≥ x) = ζ(α, x)/ζ(α, x_min): the draw is the x with
// S(x+1) < v ≤ S(x) for v = 1−u ∈ (0, 1]. S is tabulated for the first 4096
// values (binary search); beyond, the search starts at the asymptotic
// inverse ⌊½ + ((α−1)·ζ(α, x_min)·v)^{−1/(α−1)}⌋, from
// ζ(α, x) = (x−½)^{1−α}/(α−1)·(1 + O(x⁻²)) (Clauset et al.'s eq. D.6 is the
// same with ζ(α, x_min) also approximated, which is several per cent off
// at x_min = 1), off by at most a unit or two there, and steps to the
// exact x with ζ evaluations. Cost per draw: O(1) continuous; discrete
// O(log 4096), plus a few O(max(10, α)) ζ evaluations with probability
// S(x_min+4096).
type Sampler struct {
	alpha, xmin float64
	discrete    bool
	surv        []float64 // surv[j] = S(xmin + j), j < len(surv); discrete only
	logZmin     float64   // ln ζ(α, x_min)
}

// NewSampler returns a sampler of the power law with exponent alpha > 1 and
// lower bound xmin > 0 (an integer ≥ 1 when discrete; the discrete law
// also wants alpha ≤ MaxAlpha, the fits' limit: far above it its survival
// table underflows, and α = 10³⁰⁰ drew x_min + 4095 every time). Errors
// wrap ErrInvalid. Cost O(1) continuous, O(4096 + max(10, α))
// discrete.
func NewSampler(alpha, xmin float64, discrete bool) (*Sampler, error) {
	if err := checkLaw(alpha, xmin); err != nil {
		return nil, err
	}
	if err := checkXmin(xmin, discrete); err != nil {
		return nil, err
	}
	if discrete && alpha > MaxAlpha {
		return nil, fmt.Errorf("%w: α = %v above MaxAlpha = %d for the discrete law (with such an α nearly every draw is x_min)", ErrInvalid, alpha, MaxAlpha)
	}
	s := &Sampler{alpha: alpha, xmin: xmin, discrete: discrete}
	if discrete {
		s.logZmin = logZeta(alpha, xmin)
		s.surv = make([]float64, discreteTable)
		// S(x_min + j) from the exact ζ every 64 entries, by subtraction of
		// the pmf in between (no accumulation beyond 64 steps).
		for j := range s.surv {
			x := xmin + float64(j)
			if j%64 == 0 {
				s.surv[j] = math.Exp(logZeta(alpha, x) - s.logZmin)
			} else {
				prev := x - 1
				s.surv[j] = s.surv[j-1] - math.Exp(-alpha*safelog.Log(prev)-s.logZmin)
			}
		}
	}
	return s, nil
}

// OverflowProb returns the probability that one draw exceeds the largest
// float64 M, (M/x_min)^{1−α} (for the discrete law, the same tail
// approximately): a draw beyond M is +Inf. It is not negligible only for α
// close to 1 (about e⁻¹ for α = 1 + 1/ln(M/x_min)) or x_min close to M
// (0.013 for α = 4.4, x_min = 5e307). Cost O(1).
func (s *Sampler) OverflowProb() float64 {
	return math.Exp((1 - s.alpha) * (safelog.Log(math.MaxFloat64) - safelog.Log(s.xmin)))
}

// survival returns S(x) = ζ(α, x)/ζ(α, x_min) for an integer x ≥ x_min.
func (s *Sampler) survival(x float64) float64 {
	if j := x - s.xmin; j < float64(len(s.surv)) {
		return s.surv[int(j)]
	}
	return math.Exp(logZeta(s.alpha, x) - s.logZmin)
}

// Draw returns one value drawn with r.
func (s *Sampler) Draw(r *rand.Rand) float64 {
	v := 1 - r.Float64() // (0, 1]
	if !s.discrete {
		return s.xmin * math.Exp(-safelog.Log(v)/(s.alpha-1))
	}
	surv := s.surv
	if v > surv[len(surv)-1] {
		// The largest j with surv[j] ≥ v; surv[0] = 1 ≥ v.
		lo, hi := 0, len(surv)-1 // surv[lo] ≥ v > surv[hi]
		for hi-lo > 1 {
			mid := int(uint(lo+hi) >> 1)
			if surv[mid] >= v {
				lo = mid
			} else {
				hi = mid
			}
		}
		return s.xmin + float64(lo)
	}
	// ζ(α, x) = (x−½)^{1−α}/(α−1)·(1 + O(x⁻²)): solve S(x) = v for x.
	x := math.Floor(0.5 + math.Exp(-(safelog.Log(s.alpha-1)+s.logZmin+safelog.Log(v))/(s.alpha-1)))
	lastTab := s.xmin + float64(len(surv)-1)
	if !(x > lastTab) {
		x = lastTab
	}
	if x > 1<<53 {
		return x // beyond exact integers in float64: the approximation is all there is
	}
	for x > lastTab && s.survival(x) < v {
		x--
	}
	for s.survival(x+1) >= v {
		x++
	}
	return x
}

// Fill fills dst with draws made with src (a fixed rand.NewPCG seed gives a
// fixed sample).
func (s *Sampler) Fill(dst []float64, src rand.Source) {
	r := rand.New(src)
	for i := range dst {
		dst[i] = s.Draw(r)
	}
}

// Sample returns n draws from the power law with exponent alpha and lower
// bound xmin (discrete: integers, xmin an integer ≥ 1), made with src. See
// Sampler for the methods. A draw beyond the float64 range is +Inf, with
// probability Sampler.OverflowProb: not negligible for α close to 1 (α =
// 1.0001, xmin = 1: 0.93). Errors wrap ErrInvalid: α ≤ 1, xmin ≤ 0, n < 0
// or n > MaxSample (refused before allocating), a nil src. Cost O(n) and n
// float64s.
func Sample(n int, alpha, xmin float64, discrete bool, src rand.Source) ([]float64, error) {
	if n < 0 || n > MaxSample {
		return nil, fmt.Errorf("%w: n = %d, want 0…%d (MaxSample)", ErrInvalid, n, MaxSample)
	}
	if src == nil {
		return nil, fmt.Errorf("%w: nil random source", ErrInvalid)
	}
	s, err := NewSampler(alpha, xmin, discrete)
	if err != nil {
		return nil, err
	}
	x := make([]float64, n)
	s.Fill(x, src)
	return x, nil
}
