package constraint

import (
	"context"
	"io"
	"testing"

	"github.com/tether-sc/tether/internal/testctx"
)

// ReadContext stops soon after its context is cancelled while it reads an
// input that never ends, with ctx's error naming the file.
func TestReadContextStopsMidRead(t *testing.T) {
	testctx.StopsMidRead(t, "0,1,ml\n", "pairs.csv", func(ctx context.Context, r io.Reader) error {
		_, err := ReadContext(ctx, r, &ReadOptions{File: "pairs.csv", Policy: Soft})
		return err
	})
}
