package graph_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen/eigentest"
	"github.com/tether-sc/tether/graph"
)

// wideGraph is a connected random graph on n nodes: a path (so that it is
// connected, in a scrambled order so that the envelope is not trivial) plus
// extra random edges, with weights 10^U(−span, 0), a self-loop on node 1,
// and nodes 0 and n−1 hanging by a single edge of weight tiny.
func wideGraph(tb testing.TB, n, extra int, span, tiny float64, seed uint64) *graph.Graph {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	order := rng.Perm(n - 2)
	var edges []graph.Edge
	w := func() float64 { return math.Pow(10, -span*rng.Float64()) }
	for k := 0; k+1 < len(order); k++ {
		edges = append(edges, graph.Edge{I: order[k] + 1, J: order[k+1] + 1, W: w()})
	}
	for k := 0; k < extra; k++ {
		i, j := 1+rng.IntN(n-2), 1+rng.IntN(n-2)
		if i != j {
			edges = append(edges, graph.Edge{I: i, J: j, W: w()})
		}
	}
	edges = append(edges, graph.Edge{I: 1, J: 1, W: 0.5},
		graph.Edge{I: 0, J: 1 + rng.IntN(n-2), W: tiny}, graph.Edge{I: n - 1, J: 1 + rng.IntN(n-2), W: tiny})
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// denseShifted returns L + σI (Unnormalized) or L_sym + σI (Symmetric) of
// g as a dense matrix, from eigentest.DenseLaplacian (the definitions,
// entry by entry).
func denseShifted(g *graph.Graph, kind graph.LaplacianKind, sigma float64) *mat.SymDense {
	a := eigentest.DenseLaplacian(g.N(), g.Edges(), kind)
	for i := 0; i < g.N(); i++ {
		a.SetSym(i, i, a.At(i, i)+sigma)
	}
	return a
}

// TestEnvelopeInverseMatchesDenseSolve checks (L + σI)⁻¹x against a dense
// Cholesky solve of the matrix formed entry by entry, for both Laplacians,
// in the natural order and in reverse Cuthill–McKee order.
func TestEnvelopeInverseMatchesDenseSolve(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name       string
		n, extra   int
		span, tiny float64
		sigma      float64
		kind       graph.LaplacianKind
		tol        float64 // relative, on the solution
		permuteRCM bool
	}{
		{"L unit weights", 60, 90, 0, 1, 1e-3, graph.Unnormalized, 1e-10, false},
		{"L weights over 6 decades", 80, 160, 6, 1e-9, 1e-4, graph.Unnormalized, 1e-9, false},
		{"L rcm order", 80, 160, 6, 1e-9, 1e-4, graph.Unnormalized, 1e-9, true},
		{"L_sym weights over 6 decades", 80, 160, 6, 1e-9, 1e-4, graph.Symmetric, 1e-9, false},
		{"L_sym rcm order", 70, 100, 3, 1e-6, 1e-3, graph.Symmetric, 1e-9, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := wideGraph(t, tc.n, tc.extra, tc.span, tc.tiny, 3)
			if tc.permuteRCM {
				perm, err := g.RCMOrder(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if g, err = g.Permute(ctx, perm); err != nil {
					t.Fatal(err)
				}
			}
			inv, err := graph.NewEnvelopeInverse(ctx, g, tc.kind, tc.sigma)
			if err != nil {
				t.Fatal(err)
			}
			var chol mat.Cholesky
			if !chol.Factorize(denseShifted(g, tc.kind, tc.sigma)) {
				t.Fatal("dense matrix not positive definite")
			}
			rng := rand.New(rand.NewPCG(5, 5))
			x := mat.NewDense(tc.n, 3, nil)
			for i := 0; i < tc.n; i++ {
				for c := 0; c < 3; c++ {
					x.Set(i, c, rng.NormFloat64())
				}
			}
			got := mat.NewDense(tc.n, 3, nil)
			inv.MulTo(got, x)
			var want mat.Dense
			if err := chol.SolveTo(&want, x); err != nil {
				t.Fatal(err)
			}
			var diff mat.Dense
			diff.Sub(got, &want)
			if r := mat.Norm(&diff, 2) / mat.Norm(&want, 2); !(r <= tc.tol) {
				t.Errorf("relative error %.3g > %.0e", r, tc.tol)
			}
			// In place (dst aliasing x) gives the same.
			inPlace := mat.DenseCopyOf(x)
			inv.MulTo(inPlace, inPlace)
			if !mat.Equal(inPlace, got) {
				t.Error("MulTo with dst = x differs")
			}
		})
	}
}

// TestEnvelopeSize checks EnvelopeSize against a count over the dense
// matrix's lower triangle (first nonzero of each row to the diagonal) and
// against the closed forms of a path: 2n − 1 entries and n − 1
// multiply-adds in the natural order.
func TestEnvelopeSize(t *testing.T) {
	g := wideGraph(t, 50, 40, 2, 1e-3, 9)
	w := g.Dense()
	var want int64
	var wantFlops float64
	for i := 0; i < g.N(); i++ {
		f := i
		for j := 0; j < i; j++ {
			if w.At(i, j) != 0 {
				f = j
				break
			}
		}
		want += int64(i - f + 1)
		wantFlops += float64(i-f) * float64(i-f+1) / 2
	}
	got, flops := graph.EnvelopeSize(g)
	if got != want || flops != wantFlops {
		t.Errorf("EnvelopeSize = %d, %v; dense count %d, %v", got, flops, want, wantFlops)
	}
	const n = 30
	var edges []graph.Edge
	for i := 0; i+1 < n; i++ {
		edges = append(edges, graph.Edge{I: i, J: i + 1, W: 1})
	}
	path, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	if got, flops := graph.EnvelopeSize(path); got != 2*n-1 || flops != n-1 {
		t.Errorf("path: EnvelopeSize = %d, %v; want %d, %d", got, flops, 2*n-1, n-1)
	}
	inv, err := graph.NewEnvelopeInverse(context.Background(), path, graph.Unnormalized, 1)
	if err != nil {
		t.Fatal(err)
	}
	if inv.Entries() != 2*n-1 || inv.Dim() != n || inv.Shift() != 1 || inv.Kind() != graph.Unnormalized {
		t.Errorf("Entries %d, Dim %d, Shift %v, Kind %v", inv.Entries(), inv.Dim(), inv.Shift(), inv.Kind())
	}
}

// TestEnvelopeInverseRefuses checks the errors: σ not positive and finite
// or a Laplacian other than L and L_sym (ErrInvalid), an isolated node with
// L_sym (ErrIsolated), and a cancelled context.
func TestEnvelopeInverseRefuses(t *testing.T) {
	ctx := context.Background()
	g := wideGraph(t, 20, 10, 1, 1e-2, 1)
	for _, s := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if _, err := graph.NewEnvelopeInverse(ctx, g, graph.Unnormalized, s); !errors.Is(err, graph.ErrInvalid) {
			t.Errorf("σ = %v: error %v, want ErrInvalid", s, err)
		}
	}
	if _, err := graph.NewEnvelopeInverse(ctx, g, graph.RandomWalk, 1); !errors.Is(err, graph.ErrInvalid) {
		t.Errorf("L_rw: error %v, want ErrInvalid", err)
	}
	iso, err := graph.FromEdges(3, []graph.Edge{{I: 0, J: 1, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := graph.NewEnvelopeInverse(ctx, iso, graph.Symmetric, 1); !errors.Is(err, graph.ErrIsolated) {
		t.Errorf("isolated node, L_sym: error %v, want ErrIsolated", err)
	}
	if _, err := graph.NewEnvelopeInverse(ctx, iso, graph.Unnormalized, 1); err != nil {
		t.Errorf("isolated node, L: %v (L + σI is positive definite)", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := graph.NewEnvelopeInverse(cctx, g, graph.Unnormalized, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
}

// BenchmarkEnvelopeInverse5k factors L + σI of the CLI's default graph on
// 5000 2-D blob points in reverse Cuthill–McKee order (about the size of
// spambase's k-NN graph, whose envelope holds 3.6·10⁶ entries), then
// applies the inverse to one block of 10 columns. It reports the
// envelope's entries.
func BenchmarkEnvelopeInverse5k(b *testing.B) {
	ctx := context.Background()
	g := blobGraph2D(b, 5000)
	perm, err := g.RCMOrder(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if g, err = g.Permute(ctx, perm); err != nil {
		b.Fatal(err)
	}
	entries, _ := graph.EnvelopeSize(g)
	x := mat.NewDense(g.N(), 10, nil)
	for i := 0; i < g.N(); i++ {
		x.Set(i, i%10, 1)
	}
	y := mat.NewDense(g.N(), 10, nil)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		inv, err := graph.NewEnvelopeInverse(ctx, g, graph.Unnormalized, 1e-9*2*g.MaxDegree())
		if err != nil {
			b.Fatal(err)
		}
		inv.MulTo(y, x)
	}
	b.ReportMetric(float64(entries), "entries")
}
