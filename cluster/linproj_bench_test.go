package cluster

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tether-sc/tether/metrics"
)

// linprojBenchSink keeps benchmark results alive.
var linprojBenchSink *Result

// benchmarkLinProj runs m end to end on n points in three 10-D Gaussian
// blobs (centre spread 2, fgpwcBlobs), with their symmetric 10-NN RBF
// graph and the FGPWC protocol's constraints (each pair with probability
// 1/n: about n/2 pairs), k = 3. Data, graph and constraints are built
// outside the timer; it reports the ARI against the blobs and the
// projection dimension.
func benchmarkLinProj(b *testing.B, m Method, n int) {
	rnd := rand.New(rand.NewPCG(uint64(n), 1))
	x, truth := fgpwcBlobs(rnd, n, 10, 3, 2)
	p := fgpwcPairsProblem(b, fgpwcKNNGraph(b, x, 10), truth, 3)
	p.Features = x
	b.Logf("n = %d, d = 10, nnz = %d, constraints = %d", n, p.Graph.NNZ(), len(p.Constraints.Pairs))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := Run(context.Background(), m, p, &Settings{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		linprojBenchSink = res
	}
	b.StopTimer()
	ari, err := metrics.ARI(truth, linprojBenchSink.Labels)
	if err != nil {
		b.Fatal(err)
	}
	_, dim := linprojBenchSink.Embedding.Dims()
	b.ReportMetric(ari, "ARI")
	b.ReportMetric(float64(dim), "dim")
}

// BenchmarkCPCA100k: n = 10⁵, about 5·10⁴ constraints.
func BenchmarkCPCA100k(b *testing.B) { benchmarkLinProj(b, CPCA{}, 100_000) }

// BenchmarkCLPP100kKNN: n = 10⁵ on the 10-NN graph, about 5·10⁴
// constraints.
func BenchmarkCLPP100kKNN(b *testing.B) { benchmarkLinProj(b, CLPP{}, 100_000) }
