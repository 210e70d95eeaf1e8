package input

import (
	"context"
	"io"
	"testing"

	"github.com/tether-sc/tether/internal/testctx"
)

// ReadPartialLabels stops soon after its context is cancelled while it
// reads an input that never ends, with ctx's error naming the file.
func TestReadPartialLabelsStopsMidRead(t *testing.T) {
	testctx.StopsMidRead(t, "0\n", "partial.txt", func(ctx context.Context, r io.Reader) error {
		_, err := ReadPartialLabels(ctx, r, "partial.txt", 0, 0, nil)
		return err
	})
}
