package cluster

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// benchNoisyNOASSC runs m on n points of 3 overlapping blobs in 5
// dimensions, on the full RBF graph with local σ (noisy-constraints'
// graph), with every pair drawn with probability 5/n, labelled by the
// blobs, and 10% of the pairs flipped: the case where the resolve, the
// vote on a complete graph and (by default) the refinement's
// cross-validation all act.
func benchNoisyNOASSC(b *testing.B, n int, m Method) {
	p := noisyNOASSCProblem(b, n)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Run(context.Background(), m, p, &Settings{Seed: 1, Restarts: 30}); err != nil {
			b.Fatal(err)
		}
	}
}

// noisyNOASSCProblem is benchNoisyNOASSC's problem: n points of 3
// overlapping blobs in 5 dimensions, the full RBF graph with local σ, every
// pair drawn with probability 5/n and 10% of them flipped.
func noisyNOASSCProblem(tb testing.TB, n int) *Problem {
	tb.Helper()
	rnd := rand.New(rand.NewPCG(7, 8))
	x, truth := fgpwcBlobs(rnd, n, 5, 3, 3)
	spec := graph.DefaultSpec()
	spec.Kind = graph.Full
	g, err := graph.Build(context.Background(), x, spec)
	if err != nil {
		tb.Fatal(err)
	}
	clean := fgpwcOracle(rnd, truth, 5*(n-1)/2)
	noisy, _, err := constraint.FlipPairs(clean, 0.1, rand.NewPCG(7, 9))
	if err != nil {
		tb.Fatal(err)
	}
	return &Problem{Graph: g, K: 3, Constraints: noisy}
}

// 500 nodes, about 1250 pairs, 10% flipped: MCL-NOA-SSC with its
// defaults (resolve, refinement and reference chosen by
// cross-validation), with the fixed refinement, and with both fixed (no
// cross-validation: the resolve, one fit, the refinement).
func BenchmarkMCLNOASSCNoisy500(b *testing.B) { benchNoisyNOASSC(b, 500, MCLNOASSC{}) }

func BenchmarkMCLNOASSCNoisy500Fixed(b *testing.B) {
	benchNoisyNOASSC(b, 500, MCLNOASSC{RefineFixed: true})
}

func BenchmarkMCLNOASSCNoisy500BothFixed(b *testing.B) {
	benchNoisyNOASSC(b, 500, MCLNOASSC{RefineFixed: true, ReferenceFixed: true})
}
