package server

import (
	"context"
	"runtime/debug"
	"testing"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/testmem"
)

// ringGraph returns the n-node circulant graph with offsets 1, 4, …, deg²
// (2·deg stored entries a node), connected, of unit weights.
func ringGraph(t *testing.T, n, deg int) *graph.Graph {
	t.Helper()
	var edges []graph.Edge
	for i := range n {
		for d := 1; d <= deg; d++ {
			edges = append(edges, graph.Edge{I: i, J: (i + d*d) % n, W: 1})
		}
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestNoKEigensolveMemory: the methods whose eigensolves are of a number
// of vectors k does not set (heldVectors) are counted for those vectors,
// not for k: on a 5000-node ring with k = 200, hbisect's and cosc's
// eigensolve is the closed form workBytes(n, 2) (a Fiedler vector, 2
// pairs, a bisection; cluster/hbisect.go bestSweep, cluster/cosc.go),
// l1csc's workBytes(n, Starts + 1) (4 with the default Starts), opplc's
// 32·n bytes (no eigensolve), each below a sixth of workBytes(n, 200)
// (a tenth until lanczosHeldVectors counted the n-vectors every Lanczos
// embedding holds whatever e), and a
// server whose limit is workBytes(n, 20) plus the method's own paths
// accepts them (counted as 200 vectors, 9.0 MB, they were refused). On a
// moderate case (n = 5000, k = 50, hbisect on 10 and 20 stored entries
// a node, cosc on 10) the estimate still
// bounds the measured peak heap (testmem.PeakHeap, GC at 5 %: a sampled
// lower bound of the peak, so "peak ≤ estimate" is the sound check).
// Not parallel: it reads the heap.
func TestNoKEigensolveMemory(t *testing.T) {
	const n, k = 5000, 200
	g := ringGraph(t, n, 5)
	var pairs []constraint.Pair
	for i := range n / 50 {
		pairs = append(pairs, constraint.Pair{I: 2 * i, J: n/2 + 2*i, Kind: constraint.CannotLink})
	}
	w := workload{g: g, pairs: pairs, k: k}
	for _, c := range []struct {
		m    cluster.Method
		want int64 // closed form of its eigensolve's bytes
	}{
		{cluster.HBisection{}, workBytes(n, 2)},
		{cluster.COSC{}, workBytes(n, 2)},
		{cluster.L1CSC{}, workBytes(n, 4)},
		{cluster.L1CSC{Starts: 9}, workBytes(n, 10)},
		{cluster.OPPLC{}, 32 * n},
	} {
		e, why := vectors(c.m, k, n)
		got := eigenWorkOf(c.m, e, w).bytes
		if got != c.want || got >= workBytes(n, k)/6 {
			t.Errorf("%s, k = %d on %d nodes: eigensolve counted %d bytes (%d vectors: %s), want %d, and below a sixth of %d for k vectors", c.m.Name(), k, n, got, e, why, c.want, workBytes(n, k))
		}
		extra, _, _ := methodBytes(c.m, w)
		s := newTest(t, Config{MaxRequestMemory: workBytes(n, 20) + extra})
		if err := s.checkWork(c.m, k, w); err != nil {
			t.Errorf("%s, k = %d on %d nodes, limit workBytes(n, 20) + its paths: %v, want it accepted", c.m.Name(), k, n, err)
		}
	}

	defer debug.SetGCPercent(debug.SetGCPercent(5))
	const km = 50
	for _, c := range []struct {
		m   cluster.Method
		deg int
	}{{cluster.HBisection{}, 5}, {cluster.HBisection{}, 10}, {cluster.COSC{MaxIter: 5}, 5}} {
		m, g := c.m, g
		if c.deg != 5 {
			g = ringGraph(t, n, c.deg)
		}
		p := &cluster.Problem{Graph: g, K: km, Constraints: &constraint.Set{N: n, Pairs: pairs}}
		wm := workload{g: g, pairs: pairs, k: km}
		var err error
		peak := testmem.PeakHeap(func() { _, err = cluster.Run(context.Background(), m, p, &cluster.Settings{Seed: 1}) })
		if err != nil {
			t.Fatalf("%s, k = %d: %v", m.Name(), km, err)
		}
		e, _ := vectors(m, km, n)
		extra, _, _ := methodBytes(m, wm)
		est := eigenWorkOf(m, e, wm).bytes + extra
		t.Logf("%s, n = %d, nnz = %d, k = %d: peak heap %d, estimate %d", m.Name(), n, g.NNZ(), km, peak, est)
		if int64(peak) > est {
			t.Errorf("%s, n = %d, k = %d: peak heap %d bytes, estimate %d: want the estimate at least the peak", m.Name(), n, km, peak, est)
		}
	}
}
