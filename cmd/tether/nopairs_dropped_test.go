package main

import (
	"os"
	"strings"
	"testing"
)

// TestClusterPairsAllOnDroppedRows: pairs given with -constraints, all on
// rows -missing drop leaves out, reach cluster.Run as a set without pairs
// (input.Supervision.AddTo keeps the set, emptied), and Run names it so.
// Before, sl failed with "sl needs pairwise constraints or labels, none
// given" and cosc warned "none was given" right after the warning that
// the 2 pairs were not used (review of noPairs, item 1).
func TestClusterPairsAllOnDroppedRows(t *testing.T) {
	var b strings.Builder
	b.WriteString("x,y\n")
	for i := range 12 {
		if i == 1 || i == 4 {
			b.WriteString("?,1\n") // rows 1 and 4: dropped
		} else {
			b.WriteString(strings.Repeat("1", 1+i%3) + "," + strings.Repeat("2", 1+i%5) + "\n")
		}
	}
	data := writeTemp(t, "m.csv", b.String())
	cons := writeTemp(t, "c.txt", "1,2,ml\n4,7,cl\n") // each pair touches a dropped row
	const dropped = "2 pairs on rows dropped for missing values"
	const said = "the constraint set given has no pair (an empty one, or one whose pairs were all left out before clustering"
	t.Run("sl", func(t *testing.T) {
		_, stderr, err := run(t, "cluster", "-input", data, "-missing", "drop", "-constraints", cons, "-method", "sl", "-k", "2", "-knn", "3", "-o", os.DevNull)
		if err == nil {
			t.Fatalf("no error; stderr %q", stderr)
		}
		if !strings.Contains(stderr, dropped) {
			t.Errorf("stderr %q lacks %q", stderr, dropped)
		}
		if msg := err.Error(); !strings.Contains(msg, said) || strings.Contains(msg, "none given") {
			t.Errorf("error %q, want it to say %q and not %q", msg, said, "none given")
		}
	})
	t.Run("cosc", func(t *testing.T) {
		_, stderr, err := run(t, "cluster", "-input", data, "-missing", "drop", "-constraints", cons, "-method", "cosc", "-k", "2", "-knn", "3", "-o", os.DevNull)
		if err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		if !strings.Contains(stderr, dropped) || !strings.Contains(stderr, "cosc: no constraints: ") || !strings.Contains(stderr, said) || strings.Contains(stderr, "none was given") {
			t.Errorf("stderr %q, want %q, then cosc's warning saying %q and not %q", stderr, dropped, said, "none was given")
		}
	})
}
