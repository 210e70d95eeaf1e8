package cluster

import (
	"context"
	"testing"
)

var plBenchSink *Result

// BenchmarkPLMeans10kFeatures: the vector version on 10⁴ points in 2-D
// (8 overlapping blobs), α = 0.3, θ = 0, σ = 20: 12 sweeps, k = 3 at the
// end (many singletons on the way).
func BenchmarkPLMeans10kFeatures(b *testing.B) {
	x := plTestDense(plTestBlobs(10000, 8, 2, 10, 1))
	m := PLMeans{Kernel: PLFeatures, Alpha: 0.3, Theta: 0, Sigma: 20}
	b.ResetTimer()
	for range b.N {
		res, err := Run(context.Background(), m, &Problem{Features: x}, nil)
		if err != nil {
			b.Fatal(err)
		}
		plBenchSink = res
	}
}

// BenchmarkPLMeans2kGraphNcut: the normalized-cut kernel version on a
// 2000-node two-group random graph (≈ 1.6·10⁶ stored entries) at σ = 0.1,
// the worst case of §5.2.3: every node ends a singleton (k = n, O(n²) per
// sweep), 2 sweeps.
func BenchmarkPLMeans2kGraphNcut(b *testing.B) {
	g := plTestGraph(b, 2000, 1)
	m := PLMeans{Alpha: 0.3, Theta: 0.05, Sigma: 0.1}
	b.ResetTimer()
	for range b.N {
		res, err := Run(context.Background(), m, &Problem{Graph: g}, nil)
		if err != nil {
			b.Fatal(err)
		}
		plBenchSink = res
	}
}
