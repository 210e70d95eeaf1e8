package cluster

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// roKNNGraph returns the symmetric k-NN graph of the rows of x ("either is
// a neighbour", seed 000 §2.1.2) with RBF weights exp(−‖x_i − x_j‖²/2σ²),
// σ the mean distance to the k-th neighbour. Test helper of the
// label-constraint methods.
func roKNNGraph(tb testing.TB, x *mat.Dense, k int) *graph.Graph {
	tb.Helper()
	nb, err := graph.KNN(context.Background(), x, k)
	if err != nil {
		tb.Fatal(err)
	}
	n := nb.N()
	var s float64
	for i := 0; i < n; i++ {
		_, d2 := nb.Row(i)
		s += math.Sqrt(d2[k-1])
	}
	sigma := s / float64(n)
	seen := make(map[[2]int]bool, n*k)
	var edges []graph.Edge
	for i := 0; i < n; i++ {
		idx, d2 := nb.Row(i)
		for t, j := range idx {
			key := [2]int{min(i, int(j)), max(i, int(j))}
			if seen[key] {
				continue
			}
			seen[key] = true
			edges = append(edges, graph.Edge{I: key[0], J: key[1], W: math.Exp(-d2[t] / (2 * sigma * sigma))})
		}
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// roMoons returns a 10-NN graph of n two-moons points (noise 0.1).
func roMoons(tb testing.TB, n int, seed uint64) (*graph.Graph, []int) {
	tb.Helper()
	x, truth, err := synth.Moons(n, 0.1, rand.NewPCG(seed, 1))
	if err != nil {
		tb.Fatal(err)
	}
	return roKNNGraph(tb, x, 10), truth
}

// roBlobs returns a 10-NN graph of n points in k Gaussian blobs in 2-D.
func roBlobs(tb testing.TB, n, k int, std float64, seed uint64) (*graph.Graph, []int) {
	tb.Helper()
	x, truth, err := synth.Blobs(n, k, 2, std, rand.NewPCG(seed, 2))
	if err != nil {
		tb.Fatal(err)
	}
	return roKNNGraph(tb, x, 10), truth
}

// roLabels reveals a fraction f of truth, stratified so each class has a label.
func roLabels(tb testing.TB, truth []int, f float64, seed uint64) constraint.Labels {
	tb.Helper()
	sets, err := constraint.LabelSets(truth, f, rand.NewPCG(seed, 3))
	if err != nil {
		tb.Fatal(err)
	}
	l, err := constraint.SetsToLabels(len(truth), sets)
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

// roRandomGraph returns a connected random weighted graph: a path through
// all nodes plus each other pair with probability p, weights in (0.1, 1].
func roRandomGraph(tb testing.TB, n int, p float64, seed uint64) *graph.Graph {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 4))
	var edges []graph.Edge
	for i := 0; i+1 < n; i++ {
		edges = append(edges, graph.Edge{I: i, J: i + 1, W: 0.1 + 0.9*rng.Float64()})
	}
	for i := 0; i < n; i++ {
		for j := i + 2; j < n; j++ {
			if rng.Float64() < p {
				edges = append(edges, graph.Edge{I: i, J: j, W: 0.1 + 0.9*rng.Float64()})
			}
		}
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// denseHarmonic solves eq. 3.1.6 densely: H_u = (D_uu − W_uu)⁻¹ W_ul Y_l with
// gonum's LU solver, independently of the CG code.
func denseHarmonic(t *testing.T, g *graph.Graph, labels constraint.Labels, k int) *mat.Dense {
	t.Helper()
	w := g.Dense()
	n := g.N()
	var u, l []int
	for i, c := range labels {
		if c == constraint.Unlabeled {
			u = append(u, i)
		} else {
			l = append(l, i)
		}
	}
	a := mat.NewDense(len(u), len(u), nil)
	for p, i := range u {
		var d float64
		for j := 0; j < n; j++ {
			d += w.At(i, j)
		}
		for q, j := range u {
			a.Set(p, q, -w.At(i, j))
		}
		a.Set(p, p, a.At(p, p)+d)
	}
	b := mat.NewDense(len(u), k, nil)
	for p, i := range u {
		for _, j := range l {
			b.Set(p, labels[j], b.At(p, labels[j])+w.At(i, j))
		}
	}
	var hu mat.Dense
	if err := hu.Solve(a, b); err != nil {
		t.Fatal(err)
	}
	h := mat.NewDense(n, k, nil)
	for p, i := range u {
		for c := 0; c < k; c++ {
			h.Set(i, c, hu.At(p, c))
		}
	}
	for _, j := range l {
		h.Set(j, labels[j], 1)
	}
	return h
}

func maxAbsDiff(a, b *mat.Dense) float64 {
	r, c := a.Dims()
	var m float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m = math.Max(m, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return m
}

// TestLabelPropFormsAgree checks that the CG closed form (eq. 3.1.4), Alg. 5
// and a dense LU solve of eq. 3.1.6 give the same H to 1e-8, and that the
// unlabelled rows of H sum to 1 (the harmonic extension of the constant).
func TestLabelPropFormsAgree(t *testing.T) {
	moons, moonTruth := roMoons(t, 200, 7)
	blobs, blobTruth := roBlobs(t, 240, 4, 0.6, 8)
	rnd := roRandomGraph(t, 60, 0.08, 9)
	rndTruth := make([]int, 60)
	for i := range rndTruth {
		rndTruth[i] = i * 3 / 60
	}
	cases := []struct {
		name  string
		g     *graph.Graph
		truth []int
		k     int
		frac  float64
	}{
		{"moons", moons, moonTruth, 2, 0.1},
		{"blobs4", blobs, blobTruth, 4, 0.1},
		{"random", rnd, rndTruth, 3, 0.2},
	}
	const tol = 1e-8
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			labels := roLabels(t, c.truth, c.frac, 11)
			p := &Problem{Graph: c.g, K: c.k, Labels: labels}
			closed, err := Run(context.Background(), LabelProp{Tol: 1e-13}, p, nil)
			if err != nil {
				t.Fatal(err)
			}
			iter, err := Run(context.Background(), LabelProp{Iterative: true, Tol: 1e-14, MaxIter: 1000000}, p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(closed.Warnings)+len(iter.Warnings) > 0 {
				t.Fatalf("warnings: %v %v", closed.Warnings, iter.Warnings)
			}
			dense := denseHarmonic(t, c.g, labels, c.k)
			if d := maxAbsDiff(closed.Embedding, dense); d > tol {
				t.Errorf("closed form vs dense LU: max difference %g > %g", d, tol)
			}
			if d := maxAbsDiff(iter.Embedding, closed.Embedding); d > tol {
				t.Errorf("Alg. 5 vs closed form: max difference %g > %g", d, tol)
			}
			for i, l := range labels {
				if l != constraint.Unlabeled {
					if closed.Labels[i] != l {
						t.Fatalf("labelled node %d moved from %d to %d", i, l, closed.Labels[i])
					}
					continue
				}
				var s float64
				for cc := 0; cc < c.k; cc++ {
					s += closed.Embedding.At(i, cc)
				}
				if math.Abs(s-1) > 1e-8 {
					t.Fatalf("row %d of H sums to %v, want 1", i, s)
				}
			}
			if !equalInts(closed.Labels, iter.Labels) {
				t.Error("the two forms classify differently")
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestLabelPropPath is a worked example: on the unweighted path 0–1–2–3–4
// with node 0 in class 0 and node 4 in class 1, the harmonic function is
// the linear interpolation H_i1 = i/4 (discrete Dirichlet problem), and the
// energy trace(HᵀLH) = 2·4·(1/4)² = 0.5 (four edges, each column changes by
// 1/4 per edge).
func TestLabelPropPath(t *testing.T) {
	var edges []graph.Edge
	for i := 0; i < 4; i++ {
		edges = append(edges, graph.Edge{I: i, J: i + 1, W: 1})
	}
	g, _ := graph.FromEdges(5, edges)
	labels := constraint.Labels{0, -1, -1, -1, 1}
	for _, iterative := range []bool{false, true} {
		res, err := Run(context.Background(), LabelProp{Iterative: iterative, Tol: 1e-14}, &Problem{Graph: g, K: 2, Labels: labels}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 5; i++ {
			if got, want := res.Embedding.At(i, 1), float64(i)/4; math.Abs(got-want) > 1e-12 {
				t.Errorf("iterative=%v: H[%d][1] = %v, want %v", iterative, i, got, want)
			}
		}
		// Node 2 ties (1/2, 1/2): exactly in the closed form, where it goes
		// to class 0; Alg. 5 stops 1e-14 away and may break it either way.
		want := []int{0, 0, 0, 1, 1}
		if iterative {
			want[2] = res.Labels[2]
		}
		if !equalInts(res.Labels, want) {
			t.Errorf("iterative=%v: labels %v, want %v", iterative, res.Labels, want)
		}
		if math.Abs(res.Objective-0.5) > 1e-12 {
			t.Errorf("energy %v, want 0.5", res.Objective)
		}
	}
}

func TestLabelPropErrors(t *testing.T) {
	g, truth := roMoons(t, 60, 3)
	two, _ := graph.FromEdges(6, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 1}, {I: 3, J: 4, W: 1}, {I: 4, J: 5, W: 1}})
	none := make(constraint.Labels, 60)
	for i := range none {
		none[i] = constraint.Unlabeled
	}
	oneClass := append(constraint.Labels(nil), none...)
	oneClass[0], oneClass[5] = truth[0], truth[0]
	cases := []struct {
		name string
		p    *Problem
		want string
	}{
		{"no labels", &Problem{Graph: g, K: 2}, "none given"},
		{"pairs only", &Problem{Graph: g, K: 2, Constraints: &constraint.Set{N: 60, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}}}}, "must-link closure"},
		{"all unlabelled", &Problem{Graph: g, K: 2, Labels: none}, "every node is unlabelled"},
		{"class without label", &Problem{Graph: g, K: 2, Labels: oneClass}, "has no labelled node"},
		{"component without label", &Problem{Graph: two, K: 2, Labels: constraint.Labels{0, -1, 1, -1, -1, -1}}, "connected component 1"},
		{"label beyond k", &Problem{Graph: two, K: 2, Labels: constraint.Labels{0, -1, 2, 1, -1, -1}}, "label 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Run(context.Background(), LabelProp{Strict: true}, c.p, nil)
			if err == nil {
				t.Fatal("no error")
			}
			if !contains(err.Error(), c.want) {
				t.Errorf("error %q does not mention %q", err, c.want)
			}
			if c.name != "label beyond k" && !errors.Is(err, ErrInvalid) {
				t.Errorf("error %v does not wrap ErrInvalid", err)
			}
		})
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestLabelPropBeatsChanceOnBlobs: well-separated blobs with 10% labels are
// classified almost perfectly (a sanity bound, not a published figure).
func TestLabelPropBeatsChanceOnBlobs(t *testing.T) {
	g, truth := roBlobs(t, 300, 3, 0.3, 5)
	res, err := Run(context.Background(), LabelProp{}, &Problem{Graph: g, K: 3, Labels: roLabels(t, truth, 0.1, 1)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ari, _ := metrics.ARI(truth, res.Labels); ari < 0.9 {
		t.Errorf("ARI %v < 0.9", ari)
	}
}

// Exact ties (a node as close to two classes) go to the smaller class in
// both modes; the iterative mode used to break them by rounding.
func TestLabelPropTiesAgreeAcrossModes(t *testing.T) {
	for _, n := range []int{3, 5, 7, 9, 21} {
		// A path with class 0 at one end and class 1 at the other: the
		// middle node is tied.
		var edges []graph.Edge
		for i := 0; i+1 < n; i++ {
			edges = append(edges, graph.Edge{I: i, J: i + 1, W: 1})
		}
		g, err := graph.FromEdges(n, edges)
		if err != nil {
			t.Fatal(err)
		}
		labels := make(constraint.Labels, n)
		for i := range labels {
			labels[i] = constraint.Unlabeled
		}
		labels[0], labels[n-1] = 1, 0
		p := &Problem{Graph: g, K: 2, Labels: labels}
		for _, m := range []LabelProp{{}, {Iterative: true}} {
			res, err := Run(context.Background(), m, p, &Settings{Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Labels[n/2]; got != 0 {
				t.Errorf("n = %d, iterative %v: tied middle node got class %d, want 0", n, m.Iterative, got)
			}
		}
	}
}
