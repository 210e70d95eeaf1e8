package kmeans_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/kmeans"
)

var sink *kmeans.Result

// BenchmarkKMeans100k5d: 10⁵ points in 5 dimensions from 5 Gaussian blobs,
// k = 5, 10 restarts (the budget in the design: well under 1 s).
func BenchmarkKMeans100k5d(b *testing.B) {
	x, _ := blobs(100_000, 5, 5, 4, 1, 1)
	b.ResetTimer()
	for b.Loop() {
		res, err := kmeans.Cluster(context.Background(), x, kmeans.Settings{K: 5, Restarts: 10, Src: rand.NewPCG(1, 1)})
		if err != nil {
			b.Fatal(err)
		}
		sink = res
	}
}

// BenchmarkSeed100k5d: k-means++ seeding alone, k = 5.
func BenchmarkSeed100k5d(b *testing.B) {
	x, _ := blobs(100_000, 5, 5, 4, 1, 1)
	b.ResetTimer()
	for b.Loop() {
		if _, err := kmeans.Seed(x, 5, rand.NewPCG(1, 1)); err != nil {
			b.Fatal(err)
		}
	}
}

// sparseBenchGraph is a planted partition graph: n nodes in k blocks, each
// node linked to about 10 random nodes of its block and 1 outside.
func sparseBenchGraph(n, k int) *graph.Graph {
	r := rand.New(rand.NewPCG(3, 3))
	edges := make([]graph.Edge, 0, 6*n)
	for i := 0; i < n; i++ {
		for range 5 {
			j := (r.IntN(n/k)*k + i%k) % n
			if j != i {
				edges = append(edges, graph.Edge{I: i, J: j, W: 0.5 + r.Float64()})
			}
		}
		if r.IntN(2) == 0 {
			edges = append(edges, graph.Edge{I: i, J: r.IntN(n), W: 0.5})
		}
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		panic(err)
	}
	g, err = g.WithSelfLoops(0.01) // no isolated nodes
	if err != nil {
		panic(err)
	}
	return g
}

// BenchmarkKernelKMeansSparse: weighted kernel k-means with the normalized
// cut kernel (σ = 0, as in Dhillon et al.'s experiments; with the PSD shift
// the run stops after one iteration, see TestKernelRecoversCliques) of a
// sparse graph (n = 10⁵, about 11 neighbours per node), k = 10, one restart
// seeded by kernel k-means++, 20 iterations: the cost is seeding plus 20 ×
// O(nnz + n·k).
func BenchmarkKernelKMeansSparse(b *testing.B) {
	g := sparseBenchGraph(100_000, 10)
	kern, w, err := kmeans.NormalizedCut(g, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		res, err := kmeans.KernelCluster(context.Background(), kern, w, kmeans.Settings{K: 10, Restarts: 1, MaxIter: 20, Src: rand.NewPCG(1, 1)})
		if err != nil {
			b.Fatal(err)
		}
		sink = res
	}
}
