package constraint

import (
	"container/heap"
	"context"
)

// Contract returns the indices (increasing) of constraints of s to drop
// so that the rest are consistent, found by correlation clustering of the
// constraint graph instead of one contradiction at a time (Repair): every
// must-link (i, j) attracts i and j with its weight W, every cannot-link
// repels them with −W (Pair.W, the confidence of each pair; parallel pairs
// add), and greedy additive edge contraction (GAEC; Keuper, Levinkov,
// Bonneel, Lavoué, Brox and Andres 2015, §3.1) joins the nodes into
// groups: starting from singletons, it repeatedly merges the two groups
// whose total weight between them is the largest, as long as it is
// positive (ties: the pair of smallest group ids, so the result is
// deterministic). The dropped constraints are the must-links between two
// groups and the cannot-links inside one: the must-link closure of the
// rest is exactly the groups.
//
// When s is consistent (no cannot-link joins two nodes of one must-link
// component) nothing is dropped, whatever the weights: inside a component
// every pair of groups that a must-link joins has a positive weight (no
// cannot-link lies inside), so the contraction merges the whole
// component, and two components are joined by cannot-links only. Contract
// then returns at once. Otherwise a group is merged against the
// cannot-links between the two sides as a whole: a wrong must-link
// between two classes that many cannot-links separate is outweighed,
// where Repair, taking one cannot-link at a time, may cut correct
// must-links at a leaf instead. It is the usual heuristic for this
// NP-hard problem (minimum-weight disagreement correlation clustering,
// Bansal, Blum and Chawla 2004), with no guarantee of the optimum.
//
// Cost: O(n + m·α(n)) to test consistency; when s is not consistent,
// O(n + m·log n·log m) time for m pairs (a group's neighbour weights move
// into the other's only when it has fewer nodes, so each entry moves at
// most log₂ n times, each move a heap push), O(n + m·log n) memory for the
// heap of candidate merges. ctx is checked every 1024 merges. The error wraps ErrInvalid
// when s fails Validate, or is ctx.Err().
func Contract(ctx context.Context, s *Set) ([]int, error) {
	if s == nil {
		return nil, nil
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if s.consistentWithout(make([]bool, len(s.Pairs)), newUnionFind(s.N)) {
		return nil, nil
	}
	// adj[a] holds the total weight from group a to each neighbouring
	// group, for every group a that is its own root.
	adj := make([]map[int]float64, s.N)
	for _, p := range s.Pairs {
		w := p.W()
		if p.Kind == CannotLink {
			w = -w
		}
		for _, e := range [2][2]int{{p.I, p.J}, {p.J, p.I}} {
			if adj[e[0]] == nil {
				adj[e[0]] = map[int]float64{}
			}
			adj[e[0]][e[1]] += w
		}
	}
	h := &contractHeap{}
	for a, nb := range adj {
		for b, w := range nb {
			if a < b && w > 0 {
				h.items = append(h.items, contractItem{w, a, b})
			}
		}
	}
	heap.Init(h)
	parent := make([]int, s.N) // group of each node: a root of the forest
	size := make([]int, s.N)
	for i := range parent {
		parent[i], size[i] = i, 1
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for merges := 0; h.Len() > 0; {
		it := heap.Pop(h).(contractItem)
		a, b := it.a, it.b
		// Stale entries: a group merged since, or a weight changed.
		if parent[a] != a || parent[b] != b || adj[a][b] != it.w {
			continue
		}
		if merges++; merges%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		big, small := a, b
		if size[small] > size[big] || (size[small] == size[big] && small < big) {
			big, small = small, big
		}
		parent[small] = big
		size[big] += size[small]
		delete(adj[big], small)
		for c, w := range adj[small] {
			if c == big {
				continue
			}
			delete(adj[c], small)
			adj[big][c] += w
			adj[c][big] = adj[big][c]
			if v := adj[big][c]; v > 0 {
				heap.Push(h, contractItem{v, min(big, c), max(big, c)})
			}
		}
		adj[small] = nil
	}
	var drop []int
	for t, p := range s.Pairs {
		same := find(p.I) == find(p.J)
		if same == (p.Kind == CannotLink) {
			drop = append(drop, t)
		}
	}
	return drop, nil
}

// contractItem is a candidate merge of groups a < b with total weight w.
type contractItem struct {
	w    float64
	a, b int
}

// contractHeap is a max-heap of candidate merges by weight, ties by the
// smallest (a, b).
type contractHeap struct{ items []contractItem }

func (h *contractHeap) Len() int { return len(h.items) }
func (h *contractHeap) Less(i, j int) bool {
	x, y := h.items[i], h.items[j]
	if x.w != y.w {
		return x.w > y.w
	}
	if x.a != y.a {
		return x.a < y.a
	}
	return x.b < y.b
}
func (h *contractHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *contractHeap) Push(x any)    { h.items = append(h.items, x.(contractItem)) }
func (h *contractHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}
