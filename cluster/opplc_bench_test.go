package cluster

import (
	"context"
	"runtime"
	"testing"

	"github.com/tether-sc/tether/metrics"
)

// opplcBenchSink keeps benchmark results alive.
var opplcBenchSink *Result

// BenchmarkOPPLC100k runs OPPLC through Run on opplcOrderedGraph's sparse
// ordered graph of 10⁵ nodes (about 1.6·10⁶ stored entries) with about
// 7·10⁴ cannot-links, built outside the timer. Besides time and
// allocations (B/op bounds what OPPLC adds to the heap) it reports the
// largest heap read by runtime.ReadMemStats right after a run, before any
// forced collection (peak-heap-MB, the graph included), and the process's
// CPU seconds per op (cpu-s/op: a shared machine inflates the wall time).
func BenchmarkOPPLC100k(b *testing.B) {
	g, set, truth := opplcOrderedGraph(b, 100_000, 1)
	p := &Problem{Graph: g, Constraints: set}
	b.Logf("n = %d, nnz = %d, cannot-links = %d", g.N(), g.NNZ(), len(set.Pairs))
	// θ = 0: with 10⁴ entities, α + kθ would exceed every link score at
	// the thesis's θ = 0.1 (f(i) grows with k), and every node would start
	// a cluster; the cost is the same.
	m := OPPLC{Alpha: 1, Theta: 0}
	var peak uint64
	var ms runtime.MemStats
	b.ReportAllocs()
	b.ResetTimer()
	c0 := processCPU()
	ops := 0
	for b.Loop() {
		res, err := Run(context.Background(), m, p, nil)
		if err != nil {
			b.Fatal(err)
		}
		opplcBenchSink = res
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapAlloc)
		ops++
	}
	b.StopTimer()
	b.ReportMetric((processCPU()-c0).Seconds()/float64(ops), "cpu-s/op")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(opplcBenchSink.K), "k")
	ari, err := metrics.ARI(truth, opplcBenchSink.Labels)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(ari, "ARI")
}
