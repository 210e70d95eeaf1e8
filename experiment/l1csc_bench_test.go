package experiment

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/metrics"
)

// l1cscBenchSink keeps benchmark results alive.
var l1cscBenchSink *cluster.Result

// benchmarkL1CSCNoisy runs L1CSC with its defaults on one cell of the
// noisy-constraints experiment (noisyRun: the dataset's full RBF graph
// with local σ, every pair constrained with probability d/n, rate% of
// them flipped, set rep, base seed 1), the graph and constraints built
// outside the timer. It reports the ARI on the pairs not constrained (the
// page's figure), the objective J and the outer steps.
func benchmarkL1CSCNoisy(b *testing.B, name string, d, rate, rep int) {
	root := filepath.Join("..", "..", "shared", "datasets")
	var row fgpwcRow
	for _, r := range noisyRows {
		if r.name == name {
			row = r
		}
	}
	if row.name == "" || !fgpwcAvailable(row, root) {
		b.Skip("dataset not available:", name)
	}
	const seed = 1
	inst, err := fgpwcLoad(context.Background(), row, root, seed, nil)
	if err != nil {
		b.Fatal(err)
	}
	clean, noisy, _, err := noisyConstraints(context.Background(), inst.truth, name, d, rate, rep, seed)
	if err != nil {
		b.Fatal(err)
	}
	p := &cluster.Problem{Graph: inst.g, K: inst.k, Constraints: noisy, Features: inst.x, Regularize: publishedLaplacian}
	s := &cluster.Settings{Seed: seed + uint64(rep), Restarts: noisyRestarts}
	b.Logf("%s: n = %d, nnz = %d, constraints = %d", name, inst.g.N(), inst.g.NNZ(), len(noisy.Pairs))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := cluster.Run(context.Background(), cluster.L1CSC{}, p, s)
		if err != nil {
			b.Fatal(err)
		}
		l1cscBenchSink = res
	}
	b.StopTimer()
	b.ReportMetric(fgpwcUnconstrainedARI(inst.truth, l1cscBenchSink.Labels, clean), "ARI")
	all, err := metrics.ARI(inst.truth, l1cscBenchSink.Labels)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(all, "ARIall")
	b.ReportMetric(l1cscBenchSink.Objective, "J")
	b.ReportMetric(float64(l1cscBenchSink.Iterations), "steps")
	if len(l1cscBenchSink.Warnings) > 0 {
		b.Log(l1cscBenchSink.Warnings)
	}
}

// BenchmarkL1CSCWDBCDense runs the noisy-constraints cells of L1-CSC on
// wdbc (569 points, the full RBF graph: 3.2·10⁵ nonzeros) at density 5/n
// (about 1400 constraints), set 0, with 0, 5, 10 and 20% of the
// constraints flipped; and the ionosphere cell d5/f10/0.
func BenchmarkL1CSCWDBCDense(b *testing.B) {
	for _, rate := range noisyRates {
		b.Run(fmt.Sprintf("wdbc/d5/f%d", rate), func(b *testing.B) { benchmarkL1CSCNoisy(b, "wdbc", 5, rate, 0) })
	}
	b.Run("ionosphere/d5/f10", func(b *testing.B) { benchmarkL1CSCNoisy(b, "ionosphere", 5, 10, 0) })
}
