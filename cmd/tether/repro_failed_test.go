package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReproAllCellsFailed: an experiment whose every cell fails (the
// dataset files malformed) exits 1 naming the experiment and a failure,
// after writing its page; an experiment with no cells (its dataset
// absent: not run) does not. Before, the run exited 0.
func TestReproAllCellsFailed(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad", "zoo")
	if err := os.MkdirAll(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, "zoo.arff"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runTether(t, dir, "repro", "-quick", "-quiet", "-cache", "", "-data", "bad", "-o", "badout", "thesis-fig3.2")
	if code != 1 || !strings.Contains(stderr, "tether: repro: thesis-fig3.2: all 24 cells failed (first: ") || !strings.Contains(stderr, "zoo.arff:1") {
		t.Errorf("all failed: exit %d, stderr:\n%s\nwant exit 1 naming thesis-fig3.2 and zoo.arff:1", code, stderr)
	}
	if !strings.Contains(stdout, filepath.Join("badout", "thesis-fig3.2", "README.md")) {
		t.Errorf("page not written:\n%s", stdout)
	}
	// No zoo at all: the experiment has no cells ("not run"), exit 0.
	if err := os.MkdirAll(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runTether(t, dir, "repro", "-quick", "-quiet", "-cache", "", "-data", "empty", "-o", "emptyout", "thesis-fig3.2")
	if code != 0 {
		t.Errorf("no dataset: exit %d, want 0:\n%s", code, stderr)
	}
}
