package cluster

import (
	"context"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/metrics"
)

// l1cscBenchSink keeps benchmark results alive.
var l1cscBenchSink *Result

// benchmarkL1CSC runs L1CSC end to end (default knobs) on
// fgpwcBenchProblem's seeded problem: n points in two 2-D Gaussian blobs
// (centre spread 2, overlapping), the symmetric 10-NN graph with RBF
// weights, each pair constrained with probability 1/n (about n/2 pairs).
// It reports the ARI against the blobs, the objective J (eq. 4.9), the
// violated constraints and the outer steps. The problem is built outside
// the timer.
func benchmarkL1CSC(b *testing.B, n int) { benchmarkL1CSCWith(b, n, L1CSC{}) }

// benchmarkL1CSCWith is benchmarkL1CSC with the method m.
func benchmarkL1CSCWith(b *testing.B, n int, m L1CSC) {
	p, truth := fgpwcBenchProblem(b, n, 2, 2, 10, 2)
	if iso := p.Graph.Isolated(); len(iso) > 0 {
		// RBF weights can underflow to 0 (one node at n = 10⁵), which
		// the normalized cut rejects: self loops of 10⁻⁹ of the mean
		// degree give such a node a faint weight (repairFaint).
		g, err := p.Graph.WithSelfLoops(1e-9 * p.Graph.Volume() / float64(n))
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("%d isolated nodes: self loops added", len(iso))
		p.Graph = g
	}
	b.Logf("n = %d, nnz = %d, constraints = %d", p.Graph.N(), p.Graph.NNZ(), len(p.Constraints.Pairs))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := Run(context.Background(), m, p, &Settings{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		l1cscBenchSink = res
	}
	b.StopTimer()
	ari, err := metrics.ARI(truth, l1cscBenchSink.Labels)
	if err != nil {
		b.Fatal(err)
	}
	ml, cl := constraint.Violations(p.Constraints, l1cscBenchSink.Labels)
	b.ReportMetric(ari, "ARI")
	b.ReportMetric(l1cscBenchSink.Objective, "J")
	b.ReportMetric(float64(ml+cl), "violations")
	b.ReportMetric(float64(l1cscBenchSink.Iterations), "steps")
	if len(l1cscBenchSink.Warnings) > 0 {
		b.Log(l1cscBenchSink.Warnings)
	}
}

// BenchmarkL1CSC1kKNN: n = 10³, about 500 constraints.
func BenchmarkL1CSC1kKNN(b *testing.B) { benchmarkL1CSC(b, 1000) }

// BenchmarkL1CSC10kKNN: n = 10⁴, about 5000 constraints.
func BenchmarkL1CSC10kKNN(b *testing.B) { benchmarkL1CSC(b, 10000) }

// BenchmarkL1CSC10kKNNJacobi is BenchmarkL1CSC10kKNN with the Jacobi
// preconditioner of the conjugate gradients instead of the spanning-forest
// one (forestPrec): compare the two with benchstat.
func BenchmarkL1CSC10kKNNJacobi(b *testing.B) { benchmarkL1CSCWith(b, 10000, L1CSC{jacobi: true}) }

// BenchmarkL1CSC100kKNN: n = 10⁵, about 5·10⁴ constraints (issue 17's
// size).
func BenchmarkL1CSC100kKNN(b *testing.B) { benchmarkL1CSC(b, 100000) }
