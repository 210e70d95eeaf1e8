package graph

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSqrtProduct: √(a·b) as written wherever a·b is a normal float64 (the
// same bits as the plain expression), and √a·√b, finite and positive,
// where the product would overflow or underflow.
func TestSqrtProduct(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		a, b := math.Exp(rnd.Float64()*300-150), math.Exp(rnd.Float64()*300-150)
		if got, want := SqrtProduct(a, b), math.Sqrt(a*b); got != want {
			t.Fatalf("SqrtProduct(%v, %v) = %v, want %v bit for bit", a, b, got, want)
		}
	}
	for _, c := range []struct{ a, b, want float64 }{
		{1e200, 1e200, 1e200},
		{1e300, 4e300, 2e300},
		{1e-200, 1e-200, 1e-200},
		{1e-300, 4e-300, 2e-300},
		{1e-170, 1e170, 1},
	} {
		got := SqrtProduct(c.a, c.b)
		if math.Abs(got-c.want) > 1e-14*c.want {
			t.Errorf("SqrtProduct(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestLaplacianScaleInvariant: L_sym and its regularized form are
// invariant under W → cW (the regularized τ scaled with W), and are
// computed so from c = 1e-200 to 1e200. Before, √(d_i d_j) overflowed at
// 1e200 (every entry 0: L_sym = I, a wrong embedding without a warning)
// and underflowed at 1e-200 (non-finite entries).
func TestLaplacianScaleInvariant(t *testing.T) {
	const n = 60
	var edges []Edge
	rnd := rand.New(rand.NewPCG(3, 4))
	for i := range n {
		edges = append(edges, Edge{I: i, J: (i + 1) % n, W: 1 + rnd.Float64()})
		edges = append(edges, Edge{I: i, J: (i + 7) % n, W: rnd.Float64()})
	}
	x := mat.NewDense(n, 2, nil)
	for i := range n {
		x.Set(i, 0, rnd.NormFloat64())
		x.Set(i, 1, rnd.NormFloat64())
	}
	apply := func(c float64, regularized bool) *mat.Dense {
		scaled := make([]Edge, len(edges))
		for k, e := range edges {
			scaled[k] = Edge{I: e.I, J: e.J, W: c * e.W}
		}
		g, err := FromEdges(n, scaled)
		if err != nil {
			t.Fatalf("c = %g: %v", c, err)
		}
		var l *Laplacian
		if regularized {
			l, err = NewRegularizedLaplacian(g, Symmetric, 0.5*c, false)
		} else {
			l, err = NewLaplacian(g, Symmetric)
		}
		if err != nil {
			t.Fatalf("c = %g: %v", c, err)
		}
		y := mat.NewDense(n, 2, nil)
		l.MulTo(y, x)
		return y
	}
	for _, reg := range []bool{false, true} {
		want := apply(1, reg)
		for _, c := range []float64{1e200, 1e-200, 1e300, 1e-300} {
			if got := apply(c, reg); !mat.EqualApprox(got, want, 1e-12) {
				t.Errorf("regularized %v, c = %g: L·x differs from c = 1's", reg, c)
			}
		}
	}
}
