package server

import (
	"context"
	"math/rand/v2"
	"runtime/debug"
	"testing"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/testmem"
)

// randomGraph returns a connected n-node graph of unit weights: a ring
// and deg − 1 random edges a node (seeded), about 2·deg stored entries a
// node. Its pseudo-diameter is about log n, so no shift-and-invert
// (cluster's invertFirst, from a depth of 64) or multigrid path applies:
// njw's eigensolve is plain Lanczos.
func randomGraph(t *testing.T, n, deg int) *graph.Graph {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	var edges []graph.Edge
	for i := range n {
		edges = append(edges, graph.Edge{I: i, J: (i + 1) % n, W: 1})
		for range deg - 1 {
			if j := r.IntN(n); j != i {
				edges = append(edges, graph.Edge{I: i, J: j, W: 1})
			}
		}
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestLanczosPeakMemory: the estimate of a Lanczos embedding
// (eigenWorkOf: workBytes with lanczosHeldVectors) covers njw's measured peak heap (testmem.PeakHeap, GC
// at 5 %, a sampled lower bound of the peak) for
// k = 2, 5 and 20 on random graphs (10 stored entries a node) of 1.2·10⁴ to 2.4·10⁴ nodes, either
// side of the 2·10⁴ nodes from which cluster lets the Lanczos basis grow
// to 64 vectors (allocated up front), and is at most 3 times it. The
// estimate before (4e + 24 vectors, no Laplacian) was 0.24–0.44 of the
// peak for k = 2 (at 2.5·10⁴ nodes 6.4 MB for 21.4 MB). Not parallel: it
// reads the heap.
func TestLanczosPeakMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("measures njw's peak heap on graphs of up to 2.4·10⁴ nodes")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	for _, n := range []int{12000, 18000, 24000} {
		g := randomGraph(t, n, 5)
		for _, k := range []int{2, 5, 20} {
			m := cluster.NJW{}
			p := &cluster.Problem{Graph: g, K: k}
			var err error
			peak := testmem.PeakHeap(func() { _, err = cluster.Run(context.Background(), m, p, &cluster.Settings{Seed: 1}) })
			if err != nil {
				t.Fatalf("njw, k = %d on %d nodes: %v", k, n, err)
			}
			w := workload{g: g, k: k}
			e, _ := vectors(m, k, n)
			extra, _, _ := methodBytes(m, w)
			est := eigenWorkOf(m, e, w).bytes + extra
			t.Logf("njw, n = %d, nnz = %d, k = %d: peak heap %d, estimate %d (%.2f×)", n, g.NNZ(), k, peak, est, float64(est)/float64(peak))
			if int64(peak) > est || float64(est) > 3*float64(peak) {
				t.Errorf("njw, n = %d, k = %d: peak heap %d bytes, estimate %d: want peak ≤ estimate ≤ 3 × peak", n, k, peak, est)
			}
		}
	}
}
