package eigen

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// explicitProject returns zᵀ·a·z by matrix products (the reference).
func explicitProject(a *mat.SymDense, z *mat.Dense) *mat.Dense {
	var az, g mat.Dense
	az.Mul(a, z)
	g.Mul(z.T(), &az)
	return &g
}

// TestComplementBasis checks the implicit complement basis against the
// explicit Z = Q[:, d:] of gonum's mat.QR (the same Householder
// factorization, formed by QTo): ZᵀAZ and Z·y agree to 1e-12, Z is
// orthogonal to Y, and d = 0-like cases (a zero reflector) are handled.
func TestComplementBasis(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, c := range []struct{ n, d int }{{2, 1}, {5, 2}, {40, 1}, {40, 3}, {97, 7}} {
		y := mat.NewDense(c.n, c.d, nil)
		for i := 0; i < c.n; i++ {
			for j := 0; j < c.d; j++ {
				y.Set(i, j, rng.NormFloat64())
			}
		}
		if c.n == 2 {
			y.Set(1, 0, 0) // τ = 0: the reflector is the identity
		}
		a := mat.NewSymDense(c.n, nil)
		for i := 0; i < c.n; i++ {
			for j := i; j < c.n; j++ {
				a.SetSym(i, j, rng.NormFloat64())
			}
		}
		var qr mat.QR
		qr.Factorize(y)
		var full mat.Dense
		qr.QTo(&full)
		z := mat.DenseCopyOf(full.Slice(0, c.n, c.d, c.n))
		h := newComplementBasis(y)
		m := c.n - c.d
		if m == 0 {
			continue
		}
		got := h.project(a)
		want := explicitProject(a, z)
		for i := 0; i < m; i++ {
			for j := 0; j < m; j++ {
				if d := math.Abs(got.At(i, j) - want.At(i, j)); d > 1e-12*float64(c.n) {
					t.Fatalf("n=%d d=%d: ZᵀAZ[%d,%d] = %v, explicit %v", c.n, c.d, i, j, got.At(i, j), want.At(i, j))
				}
			}
		}
		yy := mat.NewDense(m, 3, nil)
		for i := 0; i < m; i++ {
			for j := 0; j < 3; j++ {
				yy.Set(i, j, rng.NormFloat64())
			}
		}
		lifted := h.lift(yy)
		var ref mat.Dense
		ref.Mul(z, yy)
		for i := 0; i < c.n; i++ {
			for j := 0; j < 3; j++ {
				if d := math.Abs(lifted.At(i, j) - ref.At(i, j)); d > 1e-12*float64(c.n) {
					t.Fatalf("n=%d d=%d: Z·y[%d,%d] = %v, explicit %v", c.n, c.d, i, j, lifted.At(i, j), ref.At(i, j))
				}
			}
		}
		// The lifted vectors are orthogonal to Y.
		var yt mat.Dense
		yt.Mul(y.T(), lifted)
		if n := mat.Norm(&yt, math.Inf(1)); n > 1e-12*float64(c.n)*mat.Norm(y, 2) {
			t.Fatalf("n=%d d=%d: |Yᵀ·Z·y| = %g", c.n, c.d, n)
		}
	}
}

// scaledOp is the operator s·I, for an s out of floating-point range.
type scaledOp struct {
	n int
	s float64
}

func (o scaledOp) Dim() int { return o.n }
func (o scaledOp) MulTo(dst, x *mat.Dense) {
	dst.Scale(o.s, x)
}

// A NaN or an infinity in the operator or the deflated vectors gives an
// error wrapping ErrNonFinite, which callers (cluster) report as a
// numerical failure of their operator.
func TestNonFiniteWrapsErrNonFinite(t *testing.T) {
	defl := mat.NewDense(3, 1, []float64{math.NaN(), 0, 0})
	for _, tc := range []struct {
		name string
		p    Problem
	}{
		{"operator NaN", Problem{A: scaledOp{3, math.NaN()}, K: 1, Which: Smallest}},
		{"operator Inf", Problem{A: scaledOp{3, math.Inf(1)}, K: 1, Which: Smallest}},
		{"deflate NaN", Problem{A: scaledOp{3, 1}, K: 1, Which: Smallest, Deflate: defl, DeflateValues: []float64{0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := (Dense{}).Solve(context.Background(), tc.p, nil); !errors.Is(err, ErrNonFinite) {
				t.Errorf("error %v, want one wrapping ErrNonFinite", err)
			}
		})
	}
}
