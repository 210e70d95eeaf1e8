package constraint

import (
	"context"
	"fmt"
	"math"
	"math/bits"
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
// The classes are numbered 0…k−1 in increasing order of their labels
// (classMembers), so sparse large labels cost nothing.
type classPairs struct {
	members [][]int // members[c]: nodes of class c, increasing
	offset  []int64 // offset[c]: index of class c's first pair; offset[k] = total
	class   []int   // class of each node (may be truth itself: read only)
	rank    []int   // rank of each node within its class
}

// newClassPairs indexes the must-links of truth (labels ≥ 0) in O(n + k log k)
// for k distinct labels.
func newClassPairs(truth []int) *classPairs {
	_, members, class := classMembers(truth)
	cp := &classPairs{members: members, class: class, rank: make([]int, len(truth))}
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
	idx, _ := sampleIndices(context.Background(), "", cp.total(), int64(m), newRand(src))
	s := &Set{N: len(truth), Pairs: make([]Pair, len(idx))}
	for k, t := range idx {
		s.Pairs[k] = cp.pair(t)
	}
	return s, nil
}

// rejectionTries bounds the rejection-sampling attempts before the
// must-link generator falls back to an exact draw.
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
// makes every adjacent pair equally likely) and after 64 rejections fall
// back to an exact draw: the r-th remaining candidate in index order for a
// uniform r. Once the chosen must-links are a quarter or more of the
// candidates (all correct must-links for the uniform rule, the pairs of
// the class for the adjacent one), the exact draw reads them from a Fenwick
// tree kept up to date as must-links are chosen, in O(log n); with fewer
// chosen, where 64 rejections in a row have probability under (5/8)⁶⁴, it
// enumerates the candidates. But for those enumerations, the cost is
// O(n + m·log n) for any m up to the number of correct must-links, near
// that number included, and the memory O(n + m), plus O(k log k) for k
// distinct labels; the trees hold at most 2³¹ − 1 candidates, so above that
// (m ≥ 2²⁹ chosen, beyond what tether constraints gen writes) the exact
// draws enumerate again.
// A nil src uses DefaultSeed. The error wraps ErrInvalid when alpha is
// outside [0, 1], m is negative or larger than the number of correct
// must-links, or a label of truth is negative.
// MustLinksUniformity is MustLinksUniformityContext with
// context.Background().
func MustLinksUniformity(truth []int, m int, alpha float64, src rand.Source) (*Set, error) {
	return MustLinksUniformityContext(context.Background(), truth, m, alpha, src)
}

// MustLinksUniformityContext is MustLinksUniformity checking ctx before it
// starts and every 4096 must-links drawn: once ctx is cancelled it returns
// an error wrapping ctx.Err() and no set. For the same src it draws the
// same must-links as MustLinksUniformity.
func MustLinksUniformityContext(ctx context.Context, truth []int, m int, alpha float64, src rand.Source) (*Set, error) {
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
	if err := stopped(ctx, "drawing must-links"); err != nil {
		return nil, err
	}
	g := newUniformityGen(cp, m, src)
	s := &Set{N: len(truth), Pairs: make([]Pair, 0, m)}
	for step := range m {
		if step%pollEvery == 0 {
			if err := stopped(ctx, "drawing must-links"); err != nil {
				return nil, err
			}
		}
		s.Pairs = append(s.Pairs, g.take(g.draw(step, alpha)))
	}
	return s, nil
}

type uniformityGen struct {
	cp      *classPairs
	rng     *rand.Rand
	chosen  indexSet
	order   []int64 // chosen indices; sorted by the enumerating exact draw
	touched []bool  // node touched by a chosen must-link
	tlist   [][]int // touched nodes of each class
	nchosen []int64 // chosen must-links in each class

	// weight counts the remaining adjacent pairs of each class (adjWeight);
	// adjTotal is their sum.
	weight   fenwick[int64]
	adjTotal int64
	// free, once built, holds 1 at each unchosen must-link index; near[c],
	// once built, 1 at each class-c pair (index within the class) that is
	// unchosen and has a touched node. Both are built by the first exact
	// draw that finds the chosen pairs at least a quarter of the candidates
	// (buildable), then kept up to date by take.
	free fenwick[int32]
	near []fenwick[int32]
}

// newUniformityGen returns the generator of at most m must-links among cp.
func newUniformityGen(cp *classPairs, m int, src rand.Source) *uniformityGen {
	k := len(cp.members)
	return &uniformityGen{
		cp:      cp,
		rng:     newRand(src),
		chosen:  newIndexSet(cp.total(), m),
		touched: make([]bool, len(cp.class)),
		tlist:   make([][]int, k),
		nchosen: make([]int64, k),
		weight:  make(fenwick[int64], k+1),
		near:    make([]fenwick[int32], k),
	}
}

// draw returns the index of the must-link drawn at step (0 for the first).
func (g *uniformityGen) draw(step int, alpha float64) int64 {
	if step == 0 || g.rng.Float64() < alpha {
		return g.uniform()
	}
	return g.adjacent()
}

// adjWeight returns the number of remaining pairs of class c with a
// touched node: C(n_c,2) − C(n_c−t_c,2) − chosen_c (every chosen pair has
// both nodes touched).
func (g *uniformityGen) adjWeight(c int) int64 {
	nc := len(g.cp.members[c])
	return NumPairs(nc) - NumPairs(nc-len(g.tlist[c])) - g.nchosen[c]
}

func (g *uniformityGen) isChosen(t int64) bool { return g.chosen.has(t) }

// indexSet is a set of indices in [0, size): a bitset when size ≤ 64·m for
// m elements at most (size/8 bytes, less than a map of m), else a map.
type indexSet struct {
	bits []uint64
	m    map[int64]struct{}
}

func newIndexSet(size int64, m int) indexSet {
	if size <= 64*int64(m) {
		return indexSet{bits: make([]uint64, (size+63)/64)}
	}
	return indexSet{m: make(map[int64]struct{}, m)}
}

func (s indexSet) has(t int64) bool {
	if s.bits != nil {
		return s.bits[t>>6]&(1<<(t&63)) != 0
	}
	_, ok := s.m[t]
	return ok
}

func (s indexSet) add(t int64) {
	if s.bits != nil {
		s.bits[t>>6] |= 1 << (t & 63)
		return
	}
	s.m[t] = struct{}{}
}

func (g *uniformityGen) take(t int64) Pair {
	p := g.cp.pair(t)
	g.chosen.add(t)
	g.order = append(g.order, t)
	c := g.cp.class[p.I]
	before := g.adjWeight(c)
	g.nchosen[c]++
	near, mem := g.near[c], g.cp.members[c]
	for _, v := range [2]int{p.I, p.J} {
		if g.touched[v] {
			continue
		}
		g.touched[v] = true
		g.tlist[c] = append(g.tlist[c], v)
		if near != nil {
			// The pairs of v with an untouched node become adjacent; none
			// is chosen but for {p.I, p.J}, removed below.
			rv := g.cp.rank[v]
			for rw, w := range mem {
				if !g.touched[w] {
					near.add(PairIndex(rv, rw), 1)
				}
			}
		}
	}
	if near != nil {
		near.add(t-g.cp.offset[c], -1)
	}
	if g.free != nil {
		g.free.add(t, -1)
	}
	if d := g.adjWeight(c) - before; d != 0 {
		g.weight.add(int64(c), d)
		g.adjTotal += d
	}
	return p
}

// buildable reports whether a Fenwick tree over size candidates, chosen of
// them taken, is cheap enough to build: chosen ≥ size/4, so that its
// memory and building time are O(chosen), and int32 counts suffice (size
// ≥ 2³¹ would need 2²⁹ must-links chosen, 16 GiB as a Set).
func buildable(size, chosen int64) bool {
	return size <= 4*chosen && size < math.MaxInt32
}

// uniform returns a remaining must-link index chosen uniformly.
func (g *uniformityGen) uniform() int64 {
	total := g.cp.total()
	for range rejectionTries {
		if t := g.rng.Int64N(total); !g.isChosen(t) {
			return t
		}
	}
	// Exact: the r-th unchosen index.
	r := g.rng.Int64N(total - int64(len(g.order)))
	if free := g.freeTree(); free != nil {
		return free.find(r)
	}
	// Skip the sorted chosen ones.
	slices.Sort(g.order)
	for _, c := range g.order {
		if c > r {
			break
		}
		r++
	}
	return r
}

// adjacent returns a remaining must-link sharing a node with a chosen one,
// uniformly, or a uniform remaining one if there is none.
func (g *uniformityGen) adjacent() int64 {
	if g.adjTotal == 0 {
		return g.uniform()
	}
	// The class c with Σ_{c' < c} w_c' ≤ r < Σ_{c' ≤ c} w_c'.
	c := int(g.weight.find(g.rng.Int64N(g.adjTotal)))
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
	// Exact: the r-th of the class's adjacent remaining pairs in index order.
	if near := g.nearTree(c); near != nil {
		return g.cp.offset[c] + near.find(int64(g.rng.IntN(int(g.adjWeight(c)))))
	}
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

// freeTree returns g.free, building it first if buildable, or nil.
func (g *uniformityGen) freeTree() fenwick[int32] {
	if g.free == nil && buildable(g.cp.total(), int64(len(g.order))) {
		g.free = newFenwick(g.cp.total(), func(zero func(int64)) {
			for _, t := range g.order {
				zero(t)
			}
		})
	}
	return g.free
}

// nearTree returns g.near[c], building it first if buildable, or nil.
func (g *uniformityGen) nearTree(c int) fenwick[int32] {
	mem := g.cp.members[c]
	if g.near[c] == nil && buildable(NumPairs(len(mem)), g.nchosen[c]) {
		lo := g.cp.offset[c]
		g.near[c] = newFenwick(NumPairs(len(mem)), func(zero func(int64)) {
			// The pairs of two untouched nodes and the chosen ones, in
			// O(C(n_c,2)) = O(chosen_c), not O(m) as a scan of g.order.
			for b := 1; b < len(mem); b++ {
				for a := range b {
					x := PairIndex(a, b)
					if !g.touched[mem[a]] && !g.touched[mem[b]] || g.isChosen(lo+x) {
						zero(x)
					}
				}
			}
		})
	}
	return g.near[c]
}

// fenwick is a Fenwick (binary indexed) tree over the counts of indices
// 0…len−2: f[i] holds the sum of the counts of indices i−lowbit(i) … i−1.
type fenwick[T int32 | int64] []T

// newFenwick returns the tree over size indices, each with count 1 but
// those that zeroes calls its argument on (each at most once), in
// O(size + calls).
func newFenwick(size int64, zeroes func(zero func(int64))) fenwick[int32] {
	f := make(fenwick[int32], size+1)
	for i := range f[1:] {
		f[i+1] = 1
	}
	zeroes(func(i int64) { f[i+1] = 0 })
	for i := 1; i < len(f); i++ {
		if j := i + i&-i; j < len(f) {
			f[j] += f[i]
		}
	}
	return f
}

// add adds d to the count of index i.
func (f fenwick[T]) add(i int64, d T) {
	for j := int(i) + 1; j < len(f); j += j & -j {
		f[j] += d
	}
}

// find returns the index i with count(0…i−1) ≤ r < count(0…i), for
// 0 ≤ r < the sum of the counts (the counts are non-negative).
func (f fenwick[T]) find(r int64) int64 {
	pos := 0
	if len(f) < 2 {
		return 0
	}
	for step := 1 << (bits.Len(uint(len(f)-1)) - 1); step > 0; step >>= 1 {
		if next := pos + step; next < len(f) && int64(f[next]) <= r {
			pos = next
			r -= int64(f[next])
		}
	}
	return int64(pos)
}
