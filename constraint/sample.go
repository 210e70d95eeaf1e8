package constraint

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// DefaultSeed seeds the generator used when a generator of this package is
// given a nil rand.Source: rand.NewPCG(DefaultSeed, DefaultSeed). A nil
// source therefore gives the same output on every call.
const DefaultSeed = 1

func newRand(src rand.Source) *rand.Rand {
	if src == nil {
		src = rand.NewPCG(DefaultSeed, DefaultSeed)
	}
	return rand.New(src)
}

// maxPairNodes bounds n so that n(n−1)/2 and the float64 arithmetic of PairAt
// stay exact in int64: 2³¹ where int has 64 bits; where it has 32 every
// length fits and the bound is math.MaxInt, so that it is an int on both.
const maxPairNodes = min(1<<31, math.MaxInt)

// maxIndexNodes is the number of nodes whose pairs PairIndex numbers and
// PairAt recovers: the largest m with m(m−1) < 2⁶³, so that the products
// of both stay in int64, and at most math.MaxInt, so that PairAt's nodes
// are ints (with 32-bit ints every index of a slice, which is below
// math.MaxInt, is a node). maxPairIndex is its number of pairs, m(m−1)/2,
// one more than the largest index they accept.
const (
	maxIndexNodes = min(3037000500, math.MaxInt)
	maxPairIndex  = maxIndexNodes * (maxIndexNodes - 1) / 2
)

// NumPairs returns n(n−1)/2, the number of unordered pairs of distinct nodes
// among n. It panics if n < 0 or n > 2³¹.
func NumPairs(n int) int64 {
	if n < 0 || n > maxPairNodes {
		panic(fmt.Sprintf("constraint: NumPairs: n = %d outside [0, 2^31]", n))
	}
	return int64(n) * int64(n-1) / 2
}

// PairIndex returns the linear index of the unordered pair {i, j} (i ≠ j,
// both ≥ 0) in the order (0,1), (0,2), (1,2), (0,3), (1,3), (2,3), …: with
// a = min(i,j) and b = max(i,j) the index is b(b−1)/2 + a. The index does
// not depend on n, and the pairs of nodes 0…n−1 are exactly the indices
// 0…NumPairs(n)−1. It panics if i = j, or either is negative or at least
// maxIndexNodes (about 3·10⁹: larger nodes overflowed int64 into negative
// indices).
func PairIndex(i, j int) int64 {
	if i == j || i < 0 || j < 0 || i >= maxIndexNodes || j >= maxIndexNodes {
		panic(fmt.Sprintf("constraint: PairIndex(%d, %d): need distinct nodes in [0, %d)", i, j, maxIndexNodes))
	}
	if i > j {
		i, j = j, i
	}
	return int64(j)*int64(j-1)/2 + int64(i)
}

// PairAt is the inverse of PairIndex: it returns the pair i < j with
// PairIndex(i, j) = t, in O(1) (one square root and at most a few
// corrections). It panics if t < 0 or t ≥ maxPairIndex, the number of
// pairs of maxIndexNodes nodes, which PairIndex gives (beyond it the
// corrections overflowed int64 and never ended).
func PairAt(t int64) (i, j int) {
	if t < 0 || t >= maxPairIndex {
		panic(fmt.Sprintf("constraint: PairAt(%d): index outside [0, %d)", t, int64(maxPairIndex)))
	}
	// b is the largest integer with b(b−1)/2 ≤ t, b ≈ (1 + √(1+8t))/2.
	b := int64((1 + math.Sqrt(1+8*float64(t))) / 2)
	for b*(b-1)/2 > t {
		b--
	}
	for (b+1)*b/2 <= t {
		b++
	}
	return int(t - b*(b-1)/2), int(b)
}

// pollEvery is the number of draws (or pairs written) between two checks
// of the context by the samplers: a check costs tens of nanoseconds, a
// draw a few, so polling costs under 1% and a cancelled sampler stops
// within microseconds.
const pollEvery = 4096

// stopped returns ctx's error wrapped with what was stopped, or nil while
// ctx is live.
func stopped(ctx context.Context, what string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("constraint: %s stopped: %w", what, err)
	}
	return nil
}

// bernoulliIndices calls yield, in increasing order, on each index of
// 0…total−1 kept independently with probability p. It jumps from one kept
// index to the next with a geometric draw (the number of failures before a
// success is ⌊ln U / ln(1−p)⌋ for U uniform on (0,1]), so the cost is
// O(1 + p·total), not O(total). It checks ctx every pollEvery indices kept
// and returns its error, wrapped with what, once ctx is cancelled.
func bernoulliIndices(ctx context.Context, what string, total int64, p float64, rng *rand.Rand, yield func(t int64)) error {
	switch {
	case total <= 0 || !(p > 0):
		return nil
	case p >= 1:
		for t := int64(0); t < total; t++ {
			if t%pollEvery == 0 {
				if err := stopped(ctx, what); err != nil {
					return err
				}
			}
			yield(t)
		}
		return nil
	}
	lq := math.Log1p(-p)
	t := int64(-1)
	for k := 0; ; k++ {
		if k%pollEvery == 0 {
			if err := stopped(ctx, what); err != nil {
				return err
			}
		}
		u := 1 - rng.Float64() // (0, 1]
		skip := math.Floor(math.Log(u) / lq)
		if !(skip < float64(total-1-t)) {
			return nil
		}
		t += 1 + int64(skip)
		yield(t)
	}
}

// expectedCap is a capacity for a slice of Binomial(total, p) elements:
// the mean plus five standard deviations, at most total.
func expectedCap(total int64, p float64) int {
	if !(p > 0) || total <= 0 {
		return 0
	}
	p = min(p, 1)
	mean := float64(total) * p
	c := mean + 5*math.Sqrt(mean*(1-p)) + 8
	if c > float64(total) {
		c = float64(total)
	}
	if c > 1<<30 {
		c = 1 << 30
	}
	return int(c)
}

// sampleIndices returns m distinct indices drawn uniformly from 0…total−1,
// in increasing order. When m is at least total/8 it uses selection
// sampling (Knuth's Algorithm S), which visits every index but then
// total ≤ 8m. Otherwise it draws uniform indices in rounds, each round
// exactly as many as are still missing, and keeps the new distinct ones
// (sort and merge): this is sequential rejection of repeats done in
// batches, so every m-subset is equally likely, and with m < total/8 the
// expected share of repeats per round is below 1/16. Either way the cost is
// O(m log m) time and O(m) memory, and no hash set is needed. It checks
// ctx every pollEvery indices visited or drawn and returns its error,
// wrapped with what, once ctx is cancelled.
func sampleIndices(ctx context.Context, what string, total, m int64, rng *rand.Rand) ([]int64, error) {
	if m <= 0 || total <= 0 {
		return nil, nil
	}
	if m > total {
		panic(fmt.Sprintf("constraint: sampleIndices: %d of %d", m, total))
	}
	if m >= total/8 {
		out := make([]int64, 0, m)
		need := m
		for t := int64(0); t < total && need > 0; t++ {
			if t%pollEvery == 0 {
				if err := stopped(ctx, what); err != nil {
					return nil, err
				}
			}
			// Keep t with probability need/(total−t).
			if rng.Int64N(total-t) < need {
				out = append(out, t)
				need--
			}
		}
		return out, nil
	}
	var out, batch []int64
	for int64(len(out)) < m {
		batch = batch[:0]
		for k := range m - int64(len(out)) {
			if k%pollEvery == 0 {
				if err := stopped(ctx, what); err != nil {
					return nil, err
				}
			}
			batch = append(batch, rng.Int64N(total))
		}
		slices.Sort(batch)
		batch = slices.Compact(batch)
		out = mergeNew(out, batch)
	}
	return out, nil
}

// mergeNew merges the sorted distinct slices a and b into a new sorted
// slice, dropping the elements of b already in a.
func mergeNew(a, b []int64) []int64 {
	out := make([]int64, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// roundCount returns round(f·total) for f in [0, 1], checking f.
func roundCount(what string, f float64, total int64) (int64, error) {
	if !(f >= 0 && f <= 1) {
		return 0, fmt.Errorf("%w: %s fraction %v outside [0, 1]", ErrInvalid, what, f)
	}
	m := int64(math.Round(f * float64(total)))
	return min(max(m, 0), total), nil
}

// checkTruth verifies a reference partition: every label ≥ 0 and n within
// the limits of pair indexing.
func checkTruth(truth []int) error {
	if len(truth) > maxPairNodes {
		return fmt.Errorf("%w: %d nodes, at most %d supported", ErrInvalid, len(truth), maxPairNodes)
	}
	for i, c := range truth {
		if c < 0 {
			return fmt.Errorf("%w: reference label of node %d is %d, want ≥ 0", ErrInvalid, i, c)
		}
	}
	return nil
}

// oracle returns the pair {i, j} (i < j) with the kind the reference
// partition truth gives it: must-link if same class, else cannot-link.
func oracle(truth []int, i, j int) Pair {
	k := CannotLink
	if truth[i] == truth[j] {
		k = MustLink
	}
	return Pair{I: i, J: j, Kind: k}
}

// BernoulliPairs draws the pairwise constraints of the FGPWC protocol (seed
// 003 §5.1; seed 000 §4.5.1, where p = 1/n): every unordered pair of distinct
// nodes enters the set independently with probability p, as a must-link if
// truth gives both nodes the same class and a cannot-link otherwise.
//
// The pairs come in increasing PairIndex order (by J, then I), each with
// I < J and Weight 0. The expected number of pairs is p·n(n−1)/2 and the
// expected must-link share is Σ_c C(n_c,2) / C(n,2). Cost: O(n + number of
// pairs drawn) time and memory, never O(n²): consecutive kept pairs are found
// by geometric skips over the linear pair index (see PairAt). A nil src uses
// DefaultSeed. The error wraps ErrInvalid when p is outside [0, 1] or a label
// of truth is negative. BernoulliPairs is BernoulliPairsContext with
// context.Background().
func BernoulliPairs(truth []int, p float64, src rand.Source) (*Set, error) {
	return BernoulliPairsContext(context.Background(), truth, p, src)
}

// BernoulliPairsContext is BernoulliPairs checking ctx before it starts and
// every 4096 pairs drawn: once ctx is cancelled it returns an error
// wrapping ctx.Err() (errors.Is(err, context.Canceled)) and no set. For the
// same src it draws the same pairs as BernoulliPairs.
func BernoulliPairsContext(ctx context.Context, truth []int, p float64, src rand.Source) (*Set, error) {
	if !(p >= 0 && p <= 1) {
		return nil, fmt.Errorf("%w: pair probability %v outside [0, 1]", ErrInvalid, p)
	}
	if err := checkTruth(truth); err != nil {
		return nil, err
	}
	if err := stopped(ctx, "drawing pairs"); err != nil {
		return nil, err
	}
	n := len(truth)
	total := NumPairs(n)
	rng := newRand(src)
	s := &Set{N: n, Pairs: make([]Pair, 0, expectedCap(total, p))}
	err := bernoulliIndices(ctx, "drawing pairs", total, p, rng, func(t int64) {
		i, j := PairAt(t)
		s.Pairs = append(s.Pairs, oracle(truth, i, j))
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// UniformPairs draws m distinct unordered pairs uniformly without
// replacement among the n(n−1)/2 pairs of distinct nodes and labels them
// with the oracle truth (must-link if same class, cannot-link otherwise):
// the "fraction of all pairs" protocols of seed 000 Table 4.2 (1%) and seed
// 002 §6 (0–20%). Pairs come in increasing PairIndex order with I < J.
// Cost: O(n + m log m) time and O(m) memory. A nil src uses DefaultSeed.
// The error wraps ErrInvalid when m is negative or exceeds the number of
// pairs, or a label of truth is negative. UniformPairs is
// UniformPairsContext with context.Background().
func UniformPairs(truth []int, m int, src rand.Source) (*Set, error) {
	return UniformPairsContext(context.Background(), truth, m, src)
}

// UniformPairsContext is UniformPairs checking ctx before it starts and
// every 4096 pairs drawn or labelled: once ctx is cancelled it returns an
// error wrapping ctx.Err() and no set. For the same src it draws the same
// pairs as UniformPairs.
func UniformPairsContext(ctx context.Context, truth []int, m int, src rand.Source) (*Set, error) {
	if err := checkTruth(truth); err != nil {
		return nil, err
	}
	n := len(truth)
	total := NumPairs(n)
	if m < 0 || int64(m) > total {
		return nil, fmt.Errorf("%w: %d pairs requested, %d nodes have %d", ErrInvalid, m, n, total)
	}
	if err := stopped(ctx, "drawing pairs"); err != nil {
		return nil, err
	}
	idx, err := sampleIndices(ctx, "drawing pairs", total, int64(m), newRand(src))
	if err != nil {
		return nil, err
	}
	s := &Set{N: n, Pairs: make([]Pair, len(idx))}
	for k, t := range idx {
		if k%pollEvery == 0 {
			if err := stopped(ctx, "drawing pairs"); err != nil {
				return nil, err
			}
		}
		i, j := PairAt(t)
		s.Pairs[k] = oracle(truth, i, j)
	}
	return s, nil
}

// FractionPairs is UniformPairs with m = round(f·n(n−1)/2), f in [0, 1].
func FractionPairs(truth []int, f float64, src rand.Source) (*Set, error) {
	return FractionPairsContext(context.Background(), truth, f, src)
}

// FractionPairsContext is UniformPairsContext with m = round(f·n(n−1)/2),
// f in [0, 1].
func FractionPairsContext(ctx context.Context, truth []int, f float64, src rand.Source) (*Set, error) {
	m, err := roundCount("pair", f, NumPairs(min(len(truth), maxPairNodes)))
	if err != nil {
		return nil, err
	}
	return UniformPairsContext(ctx, truth, int(m), src)
}
