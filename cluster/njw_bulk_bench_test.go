package cluster

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// benchNJWk times graph construction with spec and NJW with k clusters on
// n points of 5 Gaussian blobs in dim dimensions with standard deviation
// std (synth.Blobs, seed 1), and reports the ARI against the blobs.
func benchNJWk(b *testing.B, n, dim int, std float64, k int, spec graph.Spec) {
	x, truth, err := synth.Blobs(n, 5, dim, std, rand.NewPCG(1, 1))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g, err := graph.Build(ctx, x, spec)
		if err != nil {
			b.Fatal(err)
		}
		res, err := Run(ctx, NJW{}, &Problem{Graph: g, K: k}, &Settings{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		benchSink = res
	}
	b.StopTimer()
	ari, err := metrics.ARI(truth, benchSink.Labels)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(ari, "ARI")
}

// BenchmarkNJWBulk100k times NJW with k = 10 on 10⁵ points of 5
// overlapping blobs in 10 dimensions (standard deviation 4, as `tether gen
// blobs -n 100000 -k 5 -dim 10 -noise 4`) on the CLI's default graph:
// eigenvalues 6–10 of L_sym lie in a near-degenerate bulk (0.1139–0.1155),
// the case of a k above the number of groups, and of FGPWC's and SSC:KA's
// bases of max(2k, 10) vectors. Graph construction and clustering are
// inside the timer.
func BenchmarkNJWBulk100k(b *testing.B) { benchNJWk(b, 100_000, 10, 4, 10, graph.DefaultSpec()) }

// BenchmarkNJW3D100k times NJW with k = 5 on 10⁵ points of 5 overlapping
// blobs in 3 dimensions (standard deviation 3) on the CLI's default graph:
// small eigenvalues (λ₅ = 1.4e-3), between the 2-D graphs' (1.2e-4) and the
// bulk's.
func BenchmarkNJW3D100k(b *testing.B) { benchNJWk(b, 100_000, 3, 3, 5, graph.DefaultSpec()) }
