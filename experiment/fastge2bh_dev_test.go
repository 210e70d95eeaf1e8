package experiment

import (
	"context"
	"strings"
	"testing"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
)

// TestBHDevSupervise checks the supervision of fastge2bh-dev: pairs-1/n
// draws about n/2 pairs, pairs-5n exactly 5n, the label kinds a
// stratified share of each class (labels agree with the truth), and the
// same draw twice gives the same supervision.
func TestBHDevSupervise(t *testing.T) {
	truth := make([]int, 200)
	for i := range truth {
		truth[i] = i % 2
	}
	for _, tc := range []struct {
		sup        string
		minN, maxN int // pairs or labelled nodes
		labels     bool
	}{
		{"pairs-1/n", 60, 140, false},
		{"pairs-5n", 1000, 1000, false},
		{"labels-10%", 20, 20, true},
		{"labels-30%", 60, 60, true},
	} {
		var p, q cluster.Problem
		if err := bhDevSupervise(context.Background(), &p, truth, "d", tc.sup, 3, 1); err != nil {
			t.Fatalf("%s: %v", tc.sup, err)
		}
		if err := bhDevSupervise(context.Background(), &q, truth, "d", tc.sup, 3, 1); err != nil {
			t.Fatal(err)
		}
		var got int
		if tc.labels {
			if p.Constraints != nil {
				t.Errorf("%s: pairs given", tc.sup)
			}
			per := [2]int{}
			for i, l := range p.Labels {
				if l == constraint.Unlabeled {
					continue
				}
				got++
				per[truth[i]]++
				if l != truth[i] {
					t.Errorf("%s: node %d labelled %d, class %d", tc.sup, i, l, truth[i])
				}
				if q.Labels[i] != l {
					t.Errorf("%s: not reproducible at node %d", tc.sup, i)
				}
			}
			if per[0] != per[1] {
				t.Errorf("%s: %v labelled per class, want equal (stratified)", tc.sup, per)
			}
		} else {
			got = len(p.Constraints.Pairs)
			if len(q.Constraints.Pairs) != got || (got > 0 && q.Constraints.Pairs[0] != p.Constraints.Pairs[0]) {
				t.Errorf("%s: not reproducible", tc.sup)
			}
		}
		if got < tc.minN || got > tc.maxN {
			t.Errorf("%s: %d given, want in [%d, %d]", tc.sup, got, tc.minN, tc.maxN)
		}
	}
	if err := bhDevSupervise(context.Background(), &cluster.Problem{}, truth, "d", "nope", 0, 1); err == nil {
		t.Error("an unknown supervision gave no error")
	}
}

// TestFastGE2BHDevQuick runs fastge2bh-dev in quick mode: every cell
// succeeds, the page names the variant picked and the CSV has a row per
// (dataset, supervision, variant).
func TestFastGE2BHDevQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the quick experiment")
	}
	env := &Env{OutDir: t.TempDir(), Quick: true, Seed: 1, DataRoot: "/nonexistent"}
	out, st, err := Run(context.Background(), FastGE2BHDev(), env, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed != 0 {
		t.Errorf("%d cells failed: %v", st.Failed, st.Errors)
	}
	if !strings.Contains(out.Markdown, "The rule picks **") {
		t.Error("the page does not say which variant the rule picks")
	}
	lines := strings.Count(strings.TrimSpace(string(out.Files["fastge2bh-dev.csv"])), "\n")
	if want := len(hbDevQuickRows) * len(bhDevSupervisions) * len(bhDevVariants); lines != want {
		t.Errorf("CSV has %d data rows, want %d", lines, want)
	}
}
