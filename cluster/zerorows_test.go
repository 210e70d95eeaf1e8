package cluster

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/graph"
)

// TestNormalizeRowsZeroRows checks normalizeRows and columnRowNormalize
// against values worked out by hand: a row of norm at most
// max(tol, r·ε)·‖x‖_F (r rows) is set to zero and counted, every other
// row scaled to unit length. In "mixed", ‖x‖_F = √29 ≈ 5.39 and r = 5:
// with tol 0 (or a dense solve's r·ε) the bound is 5·2⁻⁵²·5.39 ≈ 6.0e-15,
// so the row of 1e-17 (rounding) is zero and the row of 1e-9 is not (a
// dense solve resolves it); with the iterative solver's tol = 1e-8 the
// bound is 5.4e-8 and the row of 1e-9 (its residual) is zero too; the
// row of 1e-6 is zero only against tol = 1e-6 (bound 5.4e-6). A matrix of
// tiny rows only keeps them: the bound is relative. unitRows (NOA-SSC's
// for k = 2, whose rows must follow the sign of g_1 as MAVRO's split
// does, and CSP's) scales every row but the exact zeros.
func TestNormalizeRowsZeroRows(t *testing.T) {
	for _, tc := range []struct {
		name   string
		column bool // columnRowNormalize
		tol    float64
		x      []float64 // rows of 2
		want   []float64
		zero   int
	}{
		{"mixed", false, 0,
			[]float64{0, 0, 1e-17, 0, 0, 1e-9, 3, 4, 0, 2},
			[]float64{0, 0, 0, 0, 0, 1, 0.6, 0.8, 0, 1}, 2},
		{"mixed, the dense solver's 5ε", false, 5 * 0x1p-52,
			[]float64{0, 0, 1e-17, 0, 0, 1e-9, 3, 4, 0, 2},
			[]float64{0, 0, 0, 0, 0, 1, 0.6, 0.8, 0, 1}, 2},
		{"mixed, the iterative solver's 1e-8", false, defaultEigenTol,
			[]float64{0, 0, 1e-17, 0, 0, 1e-9, 3, 4, 0, 2},
			[]float64{0, 0, 0, 0, 0, 0, 0.6, 0.8, 0, 1}, 3},
		{"a row of 1e-6 kept", false, defaultEigenTol,
			[]float64{0, 0, 1e-17, 0, 0, 1e-9, 3, 4, 0, 2, -1e-6, 0},
			[]float64{0, 0, 0, 0, 0, 0, 0.6, 0.8, 0, 1, -1, 0}, 3},
		{"a row of 1e-6 within tol = 1e-6", false, 1e-6,
			[]float64{0, 0, 1e-17, 0, 0, 1e-9, 3, 4, 0, 2, -1e-6, 0},
			[]float64{0, 0, 0, 0, 0, 0, 0.6, 0.8, 0, 1, 0, 0}, 4},
		{"tiny rows only", false, 0,
			[]float64{1e-17, 0, 0, -2e-17, 3e-17, 4e-17},
			[]float64{1, 0, 0, -1, 0.6, 0.8}, 0},
		{"zero rows only", false, 0,
			[]float64{0, 0, 0, 0},
			[]float64{0, 0, 0, 0}, 2},
		// Columns of norms 2 and 3 (plus 1e-17) first: the third row is
		// 5e-18 after them, zero beside 3ε·‖x‖_F = 3ε·√2 ≈ 9.4e-16.
		{"columns, then rows", true, 0,
			[]float64{2, 0, 0, 3, 1e-17, 0},
			[]float64{1, 0, 0, 1, 0, 0}, 1},
		// A column of norm 1e-9 is scaled up like any other: it is an
		// eigenvector, whatever its norm. Rows (0.6, 0), (0.8, 1), 0.
		{"a column of 1e-9 scaled up", true, 0,
			[]float64{3, 0, 4, 1e-9, 0, 0},
			[]float64{1, 0, 0.8 / math.Sqrt(1.64), 1 / math.Sqrt(1.64), 0, 0}, 1},
		// unitRows: the rows (x, −x) of NOA-SSC's k = 2.
		{"unitRows: rounding follows its sign", false, 0,
			[]float64{0, 0, 1e-17, -1e-17, -1e-9, 1e-9, 3, -3},
			[]float64{0, 0, math.Sqrt2 / 2, -math.Sqrt2 / 2, -math.Sqrt2 / 2, math.Sqrt2 / 2, math.Sqrt2 / 2, -math.Sqrt2 / 2}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := mat.NewDense(len(tc.x)/2, 2, slices.Clone(tc.x))
			var zero int
			switch {
			case tc.column:
				zero = columnRowNormalize(x, tc.tol)
			case strings.HasPrefix(tc.name, "unitRows"):
				zero = unitRows(x)
			default:
				zero = normalizeRows(x, tc.tol)
			}
			if zero != tc.zero {
				t.Errorf("%d rows left at zero, want %d", zero, tc.zero)
			}
			for i, v := range x.RawMatrix().Data {
				if math.Abs(v-tc.want[i]) > 1e-15 {
					t.Errorf("row %d: %v, want %v", i/2, x.RawRowView(i/2), tc.want[2*(i/2):2*(i/2)+2])
				}
			}
		})
	}
}

// isolatedNJWGraph returns the 66-node graph of TestNJWZeroRows: two
// random blocks of 30 nodes (240 edges drawn in each, 3 between them),
// nodes 60–63 isolated and the component {64, 65}.
func isolatedNJWGraph(t *testing.T) *graph.Graph {
	t.Helper()
	const bs = 30
	rng := rand.New(rand.NewPCG(1, 2))
	var es []graph.Edge
	for b := 0; b < 2; b++ {
		for i := 0; i < bs*8; i++ {
			es = append(es, graph.Edge{I: b*bs + rng.IntN(bs), J: b*bs + rng.IntN(bs), W: 1})
		}
	}
	for i := 0; i < bs/10; i++ {
		es = append(es, graph.Edge{I: rng.IntN(bs), J: bs + rng.IntN(bs), W: 1})
	}
	es = append(es, graph.Edge{I: 2 * bs, J: 2*bs + 1, W: 1})
	g, err := graph.FromEdges(2*bs+6, es)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestNJWZeroRows runs NJW on a graph with 4 isolated nodes and a 2-node
// component (isolatedNJWGraph), which the regularized L_sym's k smallest
// eigenvectors leave out: their rows are zero in exact arithmetic, and
// the dense solver returns them as rounding (about 1e-31 here). Before
// normalizeRows told such rows apart, it scaled the rounding to unit
// rows of arbitrary directions, and the 6 nodes fell in clusters that
// changed with the seed (seed 1, k = 2: 1 0 1 1 1 1; k = 4, seeds 1–3: a
// 2, a 3 and a 0 among 1s). Now their rows of the embedding are exactly
// zero, the 6 share one cluster, and a warning says so.
func TestNJWZeroRows(t *testing.T) {
	g := isolatedNJWGraph(t)
	out := []int{60, 61, 62, 63, 64, 65}
	e, err := laplacianEmbedding(context.Background(), g, graph.Symmetric, 4, graph.Regularization{}, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range out {
		if nrm := mat.Norm(e.vectors.RowView(i), 2); nrm > 1e-20 {
			t.Fatalf("row %d of the embedding has norm %g: not the zero of a node the eigenvectors leave out", i, nrm)
		}
	}
	for _, k := range []int{2, 4} {
		for seed := uint64(1); seed <= 3; seed++ {
			res, err := Run(context.Background(), NJW{}, &Problem{Graph: g, K: k}, &Settings{Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			for _, i := range out {
				if r := res.Embedding.RawRowView(i); slices.ContainsFunc(r, func(v float64) bool { return v != 0 }) {
					t.Errorf("k = %d, seed %d: row %d of the embedding is %v, want 0", k, seed, i, r)
				}
				if res.Labels[i] != res.Labels[out[0]] {
					t.Errorf("k = %d, seed %d: labels of nodes 60–65 %v, want one cluster", k, seed, res.Labels[60:])
					break
				}
			}
			want := "njw: 6 nodes of 66 have a zero embedding row"
			if !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.HasPrefix(w, want) }) {
				t.Errorf("k = %d, seed %d: warnings %q, want one beginning %q", k, seed, res.Warnings, want)
			}
		}
	}
}
