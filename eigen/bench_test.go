package eigen_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/dataset/synth"
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

// knn2DProblem returns the eigenproblem of NJW on n points of 5 overlapping
// Gaussian blobs in 2 dimensions (synth.Blobs, standard deviation 1, as
// `tether gen blobs -k 5`) under the CLI's default graph (graph.DefaultSpec:
// symmetric 10-NN, RBF weights with local scaling), as cluster's
// laplacianEmbedding poses it: L_sym of the graph relabelled in RCM order,
// K = 5, the null vectors D^{1/2}1_C/√vol(C) of its components deflated
// (one at n ≥ 2·10⁴, two at 10³, as cluster does). The eigenvalues near 0 of
// such a 2-D graph grow like j/n (at n = 10⁵: λ₂…λ₇ = 2.3e-6, 1.0e-5,
// 8.0e-5, 1.23e-4, 1.52e-4, 1.96e-4), so the wanted ones are separated
// from the rest by a relative gap of about 10⁻⁵: the hard case for Krylov
// solvers.
func knn2DProblem(tb testing.TB, n int) eigen.Problem {
	p, _ := knn2DGraphProblem(tb, n)
	return p
}

// withB2 returns p as the generalized problem A x = λ B x with B = 2I
// (diagOp), whose eigenpairs are p's with the values halved and the
// vectors scaled by 1/√2, its deflated vectors scaled so (B-orthonormal).
func withB2(p eigen.Problem) eigen.Problem {
	n := p.A.Dim()
	b := make(diagOp, n)
	for i := range b {
		b[i] = 2
	}
	var z mat.Dense
	z.Scale(1/math.Sqrt2, p.Deflate)
	p.B, p.Deflate = b, &z
	return p
}

// knn2DGraphProblem is knn2DProblem with the relabelled graph.
func knn2DGraphProblem(tb testing.TB, n int) (eigen.Problem, *graph.Graph) {
	x, _, err := synth.Blobs(n, 5, 2, 1, rand.NewPCG(1, 1))
	if err != nil {
		tb.Fatal(err)
	}
	ctx := context.Background()
	g, err := graph.Build(ctx, x, graph.DefaultSpec())
	if err != nil {
		tb.Fatal(err)
	}
	perm, err := g.RCMOrder(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	if g, err = g.Permute(ctx, perm); err != nil {
		tb.Fatal(err)
	}
	op, err := graph.NewLaplacian(g, graph.Symmetric)
	if err != nil {
		tb.Fatal(err)
	}
	comp, nc := g.Components()
	if nc >= 5 {
		tb.Fatalf("2-D blobs graph has %d components, want at most 4", nc)
	}
	z := mat.NewDense(n, nc, nil)
	vol := make([]float64, nc)
	for i, d := range g.Degrees() {
		vol[comp[i]] += d
	}
	for i, d := range g.Degrees() {
		z.Set(i, comp[i], math.Sqrt(d/vol[comp[i]]))
	}
	return eigen.Problem{A: op, K: 5, Deflate: z, DeflateValues: make([]float64, nc)}, g
}

// BenchmarkLanczos2DKNN: NJW's eigenproblem on a 2-D 10-NN graph
// (knn2DProblem) at tolerance 1e-8 (cluster's default), by Lanczos with a
// fixed basis (maxncv=0, NCV = 24 for the 4 pairs not deflated) and with
// a basis that grows to MaxNCV while the run has not converged; planted is
// the easy problem of BenchmarkEigen100k (6 communities, K = 6), where
// growth should cost nothing.
func BenchmarkLanczos2DKNN(b *testing.B) {
	for _, n := range []int{20000, 100000} {
		p := knn2DProblem(b, n)
		for _, maxNCV := range []int{0, 64} {
			b.Run(fmt.Sprintf("n=%d/maxncv=%d", n, maxNCV), func(b *testing.B) {
				for b.Loop() {
					res, err := eigen.Lanczos{MaxNCV: maxNCV}.Solve(context.Background(), p, &eigen.Settings{Tol: 1e-8})
					if err != nil {
						b.Fatal(err)
					}
					benchSink = res
				}
				b.ReportMetric(float64(benchSink.MatVecs), "matvecs/op")
				b.ReportMetric(float64(benchSink.Iterations), "restarts/op")
			})
		}
	}
	g := plantedGraph(100000, 6, 10, 0.9, 1)
	op, err := graph.NewLaplacian(g, graph.Symmetric)
	if err != nil {
		b.Fatal(err)
	}
	for _, maxNCV := range []int{0, 64} {
		b.Run(fmt.Sprintf("planted/maxncv=%d", maxNCV), func(b *testing.B) {
			for b.Loop() {
				res, err := eigen.Lanczos{MaxNCV: maxNCV}.Solve(context.Background(), eigen.Problem{A: op, K: 6}, &eigen.Settings{Tol: 1e-8})
				if err != nil {
					b.Fatal(err)
				}
				benchSink = res
			}
			b.ReportMetric(float64(benchSink.MatVecs), "matvecs/op")
			b.ReportMetric(float64(benchSink.Iterations), "restarts/op")
		})
	}
}

// BenchmarkMultigrid2DKNN: NJW's eigenproblem on a 2-D 10-NN graph
// (knn2DProblem, tolerance 1e-8) by LOBPCG preconditioned with a V-cycle
// of graph.Multigrid (σ = 1e-5, the hierarchy built inside the timer), the
// solver cluster hands such problems to, against Lanczos with MaxNCV = 64.
func BenchmarkMultigrid2DKNN(b *testing.B) {
	for _, n := range []int{20000, 50000, 100000} {
		p, g := knn2DGraphProblem(b, n)
		b.Run(fmt.Sprintf("n=%d/lobpcg-mg", n), func(b *testing.B) {
			for b.Loop() {
				mg, err := graph.NewMultigrid(context.Background(), g, 1e-5)
				if err != nil {
					b.Fatal(err)
				}
				res, err := eigen.LOBPCG{T: mg}.Solve(context.Background(), p, &eigen.Settings{Tol: 1e-8})
				if err != nil {
					b.Fatal(err)
				}
				benchSink = res
			}
			b.ReportMetric(float64(benchSink.MatVecs), "matvecs/op")
			b.ReportMetric(float64(benchSink.Iterations), "iters/op")
		})
		b.Run(fmt.Sprintf("n=%d/lanczos", n), func(b *testing.B) {
			for b.Loop() {
				res, err := eigen.Lanczos{MaxNCV: 64}.Solve(context.Background(), p, &eigen.Settings{Tol: 1e-8})
				if err != nil {
					b.Fatal(err)
				}
				benchSink = res
			}
			b.ReportMetric(float64(benchSink.MatVecs), "matvecs/op")
			b.ReportMetric(float64(benchSink.Iterations), "iters/op")
		})
	}
}
