package cluster

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// bigPlusTiny returns a graph with one big component holding two planted
// communities of size half each (edge probability pin inside, pout
// across), plus tiny components: pairs, triangles and isolated nodes, in
// that order after the big component. truth labels the two communities 0
// and 1 and the tiny nodes 2.
func bigPlusTiny(t testing.TB, half, pairs, triangles, isolated int, pin, pout float64, seed uint64) (*graph.Graph, []int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 19))
	n := 2*half + 2*pairs + 3*triangles + isolated
	truth := make([]int, n)
	var edges []graph.Edge
	for i := 0; i < 2*half; i++ {
		truth[i] = i / half
		// A path keeps each community connected, one edge joins them.
		if i+1 < 2*half {
			edges = append(edges, graph.Edge{I: i, J: i + 1, W: 1})
		}
		for j := i + 1; j < 2*half; j++ {
			p := pout
			if i/half == j/half {
				p = pin
			}
			if rng.Float64() < p {
				edges = append(edges, graph.Edge{I: i, J: j, W: 1})
			}
		}
	}
	v := 2 * half
	for range pairs {
		edges = append(edges, graph.Edge{I: v, J: v + 1, W: 1})
		v += 2
	}
	for range triangles {
		edges = append(edges, graph.Edge{I: v, J: v + 1, W: 1}, graph.Edge{I: v + 1, J: v + 2, W: 1}, graph.Edge{I: v, J: v + 2, W: 1})
		v += 3
	}
	for i := 2 * half; i < n; i++ {
		truth[i] = 2
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g, truth
}

// TestRegularizedEmbeddingMatchesDense checks laplacianEmbedding's
// regularized eigenpairs against the dense eigendecomposition of the
// operator's matrix (graph.Dense of graph.NewRegularizedLaplacian, itself
// checked entry by entry against its definition in the graph package), on
// a graph above DenseLimit so the iterative solver and the RCM relabelling
// run, for both forms.
func TestRegularizedEmbeddingMatchesDense(t *testing.T) {
	g, _ := bigPlusTiny(t, 200, 10, 5, 5, 0.05, 0.01, 1)
	const k = 4
	for _, complete := range []bool{false, true} {
		reg := graph.Regularization{Mode: graph.RegOn, Tau: 2.5, Complete: complete}
		e, err := laplacianEmbedding(context.Background(), g, graph.Symmetric, k, reg, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if e.tau != 2.5 || e.deg[g.N()-1] != 2.5 {
			t.Fatalf("τ = %v, isolated node's degree %v; want 2.5 both", e.tau, e.deg[g.N()-1])
		}
		op, err := graph.NewRegularizedLaplacian(g, graph.Symmetric, 2.5, complete)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := eigen.Dense{}.Solve(context.Background(), eigen.Problem{A: op, K: k, Which: eigen.Smallest}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for j := 0; j < k; j++ {
			if d := math.Abs(e.values[j] - ref.Values[j]); d > 1e-7 {
				t.Errorf("complete=%v: λ_%d = %.10g, dense %.10g", complete, j, e.values[j], ref.Values[j])
			}
		}
		if complete && math.Abs(e.values[0]) > 1e-12 {
			t.Errorf("complete: first eigenvalue %g, want the deflated 0", e.values[0])
		}
	}
}

// TestRegularizedBigPlusTiny is the disconnected case of issue 19: a big
// component with two communities plus 40 tiny components (pairs,
// triangles, isolated nodes). Unregularized, the tiny components' null
// vectors fill the embedding and NJW cannot see the communities; by
// default (RegAuto) the graph is regularized, the tiny components take no
// eigenvector of their own, and the communities are recovered.
func TestRegularizedBigPlusTiny(t *testing.T) {
	g, truth := bigPlusTiny(t, 150, 20, 10, 10, 0.1, 0.01, 3)
	big := 300
	for _, tc := range []struct {
		name   string
		reg    graph.Regularization
		method Method
		minARI float64 // on the big component's nodes
		maxARI float64
	}{
		// Thresholds: the planted split at p_in = 0.1, p_out = 0.01 on 150+150
		// nodes is recovered almost exactly by NJW on the big component
		// alone (ARI 1 in our runs); 0.9 leaves a margin.
		{"njw auto", graph.Regularization{}, NJW{}, 0.9, 1},
		{"ncut auto", graph.Regularization{}, ShiMalik{}, 0.9, 1},
		{"njw mean", graph.Regularization{Mode: graph.RegOn}, NJW{}, 0.9, 1},
		// Unregularized, 41 components for k = 2: both eigenvectors are
		// component indicators and the big component is one cluster.
		{"njw none", graph.Regularization{Mode: graph.RegNone}, nil, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.method == nil {
				// Unregularized L_sym is undefined with isolated nodes: the
				// old default refused this graph outright.
				_, err := Run(context.Background(), NJW{}, &Problem{Graph: g, K: 2, Regularize: tc.reg}, &Settings{Seed: 1})
				if err == nil {
					t.Fatal("unregularized NJW accepted isolated nodes")
				}
				return
			}
			res, err := Run(context.Background(), tc.method, &Problem{Graph: g, K: 2, Regularize: tc.reg}, &Settings{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			ari, err := metrics.ARI(truth[:big], res.Labels[:big])
			if err != nil {
				t.Fatal(err)
			}
			if ari < tc.minARI || ari > tc.maxARI {
				t.Errorf("ARI on the big component %.4f, want in [%g, %g]", ari, tc.minARI, tc.maxARI)
			}
			// Regularization is a note, whether the auto rule chose it
			// (the graph has isolated nodes and small components) or it
			// was asked for.
			if !slices.ContainsFunc(res.Notes, func(w string) bool { return strings.Contains(w, "regularized") }) ||
				slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "regularized") }) {
				t.Errorf("no regularization note, or a warning: warnings %q, notes %q", res.Warnings, res.Notes)
			}
		})
	}
	// Without isolated nodes the unregularized embedding runs, and its
	// clusters are components: the big component is never split.
	g2, truth2 := bigPlusTiny(t, 150, 20, 10, 0, 0.1, 0.01, 3)
	res, err := Run(context.Background(), NJW{}, &Problem{Graph: g2, K: 2, Regularize: graph.Regularization{Mode: graph.RegNone}}, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	ari, _ := metrics.ARI(truth2[:big], res.Labels[:big])
	if ari > 0.01 {
		t.Errorf("unregularized NJW: ARI on the big component %.4f, expected the collapse (≈ 0)", ari)
	}
	sizes := map[int]int{}
	for _, l := range res.Labels {
		sizes[l]++
	}
	var s []int
	for _, v := range sizes {
		s = append(s, v)
	}
	sort.Ints(s)
	if s[len(s)-1] < big {
		t.Errorf("unregularized NJW: cluster sizes %v, expected one cluster holding the big component", s)
	}
}

// benchNJWRegularized times NJW (k = 3) on a DC-SBM graph with self loops
// of weight 1 (so the plain L_sym is defined too), plain against
// regularized, to measure what the regularization costs per run.
func benchNJWRegularized(b *testing.B, n int, gamma float64, reg graph.Regularization) {
	cin := 3 * 10 / 1.2
	g0, _, _, err := synth.DCSBM(n, 3, cin, 0.1*cin, gamma, rand.NewPCG(1, 1))
	if err != nil {
		b.Fatal(err)
	}
	g, err := g0.WithSelfLoops(1)
	if err != nil {
		b.Fatal(err)
	}
	p := &Problem{Graph: g, K: 3, Regularize: reg}
	b.ResetTimer()
	for range b.N {
		res, err := Run(context.Background(), NJW{}, p, &Settings{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		benchSink = res
	}
}

func BenchmarkNJWDCSBM100kPlain(b *testing.B) {
	benchNJWRegularized(b, 100_000, 2.5, graph.Regularization{Mode: graph.RegNone})
}

func BenchmarkNJWDCSBM100kRegularized(b *testing.B) {
	benchNJWRegularized(b, 100_000, 2.5, graph.Regularization{Mode: graph.RegOn})
}

// TestUsesRegularizes checks Uses.Regularizes against the methods (review
// 95): on a 300-node SBM graph (c_in 9, c_out 3) with must-links and
// cannot-links (6/n of the pairs) or 10% of the nodes labelled, every
// graph method that does not declare it gives the same labels and
// eigenvalues with Problem.Regularize off (RegNone) and on with τ = 20
// (the mean degree is about 6), so a front end may refuse the option for
// it; and the methods whose partition is built on the regularized
// embedding (regularizedEmbedding, the ones the collapse warning tells to
// regularize) declare it and change their eigenvalues. auto, which passes
// the option on to its candidates, is left out.
func TestUsesRegularizes(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	g, _, pairs, labels := sbmSupervised(t)
	for _, info := range Methods() {
		m := info.New()
		u := m.Uses()
		if regularizedEmbedding(info.Name) && !u.Regularizes {
			t.Errorf("%s: its embedding is regularized, but it does not declare Uses.Regularizes", info.Name)
		}
		if u.Input&(FeatureInput|BipartiteInput) != 0 || u.Delegates {
			continue // no graph, or its candidates' (auto)
		}
		t.Run(info.Name, func(t *testing.T) {
			run := func(reg graph.Regularization) *Result {
				t.Helper()
				p := &Problem{Graph: g, K: 2, Regularize: reg}
				switch {
				case u.Supervision&Pairs != 0:
					p.Constraints = pairs
				case u.Supervision&LabelSet != 0:
					p.Labels = labels
				}
				res, err := Run(context.Background(), m, p, &Settings{Seed: 1})
				if err != nil {
					t.Fatalf("Regularize %+v: %v", reg, err)
				}
				return res
			}
			exact := run(graph.Regularization{Mode: graph.RegNone})
			reg := run(graph.Regularization{Mode: graph.RegOn, Tau: 20})
			same := slices.Equal(exact.Labels, reg.Labels) && slices.Equal(exact.Eigenvalues, reg.Eigenvalues)
			switch {
			case !u.Regularizes && !same:
				t.Errorf("changes with Problem.Regularize (eigenvalues %.6g, then %.6g), but does not declare Uses.Regularizes", exact.Eigenvalues, reg.Eigenvalues)
			case regularizedEmbedding(info.Name) && slices.Equal(exact.Eigenvalues, reg.Eigenvalues):
				t.Errorf("declares Uses.Regularizes, but its eigenvalues %.6g do not change with Problem.Regularize", exact.Eigenvalues)
			}
		})
	}
}

// TestRegularizeTauScaledBeyondMaxTau: a τ the user gives within MaxTau on
// a graph of tiny weights is multiplied by the power of two that brings
// the weights into [½, 1) (rescaled), past MaxTau; the run must not refuse
// that internal τ (review 151), and gives the partition of the same
// problem on the graph with weights of 1 and τ scaled alike.
func TestRegularizeTauScaledBeyondMaxTau(t *testing.T) {
	g0, _ := bigPlusTiny(t, 30, 2, 1, 1, 0.5, 0.05, 3)
	const e = -66 // weights 2⁻⁶⁶ ≈ 1.4e-20
	for _, tau := range []float64{1e-9, 1e-6, 1} {
		tiny := &Problem{Graph: g0.ScaledPow2(e), K: 2, Regularize: graph.Regularization{Mode: graph.RegOn, Tau: tau}}
		unit := &Problem{Graph: g0, K: 2, Regularize: graph.Regularization{Mode: graph.RegOn, Tau: math.Ldexp(tau, -e)}}
		if unit.Regularize.Tau <= graph.MaxTau && tau > 1e-6 {
			t.Fatalf("τ·2⁶⁶ = %g within MaxTau: the case does not test the cap", unit.Regularize.Tau)
		}
		got, err := Run(context.Background(), NJW{}, tiny, &Settings{Seed: 1})
		if err != nil {
			t.Fatalf("τ = %g on weights 2^%d: %v", tau, e, err)
		}
		if unit.Regularize.Tau > graph.MaxTau {
			continue // the same problem at unit weights is refused as given
		}
		want, err := Run(context.Background(), NJW{}, unit, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Labels, want.Labels) {
			t.Errorf("τ = %g: labels on weights 2^%d differ from those on unit weights with τ·2^%d", tau, e, -e)
		}
	}
}
