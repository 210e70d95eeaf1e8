package main

import (
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
