package eigen_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

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

func benchmarkSolver(b *testing.B, s eigen.Solver, n, communities int, tol float64) {
	g := plantedGraph(n, communities, 10, 0.9, 1)
	var op eigen.Operator
	op, err := graph.NewLaplacian(g, graph.Symmetric)
	if err != nil {
		b.Fatal(err)
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
// operator is graph.Laplacian.
func BenchmarkEigen100k(b *testing.B) {
	for _, c := range []int{6, 5} {
		for _, tol := range []float64{1e-6, 1e-8} {
			b.Run(fmt.Sprintf("communities=%d/tol=%g/Lanczos", c, tol), func(b *testing.B) { benchmarkSolver(b, eigen.Lanczos{}, 100000, c, tol) })
			b.Run(fmt.Sprintf("communities=%d/tol=%g/LOBPCG", c, tol), func(b *testing.B) { benchmarkSolver(b, eigen.LOBPCG{}, 100000, c, tol) })
			b.Run(fmt.Sprintf("communities=%d/tol=%g/BlockLanczos", c, tol), func(b *testing.B) { benchmarkSolver(b, eigen.BlockLanczos{}, 100000, c, tol) })
		}
	}
}

// BenchmarkDense400: the dense solver at n = 400 (cluster.DenseLimit).
func BenchmarkDense400(b *testing.B) {
	benchmarkSolver(b, eigen.Dense{}, 400, 5, 0)
}

// BenchmarkLanczosManyPairs: the K = 51 smallest eigenpairs of L_sym of a
// 2·10⁴-node planted graph, the shape of FGPWC's m = 50 embedding, where
// restarts (Ritz vectors, O(n·NCV·Keep)) and reorthogonalization (O(n·NCV)
// per step) dominate the cost rather than products with A. keep=default is
// Lanczos' own choice, keep=77 the former default K + (NCV−K)/2; block is
// BlockLanczos with its defaults on the same problem.
func BenchmarkLanczosManyPairs(b *testing.B) {
	g := plantedGraph(20000, 5, 10, 0.9, 1)
	op, err := graph.NewLaplacian(g, graph.Symmetric)
	if err != nil {
		b.Fatal(err)
	}
	for _, keep := range []int{0, 77} {
		name := "keep=default"
		if keep > 0 {
			name = fmt.Sprintf("keep=%d", keep)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				res, err := eigen.Lanczos{Keep: keep}.Solve(context.Background(), eigen.Problem{A: op, K: 51}, &eigen.Settings{Tol: 1e-8})
				if err != nil {
					b.Fatal(err)
				}
				benchSink = res
			}
			b.ReportMetric(float64(benchSink.MatVecs), "matvecs/op")
			b.ReportMetric(float64(benchSink.Iterations), "restarts/op")
		})
	}
	b.Run("block", func(b *testing.B) {
		for b.Loop() {
			res, err := eigen.BlockLanczos{}.Solve(context.Background(), eigen.Problem{A: op, K: 51}, &eigen.Settings{Tol: 1e-8})
			if err != nil {
				b.Fatal(err)
			}
			benchSink = res
		}
		b.ReportMetric(float64(benchSink.MatVecs), "matvecs/op")
		b.ReportMetric(float64(benchSink.Iterations), "restarts/op")
	})
}
