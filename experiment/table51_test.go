package experiment

import (
	"context"
	"math"
	"strings"
	"testing"
)

// TestTable51PublishedConsistent checks the copy of thesis Table 5.1: each
// published error is |estimate − α|/α of the published estimate, to the
// rounding of the printed figures (whole per cent above 1%, 0.01% below).
func TestTable51PublishedConsistent(t *testing.T) {
	for _, row := range t51Published {
		for i, e := range row.rows {
			got := 100 * math.Abs(e.est-row.alpha) / row.alpha
			tol := 0.6
			if e.errPct < 1 {
				tol = 0.006
			}
			if math.Abs(got-e.errPct) > tol {
				t.Errorf("α = %g, %s: published error %g%%, the published estimate %g gives %.3f%%", row.alpha, t51Estimators[i].name, e.errPct, e.est, got)
			}
		}
	}
}

// TestTable51Quick runs the quick protocol and checks the page's verdicts
// that must hold whatever the seed: the MLE within 1%, the raw-histogram
// fits far off, and the KS explanation present.
func TestTable51Quick(t *testing.T) {
	env := &Env{Quick: true, Seed: 1}
	out, st, err := Run(context.Background(), Table51(), env, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed > 0 || st.Cells != 9 {
		t.Fatalf("%d cells, %d failed: %v", st.Cells, st.Failed, st.Errors)
	}
	md := out.Markdown
	for _, want := range []string{
		"| 1.75 | Linear | 4.69 | 168% | 0.95 |",
		"| MLE | 3.4975 | 0.07% | 0.00045 |",
		"within 1%).* **held** on every sample",
		"holds for linear:",
		"holds for linear 5-points:",
		"Why our KS figures differ",
		"tether repro -quick table5.1",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if len(out.Files["table5.1.csv"]) == 0 {
		t.Error("no CSV")
	}
}
