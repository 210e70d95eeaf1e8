package cluster

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/testctx"
)

// Auto counts the contradictions of each fold's training pairs once, for
// every candidate it fits on the fold (autoContradictions), and those of
// the whole problem's once (for the chosen candidate's final fit, sscka
// on the blobs, or, when an unconstrained partition is returned, njw on
// the rings, auto's own warning): each candidate's Run counted the
// fold's again, 11 candidates needing them, 34 counts with 3 folds
// against 4 now. Counted by the hook of contradictionsHookKey, by set of pairs, the folds' known by
// their pairs (fgpwcSplit, as Auto splits them). The pairs are
// consistent: with contradictory ones, ml- and mcl-noa-ssc resolve them
// and their resolve's reference partitions, Runs of other methods on the
// resolved pairs, count those too (the references' own problems, whose
// pairs may equal a fold's). Auto's choice on contradictory pairs is
// unchanged, bit for bit (checked when the counts were shared).
func TestAutoCountsContradictionsOncePerFold(t *testing.T) {
	const folds = 3
	rings, ringTruth := threeRings(t)
	x, blobTruth, err := synth.Blobs(150, 3, 2, 5, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	blobs, err := graph.Build(context.Background(), x, graph.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		g     *graph.Graph
		truth []int
		np    int
	}{
		{"three rings", rings, ringTruth, 30},
		{"blobs", blobs, blobTruth, 150},
	} {
		g, np := tc.g, tc.np
		set, err := constraint.UniformPairs(tc.truth, np, rand.NewPCG(1, 2))
		if err != nil {
			t.Fatal(err)
		}
		p := &Problem{Graph: g, K: 3, Constraints: set}
		s := &Settings{Seed: 1}
		var mu sync.Mutex
		var counted []*constraint.Set
		ctx := context.WithValue(context.Background(), contradictionsHookKey{}, func(s *constraint.Set) {
			mu.Lock()
			counted = append(counted, s)
			mu.Unlock()
		})
		res, err := Run(ctx, Auto{Folds: folds}, p, s)
		if err != nil {
			t.Fatal(err)
		}
		if rep := res.Report.(*AutoReport); rep.Folds != folds {
			t.Fatalf("%d folds, want %d", rep.Folds, folds)
		}
		pairs, _, err := supervisionPairsContext(context.Background(), "auto", p, s, allPairs)
		if err != nil {
			t.Fatal(err)
		}
		train, _ := fgpwcSplit(pairs, folds, s.Seed)
		whole, fold, other := 0, make([]int, folds), 0
		for _, c := range counted {
			f := slices.IndexFunc(train, func(tr []constraint.Pair) bool { return slices.Equal(tr, c.Pairs) })
			switch {
			case c == set:
				whole++
			case f >= 0:
				fold[f]++
			default:
				other++
			}
		}
		if whole != 1 || slices.ContainsFunc(fold, func(c int) bool { return c != 1 }) || other != 0 {
			t.Errorf("%s: counts of the problem's pairs %d, of each fold's %v, of other sets %d; want 1, 1 each and none", tc.name, whole, fold, other)
		}
		needing := 0
		for _, c := range autoCandidates(false, g.N(), 3) {
			if c.supervised && c.skip == "" && needsContradictions(c.method.Uses(), p) {
				needing++
			}
		}
		t.Logf("%s, %d pairs, auto chose %s: %d counts; %d with every candidate counting its fold's (%d candidates need them)", tc.name, np, res.Report.(*AutoReport).Chosen, len(counted), needing*folds+1, needing)
	}
}

// A cancelled count of a fold's pairs stops auto, naming it and the fold.
func TestAutoContradictionsCancel(t *testing.T) {
	g, truth := threeRings(t)
	set, err := constraint.UniformPairs(truth, 30, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	sets := []*constraint.Set{nil, {N: g.N(), Pairs: set.Pairs[:10]}}
	cands := autoCandidates(false, g.N(), 3)
	got, err := autoContradictions(testctx.CancelAfter(0), cands, sets)
	if !errors.Is(err, context.Canceled) || got != nil || !strings.HasPrefix(err.Error(), "cluster: auto: check of the training pairs of fold 2 of 2 for contradictions: ") {
		t.Errorf("cancelled: %v, %v; want no counts and context.Canceled naming auto and fold 2", got, err)
	}
	got, err = autoContradictions(context.Background(), cands, sets)
	if err != nil || len(got) != 2 || got[0] != nil || got[1] == nil || got[1].any() {
		t.Errorf("live: %v, %v; want none for the fold without pairs and no contradiction for the other", got, err)
	}
}
