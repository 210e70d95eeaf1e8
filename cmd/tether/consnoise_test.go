package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
)

// TestConstraintsGenNoiseAmongClasses: -noise on the label protocols flips
// a label to another class of the reference, never to a label no node has:
// with classes 0, 5 and 9, -noise 1 gives every labelled node 0, 5 or 9,
// not its own (it drew among 0…9, so most flips named a class of no one).
// A reference of one class has no wrong label to draw: an error.
func TestConstraintsGenNoiseAmongClasses(t *testing.T) {
	classes := []int{0, 5, 9}
	var b strings.Builder
	for i := range 90 {
		b.WriteString(strconv.Itoa(classes[i%3]) + "\n")
	}
	truth := consWriteTemp(t, "truth.txt", b.String())
	for _, protocol := range []string{"labels-frac", "label-sets"} {
		t.Run(protocol, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "l.txt")
			if _, _, err := runConstraintsCLI(t, "gen", "-truth", truth, "-protocol", protocol, "-rate", "1", "-noise", "1", "-seed", "4", "-o", out); err != nil {
				t.Fatal(err)
			}
			l, err := constraint.ReadLabelsFile(out, 90)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[int]int{}
			for i, c := range l {
				if c != 0 && c != 5 && c != 9 || c == classes[i%3] {
					t.Errorf("node %d (class %d) labelled %d, want another of 0, 5, 9", i, classes[i%3], c)
				}
				seen[c]++
			}
			// Each of the 60 nodes of two classes draws one of the 3:
			// every class gets some (a class with none has chance
			// 2·2⁻³⁰ per class with 30 of each drawing between two).
			if len(seen) != 3 {
				t.Errorf("labels drawn %v, want all of 0, 5, 9", seen)
			}
		})
	}
	one := consWriteTemp(t, "one.txt", strings.Repeat("3\n", 10))
	_, _, err := runConstraintsCLI(t, "gen", "-truth", one, "-protocol", "labels-frac", "-rate", "0.5", "-noise", "0.5", "-o", filepath.Join(t.TempDir(), "o.txt"))
	if err == nil || !strings.Contains(err.Error(), "one.txt has 1 class") {
		t.Errorf("one class with -noise: err = %v, want one saying the reference has 1 class", err)
	}
}
