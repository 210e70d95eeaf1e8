package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReproTitleNamesDataRoot: with -data, realdata's title names that
// root in repro list and in the ledger's section heading (CLAIMS.md), as
// the page's body does; without it, the default root. An empty data
// folder: every dataset is absent and no cell runs.
func TestReproTitleNamesDataRoot(t *testing.T) {
	t.Setenv("TETHER_DATASETS", "")
	data := t.TempDir()
	const head = "Defaults on every network and feature set in "
	for _, tc := range []struct {
		args []string
		root string
	}{
		{nil, "../shared/datasets"},
		{[]string{"-data", data}, data},
	} {
		out, _, err := run(t, append(append([]string{"repro"}, tc.args...), "list")...)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, head+tc.root+":") {
			t.Errorf("repro %v list: realdata's title does not name %s:\n%s", tc.args, tc.root, out)
		}
	}
	dir := t.TempDir()
	if _, stderr, err := run(t, "repro", "-data", data, "-o", dir, "-cache", "", "realdata"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	ledger, err := os.ReadFile(filepath.Join(dir, "CLAIMS.md"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "## [realdata](realdata/README.md): " + head + data + ":"; !strings.Contains(string(ledger), want) {
		t.Errorf("CLAIMS.md has no heading %q", want)
	}
}
