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
