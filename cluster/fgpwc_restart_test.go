package cluster

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestFGPWCScaledRestart checks FGPWC.ScaledRestart: with at least
// fgpwcRestartRatio constraints per entry of X (K ≥ 10·m²) the result is
// the better of the two descents (F never above the single descent from
// X₀, and here strictly below, with a warning naming the scaled start);
// with fewer it is the single descent, bit for bit.
func TestFGPWCScaledRestart(t *testing.T) {
	p, _ := fgpwcBenchProblem(t, 2000, 3, 5, 10, 6)
	set := p.Constraints
	for _, tc := range []struct {
		m     int
		lower bool // the scaled start must win
	}{
		{10, true},  // K = 1028 ≥ 10·100
		{20, false}, // K < 10·400: one descent
	} {
		run := func(restart bool) *Result {
			f := *NewFGPWC()
			f.M, f.ScaledRestart = tc.m, restart
			res, err := Run(context.Background(), f, p, &Settings{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		one, two := run(false), run(true)
		scaled := slices.ContainsFunc(two.Warnings, func(w string) bool { return strings.Contains(w, "scaled start") })
		switch {
		case len(set.Pairs) < fgpwcRestartRatio*tc.m*tc.m:
			if two.Objective != one.Objective || !slices.Equal(two.Labels, one.Labels) || scaled {
				t.Errorf("m = %d, K = %d < 10·m²: F %v vs %v, scaled start %v: want the single descent", tc.m, len(set.Pairs), two.Objective, one.Objective, scaled)
			}
		case two.Objective > one.Objective:
			t.Errorf("m = %d: F = %v with the second start, %v without", tc.m, two.Objective, one.Objective)
		case tc.lower && !(two.Objective < one.Objective && scaled):
			t.Errorf("m = %d: F = %v vs %v, warning %v: want the scaled start to win and say so", tc.m, two.Objective, one.Objective, scaled)
		}
	}
}
