package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// runTether runs the command line args in dir (the working directory is
// changed for the call: not parallel) and returns its exit status,
// standard output and standard error.
func runTether(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	t.Chdir(dir)
	var out, errb bytes.Buffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
	err := m.Run(context.Background(), args)
	return exitCode(context.Background(), err, &errb), out.String(), errb.String()
}

// TestReproNames: "list" and "all" must stand alone (exit 2, naming which),
// and an experiment named twice runs once. Before, "list table5.1"
// listed everything and ignored the name, "table5.1 all" said unknown
// experiment "all", and "x x" ran x twice.
func TestReproNames(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want int
		msg  string
	}{
		{[]string{"repro", "list", "table5.1"}, 2, "usage: repro: list must be alone"},
		{[]string{"repro", "table5.1", "list"}, 2, "usage: repro: list must be alone"},
		{[]string{"repro", "-quick", "table5.1", "all"}, 2, "usage: repro: all must be alone"},
		{[]string{"repro", "-quick", "all", "all"}, 2, "usage: repro: all must be alone"},
	} {
		code, _, stderr := runTether(t, dir, tc.args...)
		if code != tc.want || !strings.Contains(stderr, tc.msg) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr, tc.want, tc.msg)
		}
	}
	// A generated-data experiment named twice: one run, one page written.
	code, stdout, stderr := runTether(t, dir, "repro", "-quick", "-quiet", "-cache", "", "-o", "out", "plmeans-limits", "plmeans-limits")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(stderr, "plmeans-limits: "); n != 1 {
		t.Errorf("plmeans-limits ran %d times, want once:\n%s", n, stderr)
	}
	if n := strings.Count(stdout, filepath.Join("out", "plmeans-limits", "README.md")); n != 1 {
		t.Errorf("page written %d times, want once:\n%s", n, stdout)
	}
}
