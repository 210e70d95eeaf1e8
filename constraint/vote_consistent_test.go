package constraint

import (
	"context"
	"fmt"
	"slices"
	"testing"
)

// TestKeepConsistentHand: the conflict pass of VoteFilter on hand-set
// agreements, the dropped pairs worked out by hand from the rule (take
// the pairs in decreasing agreement, ties in order; drop each one that
// conflicts with those taken before it).
func TestKeepConsistentHand(t *testing.T) {
	ml := func(i, j int) Pair { return Pair{I: i, J: j, Kind: MustLink} }
	cl := func(i, j int) Pair { return Pair{I: i, J: j, Kind: CannotLink} }
	for _, tc := range []struct {
		name  string
		n     int
		pairs []Pair
		score []float64
		pre   []int // dropped before the pass (by the margin)
		want  []int
	}{
		{
			// Classes {0, 1} and {2, 3} joined by a wrong must-link 1–2.
			// Order: ML 0–1, ML 2–3 (0.9), CL 1–3 (0.8), ML 1–2 (0.5:
			// joins 1 and 3, which CL 1–3 separates: dropped), CL 0–2
			// (0.2: 0 and 2 are apart, kept). Breaking Check's conflicts
			// one at a time in the order of the cannot-links dropped CL
			// 0–2 first (below its chain 0–1–2's least, 0.5), then ML
			// 1–2 for CL 1–3, which also resolved CL 0–2's conflict.
			name:  "bridge",
			n:     4,
			pairs: []Pair{cl(0, 2), ml(0, 1), ml(2, 3), ml(1, 2), cl(1, 3)},
			score: []float64{0.2, 0.9, 0.9, 0.5, 0.8},
			want:  []int{3},
		},
		{
			// Two wrong must-links 1–2 and 0–3 join the classes; the
			// cannot-links between them outweigh both.
			name:  "two bridges",
			n:     4,
			pairs: []Pair{cl(0, 2), ml(0, 1), ml(2, 3), ml(1, 2), cl(1, 3), ml(0, 3)},
			score: []float64{0.3, 0.9, 0.9, 0.2, 0.8, 0.1},
			want:  []int{3, 5},
		},
		{
			// A cannot-link below its chain: dropped, the chain kept.
			name:  "cannot-link in a component",
			n:     3,
			pairs: []Pair{ml(0, 1), ml(1, 2), cl(2, 0)},
			score: []float64{0.5, 0.4, -0.1},
			want:  []int{2},
		},
		{
			// A repeat with equal agreement: the later one is dropped.
			name:  "repeat",
			n:     2,
			pairs: []Pair{ml(0, 1), ml(1, 0)},
			score: []float64{0.5, 0.5},
			want:  []int{1},
		},
		{
			// Both kinds on one pair: the less agreed goes, whichever
			// comes first.
			name:  "contradiction",
			n:     3,
			pairs: []Pair{ml(0, 1), cl(1, 0), cl(0, 2), ml(2, 0)},
			score: []float64{0.1, 0.6, 0.7, 0.2},
			want:  []int{0, 3},
		},
		{
			// A pair dropped before the pass takes no part: the chain
			// 0–1–2 has lost ML 1–2, so CL 0–2 stays.
			name:  "margin drops",
			n:     3,
			pairs: []Pair{ml(0, 1), ml(1, 2), cl(0, 2)},
			score: []float64{0.9, -0.9, 0.1},
			pre:   []int{1},
			want:  []int{1},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Set{N: tc.n, Pairs: tc.pairs}
			drop := make([]bool, len(tc.pairs))
			for _, t := range tc.pre {
				drop[t] = true
			}
			if err := keepConsistent(context.Background(), s, tc.score, drop); err != nil {
				t.Fatal(err)
			}
			var got []int
			for t, d := range drop {
				if d {
					got = append(got, t)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("dropped %v, want %v", got, tc.want)
			}
		})
	}
}

// TestVoteFilterConsistentMaximal: on noisy sets, the pairs VoteFilter's
// Consistent pass drops (those it keeps without Consistent) each conflict
// with the pairs it keeps — returning any one of them alone makes Check
// report a conflict — and the pairs kept have none. Breaking Check's
// conflicts one at a time in the order of the pairs dropped pairs whose
// conflicts later drops resolved.
func TestVoteFilterConsistentMaximal(t *testing.T) {
	for _, tc := range []struct {
		n, m int
		flip float64
		opt  VoteOptions
	}{
		{60, 150, 0.1, VoteOptions{Consistent: true}},
		{100, 300, 0.2, VoteOptions{Consistent: true}},
		{100, 300, 0.3, VoteOptions{Consistent: true, K: 3, Margin: 1.9}},
		{200, 600, 0.1, VoteOptions{Consistent: true, K: 5}},
	} {
		for seed := range uint64(4) {
			t.Run(fmt.Sprintf("n=%d m=%d flip=%v seed=%d", tc.n, tc.m, tc.flip, seed), func(t *testing.T) {
				s, sim, neighbours := noisyBand(t, tc.n, tc.m, 3, tc.flip, seed)
				opt := tc.opt
				opt.Neighbours = neighbours
				margin := opt
				margin.Consistent = false
				_, pre, err := VoteFilter(context.Background(), s, sim, margin)
				if err != nil {
					t.Fatal(err)
				}
				out, dropped, err := VoteFilter(context.Background(), s, sim, opt)
				if err != nil {
					t.Fatal(err)
				}
				if rep := Check(out); !rep.OK() {
					t.Fatalf("%d conflicts kept: %v", len(rep.Conflicts), rep.Conflicts[0])
				}
				superfluous := 0
				for _, u := range dropped {
					if _, ok := slices.BinarySearch(pre, u); ok {
						continue
					}
					back := &Set{N: out.N, Pairs: append(slices.Clone(out.Pairs), s.Pairs[u])}
					if Check(back).OK() {
						superfluous++
					}
				}
				if superfluous > 0 {
					t.Errorf("%d of the %d pairs dropped for conflicts conflict with none kept", superfluous, len(dropped)-len(pre))
				}
			})
		}
	}
}

// noisyBand returns m uniform pairs on n nodes in k classes of
// consecutive nodes, a fraction flip of them flipped, and a band
// similarity (nodes within 3 of each other, decreasing with distance)
// with its neighbour lists (VoteOptions.Neighbours): a noisy set the vote
// sees part of.
func noisyBand(t testing.TB, n, m, k int, flip float64, seed uint64) (s *Set, sim func(a, b int) float64, neighbours func(a int) []int32) {
	t.Helper()
	truth := make([]int, n)
	for i := range truth {
		truth[i] = i * k / n
	}
	s, err := UniformPairs(truth, m, pcg(seed))
	if err != nil {
		t.Fatal(err)
	}
	if s, _, err = FlipPairs(s, flip, pcg(seed+1000)); err != nil {
		t.Fatal(err)
	}
	sim = func(a, b int) float64 {
		if d := max(a-b, b-a); d <= 3 {
			return 1 - float64(d)/4
		}
		return 0
	}
	neighbours = func(a int) []int32 {
		var out []int32
		for b := max(0, a-3); b <= min(n-1, a+3); b++ {
			out = append(out, int32(b))
		}
		return out
	}
	return s, sim, neighbours
}
