package cluster

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// TestCSCLaplacianMatchesDefinition builds L̄_cSC of seed 002 eq. 35–44
// entry by entry and compares it with the operator.
func TestCSCLaplacianMatchesDefinition(t *testing.T) {
	g := pwRandomGraph(t, 9, 10, 4)
	pairs := []constraint.Pair{
		{I: 0, J: 5, Kind: constraint.MustLink},
		{I: 0, J: 1, Kind: constraint.CannotLink}, // on an edge of the path: W and Q overlap
		{I: 3, J: 8, Kind: constraint.CannotLink, Weight: 2},
	}
	for _, gamma := range []float64{0.5, 0.2, 1} {
		n := 9
		wc := mat.NewDense(n, n, nil)
		wc.Scale(gamma, g.Dense())
		for _, q := range pairs {
			v := (1 - gamma) * q.W()
			if q.Kind == constraint.CannotLink {
				v = -v
			}
			wc.Set(q.I, q.J, wc.At(q.I, q.J)+v)
			wc.Set(q.J, q.I, wc.At(q.J, q.I)+v)
		}
		want := mat.NewDense(n, n, nil)
		dbar := make([]float64, n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				dbar[i] += math.Abs(wc.At(i, j))
			}
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				v := -wc.At(i, j)
				if i == j {
					v += dbar[i]
				}
				want.Set(i, j, v/math.Sqrt(dbar[i]*dbar[j]))
			}
		}
		op, err := newCSCLaplacian(g, pairs, gamma)
		if err != nil {
			t.Fatal(err)
		}
		if d := pwMaxAbsDiff(graph.Dense(op), want); d > 1e-13 {
			t.Errorf("γ = %v: max |Δ| = %g", gamma, d)
		}
		// Signed Laplacians are positive semidefinite (Kunegis et al.).
		ws := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				ws.SetSym(i, j, want.At(i, j))
			}
		}
		var es mat.EigenSym
		es.Factorize(ws, false)
		if l := es.Values(nil)[0]; l < -1e-12 {
			t.Errorf("γ = %v: λ_min = %g < 0", gamma, l)
		}
	}
}

// TestCSCConstraintsHelp: on blobs that overlap, cannot-links and
// must-links from 30% labels raise the ARI of cSC above its unconstrained
// value (γ = 1, where Q has no weight). Measured 0.756 against 0.714.
func TestCSCConstraintsHelp(t *testing.T) {
	g, truth := pwBlobGraph(t, 150, 3, 3, 21)
	labels, err := constraint.FractionLabels(truth, 0.3, rand.NewPCG(4, 4))
	if err != nil {
		t.Fatal(err)
	}
	set := constraint.FromLabels(labels)
	ari := func(m CSC, s *constraint.Set) float64 {
		res, err := m.Cluster(context.Background(), &Problem{Graph: g, K: 3, Constraints: s}, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		a, _ := metrics.ARI(truth, res.Labels)
		return a
	}
	free, con := ari(CSC{Gamma: 1}, set), ari(CSC{}, set)
	if !(con > free+0.03) {
		t.Errorf("ARI with constraints %.3f, without %.3f", con, free)
	}
}
