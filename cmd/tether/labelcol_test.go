package main

import (
	"errors"
	"fmt"
	"os"
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

// TestClusterDropClassColumn: -drop of the class column the name rule
// recognises (label, as tether gen writes it) leaves it out, and the
// reference labels with it, as asked, with a note that says so and how to
// keep them (the summary used to lose ARI and NMI without a word); the
// clustering is the one without -drop, since the column was no feature.
// -label COL -drop COL is a usage error, -label none -drop COL leaves the
// column out silently, and tether labels, which writes the labels, says
// that -drop removed them.
func TestClusterDropClassColumn(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "moons.csv")
	if _, _, err := run(t, "gen", "moons", "-n", "200", "-o", data); err != nil {
		t.Fatal(err)
	}
	const dropped = `column "label" would be the reference labels, but is dropped (tether: -drop; library: Options.Drop): left out unread, and the reference labels with it, so the clustering is compared with none; to keep them, do not drop the column: the class column is never a feature`
	kept, dropOut := filepath.Join(dir, "kept.csv"), filepath.Join(dir, "dropped.csv")
	out, _, err := run(t, "cluster", "-input", data, "-k", "2", "-json", "-quiet", "-o", kept)
	if err != nil {
		t.Fatal(err)
	}
	base := clusterSummaryJSON(t, out)
	out, errOut, err := run(t, "cluster", "-input", data, "-k", "2", "-json", "-drop", "label", "-o", dropOut)
	if err != nil {
		t.Fatal(err)
	}
	sum := clusterSummaryJSON(t, out)
	if sum["figures"] != nil || sum["warnings"] != nil {
		t.Errorf("-drop label: figures %v, warnings %v; want neither", sum["figures"], sum["warnings"])
	}
	if notes, _ := sum["notes"].([]any); len(notes) != 1 || notes[0] != data+": "+dropped {
		t.Errorf("-drop label: notes %q, want the one on the dropped class column", sum["notes"])
	}
	if !strings.Contains(errOut, "tether cluster: note: "+data+": "+dropped) {
		t.Errorf("-drop label: stderr lacks the note: %q", errOut)
	}
	if sum["ncut"] != base["ncut"] || fmt.Sprint(sum["sizes"]) != fmt.Sprint(base["sizes"]) {
		t.Errorf("-drop label: Ncut %v sizes %v, want those without it, %v %v", sum["ncut"], sum["sizes"], base["ncut"], base["sizes"])
	}
	if a, b := readFileString(t, kept), readFileString(t, dropOut); a != b {
		t.Errorf("-drop label changed the labels")
	}
	// The summary as text: no figures, and the note on standard error.
	out, errOut, err = run(t, "cluster", "-input", data, "-k", "2", "-drop", "label", "-o", dropOut)
	if err != nil || strings.Contains(out, "ARI") || !strings.Contains(errOut, "note: "+data+": "+dropped) {
		t.Errorf("-drop label, text summary: %v\n%s\n%s", err, out, errOut)
	}

	_, _, err = run(t, "cluster", "-input", data, "-k", "2", "-label", "label", "-drop", "label", "-o", dropOut)
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), `column 3 is the label column (Options.LabelColumn "label"; tether: -label label), which is never a feature`) {
		t.Errorf("-label label -drop label: %v, want the usage error", err)
	}
	out, errOut, err = run(t, "cluster", "-input", data, "-k", "2", "-json", "-label", "none", "-drop", "label", "-o", dropOut)
	if err != nil {
		t.Fatal(err)
	}
	if sum := clusterSummaryJSON(t, out); sum["figures"] != nil || sum["notes"] != nil || strings.Contains(errOut, "note") {
		t.Errorf("-label none -drop label: figures %v, notes %v, stderr %q; want none", sum["figures"], sum["notes"], errOut)
	}
	_, _, err = run(t, "labels", "-input", data, "-drop", "label", "-o", filepath.Join(dir, "truth.csv"))
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), `moons.csv: column "label" holds the labels, and -drop leaves it out: do not drop it`) {
		t.Errorf("labels -drop label: %v, want the usage error", err)
	}
}

// readFileString returns the content of the file at path.
func readFileString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
