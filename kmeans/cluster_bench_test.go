package kmeans_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tether-sc/tether/kmeans"
)

// BenchmarkCluster100kx50 is the k-means of FGPWC at the size of
// cluster.BenchmarkFGPWC100k: 10⁵ points in 50 dimensions, k = 5, 30
// restarts, default (Chatel) update. "blobs" are 5 Gaussian blobs of
// standard deviation 1 whose centres are 4 or 4·√2 apart (blob 0 at the
// origin, the others at 4 along distinct axes): well separated relative
// to the per-coordinate spread, though each point is about √50 ≈ 7 from
// its centre. "noisy" are the same blobs at half the separation, which
// overlap and need more iterations.
func BenchmarkCluster100kx50(b *testing.B) {
	for _, c := range []struct {
		name string
		sep  float64
	}{
		{"blobs", 4},
		{"noisy", 2},
	} {
		b.Run(c.name, func(b *testing.B) {
			x, _ := blobs(100_000, 50, 5, c.sep, 1, 5)
			var res *kmeans.Result
			b.ResetTimer()
			for b.Loop() {
				var err error
				res, err = kmeans.Cluster(context.Background(), x, kmeans.Settings{K: 5, Restarts: 30, Src: rand.NewPCG(1, 1)})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			sink = res
			b.ReportMetric(float64(res.Iterations), "iters")
		})
	}
}
