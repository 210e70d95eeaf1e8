package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/eigen"
)

// TestClusterMemoryGuard: tether cluster refuses, with exit status 1 and
// a message naming the bytes needed, the bound, where it comes from and
// the remedies in flags, a run whose dense blocks pass its memory bound
// (guardMemory: -max-memory-mib, set here, or 3/4 of the available
// memory): label propagation over 150 classes of partial labels on 300
// points (48·300·150 bytes, 2.1 MiB, over 1 MiB), and an eigensolve of
// k = 300 on 600 points, which Lanczos solves densely (five 600×600
// matrices, 13.7 MiB, over 8 MiB). Before, nothing bounded the CLI: at
// 2·10⁵ nodes the same requests (200 000 classes; k = 35 000) died with
// "fatal error: out of memory" and a goroutine dump, exit 2. Under a
// bound they fit in (-max-memory-mib 1024), the same commands write the
// same labels as without the flag. A negative -max-memory-mib is a usage
// error (exit 2). The bound was set by GOMEMLIMIT in a child process
// before: that is a target of the garbage collector, not a limit.
func TestClusterMemoryGuard(t *testing.T) {
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
	// command runs tether in this process and returns its exit status
	// and standard error as main would write them.
	command := func(args ...string) (int, string) {
		_, stderr, err := run(t, args...)
		var msg bytes.Buffer
		code := exitCode(context.Background(), err, &msg)
		return code, stderr + msg.String()
	}
	for _, c := range []struct {
		name, mib string
		args      []string
		want      []string
	}{
		{"labelprop, 150 classes", "1", []string{"cluster", "-input", pts300, "-method", "labelprop", "-partial-labels", labels, "-quiet"},
			[]string{"labelprop: ", "K = 150 classes", "need about 2.1 MiB (2160000 bytes), more than the bound of 1.0 MiB", "fewer classes",
				"tether cluster bounds the run's dense blocks by -max-memory-mib 1 (1.0 MiB)", "raise the bound with -max-memory-mib"}},
		{"k = 300 of 600, dense", "8", []string{"cluster", "-input", pts600, "-k", "300", "-quiet"},
			[]string{"a dense solve of n = 600 for K = 300 eigenpairs needs about 13.7 MiB", "more than Settings.MaxDenseBytes = 8.0 MiB", "ask for fewer eigenpairs",
				"tether cluster bounds the run's dense blocks by -max-memory-mib 8 (8.0 MiB): ask for a smaller -k", "raise the bound with -max-memory-mib"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stderr := command(append(c.args, "-max-memory-mib", c.mib)...)
			if code != 1 || strings.Contains(stderr, "fatal error") || strings.Contains(stderr, "goroutine ") {
				t.Fatalf("-max-memory-mib %s: exit %d, stderr:\n%s\nwant exit 1 and a refusal", c.mib, code, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("-max-memory-mib %s: stderr lacks %q:\n%s", c.mib, w, stderr)
				}
			}
			// Within a bound the run fits in, the labels are those of the
			// command without the flag.
			out := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".txt")
			if code, stderr := command(append(c.args, "-max-memory-mib", "1024", "-o", out)...); code != 0 {
				t.Fatalf("-max-memory-mib 1024: exit %d:\n%s", code, stderr)
			}
			here := filepath.Join(dir, "here.txt")
			if code, stderr := command(append(c.args, "-o", here)...); code != 0 {
				t.Fatalf("without -max-memory-mib: exit %d:\n%s", code, stderr)
			}
			a, _ := os.ReadFile(out)
			b, _ := os.ReadFile(here)
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Errorf("labels under -max-memory-mib 1024 differ from those without it (%d and %d bytes)", len(a), len(b))
			}
		})
	}
	if code, stderr := command("cluster", "-input", pts300, "-max-memory-mib", "-1", "-quiet"); code != 2 || !strings.Contains(stderr, "-max-memory-mib") {
		t.Errorf("-max-memory-mib -1: exit %d, stderr:\n%s\nwant a usage error (exit 2) naming the flag", code, stderr)
	}
}

// TestMemoryGuardExplain: explain adds the bound's origin and the flags'
// remedies to a refusal by the bound only, told by the library's
// sentinels (eigen.ErrMemoryBound, cluster.ErrMemoryBound), whatever the
// message says: the default bound is named as 3/4 of the available
// memory, -max-memory-mib as itself; other errors, even ones whose text
// names MaxDenseBytes, pass unchanged, and the result still wraps the
// refusal.
func TestMemoryGuardExplain(t *testing.T) {
	refusal := fmt.Errorf("cluster: eigensolver: %w", fmt.Errorf("wrapped: %w", eigen.ErrMemoryBound))
	blocks := fmt.Errorf("cluster: labelprop: %w", cluster.ErrMemoryBound)
	lookalike := errors.New("eigen: invalid argument: needs more than Settings.MaxDenseBytes")
	for _, c := range []struct {
		b    memoryBound
		err  error
		want string
	}{
		{memoryBound{bytes: 3 << 30}, refusal, "tether cluster bounds the run's dense blocks by 3/4 of the available memory (3.0 GiB): ask for a smaller -k"},
		{memoryBound{bytes: 5 << 20, mib: 5}, blocks, "by -max-memory-mib 5 (5.0 MiB): ask for a smaller -k, fewer classes in -partial-labels"},
		{memoryBound{bytes: 5 << 20, mib: 5}, lookalike, ""},
	} {
		got := c.b.explain(c.err)
		if c.want == "" {
			if got != c.err {
				t.Errorf("%v: explained as %v; want it unchanged", c.err, got)
			}
			continue
		}
		if !strings.HasPrefix(got.Error(), c.err.Error()+"; ") || !strings.Contains(got.Error(), c.want) || !strings.HasSuffix(got.Error(), "or raise the bound with -max-memory-mib") || !errors.Is(got, c.err) {
			t.Errorf("%v: explained as %q; want it followed by %q", c.err, got, c.want)
		}
	}
	if got := (memoryBound{}).explain(nil); got != nil {
		t.Errorf("nil explained as %v", got)
	}
}
