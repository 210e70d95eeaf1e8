package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestClusterClassColumnNotAFeature checks that a column named label (as
// tether gen writes) is taken as the reference, with a note (not a
// warning), unless -label none; and that a column that looks like the
// classes (k distinct integers, k categories) is warned about.
func TestClusterClassColumnNotAFeature(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "moons.csv")
	if _, _, err := run(t, "gen", "moons", "-n", "200", "-o", data); err != nil {
		t.Fatal(err)
	}
	const recognised = `column "label" is the reference labels, not a feature`
	out, errOut, err := run(t, "cluster", "-input", data, "-k", "2", "-json", "-o", filepath.Join(dir, "l.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut, "tether cluster: note: "+data+": "+recognised) || strings.Contains(errOut, "warning") {
		t.Errorf("no note, or a warning, on stderr: %q", errOut)
	}
	sum := clusterSummaryJSON(t, out)
	if sum["figures"] == nil {
		t.Errorf("the label column was not used as the reference: %s", out)
	}
	if notes, _ := sum["notes"].([]any); len(notes) == 0 || !strings.Contains(fmt.Sprint(notes[0]), recognised) || sum["warnings"] != nil {
		t.Errorf("-json: notes %v, warnings %v; want the label column's note first and no warnings", sum["notes"], sum["warnings"])
	}
	out, errOut, err = run(t, "cluster", "-input", data, "-k", "2", "-quiet", "-json", "-label", "none", "-o", filepath.Join(dir, "l.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// The clustering's own warnings (two components here) are printed;
	// none about the label column.
	if clusterSummaryJSON(t, out)["figures"] != nil || strings.Contains(errOut, "label") || strings.Contains(errOut, "note") {
		t.Errorf("-label none: figures, a message on the label column, or a note: %s %q", out, errOut)
	}

	var b strings.Builder
	b.WriteString("x,grp,kind\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "%g,%d,%s\n", float64(i)*0.1, i%3, []string{"u", "v", "w"}[i%3])
	}
	f := evalWriteTemp(t, dir, "g.csv", b.String())
	_, errOut, err = run(t, "cluster", "-input", f, "-k", "3", "-knn", "5", "-quiet", "-o", filepath.Join(dir, "l.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`column "grp" takes 3 distinct values`, `column "kind" has 3 categories`} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q: %q", want, errOut)
		}
	}
	if strings.Contains(errOut, `"x"`) {
		t.Errorf("warned about x: %q", errOut)
	}
}
