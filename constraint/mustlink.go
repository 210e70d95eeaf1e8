package constraint

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

// Table41 returns the cluster sizes of partition name ("A", "B", "C" or
// "D") of seed 000 Table 4.1, the partitions of the transitive-closure
// experiments (§4.1.3, Fig. 4.3 and 4.4). Each has 500 nodes: A is balanced,
// B–D increasingly imbalanced. The error wraps ErrInvalid for another name.
func Table41(name string) ([]int, error) {
	switch name {
	case "A":
		return []int{100, 100, 100, 100, 100}, nil
	case "B":
		return []int{144, 125, 100, 75, 56}, nil
	case "C":
		return []int{175, 150, 100, 50, 25}, nil
	case "D":
		return []int{250, 125, 63, 31, 31}, nil
	}
	return nil, fmt.Errorf("%w: no partition %q in Table 4.1 (want A, B, C or D)", ErrInvalid, name)
}

// BlockLabels returns the partition of sum(sizes) nodes into consecutive
// blocks: the first sizes[0] nodes get label 0, the next sizes[1] label 1,
// and so on. It panics if a size is negative.
func BlockLabels(sizes []int) []int {
	var out []int
	for c, s := range sizes {
		if s < 0 {
			panic(fmt.Sprintf("constraint: BlockLabels: negative size %d", s))
		}
		for range s {
			out = append(out, c)
		}
	}
	return out
}

// ConnectivityThreshold returns round(Σ_c C(n_c,2)·ln(n_c)/n_c), the number
// of uniform must-links at which each cluster's must-link graph, an
// Erdős–Rényi graph G(n_c, p) with p = ln(n_c)/n_c, becomes connected (seed
// 000 §4.1.3, the ε → 0 limit of the threshold (1+ε)·ln(n)/n). For partition A
// of Table 4.1 it is 5·228 = 1140, the number quoted in the thesis; seed 000
// uses it as the must-link count of Fig. 4.4. Clusters of size < 2 add 0.
func ConnectivityThreshold(sizes []int) int {
	var sum float64
	for _, s := range sizes {
		if s >= 2 {
			sum += float64(s-1) / 2 * math.Log(float64(s))
		}
	}
	return int(math.Round(sum))
}

// classPairs indexes the must-links a reference partition allows: the pairs
// inside each class, numbered class after class, each class in PairIndex
// order of its members' ranks.
type classPairs struct {
	members [][]int // members[c]: nodes of class c, increasing
	offset  []int64 // offset[c]: index of class c's first pair; offset[k] = total
	class   []int   // class of each node
	rank    []int   // rank of each node within its class
}

func newClassPairs(truth []int) *classPairs {
	cp := &classPairs{members: classMembers(truth), class: truth, rank: make([]int, len(truth))}
	cp.offset = make([]int64, len(cp.members)+1)
	for c, mem := range cp.members {
		cp.offset[c+1] = cp.offset[c] + NumPairs(len(mem))
		for r, v := range mem {
			cp.rank[v] = r
		}
	}
	return cp
}

func (cp *classPairs) total() int64 { return cp.offset[len(cp.members)] }

// pair returns the must-link with global index t.
func (cp *classPairs) pair(t int64) Pair {
	// The class c with offset[c] ≤ t < offset[c+1].
	c := sort.Search(len(cp.members), func(c int) bool { return cp.offset[c+1] > t })
	a, b := PairAt(t - cp.offset[c])
	return Pair{I: cp.members[c][a], J: cp.members[c][b], Kind: MustLink}
}

// index returns the global index of the within-class pair {u, v}.
func (cp *classPairs) index(u, v int) int64 {
	return cp.offset[cp.class[u]] + PairIndex(cp.rank[u], cp.rank[v])
}

// UniformMustLinks draws m distinct correct must-links uniformly without
// replacement among the Σ_c C(n_c,2) pairs of nodes in the same class of
// truth: the "must-links only, uniform" protocol of seed 000 §4.1.3
// (Fig. 4.3). The pairs come in increasing order of class, then PairIndex,
// each with I < J. Cost O(n + m log m) time, O(n + m) memory. A nil src
// uses DefaultSeed. The error wraps ErrInvalid when m is negative or larger
// than the number of correct must-links, or a label of truth is negative.
func UniformMustLinks(truth []int, m int, src rand.Source) (*Set, error) {
	if err := checkTruth(truth); err != nil {
		return nil, err
	}
	cp := newClassPairs(truth)
	if m < 0 || int64(m) > cp.total() {
		return nil, fmt.Errorf("%w: %d must-links requested, the partition allows %d", ErrInvalid, m, cp.total())
	}
	idx := sampleIndices(cp.total(), int64(m), newRand(src))
	s := &Set{N: len(truth), Pairs: make([]Pair, len(idx))}
	for k, t := range idx {
		s.Pairs[k] = cp.pair(t)
	}
	return s, nil
}

// rejectionTries bounds the rejection-sampling attempts before the
// must-link generator falls back to an exact enumeration.
const rejectionTries = 64

// MustLinksUniformity draws m distinct correct must-links with the
// "uniformity α" process of seed 000 §4.1.3 (Fig. 4.4): the first must-link
// is uniform among the correct must-links (pairs in the same class of
// truth); each next one is, with probability alpha, uniform among the
// remaining correct must-links, and otherwise uniform among the remaining
// correct must-links that share a node with an already chosen one. When
// no remaining must-link shares a node with a chosen one (every touched
// class is exhausted), the uniform rule is used. alpha = 1 gives uniform
// must-links (an Erdős–Rényi must-link graph inside each class); alpha = 0
// grows the must-link graph from the nodes already touched.
//
// The pairs come in the order drawn, each with I < J. Both rules sample by
// rejection (the adjacent rule picks a class in proportion to its count of
// remaining adjacent pairs, then a touched node u and another node v of the
// class, accepting {u, v} with probability ½ when v is touched too, which
// makes every adjacent pair equally likely) and fall back to an exact
// enumeration after 64 rejections, so the expected cost is O(n + k·m) for k
// classes while the chosen pairs are a small share of the candidates.
// A nil src uses DefaultSeed. The error wraps ErrInvalid when alpha is
// outside [0, 1], m is negative or larger than the number of correct
// must-links, or a label of truth is negative.
func MustLinksUniformity(truth []int, m int, alpha float64, src rand.Source) (*Set, error) {
	if err := checkTruth(truth); err != nil {
		return nil, err
	}
	if !(alpha >= 0 && alpha <= 1) {
		return nil, fmt.Errorf("%w: uniformity α = %v outside [0, 1]", ErrInvalid, alpha)
	}
	cp := newClassPairs(truth)
	if m < 0 || int64(m) > cp.total() {
		return nil, fmt.Errorf("%w: %d must-links requested, the partition allows %d", ErrInvalid, m, cp.total())
	}
	g := &uniformityGen{
		cp:      cp,
		rng:     newRand(src),
		chosen:  make(map[int64]struct{}, m),
		touched: make([]bool, len(truth)),
		tlist:   make([][]int, len(cp.members)),
		nchosen: make([]int64, len(cp.members)),
	}
	s := &Set{N: len(truth), Pairs: make([]Pair, 0, m)}
	for step := range m {
		var t int64
		if step == 0 || g.rng.Float64() < alpha {
			t = g.uniform()
		} else {
			t = g.adjacent()
		}
		s.Pairs = append(s.Pairs, g.take(t))
	}
	return s, nil
}

type uniformityGen struct {
	cp      *classPairs
	rng     *rand.Rand
	chosen  map[int64]struct{}
	order   []int64 // chosen indices; sorted by the exact fallback
	touched []bool  // node touched by a chosen must-link
	tlist   [][]int // touched nodes of each class
	nchosen []int64 // chosen must-links in each class
}

func (g *uniformityGen) isChosen(t int64) bool {
	_, ok := g.chosen[t]
	return ok
}

func (g *uniformityGen) take(t int64) Pair {
	p := g.cp.pair(t)
	g.chosen[t] = struct{}{}
	g.order = append(g.order, t)
	c := g.cp.class[p.I]
	g.nchosen[c]++
	for _, v := range [2]int{p.I, p.J} {
		if !g.touched[v] {
			g.touched[v] = true
			g.tlist[c] = append(g.tlist[c], v)
		}
	}
	return p
}

// uniform returns a remaining must-link index chosen uniformly.
func (g *uniformityGen) uniform() int64 {
	total := g.cp.total()
	for range rejectionTries {
		if t := g.rng.Int64N(total); !g.isChosen(t) {
			return t
		}
	}
	// Exact: the r-th unchosen index, skipping the sorted chosen ones.
	slices.Sort(g.order)
	t := g.rng.Int64N(total - int64(len(g.order)))
	for _, c := range g.order {
		if c > t {
			break
		}
		t++
	}
	return t
}

// adjacent returns a remaining must-link sharing a node with a chosen one,
// uniformly, or a uniform remaining one if there is none.
func (g *uniformityGen) adjacent() int64 {
	// Remaining adjacent pairs of class c: C(n_c,2) − C(n_c−t_c,2) − chosen_c
	// (every chosen pair has both nodes touched).
	var total int64
	weights := make([]int64, len(g.cp.members))
	for c, mem := range g.cp.members {
		nc, tc := len(mem), len(g.tlist[c])
		if tc == 0 {
			continue
		}
		weights[c] = NumPairs(nc) - NumPairs(nc-tc) - g.nchosen[c]
		total += weights[c]
	}
	if total == 0 {
		return g.uniform()
	}
	r := g.rng.Int64N(total)
	c := 0
	for ; r >= weights[c]; c++ {
		r -= weights[c]
	}
	mem, tl := g.cp.members[c], g.tlist[c]
	for range rejectionTries {
		u := tl[g.rng.IntN(len(tl))]
		v := mem[g.rng.IntN(len(mem)-1)]
		if v >= u {
			// Skip u itself: members are increasing, so shift by one rank.
			v = mem[g.cp.rank[v]+1]
		}
		if g.touched[v] && g.rng.IntN(2) == 0 {
			continue
		}
		if t := g.cp.index(u, v); !g.isChosen(t) {
			return t
		}
	}
	// Exact: enumerate the class's adjacent remaining pairs.
	var cand []int64
	for b := 1; b < len(mem); b++ {
		for a := range b {
			if !g.touched[mem[a]] && !g.touched[mem[b]] {
				continue
			}
			if t := g.cp.offset[c] + PairIndex(a, b); !g.isChosen(t) {
				cand = append(cand, t)
			}
		}
	}
	return cand[g.rng.IntN(len(cand))]
}
