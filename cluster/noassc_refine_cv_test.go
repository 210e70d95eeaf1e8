package cluster

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
)

func TestRefineCVPick(t *testing.T) {
	for _, tc := range []struct {
		name             string
		score, b, c      []int
		wantBest, wantPk int
	}{
		{"incumbent alone", []int{5}, []int{0}, []int{0}, 0, 0},
		{"best challenger significant", []int{50, 60, 55}, []int{0, 12, 8}, []int{0, 2, 3}, 1, 1},
		// b − c = 6, √(b + c) = √14 ≈ 3.74, 1.645·3.74 ≈ 6.15: not enough.
		{"just below the threshold", []int{50, 56}, []int{0, 10}, []int{0, 4}, 1, 0},
		// b − c = 7, √16 = 4, 1.645·4 = 6.58: enough.
		{"just above the threshold", []int{50, 57}, []int{0, 11}, []int{0, 4}, 1, 1},
		{"ties among challengers to the earlier", []int{40, 45, 45}, []int{0, 5, 30}, []int{0, 0, 25}, 1, 1},
		{"challenger below the incumbent", []int{60, 55}, []int{0, 3}, []int{0, 8}, 1, 0},
	} {
		best, pick := refineCVPick(tc.score, tc.b, tc.c)
		if best != tc.wantBest || pick != tc.wantPk {
			t.Errorf("%s: best %d pick %d, want %d %d", tc.name, best, pick, tc.wantBest, tc.wantPk)
		}
	}
}

// refineCVNoisyPairs draws count pairs of distinct nodes labelled by truth
// and flips the first share of them (must-link ↔ cannot-link).
func refineCVNoisyPairs(truth []int, count int, share float64, seed uint64) *constraint.Set {
	rng := rand.New(rand.NewPCG(seed, 7))
	set := &constraint.Set{N: len(truth)}
	for len(set.Pairs) < count {
		i, j := rng.IntN(len(truth)), rng.IntN(len(truth))
		if i == j {
			continue
		}
		same := truth[i] == truth[j]
		if float64(len(set.Pairs)) < share*float64(count) {
			same = !same
		}
		kind := constraint.CannotLink
		if same {
			kind = constraint.MustLink
		}
		set.Pairs = append(set.Pairs, constraint.Pair{I: i, J: j, Kind: kind})
	}
	return set
}

var refineCVScoresRe = regexp.MustCompile(`held-out pairs satisfied of (\d+): (.*)\)$`)

// refineCV's scores against an independent computation: each candidate
// run as the method itself (Run with its Refine and RefineNJW, 5 k-means
// restarts) on every fold's training pairs, its held-out pairs counted
// here. It also checks the choice against McNemar's rule recomputed from
// those runs.
func TestRefineCVScoresMatchIndependentRuns(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	p, truth := refineTestProblem(t)
	set := refineCVNoisyPairs(truth, 300, 0.15, 11)
	for _, tc := range []struct{ useCL, refCV bool }{{false, false}, {true, false}, {true, true}} {
		useCL := tc.useCL
		method := func(k refineKnobs, ref ResolveReference) Method {
			if useCL {
				return MCLNOASSC{Refine: k.lambda, RefineNJW: k.njw, RefineFixed: !k.cv, ReferenceFixed: !k.refCV, Reference: ref}
			}
			return MLNOASSC{Refine: k.lambda, RefineNJW: k.njw, RefineFixed: !k.cv, ReferenceFixed: !k.refCV, Reference: ref}
		}
		q := *p
		q.Constraints = set
		s := &Settings{Seed: 4, Restarts: 10}
		res, err := Run(context.Background(), method(refineKnobs{cv: true, refCV: tc.refCV}, ReferenceCSCAP), &q, s)
		if err != nil {
			t.Fatal(err)
		}
		var line string
		for _, w := range res.Notes {
			if strings.Contains(w, "cross-validation on the constraints") {
				line = w
			}
		}
		m := refineCVScoresRe.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("useCL %v: no cross-validation note with scores: %q", useCL, res.Notes)
		}
		t.Logf("useCL %v: %s", useCL, line)
		got := map[string]int{}
		for _, part := range strings.Split(m[2], ", ") {
			i := strings.LastIndex(part, " ")
			v, err := strconv.Atoi(part[i+1:])
			if err != nil {
				t.Fatalf("score %q: %v", part, err)
			}
			got[part[:i]] = v
		}
		// The independent computation.
		// With the reference chosen too, the same list again with FAST-GE's
		// reference, named with it.
		type cand struct {
			knobs refineKnobs
			ref   ResolveReference
			name  string
		}
		var cands []cand
		ks := append([]refineKnobs{{lambda: RefineDefault}}, refineCandidates()...)
		ks = slices.Delete(ks, 2, 3) // λ = 2 is the incumbent, listed once
		for _, k := range ks {
			cands = append(cands, cand{k, ReferenceCSCAP, k.String()})
		}
		if tc.refCV {
			for _, k := range refineCandidates() {
				cands = append(cands, cand{k, ReferenceFastGE, "fast-ge: " + k.String()})
			}
		}
		fold := fgpwcFolds(set.Pairs, refineCVFolds, s.derive(streamPairRefineCV).Seed)
		sat := make([][]bool, len(cands))
		heldOut := 0
		for f := 0; f < refineCVFolds; f++ {
			var train, test []constraint.Pair
			for t, pr := range set.Pairs {
				if fold[t] == f {
					test = append(test, pr)
				} else {
					train = append(train, pr)
				}
			}
			heldOut += len(test)
			tq := *p
			tq.Constraints = &constraint.Set{N: set.N, Pairs: train}
			if consistentPairs(tq.Constraints) {
				t.Fatalf("fold %d: training pairs consistent; the test needs every fold contradicted", f)
			}
			for ci, c := range cands {
				r, err := Run(context.Background(), method(c.knobs, c.ref), &tq, &Settings{Seed: 4, Restarts: refineCVRestarts})
				if err != nil {
					t.Fatal(err)
				}
				for _, pr := range test {
					sat[ci] = append(sat[ci], (r.Labels[pr.I] == r.Labels[pr.J]) == (pr.Kind == constraint.MustLink))
				}
			}
		}
		if want := strconv.Itoa(heldOut); m[1] != want {
			t.Errorf("useCL %v: %s held-out pairs, want %s", useCL, m[1], want)
		}
		score := make([]int, len(cands))
		b := make([]int, len(cands))
		c := make([]int, len(cands))
		for ci := range cands {
			for t, ok := range sat[ci] {
				score[ci] += b2i(ok)
				b[ci] += b2i(ok && !sat[0][t])
				c[ci] += b2i(!ok && sat[0][t])
			}
			if g, ok := got[cands[ci].name]; !ok || g != score[ci] {
				t.Errorf("useCL %v refCV %v: %s scored %d (found %v), independent count %d", useCL, tc.refCV, cands[ci].name, g, ok, score[ci])
			}
		}
		best, pick := refineCVPick(score, b, c)
		if want := fmt.Sprintf("constraints: %s (incumbent", cands[pick].name); !strings.Contains(line, want) {
			t.Errorf("useCL %v: want %q in %q", useCL, want, line)
		}
		// The Result's report says the same.
		rep, ok := res.Report.(*RefineReport)
		if !ok {
			t.Fatalf("useCL %v: Report %T, want *RefineReport", useCL, res.Report)
		}
		if rep.Chosen != cands[pick].name || rep.Incumbent != cands[0].name || rep.Challenger != cands[best].name || rep.Reference != cands[pick].ref.String() ||
			rep.B != b[best] || rep.C != c[best] || rep.HeldOut != heldOut || rep.FoldsFailed != 0 || len(rep.Candidates) != len(cands) {
			t.Errorf("useCL %v: report %+v", useCL, rep)
		}
		for ci, sc := range rep.Candidates {
			if ci < len(cands) && (sc.Setting != cands[ci].name || sc.Satisfied != score[ci]) {
				t.Errorf("useCL %v: report candidate %d %+v, independent %s %d", useCL, ci, sc, cands[ci].name, score[ci])
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Setting Refine fixes the refinement: Refine = −1 turns it off even on
// contradicted constraints, and Refine = 8 is used as set, without a
// cross-validation.
func TestRefineSetFixesIt(t *testing.T) {
	p, truth := refineTestProblem(t)
	q := *p
	q.Constraints = refineCVNoisyPairs(truth, 300, 0.15, 11)
	for _, tc := range []struct {
		m         Method
		cv, fixed bool // a cross-validation warning, a refinement warning
	}{
		{MCLNOASSC{}, true, true},
		{MCLNOASSC{Refine: -1}, false, false},
		{MLNOASSC{Refine: -1}, false, false},
		{MCLNOASSC{Refine: 8}, false, true},
		{MCLNOASSC{RefineNJW: true}, false, true},
		{MCLNOASSC{RefineFixed: true}, false, true},
	} {
		res, err := Run(context.Background(), tc.m, &q, &Settings{Seed: 4})
		if err != nil {
			t.Fatal(err)
		}
		// What the cross-validation chose and what the refinement did
		// are notes.
		cv := slices.ContainsFunc(res.Notes, func(w string) bool { return strings.Contains(w, "cross-validation") })
		refined := slices.ContainsFunc(res.Notes, func(w string) bool { return strings.Contains(w, "refinement in ") })
		if cv != tc.cv || (refined != tc.fixed && !tc.cv) {
			t.Errorf("%#v: cross-validation %v (want %v), refinement %v (want %v): %q", tc.m, cv, tc.cv, refined, tc.fixed, res.Notes)
		}
	}
}

// With consistent constraints nothing is refined, so the cross-validation
// changes nothing; and the same seed gives the same partition.
func TestRefineCVConsistentAndDeterministic(t *testing.T) {
	p, truth := refineTestProblem(t)
	q := *p
	q.Constraints = refineCVNoisyPairs(truth, 200, 0, 5)
	off, err := Run(context.Background(), MCLNOASSC{RefineFixed: true}, &q, &Settings{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	on, err := Run(context.Background(), MCLNOASSC{}, &q, &Settings{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(off.Labels, on.Labels) || refineWarned(on.Warnings) || refineWarned(on.Notes) || on.Report != nil {
		t.Errorf("consistent constraints: the cross-validation changed the labels or refined (%q)", on.Warnings)
	}
	q.Constraints = refineCVNoisyPairs(truth, 200, 0.2, 5)
	a, err := Run(context.Background(), MCLNOASSC{}, &q, &Settings{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(context.Background(), MCLNOASSC{}, &q, &Settings{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Labels, b.Labels) || !slices.Equal(a.Warnings, b.Warnings) || !slices.Equal(a.Notes, b.Notes) {
		t.Error("cross-validated refinement: same seed, different result")
	}
}

// By default (ReferenceCVDefault), a chosen candidate of the other
// reference is the method run with that reference and refinement fixed
// (pairNOASSC fits once, with the reference chosen): searched over noise
// draws until the choice falls on FAST-GE's reference, which the test
// needs at least once.
func TestReferenceCVUsesTheChosenReference(t *testing.T) {
	p, truth := refineTestProblem(t)
	for seed := uint64(1); seed <= 40; seed++ {
		q := *p
		q.Constraints = refineCVNoisyPairs(truth, 300, 0.15, seed)
		s := &Settings{Seed: 4, Restarts: 10}
		res, err := Run(context.Background(), MCLNOASSC{}, &q, s)
		if err != nil {
			t.Fatal(err)
		}
		rep := res.Report.(*RefineReport)
		if rep.Reference != ReferenceFastGE.String() {
			continue
		}
		name, _ := strings.CutPrefix(rep.Chosen, "fast-ge: ")
		var k refineKnobs
		for _, c := range refineCandidates() {
			if c.String() == name {
				k = c
			}
		}
		if k.String() != name {
			t.Fatalf("seed %d: chosen %q is no candidate", seed, rep.Chosen)
		}
		want, err := Run(context.Background(), MCLNOASSC{Reference: ReferenceFastGE, Refine: k.lambda, RefineNJW: k.njw, RefineFixed: true}, &q, s)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Labels, want.Labels) {
			t.Errorf("seed %d: chose %s, labels differ from the method run with it", seed, rep.Chosen)
		}
		// The warnings describe the resolve with FAST-GE's reference.
		found := false
		for _, w := range res.Warnings {
			found = found || strings.Contains(w, "reference partition (fast-ge) separates")
		}
		if !found {
			t.Errorf("seed %d: no resolve with fast-ge's reference in the warnings: %q", seed, res.Warnings)
		}
		t.Logf("seed %d: chose %s", seed, rep.Chosen)
		return
	}
	t.Fatal("no draw chose FAST-GE's reference; the test needs one")
}

// Cancelling MCL-NOA-SSC at points spread over its run (contradicted
// constraints on 300 nodes: the resolve, then the cross-validation's
// folds with both references, then the refit) returns context.Canceled
// and no result: the folds, the references and the vote all watch the
// context. Deterministic: the context flips at its N-th Err call
// (pollCtx), at 10%, 35% and 60% of the polls of an uncancelled run, and
// after the flip the run may poll only a few more times (maxAfter) before
// it returns. (An earlier version slept for fractions of a timed run; on a
// loaded CI machine the timed run was slower than the later ones, which
// finished before the cancel.) The wall-clock bound of Ctrl-C is
// TestCancelStops's.
func TestRefineCVCancelledMidway(t *testing.T) {
	p := noisyNOASSCProblem(t, 300)
	const maxAfter = 64
	polls := uncancelledPolls(t, MCLNOASSC{}, p, &Settings{Seed: 1})
	if polls < 100 {
		t.Fatalf("%d polls of ctx in an uncancelled run; the folds no longer poll", polls)
	}
	for _, frac := range []float64{0.1, 0.35, 0.6} {
		k := int64(frac * float64(polls))
		ctx := newPollCtx(k)
		res, err := Run(ctx, MCLNOASSC{}, p, &Settings{Seed: 1})
		if !errors.Is(err, context.Canceled) || res != nil {
			t.Errorf("cancel at poll %d of %d: result %v, error %v; want no result and context.Canceled", k, polls, res != nil, err)
		}
		if after := ctx.calls.Load() - k; after > maxAfter {
			t.Errorf("cancel at poll %d of %d: %d more polls before returning, want ≤ %d", k, polls, after, maxAfter)
		}
		t.Logf("cancel at poll %d of %d: %d more polls", k, polls, ctx.calls.Load()-k)
	}
}
