package server

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
)

// pairsRecorder is an eigen.Solver that solves by Lanczos (Dense up to
// cluster.DenseLimit nodes, as cluster's own choice) and records the most
// pairs it was asked for beyond the deflated columns: the K − d that
// sizes Lanczos's basis, NCV = max(2(K − d) + 1, K − d + 20).
type pairsRecorder struct {
	mu   sync.Mutex
	most int
}

func (r *pairsRecorder) Solve(ctx context.Context, p eigen.Problem, s *eigen.Settings) (*eigen.Result, error) {
	d := 0
	if p.Deflate != nil {
		_, d = p.Deflate.Dims()
	}
	r.mu.Lock()
	r.most = max(r.most, p.K-d)
	r.mu.Unlock()
	if p.A.Dim() <= cluster.DenseLimit {
		return eigen.Dense{}.Solve(ctx, p, s)
	}
	return eigen.Lanczos{}.Solve(ctx, p, s)
}

// blockRing returns blocks groups of size nodes, each node joined to the
// next reach ones of its group (cyclically), and each group's first node
// to the next group's: a graph with blocks communities, whose Bethe
// Hessian has about blocks negative eigenvalues.
func blockRing(t *testing.T, blocks, size, reach int) *graph.Graph {
	t.Helper()
	var edges []graph.Edge
	for b := range blocks {
		base := b * size
		for i := range size {
			for r := 1; r <= reach; r++ {
				edges = append(edges, graph.Edge{I: base + i, J: base + (i+r)%size, W: 1})
			}
		}
		edges = append(edges, graph.Edge{I: base, J: ((b + 1) % blocks) * size, W: 1})
	}
	g, err := graph.FromEdges(blocks*size, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestVectorsBoundLanczosPairs runs methods whose eigensolves checkWork
// bounds through a solver that records the pairs each solve asks for
// beyond its deflated columns, and checks vectors() is never below them:
// projectedTooLong sizes the Lanczos basis by vectors(). bethe with k = 0
// asks for MaxK + 1 (its doubling's last step, min(2·want, n, MaxK + 1)),
// which vectors() counted as MaxK before.
func TestVectorsBoundLanczosPairs(t *testing.T) {
	g := blockRing(t, 20, 30, 5) // 600 nodes: Lanczos, above DenseLimit
	n := g.N()
	for _, c := range []struct {
		m cluster.Method
		k int
	}{
		{cluster.NJW{}, 10},
		{cluster.ShiMalik{}, 10},
		{cluster.Unnormalized{}, 10},
		{cluster.BetheHessian{}, 10},
		{cluster.BetheHessian{MaxK: 12}, 0},
		{cluster.FGPWC{M: 15}, 5},
	} {
		rec := &pairsRecorder{}
		_, err := cluster.Run(context.Background(), c.m, &cluster.Problem{Graph: g, K: c.k}, &cluster.Settings{Seed: 1, Eigen: rec})
		if err != nil {
			t.Fatalf("%s, k = %d: %v", c.m.Name(), c.k, err)
		}
		e, why := vectors(c.m, c.k, n)
		if rec.most > e {
			t.Errorf("%s, k = %d: a solve asked for %d pairs beyond the deflated ones, vectors() = %d (%s)", c.m.Name(), c.k, rec.most, e, why)
		}
		if rec.most == 0 {
			t.Errorf("%s, k = %d: no eigensolve recorded", c.m.Name(), c.k)
		}
	}
	// The bound follows: bethe with k = 0 and MaxK = 406 asks for 407
	// pairs, NCV = 815 rows, above the 813.9 that 20 s allows
	// (TestProjectedSolveTimeBound), so it is refused as njw with k = 407
	// is; MaxK = 405 (406 pairs) is not.
	s := newTest(t, Config{ComputeTimeout: 20 * time.Second})
	w := workload{g: blockRing(t, 100, 100, 5)}
	for _, c := range []struct {
		maxK int
		ok   bool
	}{{405, true}, {406, false}} {
		err := s.checkWork(cluster.BetheHessian{MaxK: c.maxK}, 0, w)
		if (err == nil) != c.ok {
			t.Errorf("bethe, k = 0, MaxK = %d on 10⁴ nodes under 20 s: %v, want accepted %v", c.maxK, err, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "815×815") {
			t.Errorf("bethe, MaxK = %d: %v, want the 815×815 projected matrix named", c.maxK, err)
		}
	}
}
