package constraint

import (
	"context"
	"testing"

	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
)

// voteSink keeps the benchmarks' results alive.
var voteSink []int

// BenchmarkVoteFilterBlobs2000: VoteFilter as tether cluster
// -vote-filter runs it (input.VoteFilter: the graph's weights scaled to
// [0, 1] as the similarity, its rows as the neighbours, Consistent) on
// 2000 points in 3 Gaussian blobs (synth.Blobs, std 1, in 2 dimensions)
// with the default k-NN graph, and 1% of the node pairs (19 990), a tenth
// of them flipped. Breaking the conflicts one Check at a time took about
// a minute here; taking the pairs in decreasing agreement, most of the
// time is the vote's.
func BenchmarkVoteFilterBlobs2000(b *testing.B) {
	s, sim, neighbours := blobsVoteInput(b, 2000, 3, 0.01, 0.1, 1)
	opt := VoteOptions{Consistent: true, Neighbours: neighbours}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		_, dropped, err := VoteFilter(context.Background(), s, sim, opt)
		if err != nil {
			b.Fatal(err)
		}
		voteSink = dropped
	}
}

// blobsVoteInput returns a fraction rate of the node pairs of n points in
// k Gaussian blobs (synth.Blobs, std 1, 2 dimensions), a fraction flip of
// them flipped, the default k-NN graph's weights scaled to [0, 1] as the
// similarity and its rows as the neighbours, as input.VoteFilter passes
// them.
func blobsVoteInput(tb testing.TB, n, k int, rate, flip float64, seed uint64) (s *Set, sim func(a, b int) float64, neighbours func(a int) []int32) {
	tb.Helper()
	x, truth, err := synth.Blobs(n, k, 2, 1, pcg(seed))
	if err != nil {
		tb.Fatal(err)
	}
	g, err := graph.Build(context.Background(), x, graph.DefaultSpec())
	if err != nil {
		tb.Fatal(err)
	}
	if s, err = FractionPairs(truth, rate, pcg(seed+1)); err != nil {
		tb.Fatal(err)
	}
	if s, _, err = FlipPairs(s, flip, pcg(seed+2)); err != nil {
		tb.Fatal(err)
	}
	sim, neighbours = graphSimilarity(g)
	return s, sim, neighbours
}

// BenchmarkKeepConsistentBlobs2000: VoteFilter's conflict pass alone on
// BenchmarkVoteFilterBlobs2000's pairs (the vote and the margin done
// outside the timer): keepConsistent, and the scan of every cannot-link
// taken for each must-link (keepConsistentScan) that it replaced.
func BenchmarkKeepConsistentBlobs2000(b *testing.B) {
	s, sim, neighbours := blobsVoteInput(b, 2000, 3, 0.01, 0.1, 1)
	score, err := Vote(context.Background(), s, sim, VoteOptions{Neighbours: neighbours})
	if err != nil {
		b.Fatal(err)
	}
	pre := make([]bool, len(s.Pairs))
	for t := range pre {
		pre[t] = score[t] < -DefaultVoteMargin
	}
	for _, bc := range []struct {
		name string
		pass func(s *Set, score []float64, drop []bool)
	}{
		{"maps", func(s *Set, score []float64, drop []bool) {
			if err := keepConsistent(context.Background(), s, score, drop); err != nil {
				b.Fatal(err)
			}
		}},
		{"scan", keepConsistentScan},
	} {
		b.Run(bc.name, func(b *testing.B) {
			drop := make([]bool, len(pre))
			b.ReportAllocs()
			for range b.N {
				copy(drop, pre)
				bc.pass(s, score, drop)
			}
			voteSink = dropIndices(drop)
		})
	}
}

// keepConsistentAdversarialSet is the worst case of a forest that unions
// by size for keepConsistent's map moves: node 0 takes c cannot-links to
// c singletons, then must-links merge it with components of 1, 2, 4, …,
// 2^(levels−1) nodes (built first, by must-links from their first
// node), each as large as the component of node 0 so far and given
// first. The scores take the pairs in their order. keepConsistent, which
// keeps the root with more cannot-link ends, moves only the empty maps
// of the new components; a forest by size would move node 0's c entries
// at each of the levels merges.
func keepConsistentAdversarialSet(c, levels int) (*Set, []float64) {
	var pairs []Pair
	next := 1
	for range c {
		pairs = append(pairs, Pair{I: 0, J: next, Kind: CannotLink})
		next++
	}
	var heads []int
	for k := range levels {
		size := 1 << k
		head := next
		for i := 1; i < size; i++ {
			pairs = append(pairs, Pair{I: head, J: head + i, Kind: MustLink})
		}
		next += size
		heads = append(heads, head)
	}
	for _, h := range heads {
		pairs = append(pairs, Pair{I: h, J: 0, Kind: MustLink})
	}
	score := make([]float64, len(pairs))
	for i := range score {
		score[i] = float64(len(pairs) - i)
	}
	return &Set{N: next, Pairs: pairs}, score
}

// BenchmarkKeepConsistentAdversarial: keepConsistent on
// keepConsistentAdversarialSet(10⁵, 18) (see keepConsistent on why it
// keeps its own forest).
func BenchmarkKeepConsistentAdversarial(b *testing.B) {
	s, score := keepConsistentAdversarialSet(100000, 18)
	drop := make([]bool, len(s.Pairs))
	b.ReportAllocs()
	for range b.N {
		clear(drop)
		if err := keepConsistent(context.Background(), s, score, drop); err != nil {
			b.Fatal(err)
		}
	}
}
