package cluster

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// voteSimCase is a sparse weighted graph of n nodes in three groups:
// each node linked to a few random others, more often in its group,
// weights in (0, 3], some self loops (which twoStepSim must ignore).
func voteSimCase(t *testing.T, n int, seed uint64) (*graph.Graph, []int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	truth := make([]int, n)
	for i := range truth {
		truth[i] = i % 3
	}
	var edges []graph.Edge
	for i := 0; i < n; i++ {
		for e := 0; e < 3; e++ {
			j := rng.IntN(n)
			if rng.Float64() < 0.7 {
				j = (j/3)*3 + truth[i]
				if j >= n {
					j -= 3
				}
			}
			if j != i {
				edges = append(edges, graph.Edge{I: i, J: j, W: 3 * (1 - rng.Float64())})
			}
		}
		if i%7 == 0 {
			edges = append(edges, graph.Edge{I: i, J: i, W: 5})
		}
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g, truth
}

// twoStepSim equals the dense product (Ŵ + I)² with Ŵ = max(W, 0)/max(1,
// max off-diagonal W) (diagonal 0), divided by its largest off-diagonal
// entry, computed with gonum; its neighbour lists are sorted and hold
// exactly the nodes within two edges.
func TestTwoStepSimMatchesDense(t *testing.T) {
	for _, tc := range []struct {
		n    int
		seed uint64
	}{{12, 1}, {40, 2}, {90, 3}} {
		g, _ := voteSimCase(t, tc.n, tc.seed)
		n := tc.n
		a := mat.NewDense(n, n, nil)
		scale := 1.0
		for _, e := range g.Edges() {
			if e.I != e.J {
				scale = math.Max(scale, e.W)
			}
		}
		for _, e := range g.Edges() {
			if e.I != e.J {
				a.Set(e.I, e.J, math.Max(0, e.W)/scale)
				a.Set(e.J, e.I, math.Max(0, e.W)/scale)
			}
		}
		for i := 0; i < n; i++ {
			a.Set(i, i, 1)
		}
		var s2 mat.Dense
		s2.Mul(a, a)
		top := 0.0
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if i != j {
					top = math.Max(top, s2.At(i, j))
				}
			}
		}
		sim, nbr := twoStepSim(g)
		const tol = 1e-12
		for i := 0; i < n; i++ {
			row := nbr(i)
			if !slices.IsSorted(row) {
				t.Fatalf("n=%d: row %d not sorted: %v", n, i, row)
			}
			var want []int32
			for j := 0; j < n; j++ {
				if s2.At(i, j) > 0 {
					want = append(want, int32(j))
				}
				if i == j {
					continue
				}
				if got, w := sim(i, j), s2.At(i, j)/top; math.Abs(got-w) > tol {
					t.Fatalf("n=%d: S(%d, %d) = %.15g, want %.15g", n, i, j, got, w)
				}
			}
			if !slices.Equal(row, want) {
				t.Fatalf("n=%d: neighbours of %d = %v, want %v", n, i, row, want)
			}
		}
	}
}

// The vote's similarity is the graph's on a dense graph whatever the
// hops, and the graph's on any graph with one hop; with two hops on a
// sparse graph it is twoStepSim's, and the votes then differ (the case
// has pairs that no other pair is similar to at one step). VoteHopsAct
// counts rows without self loops, against a quarter of the other nodes.
func TestVoteSimilarityChoice(t *testing.T) {
	g, truth := voteSimCase(t, 90, 4)
	set := refineCVNoisyPairs(truth, 120, 0.1, 5)
	votes := func(sim func(a, b int) float64, nbr func(a int) []int32) []float64 {
		f, _, err := constraint.VoteEvidence(context.Background(), set, sim, constraint.VoteOptions{Neighbours: nbr})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	one := votes(graphSim(g))
	if got := votes(voteSimilarity(g, 1)); !slices.Equal(got, one) {
		t.Errorf("one hop: votes differ from graphSim's")
	}
	two := votes(voteSimilarity(g, 2))
	if want := votes(twoStepSim(g)); !slices.Equal(two, want) {
		t.Errorf("two hops: votes differ from twoStepSim's")
	}
	if slices.Equal(two, one) {
		t.Errorf("two hops on a sparse graph: the same votes as one hop")
	}
	// A complete graph: the hops do not matter.
	var full []graph.Edge
	for i := 0; i < 30; i++ {
		for j := i + 1; j < 30; j++ {
			full = append(full, graph.Edge{I: i, J: j, W: math.Exp(-float64((i-j)*(i-j)) / 50)})
		}
	}
	complete, err := graph.FromEdges(30, full)
	if err != nil {
		t.Fatal(err)
	}
	small := refineCVNoisyPairs(truth[:30], 40, 0.1, 6)
	var vs [2][]float64
	for h := range vs {
		sim, nb := voteSimilarity(complete, h+1)
		f, _, err := constraint.VoteEvidence(context.Background(), small, sim, constraint.VoteOptions{Neighbours: nb})
		if err != nil {
			t.Fatal(err)
		}
		vs[h] = f
	}
	v1, v2 := vs[0], vs[1]
	if !slices.Equal(v1, v2) {
		t.Errorf("complete graph: two hops changed the votes")
	}
	// A path 0–1–…–(n−1): 2(n−1) row entries against n(n−1)/4, sparse
	// from n = 9 on; with self loops on every node, the same.
	for _, tc := range []struct {
		n     int
		loops bool
		want  bool
	}{{7, false, false}, {8, false, true}, {8, true, true}, {7, true, false}, {2, false, false}, {1, false, false}} {
		var e []graph.Edge
		for i := 0; i+1 < tc.n; i++ {
			e = append(e, graph.Edge{I: i, J: i + 1, W: 1})
		}
		if tc.loops {
			for i := 0; i < tc.n; i++ {
				e = append(e, graph.Edge{I: i, J: i, W: 1})
			}
		}
		p, err := graph.FromEdges(tc.n, e)
		if err != nil {
			t.Fatal(err)
		}
		if got := VoteHopsAct(p); got != tc.want {
			t.Errorf("path of %d nodes (self loops %v): VoteHopsAct = %v, want %v", tc.n, tc.loops, got, tc.want)
		}
	}
}

// VoteHops changes nothing on consistent pairs (the resolve does not
// act), 0 means the default, and a value outside [0, 2] is refused with
// ErrInvalid.
func TestVoteHopsKnob(t *testing.T) {
	g, truth := voteSimCase(t, 90, 4)
	noisy := refineCVNoisyPairs(truth, 120, 0.15, 7)
	if consistentPairs(noisy) {
		t.Fatal("the case's noisy pairs are consistent")
	}
	var clean constraint.Set
	clean.N = noisy.N
	for _, p := range noisy.Pairs {
		if (truth[p.I] == truth[p.J]) == (p.Kind == constraint.MustLink) {
			clean.Pairs = append(clean.Pairs, p)
		}
	}
	ctx := context.Background()
	run := func(m Method, set *constraint.Set) []int {
		res, err := Run(ctx, m, &Problem{Graph: g, K: 3, Constraints: set}, &Settings{Seed: 1, Restarts: 3})
		if err != nil {
			t.Fatal(err)
		}
		return res.Labels
	}
	fixed := MCLNOASSC{RefineFixed: true, ReferenceFixed: true, Reference: ReferenceNone}
	two := fixed
	two.VoteHops = 2
	if !slices.Equal(run(fixed, &clean), run(two, &clean)) {
		t.Errorf("consistent pairs: VoteHops changed the answer")
	}
	def := fixed
	def.VoteHops = VoteHopsDefault
	if !slices.Equal(run(fixed, noisy), run(def, noisy)) {
		t.Errorf("VoteHops 0 and VoteHopsDefault = %d differ", VoteHopsDefault)
	}
	for _, bad := range []int{-1, 3} {
		m := MCLNOASSC{VoteHops: bad}
		_, err := Run(ctx, m, &Problem{Graph: g, K: 3, Constraints: noisy}, &Settings{Seed: 1})
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("VoteHops %d: err = %v, want ErrInvalid", bad, err)
		}
	}
}
