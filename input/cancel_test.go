package input

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tether-sc/tether/internal/testctx"
)

// ReadPartialLabels stops soon after its context is cancelled while it
// reads an input that never ends, with ctx's error naming the file.
func TestReadPartialLabelsStopsMidRead(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src := &testctx.Endless{Line: "0\n", After: 1 << 20, Cancel: cancel}
	done := make(chan error, 1)
	go func() {
		_, err := ReadPartialLabels(ctx, src, "partial.txt", 0, 0, nil)
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		// Not a speed check: a reader that ignores ctx never returns.
		t.Fatal("ReadPartialLabels did not return")
	}
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "partial.txt") {
		t.Fatalf("err = %v, want context.Canceled naming the file", err)
	}
	if src.AfterCancel > 1<<20 {
		t.Errorf("read %d bytes after the cancellation", src.AfterCancel)
	}
}
