package input

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// voteGraph returns a random graph of n nodes in k groups (node i in group
// i mod k): each node links to deg random others, of its own group with
// probability 0.8, with weights uniform in (0, 1]; and the groups.
func voteGraph(t testing.TB, rng *rand.Rand, n, k, deg int) (*graph.Graph, []int) {
	truth := make([]int, n)
	for i := range truth {
		truth[i] = i % k
	}
	var edges []graph.Edge
	for i := range n {
		for range deg {
			j := rng.IntN(n)
			if rng.Float64() < 0.8 {
				j = (j/k)*k + truth[i]
				if j >= n {
					j -= k
				}
			}
			if j != i && j >= 0 {
				edges = append(edges, graph.Edge{I: i, J: j, W: 1 - rng.Float64()})
			}
		}
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g, truth
}

// voteSet returns m distinct pairs labelled by truth, a share flip of them
// with the wrong kind.
func voteSet(t testing.TB, truth []int, m int, flip float64, seed uint64) *constraint.Set {
	s, err := constraint.UniformPairs(truth, m, rand.NewPCG(seed, 1))
	if err != nil {
		t.Fatal(err)
	}
	s, _, err = constraint.FlipPairs(s, flip, rand.NewPCG(seed, 2))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// voteFilterAllPairs is VoteFilter as it was: the node similarity alone
// (no neighbour lists), so Vote compares every pair with every other, in
// O(m²) similarity look-ups. The reference the sparse path must equal.
func voteFilterAllPairs(g *graph.Graph, set *constraint.Set, k int) (*constraint.Set, error) {
	wmax := 0.0
	for i := range g.N() {
		_, w := g.Row(i)
		for _, x := range w {
			wmax = max(wmax, x)
		}
	}
	sim := func(a, b int) float64 { return g.Weight(a, b) / wmax }
	out, _, err := constraint.VoteFilter(context.Background(), set, sim, constraint.VoteOptions{Consistent: true, TwoWay: k == 2})
	return out, err
}

// TestVoteFilterNeighbours: VoteFilter (the graph's rows as the vote's
// neighbours) keeps exactly the pairs the all-pairs vote keeps, on random
// graphs with 0–30% flipped constraints, for k = 2 (TwoWay) and 3.
func TestVoteFilterNeighbours(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, tc := range []struct{ n, k, deg, m int }{
		{5, 2, 2, 4}, {10, 2, 3, 20}, {30, 3, 4, 60}, {100, 2, 5, 200}, {300, 3, 6, 400}, {300, 5, 3, 300},
	} {
		for _, flip := range []float64{0, 0.1, 0.3} {
			g, truth := voteGraph(t, rng, tc.n, tc.k, tc.deg)
			set := voteSet(t, truth, tc.m, flip, uint64(tc.n))
			want, err := voteFilterAllPairs(g, set, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			got, err := VoteFilter(context.Background(), g, set, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("n=%d k=%d flip=%v: kept %d pairs, the all-pairs vote %d (or others)", tc.n, tc.k, flip, len(got.Pairs), len(want.Pairs))
			}
		}
	}
}

var sinkVote *constraint.Set

// BenchmarkVoteFilter filters 2000 constraints, 10% flipped, on a random
// graph of 5000 nodes in 3 groups (about 10 neighbours each).
func BenchmarkVoteFilter(b *testing.B) {
	rng := rand.New(rand.NewPCG(31, 32))
	g, truth := voteGraph(b, rng, 5000, 3, 5)
	set := voteSet(b, truth, 2000, 0.1, 33)
	b.ReportAllocs()
	for b.Loop() {
		out, err := VoteFilter(context.Background(), g, set, 3)
		if err != nil {
			b.Fatal(err)
		}
		sinkVote = out
	}
}
