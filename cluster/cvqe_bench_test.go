package cluster

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tether-sc/tether/metrics"
)

// cvqeBenchSink keeps benchmark results alive.
var cvqeBenchSink *Result

// benchmarkCVQE runs CVQE (10 restarts, the default) on n points in three
// 10-D Gaussian blobs (centre spread 2, fgpwcBlobs) with the FGPWC
// protocol's constraints (each pair with probability 1/n: about n/2
// pairs), k = 3; data and constraints are built outside the timer. It
// reports the ARI against the blobs.
func benchmarkCVQE(b *testing.B, n int) {
	rnd := rand.New(rand.NewPCG(uint64(n), 2))
	x, truth := fgpwcBlobs(rnd, n, 10, 3, 2)
	p := fgpwcPairsProblem(b, nil, truth, 3)
	p.Features = x
	b.Logf("n = %d, d = 10, constraints = %d", n, len(p.Constraints.Pairs))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := Run(context.Background(), CVQE{}, p, &Settings{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		cvqeBenchSink = res
	}
	b.StopTimer()
	ari, err := metrics.ARI(truth, cvqeBenchSink.Labels)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(ari, "ARI")
}

func BenchmarkCVQE10k(b *testing.B)  { benchmarkCVQE(b, 10_000) }
func BenchmarkCVQE100k(b *testing.B) { benchmarkCVQE(b, 100_000) }
