package graph

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/internal/testctx"
)

// TestCancelInsidePasses checks that the sequential passes of graph
// construction poll their context instead of running to the end after a
// cancellation: the k-d tree build and the symmetrization of the k-NN
// lists (each several seconds at 2.5·10⁶ rows, where Ctrl-C took 10–20 s
// before they did). A context that is already cancelled at its first
// check must stop each of them.
func TestCancelInsidePasses(t *testing.T) {
	const n, d, k = 5000, 2, 5
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]float64, n*d)
	for i := range data {
		data[i] = rng.NormFloat64()
	}
	if _, err := newKDTree(testctx.CancelAfter(0), data, n, d); !errors.Is(err, context.Canceled) {
		t.Errorf("newKDTree: err = %v, want context.Canceled", err)
	}
	dj := make([]int32, n*k)
	dw := make([]float64, n*k)
	for i := range dj {
		dj[i] = int32((i/k + 1 + i%k) % n)
		dw[i] = 1
	}
	if _, err := symmetrize(testctx.CancelAfter(0), n, k, dj, dw, symEither, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("symmetrize: err = %v, want context.Canceled", err)
	}
	if g, err := symmetrize(context.Background(), n, k, dj, dw, symEither, nil); err != nil || g.N() != n {
		t.Errorf("symmetrize without cancellation: err = %v", err)
	}
}

// TestBuildCancelledAnywhere cancels Build at its c-th context check for
// every c up to the number of checks of a full run: each run either
// returns context.Canceled or, once c exceeds the checks made, a graph,
// never another error or a partial graph.
func TestBuildCancelledAnywhere(t *testing.T) {
	const n = 3000
	rng := rand.New(rand.NewPCG(3, 4))
	x := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		x.Set(i, 0, rng.NormFloat64())
		x.Set(i, 1, rng.NormFloat64())
	}
	want, err := Build(context.Background(), x, DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	for c := 0; ; c++ {
		g, err := Build(testctx.CancelAfter(c), x, DefaultSpec())
		if err == nil {
			if g.N() != n || g.NNZ() != want.NNZ() {
				t.Fatalf("cancel at check %d: a graph of %d nodes and %d entries, want %d and %d", c, g.N(), g.NNZ(), n, want.NNZ())
			}
			if c == 0 {
				t.Fatal("Build never checks its context")
			}
			return
		}
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancel at check %d: err = %v, want context.Canceled", c, err)
		}
		if c > 100000 {
			t.Fatal("Build checks its context more than 10⁵ times on 3000 rows")
		}
	}
}

// TestOrderCancel checks that RCMOrder and Permute poll their context
// (several seconds each at 2.5·10⁶ nodes, where Ctrl-C waited for them).
func TestOrderCancel(t *testing.T) {
	const side = 100
	var edges []Edge
	for i := 0; i < side; i++ {
		for j := 0; j < side; j++ {
			if j+1 < side {
				edges = append(edges, Edge{I: i*side + j, J: i*side + j + 1, W: 1})
			}
			if i+1 < side {
				edges = append(edges, Edge{I: i*side + j, J: (i+1)*side + j, W: 1})
			}
		}
	}
	g, err := FromEdges(side*side, edges)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.RCMOrder(testctx.CancelAfter(0)); !errors.Is(err, context.Canceled) {
		t.Errorf("RCMOrder: err = %v, want context.Canceled", err)
	}
	order, err := g.RCMOrder(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Permute(testctx.CancelAfter(0), order); !errors.Is(err, context.Canceled) {
		t.Errorf("Permute: err = %v, want context.Canceled", err)
	}
}

// TestFromDenseContext checks that FromDenseContext builds the graph of
// FromDense, entry for entry, and polls its context while scanning the
// dense matrix (about 1 s at n = 6000): cancelled at any of its checks it
// returns context.Canceled, and it checks at least once per fromDenseRows
// rows.
func TestFromDenseContext(t *testing.T) {
	const n = 700
	rng := rand.New(rand.NewPCG(5, 6))
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if rng.Float64() < 0.3 {
				a.SetSym(i, j, rng.Float64())
			}
		}
	}
	want, err := FromDense(a)
	if err != nil {
		t.Fatal(err)
	}
	for c := 0; ; c++ {
		g, err := FromDenseContext(testctx.CancelAfter(c), a)
		if err == nil {
			if c < (n+fromDenseRows-1)/fromDenseRows {
				t.Fatalf("FromDenseContext checks its context %d times on %d rows, want at least one per %d rows", c, n, fromDenseRows)
			}
			sameGraph(t, g, want, "FromDense")
			return
		}
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancel at check %d: err = %v, want context.Canceled", c, err)
		}
	}
}

// TestFromEdgesContext checks that FromEdgesContext builds the graph of
// FromEdges, entry for entry, and polls its context in its passes over
// the edges (0.2–0.3 s for 3·10⁶ edges): cancelled at any of its checks
// it returns context.Canceled, and it checks at least once per
// cancelEvery edges of each of its three passes.
func TestFromEdgesContext(t *testing.T) {
	const n, m = 500, 3*cancelEvery + 100
	rng := rand.New(rand.NewPCG(7, 8))
	edges := make([]Edge, m)
	for e := range edges {
		edges[e] = Edge{I: rng.IntN(n), J: rng.IntN(n), W: float64(rng.IntN(3))}
	}
	want, err := FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	for c := 0; ; c++ {
		g, err := FromEdgesContext(testctx.CancelAfter(c), n, edges)
		if err == nil {
			if per := (m + cancelEvery - 1) / cancelEvery; c < 3*per {
				t.Fatalf("FromEdgesContext checks its context %d times on %d edges, want at least %d a pass", c, m, per)
			}
			sameGraph(t, g, want, "FromEdges")
			return
		}
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancel at check %d: err = %v, want context.Canceled", c, err)
		}
	}
}

// sameGraph fails t unless g has want's nodes, entries, rows and degrees
// exactly; from names what built want.
func sameGraph(t *testing.T, g, want *Graph, from string) {
	t.Helper()
	if g.N() != want.N() || g.NNZ() != want.NNZ() {
		t.Fatalf("a graph of %d nodes and %d entries, want %d and %d", g.N(), g.NNZ(), want.N(), want.NNZ())
	}
	for i := 0; i < want.N(); i++ {
		gi, gw := g.Row(i)
		wi, ww := want.Row(i)
		if !slices.Equal(gi, wi) || !slices.Equal(gw, ww) || g.Degree(i) != want.Degree(i) {
			t.Fatalf("row %d differs from %s's", i, from)
		}
	}
}
