package graph

import (
	"slices"
	"testing"
)

func TestSmallComponentAndCore(t *testing.T) {
	// comps builds a graph of n nodes whose components are the given
	// consecutive runs of nodes (paths); nodes after the runs are isolated.
	comps := func(n int, runs ...int) *Graph {
		var edges []Edge
		start := 0
		for _, r := range runs {
			for i := start; i+1 < start+r; i++ {
				edges = append(edges, Edge{I: i, J: i + 1, W: 1})
			}
			start += r
		}
		g, err := FromEdges(n, edges)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	span := func(a, b int) []int { // a…b−1
		var s []int
		for i := a; i < b; i++ {
			s = append(s, i)
		}
		return s
	}
	for _, tc := range []struct {
		name string
		g    *Graph
		k    int
		want []int
	}{
		// n = 24, k = 2: components below 24/8 = 3 nodes are small.
		{"isolated and a pair", comps(24, 10, 10, 2), 2, span(0, 20)},
		{"component of exactly n/(4k)", comps(24, 10, 11, 3), 2, span(0, 24)},
		{"connected", comps(5, 5), 2, span(0, 5)},
		// n = 7, k = 2: n/(4k) < 1, but an isolated node is always small.
		{"tiny graph, isolated node", comps(7, 3, 3), 2, span(0, 6)},
		// k unknown: only isolated nodes are small.
		{"k = 0", comps(24, 20, 2), 0, span(0, 22)},
		// Every component small (10 pieces of 3 for k = 2, n/(4k) = 3.75):
		// the core falls back to the components of two nodes or more.
		{"all small", comps(31, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3), 2, span(0, 30)},
		// A node whose only edge is a self loop is a component of one, out
		// of the fallback although its degree is 1 (review 130: the doc
		// said "every node of degree > 0"). n = 40, k = 2: components
		// below 5 nodes are small; {0} with a loop, {1,2}, {3,4}, and 35
		// isolated nodes: the fallback is 1…4.
		{"self loop alone", withLoop(t, 40, 0, 1, 2, 3, 4), 2, span(1, 5)},
		// Review 130's example: {0} with a loop, {1,2}, {3} isolated, k =
		// 3: the fallback {1,2} has fewer than 3 nodes, so every node.
		{"self loop, fallback too small", withLoop(t, 4, 0, 1, 2), 3, span(0, 4)},
		// No edges: fewer than k linked nodes, every node.
		{"no edges", comps(4), 2, span(0, 4)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Core(tc.g, tc.k); !slices.Equal(got, tc.want) {
				t.Errorf("Core = %v, want %v", got, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		size, n, k int
		want       bool
	}{
		{1, 4, 8, true}, {2, 24, 2, true}, {3, 24, 2, false}, {2, 1000, 0, false}, {1, 1000, 0, true},
	} {
		if got := SmallComponent(tc.size, tc.n, tc.k); got != tc.want {
			t.Errorf("SmallComponent(%d, %d, %d) = %v", tc.size, tc.n, tc.k, got)
		}
	}
}

// withLoop returns the graph on n nodes with a self loop on node loop and
// edges (pairs[0], pairs[1]), (pairs[2], pairs[3]), … of weight 1.
func withLoop(t *testing.T, n, loop int, pairs ...int) *Graph {
	t.Helper()
	edges := []Edge{{I: loop, J: loop, W: 1}}
	for p := 0; p+1 < len(pairs); p += 2 {
		edges = append(edges, Edge{I: pairs[p], J: pairs[p+1], W: 1})
	}
	h, err := FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
