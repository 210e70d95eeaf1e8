package cluster

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/graph"
)

// TestCommuteTimeEmbedding checks the commute-time embedding against an
// independent computation of thesis eq. 2.4.16: with every eigenpair of L,
// vol(G)·‖v_i − v_j‖² equals vol(G)(e_i − e_j)ᵀL⁺(e_i − e_j), with L⁺ of a
// connected graph computed as (L + 11ᵀ/n)⁻¹ − 11ᵀ/n (no eigenvectors).
func TestCommuteTimeEmbedding(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		p    float64
		seed uint64
	}{
		{"sparse", 30, 0.15, 1},
		{"dense", 25, 0.6, 2},
		{"path-like", 12, 0.05, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(tc.seed, 9))
			var edges []graph.Edge
			for i := 1; i < tc.n; i++ { // a random spanning tree keeps it connected
				edges = append(edges, graph.Edge{I: i, J: rng.IntN(i), W: 0.5 + rng.Float64()})
			}
			for i := 0; i < tc.n; i++ {
				for j := i + 1; j < tc.n; j++ {
					if rng.Float64() < tc.p {
						edges = append(edges, graph.Edge{I: i, J: j, W: 0.1 + rng.Float64()})
					}
				}
			}
			g, err := graph.FromEdges(tc.n, edges)
			if err != nil {
				t.Fatal(err)
			}
			n := tc.n
			// L + 11ᵀ/n, inverted, minus 11ᵀ/n.
			lj := mat.NewDense(n, n, nil)
			vol := 0.0
			for i := 0; i < n; i++ {
				idx, w := g.Row(i)
				for k, j := range idx {
					lj.Set(i, int(j), lj.At(i, int(j))-w[k])
				}
				lj.Set(i, i, lj.At(i, i)+g.Degree(i))
				vol += g.Degree(i)
			}
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					lj.Set(i, j, lj.At(i, j)+1/float64(n))
				}
			}
			var lp mat.Dense
			if err := lp.Inverse(lj); err != nil {
				t.Fatal(err)
			}
			e, err := laplacianEmbedding(context.Background(), g, graph.Unnormalized, n, exactLaplacian, &Settings{})
			if err != nil {
				t.Fatal(err)
			}
			if zero := commuteTimeScale(e); zero != 1 {
				t.Fatalf("%d null columns, want 1 (connected graph)", zero)
			}
			v := e.vectors
			for i := 0; i < n; i++ {
				for j := i + 1; j < n; j++ {
					var d2 float64
					for c := 0; c < n; c++ {
						x := v.At(i, c) - v.At(j, c)
						d2 += x * x
					}
					want := lp.At(i, i) + lp.At(j, j) - 2*lp.At(i, j) // the 11ᵀ/n terms cancel
					if math.Abs(vol*d2-vol*want) > 1e-8*vol*want {
						t.Fatalf("ctd(%d,%d) = %.12g from the embedding, %.12g from L⁺", i, j, vol*d2, vol*want)
					}
				}
			}
		})
	}
}

// TestUnnormalizedCommuteTime runs usc with CommuteTime on two cliques
// joined by one edge (the split is found), and on k = 2 with 2 components
// (the embedding would be empty: an error).
func TestUnnormalizedCommuteTime(t *testing.T) {
	two, one := bridgedCliques(t, 8, 0), bridgedCliques(t, 8, 0.1)
	res, err := Run(context.Background(), Unnormalized{CommuteTime: true}, &Problem{Graph: one, K: 2}, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 16; i++ {
		if res.Labels[i] != res.Labels[8*(i/8)] || res.Labels[0] == res.Labels[8] {
			t.Fatalf("labels %v, want the two cliques", res.Labels)
		}
	}
	if _, err := Run(context.Background(), Unnormalized{CommuteTime: true}, &Problem{Graph: two, K: 2}, &Settings{Seed: 1}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("two components, k = 2: err = %v, want ErrInvalid", err)
	}
}
