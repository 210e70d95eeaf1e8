package cluster

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
)

// gridGraph is the r×c grid with unit weights, node i·c + j at row i,
// column j. The eigenvalues of its Laplacian D − W are
// (2 − 2cos(πa/r)) + (2 − 2cos(πb/c)), a < r, b < c.
func gridGraph(tb testing.TB, r, c int) *graph.Graph {
	tb.Helper()
	var es []graph.Edge
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if j+1 < c {
				es = append(es, graph.Edge{I: i*c + j, J: i*c + j + 1, W: 1})
			}
			if i+1 < r {
				es = append(es, graph.Edge{I: i*c + j, J: (i+1)*c + j, W: 1})
			}
		}
	}
	g, err := graph.FromEdges(r*c, es)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// gridEigenvalues returns the count smallest eigenvalues of the Laplacian
// of the r×c grid, in closed form, ascending.
func gridEigenvalues(r, c, count int) []float64 {
	var all []float64
	for a := 0; a < r; a++ {
		for b := 0; b < c; b++ {
			all = append(all, 2-2*math.Cos(math.Pi*float64(a)/float64(r))+2-2*math.Cos(math.Pi*float64(b)/float64(c)))
		}
	}
	slices.Sort(all)
	return all[:count]
}

// TestInvertFirst: from invertFirstMinN nodes, more than
// invertFirstMinPairs pairs of the Laplacian are solved by shift-and-invert
// from the start, and the pairs are right: the eigenvalues of a 151×140
// grid (21 140 nodes, 41 pairs, eigenvalues as close as 10⁻⁴ apart
// relative to ‖L‖ = 8) against their closed form, and every residual
// ‖Lv − λv‖ within the iterative solver's own test. With fewer pairs, a
// RepairNever, the iterative solve runs as before.
func TestInvertFirst(t *testing.T) {
	if testing.Short() {
		t.Skip("a 21 140-node grid")
	}
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	ctx := context.Background()
	const r, c = 151, 140
	g := gridGraph(t, r, c)
	op, err := graph.NewLaplacian(g, graph.Unnormalized)
	if err != nil {
		t.Fatal(err)
	}
	norm := laplacianNormBound(graph.Unnormalized, g.Degrees())
	for _, tc := range []struct {
		name     string
		count    int
		s        *Settings
		inverted bool
	}{
		{"41 pairs", 41, &Settings{}, true},
		{"RepairNever", 41, &Settings{Repair: RepairNever}, false},
		{"17 pairs", invertFirstMinPairs + 1, &Settings{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // no clock read; g and op are read only
			e, err := laplacianEmbedding(ctx, g, graph.Unnormalized, tc.count, exactLaplacian, tc.s)
			if err != nil {
				t.Fatal(err)
			}
			if e.inverted != tc.inverted {
				t.Errorf("solved by shift-and-invert first: %v, want %v", e.inverted, tc.inverted)
			}
			want := gridEigenvalues(r, c, tc.count)
			for j, w := range want {
				// Residual ≤ tol·‖L‖ bounds |λ − λ̂| by the same.
				if d := math.Abs(e.values[j] - w); d > 2*defaultEigenTol*norm {
					t.Errorf("eigenvalue %d: %.10g, closed form %.10g", j, e.values[j], w)
				}
			}
			n := g.N()
			lv := mat.NewDense(n, tc.count, nil)
			op.MulTo(lv, e.vectors)
			for j := 0; j < tc.count; j++ {
				var r2 float64
				for i := 0; i < n; i++ {
					d := lv.At(i, j) - e.values[j]*e.vectors.At(i, j)
					r2 += d * d
				}
				if res := math.Sqrt(r2); res > defaultEigenTol*norm {
					t.Errorf("pair %d: residual %.3g above %.3g", j, res, defaultEigenTol*norm)
				}
			}
			if e.warnings != nil {
				t.Errorf("warnings: %q", e.warnings)
			}
		})
	}
}

// TestInvertFirstRule: the conditions of invertFirst, one at a time.
func TestInvertFirstRule(t *testing.T) {
	big, small := pathGraph(t, invertFirstMinN), pathGraph(t, invertFirstMinN-1)
	// A caterpillar: a path of invertFirstMinDepth − 2 nodes with the
	// other nodes hung on it, so its diameter is invertFirstMinDepth − 1.
	var es []graph.Edge
	spine := invertFirstMinDepth - 2
	for i := 1; i < spine; i++ {
		es = append(es, graph.Edge{I: i - 1, J: i, W: 1})
	}
	for i := spine; i < invertFirstMinN; i++ {
		es = append(es, graph.Edge{I: i % spine, J: i, W: 1})
	}
	short, err := graph.FromEdges(invertFirstMinN, es)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		g          *graph.Graph
		kind       graph.LaplacianKind
		pairs      int
		repairable bool
		s          *Settings
		want       bool
	}{
		{"L_sym", big, graph.Symmetric, invertFirstMinPairs + 1, true, &Settings{}, true},
		{"L", big, graph.Unnormalized, 200, true, &Settings{}, true},
		{"tolerance set", big, graph.Symmetric, 200, true, &Settings{EigenSettings: &eigen.Settings{Tol: 1e-6}}, true},
		{"L_rw", big, graph.RandomWalk, 200, true, &Settings{}, false},
		{"few pairs", big, graph.Symmetric, invertFirstMinPairs, true, &Settings{}, false},
		{"small graph", small, graph.Symmetric, 200, true, &Settings{}, false},
		{"short graph", short, graph.Symmetric, 200, true, &Settings{}, false},
		{"not repairable", big, graph.Symmetric, 200, false, &Settings{}, false},
		{"capped solve", big, graph.Symmetric, 200, true, &Settings{EigenSettings: &eigen.Settings{MaxIter: 50}}, false},
	} {
		got, err := invertFirst(context.Background(), tc.g, tc.kind, tc.pairs, tc.repairable, tc.s)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%s: invertFirst = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// BenchmarkInvertFirstMoons100k: the 201 smallest eigenpairs of L_sym (one
// deflated: FGPWC's automatic m at its cap) of the default graph
// (graph.DefaultSpec) of 10⁵ moons points, noise 0.2, the CLI's draw
// (tether gen moons -n 100000 -noise 0.2 -seed 1), by the default path,
// shift-and-invert first (invertFirst), against Lanczos on L_sym
// (RepairNever, which also rules out the repair; λ₂ of this draw lies just
// above Lanczos' resolution, so no repair would run).
func BenchmarkInvertFirstMoons100k(b *testing.B) {
	ctx := context.Background()
	x, _, err := synth.Moons(100000, 0.2, rand.NewPCG(1, 1))
	if err != nil {
		b.Fatal(err)
	}
	g, err := graph.Build(ctx, x, graph.DefaultSpec())
	if err != nil {
		b.Fatal(err)
	}
	es := &eigen.Settings{Tol: fgpwcEigenTol}
	for _, c := range []struct {
		name     string
		s        *Settings
		inverted bool
	}{
		{"invert-first", &Settings{EigenSettings: es}, true},
		{"lanczos", &Settings{EigenSettings: es, Repair: RepairNever}, false},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				e, err := laplacianEmbedding(ctx, g, graph.Symmetric, 201, exactLaplacian, c.s)
				if err != nil {
					b.Fatal(err)
				}
				if e.inverted != c.inverted {
					b.Fatalf("inverted = %v, want %v", e.inverted, c.inverted)
				}
				b.ReportMetric(e.values[200], "λ201")
			}
		})
	}
}
