//go:build unix

package interrupt

import (
	"bytes"
	"sync"
	"syscall"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the writer goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestNotify: a SIGTERM sent to the process prints the message and calls
// cancel. (A second signal would have the default action and end the test
// binary, so none is sent.)
func TestNotify(t *testing.T) {
	var w syncBuffer
	done := make(chan struct{})
	Notify(&w, "cmd: interrupted", func() { close(done) })
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("cancel was not called within 5 s of SIGTERM")
	}
	if got := w.String(); got != "cmd: interrupted\n" {
		t.Errorf("printed %q, want %q", got, "cmd: interrupted\n")
	}
}
