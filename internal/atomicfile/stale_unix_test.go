//go:build unix

package atomicfile

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// TestStale: Stale lists the temporary files of its path left by a
// process that no longer runs (".NAME.tmpPID-DIGITS", PID gone), not
// those of this process or of one that runs (PID 1), nor names of another
// form or of another file, and a write of the path removes none of them.
func TestStale(t *testing.T) {
	// A PID that no longer runs: a child that has exited.
	child := exec.Command(os.Args[0], "-test.run=^$")
	if err := child.Run(); err != nil {
		t.Fatal(err)
	}
	dead := strconv.Itoa(child.Process.Pid)
	// The folder with its links resolved, as Stale names the files.
	dir := filepath.Dir(Target(filepath.Join(t.TempDir(), "out.txt")))
	stale := filepath.Join(dir, ".out.txt.tmp"+dead+"-123")
	others := []string{
		".out.txt.tmp" + strconv.Itoa(os.Getpid()) + "-456", // this process's
		".out.txt.tmp1-789",            // PID 1 runs
		".out.txt.tmp999",              // an older version's name
		".other.txt.tmp" + dead + "-1", // another file's
	}
	for _, name := range append([]string{filepath.Base(stale)}, others...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := Stale(filepath.Join(dir, "out.txt")); !slices.Equal(got, []string{stale}) {
		t.Errorf("Stale = %q, want %q", got, []string{stale})
	}
	if err := Write(context.Background(), filepath.Join(dir, "out.txt"), writeString("out")); err != nil {
		t.Fatal(err)
	}
	for _, name := range append([]string{filepath.Base(stale)}, others...) {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v, want it left in place", name, err)
		}
	}
}
