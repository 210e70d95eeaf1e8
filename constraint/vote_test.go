package constraint

import (
	"context"
	"errors"
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
	got, err := Vote(context.Background(), s, sim, VoteOptions{})
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
	if out, dropped, err := VoteFilter(context.Background(), clean, sim, VoteOptions{}); err != nil || len(dropped) != 0 || len(out.Pairs) != len(clean.Pairs) {
		t.Fatalf("clean set: dropped %v (err %v)", dropped, err)
	}
	noisy, flipped, err := FlipPairs(clean, 0.1, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	if len(flipped) < 3 {
		t.Fatalf("only %d flipped of %d", len(flipped), len(clean.Pairs))
	}
	out, dropped, err := VoteFilter(context.Background(), noisy, sim, VoteOptions{})
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
		out, dropped, err := VoteFilter(context.Background(), noisy, sim, VoteOptions{Consistent: true, K: 3, Margin: 1.9})
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
	if _, dropped, _ := VoteFilter(context.Background(), clean, sim, VoteOptions{TwoWay: true}); len(dropped) != 0 {
		t.Errorf("clean set: dropped %v", dropped)
	}
	for seed := range uint64(5) {
		noisy, _, err := FlipPairs(clean, 0.3, rand.NewPCG(seed, 3))
		if err != nil {
			t.Fatal(err)
		}
		out, _, err := VoteFilter(context.Background(), noisy, sim, VoteOptions{TwoWay: true, K: 3, Margin: 1.9})
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
		out, dropped, err := VoteFilter(context.Background(), s, sim, VoteOptions{})
		if err != nil || len(dropped) != 0 {
			t.Errorf("%v: dropped %v, err %v", s, dropped, err)
		}
		if s != nil && len(out.Pairs) != len(s.Pairs) {
			t.Errorf("%v: kept %d", s, len(out.Pairs))
		}
	}
	if _, _, err := VoteFilter(context.Background(), &Set{N: 2}, sim, VoteOptions{Margin: 3}); err == nil {
		t.Error("margin 3 accepted")
	}
	if _, err := Vote(context.Background(), &Set{N: 1, Pairs: []Pair{{I: 0, J: 3}}}, sim, VoteOptions{}); err == nil {
		t.Error("invalid set accepted")
	}
}

func TestVoteWeightsHandComputed(t *testing.T) {
	// TestVoteHandComputed's three pairs, agreements −1, 0.1/0.9, 0.3/0.7
	// (computed by hand there); the first pair weighs 2. f(a) = clamp(1 +
	// a/Margin, 0, 1).
	w := map[[2]int]float64{{0, 1}: 0.5, {0, 2}: 0.2, {1, 2}: 0.4}
	sim := func(a, b int) float64 { return w[[2]int{min(a, b), max(a, b)}] }
	s := &Set{N: 3, Pairs: []Pair{{I: 0, J: 1, Kind: MustLink, Weight: 2}, {I: 0, J: 2, Kind: CannotLink}, {I: 1, J: 2, Kind: CannotLink}}}
	for _, tc := range []struct {
		margin     float64
		wantFactor []float64
		wantWeight []float64 // weights of the kept pairs, in order
	}{
		// Margin 0.5 (default): a = −1 gives 0, the pair is left out.
		{0, []float64{0, 1, 1}, []float64{1, 1}},
		// Margin 2: f = 1 − 1/2 = 0.5 for the first pair, weight 2·0.5.
		{2, []float64{0.5, 1, 1}, []float64{1, 1, 1}},
		// Margin 1.25: f = 1 − 1/1.25 = 0.2, weight 0.4.
		{1.25, []float64{0.2, 1, 1}, []float64{0.4, 1, 1}},
	} {
		out, f, err := VoteWeights(context.Background(), s, sim, VoteOptions{Margin: tc.margin})
		if err != nil {
			t.Fatal(err)
		}
		for i := range tc.wantFactor {
			if math.Abs(f[i]-tc.wantFactor[i]) > 1e-12 {
				t.Errorf("margin %v: factor[%d] = %v, want %v", tc.margin, i, f[i], tc.wantFactor[i])
			}
		}
		if len(out.Pairs) != len(tc.wantWeight) {
			t.Fatalf("margin %v: kept %d pairs, want %d", tc.margin, len(out.Pairs), len(tc.wantWeight))
		}
		for i, p := range out.Pairs {
			if math.Abs(p.W()-tc.wantWeight[i]) > 1e-12 {
				t.Errorf("margin %v: kept pair %d weighs %v, want %v", tc.margin, i, p.W(), tc.wantWeight[i])
			}
		}
	}
	if s.Pairs[0].Weight != 2 {
		t.Error("input set modified")
	}
	if _, _, err := VoteWeights(context.Background(), s, sim, VoteOptions{Margin: 2.5}); err == nil {
		t.Error("margin 2.5 accepted")
	}
}

func TestVoteWeightsMatchesFilter(t *testing.T) {
	// The pairs VoteWeights leaves out are those VoteFilter drops (no pair
	// of the toy has agreement exactly −Margin), and the flipped pairs are
	// among them; on the clean set every weight stays 1.
	_, sim, clean := voteToy(t)
	out, f, err := VoteWeights(context.Background(), clean, sim, VoteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Pairs) != len(clean.Pairs) || slices.ContainsFunc(f, func(x float64) bool { return x != 1 }) {
		t.Errorf("clean set: factors %v", f)
	}
	noisy, flipped, err := FlipPairs(clean, 0.1, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	_, f, err = VoteWeights(context.Background(), noisy, sim, VoteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, dropped, err := VoteFilter(context.Background(), noisy, sim, VoteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var zero []int
	for t, x := range f {
		if x == 0 {
			zero = append(zero, t)
		}
	}
	if !slices.Equal(zero, dropped) {
		t.Errorf("weight 0 for %v, VoteFilter drops %v", zero, dropped)
	}
	for _, t0 := range flipped {
		if f[t0] != 0 {
			t.Errorf("flipped pair %d keeps factor %v", t0, f[t0])
		}
	}
}

// VoteEvidence gives exactly VoteWeights' factors and Plausibility's
// probabilities, with and without Neighbours and for several margins, and
// refuses a margin out of range as VoteWeights does.
func TestVoteEvidenceMatchesBoth(t *testing.T) {
	_, sim, clean := voteToy(t)
	noisy, _, err := FlipPairs(clean, 0.2, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range []VoteOptions{{}, {Margin: 0.25}, {Margin: 2, K: 3}} {
		f, q, err := VoteEvidence(context.Background(), noisy, sim, opt)
		if err != nil {
			t.Fatal(err)
		}
		_, wf, err := VoteWeights(context.Background(), noisy, sim, opt)
		if err != nil {
			t.Fatal(err)
		}
		wq, err := Plausibility(context.Background(), noisy, sim, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(f, wf) || !slices.Equal(q, wq) {
			t.Errorf("%+v: VoteEvidence differs from VoteWeights/Plausibility", opt)
		}
		// VoteWeights now reads its factors from VoteEvidence, so check
		// them against the documented f = clamp(1 + a/margin, 0, 1) on
		// Vote's agreements a, written out here.
		a, err := Vote(context.Background(), noisy, sim, opt)
		if err != nil {
			t.Fatal(err)
		}
		margin := opt.Margin
		if margin == 0 {
			margin = DefaultVoteMargin
		}
		for i := range a {
			if want := math.Min(1, math.Max(0, 1+a[i]/margin)); f[i] != want {
				t.Errorf("%+v: pair %d factor %v, want clamp(1 + %v/%v) = %v", opt, i, f[i], a[i], margin, want)
			}
		}
	}
	if _, _, err := VoteEvidence(context.Background(), noisy, sim, VoteOptions{Margin: 3}); !errors.Is(err, ErrInvalid) {
		t.Errorf("margin 3: err %v, want ErrInvalid", err)
	}
}

// topVotes against the full sort it replaces: on random candidates with
// and without ties, either it reports a tie (nil) or its votes are the
// first k of the sorted candidates, element for element; and it reports
// a tie exactly when two of the k + 1 largest values are equal.
func TestTopVotesMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ties, exact := 0, 0
	for trial := 0; trial < 3000; trial++ {
		m := 2 + rng.IntN(60)
		k := 1 + rng.IntN(m-1)
		levels := 1 + rng.IntN(2*m) // few levels: many ties
		cand := make([]nb, m)
		for i := range cand {
			cand[i] = nb{s: float64(1+rng.IntN(levels)) / float64(levels), y: float64(1 - 2*rng.IntN(2))}
		}
		orig := slices.Clone(cand)
		got := topVotes(cand, make([]nb, 0, k+1), k)
		if !slices.Equal(cand, orig) {
			t.Fatal("topVotes modified its input")
		}
		sorted := slices.Clone(cand)
		slices.SortFunc(sorted, nbDesc)
		distinct := true
		for i := 1; i <= k; i++ {
			distinct = distinct && sorted[i].s != sorted[i-1].s
		}
		if got == nil {
			ties++
			if distinct {
				t.Fatalf("trial %d: tie reported, but the %d largest are distinct: %v", trial, k+1, sorted[:k+1])
			}
			continue
		}
		exact++
		if !distinct {
			t.Fatalf("trial %d: no tie reported, but the %d largest are %v", trial, k+1, sorted[:k+1])
		}
		if !slices.Equal(got, sorted[:k]) {
			t.Fatalf("trial %d: votes %v, sort's %v", trial, got, sorted[:k])
		}
	}
	if ties == 0 || exact == 0 {
		t.Errorf("the test exercised ties %d and exact %d times; both should occur", ties, exact)
	}
}

// A cancelled context stops the vote: every entry point returns ctx.Err().
func TestVoteCancelled(t *testing.T) {
	s := &Set{N: 50}
	for i := 0; i+1 < 50; i++ {
		s.Pairs = append(s.Pairs, Pair{I: i, J: i + 1, Kind: MustLink})
	}
	sim := func(a, b int) float64 { return 0.5 }
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Vote(ctx, s, sim, VoteOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Vote: %v, want context.Canceled", err)
	}
	if _, _, err := VoteFilter(ctx, s, sim, VoteOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("VoteFilter: %v, want context.Canceled", err)
	}
	if _, _, err := VoteWeights(ctx, s, sim, VoteOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("VoteWeights: %v, want context.Canceled", err)
	}
	if _, _, err := VoteEvidence(ctx, s, sim, VoteOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("VoteEvidence: %v, want context.Canceled", err)
	}
	if _, err := Plausibility(ctx, s, sim, VoteOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Plausibility: %v, want context.Canceled", err)
	}
}
