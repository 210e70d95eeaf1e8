package cluster

import (
	"errors"
	"fmt"
	"testing"
)

// TestMethodError: a method's error names the package once, keeps the
// rest of the chain, and unwraps to the sentinels.
func TestMethodError(t *testing.T) {
	inner := fmt.Errorf("%w: %w: only 1 finite generalized eigenvalue", ErrInvalid, errPencil)
	err := wrapMethod("fast-ge2", inner)
	if want := "cluster: fast-ge2: invalid problem: generalized eigenproblem: only 1 finite generalized eigenvalue"; err.Error() != want {
		t.Errorf("%q, want %q", err, want)
	}
	if !errors.Is(err, ErrInvalid) || !errors.Is(err, errPencil) {
		t.Error("the sentinels are lost")
	}
	if err := wrapMethod("x", errors.New("the cluster: a word")); err.Error() != "cluster: x: the cluster: a word" {
		t.Errorf("%q", err)
	}
	if wrapMethod("x", nil) != nil {
		t.Error("nil wraps to non-nil")
	}
}
