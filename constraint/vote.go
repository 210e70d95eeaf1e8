package constraint

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// VoteOptions configure Vote and VoteFilter.
type VoteOptions struct {
	// K is the number of most similar other pairs that vote on a pair. If
	// K ≤ 0, DefaultVoteK.
	K int
	// Margin in (0, 2]: VoteFilter drops a pair whose agreement (see Vote)
	// is below −Margin. If Margin ≤ 0, DefaultVoteMargin: a pair is dropped
	// when at least 75% of its neighbours' vote weight is for the other
	// kind.
	Margin float64
	// Consistent asks VoteFilter to also break every conflict that Check
	// would find among the pairs it keeps (a cannot-link inside a
	// must-link component, a pair both must-link and cannot-link, a
	// repeat): the kept pairs are taken in decreasing agreement (ties in
	// order), and each one that conflicts with those taken before it is
	// dropped. So every pair dropped is the least agreed constraint of a
	// conflict with pairs kept, none is dropped whose return alone would
	// leave the set consistent, and the transitive closure's conflicts
	// become decisions instead of errors: methods that refuse
	// contradictory sets (COSC) can run.
	Consistent bool
	// TwoWay asks VoteFilter to keep only constraints that one 2-way
	// partition satisfies together (for k = 2, where cannot-links between
	// must-link components must form a bipartite graph, which COSC
	// requires): the kept pairs are taken in decreasing agreement (ties in
	// order), and each one that contradicts those already taken (a
	// must-link between nodes of opposite sides, a cannot-link between
	// nodes of one side: an odd cycle) is dropped. It implies Consistent.
	TwoWay bool
	// Neighbours, when not nil, lists for each node a at least every node
	// b ≠ a with sim(a, b) > 0 (a sparse graph's row, e.g. graph.Graph.Row's
	// first result; extra nodes, and a itself, are harmless): sim must be
	// 0 for every b ≠ a not listed. Vote then examines
	// only the pairs that can be similar to each pair — those with an end
	// in the closed neighbourhood of each of its ends — instead of all m,
	// with the same scores: O(Σ_t Σ_{a ∈ N[i_t]} pairs at a) sim calls
	// instead of O(m²).
	Neighbours func(a int) []int32
}

// Defaults of VoteOptions.
const (
	DefaultVoteK      = 10
	DefaultVoteMargin = 0.5
)

// Vote scores every pair of s by how much the constraints near it agree
// with it: a constraint-to-constraint vote, for finding wrong (flipped)
// constraints. sim(a, b) is the similarity of nodes a and b, in [0, 1],
// with sim(a, a) = 1 (e.g. the weight of an RBF or cosine graph); Vote
// calls it only with a ≠ b and takes sim(a, a) = 1 itself. Two pairs
// (i, j) and (a, b) are as similar as
//
//	S = max(sim(i, a)·sim(j, b), sim(i, b)·sim(j, a))
//
// (pairs whose endpoints are each close are close; a pair sharing a node
// with another gets that node's similarity 1). The K pairs with the largest
// S > 0 (the pair itself and repeats of its nodes excluded) vote with
// weight S, +1 for a must-link and −1 for a cannot-link, and the
// agreement of pair t is
//
//	a_t = y_t · Σ S·y / Σ S ∈ [−1, 1],   y_t = +1 (must-link) or −1,
//
// 0 when no other pair is similar at all. A flipped constraint sits among
// constraints of the other kind (labels are locally smooth on the graph),
// so its agreement is negative; a correct constraint that contradicts the
// graph's clusters is not penalized as long as its neighbouring
// constraints say the same. This is Spectral Learning's and constraint
// propagation's smoothness assumption applied to the constraints
// themselves, one step, leave-one-out.
//
// Cost: O(m²) calls of sim and O(m² log K) time for m pairs, O(m) memory:
// meant for up to about 10⁴ constraints; with opt.Neighbours on a sparse
// graph, only the pairs near each pair are examined (see VoteOptions). K is clamped to m − 1. The error
// wraps ErrInvalid when s fails Validate, and is ctx.Err() when ctx is
// cancelled (checked every 256 pairs).
func Vote(ctx context.Context, s *Set, sim func(a, b int) float64, opt VoteOptions) ([]float64, error) {
	num, den, err := voteMasses(ctx, s, sim, opt)
	if err != nil {
		return nil, err
	}
	score := make([]float64, len(num))
	for t := range score {
		if den[t] > 0 {
			score[t] = num[t] / den[t]
		}
	}
	return score, nil
}

// voteMasses returns, for every pair t of s, den[t] = Σ S over the K
// pairs that vote on it and num[t] = y_t·Σ S·y (the vote weight for its
// kind minus that for the other kind), as Vote defines them; Vote is
// num/den.
func voteMasses(ctx context.Context, s *Set, sim func(a, b int) float64, opt VoteOptions) (num, den []float64, err error) {
	if s == nil {
		s = &Set{}
	}
	if err := s.Validate(); err != nil {
		return nil, nil, err
	}
	k := opt.K
	if k <= 0 {
		k = DefaultVoteK
	}
	m := len(s.Pairs)
	k = min(k, m-1)
	num, den = make([]float64, m), make([]float64, m)
	if k <= 0 {
		return num, den, nil
	}
	sm := func(a, b int) float64 {
		if a == b {
			return 1
		}
		return sim(a, b)
	}
	cand := make([]nb, 0, m)
	top := make([]nb, 0, k+1) // topVotes' buffer
	var at [][]int32          // pairs at each node (with Neighbours)
	var seen []int            // seen[u] = t+1 once pair u is a candidate of t
	var us []int              // candidate pairs of t, increasing
	if opt.Neighbours != nil {
		at = make([][]int32, s.N)
		for u, q := range s.Pairs {
			at[q.I] = append(at[q.I], int32(u))
			at[q.J] = append(at[q.J], int32(u))
		}
		seen = make([]int, m)
	}
	for t, p := range s.Pairs {
		if t%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
		cand = cand[:0]
		consider := func(u int) {
			q := s.Pairs[u]
			if u == t || (min(p.I, p.J) == min(q.I, q.J) && max(p.I, p.J) == max(q.I, q.J)) {
				return
			}
			x := max(sm(p.I, q.I)*sm(p.J, q.J), sm(p.I, q.J)*sm(p.J, q.I))
			if !(x > 0) {
				return
			}
			y := 1.0
			if q.Kind == CannotLink {
				y = -1
			}
			cand = append(cand, nb{x, y})
		}
		if opt.Neighbours == nil {
			for u := range s.Pairs {
				consider(u)
			}
		} else {
			// A pair similar to (i, j) has an end in N[i] = {i} ∪
			// Neighbours(i); visiting those pairs in increasing index
			// keeps the order, and so the scores, of the full scan.
			us = us[:0]
			visit := func(a int) {
				for _, u := range at[a] {
					if seen[u] != t+1 {
						seen[u] = t + 1
						us = append(us, int(u))
					}
				}
			}
			visit(p.I)
			for _, a := range opt.Neighbours(p.I) {
				visit(int(a))
			}
			slices.Sort(us)
			for _, u := range us {
				consider(u)
			}
		}
		votes := cand
		if len(cand) > k {
			votes = topVotes(cand, top[:0], k)
			if votes == nil {
				// Ties among the largest: the full sort (pdqsort, not
				// stable) decides which tied pairs vote, in which order.
				slices.SortFunc(cand, nbDesc)
				votes = cand[:k]
			}
		}
		for _, c := range votes {
			num[t] += c.s * c.y
			den[t] += c.s
		}
		if p.Kind == CannotLink {
			num[t] = -num[t]
		}
	}
	return num, den, nil
}

// nb is a candidate voter of voteMasses: its similarity S and its kind
// y (+1 must-link, −1 cannot-link).
type nb struct {
	s float64
	y float64
}

// nbDesc orders candidates by decreasing s (ties equal), the order of
// voteMasses' sort.
func nbDesc(a, b nb) int {
	switch {
	case a.s > b.s:
		return -1
	case a.s < b.s:
		return 1
	}
	return 0
}

// topVotes returns, in buf, the k candidates with the largest s in
// decreasing order of s, as the first k of cand sorted by decreasing s
// (1 ≤ k < len(cand)), or nil when two of the k + 1 largest values of s
// are equal (in the sorted order): then which tied candidate votes, and the order of the sum,
// depend on the sort's handling of ties, and the caller sorts. Without
// ties the k largest in decreasing order are unique, so the votes equal
// the sort's to the last bit. cand is not modified. O(len(cand)·k) in the
// worst case, O(len(cand)) when most candidates are below the k-th.
func topVotes(cand, buf []nb, k int) []nb {
	buf = buf[:0]
	// buf holds the largest seen so far, decreasing, at most k + 1 of
	// them (the (k+1)-th to detect a tie at the boundary).
	// A candidate at or below the (k+1)-th cannot vote, and a tie of it
	// with the (k+1)-th does not matter; a tie at the k-th place shows in
	// buf at the end, since buf[k] only grows.
	for _, c := range cand {
		if len(buf) == k+1 && c.s <= buf[k].s {
			continue
		}
		i := len(buf)
		if i < k+1 {
			buf = append(buf, c)
		} else {
			i = k
		}
		for i > 0 && buf[i-1].s < c.s {
			buf[i] = buf[i-1]
			i--
		}
		buf[i] = c
	}
	for i := 1; i <= k; i++ {
		if buf[i].s == buf[i-1].s {
			return nil
		}
	}
	return buf[:k]
}

// VoteFilter returns the pairs of s that Vote does not find contradicted
// (agreement ≥ −Margin), in their original order, and the indices in s of
// the pairs dropped, in increasing order. With opt.Consistent it then
// breaks the remaining conflicts (see VoteOptions.Consistent); with
// opt.TwoWay it first keeps one 2-way partition's constraints. The input
// set is not modified.
//
// Breaking the conflicts in decreasing agreement matters when wrong
// must-links join classes: breaking Check's conflicts one at a time in
// the order of the pairs (each by its least agreed constraint, the
// cannot-link against one chain of must-links joining its nodes), as
// VoteFilter did before, dropped most cannot-links between the classes
// before the few wrong must-links joining them: on 2000 points in 3
// Gaussian blobs (tether gen blobs -n 2000 -seed 1, the default k-NN
// graph) with 19 990 pairs, 1999 of them flipped (constraints gen
// -protocol pairs-frac -rate 0.01 -noise 0.1 -seed 1), it dropped 14 542
// pairs, 12 738 of them right (precision 0.12, recall 0.90 of dropping
// the flipped ones); the decreasing-agreement rule drops 4340, 2495 of
// them right (precision 0.42, recall 0.92). Most of those (2898, 1675 of
// them right) go by the margin, the same before and after: the vote
// itself is not sharper than that on this graph.
//
// Cost: Vote's, plus O(m log m) time and O(n + m) memory with
// Consistent or TwoWay. On 19 990 pairs drawn like those above, the
// conflict pass takes about 2.5 ms (BenchmarkKeepConsistentBlobs2000;
// breaking Check's conflicts one at a time took about 80 s and allocated
// 65 GB) and the whole filter, nearly all of it the vote, about 0.5 s
// (BenchmarkVoteFilterBlobs2000, with VoteOptions.Neighbours). ctx is
// checked by Vote and every 4096 pairs of the TwoWay and conflict
// passes: once it is cancelled VoteFilter returns an error wrapping
// ctx.Err().
func VoteFilter(ctx context.Context, s *Set, sim func(a, b int) float64, opt VoteOptions) (out *Set, dropped []int, err error) {
	score, err := Vote(ctx, s, sim, opt)
	if err != nil {
		return nil, nil, err
	}
	if s == nil {
		s = &Set{}
	}
	margin := opt.Margin
	if margin <= 0 {
		margin = DefaultVoteMargin
	}
	if margin > 2 || math.IsNaN(margin) {
		return nil, nil, fmt.Errorf("%w: vote margin %v outside (0, 2]", ErrInvalid, opt.Margin)
	}
	drop := make([]bool, len(s.Pairs))
	for t := range s.Pairs {
		drop[t] = score[t] < -margin
	}
	if opt.TwoWay {
		if err := twoWay(ctx, s, score, drop); err != nil {
			return nil, nil, err
		}
	}
	if opt.Consistent || opt.TwoWay {
		if err := keepConsistent(ctx, s, score, drop); err != nil {
			return nil, nil, err
		}
	}
	out = &Set{N: s.N}
	for t, p := range s.Pairs {
		if drop[t] {
			dropped = append(dropped, t)
		} else {
			out.Pairs = append(out.Pairs, p)
		}
	}
	return out, dropped, nil
}

// keepConsistent drops (in drop) every kept pair of s that conflicts, as
// Check defines conflicts, with the pairs of higher agreement kept before
// it: the kept pairs are taken in decreasing score (ties in order,
// byAgreement), and one is dropped when it repeats a pair taken (either
// kind: a repeat or a contradiction), when it is a cannot-link inside a
// component of the must-links taken, or when it is a must-link joining
// two components that a cannot-link taken separates. The pairs taken are
// never dropped later, so each pair dropped still conflicts with the
// pairs kept, and the pairs kept have no conflict.
//
// The components of the must-links taken are a union–find forest (path
// halving) whose root r holds apart[r], the roots of the components that
// cannot-links taken separate from r's, each with their number: a
// must-link is checked in O(1), and a merge moves the map of the
// component with fewer cannot-link ends into the other's (renaming the
// moved root in each component it names). An end moved lands in a
// component with at least twice as many, so the merges move O(c log c)
// entries in all for c cannot-links taken. O(m log m) time with the sort
// and O(n + m) memory. It checks ctx every pollEvery pairs and
// at the end, and returns its error, wrapped, once cancelled. A set of
// more than 2³¹−1 nodes is an error wrapping ErrInvalid.
//
// The forest is its own rather than internal/unionfind's, which unions
// by size and does not let the caller choose the root that survives: the
// results would be the same (they depend on the components, not on their
// roots), but a component with many cannot-link ends merged into ever
// larger ones would move its map at every merge, O(c log n) entries: on
// BenchmarkKeepConsistentAdversarial (10⁵ cannot-links at one node, then
// 18 merges with components of doubling size) 1.9 s against 0.22 s.
func keepConsistent(ctx context.Context, s *Set, score []float64, drop []bool) error {
	if int64(s.N) > math.MaxInt32 {
		// Its forest holds nodes as int32 (half the memory of int).
		return fmt.Errorf("%w: vote filter: breaking conflicts: %d nodes, more than the %d its union–find indexes", ErrInvalid, s.N, math.MaxInt32)
	}
	order := byAgreement(s, score, drop)
	n := s.N
	parent := make([]int32, n)
	for i := range parent {
		parent[i] = int32(i)
	}
	find := func(i int32) int32 {
		for parent[i] != i {
			parent[i] = parent[parent[i]] // path halving
			i = parent[i]
		}
		return i
	}
	apart := make([]map[int32]int32, n)        // at roots: separated root → cannot-links
	taken := make(map[uint64]bool, len(order)) // unordered pairs taken, min·n + max
	ends := make([]int32, n)                   // at roots: cannot-link ends in the component
	separate := func(a, b int32) {
		if apart[a] == nil {
			apart[a] = make(map[int32]int32)
		}
		apart[a][b]++
		ends[a]++
	}
	for k, t := range order {
		if k%pollEvery == 0 {
			if err := stopped(ctx, "vote filter: breaking conflicts"); err != nil {
				return err
			}
		}
		p := s.Pairs[t]
		key := uint64(min(p.I, p.J))*uint64(n) + uint64(max(p.I, p.J))
		ri, rj := find(int32(p.I)), find(int32(p.J))
		var conflict bool
		switch {
		case taken[key]:
			conflict = true
		case p.Kind == CannotLink:
			conflict = ri == rj
		case ri != rj:
			conflict = apart[ri][rj] > 0
		}
		if conflict {
			drop[t] = true
			continue
		}
		taken[key] = true
		switch {
		case p.Kind == CannotLink:
			separate(ri, rj)
			separate(rj, ri)
		case ri != rj:
			// Move the component with fewer cannot-link ends under
			// the other.
			if ends[ri] > ends[rj] {
				ri, rj = rj, ri
			}
			parent[ri] = rj
			ends[rj] += ends[ri]
			for x, c := range apart[ri] {
				if apart[rj] == nil {
					apart[rj] = make(map[int32]int32)
				}
				apart[rj][x] += c
				apart[x][rj] += c
				delete(apart[x], ri)
			}
			apart[ri] = nil
		}
	}
	return stopped(ctx, "vote filter: breaking conflicts")
}

// byAgreement returns the indices of the pairs of s not dropped, in
// decreasing score, ties in their order in s. O(m log m).
func byAgreement(s *Set, score []float64, drop []bool) []int {
	order := make([]int, 0, len(s.Pairs))
	for t := range s.Pairs {
		if !drop[t] {
			order = append(order, t)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case score[a] > score[b]:
			return -1
		case score[a] < score[b]:
			return 1
		}
		return 0
	})
	return order
}

// twoWay drops (in drop) every kept pair of s that contradicts the pairs of
// higher agreement kept before it, for a 2-way partition: a union–find with
// parity (the side of a node relative to its root). O(m log m). It checks
// ctx every pollEvery pairs and returns its error, wrapped, once cancelled.
func twoWay(ctx context.Context, s *Set, score []float64, drop []bool) error {
	order := byAgreement(s, score, drop)
	parent := make([]int, s.N)
	parity := make([]int8, s.N) // side relative to the parent
	for i := range parent {
		parent[i] = i
	}
	var find func(i int) (root int, side int8)
	find = func(i int) (int, int8) {
		if parent[i] == i {
			return i, 0
		}
		r, p := find(parent[i])
		parent[i] = r
		parity[i] ^= p
		return r, parity[i]
	}
	for k, t := range order {
		if k%pollEvery == 0 {
			if err := stopped(ctx, "vote filter: 2-way pass"); err != nil {
				return err
			}
		}
		p := s.Pairs[t]
		want := int8(0) // must-link: same side
		if p.Kind == CannotLink {
			want = 1
		}
		ri, si := find(p.I)
		rj, sj := find(p.J)
		if ri == rj {
			if si^sj != want {
				drop[t] = true
			}
			continue
		}
		parent[ri] = rj
		parity[ri] = si ^ sj ^ want
	}
	return nil
}

// VoteWeights is the soft form of VoteFilter: instead of dropping the
// pairs the vote contradicts, it scales each pair's weight by
//
//	f(a) = clamp(1 + a/Margin, 0, 1),
//
// where a is the pair's agreement (see Vote): a pair whose neighbours
// agree with it or are split evenly (a ≥ 0) keeps its weight, one with
// a ≤ −Margin (the pairs VoteFilter drops) gets weight 0 and is left out,
// and the weight falls linearly in between. Down-weighting rather than
// dropping keeps a correct constraint that merely sits near wrong ones
// (ours, beyond the sources; issue 17).
//
// It returns the pairs kept (f > 0), in their original order, with
// Weight = f·W(), and f for every pair of s. opt.Consistent and
// opt.TwoWay are ignored (they are decisions between pairs, not weights).
// The input set is not modified. Cost: Vote's, O(m²) calls of sim. The
// error wraps ErrInvalid when s fails Validate or Margin lies outside
// (0, 2].
func VoteWeights(ctx context.Context, s *Set, sim func(a, b int) float64, opt VoteOptions) (out *Set, factor []float64, err error) {
	if factor, _, err = VoteEvidence(ctx, s, sim, opt); err != nil {
		return nil, nil, err
	}
	if s == nil {
		s = &Set{}
	}
	out = &Set{N: s.N}
	for t, p := range s.Pairs {
		if f := factor[t]; f > 0 {
			p.Weight = f * p.W()
			out.Pairs = append(out.Pairs, p)
		}
	}
	return out, factor, nil
}

// voteMargin returns opt's Margin, DefaultVoteMargin if unset, or an
// error wrapping ErrInvalid outside (0, 2].
func voteMargin(opt VoteOptions) (float64, error) {
	margin := opt.Margin
	if margin <= 0 {
		margin = DefaultVoteMargin
	}
	if margin > 2 || math.IsNaN(margin) {
		return 0, fmt.Errorf("%w: vote margin %v outside (0, 2]", ErrInvalid, opt.Margin)
	}
	return margin, nil
}

// voteFactors returns VoteWeights's f(a) = clamp(1 + a/margin, 0, 1) for
// the agreements a = num/den (0 where den = 0) of voteMasses.
func voteFactors(num, den []float64, margin float64) []float64 {
	factor := make([]float64, len(num))
	for t := range factor {
		var a float64
		if den[t] > 0 {
			a = num[t] / den[t]
		}
		factor[t] = min(1, max(0, 1+a/margin))
	}
	return factor
}

// votePlausibility returns Plausibility's (A + 1)/(A + D + 2) from
// voteMasses' num = A − D and den = A + D.
func votePlausibility(num, den []float64) []float64 {
	q := make([]float64, len(num))
	for t := range q {
		q[t] = ((den[t]+num[t])/2 + 1) / (den[t] + 2)
	}
	return q
}

// VoteEvidence returns, from one computation of the vote, the factors of
// VoteWeights (for every pair of s) and the probabilities of
// Plausibility: the same numbers as the two calls, at the cost of one
// (Vote's). Errors as VoteWeights.
func VoteEvidence(ctx context.Context, s *Set, sim func(a, b int) float64, opt VoteOptions) (factor, q []float64, err error) {
	margin, err := voteMargin(opt)
	if err != nil {
		return nil, nil, err
	}
	num, den, err := voteMasses(ctx, s, sim, opt)
	if err != nil {
		return nil, nil, err
	}
	return voteFactors(num, den, margin), votePlausibility(num, den), nil
}

// Plausibility estimates, for every pair of s, the probability that it is
// right from the constraints near it: with A and D the vote weight of the
// K pairs most similar to it (as in Vote) for its kind and for the other
// kind, it is Laplace's rule of succession
//
//	q = (A + 1) / (A + D + 2),
//
// the posterior mean of a uniform prior on the chance that a neighbouring
// pair agrees, each neighbour counting as one observation scaled by its
// similarity S ∈ [0, 1] (ours, beyond the sources; issue 17). A pair no
// other pair is similar to gets ½; one whose K neighbours are all of its
// kind at similarity 1 gets (K + 1)/(K + 2). The agreement of Vote is
// a = (A − D)/(A + D). Cost and errors as Vote.
func Plausibility(ctx context.Context, s *Set, sim func(a, b int) float64, opt VoteOptions) ([]float64, error) {
	num, den, err := voteMasses(ctx, s, sim, opt)
	if err != nil {
		return nil, err
	}
	return votePlausibility(num, den), nil
}
