package cluster

import (
	"context"
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
	p, truth := refineTestProblem(t)
	set := refineCVNoisyPairs(truth, 300, 0.15, 11)
	for _, useCL := range []bool{false, true} {
		method := func(k refineKnobs) Method {
			if useCL {
				return MCLNOASSC{Refine: k.lambda, RefineNJW: k.njw, RefineFixed: !k.cv}
			}
			return MLNOASSC{Refine: k.lambda, RefineNJW: k.njw, RefineFixed: !k.cv}
		}
		q := *p
		q.Constraints = set
		s := &Settings{Seed: 4, Restarts: 10}
		res, err := Run(context.Background(), method(refineKnobs{cv: true}), &q, s)
		if err != nil {
			t.Fatal(err)
		}
		var line string
		for _, w := range res.Warnings {
			if strings.Contains(w, "cross-validation on the constraints") {
				line = w
			}
		}
		m := refineCVScoresRe.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("useCL %v: no cross-validation warning with scores: %q", useCL, res.Warnings)
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
		cands := append([]refineKnobs{{lambda: RefineDefault}}, refineCandidates()...)
		cands = slices.Delete(cands, 2, 3) // λ = 2 is the incumbent, listed once
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
				r, err := Run(context.Background(), method(c), &tq, &Settings{Seed: 4, Restarts: refineCVRestarts})
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
			if g, ok := got[cands[ci].String()]; !ok || g != score[ci] {
				t.Errorf("useCL %v: %s scored %d (found %v), independent count %d", useCL, cands[ci], g, ok, score[ci])
			}
		}
		best, pick := refineCVPick(score, b, c)
		if want := fmt.Sprintf("constraints: %s (incumbent", cands[pick]); !strings.Contains(line, want) {
			t.Errorf("useCL %v: want %q in %q", useCL, want, line)
		}
		// The Result's report says the same.
		rep, ok := res.Report.(*RefineReport)
		if !ok {
			t.Fatalf("useCL %v: Report %T, want *RefineReport", useCL, res.Report)
		}
		if rep.Chosen != cands[pick].String() || rep.Incumbent != cands[0].String() || rep.Challenger != cands[best].String() ||
			rep.B != b[best] || rep.C != c[best] || rep.HeldOut != heldOut || rep.FoldsFailed != 0 || len(rep.Candidates) != len(cands) {
			t.Errorf("useCL %v: report %+v", useCL, rep)
		}
		for ci, sc := range rep.Candidates {
			if ci < len(cands) && (sc.Setting != cands[ci].String() || sc.Satisfied != score[ci]) {
				t.Errorf("useCL %v: report candidate %d %+v, independent %s %d", useCL, ci, sc, cands[ci], score[ci])
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
		cv := slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "cross-validation") })
		refined := slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "refinement in ") })
		if cv != tc.cv || (refined != tc.fixed && !tc.cv) {
			t.Errorf("%#v: cross-validation %v (want %v), refinement %v (want %v): %q", tc.m, cv, tc.cv, refined, tc.fixed, res.Warnings)
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
	if !slices.Equal(off.Labels, on.Labels) || refineWarned(on.Warnings) || on.Report != nil {
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
	if !slices.Equal(a.Labels, b.Labels) || !slices.Equal(a.Warnings, b.Warnings) {
		t.Error("cross-validated refinement: same seed, different result")
	}
}
