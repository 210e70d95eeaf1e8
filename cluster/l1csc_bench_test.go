package cluster

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/unionfind"
	"github.com/tether-sc/tether/metrics"
)

// l1cscBenchSink keeps benchmark results alive.
var l1cscBenchSink *Result

// benchmarkL1CSC runs L1CSC end to end (default knobs) on
// fgpwcBenchProblem's seeded problem: n points in two 2-D Gaussian blobs
// (centre spread 2, overlapping), the symmetric 10-NN graph with RBF
// weights, each pair constrained with probability 1/n (about n/2 pairs),
// the outliers outside the main component joined to their neighbours
// (l1AttachFaint).
// It reports the ARI against the blobs, the objective J (eq. 4.9), the
// violated constraints and the outer steps. The problem is built outside
// the timer.
func benchmarkL1CSC(b *testing.B, n int) { benchmarkL1CSCWith(b, n, L1CSC{}) }

// benchmarkL1CSCWith is benchmarkL1CSC with the method m.
func benchmarkL1CSCWith(b *testing.B, n int, m L1CSC) {
	p, truth := fgpwcBenchProblem(b, n, 2, 2, 10, 2)
	benchmarkL1CSCOn(b, p, truth, n, m)
}

// benchmarkL1CSCOn runs m on p (the graph of fgpwcBenchProblem(n, 2, 2,
// 10, 2), whose outliers it joins first by l1AttachFaint).
func benchmarkL1CSCOn(b *testing.B, p *Problem, truth []int, n int, m L1CSC) {
	p.Graph = l1AttachFaint(b, p.Graph, n)
	b.Logf("n = %d, nnz = %d, constraints = %d", p.Graph.N(), p.Graph.NNZ(), len(p.Constraints.Pairs))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res, err := Run(context.Background(), m, p, &Settings{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		l1cscBenchSink = res
	}
	b.StopTimer()
	ari, err := metrics.ARI(truth, l1cscBenchSink.Labels)
	if err != nil {
		b.Fatal(err)
	}
	ml, cl := constraint.Violations(p.Constraints, l1cscBenchSink.Labels)
	b.ReportMetric(ari, "ARI")
	b.ReportMetric(l1cscBenchSink.Objective, "J")
	b.ReportMetric(float64(ml+cl), "violations")
	b.ReportMetric(float64(l1cscBenchSink.Iterations), "steps")
	if len(l1cscBenchSink.Warnings) > 0 {
		b.Log(l1cscBenchSink.Warnings)
	}
}

// BenchmarkL1CSC1kKNN: n = 10³, about 500 constraints.
func BenchmarkL1CSC1kKNN(b *testing.B) { benchmarkL1CSC(b, 1000) }

// BenchmarkL1CSC10kKNN: n = 10⁴, 4800 constraints. ARI 0.56 with no
// constraint violated. With fewer than n/2 random pairs the constraint
// graph is below its giant-component threshold, a forest of small trees,
// each of which a sign split can satisfy in either orientation; the least
// J of the three starts, 3.4·10⁻⁴ from the third (generalized eigenvector
// 4), belongs to a split of 3774 against 6226 nodes that satisfies every
// constraint and follows the blobs only in part, while from the second
// (eigenvector 3, along the blobs) Alg. 1 ends at J = 2.2·10⁻³ with ARI
// 0.99. L1CSC keeps the least J, the paper's objective (eq. 4.9): the
// relaxation, not a solver failure, prefers that split. With twice the
// pairs (BenchmarkL1CSC10kKNNPairs2n) the ARI is 0.996.
func BenchmarkL1CSC10kKNN(b *testing.B) { benchmarkL1CSC(b, 10000) }

// BenchmarkL1CSC10kKNNPairs2n is BenchmarkL1CSC10kKNN with each pair
// constrained with probability 2/n (9723 pairs) instead of 1/n.
func BenchmarkL1CSC10kKNNPairs2n(b *testing.B) {
	p, truth := fgpwcBenchProblem(b, 10000, 2, 2, 10, 2)
	set, err := constraint.BernoulliPairs(truth, 2.0/10000, rand.NewPCG(10000, 2))
	if err != nil {
		b.Fatal(err)
	}
	p.Constraints = set
	benchmarkL1CSCOn(b, p, truth, 10000, L1CSC{})
}

// BenchmarkL1CSC10kKNNJacobi is BenchmarkL1CSC10kKNN with the Jacobi
// preconditioner of the conjugate gradients instead of the spanning-forest
// one (forestPrec): compare the two with benchstat.
func BenchmarkL1CSC10kKNNJacobi(b *testing.B) { benchmarkL1CSCWith(b, 10000, L1CSC{jacobi: true}) }

// BenchmarkL1CSC100kKNN: n = 10⁵, about 5·10⁴ constraints (issue 17's
// size).
func BenchmarkL1CSC100kKNN(b *testing.B) { benchmarkL1CSC(b, 100000) }

// l1AttachFaint returns g with every node outside the graph's main
// component joined to its 10 nearest points with weight 10⁻⁶ of the mean
// edge weight, the main component being the largest connected component
// of g without its edges of weight below 10⁻⁹ of the mean. RBF weights
// with one global σ underflow in the tails of the blobs: at n = 10⁴ six
// far outliers have degree ≈ 10⁻³⁵, and two pairs of outliers, each the
// other's neighbour (weight ≈ 3·10⁻⁵), are joined to the rest by weights
// ≈ 10⁻¹⁴; at n = 10⁵ one node is isolated. Such a pair is a
// near-disconnected component: its normalized cut, about 10⁻¹⁰, is far
// below the blobs' (about 4·10⁻⁵), so the relaxed normalized cut of eq.
// 4.8 (and any spectral method) cuts it off, with J ≈ 0 since no
// constraint touches it: what BenchmarkL1CSC10kKNN reported (ARI 0.05)
// while only single faint nodes were joined. Joined this way, a
// singleton's normalized cut is about 1 and a pair's about 0.2. The
// points are those of fgpwcBenchProblem(n, 2, 2, 10, 2), regenerated; the
// nearest ones are found by brute force, O(n) per node joined.
func l1AttachFaint(b *testing.B, g *graph.Graph, n int) *graph.Graph {
	b.Helper()
	x, _ := fgpwcBlobs(rand.New(rand.NewPCG(uint64(n), 1)), n, 2, 2, 2)
	edges := g.Edges()
	var sum float64
	for _, e := range edges {
		sum += e.W
	}
	mean := sum / float64(len(edges))
	w := 1e-6 * mean
	uf := unionfind.New(n)
	for _, e := range edges {
		if e.W >= 1e-9*mean {
			uf.Union(e.I, e.J)
		}
	}
	size := make([]int, n)
	main := 0
	for i := 0; i < n; i++ {
		r := uf.Find(i)
		size[r]++
		if size[r] > size[main] {
			main = r
		}
	}
	var faint int
	for i := 0; i < n; i++ {
		if uf.Find(i) == main {
			continue
		}
		faint++
		type nb struct {
			j int
			d float64
		}
		var best []nb
		for j := 0; j < n; j++ {
			if j == i {
				continue
			}
			dx, dy := x.At(i, 0)-x.At(j, 0), x.At(i, 1)-x.At(j, 1)
			best = append(best, nb{j, dx*dx + dy*dy})
			if len(best) > 20 {
				slices.SortFunc(best, func(a, c nb) int { return cmp.Compare(a.d, c.d) })
				best = best[:10]
			}
		}
		slices.SortFunc(best, func(a, c nb) int { return cmp.Compare(a.d, c.d) })
		for _, q := range best[:10] {
			edges = append(edges, graph.Edge{I: min(i, q.j), J: max(i, q.j), W: w})
		}
	}
	if faint == 0 {
		return g
	}
	// Merge repeated pairs (a faint node's existing, underflowed edges).
	slices.SortFunc(edges, func(a, c graph.Edge) int {
		if a.I != c.I {
			return cmp.Compare(a.I, c.I)
		}
		return cmp.Compare(a.J, c.J)
	})
	out := edges[:0]
	for _, e := range edges {
		if k := len(out) - 1; k >= 0 && out[k].I == e.I && out[k].J == e.J {
			out[k].W += e.W
			continue
		}
		out = append(out, e)
	}
	h, err := graph.FromEdges(n, out)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%d nodes outside the main component joined to their 10 nearest points with weight %.3g", faint, w)
	return h
}
