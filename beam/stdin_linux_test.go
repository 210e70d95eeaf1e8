package tetherbeam

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestCheckManifestRefusesDescriptors: a manifest named by a path of a
// file descriptor — /dev/stdin, /dev/fd/N, /proc/self/fd/N, or a link to
// one — is refused (ErrNotRegular) even when the descriptor is a regular
// file (tether-beam -manifest /dev/stdin < m.jsonl): its jobs' relative
// paths resolved against /dev/ ("open /dev/moons.csv"). The same file by
// its own path passes.
func TestCheckManifestRefusesDescriptors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ok.jsonl")
	if err := os.WriteFile(path, []byte(`{"id":"a","input":"moons.csv","k":2}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(fmt.Sprintf("/dev/fd/%d", f.Fd()), link); err != nil {
		t.Fatal(err)
	}
	// Standard input is the regular file, for /dev/stdin.
	saved, err := syscall.Dup(0)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Dup2(int(f.Fd()), 0); err != nil {
		t.Fatal(err)
	}
	defer func() {
		syscall.Dup2(saved, 0)
		syscall.Close(saved)
	}()
	if _, err := CheckManifest(context.Background(), path); err != nil {
		t.Fatalf("the file by its path: %v", err)
	}
	for _, m := range []string{"/dev/stdin", fmt.Sprintf("/dev/fd/%d", f.Fd()), fmt.Sprintf("/proc/self/fd/%d", f.Fd()), fmt.Sprintf("/proc/%d/fd/%d", os.Getpid(), f.Fd()), link} {
		if st, err := os.Stat(m); err != nil || !st.Mode().IsRegular() {
			t.Fatalf("%s: %v, %v: the test wants a regular file behind it", m, st, err)
		}
		_, err := CheckManifest(context.Background(), m)
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "manifest "+m+": ") || !strings.Contains(err.Error(), "standard input or an open file descriptor") {
			t.Errorf("%s: error %v, want ErrNotRegular naming it as a descriptor", m, err)
		}
	}
}
