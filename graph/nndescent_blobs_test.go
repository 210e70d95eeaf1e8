package graph_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
)

var sinkApprox *graph.Neighbors

// BenchmarkApproxKNNBlobs1M10d is the search of bench/njw_million.sh at
// 10⁶ points on data of the same kind (5 Gaussian blobs in 10-D, std 4,
// 10 neighbours; another draw), without the clustering: the figure to
// watch when tuning NN-descent. Heavy (about 40 s of CPU on both cores):
// run it under the bench lock on the shared machine.
func BenchmarkApproxKNNBlobs1M10d(b *testing.B) {
	x, _, err := synth.Blobs(1_000_000, 5, 10, 4, rand.NewPCG(1, 1))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		nb, err := graph.ApproxKNN(context.Background(), x, 10, nil)
		if err != nil {
			b.Fatal(err)
		}
		sinkApprox = nb
	}
}
