package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
)

// TestLaplacianEmbeddingAgainstDense checks the embedding of graphs above
// DenseLimit (where the null vectors are deflated and the nodes relabelled
// in RCM order for the iterative solver) against the dense
// eigendecomposition of the Laplacian of the graph as given: same
// eigenvalues, and every returned vector an eigenvector of the original
// Laplacian (which fails if the relabelling were not undone).
func TestLaplacianEmbeddingAgainstDense(t *testing.T) {
	const tol = 1e-7
	for _, tc := range []struct {
		n, count int
		kind     graph.LaplacianKind
		parts    int // connected components: blobs far apart
	}{
		{DenseLimit + 100, 6, graph.Symmetric, 1},
		{DenseLimit + 100, 6, graph.Unnormalized, 1},
		{DenseLimit + 50, 8, graph.Symmetric, 3},
	} {
		t.Run(fmt.Sprintf("n=%d/%v/parts=%d", tc.n, tc.kind, tc.parts), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(uint64(tc.n), 11))
			x, _ := fgpwcBlobs(rnd, tc.n, 2, tc.parts, 1)
			if tc.parts > 1 {
				// Move the blobs far apart: the 10-NN graph splits.
				for i := 0; i < tc.n; i++ {
					x.Set(i, 0, x.At(i, 0)+1000*float64(i%tc.parts))
				}
			}
			g := fgpwcKNNGraph(t, x, 10)
			if _, nc := g.Components(); nc != tc.parts {
				t.Fatalf("graph has %d components, want %d", nc, tc.parts)
			}
			e, err := laplacianEmbedding(context.Background(), g, tc.kind, tc.count, exactLaplacian, &Settings{})
			if err != nil {
				t.Fatal(err)
			}
			lap, err := graph.NewLaplacian(g, tc.kind)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := eigen.Dense{}.Solve(context.Background(), eigen.Problem{A: lap, K: tc.count}, nil)
			if err != nil {
				t.Fatal(err)
			}
			lv := mat.NewDense(tc.n, tc.count, nil)
			lap.MulTo(lv, e.vectors)
			for j := 0; j < tc.count; j++ {
				if d := math.Abs(e.values[j] - ref.Values[j]); d > tol {
					t.Errorf("λ_%d = %.12g, dense %.12g", j, e.values[j], ref.Values[j])
				}
				var res, nrm float64
				for i := 0; i < tc.n; i++ {
					r := lv.At(i, j) - e.values[j]*e.vectors.At(i, j)
					res += r * r
					nrm += e.vectors.At(i, j) * e.vectors.At(i, j)
				}
				if math.Abs(nrm-1) > tol || math.Sqrt(res) > 10*tol {
					t.Errorf("vector %d: ‖v‖² = %.9f, ‖Lv − λv‖ = %.3g", j, nrm, math.Sqrt(res))
				}
			}
		})
	}
}

// TestLaplacianEmbeddingIsolatedNode checks that an isolated node is
// refused with an error naming it in the caller's labels, both below
// DenseLimit and above it (where the solver works on a relabelled copy),
// for every count including one the deflated null vectors alone satisfy.
func TestLaplacianEmbeddingIsolatedNode(t *testing.T) {
	for _, n := range []int{50, DenseLimit + 100} {
		const lonely = 17
		var edges []graph.Edge
		for i := 0; i+1 < n; i++ {
			if i != lonely && i+1 != lonely {
				edges = append(edges, graph.Edge{I: i, J: i + 1, W: 1})
			}
		}
		edges = append(edges, graph.Edge{I: lonely - 1, J: lonely + 1, W: 1})
		g, err := graph.FromEdges(n, edges)
		if err != nil {
			t.Fatal(err)
		}
		for _, count := range []int{1, 2, 5} {
			_, err := laplacianEmbedding(context.Background(), g, graph.Symmetric, count, exactLaplacian, &Settings{})
			if !errors.Is(err, graph.ErrIsolated) || !strings.Contains(err.Error(), fmt.Sprintf("node %d ", lonely)) {
				t.Errorf("n = %d, count = %d: err = %v, want ErrIsolated naming node %d", n, count, err, lonely)
			}
		}
		// The unnormalized Laplacian is defined: the isolated node is a
		// component of its own.
		if _, err := laplacianEmbedding(context.Background(), g, graph.Unnormalized, 3, exactLaplacian, &Settings{}); err != nil {
			t.Errorf("n = %d, unnormalized: %v", n, err)
		}
	}
}

func TestEmbeddingWarnsBelowSolverResolution(t *testing.T) {
	// Two 5-cliques joined by a unit edge, and node 10 hanging from node 0
	// by an edge of weight w. With w = 1e-9 the Laplacian D − W has an
	// eigenvalue near 1e-9, far below the resolution tol·‖L‖ ≈ 1e-8·2·5,
	// where an iterative solver cannot tell it from 0 or from its
	// neighbours; with w = 1 every eigenvalue is resolved.
	build := func(w float64) *graph.Graph {
		var es []graph.Edge
		for c := 0; c < 2; c++ {
			for i := 0; i < 5; i++ {
				for j := i + 1; j < 5; j++ {
					es = append(es, graph.Edge{I: 5*c + i, J: 5*c + j, W: 1})
				}
			}
		}
		es = append(es, graph.Edge{I: 4, J: 5, W: 1}, graph.Edge{I: 0, J: 10, W: w})
		g, err := graph.FromEdges(11, es)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	// Lanczos chosen explicitly: an iterative solve at 11 nodes. The
	// default dense solve (11 ≤ DenseLimit) resolves 1e-9: its resolution
	// is n·ε·‖L‖ ≈ 2.4e-14, and it does not warn.
	lanczos := &Settings{Eigen: eigen.Lanczos{}}
	for _, tc := range []struct {
		name string
		w    float64
		kind graph.LaplacianKind
		s    *Settings
		want bool
	}{
		{"unnormalized, tiny edge", 1e-9, graph.Unnormalized, lanczos, true},
		{"unnormalized, unit edge", 1, graph.Unnormalized, lanczos, false},
		{"symmetric, tiny edge", 1e-9, graph.Symmetric, lanczos, false}, // L_sym's pendant eigenvalue is not small
		{"unnormalized, tiny edge, dense", 1e-9, graph.Unnormalized, &Settings{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := laplacianEmbedding(context.Background(), build(tc.w), tc.kind, 3, exactLaplacian, tc.s)
			if err != nil {
				t.Fatal(err)
			}
			warned := slices.ContainsFunc(e.warnings, func(w string) bool { return strings.Contains(w, "below the eigensolver's resolution") })
			if warned != tc.want {
				t.Errorf("values %.3g: warned %v, want %v (%q)", e.values, warned, tc.want, e.warnings)
			}
		})
	}
	// Through Run: usc passes the warning on.
	res, err := Run(context.Background(), Unnormalized{}, &Problem{Graph: build(1e-9), K: 3}, &Settings{Seed: 1, Eigen: eigen.Lanczos{}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "1 eigenvalue(s) of") }) {
		t.Errorf("usc's warnings %q do not say that an eigenvalue is below the resolution", res.Warnings)
	}
}

// TestEigenSettingsZeroTol checks that Settings.EigenSettings with a zero
// Tol keeps cluster's tolerance (1e-8), not eigen's default (1e-10), and
// that a Tol it sets is used as given: &eigen.Settings{MaxIter: 50} used
// to tighten the tolerance a hundredfold as well.
func TestEigenSettingsZeroTol(t *testing.T) {
	for _, c := range []struct {
		name string
		es   *eigen.Settings
		want float64
	}{
		{"nil", nil, defaultEigenTol},
		{"MaxIter only", &eigen.Settings{MaxIter: 50}, 1e-8},
		{"Tol set", &eigen.Settings{Tol: 1e-6}, 1e-6},
	} {
		s := &Settings{EigenSettings: c.es}
		if got := s.eigenSettings(); got.Tol != c.want || (c.es != nil && got.MaxIter != c.es.MaxIter) {
			t.Errorf("%s: eigenSettings() = Tol %g, MaxIter %d; want Tol %g, MaxIter as given", c.name, got.Tol, got.MaxIter, c.want)
		}
	}
}
