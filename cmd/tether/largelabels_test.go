package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestLargeIntegerLabelsEndToEnd: a truth file whose labels are community
// IDs (7, 1000000, 5000000 on a graph of 99 nodes, as SNAP writes them)
// is read by tether cluster -truth, -partial-labels, tether eval and
// tether constraints gen as 3 classes in increasing numeric order, with
// one note each; such files
// were refused ("label too large") since the labels readers bounded
// integer labels. The graph is three cliques of 33 nodes joined by one
// edge each, so the partition is the cliques (ARI 1 by construction).
func TestLargeIntegerLabelsEndToEnd(t *testing.T) {
	dir := t.TempDir()
	ids := []int{5000000, 7, 1000000} // ids[b]: clique b's community ID
	var edges, truth strings.Builder
	truth.WriteString("node,community\n")
	for i := range 99 {
		for j := i + 1; j < 99 && j/33 == i/33; j++ {
			fmt.Fprintf(&edges, "%d %d\n", i, j)
		}
		fmt.Fprintf(&truth, "%d,%d\n", i, ids[i/33])
	}
	edges.WriteString("32 33\n65 66\n")
	g := evalWriteTemp(t, dir, "g.edges", edges.String())
	tf := evalWriteTemp(t, dir, "truth.csv", truth.String())
	pred := filepath.Join(dir, "pred.csv")
	note := tf + ": labels 7, 1000000, 5000000 read as classes 0, 1, 2 in increasing order (label 5000000 on line 2 is max(n, LabelFloor) = 65536 or more for 99 nodes: integer labels number the classes from 0)"

	out, errOut, err := run(t, "cluster", "-graph-file", g, "-k", "3", "-method", "njw", "-truth", tf, "-o", pred)
	if err != nil {
		t.Fatalf("cluster -truth: %v\n%s", err, errOut)
	}
	if strings.Count(errOut, "tether cluster: note: "+note+"\n") != 1 {
		t.Errorf("cluster -truth: standard error lacks the note once:\n%s", errOut)
	}
	if !strings.Contains(out, "ARI") || !strings.Contains(out, "1.0000") {
		t.Errorf("cluster -truth: no ARI of 1:\n%s", out)
	}

	out, errOut, err = runEvalCLI(t, "-truth", tf, "-pred", pred)
	if err != nil {
		t.Fatalf("eval: %v\n%s", err, errOut)
	}
	if strings.Count(errOut, "tether eval: note: "+note+"\n") != 1 {
		t.Errorf("eval: standard error lacks the note once:\n%s", errOut)
	}
	if !strings.HasPrefix(out, "99 items, 3 reference clusters, 3 predicted clusters\n") || !regexpLine(out, "ari", "1") {
		t.Errorf("eval: want 3 reference clusters and ARI 1:\n%s", out)
	}

	// Partial labels: k from their 3 classes (labelprop takes it), the
	// clusters numbered by them in the summary, every node in the
	// cluster of its class.
	out, errOut, err = run(t, "cluster", "-graph-file", g, "-partial-labels", tf, "-method", "labelprop", "-o", filepath.Join(dir, "p2.csv"))
	if err != nil {
		t.Fatalf("cluster -partial-labels: %v\n%s", err, errOut)
	}
	if strings.Count(errOut, "tether cluster: note: "+note+"\n") != 1 {
		t.Errorf("cluster -partial-labels: standard error lacks the note once:\n%s", errOut)
	}
	if !strings.Contains(out, "classes   0 = 7, 1 = 1000000, 2 = 5000000 ") || !strings.Contains(out, "labelled  99 of 99 ") {
		t.Errorf("cluster -partial-labels: the summary lacks classes 7, 1000000, 5000000 and 99 of 99 labelled:\n%s", out)
	}

	// constraints gen: pairs of the 3 classes, with the note.
	_, errOut, err = run(t, "constraints", "gen", "-truth", tf, "-protocol", "pairs-1/n", "-seed", "1", "-o", filepath.Join(dir, "c.csv"))
	if err != nil {
		t.Fatalf("constraints gen: %v\n%s", err, errOut)
	}
	if strings.Count(errOut, "tether constraints gen: note: "+note+"\n") != 1 {
		t.Errorf("constraints gen: standard error lacks the note once:\n%s", errOut)
	}
}

// regexpLine reports whether out has a line whose first field is name and
// whose second field parses as the number value.
func regexpLine(out, name, value string) bool {
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == name {
			var got, want float64
			if _, err := fmt.Sscan(f[1], &got); err != nil {
				return false
			}
			fmt.Sscan(value, &want)
			return got == want
		}
	}
	return false
}
