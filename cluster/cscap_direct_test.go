package cluster

import (
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
			got, err := cscapDirect(w, pairs, eps[0], eps[1])
			if err != nil {
				t.Fatal(err)
			}
			wb, err := woodbury(w, pairs, eps[0], eps[1])
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
		{few, func() (*mat.SymDense, error) { return woodbury(w, few, 1, 1) }},
		{many, func() (*mat.SymDense, error) { return cscapDirect(w, many, 1, 1) }},
	} {
		got, err := cscapPropagate(w, tc.pairs, 1, 1)
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
