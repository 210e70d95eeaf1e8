package server

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/testgraph"
)

// cancelOp is the identity operator on n values that cancels its context
// at its first product: a solve that passes its memory checks stops there
// with the context's error.
type cancelOp struct {
	n      int
	cancel context.CancelFunc
}

func (c cancelOp) Dim() int { return c.n }

func (c cancelOp) MulTo(dst, x *mat.Dense) {
	c.cancel()
	dst.Copy(x)
}

// TestWorkBytesCoversLanczos: what checkWork counts for e vectors on n
// nodes solved iteratively (workBytes) is never below what
// eigen.Settings.MaxDenseBytes, set to the same limit (Server.settings),
// refuses a Lanczos solve at, for K = e, e + 1 and e + 2 eigenpairs with
// the default NCV, fixed or growing to 64 as cluster's automatic solver lets
// it from 20 000 nodes: each solve passes the bound and reaches its first
// product (the operator then cancels it). Among the cases, k = 3 on 30 000
// nodes under 12 MiB, refused by the bound on the grown basis's capacity
// before (16 327 744 bytes), and e = 1000 on 6009 nodes, just below n/6,
// where the projected matrices count (208.9 MB, workBytes' n×e terms
// 193.4 MB).
func TestWorkBytesCoversLanczos(t *testing.T) {
	for _, c := range []struct{ n, e int }{{30000, 3}, {6009, 1000}, {20000, 50}, {401, 2}, {2000, 300}} {
		if densely(c.n, c.e) {
			t.Fatalf("n = %d, e = %d is solved densely: not a Lanczos case", c.n, c.e)
		}
		bound := workBytes(c.n, c.e)
		if c.n == 30000 {
			bound = min(bound, 12<<20)
		}
		for k := c.e; k <= c.e+2; k++ {
			for _, l := range []eigen.Lanczos{{}, {MaxNCV: 64}} {
				ctx, cancel := context.WithCancel(context.Background())
				_, err := l.Solve(ctx, eigen.Problem{A: cancelOp{n: c.n, cancel: cancel}, K: k}, &eigen.Settings{MaxDenseBytes: bound})
				cancel()
				if !errors.Is(err, context.Canceled) {
					t.Errorf("n = %d, e = %d, K = %d, MaxNCV = %d, bound %d: %v; want the solve to pass the bound", c.n, c.e, k, l.MaxNCV, bound, err)
				}
			}
		}
	}
}

// TestWorkLanczosServed: NJW with k = 3 on a 30 000-node graph (three
// planted communities, 10 neighbours a node) under a 44 MiB request limit
// passes checkWork and then runs under the server's Settings (the
// library's bounds at the same limit) to three clusters, the planted ones:
// under 12 MiB it was refused by eigen's bound on Lanczos's grown basis
// (16 327 744 bytes), a 400 for a request checkWork had accepted. The
// limit was 12 MiB until workBytes counted the basis of 64 vectors
// allocated from 2·10⁴ nodes and the Ritz vectors (lanczosHeldVectors:
// 42.6 MiB here, TestLanczosPeakMemory), which refuses k = 3 under 12 MiB.
func TestWorkLanczosServed(t *testing.T) {
	if testing.Short() {
		t.Skip("a 30 000-node NJW")
	}
	const n, k, deg = 30000, 3, 10
	rng := rand.New(rand.NewPCG(3, 3))
	var edges []graph.Edge
	for i := range n {
		for range deg / 2 {
			j := rng.IntN(n/k)*k + i%k // same community (i mod k)
			if rng.IntN(50) == 0 {
				j = rng.IntN(n)
			}
			if j != i {
				edges = append(edges, graph.Edge{I: i, J: j, W: 1})
			}
		}
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	s := newTest(t, Config{MaxRequestMemory: 44 << 20})
	if err := s.checkWork(cluster.NJW{}, k, workload{g: g}); err != nil {
		t.Fatalf("checkWork: %v", err)
	}
	res, err := cluster.Run(context.Background(), cluster.NJW{}, &cluster.Problem{Graph: g, K: k}, s.settings(1))
	if err != nil {
		t.Fatalf("accepted by checkWork, then cluster.Run: %v", err)
	}
	// The planted communities, up to the clusters' names.
	for i := k; i < n; i++ {
		if res.Labels[i] != res.Labels[i%k] {
			t.Fatalf("node %d in cluster %d, node %d of its community in %d", i, res.Labels[i], i%k, res.Labels[i%k])
		}
	}
}

// TestLabelPropWork: checkWork's estimate for labelprop is never below
// the bytes its library bound (cluster.Settings.MaxBlockBytes at the same
// limit) refuses it at, 48·n·K for the closed form and 16·n·K with
// Iterative: on 1000 nodes with K = 100 classes, a limit one byte below
// 48·n·K is refused by checkWork (it counted 32·n·K + 192·n, 3.4 MB, and
// accepted a request the library then refused), and at the limit
// checkWork accepts, the run under the server's Settings succeeds, for
// both variants.
func TestLabelPropWork(t *testing.T) {
	const n, k = 1000, 100
	g, labels := testgraph.LabelledCirculant(t, n, 7, 10)
	w := workload{g: g}
	for _, c := range []struct {
		m      cluster.LabelProp
		blocks int64
	}{{cluster.LabelProp{}, 6}, {cluster.LabelProp{Iterative: true}, 2}} {
		lib := c.blocks * 8 * n * k
		if lib > workBytes(n, k) {
			if err := newTest(t, Config{MaxRequestMemory: lib - 1}).checkWork(c.m, k, w); err == nil || !strings.Contains(err.Error(), "labelprop") {
				t.Errorf("Iterative %v: limit %d, one byte below the library's %d: %v; want a refusal naming labelprop", c.m.Iterative, lib-1, lib, err)
			}
		}
		// The least limit checkWork accepts.
		lo, hi := int64(1), int64(1)<<40
		for lo < hi {
			mid := lo + (hi-lo)/2
			if newTest(t, Config{MaxRequestMemory: mid}).checkWork(c.m, k, w) == nil {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		s := newTest(t, Config{MaxRequestMemory: lo})
		if _, err := cluster.Run(context.Background(), c.m, &cluster.Problem{Graph: g, K: k, Labels: labels}, s.settings(1)); err != nil {
			t.Errorf("Iterative %v: checkWork accepts from %d bytes, then cluster.Run: %v", c.m.Iterative, lo, err)
		}
	}
}

// TestCVQEWork: checkWork's estimate for cvqe is never below the bytes
// its library bound (cluster.Settings.MaxBlockBytes at the same limit)
// refuses it at, 16·(n·k + k² + k·d): with d = 600 features on 500 rows
// and k = 50 the k×d centroids pass the n×k vectors workBytes counts
// (workBytes 896 000 bytes, the blocks 920 000): at the least limit
// checkWork accepts, cluster.Run under the server's Settings is not
// refused by the bound (cvqe with MaxIter = 2, to keep it short). Before,
// checkWork accepted 896 000 bytes and the run was refused.
func TestCVQEWork(t *testing.T) {
	const n, d, k = 500, 600, 50
	rng := rand.New(rand.NewPCG(5, 5))
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			x.Set(i, j, rng.NormFloat64()+float64(i%k))
		}
	}
	var pairs []constraint.Pair
	for i := range 40 {
		pairs = append(pairs, constraint.Pair{I: i, J: i + k, Kind: constraint.MustLink})
	}
	var edges []graph.Edge
	for i := range n {
		edges = append(edges, graph.Edge{I: i, J: (i + 1) % n, W: 1})
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	w := workload{g: g, d: d, pairs: pairs}
	m := cluster.CVQE{MaxIter: 2}
	lo, hi := int64(1), int64(1)<<40
	for lo < hi {
		mid := lo + (hi-lo)/2
		if newTest(t, Config{MaxRequestMemory: mid}).checkWork(m, k, w) == nil {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	if lib := int64(16 * (n*k + k*k + k*d)); lo < lib {
		t.Errorf("checkWork accepts from %d bytes, below the library's %d", lo, lib)
	}
	s := newTest(t, Config{MaxRequestMemory: lo})
	_, err = cluster.Run(context.Background(), m, &cluster.Problem{Graph: g, Features: x, K: k, Constraints: &constraint.Set{N: n, Pairs: pairs}}, s.settings(1))
	if err != nil {
		t.Errorf("checkWork accepts from %d bytes, then cluster.Run: %v", lo, err)
	}
}
