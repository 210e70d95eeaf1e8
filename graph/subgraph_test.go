package graph

import (
	"math/rand/v2"
	"testing"
)

// TestSubgraphMatchesBruteForce checks Subgraph on both of its paths (a
// position table for large node sets, a map for small ones) against the
// induced weights read pair by pair with Weight, nodes in shuffled order
// and self loops included.
func TestSubgraphMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	const n = 200
	var edges []Edge
	for e := 0; e < 800; e++ {
		edges = append(edges, Edge{I: rng.IntN(n), J: rng.IntN(n), W: 0.5 + rng.Float64()})
	}
	g, err := FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{1, 5, 12, 13, 60, 200} { // 16·12 < 200 ≤ 16·13: both paths
		perm := rng.Perm(n)[:size]
		h, err := g.Subgraph(perm)
		if err != nil {
			t.Fatal(err)
		}
		if h.N() != size {
			t.Fatalf("size %d: subgraph has %d nodes", size, h.N())
		}
		for a := 0; a < size; a++ {
			for b := 0; b < size; b++ {
				if got, want := h.Weight(a, b), g.Weight(perm[a], perm[b]); got != want {
					t.Fatalf("size %d: W[%d,%d] = %v, want %v", size, a, b, got, want)
				}
			}
		}
	}
	if _, err := g.Subgraph([]int{0, n}); err == nil {
		t.Error("node n accepted")
	}
}
