package cluster

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
)

// With partial labels and pairs, auto's folds are built by labelled node
// (autoMixedFolds): no training constraint touches a held-out node, so
// no held-out pair is implied by the training ones (their must-link
// closure, the labels counted as must-links within a class). The labels
// turned into pairs and split pair by pair left 190 of 191 held-out
// pairs implied on 200-node moons with 20 labels and one pair.
func TestAutoMixedFoldsNoLeak(t *testing.T) {
	x, truth, err := synth.Moons(200, 0.1, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	labels, err := constraint.FractionLabels(truth, 0.1, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	pairs, err := constraint.UniformPairs(truth, 30, rand.NewPCG(5, 6))
	if err != nil {
		t.Fatal(err)
	}
	fs := autoMixedFolds(labels, pairs.Pairs, 5, 1)
	if len(fs) != 5 {
		t.Fatalf("%d folds, want 5", len(fs))
	}
	heldOut := 0
	for f, fold := range fs {
		train := append(constraint.FromLabels(fold.labels).Pairs, fold.pairs...)
		comp, _ := constraint.Closure(&constraint.Set{N: 200, Pairs: train})
		touched := make([]bool, 200)
		for _, pr := range train {
			touched[pr.I], touched[pr.J] = true, true
		}
		for _, pr := range fold.test {
			heldOut++
			if touched[pr.I] && touched[pr.J] {
				t.Errorf("fold %d: held-out pair %v has both ends in the training supervision", f, pr)
			}
			if comp[pr.I] == comp[pr.J] {
				t.Errorf("fold %d: held-out pair %v is implied by the training must-links", f, pr)
			}
		}
	}
	if heldOut == 0 {
		t.Fatal("nothing held out")
	}
	g, err := graph.Build(context.Background(), x, graph.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Auto{}, &Problem{Graph: g, K: 2, Labels: labels, Constraints: pairs}, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep := res.Report.(*AutoReport); rep.Supervision != "labels and pairs" || rep.HeldOut != heldOut {
		t.Errorf("report: supervision %q, %d held out; want labels and pairs, %d", rep.Supervision, rep.HeldOut, heldOut)
	}
}

// Run leaves the weights of a delegating method (auto) as they are: its
// candidates' Runs scale them or not by their own Uses, so a candidate
// that reads the weights' scale is scored on the weights given, and no
// note says auto's partition does not depend on the scale. It passes the
// graph of fgpwc with a Basis as it is (BoundGraph), which a scaled copy
// failed as "another graph". Both on a graph of weights times 2⁻⁷⁰.
func TestRunKeepsWeightsForDelegatesAndBases(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	ctx := context.Background()
	x, truth, err := synth.Blobs(300, 4, 2, 2.5, rand.NewPCG(1, 6))
	if err != nil {
		t.Fatal(err)
	}
	g0, err := graph.Build(ctx, x, graph.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	g := g0.ScaledPow2(-70)
	set, err := constraint.UniformPairs(truth, 150, rand.NewPCG(1, 7))
	if err != nil {
		t.Fatal(err)
	}
	p := &Problem{Graph: g, K: 4, Constraints: set}
	s := &Settings{Seed: 1}
	res, err := Run(ctx, Auto{}, p, s)
	if err != nil {
		t.Fatal(err)
	}
	if notes := strings.Join(res.Notes, "\n"); strings.Contains(notes, "auto: the edge weights") {
		t.Errorf("auto's notes say its weights were scaled: %s", notes)
	}
	// fast-ge reads the weights' scale (Uses.WeightScale): on these
	// weights its matrix is singular to working precision, so its
	// candidate fails, where auto once scored it on the scaled graph
	// and chose it.
	rep := res.Report.(*AutoReport)
	if _, err := Run(ctx, FastGE{}, p, s); err == nil {
		t.Fatal("fast-ge on weights times 2⁻⁷⁰ succeeds: the test needs a graph it fails on")
	}
	for _, c := range rep.Candidates {
		if c.Name == "fast-ge" && c.Error == "" && c.Skipped == "" {
			t.Errorf("auto's fast-ge candidate succeeded (score %.4f): it saw scaled weights", c.Score)
		}
	}
	if rep.Chosen == "fast-ge" {
		t.Errorf("auto chose fast-ge, which fails on the problem")
	}
	b, err := NewFGPWC().Embed(ctx, g, s)
	if err != nil {
		t.Fatal(err)
	}
	f := NewFGPWC()
	f.Basis = b
	if _, err := Run(ctx, f, p, s); err != nil {
		t.Errorf("fgpwc with a Basis of the graph: %v", err)
	}
}

// The warnings Run gives a method's partition (collapse, empty clusters)
// appear once under auto: from the chosen candidate's Run, not again
// from auto's (Uses.Delegates).
func TestAutoCollapseWarningOnce(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	r := rand.New(rand.NewPCG(1, 2))
	n := 200
	x := mat.NewDense(n, 2, nil)
	truth := make([]int, n)
	for i := 0; i < n; i++ {
		c := 0.0
		if i >= 190 {
			c, truth[i] = 6, 1
		}
		x.Set(i, 0, c+r.NormFloat64())
		x.Set(i, 1, r.NormFloat64())
	}
	g, err := graph.Build(context.Background(), x, graph.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	for _, np := range []int{3, 40} {
		set, err := constraint.UniformPairs(truth, np, rand.NewPCG(3, 4))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(context.Background(), Auto{}, &Problem{Graph: g, K: 2, Constraints: set}, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		collapses := 0
		for _, w := range res.Warnings {
			if strings.Contains(w, "holds 9") && strings.Contains(w, "% of the") {
				collapses++
			}
		}
		if collapses != 1 {
			t.Errorf("%d pairs: %d collapse warnings, want 1: %q", np, collapses, res.Warnings)
		}
	}
}

// Side information or input that nothing reads is reported once under
// auto: feature rows given with the graph built from them gave "auto
// ignores the feature rows" and the same in its winner's name (review
// 86), since the winner ran on the whole Problem. ExampleAuto's problem,
// where ml-noa-ssc wins.
func TestAutoIgnoredInputsWarnOnce(t *testing.T) {
	ctx := context.Background()
	x, g, set := autoMoons(t)
	res, err := Run(ctx, Auto{}, &Problem{Graph: g, Features: x, K: 2, Constraints: set}, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep := res.Report.(*AutoReport); rep.Chosen != "ml-noa-ssc" {
		t.Fatalf("auto chose %s, want ml-noa-ssc: the test needs a supervised winner", rep.Chosen)
	}
	var ignored []string
	for _, w := range res.Warnings {
		if strings.Contains(w, "ignores the feature rows") {
			ignored = append(ignored, w)
		}
	}
	if len(ignored) != 1 || !strings.HasPrefix(ignored[0], "auto ignores") {
		t.Errorf("warnings about the feature rows %q, want auto's alone", ignored)
	}
}

// FGPWC on a disconnected graph says so in one warning: the embedding's
// (the components' indicators are eigenvectors, so clusters follow the
// components) joined to its own (how X₀ scales their null directions).
// Both came as two warnings about the same components (review 86).
func TestFGPWCComponentsWarnOnce(t *testing.T) {
	g, truth := threeRings(t)
	set, err := constraint.UniformPairs(truth, 30, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []FGPWC{*NewFGPWC(), {Laplacian: FGPWCUnnormalized, M: 3}} {
		res, err := Run(context.Background(), f, &Problem{Graph: g, K: 3, Constraints: set, Disconnected: DisconnectedStrict}, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		var comps []string
		for _, w := range res.Warnings {
			if strings.Contains(w, "connected components") {
				comps = append(comps, w)
			}
		}
		if len(comps) != 1 || !strings.HasPrefix(comps[0], "fgpwc: the graph has 3 connected components; their indicator vectors are exact eigenvectors") || !strings.Contains(comps[0], "null directions") {
			t.Errorf("Laplacian %v: warnings about the components %q, want one, the embedding's and fgpwc's", f.Laplacian, comps)
		}
	}
}

// Under auto, a warning of the chosen candidate says which candidate
// gave it (winnerMessage): NJW's embedding warns of the components of
// three separate rings of 30 nodes in the words of shared code ("graph
// has 3 connected components; …"), which auto reported unnamed, whether
// it chose njw for too little supervision (3 pairs) or by
// cross-validation (30 pairs, seed 1: njw satisfies as many held-out
// pairs as the best constrained candidate). NJW run alone words it as
// before.
func TestAutoNamesWinnerWarnings(t *testing.T) {
	g, truth := threeRings(t)
	const comps = "graph has 3 connected components; "
	for _, np := range []int{3, 30} {
		set, err := constraint.UniformPairs(truth, np, rand.NewPCG(1, 2))
		if err != nil {
			t.Fatal(err)
		}
		p := &Problem{Graph: g, K: 3, Constraints: set}
		res, err := Run(context.Background(), Auto{}, p, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if rep := res.Report.(*AutoReport); rep.Chosen != "njw" {
			t.Fatalf("%d pairs: auto chose %s, want njw: the test needs njw's components warning", np, rep.Chosen)
		}
		named := 0
		for _, w := range res.Warnings {
			switch {
			case strings.HasPrefix(w, "njw: "+comps):
				named++
			case strings.Contains(w, comps):
				t.Errorf("%d pairs: warning %q does not name the candidate", np, w)
			}
		}
		if named != 1 {
			t.Errorf("%d pairs: %d warnings %q, want njw's once: %q", np, named, "njw: "+comps, res.Warnings)
		}
		alone, err := Run(context.Background(), NJW{}, p, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(alone.Warnings, func(w string) bool { return strings.HasPrefix(w, comps) }) {
			t.Errorf("%d pairs: njw alone: warnings %q, want %q as before", np, alone.Warnings, comps)
		}
	}
}

// Under auto, a note of the chosen candidate says which candidate gave
// it, as its warnings do (winnerMessage): NJW's embedding notes the
// regularization asked for in the words of shared code ("L_sym
// regularized (d + τ), τ = …: by request"), which auto passed on
// unnamed, whether it chose njw for too little supervision (3 pairs: the
// note is then the first, the choice being a warning) or by
// cross-validation (30 pairs: after auto's note of the choice). NJW run
// alone words it as before.
func TestAutoNamesWinnerNotes(t *testing.T) {
	g, truth := threeRings(t)
	const reg = "L_sym regularized (d + τ), τ = "
	for _, np := range []int{3, 30} {
		set, err := constraint.UniformPairs(truth, np, rand.NewPCG(1, 2))
		if err != nil {
			t.Fatal(err)
		}
		p := &Problem{Graph: g, K: 3, Constraints: set, Regularize: graph.Regularization{Mode: graph.RegOn}}
		res, err := Run(context.Background(), Auto{}, p, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if rep := res.Report.(*AutoReport); rep.Chosen != "njw" {
			t.Fatalf("%d pairs: auto chose %s, want njw: the test needs njw's regularization note", np, rep.Chosen)
		}
		named := 0
		for _, n := range res.Notes {
			switch {
			case strings.HasPrefix(n, "njw: "+reg):
				named++
			case strings.Contains(n, reg):
				t.Errorf("%d pairs: note %q does not name the candidate", np, n)
			}
		}
		if named != 1 {
			t.Errorf("%d pairs: notes %q, want njw's %q once", np, res.Notes, "njw: "+reg)
		}
		if choice := slices.IndexFunc(res.Notes, func(n string) bool { return strings.HasPrefix(n, "auto: chose njw: ") }); np == 30 && choice != 0 || np == 3 && choice >= 0 {
			t.Errorf("%d pairs: notes %q; want auto's choice first when cross-validated, none (a warning) when not", np, res.Notes)
		}
		alone, err := Run(context.Background(), NJW{}, p, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(alone.Notes, func(n string) bool { return strings.HasPrefix(n, reg) }) {
			t.Errorf("%d pairs: njw alone: notes %q, want %q as before", np, alone.Notes, reg)
		}
	}
}

// winnerMessage names a warning or note by the chosen candidate unless
// it names it already.
func TestWinnerMessage(t *testing.T) {
	for _, c := range []struct{ name, w, want string }{
		{"njw", "graph has 3 connected components", "njw: graph has 3 connected components"},
		{"njw", "njw: cluster 1 holds 93.5% of the 200 nodes", "njw: cluster 1 holds 93.5% of the 200 nodes"},
		{"njw", "njw ignores the feature rows", "njw ignores the feature rows"},
		{"sl", "slow", "sl: slow"},
		{"fgpwc-dw", "fgpwc: VᵀLV = 0", "fgpwc-dw: fgpwc: VᵀLV = 0"},
	} {
		if got := winnerMessage(c.name, c.w); got != c.want {
			t.Errorf("winnerMessage(%q, %q) = %q, want %q", c.name, c.w, got, c.want)
		}
	}
}

// threeRings returns three separate rings of 30 nodes, each node linked to
// its two next neighbours on its ring, and the ring of every node.
func threeRings(t *testing.T) (*graph.Graph, []int) {
	t.Helper()
	const ring = 30
	var edges []graph.Edge
	truth := make([]int, 3*ring)
	for r := 0; r < 3; r++ {
		for i := 0; i < ring; i++ {
			a := r*ring + i
			truth[a] = r
			edges = append(edges, graph.Edge{I: a, J: r*ring + (i+1)%ring, W: 1}, graph.Edge{I: a, J: r*ring + (i+2)%ring, W: 1})
		}
	}
	g, err := graph.FromEdges(3*ring, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g, truth
}
