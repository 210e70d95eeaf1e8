package constraint

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// voteToy is two well-separated groups of 20 points on a line (0…1.9 and
// 10…11.9), a Gaussian similarity, and every pair drawn with probability
// 0.15 labelled by the groups.
func voteToy(t *testing.T) (truth []int, sim func(a, b int) float64, clean *Set) {
	t.Helper()
	n := 40
	x := make([]float64, n)
	truth = make([]int, n)
	for i := range n {
		if i < 20 {
			x[i] = 0.1 * float64(i)
		} else {
			truth[i] = 1
			x[i] = 10 + 0.1*float64(i-20)
		}
	}
	sim = func(a, b int) float64 { d := x[a] - x[b]; return math.Exp(-d * d / 2) }
	clean, err := BernoulliPairs(truth, 0.15, rand.NewPCG(7, 7))
	if err != nil {
		t.Fatal(err)
	}
	return truth, sim, clean
}

func TestVoteHandComputed(t *testing.T) {
	// Three nodes; sim(0,1) = 0.5, sim(0,2) = 0.2, sim(1,2) = 0.4.
	w := map[[2]int]float64{{0, 1}: 0.5, {0, 2}: 0.2, {1, 2}: 0.4}
	sim := func(a, b int) float64 { return w[[2]int{min(a, b), max(a, b)}] }
	s := &Set{N: 3, Pairs: []Pair{{I: 0, J: 1, Kind: MustLink}, {I: 0, J: 2, Kind: CannotLink}, {I: 1, J: 2, Kind: CannotLink}}}
	got, err := Vote(s, sim, VoteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Pair (0,1) vs (0,2): max(1·sim(1,2), sim(0,2)·sim(1,0)) = max(0.4, 0.1) = 0.4;
	// vs (1,2): max(sim(0,1)·sim(1,2), sim(0,2)·1) = max(0.2, 0.2) = 0.2.
	// Both vote −1: agreement of the must-link = −1.
	// Pair (0,2) vs (0,1): 0.4, +1; vs (1,2): max(sim(0,1)·1, sim(0,2)·sim(2,1)) = 0.5, −1.
	// Sum S·y = 0.4 − 0.5 = −0.1, ΣS = 0.9; cannot-link: a = +0.1/0.9.
	// Pair (1,2) vs (0,1): max(sim(1,0)·sim(2,1), 1·sim(2,0)) = 0.2, +1; vs (0,2): 0.5, −1.
	// Σ = 0.2 − 0.5 = −0.3, ΣS = 0.7; a = 0.3/0.7.
	want := []float64{-1, 0.1 / 0.9, 0.3 / 0.7}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Errorf("agreement[%d] = %.15g, want %.15g", i, got[i], want[i])
		}
	}
}

func TestVoteFilterFindsFlipped(t *testing.T) {
	// A few flipped constraints among clean ones: VoteFilter drops exactly
	// those, and on the clean set it drops nothing (no cost without noise).
	truth, sim, clean := voteToy(t)
	if out, dropped, err := VoteFilter(clean, sim, VoteOptions{}); err != nil || len(dropped) != 0 || len(out.Pairs) != len(clean.Pairs) {
		t.Fatalf("clean set: dropped %v (err %v)", dropped, err)
	}
	noisy, flipped, err := FlipPairs(clean, 0.1, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	if len(flipped) < 3 {
		t.Fatalf("only %d flipped of %d", len(flipped), len(clean.Pairs))
	}
	out, dropped, err := VoteFilter(noisy, sim, VoteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(dropped, flipped) {
		t.Errorf("dropped %v, flipped %v", dropped, flipped)
	}
	for _, p := range out.Pairs {
		if (truth[p.I] == truth[p.J]) != (p.Kind == MustLink) {
			t.Errorf("kept wrong pair %+v", p)
		}
	}
}

func TestVoteFilterConsistent(t *testing.T) {
	// With 30% flipped the vote leaves conflicts for some draws; Consistent
	// must remove every one of them and keep most pairs.
	_, sim, clean := voteToy(t)
	for seed := range uint64(5) {
		noisy, _, err := FlipPairs(clean, 0.3, rand.NewPCG(seed, 2))
		if err != nil {
			t.Fatal(err)
		}
		out, dropped, err := VoteFilter(noisy, sim, VoteOptions{Consistent: true, K: 3, Margin: 1.9})
		if err != nil {
			t.Fatal(err)
		}
		if rep := Check(out); !rep.OK() {
			t.Errorf("seed %d: %d conflicts left", seed, len(rep.Conflicts))
		}
		if len(out.Pairs)+len(dropped) != len(noisy.Pairs) {
			t.Errorf("seed %d: %d kept + %d dropped ≠ %d", seed, len(out.Pairs), len(dropped), len(noisy.Pairs))
		}
	}
}

func TestVoteFilterTwoWay(t *testing.T) {
	// With 30% flipped, the kept pairs must be satisfiable by one 2-way
	// partition: 2-colour the nodes along the kept pairs (breadth first)
	// and check every pair. On the clean set nothing is dropped.
	_, sim, clean := voteToy(t)
	if _, dropped, _ := VoteFilter(clean, sim, VoteOptions{TwoWay: true}); len(dropped) != 0 {
		t.Errorf("clean set: dropped %v", dropped)
	}
	for seed := range uint64(5) {
		noisy, _, err := FlipPairs(clean, 0.3, rand.NewPCG(seed, 3))
		if err != nil {
			t.Fatal(err)
		}
		out, _, err := VoteFilter(noisy, sim, VoteOptions{TwoWay: true, K: 3, Margin: 1.9})
		if err != nil {
			t.Fatal(err)
		}
		adj := make([][]Pair, out.N)
		for _, p := range out.Pairs {
			adj[p.I] = append(adj[p.I], p)
			adj[p.J] = append(adj[p.J], p)
		}
		side := make([]int, out.N)
		for i := range side {
			side[i] = -1
		}
		for s0 := range out.N {
			if side[s0] >= 0 {
				continue
			}
			side[s0] = 0
			queue := []int{s0}
			for len(queue) > 0 {
				u := queue[0]
				queue = queue[1:]
				for _, p := range adj[u] {
					v := p.I + p.J - u
					want := side[u]
					if p.Kind == CannotLink {
						want = 1 - want
					}
					if side[v] < 0 {
						side[v] = want
						queue = append(queue, v)
					}
				}
			}
		}
		for _, p := range out.Pairs {
			if (side[p.I] == side[p.J]) != (p.Kind == MustLink) {
				t.Errorf("seed %d: kept pair %+v violated by every 2-way partition", seed, p)
			}
		}
		if len(out.Pairs) < len(noisy.Pairs)/2 {
			t.Errorf("seed %d: kept only %d of %d", seed, len(out.Pairs), len(noisy.Pairs))
		}
	}
}

func TestVoteEdgeCases(t *testing.T) {
	sim := func(a, b int) float64 { return 0 }
	// Empty and one-pair sets: no votes, agreement 0, nothing dropped.
	for _, s := range []*Set{nil, {N: 2}, {N: 2, Pairs: []Pair{{I: 0, J: 1, Kind: CannotLink}}}} {
		out, dropped, err := VoteFilter(s, sim, VoteOptions{})
		if err != nil || len(dropped) != 0 {
			t.Errorf("%v: dropped %v, err %v", s, dropped, err)
		}
		if s != nil && len(out.Pairs) != len(s.Pairs) {
			t.Errorf("%v: kept %d", s, len(out.Pairs))
		}
	}
	if _, _, err := VoteFilter(&Set{N: 2}, sim, VoteOptions{Margin: 3}); err == nil {
		t.Error("margin 3 accepted")
	}
	if _, err := Vote(&Set{N: 1, Pairs: []Pair{{I: 0, J: 3}}}, sim, VoteOptions{}); err == nil {
		t.Error("invalid set accepted")
	}
}
