package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestClusterMemoryGuard: tether cluster refuses, with exit status 1 and
// a message naming the bytes needed, the bound and the remedy, a run
// whose dense blocks pass its memory bound (guardMemory: 3/4 of the
// machine's memory, or GOMEMLIMIT when lower; set here in a child
// process): label propagation over 150 classes of partial labels on 300
// points (48·300·150 bytes, 2.1 MiB, over 1 MiB), and an eigensolve of
// k = 300 on 600 points, which Lanczos solves densely (five 600×600
// matrices, 14.4 MB, over 8 MiB). Before, nothing bounded the CLI: at
// 2·10⁵ nodes the same requests (200 000 classes; k = 35 000) died with
// "fatal error: out of memory" and a goroutine dump, exit 2. Under a
// bound they fit in, the same commands write the same labels as the
// command in this process (no bound it reaches).
func TestClusterMemoryGuard(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command in child processes")
	}
	dir := t.TempDir()
	pts300, pts600 := filepath.Join(dir, "m300.csv"), filepath.Join(dir, "m600.csv")
	for _, g := range []struct {
		path string
		n    int
	}{{pts300, 300}, {pts600, 600}} {
		if _, stderr, err := run(t, "gen", "moons", "-n", fmt.Sprint(g.n), "-seed", "1", "-o", g.path); err != nil {
			t.Fatalf("gen: %v\n%s", err, stderr)
		}
	}
	var pl strings.Builder
	for i := 0; i < 300; i += 2 {
		fmt.Fprintf(&pl, "%d,%d\n", i, i/2)
	}
	labels := filepath.Join(dir, "pl.csv")
	if err := os.WriteFile(labels, []byte(pl.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	child := func(limit string, args ...string) (int, string) {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), "TETHER_TEST_MAIN=1", "GOMEMLIMIT="+limit)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		switch {
		case err == nil:
			return 0, stderr.String()
		case errors.As(err, &ee):
			return ee.ExitCode(), stderr.String()
		}
		t.Fatalf("%v: %v", args, err)
		return 0, ""
	}
	for _, c := range []struct {
		name, limit string
		args        []string
		want        []string
	}{
		{"labelprop, 150 classes", "1MiB", []string{"cluster", "-input", pts300, "-method", "labelprop", "-partial-labels", labels, "-quiet"},
			[]string{"labelprop: ", "K = 150 classes", "need about 2.1 MiB (2160000 bytes), more than the bound of 1.0 MiB", "fewer classes"}},
		{"k = 300 of 600, dense", "8MiB", []string{"cluster", "-input", pts600, "-k", "300", "-quiet"},
			[]string{"a dense solve of n = 600 for K = 300 pairs needs about 14400000 bytes", "more than Settings.MaxDenseBytes = 8388608", "ask for fewer"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stderr := child(c.limit, c.args...)
			if code != 1 || strings.Contains(stderr, "fatal error") || strings.Contains(stderr, "goroutine ") {
				t.Fatalf("GOMEMLIMIT=%s: exit %d, stderr:\n%s\nwant exit 1 and a refusal", c.limit, code, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("GOMEMLIMIT=%s: stderr lacks %q:\n%s", c.limit, w, stderr)
				}
			}
			// Within a bound the run fits in, the labels are those of the
			// command run here.
			out := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".txt")
			if code, stderr := child("1GiB", append(c.args, "-o", out)...); code != 0 {
				t.Fatalf("GOMEMLIMIT=1GiB: exit %d:\n%s", code, stderr)
			}
			here := filepath.Join(dir, "here.txt")
			if _, stderr, err := run(t, append(c.args, "-o", here)...); err != nil {
				t.Fatalf("in this process: %v\n%s", err, stderr)
			}
			a, _ := os.ReadFile(out)
			b, _ := os.ReadFile(here)
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Errorf("labels under GOMEMLIMIT=1GiB differ from those of the command in this process (%d and %d bytes)", len(a), len(b))
			}
		})
	}
}
