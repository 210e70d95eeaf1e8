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

func TestEndless(t *testing.T) {
	cancels := 0
	e := &Endless{Line: "12\n", After: 5, Cancel: func() { cancels++ }}
	p := make([]byte, 4)
	var got []byte
	for i := 0; i < 3; i++ {
		n, err := e.Read(p)
		if err != nil || n != len(p) {
			t.Fatalf("read %d: %d, %v", i, n, err)
		}
		got = append(got, p[:n]...)
	}
	if string(got) != "12\n12\n12\n12\n" || cancels != 1 || e.Given != 12 || e.AfterCancel != 4 {
		t.Errorf("got %q, %d cancels, given %d, after cancel %d; want 12\\n×4, 1, 12, 4", got, cancels, e.Given, e.AfterCancel)
	}
}
