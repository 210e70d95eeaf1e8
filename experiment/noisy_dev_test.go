package experiment

import (
	"testing"
)

// The criterion fixed before the suite was run (noisyDevPick), on
// hand-made scores in the order cscap, fast-ge, none.
func TestNoisyDevPick(t *testing.T) {
	ok := func(worst, mean float64) noisyDevScore {
		return noisyDevScore{worst: worst, mean: mean, ran: true}
	}
	costly := ok(0.01, 0.01)
	costly.clean = -0.03
	failing := ok(0.01, 0.01)
	failing.failed = 1
	missing := ok(0.01, 0.01)
	missing.ran = false
	for _, tc := range []struct {
		name string
		sc   []noisyDevScore
		want int
	}{
		{"smallest worst loss", []noisyDevScore{ok(0.06, 0.02), ok(0.05, 0.03), ok(0.07, 0.01)}, 1},
		{"tie as printed: smaller mean loss", []noisyDevScore{ok(0.0501, 0.03), ok(0.0504, 0.02), ok(0.07, 0.01)}, 1},
		{"tie on both: cscap", []noisyDevScore{ok(0.05, 0.02), ok(0.0502, 0.0198), ok(0.05, 0.02)}, 0},
		{"clean cost below −0.02 excluded", []noisyDevScore{ok(0.06, 0.02), costly, ok(0.07, 0.01)}, 0},
		{"more failed cells than cscap excluded", []noisyDevScore{ok(0.06, 0.02), failing, ok(0.05, 0.03)}, 2},
		{"a dataset without a loss excluded", []noisyDevScore{ok(0.06, 0.02), missing, ok(0.07, 0.01)}, 0},
		{"none eligible", []noisyDevScore{missing, missing, missing}, -1},
	} {
		if got := noisyDevPick(tc.sc); got != tc.want {
			t.Errorf("%s: picked %d, want %d", tc.name, got, tc.want)
		}
	}
}

// The dev suite holds generated data only, 150–600 points, k from 2 to 5,
// and none of it is a dataset of noisy-constraints.
func TestNoisyDevRows(t *testing.T) {
	for _, r := range noisyDevRows {
		for _, q := range noisyRows {
			if r.name == q.name {
				t.Errorf("%s is a noisy-constraints dataset", r.name)
			}
		}
		if _, ok := fgpwcSynth[r.name]; ok {
			t.Errorf("%s is an fgpwc-table1 dataset", r.name)
		}
		if k := max(r.p.K, 2); k > 5 {
			t.Errorf("%s: k = %d", r.name, k)
		}
		if r.p.N < 150 || r.p.N > 600 {
			t.Errorf("%s: n = %d", r.name, r.p.N)
		}
	}
}
