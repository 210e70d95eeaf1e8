package cluster

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// benchSink keeps benchmark results alive.
var benchSink *Result

// benchNJWBlobs times the pipeline the README compares with scikit-learn:
// 5 Gaussian blobs in 10 dimensions, binary 10-NN graph as scikit-learn's
// affinity="nearest_neighbors", NJW with k = 5. Data generation is outside
// the timer; graph construction and clustering are inside.
func benchNJWBlobs(b *testing.B, n int, std float64) {
	x, truth, err := synth.Blobs(n, 5, 10, std, rand.NewPCG(1, 1))
	if err != nil {
		b.Fatal(err)
	}
	spec := graph.Spec{Kind: graph.SklearnKNN, K: 10, Affinity: graph.Binary}
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g, err := graph.Build(ctx, x, spec)
		if err != nil {
			b.Fatal(err)
		}
		res, err := Run(ctx, NJW{}, &Problem{Graph: g, K: 5}, &Settings{Seed: 1})
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

func BenchmarkNJWBlobs10k(b *testing.B)  { benchNJWBlobs(b, 10_000, 1) }
func BenchmarkNJWBlobs100k(b *testing.B) { benchNJWBlobs(b, 100_000, 1) }

// The overlapping variants give a connected graph, so the eigensolver has
// real work (no component deflation).
func BenchmarkNJWBlobsOverlap10k(b *testing.B)  { benchNJWBlobs(b, 10_000, 4) }
func BenchmarkNJWBlobsOverlap100k(b *testing.B) { benchNJWBlobs(b, 100_000, 4) }

// BenchmarkNJW2D100k times NJW on 10⁵ points of 5 overlapping Gaussian
// blobs in 2 dimensions (synth.Blobs, standard deviation 1, as `tether
// gen blobs -n 100000 -k 5`) on the CLI's default graph
// (graph.DefaultSpec: symmetric 10-NN, RBF weights with local scaling):
// the eigensolve dominates, its small eigengaps (λ ∝ j/n on a 2-D graph)
// making Lanczos restart hundreds of times. Graph construction and
// clustering are inside the timer.
func BenchmarkNJW2D100k(b *testing.B) {
	x, truth, err := synth.Blobs(100_000, 5, 2, 1, rand.NewPCG(1, 1))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g, err := graph.Build(ctx, x, graph.DefaultSpec())
		if err != nil {
			b.Fatal(err)
		}
		res, err := Run(ctx, NJW{}, &Problem{Graph: g, K: 5}, &Settings{Seed: 1})
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
