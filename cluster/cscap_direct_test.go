package cluster

import (
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
)

// The direct form equals the explicit ((W⁻¹ + UUᵀ)⁻¹, cscapExplicit) and
// the Woodbury form on well-conditioned W, with few and with many more
// pairs than nodes, repeated pairs and weights, and several ε.
func TestCSCAPDirectMatchesWoodbury(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct{ n, q int }{{15, 5}, {15, 40}, {30, 150}, {12, 0}} {
		w := cscapWellConditioned(tc.n, uint64(tc.n+tc.q))
		pairs := randomWeightedPairs(rng, tc.n, tc.q)
		for _, eps := range [][2]float64{{1, 1}, {0.3, 0.5}} {
			got, err := cscapDirect(context.Background(), w, pairs, eps[0], eps[1], nil)
			if err != nil {
				t.Fatal(err)
			}
			wb, err := woodbury(context.Background(), w, pairs, eps[0], eps[1], nil)
			if err != nil {
				t.Fatal(err)
			}
			want := cscapExplicit(t, w, pairs, eps[0], eps[1])
			// As TestCSCAPWoodburyMatchesExplicitInverse: the explicit
			// inverses lose a few digits.
			if d := pwMaxAbsDiff(got, want); d > 1e-10 {
				t.Errorf("n %d, q %d, ε %v: max |direct − explicit| = %g", tc.n, tc.q, eps, d)
			}
			if d := pwMaxAbsDiff(got, wb); d > 1e-10 {
				t.Errorf("n %d, q %d, ε %v: max |direct − Woodbury| = %g", tc.n, tc.q, eps, d)
			}
		}
	}
}

// cscapPropagate takes the form of fewer flops: Woodbury with few pairs,
// direct with many.
func TestCSCAPPropagateForm(t *testing.T) {
	w := cscapWellConditioned(20, 3)
	few := []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}}
	var many []constraint.Pair
	for i := 0; i < 19; i++ {
		many = append(many, constraint.Pair{I: i, J: i + 1, Kind: constraint.CannotLink})
	}
	for _, tc := range []struct {
		pairs []constraint.Pair
		form  func() (*mat.SymDense, error)
	}{
		{few, func() (*mat.SymDense, error) { return woodbury(context.Background(), w, few, 1, 1, nil) }},
		{many, func() (*mat.SymDense, error) { return cscapDirect(context.Background(), w, many, 1, 1, nil) }},
	} {
		got, err := cscapPropagate(context.Background(), w, tc.pairs, 1, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := tc.form()
		if err != nil {
			t.Fatal(err)
		}
		if d := pwMaxAbsDiff(got, want); d != 0 {
			t.Errorf("%d pairs: cscapPropagate differs from the cheaper form by %g", len(tc.pairs), d)
		}
	}
}

// cscapDirect's in-place solve and symmetrization give the same matrix,
// to the last bit, as the same steps on separate matrices: its system
// (cscapDirectSystem, checked here against I + W·UUᵀ formed by matrix
// products, to rounding) factorized by mat.LU, solved into a new matrix
// and symmetrized entry by entry into a new one.
func TestCSCAPDirectInPlaceMatchesSeparate(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, tc := range []struct{ n, q int }{{15, 40}, {40, 200}} {
		w := cscapWellConditioned(tc.n, uint64(tc.n))
		pairs := randomWeightedPairs(rng, tc.n, tc.q)
		got, err := cscapDirect(context.Background(), w, pairs, 0.3, 0.5, nil)
		if err != nil {
			t.Fatal(err)
		}
		n := tc.n
		a, err := cscapDirectSystem(context.Background(), w, pairs, 0.3, 0.5, nil)
		if err != nil {
			t.Fatal(err)
		}
		// The system against I + W·(UUᵀ), U's columns from cscapColumn.
		u := mat.NewDense(n, len(pairs), nil)
		for t, pr := range pairs {
			sign, coef := cscapColumn(pr, 0.3, 0.5)
			u.Set(pr.I, t, coef)
			u.Set(pr.J, t, sign*coef)
		}
		var m, b mat.Dense
		m.Mul(u, u.T())
		b.Mul(w, &m)
		for i := 0; i < n; i++ {
			b.Set(i, i, b.At(i, i)+1)
		}
		if !mat.EqualApprox(a, &b, 1e-12) {
			t.Errorf("n %d, q %d: cscapDirectSystem is not I + W·UUᵀ", tc.n, tc.q)
		}
		// The separate-matrix steps, with tolerance 0.
		var lu mat.LU
		lu.Factorize(a)
		var x mat.Dense
		if err := lu.SolveTo(&x, false, w); err != nil {
			t.Fatal(err)
		}
		want := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				want.SetSym(i, j, (x.At(i, j)+x.At(j, i))/2)
			}
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if got.At(i, j) != want.At(i, j) {
					t.Fatalf("n %d, q %d: entry (%d, %d) %v, separate steps %v", tc.n, tc.q, i, j, got.At(i, j), want.At(i, j))
				}
			}
		}
	}
}
