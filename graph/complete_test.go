package graph

import "testing"

// TestComplete checks Graph.Complete against the pairs written out: every
// pair of distinct nodes joined, self loops or not, is complete; one pair
// missing, or fewer than two nodes, is not.
func TestComplete(t *testing.T) {
	all := func(n int, loops bool, skip [2]int) []Edge {
		var e []Edge
		for i := range n {
			for j := i; j < n; j++ {
				if (i == j && !loops) || (i == skip[0] && j == skip[1]) {
					continue
				}
				e = append(e, Edge{I: i, J: j, W: 1})
			}
		}
		return e
	}
	none := [2]int{-1, -1}
	for _, tc := range []struct {
		name  string
		n     int
		edges []Edge
		want  bool
	}{
		{"K4", 4, all(4, false, none), true},
		{"K4 with self loops", 4, all(4, true, none), true},
		{"K4 less one pair", 4, all(4, false, [2]int{1, 3}), false},
		{"K4 less one pair, self loops", 4, all(4, true, [2]int{0, 2}), false},
		{"K2", 2, all(2, false, none), true},
		{"one node", 1, nil, false},
		{"one node with a loop", 1, all(1, true, none), false},
		{"no edges", 3, nil, false},
	} {
		g, err := FromEdges(tc.n, tc.edges)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := g.Complete(); got != tc.want {
			t.Errorf("%s: Complete() = %v, want %v", tc.name, got, tc.want)
		}
	}
}
