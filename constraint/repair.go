package constraint

import (
	"cmp"
	"context"
	"slices"
)

// Repair returns the indices (increasing) of constraints of s to drop so
// that the rest are consistent — no cannot-link joins two nodes of one
// must-link component of the transitive closure — choosing constraints of
// small total weight (Pair.W, the confidence of each pair).
//
// Finding the lightest such set is a minimum multicut of the must-link
// graph with the cannot-links as terminal pairs, where a cannot-link may
// also be dropped itself (correlation clustering's repair of an
// inconsistent ML/CL graph; NP-hard in general: Garg, Vazirani &
// Yannakakis 1996, Bansal, Blum & Chawla 2004). Repair works one
// contradiction at a time, which is exact for a single one:
//
//  1. Take the contradicted cannot-link (a, b) of largest weight (ties:
//     first in s). Compute a minimum a–b cut C of the must-links of the
//     component holding a and b, each must-link an undirected edge of
//     capacity W (Edmonds–Karp max-flow; parallel must-links add); S is
//     a's side of it.
//  2. Dropping C resolves every contradicted cannot-link with one end in
//     S and the other in the rest of the component, (a, b) among them.
//     If C weighs less than those cannot-links together, drop C;
//     otherwise (ties included) drop (a, b) alone.
//  3. Repeat until no cannot-link lies inside a component; then restore
//     every dropped constraint, heaviest first, whose return leaves the
//     set consistent, so no dropped constraint is superfluous.
//
// Step 2 weighs the cut against all it resolves, not against (a, b)
// alone: when a few wrong must-links join two classes that many
// cannot-links separate, dropping those cannot-links one by one, each
// lighter than the cut, would cost far more than the cut.
//
// When only one cannot-link contradicts the must-links the dropped weight
// is the minimum, min(W_cl, min cut); with several it is a feasible,
// inclusion-minimal set, not always the lightest. Repeated pairs count
// separately, and a pair given as both a must-link and a cannot-link is
// a contradiction like any other. Weight-0 pairs weigh 1 (Pair.W).
//
// Cost: O(m·α(n)) per contradiction resolved to find it, plus the
// max-flow on its component, O(V·E²) at worst for V nodes and E
// must-links there (a few augmenting paths in practice), plus O(d·m) for
// the restore pass over d dropped pairs; O(n + m) memory. The worst
// case measured, 15 000 pairs with 10% flipped and no screening before
// (one component, 2937 pairs dropped), takes about 6.5 s
// (BenchmarkRepair15k); ctx is checked between contradictions, each a
// few milliseconds there. The error wraps ErrInvalid when s fails
// Validate, or is ctx.Err() when ctx ends first.
func Repair(ctx context.Context, s *Set) ([]int, error) {
	if s == nil {
		return nil, nil
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	m := len(s.Pairs)
	drop := make([]bool, m)
	uf := newUnionFind(s.N)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		comp := s.mustLinkComponents(drop, uf)
		worst := -1
		for t, p := range s.Pairs {
			if drop[t] || p.Kind != CannotLink || comp[p.I] != comp[p.J] {
				continue
			}
			if worst < 0 || p.W() > s.Pairs[worst].W() {
				worst = t
			}
		}
		if worst < 0 {
			break
		}
		cl := s.Pairs[worst]
		cut, weight, side := s.minMustLinkCut(drop, comp, cl.I, cl.J)
		var resolved float64
		for t, p := range s.Pairs {
			if !drop[t] && p.Kind == CannotLink && comp[p.I] == comp[cl.I] && comp[p.J] == comp[cl.I] && side[p.I] != side[p.J] {
				resolved += p.W()
			}
		}
		if weight < resolved {
			for _, t := range cut {
				drop[t] = true
			}
		} else {
			drop[worst] = true
		}
	}
	// Restore pass: heaviest first (ties: first in s).
	var dropped []int
	for t := range drop {
		if drop[t] {
			dropped = append(dropped, t)
		}
	}
	slices.SortStableFunc(dropped, func(a, b int) int { return cmp.Compare(s.Pairs[b].W(), s.Pairs[a].W()) })
	for _, t := range dropped {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		drop[t] = false
		if !s.consistentWithout(drop, uf) {
			drop[t] = true
		}
	}
	var out []int
	for t := range drop {
		if drop[t] {
			out = append(out, t)
		}
	}
	return out, nil
}

// unionFind is a disjoint-set forest with path halving.
type unionFind []int

func newUnionFind(n int) unionFind { return make(unionFind, n) }

func (u unionFind) reset() {
	for i := range u {
		u[i] = i
	}
}

func (u unionFind) find(i int) int {
	for u[i] != i {
		u[i] = u[u[i]]
		i = u[i]
	}
	return i
}

// mustLinkComponents returns the root of each node's component under the
// must-links of s not dropped (uf is the work space). O(n + m·α(n)).
func (s *Set) mustLinkComponents(drop []bool, uf unionFind) []int {
	uf.reset()
	for t, p := range s.Pairs {
		if !drop[t] && p.Kind == MustLink {
			if a, b := uf.find(p.I), uf.find(p.J); a != b {
				uf[a] = b
			}
		}
	}
	root := make([]int, len(uf))
	for i := range uf {
		root[i] = uf.find(i)
	}
	return root
}

// consistentWithout reports whether no kept cannot-link of s lies inside
// a component of the kept must-links.
func (s *Set) consistentWithout(drop []bool, uf unionFind) bool {
	comp := s.mustLinkComponents(drop, uf)
	for t, p := range s.Pairs {
		if !drop[t] && p.Kind == CannotLink && comp[p.I] == comp[p.J] {
			return false
		}
	}
	return true
}

// minMustLinkCut returns a minimum a–b cut of the kept must-links inside
// the component of a and b (comp: component roots), as indices into
// s.Pairs, its weight, and the side of every node (true: a's side S, the
// nodes reachable from a in the residual graph; false elsewhere):
// Edmonds–Karp on the component's must-link graph, every must-link two
// opposite arcs of capacity W, then the must-links leaving S.
func (s *Set) minMustLinkCut(drop []bool, comp []int, a, b int) ([]int, float64, []bool) {
	root := comp[a]
	local := map[int]int{}
	id := func(i int) int {
		if x, ok := local[i]; ok {
			return x
		}
		local[i] = len(local)
		return len(local) - 1
	}
	type arc struct {
		to, rev int
		cap     float64
		pair    int // the must-link's index in s.Pairs
	}
	var adj [][]arc
	grow := func(v int) {
		for len(adj) <= v {
			adj = append(adj, nil)
		}
	}
	src, dst := id(a), id(b)
	grow(max(src, dst))
	for t, p := range s.Pairs {
		if drop[t] || p.Kind != MustLink || comp[p.I] != root {
			continue
		}
		u, v := id(p.I), id(p.J)
		grow(max(u, v))
		w := p.W()
		adj[u] = append(adj[u], arc{to: v, rev: len(adj[v]), cap: w, pair: t})
		adj[v] = append(adj[v], arc{to: u, rev: len(adj[u]) - 1, cap: w, pair: t})
	}
	nv := len(adj)
	prevNode := make([]int, nv)
	prevArc := make([]int, nv)
	// reach marks the nodes reachable from src in the residual graph
	// (BFS); it returns whether dst was reached.
	reach := func() bool {
		for i := range prevNode {
			prevNode[i] = -1
		}
		prevNode[src] = src
		queue := []int{src}
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			for k, e := range adj[u] {
				if e.cap > 0 && prevNode[e.to] < 0 {
					prevNode[e.to], prevArc[e.to] = u, k
					if e.to == dst {
						return true
					}
					queue = append(queue, e.to)
				}
			}
		}
		return false
	}
	for reach() {
		f := adj[prevNode[dst]][prevArc[dst]].cap
		for v := dst; v != src; v = prevNode[v] {
			f = min(f, adj[prevNode[v]][prevArc[v]].cap)
		}
		for v := dst; v != src; v = prevNode[v] {
			e := &adj[prevNode[v]][prevArc[v]]
			e.cap -= f
			adj[e.to][e.rev].cap += f
		}
	}
	// prevNode ≥ 0 now marks the source side of a minimum cut.
	var cut []int
	var weight float64
	for u := range adj {
		if prevNode[u] < 0 {
			continue
		}
		for _, e := range adj[u] {
			if prevNode[e.to] < 0 {
				cut = append(cut, e.pair)
				weight += s.Pairs[e.pair].W()
			}
		}
	}
	side := make([]bool, s.N)
	for i, u := range local {
		side[i] = prevNode[u] >= 0
	}
	slices.Sort(cut)
	return slices.Compact(cut), weight, side
}
