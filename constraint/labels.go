package constraint

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"unsafe"
)

// FractionLabels reveals the reference labels of round(f·n) nodes chosen
// uniformly at random without replacement, n = len(truth), and marks the
// others Unlabeled: the protocol of seed 000 §3.4 (f = 0.1) and of seed 001
// §5 (20–80% known labels). Cost O(n). A nil src uses DefaultSeed. The error
// wraps ErrInvalid when f is outside [0, 1] or a label of truth is negative.
// FractionLabels is FractionLabelsContext with context.Background().
func FractionLabels(truth []int, f float64, src rand.Source) (Labels, error) {
	return FractionLabelsContext(context.Background(), truth, f, src)
}

// FractionLabelsContext is FractionLabels checking ctx before it starts and
// every 4096 nodes drawn: once ctx is cancelled it returns an error
// wrapping ctx.Err() and no labels. For the same src it draws the same
// nodes as FractionLabels.
func FractionLabelsContext(ctx context.Context, truth []int, f float64, src rand.Source) (Labels, error) {
	if err := checkTruth(truth); err != nil {
		return nil, err
	}
	m, err := roundCount("label", f, int64(len(truth)))
	if err != nil {
		return nil, err
	}
	if err := stopped(ctx, "drawing labels"); err != nil {
		return nil, err
	}
	idx, err := sampleIndices(ctx, "drawing labels", int64(len(truth)), m, newRand(src))
	if err != nil {
		return nil, err
	}
	out := make(Labels, len(truth))
	for i := range out {
		out[i] = Unlabeled
	}
	for _, t := range idx {
		out[t] = truth[t]
	}
	return out, nil
}

// LabelSets draws the constraint sets V_0 … V_{k−1} of seed 004 eq. (4.1):
// V_c holds nodes of reference class c (k = 1 + the largest label of
// truth), all pairs inside one V_c are must-links and all pairs across two
// sets are cannot-links. The seed gives only the share of labelled nodes
// (25/50/75%, §6); we stratify by class so every class is supervised: V_c
// has round(f·n_c) nodes of class c drawn uniformly without replacement, and
// at least one when f > 0 and n_c > 0. Each V_c is in increasing order;
// labels without nodes give empty sets. Cost O(n + k): the k sets are
// indexed by label, so sparse large labels ({0, 10⁹}) make k large;
// StratifiedLabels draws the same nodes in O(n) whatever the labels. A nil
// src uses DefaultSeed. The error wraps ErrInvalid when f is outside
// [0, 1] or a label of truth is negative.
func LabelSets(truth []int, f float64, src rand.Source) ([][]int, error) {
	if err := checkTruth(truth); err != nil {
		return nil, err
	}
	if !(f >= 0 && f <= 1) {
		return nil, fmt.Errorf("%w: label fraction %v outside [0, 1]", ErrInvalid, f)
	}
	k := 0
	for _, c := range truth {
		k = max(k, c+1)
	}
	sets := make([][]int, k)
	for c := range sets {
		sets[c] = []int{}
	}
	err := stratified(context.Background(), truth, f, src, func(c int, nodes []int) {
		sets[c] = append([]int{}, nodes...)
	})
	if err != nil {
		return nil, err
	}
	return sets, nil
}

// StratifiedLabels reveals the reference labels of the nodes LabelSets
// draws (for each class c, round(f·n_c) of its n_c nodes uniformly without
// replacement, at least one when f > 0) and marks the others Unlabeled: for
// the same src, the partial labels SetsToLabels(len(truth), LabelSets(…))
// gives. Cost O(n + k log k) time and O(n) memory for k distinct labels,
// whatever their values. It checks ctx before it starts and every 4096
// nodes drawn, and once ctx is cancelled returns an error wrapping
// ctx.Err(). A nil src uses DefaultSeed. The error wraps ErrInvalid when f
// is outside [0, 1] or a label of truth is negative.
func StratifiedLabels(ctx context.Context, truth []int, f float64, src rand.Source) (Labels, error) {
	if err := checkTruth(truth); err != nil {
		return nil, err
	}
	out := make(Labels, len(truth))
	for i := range out {
		out[i] = Unlabeled
	}
	err := stratified(ctx, truth, f, src, func(c int, nodes []int) {
		for _, v := range nodes {
			out[v] = c
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// stratified draws, class after class in increasing label order, round(f·n_c)
// of the n_c nodes of each class c of truth (at least one when f > 0) and
// calls keep(c, nodes) with them in increasing order (nodes is reused).
// truth must be checked.
func stratified(ctx context.Context, truth []int, f float64, src rand.Source, keep func(c int, nodes []int)) error {
	if !(f >= 0 && f <= 1) {
		return fmt.Errorf("%w: label fraction %v outside [0, 1]", ErrInvalid, f)
	}
	if err := stopped(ctx, "drawing labels"); err != nil {
		return err
	}
	classes, members, _ := classMembers(truth)
	rng := newRand(src)
	var nodes []int
	for r, mem := range members {
		m := int64(math.Round(f * float64(len(mem))))
		if f > 0 && len(mem) > 0 && m == 0 {
			m = 1
		}
		idx, err := sampleIndices(ctx, "drawing labels", int64(len(mem)), m, rng)
		if err != nil {
			return err
		}
		nodes = nodes[:0]
		for _, t := range idx {
			nodes = append(nodes, mem[t])
		}
		keep(classes[r], nodes)
	}
	return nil
}

// classIndex numbers the distinct labels ≥ 0 of truth in increasing order:
// classes[r] is the r-th smallest and id[i] the number of truth[i]
// (negative for a negative label). When the labels present are exactly
// 0…k−1 (the usual case) id is truth itself, not a copy: callers must not
// modify it. Cost O(n + k log k) time and O(n + k) memory for k distinct
// labels, whatever their values: a table indexed by label when the largest
// is below 2n + 64, a map otherwise.
func classIndex(truth []int) (classes []int, id []int) {
	hi := -1
	for _, c := range truth {
		hi = max(hi, c)
	}
	if hi < 2*len(truth)+64 {
		slot := make([]int, hi+1) // label → number + 1, 0 while unseen
		for _, c := range truth {
			if c >= 0 && slot[c] == 0 {
				slot[c] = 1
			}
		}
		for c, seen := range slot {
			if seen != 0 {
				classes = append(classes, c)
				slot[c] = len(classes)
			}
		}
		if len(classes) == hi+1 {
			return classes, truth // every label 0…hi present: numbered by itself
		}
		id = make([]int, len(truth))
		for i, c := range truth {
			id[i] = -1
			if c >= 0 {
				id[i] = slot[c] - 1
			}
		}
		return classes, id
	}
	id = make([]int, len(truth))
	num := make(map[int]int)
	for _, c := range truth {
		if _, ok := num[c]; c >= 0 && !ok {
			num[c] = 0
			classes = append(classes, c)
		}
	}
	slices.Sort(classes)
	for r, c := range classes {
		num[c] = r
	}
	for i, c := range truth {
		id[i] = -1
		if c >= 0 {
			id[i] = num[c]
		}
	}
	return classes, id
}

// classMembers returns the distinct labels ≥ 0 of truth in increasing
// order (classes), the nodes of each in increasing order (members[r] for
// classes[r], the slices sharing one array but each capped at its end, so
// appending to one copies it), and the number of each node's class (id,
// negative for a negative label; truth itself when its labels are 0…k−1,
// see classIndex). Cost O(n + k log k) for k classes (classIndex).
func classMembers(truth []int) (classes []int, members [][]int, id []int) {
	classes, id = classIndex(truth)
	start := make([]int, len(classes)+1)
	for _, r := range id {
		if r >= 0 {
			start[r+1]++
		}
	}
	for r := range classes {
		start[r+1] += start[r]
	}
	flat := make([]int, start[len(classes)])
	members = make([][]int, len(classes))
	for r := range members {
		members[r] = flat[start[r]:start[r]:start[r+1]]
	}
	for i, r := range id {
		if r >= 0 {
			members[r] = append(members[r], i)
		}
	}
	return classes, members, id
}

// SetsToLabels converts label sets V_0 … V_{k−1} (as from LabelSets) to
// partial labels on n nodes: node v ∈ V_c gets label c, others Unlabeled.
// The error wraps ErrInvalid when n < 0, or a node is outside [0, n) or in
// two sets.
func SetsToLabels(n int, sets [][]int) (Labels, error) {
	if n < 0 {
		return nil, fmt.Errorf("%w: %d nodes, want n ≥ 0", ErrInvalid, n)
	}
	out := make(Labels, n)
	for i := range out {
		out[i] = Unlabeled
	}
	for c, set := range sets {
		for _, v := range set {
			if v < 0 || v >= n {
				return nil, fmt.Errorf("%w: node %d of set %d outside [0,%d)", ErrInvalid, v, c, n)
			}
			if out[v] != Unlabeled {
				return nil, fmt.Errorf("%w: node %d is in sets %d and %d", ErrInvalid, v, out[v], c)
			}
			out[v] = c
		}
	}
	return out, nil
}

// LabelsToSets groups the labelled nodes of l by label: one set per
// distinct label present, in increasing order of the label, each listing
// its nodes in increasing order; labels no node has give no set. When the
// labels present are exactly 0…k−1, sets[c] holds the nodes of label c
// and LabelsToSets is the inverse of SetsToLabels. Negative labels other
// than Unlabeled are ignored (see Labels.Validate). Cost O(n + k log k)
// time and O(n + k) memory for k distinct labels, whatever their values
// (labels {0, 5·10⁶} give two sets, not 5·10⁶ + 1 slots).
func LabelsToSets(l Labels) [][]int {
	_, members, _ := classMembers(l)
	return members
}

// FromLabels converts partial labels to pairwise constraints (SPEC §5;
// seed 000 §2.1; seed 004 eq. 4.1): every pair of labelled nodes becomes a
// must-link when their labels agree and a cannot-link otherwise. With L
// labelled nodes the set has L(L−1)/2 pairs, in increasing PairIndex order of
// the node indices, so time and memory are O(n + L²): use SampleFromLabels
// when L is large. Entries below 0 are treated as unlabelled. Where int
// has 32 bits, about 14 700 labelled nodes give more pairs than a slice
// holds (maxSlicePairs): FromLabels returns nil then, and
// FromLabelsContext an error.
func FromLabels(l Labels) *Set {
	s, _ := FromLabelsContext(context.Background(), l)
	return s
}

// FromLabelsContext is FromLabels checking ctx before it starts and every
// 4096 pairs written: once ctx is cancelled it returns an error wrapping
// ctx.Err() and no set. The error wraps ErrInvalid when the pairs are
// more than a slice holds (maxSlicePairs: only where int has 32 bits).
func FromLabelsContext(ctx context.Context, l Labels) (*Set, error) {
	if err := stopped(ctx, "pairing labels"); err != nil {
		return nil, err
	}
	lab := labelled(l)
	total := NumPairs(len(lab))
	if total > maxSlicePairs {
		// Only where int has 32 bits (from about 14 700 labelled nodes
		// on 386): the product L(L−1) overflowed int, and make panicked.
		return nil, fmt.Errorf("%w: %d labelled nodes give %d pairs, more than a slice can hold here: draw some with SampleFromLabels", ErrInvalid, len(lab), total)
	}
	s := &Set{N: len(l), Pairs: make([]Pair, 0, int(total))}
	next := pollEvery
	for b := 1; b < len(lab); b++ {
		if len(s.Pairs) >= next {
			if err := stopped(ctx, "pairing labels"); err != nil {
				return nil, err
			}
			next = len(s.Pairs) + pollEvery
		}
		for a := 0; a < b; a++ {
			s.Pairs = append(s.Pairs, oracle(l, lab[a], lab[b]))
		}
	}
	return s, nil
}

// maxSlicePairs is the most Pairs a slice can hold, its bytes counted by
// an int: about 2.9·10¹⁷ with 64-bit ints, 1.1·10⁸ with 32-bit ones.
const maxSlicePairs = int64(math.MaxInt / unsafe.Sizeof(Pair{}))

func labelled(l Labels) []int {
	var lab []int
	for i, c := range l {
		if c >= 0 {
			lab = append(lab, i)
		}
	}
	return lab
}

// SampleFromLabels is FromLabels keeping each pair of labelled nodes
// independently with probability p: the protocol of seed 001 §5 (pairwise
// constraints drawn among the points whose label is known). Cost O(n + kept
// pairs), never O(L²) (geometric skips as in BernoulliPairs). A nil src uses
// DefaultSeed. The error wraps ErrInvalid when p is outside [0, 1].
// SampleFromLabels is SampleFromLabelsContext with context.Background().
func SampleFromLabels(l Labels, p float64, src rand.Source) (*Set, error) {
	return SampleFromLabelsContext(context.Background(), l, p, src)
}

// SampleFromLabelsContext is SampleFromLabels checking ctx before it starts
// and every 4096 pairs drawn: once ctx is cancelled it returns an error
// wrapping ctx.Err() and no set. For the same src it draws the same pairs
// as SampleFromLabels.
func SampleFromLabelsContext(ctx context.Context, l Labels, p float64, src rand.Source) (*Set, error) {
	if !(p >= 0 && p <= 1) {
		return nil, fmt.Errorf("%w: pair probability %v outside [0, 1]", ErrInvalid, p)
	}
	if err := stopped(ctx, "drawing pairs of labelled nodes"); err != nil {
		return nil, err
	}
	lab := labelled(l)
	total := NumPairs(len(lab))
	s := &Set{N: len(l), Pairs: make([]Pair, 0, expectedCap(total, p))}
	err := bernoulliIndices(ctx, "drawing pairs of labelled nodes", total, p, newRand(src), func(t int64) {
		a, b := PairAt(t)
		s.Pairs = append(s.Pairs, oracle(l, lab[a], lab[b]))
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// FlipLabels returns a copy of l in which round(f·L) of the L labelled nodes,
// chosen uniformly without replacement, get a label drawn uniformly among
// the k−1 other labels of 0…k−1: the noisy-label experiment of seed 001 §5
// ("randomly flipped the value of 10% of the known labels"). flipped lists
// the changed nodes in increasing order. Cost O(n). A nil src uses
// DefaultSeed. The error wraps ErrInvalid when f is outside [0, 1], k < 2,
// or l has a label outside {Unlabeled} ∪ [0, k). FlipLabels is
// FlipLabelsContext with context.Background().
func FlipLabels(l Labels, f float64, k int, src rand.Source) (out Labels, flipped []int, err error) {
	return FlipLabelsContext(context.Background(), l, f, k, src)
}

// FlipLabelsContext is FlipLabels checking ctx before it starts and every
// 4096 labels drawn or flipped: once ctx is cancelled it returns an error
// wrapping ctx.Err() (errors.Is(err, context.Canceled)) and no labels. For
// the same src it flips the same labels to the same classes as FlipLabels.
func FlipLabelsContext(ctx context.Context, l Labels, f float64, k int, src rand.Source) (out Labels, flipped []int, err error) {
	const what = "flipping labels"
	if k < 2 {
		return nil, nil, fmt.Errorf("%w: flipping labels needs k ≥ 2 classes, got %d", ErrInvalid, k)
	}
	if err := l.Validate(k); err != nil {
		return nil, nil, err
	}
	lab := labelled(l)
	m, err := roundCount("flip", f, int64(len(lab)))
	if err != nil {
		return nil, nil, err
	}
	if err := stopped(ctx, what); err != nil {
		return nil, nil, err
	}
	rng := newRand(src)
	out = slices.Clone(l)
	err = forSampled(ctx, what, int64(len(lab)), m, rng, func(t int64) {
		v := lab[t]
		c := rng.IntN(k - 1)
		if c >= l[v] {
			c++
		}
		out[v] = c
		flipped = append(flipped, v)
	})
	if err != nil {
		return nil, nil, err
	}
	return out, flipped, nil
}

// FlipPairs returns a copy of s in which round(f·len(s.Pairs)) pairs, chosen
// uniformly without replacement, have their kind flipped (must-link ↔
// cannot-link); flipped lists their indices in increasing order. Weights are
// kept. Cost O(len(s.Pairs)). A nil src uses DefaultSeed. The error wraps
// ErrInvalid when f is outside [0, 1] or s fails Validate. FlipPairs is
// FlipPairsContext with context.Background().
func FlipPairs(s *Set, f float64, src rand.Source) (out *Set, flipped []int, err error) {
	return FlipPairsContext(context.Background(), s, f, src)
}

// FlipPairsContext is FlipPairs checking ctx before it starts and every
// 4096 pairs drawn or flipped: once ctx is cancelled it returns an error
// wrapping ctx.Err() (errors.Is(err, context.Canceled)) and no set. For
// the same src it flips the same pairs as FlipPairs.
func FlipPairsContext(ctx context.Context, s *Set, f float64, src rand.Source) (out *Set, flipped []int, err error) {
	const what = "flipping pairs"
	if s == nil {
		s = &Set{}
	}
	if err := s.Validate(); err != nil {
		return nil, nil, err
	}
	m, err := roundCount("flip", f, int64(len(s.Pairs)))
	if err != nil {
		return nil, nil, err
	}
	if err := stopped(ctx, what); err != nil {
		return nil, nil, err
	}
	out = &Set{N: s.N, Pairs: slices.Clone(s.Pairs)}
	err = forSampled(ctx, what, int64(len(s.Pairs)), m, newRand(src), func(t int64) {
		p := &out.Pairs[t]
		if p.Kind == MustLink {
			p.Kind = CannotLink
		} else {
			p.Kind = MustLink
		}
		flipped = append(flipped, int(t))
	})
	if err != nil {
		return nil, nil, err
	}
	return out, flipped, nil
}

// forSampled calls do on m indices of 0…total−1 chosen uniformly without
// replacement with rng (sampleIndices), in increasing order, checking ctx
// before every pollEvery of them; it returns the error of a cancelled
// ctx, wrapped with what, and then calls do on no more. do may draw from
// rng: sampleIndices has drawn all it draws before the first call. Cost:
// sampleIndices's, O(m log m), and m calls of do.
func forSampled(ctx context.Context, what string, total, m int64, rng *rand.Rand, do func(t int64)) error {
	idx, err := sampleIndices(ctx, what, total, m, rng)
	if err != nil {
		return err
	}
	for q, t := range idx {
		if q%pollEvery == 0 {
			if err := stopped(ctx, what); err != nil {
				return err
			}
		}
		do(t)
	}
	return nil
}
