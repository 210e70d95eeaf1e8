package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReproCacheChecked: a -cache that is a regular file is refused before
// any experiment runs, as a usage error naming -cache. Before, the run
// began and stopped with "mkdir afile: not a directory", exit 1, without
// naming the flag.
func TestReproCacheChecked(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "afile"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, quick := range []bool{false, true} {
		args := []string{"repro", "-quiet", "-cache", "afile", "-o", "out", "plmeans-limits"}
		if quick {
			args = append([]string{"repro", "-quick"}, args[1:]...)
		}
		code, stdout, stderr := runTether(t, dir, args...)
		if code != 2 || !strings.Contains(stderr, "usage: repro: -cache ") || !strings.Contains(stderr, "afile is a file, not a folder") {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 naming -cache", args, code, stderr)
		}
		if stdout != "" {
			t.Errorf("%q: wrote %q before refusing", args, stdout)
		}
	}
}

// TestReproCacheFollowsData: the cells of table3.1 that read iris are
// recomputed when -data holds another iris.csv, and taken from the cache
// when a copy of the first lies at another path; its generated rows (moons,
// xor) stay cached throughout. Before, the second root's run was "24 cells
// (24 cached, 0 run)" and its page showed the first root's figures.
func TestReproCacheFollowsData(t *testing.T) {
	dir := t.TempDir()
	iris := func(root string, rows int) {
		var b strings.Builder
		for i := 0; i < rows; i++ {
			fmt.Fprintf(&b, "%d.%d,%d.5,%d.%d,0.%d,c%d\n", 4+i%3, i%7, 2+i%3, 1+2*(i%3), i%5, i%9, i%3)
		}
		if err := os.MkdirAll(filepath.Join(dir, root, "iris"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, root, "iris", "iris.csv"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	iris("d1", 150)
	iris("d2", 100)
	iris("d3", 150)
	for _, tc := range []struct{ root, want string }{
		{"d1", "table3.1: 24 cells (0 cached, 24 run, 0 failed)"},
		{"d2", "table3.1: 24 cells (16 cached, 8 run, 0 failed)"},
		{"d3", "table3.1: 24 cells (24 cached, 0 run, 0 failed)"},
	} {
		code, _, stderr := runTether(t, dir, "repro", "-quick", "-quiet", "-cache", "c", "-data", tc.root, "-o", "out", "table3.1")
		if code != 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("-data %s: exit %d, stderr:\n%s\nwant %q", tc.root, code, stderr, tc.want)
		}
	}
}
