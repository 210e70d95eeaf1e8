package cluster

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
)

// The one labels-to-pairs policy: every labelled pair up to MaxLabelPairs,
// an independent seeded sample above, with a warning; constraints first.
func TestSupervisionPairsPolicy(t *testing.T) {
	labelsOf := func(n, labelled, k int) constraint.Labels {
		l := make(constraint.Labels, n)
		for i := range l {
			l[i] = constraint.Unlabeled
			if i < labelled {
				l[i] = i % k
			}
		}
		return l
	}
	cons := &constraint.Set{N: 600, Pairs: []constraint.Pair{{I: 598, J: 599, Kind: constraint.MustLink}}}
	for _, tc := range []struct {
		name      string
		labelled  int
		wantAll   bool
		wantWarns int
	}{
		{"no labels", 0, true, 0},
		{"few labels", 40, true, 0},
		{"at the limit", 447, true, 0}, // 447·446/2 = 99681 ≤ 10⁵
		{"above the limit", 500, false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &Problem{K: 3, Constraints: cons}
			if tc.labelled > 0 {
				p.Labels = labelsOf(600, tc.labelled, 3)
			}
			pairs, warns, err := supervisionPairsContext(context.Background(), "m", p, &Settings{Seed: 4}, allPairs)
			if err != nil {
				t.Fatal(err)
			}
			if pairs[0] != cons.Pairs[0] {
				t.Errorf("first pair %v, want the given constraint", pairs[0])
			}
			total := tc.labelled * (tc.labelled - 1) / 2
			got := len(pairs) - 1
			if tc.wantAll && got != total {
				t.Errorf("%d label pairs, want all %d", got, total)
			}
			if !tc.wantAll {
				// Binomial(total, 10⁵/total): mean 10⁵, sd < 320.
				if math.Abs(float64(got)-MaxLabelPairs) > 5*320 {
					t.Errorf("%d sampled pairs, want about %d", got, MaxLabelPairs)
				}
				again, _, _ := supervisionPairsContext(context.Background(), "m", p, &Settings{Seed: 4}, allPairs)
				if !slices.Equal(pairs, again) {
					t.Error("same seed, different sample")
				}
			}
			if len(warns) != tc.wantWarns || (tc.wantWarns > 0 && !strings.Contains(warns[0], "were sampled (MaxLabelPairs = 100000)")) {
				t.Errorf("warnings %q", warns)
			}
			// Every label pair agrees with the labels.
			for _, q := range pairs[1:] {
				same := p.Labels[q.I] == p.Labels[q.J]
				if same != (q.Kind == constraint.MustLink) {
					t.Fatalf("pair %v disagrees with labels %d, %d", q, p.Labels[q.I], p.Labels[q.J])
				}
			}
		})
	}
}
