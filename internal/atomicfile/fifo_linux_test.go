package atomicfile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFIFOWithoutReaderCancels: an output to a FIFO that no process reads
// stops within a second of its context's cancellation (Ctrl-C) with the
// context's error; the open waited for a reader, ignoring interrupts. A
// FIFO whose reader does not read stops as well, in the blocked write.
func TestFIFOWithoutReaderCancels(t *testing.T) {
	big := strings.Repeat("x", 1<<20) // more than a pipe holds
	for _, c := range []struct {
		name   string
		reader bool // a reader opens the FIFO but reads nothing
	}{{"no reader", false}, {"reader that does not read", true}} {
		t.Run(c.name, func(t *testing.T) {
			fifo := filepath.Join(t.TempDir(), "ff")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skip("no FIFO:", err)
			}
			if c.reader {
				r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
			}
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(200*time.Millisecond, cancel)
			done := make(chan error, 1)
			start := time.Now()
			go func() { done <- Write(ctx, fifo, writeString(big)) }()
			select {
			case err := <-done:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("err = %v, want context.Canceled", err)
				}
				if d := time.Since(start); d > time.Second {
					t.Errorf("stopped after %v", d)
				}
			case <-time.After(3 * time.Second):
				// Free the blocked open or write so the test ends.
				if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
					go func() { io.Copy(io.Discard, r); r.Close() }()
				}
				t.Fatal("still writing 3 s after the cancellation")
			}
		})
	}
}

// TestFIFOWithReader: a FIFO read by another process gets the whole
// content, its reader coming after the write began.
func TestFIFOWithReader(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "ff")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	big := strings.Repeat("y", 1<<20)
	got := make(chan string, 1)
	go func() {
		time.Sleep(250 * time.Millisecond)
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	if err := Write(context.Background(), fifo, writeString(big)); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != big {
		t.Errorf("the reader got %d bytes, want %d", len(s), len(big))
	}
	if fi, err := os.Stat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v", err)
	}
}
