package cluster

import (
	"testing"

	"github.com/tether-sc/tether/graph"
)

// bridgedCliques returns two cliques of size nodes each, 0…size−1 and
// size…2·size−1, with unit weights inside, joined by the one edge 0–size
// of weight bridge (0: no edge, two components). It fails t if
// graph.FromEdges refuses the graph (size < 0, a negative, NaN or
// infinite bridge). Cost O(size²).
func bridgedCliques(t testing.TB, size int, bridge float64) *graph.Graph {
	t.Helper()
	var edges []graph.Edge
	for c := 0; c < 2; c++ {
		for i := 0; i < size; i++ {
			for j := i + 1; j < size; j++ {
				edges = append(edges, graph.Edge{I: c*size + i, J: c*size + j, W: 1})
			}
		}
	}
	if bridge != 0 {
		edges = append(edges, graph.Edge{I: 0, J: size, W: bridge})
	}
	g, err := graph.FromEdges(2*size, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
