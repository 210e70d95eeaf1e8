package eigen_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
)

// plantedGraph returns a k-NN-like graph on n nodes with c planted
// communities: each node links to deg random nodes, each in its own
// community with probability pin, with weights in [0.5, 1). Duplicate edges
// are merged by summing.
func plantedGraph(n, c, deg int, pin float64, seed uint64) *graph.Graph {
	rng := rand.New(rand.NewPCG(seed, 17))
	edges := make([]graph.Edge, 0, n*deg)
	size := (n + c - 1) / c
	for i := 0; i < n; i++ {
		com := i / size
		lo, hi := com*size, min((com+1)*size, n)
		for e := 0; e < deg; e++ {
			var j int
			if rng.Float64() < pin {
				j = lo + rng.IntN(hi-lo)
			} else {
				j = rng.IntN(n)
			}
			if j != i {
				edges = append(edges, graph.Edge{I: i, J: j, W: 0.5 + 0.5*rng.Float64()})
			}
		}
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		panic(err)
	}
	return g
}

var benchSink *eigen.Result

// lsymCSR is L_sym = I − D^{-1/2}WD^{-1/2} with the scaled weights stored
// once and a single-vector fast path. It exists to separate the solvers' own
// cost from that of graph.Laplacian.MulTo in the benchmarks; TestLsymCSR
// checks it against graph.Laplacian.
type lsymCSR struct {
	ptr []int
	idx []int32
	w   []float64
}

func newLsymCSR(g *graph.Graph) *lsymCSR {
	n := g.N()
	c := &lsymCSR{ptr: make([]int, n+1)}
	for i := 0; i < n; i++ {
		idx, w := g.Row(i)
		for k, j := range idx {
			c.idx = append(c.idx, j)
			c.w = append(c.w, w[k]/math.Sqrt(g.Degree(i)*g.Degree(int(j))))
		}
		c.ptr[i+1] = len(c.idx)
	}
	return c
}

func (c *lsymCSR) Dim() int { return len(c.ptr) - 1 }

func (c *lsymCSR) MulTo(dst, x *mat.Dense) {
	n := c.Dim()
	xr, dr := x.RawMatrix(), dst.RawMatrix()
	p := xr.Cols
	work := func(lo, hi int) {
		if p == 1 {
			xs, ds := xr.Data, dr.Data
			for i := lo; i < hi; i++ {
				var s float64
				for k := c.ptr[i]; k < c.ptr[i+1]; k++ {
					s += c.w[k] * xs[int(c.idx[k])*xr.Stride]
				}
				ds[i*dr.Stride] = xs[i*xr.Stride] - s
			}
			return
		}
		for i := lo; i < hi; i++ {
			out := dr.Data[i*dr.Stride : i*dr.Stride+p]
			copy(out, xr.Data[i*xr.Stride:i*xr.Stride+p])
			for k := c.ptr[i]; k < c.ptr[i+1]; k++ {
				wv := c.w[k]
				row := xr.Data[int(c.idx[k])*xr.Stride : int(c.idx[k])*xr.Stride+p]
				for q, v := range row {
					out[q] -= wv * v
				}
			}
		}
	}
	procs := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	chunk := (n + procs - 1) / procs
	for lo := 0; lo < n; lo += chunk {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			work(lo, hi)
		}(lo, min(lo+chunk, n))
	}
	wg.Wait()
}

func benchmarkSolver(b *testing.B, s eigen.Solver, n, communities int, tol float64, fast bool) {
	g := plantedGraph(n, communities, 10, 0.9, 1)
	var op eigen.Operator
	op, err := graph.NewLaplacian(g, graph.Symmetric)
	if err != nil {
		b.Fatal(err)
	}
	if fast {
		op = newLsymCSR(g)
	}
	p := eigen.Problem{A: op, K: 6}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := s.Solve(context.Background(), p, &eigen.Settings{Tol: tol})
		if err != nil {
			b.Fatal(err)
		}
		benchSink = res
	}
	b.ReportMetric(float64(benchSink.MatVecs), "matvecs/op")
	b.ReportMetric(float64(benchSink.Iterations), "iters/op")
}

// BenchmarkEigen100k: the K = 6 smallest eigenpairs of L_sym of a 10⁵-node
// k-NN-like graph (10 draws per node, about 2·10⁶ stored entries) with 5 or
// 6 planted communities. With 6 communities the 6 wanted eigenvalues are
// well separated from the bulk of the spectrum; with 5 the 6th lies at the
// edge of the bulk, the hard case for every Krylov or block method. The
// operator is graph.Laplacian, or with op=csr the lsymCSR kernel above.
func BenchmarkEigen100k(b *testing.B) {
	for _, c := range []int{6, 5} {
		for _, tol := range []float64{1e-6, 1e-8} {
			for _, fast := range []bool{false, true} {
				op := "graph"
				if fast {
					op = "csr"
				}
				b.Run(fmt.Sprintf("communities=%d/tol=%g/op=%s/Lanczos", c, tol, op), func(b *testing.B) { benchmarkSolver(b, eigen.Lanczos{}, 100000, c, tol, fast) })
				b.Run(fmt.Sprintf("communities=%d/tol=%g/op=%s/LOBPCG", c, tol, op), func(b *testing.B) { benchmarkSolver(b, eigen.LOBPCG{}, 100000, c, tol, fast) })
			}
		}
	}
}

// BenchmarkDense400: the dense solver at n = 400 (cluster.DenseLimit).
func BenchmarkDense400(b *testing.B) {
	benchmarkSolver(b, eigen.Dense{}, 400, 5, 0, false)
}

// TestLsymCSR checks the benchmark operator against graph.Laplacian.
func TestLsymCSR(t *testing.T) {
	g := plantedGraph(2000, 3, 5, 0.8, 2)
	l, err := graph.NewLaplacian(g, graph.Symmetric)
	if err != nil {
		t.Fatal(err)
	}
	c := newLsymCSR(g)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, p := range []int{1, 3} {
		x := mat.NewDense(2000, p, nil)
		for i := 0; i < 2000; i++ {
			for j := 0; j < p; j++ {
				x.Set(i, j, rng.NormFloat64())
			}
		}
		y1, y2 := mat.NewDense(2000, p, nil), mat.NewDense(2000, p, nil)
		l.MulTo(y1, x)
		c.MulTo(y2, x)
		if !mat.EqualApprox(y1, y2, 1e-12) {
			t.Errorf("p=%d: lsymCSR differs from graph.Laplacian", p)
		}
	}
}
