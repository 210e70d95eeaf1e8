package cluster

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// fgpwcFourBlocks returns a graph of four blocks of b nodes, L1, L2, R1, R2
// (nodes 0…b−1 are L1, then L2, R1, R2), and the "top/bottom" labelling
// T = L1 ∪ R1, B = L2 ∪ R2. Weights: 1 inside a block, 0.2 between L1 and
// L2 and between R1 and R2, 0.1 between L1 and R1 and between L2 and R2,
// 0.01 between L1 and R2 and between L2 and R1. The cut L|R (49.5·(b/15)²
// of weight) is the graph's dominant split, below the cut T|B (94.5): the
// Fiedler vector of L_sym separates L from R, and the second one T from B.
func fgpwcFourBlocks(tb testing.TB, b int) (*graph.Graph, []int) {
	tb.Helper()
	block := func(i int) int { return i / b } // 0 L1, 1 L2, 2 R1, 3 R2
	w := [4][4]float64{
		{1, 0.2, 0.1, 0.01},
		{0.2, 1, 0.01, 0.1},
		{0.1, 0.01, 1, 0.2},
		{0.01, 0.1, 0.2, 1},
	}
	n := 4 * b
	var edges []graph.Edge
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			edges = append(edges, graph.Edge{I: i, J: j, W: w[block(i)][block(j)]})
		}
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		tb.Fatal(err)
	}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = block(i) % 2 // L1, R1 → 0 (T); L2, R2 → 1 (B)
	}
	return g, labels
}

func TestFGPWCImprintSpan(t *testing.T) {
	// With m = 1 the paper's embedding is the Fiedler vector of the graph,
	// which separates L from R: no 1×1 map X changes the partition k-means
	// finds, so the constrained top/bottom partition is out of reach. With
	// the constraints imprinted (must-links inside T and B become edges of
	// weight 1, cannot-links between them are cut) T|B becomes the
	// smallest cut and the Fiedler vector of the imprinted graph carries it.
	// Tolerances: ARI ≥ 0.9 with Imprint, ≤ 0.1 without (it is ≈ 0, the
	// L|R split being independent of T|B).
	g, truth := fgpwcFourBlocks(t, 15)
	set, err := constraint.BernoulliPairs(truth, 0.2, rand.NewPCG(7, 1))
	if err != nil {
		t.Fatal(err)
	}
	p := &Problem{Graph: g, K: 2, Constraints: set}
	s := &Settings{Seed: 1}
	for _, tc := range []struct {
		name    string
		imprint bool
		lo, hi  float64
	}{
		{"plain graph", false, -1, 0.1},
		{"imprinted graph", true, 0.9, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := *NewFGPWC()
			f.M, f.Imprint = 1, tc.imprint
			res, err := Run(context.Background(), f, p, s)
			if err != nil {
				t.Fatal(err)
			}
			ari := fgpwcARI(t, truth, res.Labels)
			if ari < tc.lo || ari > tc.hi {
				t.Errorf("ARI against T|B = %.3f, want in [%.2f, %.2f]", ari, tc.lo, tc.hi)
			}
		})
	}
}

func TestFGPWCImprintGraph(t *testing.T) {
	// fgpwcImprint sets must-links to the largest weight (adding the edge
	// when there is none), removes cannot-links, and gives a self loop to a
	// node whose edges were all cut. Exact values.
	g, err := graph.FromEdges(5, []graph.Edge{{I: 0, J: 1, W: 0.5}, {I: 1, J: 2, W: 2}, {I: 2, J: 3, W: 0.25}, {I: 3, J: 4, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	pairs := []constraint.Pair{
		{I: 0, J: 1, Kind: constraint.MustLink},   // existing edge raised to 2
		{I: 0, J: 4, Kind: constraint.MustLink},   // new edge of weight 2
		{I: 3, J: 2, Kind: constraint.CannotLink}, // edge removed
	}
	g2, warns, err := fgpwcImprint(context.Background(), g, pairs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 0 {
		t.Errorf("warnings %q", warns)
	}
	for _, e := range []struct {
		i, j int
		w    float64
	}{{0, 1, 2}, {0, 4, 2}, {1, 2, 2}, {2, 3, 0}, {3, 4, 1}, {0, 2, 0}} {
		if got := g2.Weight(e.i, e.j); got != e.w {
			t.Errorf("W(%d,%d) = %v, want %v", e.i, e.j, got, e.w)
		}
	}
	// Cutting both edges of node 3 isolates it: self loop of weight 2.
	pairs = append(pairs, constraint.Pair{I: 3, J: 4, Kind: constraint.CannotLink})
	g3, warns, err := fgpwcImprint(context.Background(), g, pairs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := g3.Weight(3, 3); got != 2 {
		t.Errorf("self loop of the cut node = %v, want 2", got)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "node(s) (first: 3)") {
		t.Errorf("warnings %q, want one naming node 3", warns)
	}
	// No constraints: the graph itself.
	if g4, _, err := fgpwcImprint(context.Background(), g, nil, nil); err != nil || g4 != g {
		t.Errorf("no constraints: got another graph (err %v)", err)
	}
}

func TestFGPWCImprintFoldsReembed(t *testing.T) {
	// A fit on a subset of the constraints (a cross-validation fold) uses
	// an embedding with that subset imprinted, of the full problem's
	// dimension; the full constraint list uses the problem's basis; equal
	// lists share one cached embedding.
	g, truth := fgpwcFourBlocks(t, 8)
	set, err := constraint.BernoulliPairs(truth, 0.2, rand.NewPCG(3, 1))
	if err != nil {
		t.Fatal(err)
	}
	f := *NewFGPWC()
	f.Imprint = true
	s := (&Settings{Seed: 2}).orDefault()
	cfg, err := f.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	prep, err := cfg.prepare(context.Background(), &Problem{Graph: g, K: 2, Constraints: set}, s)
	if err != nil {
		t.Fatal(err)
	}
	// Hold out a must-link between two nodes of different blocks of T:
	// its weight is 0.1 in the graph, 1 once imprinted.
	held := slices.IndexFunc(prep.pairs, func(q constraint.Pair) bool {
		return q.Kind == constraint.MustLink && q.I/8 != q.J/8
	})
	if held < 0 {
		t.Fatal("no cross-block must-link in the sample")
	}
	q := prep.pairs[held]
	train := slices.Delete(slices.Clone(prep.pairs), held, held+1)
	full, err := prep.basisFor(context.Background(), prep.pairs)
	if err != nil {
		t.Fatal(err)
	}
	if full != prep.FGPWCBasis {
		t.Error("the full constraint list did not use the problem's basis")
	}
	fold, err := prep.basisFor(context.Background(), train)
	if err != nil {
		t.Fatal(err)
	}
	if fold == prep.FGPWCBasis || fold.m != prep.m {
		t.Fatalf("fold basis: same as the problem's %v, m = %d (want %d)", fold == prep.FGPWCBasis, fold.m, prep.m)
	}
	if w := full.g.Weight(q.I, q.J); w != 1 {
		t.Errorf("held-out must-link (%d,%d) has weight %v in the full basis, want 1", q.I, q.J, w)
	}
	if w := fold.g.Weight(q.I, q.J); w != g.Weight(q.I, q.J) {
		t.Errorf("held-out must-link (%d,%d) has weight %v in the fold's basis, want the graph's %v", q.I, q.J, w, g.Weight(q.I, q.J))
	}
	again, err := prep.basisFor(context.Background(), slices.Clone(train))
	if err != nil {
		t.Fatal(err)
	}
	if again != fold {
		t.Error("an equal constraint list was embedded again")
	}
}

func TestFGPWCIterCandidates(t *testing.T) {
	for _, tc := range []struct {
		c    int
		want []int
	}{
		{10, []int{0, 2, 5, 10, 20}},
		{100, []int{0, 20, 50, 100, 200}},
		{3, []int{0, 1, 3, 6}},
		{1, []int{0, 1, 2}},
	} {
		if got := fgpwcIterCandidates(tc.c); !slices.Equal(got, tc.want) {
			t.Errorf("c = %d: candidates %v, want %v", tc.c, got, tc.want)
		}
	}
}

func TestFGPWCIterCV(t *testing.T) {
	// IterCV reports its choice, the descent respects it, the run is
	// deterministic, and it works with and without Imprint and together
	// with AutoTune (whose folds are then re-embedded too).
	g, truth := fgpwcFourBlocks(t, 10)
	set, err := constraint.BernoulliPairs(truth, 0.15, rand.NewPCG(5, 1))
	if err != nil {
		t.Fatal(err)
	}
	p := &Problem{Graph: g, K: 2, Constraints: set}
	for _, tc := range []struct {
		name              string
		imprint, autoTune bool
	}{
		{"plain", false, false},
		{"imprint", true, false},
		{"imprint and AutoTune", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := *NewFGPWC()
			f.M, f.IterCV, f.Imprint, f.AutoTune, f.TuneFolds = 3, true, tc.imprint, tc.autoTune, 3
			res, err := Run(context.Background(), f, p, &Settings{Seed: 4})
			if err != nil {
				t.Fatal(err)
			}
			// The cross-validated cap is a note.
			i := slices.IndexFunc(res.Notes, func(w string) bool { return strings.Contains(w, "cross-validation (3 folds) chose MaxIter = ") })
			if i < 0 {
				t.Fatalf("no note of the chosen cap: notes %q, warnings %q", res.Notes, res.Warnings)
			}
			chosen := -1
			for _, c := range fgpwcIterCandidates(fgpwcMaxIterLBFGS) {
				if strings.Contains(res.Notes[i], "chose MaxIter = "+strconv.Itoa(c)+" ") {
					chosen = c
				}
			}
			if chosen < 0 || res.Iterations > chosen {
				t.Errorf("chosen cap %d (note %q), %d iterations", chosen, res.Notes[i], res.Iterations)
			}
			again, err := Run(context.Background(), f, p, &Settings{Seed: 4})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Labels, again.Labels) {
				t.Error("two runs with the same seed differ")
			}
		})
	}
}

func TestFGPWCImprintErrors(t *testing.T) {
	g, truth := fgpwcFourBlocks(t, 5)
	set, err := constraint.BernoulliPairs(truth, 0.3, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	basis, err := NewFGPWC().Embed(context.Background(), g, nil)
	if err != nil {
		t.Fatal(err)
	}
	both := &constraint.Set{N: g.N(), Pairs: []constraint.Pair{{I: 0, J: 7, Kind: constraint.MustLink}, {I: 7, J: 0, Kind: constraint.CannotLink}}}
	for _, tc := range []struct {
		name string
		f    FGPWC
		set  *constraint.Set
		want string
	}{
		{"Basis with Imprint", FGPWC{Imprint: true, Basis: basis}, set, "leave Basis nil"},
		{"must-link and cannot-link on one pair", FGPWC{Imprint: true}, both, "both a must-link and a cannot-link"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(context.Background(), tc.f, &Problem{Graph: g, K: 2, Constraints: tc.set}, nil)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %q does not wrap ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
	// One constraint: nothing to validate; the configured cap is kept with
	// a warning.
	one := &constraint.Set{N: g.N(), Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}}}
	res, err := Run(context.Background(), FGPWC{Imprint: true, IterCV: true}, &Problem{Graph: g, K: 2, Constraints: one}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "too few to cross-validate the iteration cap") }) {
		t.Errorf("no warning about too few constraints: %q", res.Warnings)
	}
}
