package constraint

import (
	"fmt"
	"slices"

	"github.com/tether-sc/tether/internal/unionfind"
)

// checkPair panics with a package message on a pair outside the set.
func checkPair(fn string, s *Set, k int, p Pair) {
	if p.I < 0 || p.I >= s.N || p.J < 0 || p.J >= s.N {
		panic(fmt.Sprintf("constraint: %s: pair %d (%d,%d) outside [0,%d); call Validate first", fn, k, p.I, p.J, s.N))
	}
}

// Closure returns the transitive closure of the must-links of s as a
// partition of the s.N nodes (seed 000 §4.1.3 and Alg. 8 line 2; SPEC §5):
// comp[i] is the component of node i, components numbered 0…count−1 in the
// order of their smallest node, and two nodes share a component exactly
// when a chain of must-links joins them. A node touched by no must-link is
// a singleton component. Cannot-links and weights are ignored.
//
// It uses union–find with union by size and path halving instead of the
// O(n³) Warshall algorithm the thesis mentions: O(n + m·α(n)) for m pairs.
// A nil s gives no nodes. It panics if a pair is outside [0, s.N); sets from
// this package's readers and generators are valid.
func Closure(s *Set) (comp []int, count int) {
	if s == nil {
		return nil, 0
	}
	u := unionfind.New(s.N)
	for k, p := range s.Pairs {
		if p.Kind == MustLink {
			checkPair("Closure", s, k, p)
			u.Union(p.I, p.J)
		}
	}
	return u.Labels()
}

// PartialLabels converts pairwise constraints to partial labels through the
// must-link closure, where that is defined (seed 000 §4.2, first step of
// ML-NOA-SSC): the nodes of each closure component with at least two nodes
// get one label, numbered 0…count−1 in the order of the components' smallest
// nodes; nodes touched by no must-link are Unlabeled. Cannot-links are
// ignored. Cost and panics as Closure.
func PartialLabels(s *Set) (l Labels, count int) {
	comp, nc := Closure(s)
	size := make([]int, nc)
	for _, c := range comp {
		size[c]++
	}
	id := make([]int, nc)
	for c := range id {
		id[c] = Unlabeled
	}
	l = make(Labels, len(comp))
	for i, c := range comp {
		if size[c] < 2 {
			l[i] = Unlabeled
			continue
		}
		if id[c] == Unlabeled {
			id[c] = count
			count++
		}
		l[i] = id[c]
	}
	return l, count
}

// ComponentCannotLinks lifts the cannot-links of s to the components comp
// of the must-link closure (as returned by Closure): it returns the distinct
// component pairs {a, b}, a < b, joined by at least one cannot-link, sorted.
// These are the implied constraints "no node of a with any node of b" that
// MCL-NOA-SSC (seed 000 Alg. 9) uses to zero W^m_ab. Cannot-links inside one
// component are contradictions (see Check) and are skipped. Cost
// O(m log m) for m cannot-links. It panics if len(comp) ≠ s.N or a pair is
// outside [0, s.N).
func ComponentCannotLinks(s *Set, comp []int) [][2]int {
	if s == nil {
		return nil
	}
	if len(comp) != s.N {
		panic(fmt.Sprintf("constraint: ComponentCannotLinks: %d components for %d nodes", len(comp), s.N))
	}
	var out [][2]int
	for k, p := range s.Pairs {
		if p.Kind != CannotLink {
			continue
		}
		checkPair("ComponentCannotLinks", s, k, p)
		a, b := comp[p.I], comp[p.J]
		if a == b {
			continue
		}
		out = append(out, [2]int{min(a, b), max(a, b)})
	}
	slices.SortFunc(out, func(x, y [2]int) int {
		if x[0] != y[0] {
			return x[0] - y[0]
		}
		return x[1] - y[1]
	})
	return slices.Compact(out)
}
