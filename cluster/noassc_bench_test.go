package cluster

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// labelBench is the benchmark problem of the label-constraint methods: the
// default graph (symmetric 10-NN, RBF with local scaling) of 10⁵ points in
// 10 Gaussian blobs in 5 dimensions, with 1% of the nodes labelled. Built
// once per test binary.
var labelBench struct {
	once  sync.Once
	p     *Problem
	truth []int
	err   error
}

var labelBenchSink *Result

func labelBenchProblem(b *testing.B) *Problem {
	b.Helper()
	labelBench.once.Do(func() {
		x, truth, err := synth.Blobs(100000, 10, 5, 1.5, rand.NewPCG(1, 1))
		if err != nil {
			labelBench.err = err
			return
		}
		g, err := graph.Build(context.Background(), x, graph.DefaultSpec())
		if err != nil {
			labelBench.err = err
			return
		}
		labels, err := constraint.FractionLabels(truth, 0.01, rand.NewPCG(1, 2))
		if err != nil {
			labelBench.err = err
			return
		}
		labelBench.p = &Problem{Graph: g, K: 10, Labels: labels}
		labelBench.truth = truth
	})
	if labelBench.err != nil {
		b.Fatal(labelBench.err)
	}
	return labelBench.p
}

func benchmarkLabelMethod(b *testing.B, m Method) {
	if testing.Short() {
		b.Skip("10⁵-node benchmark")
	}
	p := labelBenchProblem(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := Run(context.Background(), m, p, &Settings{Seed: uint64(i)})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Warnings) > 0 {
			b.Log(res.Warnings)
		}
		labelBenchSink = res
	}
	b.StopTimer()
	// Quality beside speed: the ARI against the blobs.
	ari, err := metrics.ARI(labelBench.truth, labelBenchSink.Labels)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(ari, "ARI")
}

// BenchmarkNOASSC100k: NOA-SSC (power method, γ = 1.25) on a 10⁵-node k-NN
// graph, 10 classes, 1% labels.
func BenchmarkNOASSC100k(b *testing.B) { benchmarkLabelMethod(b, NOASSC{}) }

// BenchmarkLabelProp100k: label propagation (conjugate gradients) on the
// same problem.
func BenchmarkLabelProp100k(b *testing.B) { benchmarkLabelMethod(b, LabelProp{}) }

// BenchmarkMavroK100k: the Mavroeidis k-way method on the same problem.
func BenchmarkMavroK100k(b *testing.B) { benchmarkLabelMethod(b, MavroK{}) }
