package cluster

import (
	"context"
	"testing"

	"github.com/tether-sc/tether/metrics"
)

// cspBenchSink keeps benchmark results alive.
var cspBenchSink *Result

// benchmarkCSP runs CSP end to end on fgpwcBenchProblem's seeded problem:
// n points in two 2-D Gaussian blobs (centre spread 2), the symmetric
// 10-NN graph with RBF weights, the FGPWC protocol's constraints (each
// pair with probability 1/n: about n/2 pairs), k = 2, at the default α
// (AlphaFraction 0.5) and at AlphaFraction 0.1 and 0.005 (where more than
// CSPMaxVectors vectors are feasible: the capped search). It reports the
// ARI against the blobs and the cost vᵀL̄v of the vector split. The problem is built
// outside the timer.
func benchmarkCSP(b *testing.B, n int) {
	for _, f := range []struct {
		name string
		frac float64
	}{{"alpha=0.5", 0}, {"alpha=0.1", 0.1}, {"alpha=0.005", 0.005}} {
		b.Run(f.name, func(b *testing.B) { benchmarkCSPAlpha(b, n, f.frac) })
	}
}

func benchmarkCSPAlpha(b *testing.B, n int, frac float64) {
	p, truth := fgpwcBenchProblem(b, n, 2, 2, 10, 2)
	_, nc := p.Graph.Components()
	b.Logf("n = %d, nnz = %d, components = %d, constraints = %d", p.Graph.N(), p.Graph.NNZ(), nc, len(p.Constraints.Pairs))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := Run(context.Background(), CSP{AlphaFraction: frac}, p, &Settings{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		cspBenchSink = res
	}
	b.StopTimer()
	ari, err := metrics.ARI(truth, cspBenchSink.Labels)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(ari, "ARI")
	b.ReportMetric(cspBenchSink.Objective, "cost")
	if len(cspBenchSink.Warnings) > 0 {
		b.Logf("warnings: %v", cspBenchSink.Warnings)
	}
}

// BenchmarkCSP1kKNN: n = 10³, about 500 constraints.
func BenchmarkCSP1kKNN(b *testing.B) { benchmarkCSP(b, 1000) }

// BenchmarkCSP10kKNN: n = 10⁴, about 5000 constraints.
func BenchmarkCSP10kKNN(b *testing.B) { benchmarkCSP(b, 10000) }
