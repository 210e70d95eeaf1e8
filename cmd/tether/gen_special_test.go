//go:build linux

package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestGenLabelsBesideSpecialFile: a graph generator whose output is not
// a regular file (/dev/null, a symbolic link to it, a FIFO) or standard
// output writes no labels file beside it, and a note says the labels were
// not written and which flag would write them; beside a regular file they
// go to FILE.labels as before. Before, gen sbm -o /dev/null created the
// regular file /dev/null.labels (and cluster -gen-out the same).
func TestGenLabelsBesideSpecialFile(t *testing.T) {
	dir := t.TempDir()
	devNullLink := filepath.Join(dir, "null.txt")
	if err := os.Symlink(os.DevNull, devNullLink); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.txt")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	regular := filepath.Join(dir, "g.txt")
	// /dev/null.labels must not appear: if it already exists (another
	// program's), the /dev/null cases cannot tell and are skipped; if this
	// test made it (the old code did), it is removed again.
	devLabels := os.DevNull + ".labels"
	_, statErr := os.Lstat(devLabels)
	devLabelsFree := errors.Is(statErr, fs.ErrNotExist)
	t.Cleanup(func() {
		if devLabelsFree {
			if fi, err := os.Lstat(devLabels); err == nil && fi.Mode().IsRegular() {
				os.Remove(devLabels)
			}
		}
	})
	for _, tc := range []struct {
		name     string
		args     []string
		fifo     bool     // out is the FIFO: read it while the command runs
		dev      bool     // writes /dev/null itself
		noLabels []string // files that must not appear
		labels   string   // the labels file written, "" for none
		note     []string // in standard error; nil: no note
	}{
		{name: "gen -o /dev/null", args: []string{"gen", "sbm", "-n", "40", "-o", os.DevNull}, dev: true,
			noLabels: []string{devLabels}, note: []string{"tether gen: note: the labels of the generated graph were not written: -o /dev/null is not a regular file", "give -labels FILE"}},
		{name: "cluster -gen-out /dev/null", args: []string{"cluster", "-gen", "sbm", "-n", "40", "-k", "2", "-gen-out", os.DevNull}, dev: true,
			noLabels: []string{devLabels}, note: []string{"tether cluster: note: the labels of the generated graph were not written: -gen-out /dev/null is not a regular file", "give -gen-out a regular file"}},
		{name: "gen -o link to /dev/null", args: []string{"gen", "dcsbm", "-n", "40", "-o", devNullLink},
			noLabels: []string{filepath.Join(dir, "null.labels")}, note: []string{"-o " + devNullLink + " is not a regular file"}},
		{name: "cluster -gen-out link to /dev/null", args: []string{"cluster", "-gen", "sbm", "-n", "40", "-k", "2", "-gen-out", devNullLink},
			noLabels: []string{filepath.Join(dir, "null.labels")}, note: []string{"-gen-out " + devNullLink + " is not a regular file"}},
		{name: "cluster -gen-out link to /dev/null -quiet", args: []string{"cluster", "-gen", "sbm", "-n", "40", "-k", "2", "-gen-out", devNullLink, "-quiet"},
			noLabels: []string{filepath.Join(dir, "null.labels")}},
		{name: "gen -o FIFO", args: []string{"gen", "sbm", "-n", "40", "-o", fifo}, fifo: true,
			noLabels: []string{filepath.Join(dir, "fifo.labels")}, note: []string{"-o " + fifo + " is not a regular file"}},
		{name: "gen -o -", args: []string{"gen", "sbm", "-n", "40", "-o", "-"},
			note: []string{"not written: the graph went to standard output", "give -labels FILE, or -o a regular file"}},
		{name: "gen -o /dev/null -labels FILE", args: []string{"gen", "sbm", "-n", "40", "-o", os.DevNull, "-labels", filepath.Join(dir, "l.labels")}, dev: true,
			noLabels: []string{devLabels}, labels: filepath.Join(dir, "l.labels")},
		{name: "gen -o regular file", args: []string{"gen", "sbm", "-n", "40", "-o", regular},
			labels: filepath.Join(dir, "g.labels")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.dev && !devLabelsFree {
				t.Skipf("%s exists already", devLabels)
			}
			done := make(chan error, 1)
			if tc.fifo {
				go func() {
					f, err := os.Open(fifo)
					if err == nil {
						_, err = io.Copy(io.Discard, f)
						f.Close()
					}
					done <- err
				}()
			}
			_, stderr, err := run(t, tc.args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			if tc.fifo {
				if err := <-done; err != nil {
					t.Fatal(err)
				}
			}
			for _, p := range tc.noLabels {
				if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s exists (stat error %v)", p, err)
				}
			}
			if tc.labels != "" {
				if fi, err := os.Stat(tc.labels); err != nil || fi.Size() == 0 {
					t.Errorf("labels file %s: %v", tc.labels, err)
				}
			}
			for _, w := range tc.note {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if tc.note == nil && strings.Contains(stderr, "not written") {
				t.Errorf("unexpected note:\n%s", stderr)
			}
		})
	}
}
