package testctx

import (
	"context"
	"errors"
	"testing"
)

func TestCancelAfter(t *testing.T) {
	for _, n := range []int{0, 1, 5} {
		ctx := CancelAfter(n)
		for i := 0; i < n; i++ {
			if err := ctx.Err(); err != nil {
				t.Fatalf("n = %d: call %d: err = %v, want nil", n, i+1, err)
			}
			select {
			case <-ctx.Done():
				t.Fatalf("n = %d: Done closed after %d calls", n, i+1)
			default:
			}
		}
		if err := ctx.Err(); !errors.Is(err, context.Canceled) {
			t.Fatalf("n = %d: call %d: err = %v, want context.Canceled", n, n+1, err)
		}
		<-ctx.Done()
	}
}
