package cluster

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// ccsrBenchSink and ccsrSolveSink keep benchmark results alive.
var (
	ccsrBenchSink *Result
	ccsrSolveSink *ccsrSolution
)

// benchmarkCCSR runs CCSR end to end (default m = 15) on
// fgpwcBenchProblem's seeded problem: n points in two 2-D Gaussian blobs
// (centre spread 2), the symmetric 10-NN graph with RBF weights, the FGPWC
// protocol's constraints (each pair with probability 1/n: about n/2
// pairs), k = 2, with F as Alg. 13 takes it ("F") and with unit rows
// (RowNormalize, "unit-rows"), each on the Laplacian of the default
// Problem.Regularize (RegAuto, which leaves these graphs exact) and on the
// regularized one (graph.RegOn, τ = the mean degree: "reg-F",
// "reg-unit-rows"). It reports the ARI against the blobs, f(M*) and the
// solver's iterations. The problem is built outside the timer.
func benchmarkCCSR(b *testing.B, n int) {
	p, truth := fgpwcBenchProblem(b, n, 2, 2, 10, 2)
	b.Logf("n = %d, nnz = %d, constraints = %d", p.Graph.N(), p.Graph.NNZ(), len(p.Constraints.Pairs))
	on := graph.Regularization{Mode: graph.RegOn}
	for _, c := range []struct {
		name string
		m    CCSR
		reg  graph.Regularization
	}{
		{"F", CCSR{}, graph.Regularization{}},
		{"unit-rows", CCSR{RowNormalize: true}, graph.Regularization{}},
		{"reg-F", CCSR{}, on},
		{"reg-unit-rows", CCSR{RowNormalize: true}, on},
	} {
		q := *p
		q.Regularize = c.reg
		b.Run(c.name, func(b *testing.B) { benchmarkCCSRMethod(b, &q, truth, c.m) })
	}
}

func benchmarkCCSRMethod(b *testing.B, p *Problem, truth []int, m CCSR) {
	b.ReportAllocs()
	for b.Loop() {
		res, err := Run(context.Background(), m, p, &Settings{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		ccsrBenchSink = res
	}
	b.StopTimer()
	ari, err := metrics.ARI(truth, ccsrBenchSink.Labels)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(ari, "ARI")
	b.ReportMetric(ccsrBenchSink.Objective, "f")
	b.ReportMetric(float64(ccsrBenchSink.Iterations), "iters")
	if len(ccsrBenchSink.Warnings) > 0 {
		b.Logf("warnings: %v", ccsrBenchSink.Warnings)
	}
}

// BenchmarkCCSR1kKNN: n = 10³, about 500 constraints.
func BenchmarkCCSR1kKNN(b *testing.B) { benchmarkCCSR(b, 1000) }

// BenchmarkCCSR10kKNN: n = 10⁴, about 5000 constraints.
func BenchmarkCCSR10kKNN(b *testing.B) { benchmarkCCSR(b, 10000) }

// BenchmarkCCSRSolve times the M solve alone (ccsrSolve at the default
// Tol 1e-7) for m = 10, 20 and 50, on the rows of the m smallest
// eigenvectors of L_sym of a 10-NN graph on n = 1000 points in four 5-D
// Gaussian blobs (centre spread 2), with the FGPWC protocol's pairs
// (probability 1/n: about 500) and ten times as many (about 5000). The
// authors' SDP (thesis eq. 4.3.4) has m(m+1)/2 + 1 variables and an
// (m² + 1)-square cone: an interior-point iteration costs about O(m⁶);
// ours O(K·m² + m³). It reports the iterations and the relative KKT
// residual reached. The embeddings are computed outside the timer.
func BenchmarkCCSRSolve(b *testing.B) {
	const n = 1000
	rnd := rand.New(rand.NewPCG(n, 1))
	x, truth := fgpwcBlobs(rnd, n, 5, 4, 2)
	g := fgpwcKNNGraph(b, x, 10)
	e, err := laplacianEmbedding(context.Background(), g, graph.Symmetric, 50, exactLaplacian, &Settings{})
	if err != nil {
		b.Fatal(err)
	}
	for _, per := range []float64{1, 10} {
		set, err := constraint.BernoulliPairs(truth, per/n, rand.NewPCG(n, 2))
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range []int{10, 20, 50} {
			f := e.vectors.Slice(0, n, 0, m).(*mat.Dense)
			a, bb, t, w := ccsrRows(f, set.Pairs)
			b.Run(fmt.Sprintf("m=%d/K=%d", m, len(set.Pairs)), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					sol, err := ccsrSolve(context.Background(), a, bb, t, w, ccsrOptions{tol: ccsrDefaultTol, maxIter: ccsrDefaultMaxIter})
					if err != nil {
						b.Fatal(err)
					}
					ccsrSolveSink = sol
				}
				b.ReportMetric(float64(ccsrSolveSink.iters), "iters")
				b.ReportMetric(ccsrSolveSink.kkt, "kkt")
			})
		}
	}
}
