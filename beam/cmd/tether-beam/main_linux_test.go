package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tether-sc/tether/internal/testctx"
)

// TestRunRefusesPipes: a manifest that is a pipe — a FIFO with no writer,
// the read end of an os.Pipe reached by a path (cat m.jsonl | tether-beam
// -manifest /dev/stdin; -manifest <(cat m.jsonl)) — stops run at once
// with exit code 1 and an error naming the file that asks for a regular
// file, and leaves nothing behind: no output folder. The check read the
// pipe, the pipeline found it empty, and the run exited 0 having written
// nothing (a FIFO with one writer hung in the pipeline's open instead).
func TestRunRefusesPipes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		manifest func(t *testing.T) string
	}{
		{"FIFO", func(t *testing.T) string { return testctx.Mkfifo(t) }},
		{"pipe", func(t *testing.T) string {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Close() })
			w.WriteString(`{"id":"a","gen":"moons","gen_params":{"n":"60"},"k":2,"method":"njw","seed":1}` + "\n")
			w.Close()
			return fmt.Sprintf("/proc/self/fd/%d", r.Fd())
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			manifest := tc.manifest(t)
			out := filepath.Join(t.TempDir(), "out")
			var stderr bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- run(context.Background(), manifest, out, "", &stderr) }()
			select {
			case code := <-done:
				want := "tether-beam: manifest " + manifest + ": not a regular file"
				if code != 1 || !strings.Contains(stderr.String(), want) || !strings.Contains(stderr.String(), "give a regular file") {
					t.Fatalf("exit %d, stderr %q; want 1 and %q", code, stderr.String(), want)
				}
			case <-time.After(time.Second):
				// Unblock an open of the FIFO, so that run returns
				// before the folders are removed.
				if w, err := os.OpenFile(manifest, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					w.Close()
				}
				<-done
				t.Fatal("run did not return within 1 s")
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Fatalf("output folder %s: %v, want none", out, err)
			}
		})
	}
}

// TestBrokenPipeFinishesTheRun: tether-beam whose standard output and
// error have lost their reader before it starts (tether-beam … 2>&1 |
// head, the reader gone) runs the batch to the end and exits 0, with the
// labels and results.jsonl whole and nothing left in its temporary folder.
// SIGPIPE used to end it at Beam's first log line, leaving its private
// folder TMPDIR/tether-beam-* behind and no output.
func TestBrokenPipeFinishesTheRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs tether-beam in a child process")
	}
	dir := t.TempDir()
	manifest := oneJobManifest(t, dir)
	out, tmp := filepath.Join(dir, "out"), t.TempDir()
	cmd := exec.Command(os.Args[0], "-manifest", manifest, "-out", out)
	cmd.Env = append(os.Environ(), "TETHER_BEAM_TEST_MAIN=1", "TMPDIR="+tmp)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	cmd.Stdout, cmd.Stderr = w, w
	err = cmd.Run()
	w.Close()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		t.Fatalf("exit: %v, want status 0", err)
	} else if err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(out)
	var files []string
	for _, e := range ents {
		files = append(files, e.Name())
	}
	if want := []string{"a.labels", "results.jsonl"}; !slices.Equal(files, want) {
		t.Fatalf("%s holds %q (%v), want %q", out, files, err, want)
	}
	if b, err := os.ReadFile(filepath.Join(out, "results.jsonl")); err != nil || !strings.Contains(string(b), `"id":"a"`) || strings.Contains(string(b), `"error"`) {
		t.Errorf("results %q (%v), want job a without error", b, err)
	}
	if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
		var left []string
		for _, e := range ents {
			left = append(left, e.Name())
		}
		t.Errorf("the run left %q in TMPDIR", left)
	}
}

// TestRunRefusesStdinFile: tether-beam -manifest /dev/stdin < m.jsonl,
// standard input a regular file, exits 1 before the run, naming
// /dev/stdin, and creates no output folder (the run was accepted, and its
// jobs' relative paths resolved against /dev/: "open /dev/moons.csv").
func TestRunRefusesStdinFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ok.jsonl")
	if err := os.WriteFile(path, []byte(`{"id":"a","gen":"moons","gen_params":{"n":"60"},"k":2,"method":"njw","seed":1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
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
	out := filepath.Join(dir, "out")
	var stderr bytes.Buffer
	code := run(context.Background(), "/dev/stdin", out, "", &stderr)
	if want := "tether-beam: manifest /dev/stdin: not a regular file (standard input"; code != 1 || !strings.Contains(stderr.String(), want) {
		t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr.String(), want)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("output folder: %v, want none", err)
	}
}
