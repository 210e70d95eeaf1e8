//go:build linux

package inputfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tether-sc/tether/internal/testctx"
)

// A FIFO nobody writes to: Open returns soon after the cancellation, with
// the context's error naming the path (os.Open blocked in the open system
// call, deaf to Ctrl-C).
func TestOpenFIFOWithoutWriterCancels(t *testing.T) {
	p := testctx.Mkfifo(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	done := make(chan error, 1)
	go func() {
		f, err := Open(ctx, p)
		if err == nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), p) {
			t.Fatalf("err = %v, want context.Canceled naming %s", err, p)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Open did not return within 5 s of the cancellation")
	}
}

// Pipes keep working: a FIFO whose writer comes later, one whose writer
// writes nothing, an anonymous pipe reached by /proc/self/fd whose writer
// has finished (poll never reports it, so it must not be waited for).
func TestOpenPipes(t *testing.T) {
	for _, tc := range []struct {
		name string
		// setup returns the path to open and starts the writer.
		setup func(t *testing.T) string
		want  string
	}{
		{"FIFO, writer after the open", func(t *testing.T) string {
			p := testctx.Mkfifo(t)
			go func() {
				time.Sleep(300 * time.Millisecond)
				os.WriteFile(p, []byte("1,2\n3,4\n"), 0)
			}()
			return p
		}, "1,2\n3,4\n"},
		{"FIFO, writer writes nothing", func(t *testing.T) string {
			p := testctx.Mkfifo(t)
			go func() {
				time.Sleep(300 * time.Millisecond)
				if w, err := os.OpenFile(p, os.O_WRONLY, 0); err == nil {
					w.Close()
				}
			}()
			return p
		}, ""},
		{"anonymous pipe, writer done", func(t *testing.T) string {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Close() })
			w.WriteString("x\n")
			w.Close()
			return fmt.Sprintf("/proc/self/fd/%d", r.Fd())
		}, "x\n"},
		{"regular file", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "f.txt")
			os.WriteFile(p, []byte("a\n"), 0o600)
			return p
		}, "a\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.setup(t)
			done := make(chan string, 1)
			go func() {
				f, err := Open(context.Background(), p)
				if err != nil {
					done <- "error: " + err.Error()
					return
				}
				defer f.Close()
				b, err := io.ReadAll(f)
				if err != nil {
					done <- "error: " + err.Error()
					return
				}
				done <- string(b)
			}()
			select {
			case got := <-done:
				if got != tc.want {
					t.Fatalf("read %q, want %q", got, tc.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("no result within 10 s")
			}
		})
	}
}

// A read of a FIFO whose writer is connected but silent ends with an
// error soon after the cancellation.
func TestReadStopsOnCancel(t *testing.T) {
	p := testctx.Mkfifo(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	writer := make(chan *os.File, 1)
	go func() {
		w, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			writer <- nil
			return
		}
		w.WriteString("first\n")
		writer <- w
	}()
	f, err := Open(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := <-writer
	if w == nil {
		t.Fatal("the writer could not open the FIFO")
	}
	defer w.Close()
	readThenCancel(t, f, cancel)
}

// blockingPipe returns the ends of a pipe as os.NewFile makes them of
// inherited descriptors (os.Stdin): blocking, not polled by the runtime,
// so that no read deadline ends their reads.
func blockingPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		t.Fatal(err)
	}
	r, w = os.NewFile(uintptr(p[0]), "r"), os.NewFile(uintptr(p[1]), "w")
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

// Reopen of a blocking pipe (standard input): its data pass, a read
// waiting for more ends soon after the cancellation, and closing the
// File leaves the pipe open, its later data for the next reader.
func TestReopenPipe(t *testing.T) {
	r, w := blockingPipe(t)
	if err := r.SetReadDeadline(time.Now()); !errors.Is(err, os.ErrNoDeadline) {
		t.Fatalf("the pipe takes a deadline (%v): it does not stand for os.Stdin", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := Reopen(ctx, r)
	w.WriteString("first\n")
	readThenCancel(t, f, cancel)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	w.WriteString("next\n")
	w.Close()
	if b, err := io.ReadAll(r); err != nil || string(b) != "next\n" {
		t.Fatalf("after Close the pipe reads %q, %v; want %q", b, err, "next\n")
	}
}

// Reopen of a regular file reads it from where it stands (a shell's
// "{ read header; cmd; } < file" has moved it), and closing the File
// leaves it open.
func TestReopenRegularFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.txt")
	if err := os.WriteFile(p, []byte("header\n1\n2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	orig, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer orig.Close()
	if _, err := orig.Seek(int64(len("header\n")), io.SeekStart); err != nil {
		t.Fatal(err)
	}
	f := Reopen(context.Background(), orig)
	b, err := io.ReadAll(f)
	if err != nil || string(b) != "1\n2\n" {
		t.Fatalf("read %q, %v; want %q", b, err, "1\n2\n")
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := orig.Seek(0, io.SeekStart); err != nil {
		t.Fatalf("the file was closed: %v", err)
	}
}

// readThenCancel reads "first\n" from f, then cancels (through cancel, 200
// ms later) a read that waits for more, which must end with
// os.ErrDeadlineExceeded within 5 s.
func readThenCancel(t *testing.T, f *File, cancel context.CancelFunc) {
	t.Helper()
	buf := make([]byte, 64)
	if n, err := f.Read(buf); err != nil || string(buf[:n]) != "first\n" {
		t.Fatalf("first read %q, %v", buf[:n], err)
	}
	time.AfterFunc(200*time.Millisecond, cancel)
	done := make(chan error, 1)
	go func() {
		_, err := f.Read(buf)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("err = %v, want os.ErrDeadlineExceeded", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the read did not return within 5 s of the cancellation")
	}
}
