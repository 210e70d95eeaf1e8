package constraint

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
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

// TestReadContextCancelInTheCheck: the check of the pairs after the last
// line (duplicates, contradictions: 10⁷ pairs took 2–3 s, tether eval's
// "checking the pairs") checks the context too: a context cancelled at
// any of the last five checks of a whole read (counted first) stops the
// read there, naming the file and the step.
func TestReadContextCancelInTheCheck(t *testing.T) {
	var b strings.Builder
	for i := range 2*checkPoll + 5 {
		fmt.Fprintf(&b, "%d,%d,ml\n", i%1000, 1000+i%777)
	}
	read := func(ctx context.Context) error {
		_, err := ReadContext(ctx, strings.NewReader(b.String()), &ReadOptions{File: "pairs.csv", Policy: Soft})
		return err
	}
	count := &countingCtx{Context: context.Background()}
	if err := read(count); err != nil {
		t.Fatal(err)
	}
	checks := count.n
	for c := checks - 5; c < checks; c++ {
		if err := read(testctx.CancelAfter(c)); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "pairs.csv: stopped while checking the pairs") {
			t.Errorf("cancelled at check %d of %d: err = %v, want context.Canceled naming the file and the step", c+1, checks, err)
		}
	}
}

// countingCtx is a live context that counts the calls of Err.
type countingCtx struct {
	context.Context
	n int
}

func (c *countingCtx) Err() error {
	c.n++
	return nil
}

func (c *countingCtx) Done() <-chan struct{} { return nil }
