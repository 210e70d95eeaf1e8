package atomicfile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestRegistryDiscard: Discard removes the temporary files of the writes
// under the registry, the one staged and the one still being written,
// with the folder Stage created; afterwards their Commit and a new Stage
// fail with ErrDiscarded and put nothing in place. A write outside the
// registry is not affected. The temporary file is named
// ".NAME.tmpPID-DIGITS".
func TestRegistryDiscard(t *testing.T) {
	dir := t.TempDir()
	reg := NewRegistry()
	ctx := WithRegistry(context.Background(), reg)
	staged, err := Stage(ctx, filepath.Join(dir, "new", "a.txt"), writeString("a"))
	if err != nil {
		t.Fatal(err)
	}
	started, release := make(chan string), make(chan struct{})
	type result struct {
		p   *Pending
		err error
	}
	done := make(chan result)
	go func() {
		p, err := Stage(ctx, filepath.Join(dir, "b.txt"), func(w io.Writer) error {
			io.WriteString(w, "partial")
			m, _ := filepath.Glob(filepath.Join(dir, ".b.txt.tmp*"))
			started <- strings.Join(m, " ")
			<-release
			_, err := io.WriteString(w, " and the rest")
			return err
		})
		done <- result{p, err}
	}()
	tmp := <-started
	if want := filepath.Join(dir, ".b.txt.tmp"+strconv.Itoa(os.Getpid())+"-"); !strings.HasPrefix(tmp, want) || strings.Contains(tmp, " ") {
		t.Errorf("temporary file %q, want one beginning %q", tmp, want)
	}
	reg.Discard()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("after Discard, with a write running: %v, want nothing", entries)
	}
	close(release)
	r := <-done
	if r.err != nil {
		t.Fatalf("the write running during Discard: %v", r.err)
	}
	for _, p := range []*Pending{staged, r.p} {
		if err := p.Commit(context.Background()); !errors.Is(err, ErrDiscarded) {
			t.Errorf("Commit of %s after Discard: %v, want ErrDiscarded", p.Path(), err)
		}
	}
	if _, err := Stage(ctx, filepath.Join(dir, "c.txt"), writeString("c")); !errors.Is(err, ErrDiscarded) {
		t.Errorf("Stage after Discard: %v, want ErrDiscarded", err)
	} else if want := "writing " + filepath.Join(dir, "c.txt") + ": atomicfile: "; !strings.HasPrefix(err.Error(), want) {
		// The sentinel names its package, as the others of tether do.
		t.Errorf("Stage after Discard: %q, want it to begin %q", err, want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("after the Commits and Stage: %v, want nothing", entries)
	}
	if err := Write(context.Background(), filepath.Join(dir, "d.txt"), writeString("d")); err != nil {
		t.Errorf("a write outside the registry: %v", err)
	}
}

// TestRegistryCommitAndDiscard: a file committed or discarded leaves the
// registry, whose Discard then has nothing to remove (the committed file
// stays in place).
func TestRegistryCommitAndDiscard(t *testing.T) {
	dir := t.TempDir()
	reg := NewRegistry()
	ctx := WithRegistry(context.Background(), reg)
	a, err := Stage(ctx, filepath.Join(dir, "a.txt"), writeString("a"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Stage(ctx, filepath.Join(dir, "b.txt"), writeString("b"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	b.Discard()
	if n := len(reg.pending); n != 0 {
		t.Errorf("%d files registered after Commit and Discard, want 0", n)
	}
	reg.Discard()
	if got, err := os.ReadFile(filepath.Join(dir, "a.txt")); err != nil || string(got) != "a" {
		t.Errorf("a.txt holds %q (%v) after the registry's Discard, want \"a\"", got, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files %v, want a.txt alone", entries)
	}
}
