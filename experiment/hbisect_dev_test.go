package experiment

import (
	"context"
	"math"
	"strings"
	"testing"
)

// TestHBDevPick checks the rule of hbisect-dev on hand-made means: the
// highest mean wins, the default before (index 0) is kept within 0.002 of
// it, NaN means are never chosen.
func TestHBDevPick(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		mean []float64
		want int
	}{
		{[]float64{0.1, 0.5, 0.7, 0.6}, 2},
		{[]float64{0.699, 0.5, 0.7}, 0}, // within 0.002: the default stays
		{[]float64{0.697, 0.5, 0.7}, 2}, // 0.003 below: the best
		{[]float64{nan, 0.5, 0.4}, 1},   // the default's NaN is not kept
		{[]float64{0.2, nan, 0.3}, 2},   // NaN is never chosen
		{[]float64{nan, nan}, 0},        // nothing to choose from
		{[]float64{0.2, 0.6, 0.6}, 1},   // ties: the first
	} {
		if got := hbDevPick(tc.mean); got != tc.want {
			t.Errorf("hbDevPick(%v) = %d, want %d", tc.mean, got, tc.want)
		}
	}
}

// TestMedian checks median on odd, even and empty inputs, and that it
// leaves its argument unsorted.
func TestMedian(t *testing.T) {
	x := []float64{5, 1, 3}
	if m := median(x); m != 3 {
		t.Errorf("median(5, 1, 3) = %g, want 3", m)
	}
	if x[0] != 5 {
		t.Error("median sorted its argument")
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median(4, 1, 3, 2) = %g, want 2.5", m)
	}
	if m := median(nil); !math.IsNaN(m) {
		t.Errorf("median() = %g, want NaN", m)
	}
}

// TestHBisectionDevQuick runs hbisect-dev in quick mode: every cell
// succeeds, the page names the α picked and the CSV has a row per
// (dataset, α).
func TestHBisectionDevQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the quick experiment")
	}
	env := &Env{OutDir: t.TempDir(), Quick: true, Seed: 1, DataRoot: "/nonexistent"}
	out, st, err := Run(context.Background(), HBisectionDev(), env, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed != 0 {
		t.Errorf("%d cells failed: %v", st.Failed, st.Errors)
	}
	if !strings.Contains(out.Markdown, "The rule picks **α = ") {
		t.Error("the page does not say which α the rule picks")
	}
	lines := strings.Count(strings.TrimSpace(string(out.Files["hbisect-dev.csv"])), "\n")
	if want := len(hbDevQuickRows) * 3; lines != want {
		t.Errorf("CSV has %d data rows, want %d", lines, want)
	}
}
