package tetherbeam

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/tether-sc/tether/internal/testctx"
)

// pipeManifest returns the path, /proc/self/fd/N, of the read end of an
// os.Pipe that holds content and whose writer is closed (a shell's
// <(cat m.jsonl), or /dev/stdin of cat m.jsonl | tether-beam), and the
// read end itself, closed at the end of the test.
func pipeManifest(t *testing.T, content string) (string, *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	if _, err := io.WriteString(w, content); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return fmt.Sprintf("/proc/self/fd/%d", r.Fd()), r
}

// TestCheckManifestRefusesPipes: a local manifest that is not a regular
// file — a FIFO with or without a writer, an anonymous pipe reached by a
// path (/dev/stdin, <(cmd)), a folder — is refused at once, before it is
// read, with an error wrapping ErrNotRegular that names it and asks for a
// regular file. The check read the pipe and the pipeline then found it
// empty: the run wrote nothing and exited 0 (an old results.jsonl passed
// for the run's), and a FIFO with one writer hung the pipeline's open.
func TestCheckManifestRefusesPipes(t *testing.T) {
	const line = `{"id":"a","gen":"moons","k":2}` + "\n"
	for _, tc := range []struct {
		name string
		// setup returns the manifest and checks, after the check, that
		// it was not read.
		setup func(t *testing.T) (string, func())
		what  string
	}{
		{"FIFO without a writer", func(t *testing.T) (string, func()) { return testctx.Mkfifo(t), func() {} }, "a pipe or FIFO"},
		{"FIFO with a writer", func(t *testing.T) (string, func()) {
			fifo := testctx.Mkfifo(t)
			wrote := make(chan error, 1)
			go func() { wrote <- os.WriteFile(fifo, []byte(line), 0) }()
			return fifo, func() {
				// The writer still waits for a reader: the check did
				// not open the FIFO. Read it, which ends the writer.
				select {
				case err := <-wrote:
					t.Fatalf("the writer finished before the FIFO was read (%v): the check opened it", err)
				default:
				}
				r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				if err := <-wrote; err != nil {
					t.Fatal(err)
				}
				if b, err := io.ReadAll(r); err != nil || string(b) != line {
					t.Errorf("FIFO read %q (%v) after the check, want %q", b, err, line)
				}
			}
		}, "a pipe or FIFO"},
		{"anonymous pipe", func(t *testing.T) (string, func()) {
			path, r := pipeManifest(t, line)
			return path, func() {
				if b, err := io.ReadAll(r); err != nil || string(b) != line {
					t.Errorf("pipe holds %q (%v) after the check, want %q", b, err, line)
				}
			}
		}, "a pipe or FIFO"},
		{"folder", func(t *testing.T) (string, func()) { return t.TempDir(), func() {} }, "a folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			manifest, unread := tc.setup(t)
			done := make(chan error, 1)
			go func() {
				_, err := CheckManifest(context.Background(), manifest)
				done <- err
			}()
			select {
			case err := <-done:
				if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), manifest) || !strings.Contains(err.Error(), tc.what) || !strings.Contains(err.Error(), "give a regular file") {
					t.Fatalf("error %v, want one wrapping %v that names %s (%s) and asks for a regular file", err, ErrNotRegular, manifest, tc.what)
				}
			case <-time.After(time.Second):
				if w, err := os.OpenFile(manifest, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					w.Close() // unblocks an open of a FIFO
				}
				<-done
				t.Fatal("CheckManifest did not return within 1 s")
			}
			unread()
		})
	}
}

// TestBatchFailsWithoutJobLines: a pipeline whose manifest gives it no job
// line — a pipe, which Beam's text reader sizes by its stat (0 bytes) and
// reads nothing of, or a file of comments only — fails with an error that
// names the manifest, and leaves the output folder as it was (the earlier
// run's results.jsonl and labels). It used to succeed, writing nothing:
// the earlier results.jsonl then passed for the run's.
func TestBatchFailsWithoutJobLines(t *testing.T) {
	const line = `{"id":"a","gen":"moons","gen_params":{"n":"20"},"k":2,"method":"njw","seed":1}` + "\n"
	for _, tc := range []struct {
		name     string
		manifest func(t *testing.T) string
	}{
		{"pipe", func(t *testing.T) string { p, _ := pipeManifest(t, line); return p }},
		{"comments only", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "m.jsonl")
			if err := os.WriteFile(p, []byte("# nothing\n\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			manifest := tc.manifest(t)
			out := t.TempDir()
			earlier := map[string]string{ResultsFile: `{"id":"old"}` + "\n", "old.labels": "0\n"}
			for name, content := range earlier {
				if err := os.WriteFile(filepath.Join(out, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			p, s := beam.NewPipelineWithRoot()
			Batch(s, manifest, "", out)
			err := ptest.Run(p)
			if err == nil || !strings.Contains(err.Error(), "read no job line") || !strings.Contains(err.Error(), manifest) {
				t.Fatalf("pipeline error %v, want one saying it read no job line of %s", err, manifest)
			}
			got := map[string]string{}
			ents, _ := os.ReadDir(out)
			for _, e := range ents {
				b, _ := os.ReadFile(filepath.Join(out, e.Name()))
				got[e.Name()] = string(b)
			}
			if !reflect.DeepEqual(got, earlier) {
				t.Errorf("the output folder holds %q, want the earlier run's %q", got, earlier)
			}
		})
	}
}
