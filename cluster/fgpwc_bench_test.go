package cluster

import (
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
)

// fgpwcBenchSink keeps benchmark results alive.
var fgpwcBenchSink *Result

// fgpwcBenchProblem builds n points in d dimensions around k centres
// (fgpwcBlobs), their symmetric k-NN graph with nn neighbours and RBF
// weights, and the constraints of seed 003 §5.1 (each pair with
// probability 1/n, about n/2 pairs).
func fgpwcBenchProblem(b *testing.B, n, d, k, nn int, spread float64) *Problem {
	return fgpwcBenchProblemT(b, n, d, k, nn, spread)
}

func fgpwcBenchProblemT(b testing.TB, n, d, k, nn int, spread float64) *Problem {
	b.Helper()
	rnd := rand.New(rand.NewPCG(uint64(n), 1))
	x, truth := fgpwcBlobs(rnd, n, d, k, spread)
	g := fgpwcKNNGraph(b, x, nn)
	set, err := constraint.BernoulliPairs(truth, 1/float64(n), rand.NewPCG(uint64(n), 2))
	if err != nil {
		b.Fatal(err)
	}
	return &Problem{Graph: g, K: k, Constraints: set}
}

func benchmarkFGPWC(b *testing.B, p *Problem, f FGPWC) {
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := f.Cluster(context.Background(), p, &Settings{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		fgpwcBenchSink = res
	}
	b.StopTimer()
	if fgpwcBenchSink != nil {
		b.ReportMetric(float64(fgpwcBenchSink.Iterations), "iters")
		b.ReportMetric(fgpwcBenchSink.Objective, "F")
	}
}

// BenchmarkFGPWCSpamSized is the size of the spambase experiment of seed
// 003 Table 1: n = 4600, a dense-ish graph (30-NN, about 40 edges per
// node), m = 20, about 2300 constraints (p = 1/n). Target: < 3 s end to end
// on 2 cores.
func BenchmarkFGPWCSpamSized(b *testing.B) {
	p := fgpwcBenchProblem(b, 4600, 10, 2, 30, 1.5)
	b.Logf("n = %d, nnz = %d, constraints = %d", p.Graph.N(), p.Graph.NNZ(), len(p.Constraints.Pairs))
	for _, opt := range []FGPWCOptimizer{StepHalving, LBFGS} {
		b.Run(opt.String(), func(b *testing.B) {
			benchmarkFGPWC(b, p, FGPWC{M: 20, RowNormalize: true, Optimizer: opt})
		})
	}
}

// BenchmarkFGPWC100k: 10⁵ nodes, 10-NN graph, m = 50, about 5·10⁴
// constraints. Target: < 30 s end to end.
func BenchmarkFGPWC100k(b *testing.B) {
	p := fgpwcBenchProblem(b, 100000, 3, 5, 10, 6)
	b.Logf("n = %d, nnz = %d, constraints = %d", p.Graph.N(), p.Graph.NNZ(), len(p.Constraints.Pairs))
	for _, opt := range []FGPWCOptimizer{StepHalving, LBFGS} {
		b.Run(opt.String(), func(b *testing.B) {
			benchmarkFGPWC(b, p, FGPWC{M: 50, RowNormalize: true, Optimizer: opt})
		})
	}
}

// BenchmarkFGPWCObjective measures one evaluation of F and ∇F, the hot
// path of the descent: O(K·m²) with K = 5·10⁴ constraints, m = 50.
func BenchmarkFGPWCObjective(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 1))
	v, pairs, x := randomFGPWCProblem(rnd, 100000, 50, 50000, 0.01, false)
	o := newFGPWCObjective(v, pairs, 0.15, 1.5, 1e-3)
	grad := mat.NewDense(50, 50, nil)
	b.ResetTimer()
	for b.Loop() {
		o.eval(x)
		o.gradTo(grad, x)
	}
}
