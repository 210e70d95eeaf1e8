package experiment

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dataRoot returns ../shared/datasets relative to the repository root, or
// skips the test when it is absent.
func ssDataRoot(t *testing.T) string {
	t.Helper()
	root := filepath.Join("..", "..", "shared", "datasets")
	if _, err := os.Stat(filepath.Join(root, "iris", "iris.csv")); err != nil {
		t.Skip("benchmark datasets not found at", root)
	}
	return root
}

// TestTable31Quick runs the quick version of thesis Table 3.1 and checks
// the report: every quick dataset has our figures, the missing datasets are
// named, and MAVRO and NOA-SSC agree on every k = 2 run (seed 000 §3.4).
func TestTable31Quick(t *testing.T) {
	env := &Env{DataRoot: ssDataRoot(t), Quick: true, Seed: 1}
	out, st, err := Run(context.Background(), Table31(), env, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed > 0 {
		t.Fatalf("%d cells failed: %v", st.Failed, st.Errors)
	}
	md := out.Markdown
	for _, want := range []string{"| iris | 3 |", "| moons | 2 |", "| zoo | 7 |", "imdb: not in", "tether repro table3.1"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if !strings.Contains(md, "MAVRO and NOA-SSC gave the same partition in 6 of 6 runs") {
		t.Errorf("MAVRO and NOA-SSC differ on some k = 2 run:\n%s", md)
	}
	if len(out.Files["table3.1.csv"]) == 0 {
		t.Error("no CSV")
	}
}

// TestTable42Quick runs the quick version of thesis Table 4.2.
func TestTable42Quick(t *testing.T) {
	env := &Env{DataRoot: ssDataRoot(t), Quick: true, Seed: 1}
	out, st, err := Run(context.Background(), Table42(), env, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed > 0 {
		t.Fatalf("%d cells failed: %v", st.Failed, st.Errors)
	}
	for _, want := range []string{"| wine | 3 |", "phoneme: the thesis's phoneme", "tether repro table4.2"} {
		if !strings.Contains(out.Markdown, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if len(out.Files["table4.2.csv"]) == 0 {
		t.Error("no CSV")
	}
}

// TestSSMissingData: without the datasets folder, catalogue datasets are
// reported missing and only synthetic ones run.
func TestSSMissingData(t *testing.T) {
	env := &Env{DataRoot: t.TempDir(), Quick: true, Seed: 1}
	run, missing := ssSelected(env)
	for _, d := range run {
		if !strings.HasPrefix(d.source, "synth:") {
			t.Errorf("%s selected without its files", d.name)
		}
	}
	if len(missing) < 15 {
		t.Errorf("only %d datasets reported missing", len(missing))
	}
}
