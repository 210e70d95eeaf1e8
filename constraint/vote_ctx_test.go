package constraint

import (
	"context"
	"errors"
	"testing"

	"github.com/tether-sc/tether/internal/testctx"
)

// TestVoteFilterContextAfterVote: VoteFilter checks its context after the
// vote too — in the TwoWay pass and the conflict pass (every 4096 pairs,
// and at the conflict pass's end) — so a context cancelled at any check
// after the vote's last one (the first three and the last three tried)
// stops it with an error wrapping context.Canceled (the conflict loop and
// the TwoWay pass once checked none: a cancelled filter ran to the end).
func TestVoteFilterContextAfterVote(t *testing.T) {
	band := func(a, b int) float64 { // nodes within 2 of each other are similar
		if d := a - b; d >= -2 && d <= 2 {
			return 1
		}
		return 0
	}
	for _, tc := range []struct {
		name    string
		n, m    int
		flip    float64
		opt     VoteOptions
		atLeast int // checks after the vote's, at least
	}{
		// 6000 consistent pairs: the TwoWay pass checks at pairs 0 and
		// 4096, the conflict pass at pair 0 and at its end.
		{"TwoWay", 3000, 6000, 0, VoteOptions{TwoWay: true}, 3},
		// 20% flipped: several conflicts to break; the conflict pass
		// checks at pair 0 and at its end.
		{"Consistent", 100, 200, 0.2, VoteOptions{Consistent: true}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			truth := make([]int, tc.n)
			for i := range truth {
				truth[i] = i * 2 / tc.n
			}
			s, err := UniformPairs(truth, tc.m, pcg(9))
			if err != nil {
				t.Fatal(err)
			}
			if s, _, err = FlipPairs(s, tc.flip, pcg(10)); err != nil {
				t.Fatal(err)
			}
			opt := tc.opt
			opt.Neighbours = func(a int) []int32 {
				var out []int32
				for b := max(0, a-2); b <= min(tc.n-1, a+2); b++ {
					out = append(out, int32(b))
				}
				return out
			}
			voteCount := &countingCtx{Context: context.Background()}
			if _, err := Vote(voteCount, s, band, opt); err != nil {
				t.Fatal(err)
			}
			all := &countingCtx{Context: context.Background()}
			if _, _, err := VoteFilter(all, s, band, opt); err != nil {
				t.Fatal(err)
			}
			if all.n < voteCount.n+tc.atLeast {
				t.Fatalf("VoteFilter checks its context %d times, the vote %d: want at least %d after the vote", all.n, voteCount.n, tc.atLeast)
			}
			// The first three checks after the vote's and the last three.
			var at []int
			for c := voteCount.n; c < all.n; c++ {
				if c < voteCount.n+3 || c >= all.n-3 {
					at = append(at, c)
				}
			}
			for _, c := range at {
				out, dropped, err := VoteFilter(testctx.CancelAfter(c), s, band, opt)
				if !errors.Is(err, context.Canceled) || out != nil || dropped != nil {
					t.Errorf("cancelled at check %d of %d (the vote's last is %d): err = %v, want context.Canceled and no result", c+1, all.n, voteCount.n, err)
				}
			}
		})
	}
}
