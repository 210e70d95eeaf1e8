package eigen_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/internal/testpanic"
)

// TestNewMatrixNil: a nil matrix is a programming error that NewMatrix
// names, not a nil dereference.
func TestNewMatrixNil(t *testing.T) {
	var typed *mat.SymDense
	for _, c := range []struct {
		name string
		a    mat.Symmetric
		want string
	}{
		{"nil", nil, "eigen: NewMatrix: a is nil"},
		{"nil SymDense", typed, "eigen: NewMatrix: a is a nil *mat.SymDense"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if msg := testpanic.Message(func() { eigen.NewMatrix(c.a) }); msg != c.want {
				t.Errorf("panic %q, want %q", msg, c.want)
			}
		})
	}
}

// TestZeroMatrix: the zero Matrix, a nil *Matrix and NewMatrix of an empty
// SymDense are the 0×0 matrix, which the solvers refuse with ErrInvalid.
func TestZeroMatrix(t *testing.T) {
	for _, c := range []struct {
		name string
		m    *eigen.Matrix
	}{
		{"zero value", &eigen.Matrix{}},
		{"nil", nil},
		{"empty SymDense", eigen.NewMatrix(&mat.SymDense{})},
	} {
		t.Run(c.name, func(t *testing.T) {
			if n := c.m.Dim(); n != 0 {
				t.Errorf("Dim = %d, want 0", n)
			}
			for _, s := range []eigen.Solver{eigen.Dense{}, eigen.Lanczos{}} {
				_, err := s.Solve(context.Background(), eigen.Problem{A: c.m, K: 1}, nil)
				if !errors.Is(err, eigen.ErrInvalid) || !strings.Contains(err.Error(), "operator dimension 0") {
					t.Errorf("%T: error %v, want ErrInvalid naming dimension 0", s, err)
				}
			}
			if c.m == nil {
				return
			}
			msg := testpanic.Message(func() { c.m.MulTo(&mat.Dense{}, &mat.Dense{}) })
			if msg != "eigen: Matrix.MulTo on the zero (0×0) Matrix" {
				t.Errorf("MulTo panic %q", msg)
			}
		})
	}
}
