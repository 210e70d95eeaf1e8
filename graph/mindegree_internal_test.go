package graph

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMinDegreeOrderArena checks that the order does not depend on the
// arena's size at first (mdStore.addElement): with none or one value,
// the arena is regrown many times; with n values, compacted in place
// many times; MinDegreeOrder's, of nnz + n values, is regrown at most
// once. Random graphs from a few edges to nearly complete.
func TestMinDegreeOrderArena(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(31, 32))
	for trial := 0; trial < 30; trial++ {
		n := 2 + rng.IntN(300)
		var edges []Edge
		for k := rng.IntN(n * (1 + rng.IntN(n/2+1))); k > 0; k-- {
			edges = append(edges, Edge{I: rng.IntN(n), J: rng.IntN(n), W: 1})
		}
		g, err := FromEdges(n, edges)
		if err != nil {
			t.Fatal(err)
		}
		want, err := g.MinDegreeOrder(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, arena := range []int{0, 1, n} {
			got, err := g.minDegreeOrder(ctx, arena)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d (%d nodes, %d edges): order with an arena of %d differs", trial, n, len(edges), arena)
			}
		}
	}
}
