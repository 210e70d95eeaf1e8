package cluster

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/metrics"
)

// autoBenchProblem is the problem of issue 19's budget: n = 3000 points in
// 5 Gaussian blobs in 3-D (spread 2.5: the blobs overlap), their symmetric
// 10-NN graph with RBF weights (sparse: about 4·10⁴ stored weights), and
// 15 000 pairs drawn uniformly without replacement from the blobs' labels
// (5n, the "5n pairs"). It returns the problem and the blobs.
func autoBenchProblem(tb testing.TB) (*Problem, []int) {
	return autoBlobsProblem(tb, 3000, 5, 5*3000)
}

// autoBlobsProblem returns n points in k Gaussian blobs in 3-D (spread
// 2.5), their symmetric 10-NN graph with RBF weights and the given number
// of pairs drawn uniformly without replacement from the blobs' labels,
// seeded by n (autoBenchProblem's problem for n = 3000, k = 5 and 15 000
// pairs), and the blobs.
func autoBlobsProblem(tb testing.TB, n, k, pairs int) (*Problem, []int) {
	tb.Helper()
	rnd := rand.New(rand.NewPCG(uint64(n), 19))
	x, truth := fgpwcBlobs(rnd, n, 3, k, 2.5)
	g := fgpwcKNNGraph(tb, x, 10)
	set, err := constraint.UniformPairs(truth, pairs, rand.NewPCG(uint64(n), 20))
	if err != nil {
		tb.Fatal(err)
	}
	return &Problem{Graph: g, K: k, Constraints: set}, truth
}

// BenchmarkFGPWCAuto3000 is automatic FGPWC (the fgpwc-table1 column
// "fgpwc-auto": Imprint, IterCV, Laplacian = auto, NewFGPWC's other
// defaults) on autoBenchProblem: 3000 nodes, sparse 10-NN graph, 15 000
// pairs. Issue 19's budget: ≤ 5 s on the 2-core machine.
func BenchmarkFGPWCAuto3000(b *testing.B) {
	p, truth := autoBenchProblem(b)
	b.Logf("n = %d, nnz = %d, pairs = %d", p.Graph.N(), p.Graph.NNZ(), len(p.Constraints.Pairs))
	f := *NewFGPWC()
	f.Imprint, f.IterCV, f.Laplacian = true, true, FGPWCAutoLaplacian
	benchmarkFGPWC(b, p, f, truth)
}

// autoBenchSink keeps the report of the last auto benchmark run.
var autoBenchSink *AutoReport

// BenchmarkAuto3000 is -method auto on autoBenchProblem: 3000 nodes, sparse
// 10-NN graph, 15 000 pairs, AutoDefaultFolds (5) folds, every pair candidate. Issue 19's
// budget: ≤ 5 s on the 2-core machine. It reports the ARI of the chosen
// partition against the blobs.
func BenchmarkAuto3000(b *testing.B) {
	p, truth := autoBenchProblem(b)
	benchmarkAuto(b, p, truth)
}

// BenchmarkAuto950 is -method auto below AutoCostlyMaxN, where its costly
// candidates (fast-ge, fast-ge2, fast-ge2-bh, cscap) run, on
// autoBlobsProblem with 950 nodes, 2 blobs and 4750 pairs (5n): the size
// of realdata's tic-tac-toe at 5n (958 nodes, k = 2, 4790 pairs), without
// its dataset. cscap's Woodbury system is then 4750×4750 on the whole
// problem (about 3200 pairs in a fold's training part). It reports the
// ARI of the chosen partition against the blobs.
func BenchmarkAuto950(b *testing.B) {
	p, truth := autoBlobsProblem(b, 950, 2, 5*950)
	benchmarkAuto(b, p, truth)
}

// benchmarkAuto runs Auto{} with Settings{Seed: 1} on p, keeps the last
// report in autoBenchSink and logs every candidate's seconds.
func benchmarkAuto(b *testing.B, p *Problem, truth []int) {
	b.ReportAllocs()
	b.ResetTimer()
	var res *Result
	for b.Loop() {
		var err error
		res, err = Run(context.Background(), Auto{}, p, &Settings{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	autoBenchSink = res.Report.(*AutoReport)
	ari, err := metrics.ARI(truth, res.Labels)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(ari, "ARI")
	b.Log(autoBenchSink)
	for _, c := range autoBenchSink.Candidates {
		b.Logf("%s: %.2f s over the folds", c.Name, c.Seconds)
	}
}
