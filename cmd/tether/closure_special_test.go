//go:build linux

package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestClosureLineSpecialPage: constraints closure's line names each file
// as what it is: with closure.md a FIFO, "sent output to" it and "wrote"
// closure.csv and the figures (the line said "sent output to …/closure.md,
// closure.csv and the figures"); with closure.md linked to /dev/null, the
// files written are still named (the line vanished); all regular, the
// line as before.
func TestClosureLineSpecialPage(t *testing.T) {
	args := []string{"closure", "--partition", "A", "--reps", "1", "--counts", "0", "--alpha", "1", "-o"}
	for _, c := range []struct {
		name    string
		page    func(t *testing.T, md string) // makes closure.md special; nil: regular
		want    []string                      // in standard error, DIR for the directory
		notWant []string
	}{
		{"regular", nil, []string{"constraints closure: wrote DIR/closure.md, closure.csv and the figures into DIR\n"}, []string{"sent"}},
		{"FIFO page", func(t *testing.T, md string) {
			if err := syscall.Mkfifo(md, 0o600); err != nil {
				t.Fatal(err)
			}
		}, []string{"constraints closure: wrote closure-fig", "closure.csv into DIR; sent output to DIR/closure.md\n"}, []string{"sent output to DIR/closure.md, closure.csv", "wrote DIR/closure.md"}},
		{"null page", func(t *testing.T, md string) {
			if err := os.Symlink(os.DevNull, md); err != nil {
				t.Fatal(err)
			}
		}, []string{"constraints closure: wrote closure-fig", "closure.csv into DIR\n"}, []string{"closure.md", "sent"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			md := filepath.Join(dir, "closure.md")
			done := make(chan error, 1)
			if c.page != nil {
				c.page(t, md)
			}
			if c.name == "FIFO page" {
				go func() {
					f, err := os.Open(md)
					if err == nil {
						_, err = io.Copy(io.Discard, f)
						f.Close()
					}
					done <- err
				}()
			} else {
				done <- nil
			}
			_, stderr, err := runConstraintsCLI(t, append(args, dir)...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Stat(filepath.Join(dir, "closure.csv")); err != nil || !fi.Mode().IsRegular() {
				t.Fatalf("closure.csv not written: %v", err)
			}
			for _, w := range c.want {
				if w = strings.ReplaceAll(w, "DIR", dir); !strings.Contains(stderr, w) {
					t.Errorf("standard error\n%s\nwant %q", stderr, w)
				}
			}
			for _, w := range c.notWant {
				if w = strings.ReplaceAll(w, "DIR", dir); strings.Contains(stderr, w) {
					t.Errorf("standard error\n%s\nwant no %q", stderr, w)
				}
			}
		})
	}
}
