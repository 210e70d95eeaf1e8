package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
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
