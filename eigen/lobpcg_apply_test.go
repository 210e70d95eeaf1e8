package eigen

import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestLOBPCGApplyNoColumns: lobpcgWork.apply never passes an operator a
// block of no columns. LOBPCG asks for such products when no column is
// active (every residual below the tolerance while the iteration goes on
// to verify) or every new direction was dropped; an Operator need not take
// an empty block (gonum's Dense.Scale panics on one, which helper 121 met
// in a test operator).
func TestLOBPCGApplyNoColumns(t *testing.T) {
	w := &lobpcgWork{n: 5}
	called := 0
	op := func(dst, x *mat.Dense) {
		called++
		if _, c := x.Dims(); c == 0 {
			t.Fatal("operator applied to a block of no columns")
		}
	}
	w.apply(op, make([]float64, 10), make([]float64, 10), 0)
	w.apply(op, make([]float64, 10), make([]float64, 10), 2)
	if called != 1 {
		t.Errorf("operator called %d times, want 1 (the block of 2 columns)", called)
	}
}
