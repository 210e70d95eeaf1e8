package graph_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen/eigentest"
	"github.com/tether-sc/tether/graph"
)

// wideGraph is a connected random graph on n nodes: a path (so that it is
// connected, in a scrambled order so that the factor has fill) plus
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

// TestCholeskyInverseMatchesDenseSolve checks (L + σI)⁻¹x against a dense
// Cholesky solve of the matrix formed entry by entry, for both Laplacians,
// weights over up to 6 decades, a self-loop and nodes hanging by tiny
// weights, in the natural order and after a random relabelling (the
// factor's own order does not depend on the labels' meaning), on blocks
// of 3 and of 12 columns (the single-column and the block solves).
func TestCholeskyInverseMatchesDenseSolve(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name       string
		n, extra   int
		span, tiny float64
		sigma      float64
		kind       graph.LaplacianKind
		tol        float64 // relative, on the solution
		shuffle    bool
	}{
		{"L unit weights", 60, 90, 0, 1, 1e-3, graph.Unnormalized, 1e-10, false},
		{"L weights over 6 decades", 80, 160, 6, 1e-9, 1e-4, graph.Unnormalized, 1e-9, false},
		{"L shuffled", 80, 160, 6, 1e-9, 1e-4, graph.Unnormalized, 1e-9, true},
		{"L dense-ish", 40, 600, 2, 1e-3, 1e-3, graph.Unnormalized, 1e-10, false},
		// Supernodes wider than maxSupernode (128) are split.
		{"L nearly complete", 300, 40000, 1, 1e-2, 1e-3, graph.Unnormalized, 1e-10, false},
		{"L_sym weights over 6 decades", 80, 160, 6, 1e-9, 1e-4, graph.Symmetric, 1e-9, false},
		{"L_sym shuffled", 70, 100, 3, 1e-6, 1e-3, graph.Symmetric, 1e-9, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := wideGraph(t, tc.n, tc.extra, tc.span, tc.tiny, 3)
			if tc.shuffle {
				var err error
				if g, err = g.Permute(ctx, rand.New(rand.NewPCG(4, 4)).Perm(tc.n)); err != nil {
					t.Fatal(err)
				}
			}
			inv, err := graph.NewCholeskyInverse(ctx, g, tc.kind, tc.sigma)
			if err != nil {
				t.Fatal(err)
			}
			var chol mat.Cholesky
			if !chol.Factorize(denseShifted(g, tc.kind, tc.sigma)) {
				t.Fatal("dense matrix not positive definite")
			}
			// 3 columns take the column-by-column solve, 12 the block
			// solve (blockMinCols = 8): both against the dense solve.
			for _, p := range []int{3, 12} {
				rng := rand.New(rand.NewPCG(5, 5))
				x := mat.NewDense(tc.n, p, nil)
				for i := 0; i < tc.n; i++ {
					for c := 0; c < p; c++ {
						x.Set(i, c, rng.NormFloat64())
					}
				}
				got := mat.NewDense(tc.n, p, nil)
				inv.MulTo(got, x)
				var want mat.Dense
				if err := chol.SolveTo(&want, x); err != nil {
					t.Fatal(err)
				}
				var diff mat.Dense
				diff.Sub(got, &want)
				if r := mat.Norm(&diff, 2) / mat.Norm(&want, 2); !(r <= tc.tol) {
					t.Errorf("%d columns: relative error %.3g > %.0e", p, r, tc.tol)
				}
				// In place (dst aliasing x) gives the same.
				inPlace := mat.DenseCopyOf(x)
				inv.MulTo(inPlace, inPlace)
				if !mat.Equal(inPlace, got) {
					t.Errorf("%d columns: MulTo with dst = x differs", p)
				}
			}
		})
	}
}

// TestCholeskySymbolicMatchesDenseFactor checks AnalyzeCholesky's column
// counts against the nonzeros of a dense Cholesky factor of the same
// matrix in the same order (random weights, so no entry of the factor
// cancels to zero: a count above the dense one would be an entry the
// factorization never fills, one below a missed fill), and Flops against
// its formula over those counts.
func TestCholeskySymbolicMatchesDenseFactor(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		n, extra int
		seed     uint64
	}{{30, 20, 1}, {50, 60, 2}, {40, 200, 3}, {25, 0, 4}} {
		g := wideGraph(t, tc.n, tc.extra, 1, 0.5, tc.seed)
		sym, err := graph.AnalyzeCholesky(ctx, g, 0)
		if err != nil {
			t.Fatal(err)
		}
		order, err := g.MinDegreeOrder(ctx)
		if err != nil {
			t.Fatal(err)
		}
		pg, err := g.Permute(ctx, order)
		if err != nil {
			t.Fatal(err)
		}
		var chol mat.Cholesky
		if !chol.Factorize(denseShifted(pg, graph.Unnormalized, 1)) {
			t.Fatal("dense matrix not positive definite")
		}
		var l mat.TriDense
		chol.LTo(&l)
		var entries int64
		var flops float64
		for j := 0; j < tc.n; j++ {
			c := 0
			for i := j + 1; i < tc.n; i++ {
				if l.At(i, j) != 0 {
					c++
				}
			}
			entries += int64(c + 1)
			flops += float64(c) * float64(c+1) / 2
		}
		if sym.Entries() != entries || sym.Flops() != flops {
			t.Errorf("n %d seed %d: Entries %d, Flops %v; dense factor %d, %v", tc.n, tc.seed, sym.Entries(), sym.Flops(), entries, flops)
		}
	}
}

// TestMinDegreeOrder checks that the order is a permutation and
// deterministic, and the factor sizes it gives against closed forms: no
// fill on a tree (a path in scrambled labels, a star: 2n − 1 entries), n(n
// + 1)/2 on a complete graph, and on a 30×30 grid far less than the
// envelope of its best banded order (the natural one, bandwidth 30:
// 27 029 entries).
func TestMinDegreeOrder(t *testing.T) {
	ctx := context.Background()
	build := func(n int, edges []graph.Edge) *graph.Graph {
		g, err := graph.FromEdges(n, edges)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	const n = 40
	var path, star, complete []graph.Edge
	perm := rand.New(rand.NewPCG(2, 2)).Perm(n)
	for i := 0; i+1 < n; i++ {
		path = append(path, graph.Edge{I: perm[i], J: perm[i+1], W: 1})
		star = append(star, graph.Edge{I: 7, J: (7 + i + 1) % n, W: 1})
		for j := i + 1; j < n; j++ {
			complete = append(complete, graph.Edge{I: i, J: j, W: 1})
		}
	}
	const side = 30
	// The envelope of the grid in its natural order: row 0 holds 1 + 2·29
	// entries, each later row 31.
	const gridEnv = 1 + 2*(side-1) + (side-1)*side*(side+1)
	for _, tc := range []struct {
		name   string
		g      *graph.Graph
		lo, hi int64 // bounds on the factor's entries
	}{
		{"path", build(n, path), 2*n - 1, 2*n - 1},
		{"star", build(n, star), 2*n - 1, 2*n - 1},
		{"complete", build(n, complete), n * (n + 1) / 2, n * (n + 1) / 2},
		{"grid", gridGraph(side, side), side * side, gridEnv / 2},
		{"isolated nodes", build(5, nil), 5, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			order, err := tc.g.MinDegreeOrder(ctx)
			if err != nil {
				t.Fatal(err)
			}
			seen := make([]bool, tc.g.N())
			for _, v := range order {
				if v < 0 || v >= len(seen) || seen[v] {
					t.Fatalf("order %v is not a permutation", order)
				}
				seen[v] = true
			}
			if len(order) != tc.g.N() {
				t.Fatalf("order has %d nodes, want %d", len(order), tc.g.N())
			}
			again, _ := tc.g.MinDegreeOrder(ctx)
			if !slices.Equal(order, again) {
				t.Error("order differs between two calls")
			}
			sym, err := graph.AnalyzeCholesky(ctx, tc.g, 0)
			if err != nil {
				t.Fatal(err)
			}
			if e := sym.Entries(); e < tc.lo || e > tc.hi {
				t.Errorf("factor entries %d, want in [%d, %d]", e, tc.lo, tc.hi)
			}
			t.Logf("%s: %d entries, %.3g flops", tc.name, sym.Entries(), sym.Flops())
		})
	}
}

// TestCholeskyInverseRefuses checks the errors: σ not positive and finite,
// a Laplacian other than L and L_sym, or a graph other than the analyzed
// one (ErrInvalid), an isolated node with L_sym (ErrIsolated), a factor
// above the analysis' limit on stored values (ErrTooLarge: its entries
// above it, or its fundamental supernodes' blocks; exactly at the latter
// none, amalgamation staying within it), and a cancelled context.
func TestCholeskyInverseRefuses(t *testing.T) {
	ctx := context.Background()
	g := wideGraph(t, 20, 10, 1, 1e-2, 1)
	for _, s := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if _, err := graph.NewCholeskyInverse(ctx, g, graph.Unnormalized, s); !errors.Is(err, graph.ErrInvalid) {
			t.Errorf("σ = %v: error %v, want ErrInvalid", s, err)
		}
	}
	if _, err := graph.NewCholeskyInverse(ctx, g, graph.RandomWalk, 1); !errors.Is(err, graph.ErrInvalid) {
		t.Errorf("L_rw: error %v, want ErrInvalid", err)
	}
	sym, err := graph.AnalyzeCholesky(ctx, g, 0)
	if err != nil {
		t.Fatal(err)
	}
	other := wideGraph(t, 21, 10, 1, 1e-2, 1)
	if _, err := sym.Factor(ctx, other, graph.Unnormalized, 1); !errors.Is(err, graph.ErrInvalid) {
		t.Errorf("another graph's size: error %v, want ErrInvalid", err)
	}
	if _, err := graph.AnalyzeCholesky(ctx, g, sym.Entries()-1); !errors.Is(err, graph.ErrTooLarge) {
		t.Errorf("limit one below the factor's %d entries: error %v, want ErrTooLarge", sym.Entries(), err)
	}
	// The limit bounds the stored values; amalgamation stays within it.
	fund, err := graph.AnalyzeCholeskyRelax(ctx, g, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := graph.AnalyzeCholesky(ctx, g, fund.Stored()-1); !errors.Is(err, graph.ErrTooLarge) {
		t.Errorf("limit one below the fundamental supernodes' %d stored values: error %v, want ErrTooLarge", fund.Stored(), err)
	}
	if at, err := graph.AnalyzeCholesky(ctx, g, fund.Stored()); err != nil || at.Entries() != sym.Entries() || at.Stored() > fund.Stored() {
		t.Errorf("limit at the fundamental supernodes' %d stored values: %v", fund.Stored(), err)
	}
	iso, err := graph.FromEdges(3, []graph.Edge{{I: 0, J: 1, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := graph.NewCholeskyInverse(ctx, iso, graph.Symmetric, 1); !errors.Is(err, graph.ErrIsolated) {
		t.Errorf("isolated node, L_sym: error %v, want ErrIsolated", err)
	}
	inv, err := graph.NewCholeskyInverse(ctx, iso, graph.Unnormalized, 1)
	if err != nil {
		t.Fatalf("isolated node, L: %v (L + σI is positive definite)", err)
	}
	if inv.Dim() != 3 || inv.Shift() != 1 || inv.Kind() != graph.Unnormalized || inv.Entries() != 4 {
		t.Errorf("Dim %d, Shift %v, Kind %v, Entries %d; want 3, 1, L, 4", inv.Dim(), inv.Shift(), inv.Kind(), inv.Entries())
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := graph.NewCholeskyInverse(cctx, g, graph.Unnormalized, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
	if _, err := sym.Factor(cctx, g, graph.Unnormalized, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled factor: error %v, want context.Canceled", err)
	}
}

// BenchmarkCholeskyInverse analyzes and factors L + σI of the CLI's
// default graph (10-NN, RBF with local σ) on Gaussian blobs, then applies
// the inverse to one block of 10 columns: 5000 points in 2-D, and 4601 in
// 20-D (spambase's size; high-dimensional k-NN graphs fill far more). It
// reports the factor's entries.
func BenchmarkCholeskyInverse(b *testing.B) {
	ctx := context.Background()
	for _, bc := range []struct {
		name   string
		n, dim int
	}{{"2d-5000", 5000, 2}, {"20d-4601", 4601, 20}} {
		b.Run(bc.name, func(b *testing.B) {
			g := knnGraph(b, bc.n, bc.dim, 1)
			xs := mat.NewDense(g.N(), 10, nil)
			for i := 0; i < g.N(); i++ {
				xs.Set(i, i%10, 1)
			}
			y := mat.NewDense(g.N(), 10, nil)
			var entries int
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				inv, err := graph.NewCholeskyInverse(ctx, g, graph.Unnormalized, 1e-9*2*g.MaxDegree())
				if err != nil {
					b.Fatal(err)
				}
				inv.MulTo(y, xs)
				entries = inv.Entries()
			}
			b.ReportMetric(float64(entries), "entries")
		})
	}
}

// TestCholeskyInverseRandomGraphs checks the solve against a dense
// Cholesky solve on 40 random graphs of 3 to 150 nodes and densities from
// a path to nearly complete, for both Laplacians: every supernode shape
// (single columns, wide runs, runs split at maxSupernode) and update
// pattern occurs among them.
func TestCholeskyInverseRandomGraphs(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(11, 13))
	for trial := 0; trial < 40; trial++ {
		n := 3 + rng.IntN(148)
		extra := rng.IntN(n * n / 2)
		kind := graph.Unnormalized
		if trial%2 == 1 {
			kind = graph.Symmetric
		}
		g := wideGraph(t, n, extra, 3, 1e-4, uint64(trial))
		sym, err := graph.AnalyzeCholesky(ctx, g, 0)
		if err != nil {
			t.Fatalf("trial %d (n %d, %d extra edges): %v", trial, n, extra, err)
		}
		if r := solveError(t, sym, g, kind, 1e-3, uint64(trial)); !(r <= 1e-9) {
			t.Errorf("trial %d (n %d, %d extra edges, %v): relative error %.3g > 1e-9", trial, n, extra, kind, r)
		}
	}
}
