package cluster

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/testctx"
	"github.com/tether-sc/tether/metrics"
)

// TestSpectralLearningMatchesDense builds the modified affinity and
// N = (W + d_max I − D)/d_max of eq. 4.1.1 densely in the test and checks
// SL's eigenvalues (the K largest of N, gonum EigenSym) and that the
// affinity edits are exactly W_ij = 1 (must-link) and 0 (cannot-link).
func TestSpectralLearningMatchesDense(t *testing.T) {
	g := roRandomGraph(t, 40, 0.15, 3)
	set := &constraint.Set{N: 40, Pairs: []constraint.Pair{
		{I: 0, J: 1, Kind: constraint.MustLink},   // an existing edge (path)
		{I: 3, J: 30, Kind: constraint.MustLink},  // probably a new edge
		{I: 5, J: 6, Kind: constraint.CannotLink}, // an existing edge removed
		{I: 7, J: 33, Kind: constraint.CannotLink},
		{I: 30, J: 3, Kind: constraint.MustLink}, // repeated, reversed
	}}
	w := mat.DenseCopyOf(g.Dense())
	for _, pr := range set.Pairs {
		v := 1.0
		if pr.Kind == constraint.CannotLink {
			v = 0
		}
		w.Set(pr.I, pr.J, v)
		w.Set(pr.J, pr.I, v)
	}
	g2, err := constrainedAffinity(context.Background(), g, set, 1, true, "sl", nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxAbsDiff(mat.DenseCopyOf(g2.Dense()), w); d != 0 {
		t.Fatalf("modified affinity differs by %g", d)
	}
	n := 40
	deg := make([]float64, n)
	var dmax float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			deg[i] += w.At(i, j)
		}
		dmax = math.Max(dmax, deg[i])
	}
	nm := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := w.At(i, j)
			if i == j {
				v += dmax - deg[i]
			}
			nm.SetSym(i, j, v/dmax)
		}
	}
	var es mat.EigenSym
	es.Factorize(nm, false)
	vals := es.Values(nil)
	const k = 3
	res, err := Run(context.Background(), SpectralLearning{}, &Problem{Graph: g, K: k, Constraints: set}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for j := 0; j < k; j++ {
		if want := vals[n-1-j]; math.Abs(res.Eigenvalues[j]-want) > 1e-9 {
			t.Errorf("σ_%d = %v, dense N gives %v", j, res.Eigenvalues[j], want)
		}
	}
	bad := &constraint.Set{N: 40, Pairs: []constraint.Pair{{I: 1, J: 2, Kind: constraint.MustLink}, {I: 2, J: 1, Kind: constraint.CannotLink}}}
	if _, err := Run(context.Background(), (SpectralLearning{}), &Problem{Graph: g, K: 2, Constraints: bad}, nil); err == nil || !contains(err.Error(), "both") {
		t.Errorf("contradictory pair: %v", err)
	}
	if _, err := Run(context.Background(), (SpectralLearning{}), &Problem{Graph: g, K: 2}, nil); err == nil {
		t.Error("no supervision accepted")
	}
}

// TestSpectralLearningUsesConstraints: on two touching blobs, enough
// constraints (all pairs among 20% labelled nodes) do not hurt, and the
// labels path (FromLabels) gives the same result as the explicit pairs.
func TestSpectralLearningUsesConstraints(t *testing.T) {
	g, truth := roBlobs(t, 200, 2, 0.5, 12)
	labels := roLabels(t, truth, 0.2, 12)
	a, err := Run(context.Background(), SpectralLearning{}, &Problem{Graph: g, K: 2, Labels: labels}, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(context.Background(), SpectralLearning{}, &Problem{Graph: g, K: 2, Constraints: constraint.FromLabels(labels)}, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// The same partition; Run numbers a's clusters by the labels' classes.
	if ari, _ := metrics.ARI(a.Labels, b.Labels); ari != 1 {
		t.Errorf("labels and their pairs give different partitions (ARI %v)", ari)
	}
	if ari, _ := metrics.ARI(truth, a.Labels); ari < 0.9 {
		t.Errorf("ARI %v < 0.9", ari)
	}
}

// TestSpectralLearningFewestViolations checks the FewestViolations knob:
// with k = 3 on two cliques, every k-means run splits one clique, and the
// run kept must violate no more constraint weight than the
// lowest-distortion run; with the cannot-links inside one clique, some
// seed shows the knob picking a run with strictly fewer violations.
func TestSpectralLearningFewestViolations(t *testing.T) {
	// Clique weights in [0.7, 1.3] (seeded): with unit weights the third
	// eigenvector lies in a 17-dimensional eigenspace and is whatever
	// basis vector the eigensolver returns.
	var edges []graph.Edge
	rng := rand.New(rand.NewPCG(21, 22))
	for b := 0; b < 2; b++ {
		for i := 0; i < 10; i++ {
			for j := i + 1; j < 10; j++ {
				edges = append(edges, graph.Edge{I: 10*b + i, J: 10*b + j, W: 0.7 + 0.6*rng.Float64()})
			}
		}
	}
	edges = append(edges, graph.Edge{I: 0, J: 10, W: 0.05})
	g, err := graph.FromEdges(20, edges)
	if err != nil {
		t.Fatal(err)
	}
	set := &constraint.Set{N: 20, Pairs: []constraint.Pair{
		{I: 0, J: 1, Kind: constraint.CannotLink}, {I: 2, J: 3, Kind: constraint.CannotLink},
		{I: 10, J: 11, Kind: constraint.CannotLink}, {I: 12, J: 13, Kind: constraint.CannotLink},
	}}
	strict := 0
	for seed := uint64(1); seed <= 16; seed++ {
		p := &Problem{Graph: g, K: 3, Constraints: set}
		s := &Settings{Seed: seed, Restarts: 20}
		plain, err := Run(context.Background(), SpectralLearning{}, p, s)
		if err != nil {
			t.Fatal(err)
		}
		few, err := Run(context.Background(), SpectralLearning{FewestViolations: true}, p, s)
		if err != nil {
			t.Fatal(err)
		}
		vp, vf := violationWeight(set.Pairs, plain.Labels), violationWeight(set.Pairs, few.Labels)
		if vf > vp {
			t.Fatalf("seed %d: FewestViolations kept a run violating %v, the lowest-distortion run %v", seed, vf, vp)
		}
		if vf < vp {
			strict++
			t.Logf("seed %d: %v < %v", seed, vf, vp)
		}
	}
	if strict == 0 {
		t.Error("FewestViolations never kept a run with fewer violations than the lowest-distortion one: the knob has no effect")
	}
}

// TestConstrainedAffinityCancelled: the affinity edit checks its context
// in each of its three loops (over the pairs, the graph's edges, then the
// pairs again), so a cancellation at any check stops it with ctx's error;
// before, 6·10⁶ pairs on a 2·10⁶-node graph kept SL from stopping for 8–10 s.
func TestConstrainedAffinityCancelled(t *testing.T) {
	const n = 3 * affinityCheckEvery
	edges := make([]graph.Edge, 0, n)
	for i := 0; i < n; i++ {
		edges = append(edges, graph.Edge{I: i, J: (i + 1) % n, W: 1})
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	set := &constraint.Set{N: n}
	for len(set.Pairs) < 2*affinityCheckEvery {
		i, j := r.IntN(n), r.IntN(n)
		if i != j {
			set.Pairs = append(set.Pairs, constraint.Pair{I: i, J: j, Kind: constraint.MustLink})
		}
	}
	// 2 checks in the first loop over the pairs, 3 over the edges, 2 in
	// the last loop: cancel at each.
	for checks := 0; checks < 7; checks++ {
		if _, err := constrainedAffinity(testctx.CancelAfter(checks), g, set, 1, true, "sl", nil); !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled after %d checks: err = %v", checks, err)
		}
	}
	if _, err := constrainedAffinity(testctx.CancelAfter(7), g, set, 1, true, "sl", nil); err != nil {
		t.Errorf("7 checks: %v", err)
	}
}

// TestSpectralLearningNoEdgeLeft: when the cannot-links remove every edge,
// the modified graph has d_max = 0 and N = (W + d_max I − D)/d_max is the
// 0/0 limit of d_max I/d_max = I, so every σ is 1. Before, σ = 1 − λ/d_max
// was NaN and Run returned NaN eigenvalues with a nil error.
func TestSpectralLearningNoEdgeLeft(t *testing.T) {
	path, err := graph.FromEdges(3, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		p    *Problem
	}{
		{"one edge cut", &Problem{Graph: mustGraph(t, 2, []graph.Edge{{I: 0, J: 1, W: 1}}), K: 2,
			Constraints: &constraint.Set{N: 2, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.CannotLink}}}}},
		{"labels cut a path", &Problem{Graph: path, K: 3, Labels: constraint.Labels{0, 1, 2}}},
		{"edgeless graph, cannot-links only", &Problem{Graph: mustGraph(t, 4, nil), K: 2,
			Constraints: &constraint.Set{N: 4, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.CannotLink}}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Run(context.Background(), SpectralLearning{}, tc.p, &Settings{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Eigenvalues) != tc.p.K {
				t.Fatalf("%d eigenvalues, want %d", len(res.Eigenvalues), tc.p.K)
			}
			for j, s := range res.Eigenvalues {
				if s != 1 { // exact: the limit, not a computed value
					t.Errorf("σ_%d = %v, want 1", j, s)
				}
			}
		})
	}
}

func mustGraph(t *testing.T, n int, e []graph.Edge) *graph.Graph {
	t.Helper()
	g, err := graph.FromEdges(n, e)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestSpectralLearningSoftPairs: a pair of confidence c = min(1, Σ w_q)
// moves the affinity by the convex combination W_ij ← (1 − c)W_ij + c·wml
// (must-link) or (1 − c)W_ij (cannot-link), checked against a dense
// construction; confidences of 1 or more (Weight 0, 1, 3, or two copies
// of 0.5) give Kamvar et al.'s overwrite bit for bit; and on two moons
// with 60 correct pairs, 199 wrong pairs of weight 10⁻⁹ leave the
// partition of the 60 alone, while the same wrong pairs at full weight
// change it (before, every weight was read as 1).
func TestSpectralLearningSoftPairs(t *testing.T) {
	ctx := context.Background()
	g := roRandomGraph(t, 40, 0.15, 3)
	const wml = 1.5
	for _, tc := range []struct {
		name string
		w    []float64 // weights of the five pairs below
	}{
		{"unit weights", []float64{1, 1, 1, 1, 1}},
		{"heavy weights", []float64{3, 2, 1.5, 7, 1}},
		{"soft weights", []float64{0.25, 0.5, 0.75, 0.1, 0.3}},
		{"repeat sums", []float64{1, 0.5, 2, 1, 0.5}},
		{"soft repeat", []float64{0.5, 0.25, 0.6, 0.2, 0.25}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pairs := []constraint.Pair{
				{I: 0, J: 1, Kind: constraint.MustLink},
				{I: 3, J: 30, Kind: constraint.MustLink},
				{I: 5, J: 6, Kind: constraint.CannotLink},
				{I: 7, J: 33, Kind: constraint.CannotLink},
				{I: 30, J: 3, Kind: constraint.MustLink}, // repeated, reversed
			}
			conf := map[[2]int]float64{}
			for q := range pairs {
				pairs[q].Weight = tc.w[q]
				conf[[2]int{min(pairs[q].I, pairs[q].J), max(pairs[q].I, pairs[q].J)}] += tc.w[q]
			}
			w := mat.DenseCopyOf(g.Dense())
			for _, pr := range pairs {
				c := math.Min(1, conf[[2]int{min(pr.I, pr.J), max(pr.I, pr.J)}])
				target := wml
				if pr.Kind == constraint.CannotLink {
					target = 0
				}
				v := (1-c)*g.Dense().At(pr.I, pr.J) + c*target
				w.Set(pr.I, pr.J, v)
				w.Set(pr.J, pr.I, v)
			}
			g2, err := constrainedAffinity(ctx, g, &constraint.Set{N: 40, Pairs: pairs}, wml, true, "sl", nil)
			if err != nil {
				t.Fatal(err)
			}
			if d := maxAbsDiff(mat.DenseCopyOf(g2.Dense()), w); d > 1e-15 {
				t.Errorf("modified affinity differs by %g from the dense convex combination", d)
			}
			if !strings.HasPrefix(tc.name, "soft") {
				// Every confidence ≥ 1: Kamvar et al.'s overwrite, bit
				// for bit the affinity of unweighted pairs.
				hard := make([]constraint.Pair, len(pairs))
				for q, pr := range pairs {
					pr.Weight = 0
					hard[q] = pr
				}
				want, err := constrainedAffinity(ctx, g, &constraint.Set{N: 40, Pairs: hard}, wml, true, "sl", nil)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(g2.Edges(), want.Edges()) {
					t.Errorf("confidences ≥ 1 give another affinity than unweighted pairs")
				}
			}
		})
	}

	x, truth, err := synth.Moons(200, 0.12, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	gm, err := graph.Build(ctx, x, graph.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	good, err := constraint.UniformPairs(truth, 60, rand.NewPCG(5, 6))
	if err != nil {
		t.Fatal(err)
	}
	some, err := constraint.UniformPairs(truth, 199, rand.NewPCG(7, 8))
	if err != nil {
		t.Fatal(err)
	}
	flipped, _, err := constraint.FlipPairs(some, 1, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[[2]int]bool{}
	for _, q := range good.Pairs {
		seen[[2]int{min(q.I, q.J), max(q.I, q.J)}] = true
	}
	var wrong []constraint.Pair
	for _, q := range flipped.Pairs {
		if !seen[[2]int{min(q.I, q.J), max(q.I, q.J)}] {
			wrong = append(wrong, q)
		}
	}
	run := func(w float64, withWrong bool) []int {
		t.Helper()
		pairs := slices.Clone(good.Pairs)
		if withWrong {
			for _, q := range wrong {
				q.Weight = w
				pairs = append(pairs, q)
			}
		}
		res, err := Run(ctx, SpectralLearning{}, &Problem{Graph: gm, K: 2, Constraints: &constraint.Set{N: 200, Pairs: pairs}}, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		return res.Labels
	}
	alone, soft, hard := run(0, false), run(1e-9, true), run(1, true)
	if ari, _ := metrics.ARI(alone, soft); ari < 1 {
		t.Errorf("%d wrong pairs of weight 1e-9: ARI %.3f against the 60 correct pairs alone, want 1", len(wrong), ari)
	}
	if ari, _ := metrics.ARI(alone, hard); ari > 0.9 {
		t.Errorf("%d wrong pairs at full weight: ARI %.3f against the 60 correct pairs alone, want them to change the partition (≤ 0.9)", len(wrong), ari)
	}
}
