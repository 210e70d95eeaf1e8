package cluster

import (
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
)

// TestNJWRecoversPlantedPartitions is the acceptance test of the
// foundation issue: NJW (thesis Alg. 3) with a k-NN graph recovers the
// planted partition of the two-moons and Gaussian-blobs generators with
// ARI > 0.95.
func TestNJWRecoversPlantedPartitions(t *testing.T) {
	type gen func(seed uint64) (*mat.Dense, []int, error)
	cases := []struct {
		name string
		k    int
		gen  gen
		spec graph.Spec
	}{
		{"two moons n=1000 noise 0.05 default graph", 2, func(s uint64) (*mat.Dense, []int, error) {
			return synth.Moons(1000, 0.05, rand.NewPCG(s, 1))
		}, graph.DefaultSpec()},
		// At noise 0.08 the moons' tips touch: an unweighted or locally
		// scaled 10-NN graph then has a lower-Ncut cut than the moons, and a
		// global σ (median heuristic) is needed to weaken the bridges.
		{"two moons n=1000 noise 0.08 median sigma", 2, func(s uint64) (*mat.Dense, []int, error) {
			return synth.Moons(1000, 0.08, rand.NewPCG(s, 1))
		}, graph.Spec{Kind: graph.SymmetricKNN, K: 10, Affinity: graph.RBF, Sigma: graph.Sigma{Rule: graph.SigmaMedian}}},
		{"two moons binary sklearn-style 10-NN", 2, func(s uint64) (*mat.Dense, []int, error) {
			return synth.Moons(600, 0.06, rand.NewPCG(s, 2))
		}, graph.Spec{Kind: graph.SklearnKNN, K: 10, Affinity: graph.Binary}},
		{"5 blobs in 10-D n=3000", 5, func(s uint64) (*mat.Dense, []int, error) {
			return synth.Blobs(3000, 5, 10, 1, rand.NewPCG(s, 3))
		}, graph.DefaultSpec()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, seed := range []uint64{1, 2, 3} {
				x, truth, err := tc.gen(seed)
				if err != nil {
					t.Fatal(err)
				}
				g, err := graph.Build(context.Background(), x, tc.spec)
				if err != nil {
					t.Fatal(err)
				}
				res, err := Run(context.Background(), NJW{}, &Problem{Graph: g, K: tc.k}, &Settings{Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				if a := ari(t, truth, res.Labels); a <= 0.95 {
					t.Errorf("seed %d: ARI %.4f ≤ 0.95", seed, a)
				}
			}
		})
	}
}
