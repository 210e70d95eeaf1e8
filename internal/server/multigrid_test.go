package server

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/testmem"
)

// TestMultigridBytes: multigridBytes covers the peak heap of building
// graph.Multigrid and applying it to a block of p columns (less the block
// and its result, which LOBPCG's blocks count), measured with
// testmem.PeakHeap (the collector at its default) on the two graphs its
// doc quotes, of about 10⁵ nodes: a 2-D grid with diagonals (8
// neighbours) and the default k-NN graph of uniform 2-D points; and the
// estimate is within twice the peak (not a bound far off). The estimate
// of a Laplacian embedding of a few vectors on mgMinN nodes or more
// counts it (eigenWorkOf: LOBPCG's blocks and the hierarchy), not below
// mgMinN nor for more than mgMaxPairs + 1 vectors; before, nothing of
// the hierarchy was counted (TestMultigridBytes fails on that code at
// the eigenWorkOf check). Not parallel: it reads the heap.
func TestMultigridBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two graphs of 10⁵ nodes")
	}
	ctx := context.Background()
	grid := func(side int) *graph.Graph {
		var edges []graph.Edge
		for i := range side {
			for j := range side {
				v := i*side + j
				if j+1 < side {
					edges = append(edges, graph.Edge{I: v, J: v + 1, W: 1})
				}
				if i+1 < side {
					edges = append(edges, graph.Edge{I: v, J: v + side, W: 1})
					if j+1 < side {
						edges = append(edges, graph.Edge{I: v, J: v + side + 1, W: 1})
					}
					if j > 0 {
						edges = append(edges, graph.Edge{I: v, J: v + side - 1, W: 1})
					}
				}
			}
		}
		g, err := graph.FromEdges(side*side, edges)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	knn := func(n int) *graph.Graph {
		r := rand.New(rand.NewPCG(1, 2))
		x := mat.NewDense(n, 2, nil)
		for i := range n {
			x.Set(i, 0, r.Float64())
			x.Set(i, 1, r.Float64())
		}
		g, err := graph.Build(ctx, x, graph.DefaultSpec())
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	for _, c := range []struct {
		name string
		g    *graph.Graph
	}{{"grid 317²", grid(317)}, {"2-D k-NN", knn(mgMinN)}} {
		g := c.g
		n := g.N()
		for _, p := range []int{8, 24} {
			var mg *graph.Multigrid
			var err error
			peak := testmem.PeakHeap(func() {
				if mg, err = graph.NewMultigrid(ctx, g, 1e-5); err != nil {
					return
				}
				x := mat.NewDense(n, p, nil)
				for i := range n {
					x.Set(i, 0, 1)
				}
				mg.MulTo(mat.NewDense(n, p, nil), x)
			})
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			runtime.KeepAlive(mg)
			got := float64(peak) - 16*float64(n*p)
			est := multigridBytes(n, g.NNZ(), p)
			t.Logf("%s, p = %d: %d levels, peak %.1f MB beyond the blocks, estimate %.1f MB", c.name, p, mg.Levels(), got/1e6, est/1e6)
			if got > est || est > 2*got {
				t.Errorf("%s (n = %d, %d entries), p = %d: hierarchy peak %.0f bytes, estimate %.0f: want peak ≤ estimate ≤ 2·peak", c.name, n, g.NNZ(), p, got, est)
			}
		}
		w := workload{g: g, k: 5}
		for _, c2 := range []struct {
			m    cluster.Method
			e    int
			with bool
		}{{cluster.NJW{}, 5, true}, {cluster.NJW{}, mgMaxPairs + 1, true}, {cluster.NJW{}, mgMaxPairs + 2, false}} {
			ew := eigenWorkOf(c2.m, c2.e, w)
			ws, proj := eigen.LOBPCG{}.Workspace(n, c2.e, 0, false)
			want := workBytes(n, c2.e)
			if c2.with {
				want = max(want, sat(float64(ws)+multigridBytes(n, g.NNZ(), proj/3)))
			}
			if ew.bytes != want {
				t.Errorf("%s: %s, e = %d: estimate %d bytes, want %d (multigrid counted: %v)", c.name, c2.m.Name(), c2.e, ew.bytes, want, c2.with)
			}
		}
	}
	// Below mgMinN nodes nothing of it.
	small := grid(300)
	if got, want := eigenWorkOf(cluster.NJW{}, 5, workload{g: small, k: 5}).bytes, workBytes(small.N(), 5); got != want {
		t.Errorf("n = %d: estimate %d, want workBytes' %d", small.N(), got, want)
	}
}
