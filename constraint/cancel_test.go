package constraint

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tether-sc/tether/internal/testctx"
)

// ReadContext stops soon after its context is cancelled while it reads an
// input that never ends, with ctx's error naming the file and line.
func TestReadContextStopsMidRead(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src := &testctx.Endless{Line: "0,1,ml\n", After: 1 << 20, Cancel: cancel}
	done := make(chan error, 1)
	go func() {
		_, err := ReadContext(ctx, src, &ReadOptions{File: "pairs.csv", Policy: Soft})
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		// Not a speed check: a reader that ignores ctx never returns.
		t.Fatal("ReadContext did not return")
	}
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "pairs.csv: reading stopped at line") {
		t.Fatalf("err = %v, want context.Canceled naming the file and line", err)
	}
	// At most pollLines lines and a scanner buffer after the cancellation.
	if src.AfterCancel > 1<<20 {
		t.Errorf("read %d bytes after the cancellation", src.AfterCancel)
	}
}
