package constraint

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomConflicts returns m random pairs on n nodes (repeats and both
// kinds on one pair included when n is small), scores drawn from levels
// values in [−1, 1] (many ties when levels is small; levels = 0: any
// value), and about a fifth of the pairs dropped beforehand.
func randomConflicts(rng *rand.Rand, n, m, levels int) (s *Set, score []float64, drop []bool) {
	s = &Set{N: n}
	score = make([]float64, m)
	drop = make([]bool, m)
	for t := range m {
		i := rng.IntN(n)
		j := (i + 1 + rng.IntN(n-1)) % n
		kind := MustLink
		if rng.IntN(2) == 0 {
			kind = CannotLink
		}
		s.Pairs = append(s.Pairs, Pair{I: i, J: j, Kind: kind})
		if levels > 0 {
			score[t] = -1 + 2*float64(rng.IntN(levels))/float64(max(1, levels-1))
		} else {
			score[t] = 2*rng.Float64() - 1
		}
		drop[t] = rng.IntN(5) == 0
	}
	return s, score, drop
}

// sameConflictPass runs keepConsistent and the oracles on copies of drop
// and reports the first difference ("" when none). The word-for-word
// oracle (Check per pair) runs when check is set.
func sameConflictPass(s *Set, score []float64, drop []bool, check bool) string {
	fast := slices.Clone(drop)
	if err := keepConsistent(context.Background(), s, score, fast); err != nil {
		return err.Error()
	}
	scan := slices.Clone(drop)
	keepConsistentScan(s, score, scan)
	if !slices.Equal(fast, scan) {
		return fmt.Sprintf("keepConsistent drops %v, the scan %v", dropIndices(fast), dropIndices(scan))
	}
	if check {
		byCheck := slices.Clone(drop)
		keepConsistentCheck(s, score, byCheck)
		if !slices.Equal(fast, byCheck) {
			return fmt.Sprintf("keepConsistent drops %v, Check pair by pair %v", dropIndices(fast), dropIndices(byCheck))
		}
	}
	return ""
}

func dropIndices(drop []bool) []int {
	var out []int
	for t, d := range drop {
		if d {
			out = append(out, t)
		}
	}
	return out
}

// TestKeepConsistentSameAsOracles: the conflict pass drops the same
// pairs as the scan it replaced and as the rule applied word for word
// (Check on the pairs kept so far plus each pair), on seeded random sets
// over a size ladder, with tied and distinct scores.
func TestKeepConsistentSameAsOracles(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 17))
	cases := 0
	for _, n := range []int{2, 3, 5, 10, 30, 100, 1000} {
		for _, m := range []int{0, 1, 2, 5, 20, 100, 400, 3000} {
			for _, levels := range []int{1, 3, 0} {
				for rep := range 6 {
					if m > 400 && rep > 1 {
						continue
					}
					s, score, drop := randomConflicts(rng, n, m, levels)
					if diff := sameConflictPass(s, score, drop, m <= 100); diff != "" {
						t.Fatalf("n=%d m=%d levels=%d rep=%d: %s", n, m, levels, rep, diff)
					}
					cases++
				}
			}
		}
	}
	t.Logf("%d random sets", cases)
}

// TestVoteFilterSameAsOracle: VoteFilter drops the same pairs as the
// vote, the margin and TwoWay's pass followed by the scan conflict pass
// (keepConsistentScan), on noisy sets with each option.
func TestVoteFilterSameAsOracle(t *testing.T) {
	for _, tc := range []struct {
		n, m, k int
		flip    float64
		opt     VoteOptions
	}{
		{60, 150, 3, 0.1, VoteOptions{Consistent: true}},
		{100, 300, 3, 0.2, VoteOptions{Consistent: true, K: 3, Margin: 1.9}},
		{300, 1500, 3, 0.1, VoteOptions{Consistent: true}},
		{300, 1500, 2, 0.2, VoteOptions{TwoWay: true}},
		{300, 1500, 4, 0.3, VoteOptions{Consistent: true, Margin: 2}},
		{1000, 5000, 5, 0.1, VoteOptions{Consistent: true, K: 20}},
	} {
		for seed := range uint64(5) {
			name := fmt.Sprintf("n=%d m=%d k=%d flip=%v %+v seed=%d", tc.n, tc.m, tc.k, tc.flip, tc.opt, seed)
			s, sim, neighbours := noisyBand(t, tc.n, tc.m, tc.k, tc.flip, seed)
			opt := tc.opt
			opt.Neighbours = neighbours
			_, got, err := VoteFilter(context.Background(), s, sim, opt)
			if err != nil {
				t.Fatal(err)
			}
			want, err := voteFilterWith(s, sim, opt, keepConsistentScan)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: dropped %d pairs, the oracle %d: %v, want %v", name, len(got), len(want), got, want)
			}
		}
	}
}

// FuzzKeepConsistent compares the conflict pass with both oracles on
// sets the fuzzer writes: each 3 bytes a pair (its nodes, and its kind,
// score level and whether it is dropped beforehand).
func FuzzKeepConsistent(f *testing.F) {
	f.Add(uint8(4), []byte{0, 2, 0x10, 0, 1, 0x31, 2, 3, 0x31, 1, 2, 0x21, 1, 3, 0x30})
	f.Add(uint8(2), []byte{0, 1, 0x01, 1, 0, 0x01, 0, 1, 0x00})
	f.Add(uint8(10), []byte{0, 1, 1, 1, 2, 1, 2, 3, 1, 0, 3, 0x40, 4, 5, 0x81, 5, 0, 0x90})
	f.Fuzz(func(t *testing.T, nodes uint8, data []byte) {
		n := int(nodes%40) + 2
		if len(data) > 3*300 {
			data = data[:3*300]
		}
		s := &Set{N: n}
		var score []float64
		var drop []bool
		for b := 0; b+3 <= len(data); b += 3 {
			i, j := int(data[b])%n, int(data[b+1])%n
			if i == j {
				j = (j + 1) % n
			}
			kind := MustLink
			if data[b+2]&1 != 0 {
				kind = CannotLink
			}
			s.Pairs = append(s.Pairs, Pair{I: i, J: j, Kind: kind})
			score = append(score, float64(data[b+2]>>2&15)/15*2-1)
			drop = append(drop, data[b+2]&2 != 0)
		}
		if diff := sameConflictPass(s, score, drop, true); diff != "" {
			t.Fatalf("%v, scores %v, dropped before %v: %s", s.Pairs, score, dropIndices(drop), diff)
		}
	})
}
