package cluster

import (
	"context"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/metrics"
)

// coscBenchSink keeps benchmark results alive.
var coscBenchSink *Result

// benchmarkCOSC runs COSC end to end on fgpwcBenchProblem's seeded problem:
// n points in k 2-D Gaussian blobs (centre spread 2, overlapping), the
// symmetric 10-NN graph with RBF weights, the FGPWC protocol's constraints
// (each pair with probability 1/n: about n/2 pairs). It reports the ARI
// against the blobs, the k-way Ncut and the violated constraints. The
// problem is built outside the timer.
func benchmarkCOSC(b *testing.B, n, k int) {
	p, truth := fgpwcBenchProblem(b, n, 2, k, 10, 2)
	b.Logf("n = %d, k = %d, nnz = %d, constraints = %d", p.Graph.N(), k, p.Graph.NNZ(), len(p.Constraints.Pairs))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := Run(context.Background(), COSC{}, p, &Settings{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		coscBenchSink = res
	}
	b.StopTimer()
	ari, err := metrics.ARI(truth, coscBenchSink.Labels)
	if err != nil {
		b.Fatal(err)
	}
	ml, cl := constraint.Violations(p.Constraints, coscBenchSink.Labels)
	b.ReportMetric(ari, "ARI")
	b.ReportMetric(coscBenchSink.Objective, "ncut")
	b.ReportMetric(float64(ml+cl), "violations")
	b.ReportMetric(float64(coscBenchSink.Iterations), "steps")
}

// BenchmarkCOSC1kKNN: n = 10³, k = 2, about 500 constraints.
func BenchmarkCOSC1kKNN(b *testing.B) { benchmarkCOSC(b, 1000, 2) }

// BenchmarkCOSC900KNNk3: n = 900, k = 3, the size of the largest runs of
// tether repro fgpwc-table1.
func BenchmarkCOSC900KNNk3(b *testing.B) { benchmarkCOSC(b, 900, 3) }

// BenchmarkCOSC10kKNN: n = 10⁴, k = 2, about 5000 constraints.
func BenchmarkCOSC10kKNN(b *testing.B) { benchmarkCOSC(b, 10000, 2) }
