package experiment

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSeed001Fig4Quick runs the quick Figure 4 experiment (three
// percentages, two repetitions; about a second) and checks the report: our
// graph beside Table 4, every method's rows, the claims, and the CSV.
func TestSeed001Fig4Quick(t *testing.T) {
	root := ssDataRoot(t)
	if _, err := os.Stat(filepath.Join(root, "classic3", "docbyterm.txt")); err != nil {
		t.Skip("classic3 not found")
	}
	env := &Env{DataRoot: root, Quick: true, Seed: 1, OutDir: t.TempDir()}
	out, st, err := Run(context.Background(), Seed001Fig4(), env, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed > 0 || st.Cells != 16 {
		t.Fatalf("%d cells, %d failed: %v", st.Cells, st.Failed, st.Errors)
	}
	checkClaims(t, out, 5)
	md := out.Markdown
	for _, want := range []string{
		"**Our graph**", "(paper 3141)", "| dhillon | purity | 0.99", "| cocluster | nmi |", "| cocluster-ml | nmi |",
		"## The claims", "- (1) `cocluster` beats the must-link overlay baseline", "- (1) `l1csc` beats the must-link overlay baseline",
		"- (2) NMI of `cocluster` on the documents whose label was not given grows", "- (2) NMI of `l1csc` on the documents whose label was not given grows", "| l1csc | nmi | 0.9",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(md, "Not run") {
		t.Error("report says not run")
	}
	if csv := string(out.Files["seed001-fig4.csv"]); !strings.Contains(csv, "\ncocluster,0.8,") || !strings.Contains(csv, "\ndhillon,0,") {
		t.Errorf("CSV lacks rows:\n%s", csv)
	}
	if len(out.Figures) != 1 {
		t.Errorf("figures %v", out.Figures)
	}
}

// Without the Classic3 files the experiment has no cells and its page
// says it was not run.
func TestSeed001Fig4NotRun(t *testing.T) {
	env := &Env{DataRoot: t.TempDir(), Quick: true, Seed: 1}
	out, st, err := Run(context.Background(), Seed001Fig4(), env, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Cells != 0 || !strings.Contains(out.Markdown, "**Not run**: classic3/docbyterm.txt and classic3/documents.txt not found") {
		t.Errorf("%d cells; report:\n%s", st.Cells, out.Markdown)
	}
}

// The known documents are the same for every method at (known, rep),
// differ between repetitions, and number round(p·N).
func TestSeed001Fig4Known(t *testing.T) {
	a, b, c := fig4Known(400, 0.2, 3, 1), fig4Known(400, 0.2, 3, 1), fig4Known(400, 0.2, 4, 1)
	if len(a) != 80 {
		t.Fatalf("%d known", len(a))
	}
	same := true
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("not deterministic")
		}
		same = same && a[i] == c[i]
	}
	if same {
		t.Error("repetitions 3 and 4 drew the same documents")
	}
}

// TestFig4Grows checks claim (2)'s rule: a flat curve within 0.005 is
// non-decreasing but does not grow; a rise of more than 0.01 that never
// drops by more than 0.005 does.
func TestFig4Grows(t *testing.T) {
	for _, tc := range []struct {
		seq        []float64
		weak, grow bool
	}{
		{[]float64{.937, .933, .935, .935, .937, .940}, true, false},
		{[]float64{.937, .939, .946, .957, .970, .984}, true, true},
		{[]float64{.937, .920, .960}, false, false},
		{[]float64{.937}, true, false},
	} {
		if w, g := fig4Weak(tc.seq), fig4Grows(tc.seq); w != tc.weak || g != tc.grow {
			t.Errorf("%v: weak %v grows %v, want %v %v", tc.seq, w, g, tc.weak, tc.grow)
		}
	}
}

// The constrained cocluster cells, and only they, carry fig4CoRevision in
// their keys, so that a change of cocluster's constraint operator
// recomputes them and leaves Dhillon's, CSP's and L1-CSC's cells cached: 1500 of
// the 2325 cells of the full run (3 columns × 5 shares × 100 repetitions),
// 8 of the 16 quick ones.
func TestSeed001Fig4Keys(t *testing.T) {
	root := ssDataRoot(t)
	if _, err := os.Stat(filepath.Join(root, "classic3", "docbyterm.txt")); err != nil {
		t.Skip("classic3 not found")
	}
	for _, tc := range []struct {
		quick          bool
		cells, revised int
	}{{false, 2325, 1500}, {true, 16, 8}} {
		cells, err := Seed001Fig4().Cells(&Env{DataRoot: root, Quick: tc.quick, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		revised := 0
		for _, c := range cells {
			m, _, _ := strings.Cut(c.Key, "/")
			has := strings.HasSuffix(c.Key, "/"+fig4CoRevision)
			if has {
				revised++
			}
			if want := strings.HasPrefix(m, "cocluster") && !strings.Contains(c.Key, "/known=0/"); has != want {
				t.Errorf("key %q: revision %v, want %v", c.Key, has, want)
			}
		}
		if len(cells) != tc.cells || revised != tc.revised {
			t.Errorf("quick %v: %d cells, %d revised; want %d and %d", tc.quick, len(cells), revised, tc.cells, tc.revised)
		}
	}
}
