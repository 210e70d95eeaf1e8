package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tether-sc/tether/internal/testctx"
)

// TestRunInterruptedDuringCheck: an interrupt while CheckManifest waits
// for a manifest that blocks (a local FIFO nobody writes to, whose
// os.Open in Beam's local file system blocked, deaf to the context)
// stops run within a second with exit code 130 and "interrupted", and
// leaves nothing behind: no output folder, which run creates only after
// the check. A manifest with a writer later is still read.
func TestRunInterruptedDuringCheck(t *testing.T) {
	for _, tc := range []struct {
		name   string
		writer bool // a process writes an empty manifest to the FIFO after 300 ms
		code   int
		stderr string
	}{
		{"no writer", false, 130, "tether-beam: interrupted"},
		{"a writer", true, 1, "no jobs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fifo := testctx.Mkfifo(t)
			out := filepath.Join(t.TempDir(), "out")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.writer {
				go func() {
					time.Sleep(300 * time.Millisecond)
					os.WriteFile(fifo, []byte("# nothing\n"), 0)
				}()
			} else {
				time.AfterFunc(300*time.Millisecond, cancel)
			}
			var stderr bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- run(ctx, fifo, out, "", &stderr) }()
			select {
			case code := <-done:
				if code != tc.code || !strings.Contains(stderr.String(), tc.stderr) {
					t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr.String(), tc.code, tc.stderr)
				}
			case <-time.After(1300 * time.Millisecond):
				// Unblock the open, so that run returns before the
				// folders are removed.
				if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
					w.Close()
				}
				<-done
				t.Fatal("run did not return within 1 s of the interrupt")
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
