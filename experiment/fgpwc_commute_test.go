package experiment

import (
	"fmt"
	"strings"
	"testing"
)

// TestFGPWCCommuteClaims checks the pre-registered rule of the commute
// kernel claims on made-up cells of the three generated rows (available
// without data files): the commute column is ahead of a base column on
// wins of 3 rows; ≥ 2/3 is held, none not held, in between partly held.
// Every figure below is set by hand.
func TestFGPWCCommuteClaims(t *testing.T) {
	var rows []fgpwcRow
	for _, r := range fgpwcRows {
		if _, ok := fgpwcSynth[r.name]; ok {
			rows = append(rows, r)
		}
	}
	if len(rows) != 3 {
		t.Fatalf("%d generated rows, want 3", len(rows))
	}
	cols := []fgpwcColumn{fgpwcColumnByKey("sscka")}
	cols = append(cols, fgpwcCommuteColumns...)
	for _, tc := range []struct {
		wins int
		want Verdict
	}{{3, Held}, {2, Held}, {1, PartlyHeld}, {0, NotHeld}} {
		t.Run(fmt.Sprint(tc.wins), func(t *testing.T) {
			results := map[string]Values{}
			for i, r := range rows {
				for rep := 0; rep < fgpwcReps(r, cols[0], fgpwcSets); rep++ {
					c := 0.5
					if i < tc.wins {
						c = 0.7
					}
					results[fmt.Sprintf("%s/sscka-commute/%d", r.name, rep)] = Values{"ari": c}
					results[fmt.Sprintf("%s/sscka-ncut/%d", r.name, rep)] = Values{"ari": 0.6}
					results[fmt.Sprintf("%s/sscka/%d", r.name, rep)] = Values{"ari": 0.6}
				}
			}
			claims := fgpwcCommuteClaims(results, rows, cols, fgpwcSets, "")
			if len(claims) != 2 {
				t.Fatalf("%d claims, want 2", len(claims))
			}
			for _, c := range claims {
				if c.Verdict != tc.want {
					t.Errorf("%q: verdict %v, want %v (%s)", c.Quote, c.Verdict, tc.want, c.Ours)
				}
				if !strings.Contains(c.Ours, fmt.Sprintf("higher on %d of 3", tc.wins)) {
					t.Errorf("ours %q", c.Ours)
				}
			}
		})
	}
	// 4 wins of 7 rows is partly held (2/3 of 7 needs 5).
	if v := quantVerdict(4, 7, twoThirdsOf(7)); v != PartlyHeld {
		t.Errorf("4 of 7: %v", v)
	}
	if claims := fgpwcCommuteClaims(nil, rows, cols[:1], fgpwcSets, ""); claims != nil {
		t.Errorf("claims without the commute column: %v", claims)
	}
}
