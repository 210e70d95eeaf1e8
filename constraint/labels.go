package constraint

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// FractionLabels reveals the reference labels of round(f·n) nodes chosen
// uniformly at random without replacement, n = len(truth), and marks the
// others Unlabeled: the protocol of seed 000 §3.4 (f = 0.1) and of seed 001
// §5 (20–80% known labels). Cost O(n). A nil src uses DefaultSeed. The error
// wraps ErrInvalid when f is outside [0, 1] or a label of truth is negative.
func FractionLabels(truth []int, f float64, src rand.Source) (Labels, error) {
	if err := checkTruth(truth); err != nil {
		return nil, err
	}
	m, err := roundCount("label", f, int64(len(truth)))
	if err != nil {
		return nil, err
	}
	out := make(Labels, len(truth))
	for i := range out {
		out[i] = Unlabeled
	}
	for _, t := range sampleIndices(int64(len(truth)), m, newRand(src)) {
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
// classes without nodes give empty sets. Cost O(n). A nil src uses
// DefaultSeed. The error wraps ErrInvalid when f is outside [0, 1] or a label
// of truth is negative.
func LabelSets(truth []int, f float64, src rand.Source) ([][]int, error) {
	if err := checkTruth(truth); err != nil {
		return nil, err
	}
	if !(f >= 0 && f <= 1) {
		return nil, fmt.Errorf("%w: label fraction %v outside [0, 1]", ErrInvalid, f)
	}
	members := classMembers(truth)
	rng := newRand(src)
	sets := make([][]int, len(members))
	for c, mem := range members {
		m := int64(math.Round(f * float64(len(mem))))
		if f > 0 && len(mem) > 0 && m == 0 {
			m = 1
		}
		idx := sampleIndices(int64(len(mem)), m, rng)
		sets[c] = make([]int, len(idx))
		for a, t := range idx {
			sets[c][a] = mem[t]
		}
	}
	return sets, nil
}

// classMembers returns, for each class c = 0…max(truth), its nodes in
// increasing order. truth must be non-negative.
func classMembers(truth []int) [][]int {
	k := 0
	for _, c := range truth {
		k = max(k, c+1)
	}
	count := make([]int, k)
	for _, c := range truth {
		count[c]++
	}
	members := make([][]int, k)
	for c := range members {
		members[c] = make([]int, 0, count[c])
	}
	for i, c := range truth {
		members[c] = append(members[c], i)
	}
	return members
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

// LabelsToSets groups the labelled nodes of l by label: sets[c] lists, in
// increasing order, the nodes with label c, for c = 0…max label. It is the
// inverse of SetsToLabels. Negative labels other than Unlabeled are ignored
// (see Labels.Validate).
func LabelsToSets(l Labels) [][]int {
	k := 0
	for _, c := range l {
		k = max(k, c+1)
	}
	sets := make([][]int, k)
	for i, c := range l {
		if c >= 0 {
			sets[c] = append(sets[c], i)
		}
	}
	return sets
}

// FromLabels converts partial labels to pairwise constraints (SPEC §5;
// seed 000 §2.1; seed 004 eq. 4.1): every pair of labelled nodes becomes a
// must-link when their labels agree and a cannot-link otherwise. With L
// labelled nodes the set has L(L−1)/2 pairs, in increasing PairIndex order of
// the node indices, so time and memory are O(n + L²): use SampleFromLabels
// when L is large. Entries below 0 are treated as unlabelled.
func FromLabels(l Labels) *Set {
	lab := labelled(l)
	s := &Set{N: len(l), Pairs: make([]Pair, 0, len(lab)*(len(lab)-1)/2)}
	for b := 1; b < len(lab); b++ {
		for a := 0; a < b; a++ {
			s.Pairs = append(s.Pairs, oracle(l, lab[a], lab[b]))
		}
	}
	return s
}

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
func SampleFromLabels(l Labels, p float64, src rand.Source) (*Set, error) {
	if !(p >= 0 && p <= 1) {
		return nil, fmt.Errorf("%w: pair probability %v outside [0, 1]", ErrInvalid, p)
	}
	lab := labelled(l)
	total := NumPairs(len(lab))
	s := &Set{N: len(l), Pairs: make([]Pair, 0, expectedCap(total, p))}
	bernoulliIndices(total, p, newRand(src), func(t int64) {
		a, b := PairAt(t)
		s.Pairs = append(s.Pairs, oracle(l, lab[a], lab[b]))
	})
	return s, nil
}

// FlipLabels returns a copy of l in which round(f·L) of the L labelled nodes,
// chosen uniformly without replacement, get a label drawn uniformly among
// the k−1 other labels of 0…k−1: the noisy-label experiment of seed 001 §5
// ("randomly flipped the value of 10% of the known labels"). flipped lists
// the changed nodes in increasing order. Cost O(n). A nil src uses
// DefaultSeed. The error wraps ErrInvalid when f is outside [0, 1], k < 2,
// or l has a label outside {Unlabeled} ∪ [0, k).
func FlipLabels(l Labels, f float64, k int, src rand.Source) (out Labels, flipped []int, err error) {
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
	rng := newRand(src)
	out = slices.Clone(l)
	for _, t := range sampleIndices(int64(len(lab)), m, rng) {
		v := lab[t]
		c := rng.IntN(k - 1)
		if c >= l[v] {
			c++
		}
		out[v] = c
		flipped = append(flipped, v)
	}
	return out, flipped, nil
}

// FlipPairs returns a copy of s in which round(f·len(s.Pairs)) pairs, chosen
// uniformly without replacement, have their kind flipped (must-link ↔
// cannot-link); flipped lists their indices in increasing order. Weights are
// kept. Cost O(len(s.Pairs)). A nil src uses DefaultSeed. The error wraps
// ErrInvalid when f is outside [0, 1] or s fails Validate.
func FlipPairs(s *Set, f float64, src rand.Source) (out *Set, flipped []int, err error) {
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
	out = &Set{N: s.N, Pairs: slices.Clone(s.Pairs)}
	for _, t := range sampleIndices(int64(len(s.Pairs)), m, newRand(src)) {
		p := &out.Pairs[t]
		if p.Kind == MustLink {
			p.Kind = CannotLink
		} else {
			p.Kind = MustLink
		}
		flipped = append(flipped, int(t))
	}
	return out, flipped, nil
}
