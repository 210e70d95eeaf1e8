package cluster

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/eigen/eigentest"
	"github.com/tether-sc/tether/graph"
)

// disjointGraph joins the given edge lists, each on its own nodes, into
// one graph.
func disjointGraph(t *testing.T, parts [][]graph.Edge, sizes []int) *graph.Graph {
	t.Helper()
	var edges []graph.Edge
	off := 0
	for p, es := range parts {
		for _, e := range es {
			edges = append(edges, graph.Edge{I: e.I + off, J: e.J + off, W: e.W})
		}
		off += sizes[p]
	}
	g, err := graph.FromEdges(off, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// pathEdges is a path on n nodes with unit weights: its Laplacian's low
// end is dense (eigenvalues ≈ (πj/n)²), so a proportional share of the
// wanted pairs is too few for it.
func pathEdges(n int) []graph.Edge {
	out := make([]graph.Edge, n-1)
	for i := range out {
		out[i] = graph.Edge{I: i, J: i + 1, W: 1}
	}
	return out
}

// TestComponentEmbeddingMatchesDense checks componentEmbedding against a
// dense eigendecomposition of the whole graph's Laplacian: the values
// agree to 1e-8, every vector is an eigenvector of the whole Laplacian
// with its value (residual ≤ 1e-7), the vectors are orthonormal, and the
// null vectors come first. The cases include a long path, which holds
// more of the smallest eigenvalues than its share of the nodes (the
// doubling branch), and a tiny component.
func TestComponentEmbeddingMatchesDense(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	rng := rand.New(rand.NewPCG(7, 7))
	for _, c := range []struct {
		name  string
		sizes []int
		path  []bool
		count int
	}{
		{"three random", []int{300, 200, 120}, []bool{false, false, false}, 12},
		{"path holds many", []int{500, 150, 120}, []bool{false, true, false}, 20},
		{"tiny component", []int{400, 3, 250}, []bool{false, false, false}, 9},
	} {
		for _, kind := range []graph.LaplacianKind{graph.Symmetric, graph.Unnormalized} {
			t.Run(c.name+"/"+kind.String(), func(t *testing.T) {
				parts := make([][]graph.Edge, len(c.sizes))
				for i, n := range c.sizes {
					if c.path[i] {
						parts[i] = pathEdges(n)
					} else {
						parts[i] = eigentest.RandomGraph(n, rng)
					}
				}
				g := disjointGraph(t, parts, c.sizes)
				comp, nc := g.Components()
				if nc != len(c.sizes) {
					t.Fatalf("%d components, want %d", nc, len(c.sizes))
				}
				e, err := componentEmbedding(context.Background(), g, kind, c.count, comp, nc, (&Settings{EigenSettings: &eigen.Settings{Tol: 1e-12}}).orDefault())
				if err != nil {
					t.Fatal(err)
				}
				lap := eigentest.DenseLaplacian(g.N(), g.Edges(), kind)
				var es mat.EigenSym
				if !es.Factorize(lap, false) {
					t.Fatal("dense eigendecomposition failed")
				}
				want := es.Values(nil)
				for j := 0; j < c.count; j++ {
					if math.Abs(e.values[j]-want[j]) > 1e-8 {
						t.Errorf("λ_%d = %.12g, dense %.12g", j, e.values[j], want[j])
					}
				}
				for j := 0; j < nc; j++ {
					if math.Abs(e.values[j]) > 1e-12 {
						t.Errorf("value %d = %g, want a null vector first", j, e.values[j])
					}
				}
				var lv, g2 mat.Dense
				lv.Mul(lap, e.vectors)
				for j := 0; j < c.count; j++ {
					var r float64
					for i := 0; i < g.N(); i++ {
						d := lv.At(i, j) - e.values[j]*e.vectors.At(i, j)
						r += d * d
					}
					if math.Sqrt(r) > 1e-7 {
						t.Errorf("residual of vector %d = %.3g", j, math.Sqrt(r))
					}
				}
				g2.Mul(e.vectors.T(), e.vectors)
				for i := 0; i < c.count; i++ {
					for j := 0; j < c.count; j++ {
						w := 0.0
						if i == j {
							w = 1
						}
						if math.Abs(g2.At(i, j)-w) > 1e-9 {
							t.Fatalf("VᵀV[%d,%d] = %.3g", i, j, g2.At(i, j))
						}
					}
				}
			})
		}
	}
}
