package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"gonum.org/v1/gonum/mat"
)

// autoByHand recomputes Auto's scores on pair supervision independently
// of auto.go: the folds are rebuilt with fgpwcSplit, each unconstrained
// candidate is run once through Run on the graph alone with s, each
// supervised one on every fold's training pairs with auto's fold
// settings (at most 5 k-means restarts), and the held-out pairs each
// partition satisfies are counted here. It returns the scores (−1 for a
// skipped or failed candidate) and the index of the expected winner
// (highest score, ties to the earlier): the winner under the default
// threshold AutoDefaultZ = 0, where a constrained candidate replaces the
// best unconstrained one when b > c, that is when its score is higher
// (TestAutoSignificance tests the threshold).
func autoByHand(t *testing.T, p *Problem, s *Settings) (scores []float64, best int) {
	t.Helper()
	train, test := fgpwcSplit(p.Constraints.Pairs, AutoDefaultFolds, s.Seed)
	held := 0
	for _, q := range test {
		held += len(q)
	}
	best = -1
	for _, c := range autoCandidates(false, p.Graph.N(), p.K) {
		score := -1.0
		if c.skip == "" {
			total, failed := 0, false
			var whole []int
			for f := range train {
				labels := whole
				if c.supervised || whole == nil {
					fp := &Problem{Graph: p.Graph, K: p.K}
					fs := s
					if c.supervised {
						fp.Constraints = &constraint.Set{N: p.Graph.N(), Pairs: train[f]}
						fs = &Settings{Seed: s.Seed, Restarts: 5} // auto's fold fits
					}
					r, err := Run(context.Background(), c.method, fp, fs)
					if err != nil {
						failed = true
						break
					}
					labels = r.Labels
					if !c.supervised {
						whole = labels
					}
				}
				for _, q := range test[f] {
					if (labels[q.I] == labels[q.J]) == (q.Kind == constraint.MustLink) {
						total++
					}
				}
			}
			if !failed {
				score = float64(total) / float64(held)
			}
		}
		scores = append(scores, score)
		if score >= 0 && (best < 0 || score > scores[best]+1e-12) {
			best = len(scores) - 1
		}
	}
	return scores, best
}

// TestAutoScoresByHand checks every candidate's score against autoByHand
// on small problems whose winners differ (a supervised one on two moons,
// where NJW cuts across the moons; the unconstrained NJW on separated
// blobs and on two cliques, where every candidate ties), and that the result is the chosen
// method's own Run on the whole problem with the same Settings.
func TestAutoScoresByHand(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	blobs, truth := roBlobs(t, 150, 3, 1.4, 7)
	blobPairs, err := constraint.UniformPairs(truth, 120, rand.NewPCG(7, 7))
	if err != nil {
		t.Fatal(err)
	}
	x, mtruth, err := synth.Moons(150, 0.12, rand.NewPCG(5, 6))
	if err != nil {
		t.Fatal(err)
	}
	moons, err := graph.Build(context.Background(), x, graph.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	moonPairs, err := constraint.UniformPairs(mtruth, 60, rand.NewPCG(5, 7))
	if err != nil {
		t.Fatal(err)
	}
	cliques, ctruth := autoTwoCliques(t)
	cliquePairs, err := constraint.UniformPairs(ctruth, 30, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		p    *Problem
		seed uint64
	}{
		{"blobs", &Problem{Graph: blobs, K: 3, Constraints: blobPairs}, 11},
		{"moons", &Problem{Graph: moons, K: 2, Constraints: moonPairs}, 1},
		{"cliques", &Problem{Graph: cliques, K: 2, Constraints: cliquePairs}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Settings{Seed: tc.seed}
			res, err := Run(context.Background(), Auto{}, tc.p, s)
			if err != nil {
				t.Fatal(err)
			}
			rep, ok := res.Report.(*AutoReport)
			if !ok {
				t.Fatalf("Report is %T, want *AutoReport", res.Report)
			}
			K := len(tc.p.Constraints.Pairs)
			if rep.Folds != AutoDefaultFolds || rep.HeldOut != K || rep.Supervision != "pairs" {
				t.Fatalf("report folds %d, held out %d, supervision %s; want %d, %d, pairs", rep.Folds, rep.HeldOut, rep.Supervision, AutoDefaultFolds, K)
			}
			scores, best := autoByHand(t, tc.p, s)
			cands := autoCandidates(false, tc.p.Graph.N(), tc.p.K)
			if len(rep.Candidates) != len(cands) {
				t.Fatalf("%d candidates reported, want %d", len(rep.Candidates), len(cands))
			}
			for ci, c := range cands {
				got := rep.Candidates[ci]
				// FGPWC reuses one basis in auto; the basis is the same
				// numbers as its own embedding, so the counts agree exactly.
				if got.Name != c.name || math.Abs(got.Score-scores[ci]) > 1e-12 {
					t.Errorf("candidate %d: %s score %v, recomputed %s %v", ci, got.Name, got.Score, c.name, scores[ci])
				}
			}
			if rep.Chosen != cands[best].name {
				t.Fatalf("chose %s, the highest score is %s's: %s", rep.Chosen, cands[best].name, rep)
			}
			fp, fs := tc.p, s
			if !cands[best].supervised {
				fp = &Problem{Graph: tc.p.Graph, K: tc.p.K}
			}
			direct, err := Run(context.Background(), cands[best].method, fp, fs)
			if err != nil {
				t.Fatal(err)
			}
			for i := range direct.Labels {
				if direct.Labels[i] != res.Labels[i] {
					t.Fatalf("node %d: auto %d, %s run directly %d", i, res.Labels[i], rep.Chosen, direct.Labels[i])
				}
			}
			// A cross-validated choice is a note, the first.
			if len(res.Notes) == 0 || !strings.HasPrefix(res.Notes[0], "auto: chose "+rep.Chosen) {
				t.Errorf("first note of %q does not say what was chosen", res.Notes)
			}
			if slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "auto: chose") }) {
				t.Errorf("the cross-validated choice is among the warnings: %q", res.Warnings)
			}
			if _, err := json.Marshal(rep); err != nil {
				t.Errorf("report does not encode as JSON: %v", err)
			}
		})
	}
}

// autoTwoCliques returns two 10-cliques joined by one weak edge and the
// cliques as the truth.
func autoTwoCliques(t *testing.T) (*graph.Graph, []int) {
	t.Helper()
	g := bridgedCliques(t, 10, 0.01)
	truth := make([]int, 20)
	for i := 10; i < 20; i++ {
		truth[i] = 1
	}
	return g, truth
}

// TestAutoKeepsUnconstrained checks the tie rule: on two 10-cliques
// joined by one weak edge, NJW's partition is the two cliques, and
// constraints drawn from that partition are all satisfied by it (score 1).
// No candidate can score more, so the tie keeps NJW, and the report says
// that no constrained candidate did better.
func TestAutoKeepsUnconstrained(t *testing.T) {
	g, truth := autoTwoCliques(t)
	set, err := constraint.UniformPairs(truth, 30, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Auto{}, &Problem{Graph: g, K: 2, Constraints: set}, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report.(*AutoReport)
	if rep.Chosen != "njw" || rep.Candidates[0].Score != 1 {
		t.Errorf("chose %s (NJW score %v), want njw with score 1: %s", rep.Chosen, rep.Candidates[0].Score, rep)
	}
	if !strings.Contains(rep.Why, "no constrained candidate") {
		t.Errorf("why = %q", rep.Why)
	}
}

// TestAutoLabelsAndEdgeCases: label supervision uses the label candidates
// and label folds (held-out pairs = held-out labelled node × training
// labelled node: with L labelled nodes, Σ_f |fold f|·(L − |fold f|));
// no supervision returns NJW with Folds = 0; a bad Folds is an error.
func TestAutoLabelsAndEdgeCases(t *testing.T) {
	g, truth := roBlobs(t, 120, 3, 1.2, 2)
	labels := roLabels(t, truth, 0.2, 2)
	L := len(labels.Labeled())
	res, err := Run(context.Background(), Auto{}, &Problem{Graph: g, K: 3, Labels: labels}, &Settings{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report.(*AutoReport)
	want := 0
	for f := 0; f < AutoDefaultFolds; f++ {
		size := L / AutoDefaultFolds
		if f < L%AutoDefaultFolds {
			size++
		}
		want += size * (L - size)
	}
	if rep.Supervision != "labels" || rep.HeldOut != want || rep.Candidates[4].Name != "labelprop" {
		t.Errorf("supervision %s, held out %d (want %d), fifth candidate %s (want labelprop, after the four unconstrained)", rep.Supervision, rep.HeldOut, want, rep.Candidates[4].Name)
	}
	none, err := Run(context.Background(), Auto{}, &Problem{Graph: g, K: 3}, &Settings{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r := none.Report.(*AutoReport); r.Folds != 0 || r.Chosen != "njw" {
		t.Errorf("no supervision: folds %d, chose %s", r.Folds, r.Chosen)
	}
	if _, err := Run(context.Background(), Auto{Folds: 1}, &Problem{Graph: g, K: 3, Labels: labels}, nil); err == nil {
		t.Error("Folds = 1 accepted")
	}
	// Two labels per class, 6 < 2·5: no choice, NJW, and the reason
	// with the counts.
	few := make(constraint.Labels, len(labels))
	perClass := map[int]int{}
	for i, c := range labels {
		few[i] = constraint.Unlabeled
		if c != constraint.Unlabeled && perClass[c] < 2 {
			few[i] = c
			perClass[c]++
		}
	}
	res, err = Run(context.Background(), Auto{}, &Problem{Graph: g, K: 3, Labels: few}, &Settings{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Report.(*AutoReport); r.Chosen != "njw" || r.Folds != 0 || !strings.Contains(r.Why, "6 labelled nodes, fewer than the 10 (2 per fold)") {
		t.Errorf("6 labels: chose %s, %d folds, why %q", r.Chosen, r.Folds, r.Why)
	}
	// The way to use them names the library's call, and the front end's
	// option with Settings.Spelling (TestSpelledRemedies), as the
	// package's other messages do (review 86: it named the command's
	// only).
	if r := res.Report.(*AutoReport); !strings.Contains(r.Why, "(cluster.New(name), or its type such as cluster.SpectralLearning{})") {
		t.Errorf("6 labels: why %q does not name cluster.New", r.Why)
	}
}

// TestAutoKeepsBestUnconstrained: when the constraints are every pair
// among 20 nodes, drawn from the partition of one unconstrained method,
// that method satisfies every held-out pair (score 1), and so does any
// earlier unconstrained candidate whose partition agrees on those pairs;
// nothing scores more, so the winner must be the first unconstrained
// candidate that satisfies all the pairs (counted here, by brute force),
// and auto must return its partition of the whole graph. On two moons
// (noise 0.05) the Bethe Hessian's partition differs from the three
// Laplacians' (ARI 0.08 against NJW's), so bethe must win with its own
// pairs, and NJW with usc's (the same partition as NJW's there); on two
// cliques every method agrees, so NJW must.
func TestAutoKeepsBestUnconstrained(t *testing.T) {
	ctx := context.Background()
	x, _, err := synth.Moons(150, 0.05, rand.NewPCG(1, 6))
	if err != nil {
		t.Fatal(err)
	}
	moons, err := graph.Build(ctx, x, graph.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	cliques, _ := autoTwoCliques(t)
	for _, tc := range []struct {
		name string
		g    *graph.Graph
		from Method // the partition the constraints are drawn from
		want string
	}{
		{"moons/bethe", moons, BetheHessian{}, "bethe"},
		// usc's partition of these moons is NJW's: the tie goes to njw.
		{"moons/usc", moons, Unnormalized{}, "njw"},
		{"cliques/njw", cliques, NJW{}, "njw"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Settings{Seed: 3}
			bare := &Problem{Graph: tc.g, K: 2}
			src, err := Run(ctx, tc.from, bare, s)
			if err != nil {
				t.Fatal(err)
			}
			nodes := rand.New(rand.NewPCG(3, 3)).Perm(tc.g.N())[:20]
			var pairs []constraint.Pair
			for a, i := range nodes {
				for _, j := range nodes[a+1:] {
					kind := constraint.CannotLink
					if src.Labels[i] == src.Labels[j] {
						kind = constraint.MustLink
					}
					pairs = append(pairs, constraint.Pair{I: min(i, j), J: max(i, j), Kind: kind})
				}
			}
			// The first unconstrained candidate that satisfies every pair.
			want := ""
			for _, c := range autoCandidates(false, tc.g.N(), 2)[:4] {
				r, err := Run(ctx, c.method, bare, s)
				if err != nil {
					t.Fatal(err)
				}
				if satisfied(pairs, r.Labels) == len(pairs) {
					want = c.name
					break
				}
			}
			if tc.want != "" && want != tc.want {
				t.Fatalf("the first unconstrained partition satisfying every pair is %q, the test expects %q", want, tc.want)
			}
			res, err := Run(ctx, Auto{}, &Problem{Graph: tc.g, K: 2, Constraints: &constraint.Set{N: tc.g.N(), Pairs: pairs}}, s)
			if err != nil {
				t.Fatal(err)
			}
			rep := res.Report.(*AutoReport)
			if rep.Chosen != want {
				t.Fatalf("chose %s, want %s: %s", rep.Chosen, want, rep)
			}
			for _, c := range rep.Candidates {
				if c.Score > 1 || (c.Name == want && c.Score != 1) {
					t.Errorf("%s score %v", c.Name, c.Score)
				}
			}
			m, err := New(want)
			if err != nil {
				t.Fatal(err)
			}
			direct, err := Run(ctx, m, bare, s)
			if err != nil {
				t.Fatal(err)
			}
			for i := range direct.Labels {
				if direct.Labels[i] != res.Labels[i] {
					t.Fatalf("node %d: auto %d, %s run directly %d", i, res.Labels[i], want, direct.Labels[i])
				}
			}
			if !strings.Contains(rep.Why, "unconstrained "+want+" partition") {
				t.Errorf("why = %q", rep.Why)
			}
		})
	}
}

// TestAutoCandidateRule checks the candidate list against the rule stated
// on Auto, method by method over the registry: every registered method is
// either a candidate or left out for a stated reason, so a method added
// to the registry later fails this test until it is placed. Candidates
// cluster the graph alone into the k given (Uses: graph input, no MaxK),
// read the supervision of the mode, come in the documented order (the
// tie order), and the costly ones are skipped above 1000 nodes exactly.
func TestAutoCandidateRule(t *testing.T) {
	leftOut := map[string]string{
		"auto":      "itself",
		"hbisect":   "unconstrained, stops by a threshold (k given: one of the four Laplacian/Bethe methods)",
		"cosc":      "cost: a nonlinear relaxation iterated to convergence",
		"l1csc":     "cost: ADMM iterated to convergence",
		"csp":       "cost: up to 64 generalized eigenpairs whatever k is",
		"ccsr":      "cost: a semidefinite fit of up to 20 000 iterations",
		"opplc":     "finds k itself; for ordered nodes",
		"plmeans":   "finds k itself",
		"mavro":     "k = 2 only (mavro-k is its k-way form)",
		"cpca":      "feature rows",
		"clpp":      "feature rows",
		"cvqe":      "feature rows",
		"cocluster": "a bipartite matrix",
	}
	costly := map[string]bool{"cscap": true, "fast-ge2-bh": true, "fast-ge": true, "fast-ge2": true}
	for _, tc := range []struct {
		name   string
		labels bool
		n      int
		want   []string
	}{
		{"pairs/small", false, 1000, []string{"njw", "ncut", "usc", "bethe", "sl", "ml-noa-ssc", "mcl-noa-ssc", "sscka", "csc", "fast-ge", "fast-ge2", "fast-ge2-bh", "cscap", "fgpwc-dw", "fgpwc"}},
		{"pairs/large", false, 1001, []string{"njw", "ncut", "usc", "bethe", "sl", "ml-noa-ssc", "mcl-noa-ssc", "sscka", "csc", "fast-ge", "fast-ge2", "fast-ge2-bh", "cscap", "fgpwc-dw", "fgpwc"}},
		{"labels/small", true, 30, []string{"njw", "ncut", "usc", "bethe", "labelprop", "noa-ssc", "mavro-k", "sl", "ml-noa-ssc", "mcl-noa-ssc", "sscka", "csc", "fast-ge", "fast-ge2", "fast-ge2-bh", "cscap", "fgpwc-dw", "fgpwc"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cands := autoCandidates(tc.labels, tc.n, 4)
			var names []string
			methods := map[string]bool{}
			for _, c := range cands {
				names = append(names, c.name)
				methods[c.method.Name()] = true
				u := c.method.Uses()
				if u.Input != 0 && u.Input != GraphInput || u.MaxK != 0 {
					t.Errorf("%s: Uses %+v: not a graph method for every k", c.name, u)
				}
				switch {
				case !c.supervised && u.Supervision != None:
					t.Errorf("%s: unconstrained candidate with supervision %v", c.name, u.Supervision)
				case c.supervised && u.Supervision&Pairs == 0 && !(tc.labels && u.Supervision&LabelSet != 0):
					t.Errorf("%s: supervision %v does not read the mode's supervision", c.name, u.Supervision)
				}
				if want := costly[c.name] && tc.n > AutoCostlyMaxN; (c.skip != "") != want {
					t.Errorf("%s at n = %d: skipped %q, want skipped %v", c.name, tc.n, c.skip, want)
				}
			}
			if strings.Join(names, " ") != strings.Join(tc.want, " ") {
				t.Errorf("candidates\n%v\nwant\n%v", names, tc.want)
			}
			for _, info := range Methods() {
				_, out := leftOut[info.Name]
				switch {
				case methods[info.Name] && out:
					t.Errorf("%s is a candidate and left out", info.Name)
				case !methods[info.Name] && !out && (tc.labels || info.New().Uses().Supervision&Pairs != 0 || info.New().Uses().Supervision == None):
					t.Errorf("%s is neither a candidate nor left out for a reason", info.Name)
				}
			}
		})
	}
}

// TestAutoDeterministic: for a fixed seed the choice, every score and the
// partition are the same whatever the number of workers (the folds run
// GOMAXPROCS at a time), and a run with one candidate failing on every
// fold (DisconnectedStrict with an isolated node: the methods built on
// D^{-1/2} refuse it) reports the failures with score −1 and chooses among
// the others.
func TestAutoDeterministic(t *testing.T) {
	g, truth := roBlobs(t, 120, 3, 2.2, 5)
	set, err := constraint.UniformPairs(truth, 90, rand.NewPCG(5, 5))
	if err != nil {
		t.Fatal(err)
	}
	// The same blobs with node 0 cut off.
	var edges []graph.Edge
	for i := 0; i < g.N(); i++ {
		idx, w := g.Row(i)
		for a, j := range idx {
			if i < int(j) && i != 0 {
				edges = append(edges, graph.Edge{I: i, J: int(j), W: w[a]})
			}
		}
	}
	cut, err := graph.FromEdges(g.N(), edges)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		p    *Problem
		fail bool // some candidate must fail
	}{
		{"blobs", &Problem{Graph: g, K: 3, Constraints: set}, false},
		{"isolated-strict", &Problem{Graph: cut, K: 3, Constraints: set, Disconnected: DisconnectedStrict}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var first *Result
			for _, procs := range []int{1, 2, 1} {
				old := runtime.GOMAXPROCS(procs)
				res, err := Run(context.Background(), Auto{}, tc.p, &Settings{Seed: 9})
				runtime.GOMAXPROCS(old)
				if err != nil {
					t.Fatal(err)
				}
				rep := res.Report.(*AutoReport)
				failed := 0
				for _, c := range rep.Candidates {
					if c.Error != "" {
						failed++
						if c.Score != -1 || c.Name == rep.Chosen {
							t.Errorf("failed candidate %s: score %v, chosen %s", c.Name, c.Score, rep.Chosen)
						}
					}
				}
				if (failed > 0) != tc.fail {
					t.Errorf("%d candidates failed: %s", failed, rep)
				}
				if first == nil {
					first = res
					continue
				}
				r0 := first.Report.(*AutoReport)
				if rep.Chosen != r0.Chosen {
					t.Fatalf("GOMAXPROCS %d: chose %s, before %s", procs, rep.Chosen, r0.Chosen)
				}
				for i, c := range rep.Candidates {
					if c.Score != r0.Candidates[i].Score || c.Error != r0.Candidates[i].Error {
						t.Errorf("GOMAXPROCS %d: %s score %v (%q), before %v (%q)", procs, c.Name, c.Score, c.Error, r0.Candidates[i].Score, r0.Candidates[i].Error)
					}
				}
				for i := range res.Labels {
					if res.Labels[i] != first.Labels[i] {
						t.Fatalf("GOMAXPROCS %d: node %d in cluster %d, before %d", procs, i, res.Labels[i], first.Labels[i])
					}
				}
			}
		})
	}
}

// TestAutoMcNemar checks McNemar's statistic (b − c)/√(b + c) and the
// significance rule b − c > z·√(b + c) on cases computed by hand.
func TestAutoMcNemar(t *testing.T) {
	for _, tc := range []struct {
		b, c int
		z    float64 // the statistic, by hand
		sig  []bool  // significant at thresholds 0, 1, 1.645, 2.326, 2.69
	}{
		// 8/√10 = 2.52982…: above 2.326, below 2.69.
		{9, 1, 2.5298221281347035, []bool{true, true, true, true, false}},
		// 3/√3 = √3 = 1.73205…
		{3, 0, 1.7320508075688772, []bool{true, true, true, false, false}},
		// 1/√1 = 1: not above 1 (the inequality is strict).
		{1, 0, 1, []bool{true, false, false, false, false}},
		// No disagreement, or as many each way: never significant.
		{0, 0, 0, []bool{false, false, false, false, false}},
		{5, 5, 0, []bool{false, false, false, false, false}},
		// The unconstrained candidate better: −2/√6.
		{2, 4, -0.8164965809277261, []bool{false, false, false, false, false}},
	} {
		if got := autoMcNemarZ(tc.b, tc.c); math.Abs(got-tc.z) > 1e-15 {
			t.Errorf("b = %d, c = %d: statistic %v, want %v", tc.b, tc.c, got, tc.z)
		}
		for i, z := range []float64{0, 1, 1.645, 2.326, 2.69} {
			if got := autoSignificant(tc.b, tc.c, z); got != tc.sig[i] {
				t.Errorf("b = %d, c = %d, z = %v: significant %v, want %v", tc.b, tc.c, z, got, tc.sig[i])
			}
		}
	}
	for _, tc := range []struct{ in, want float64 }{{0, AutoDefaultZ}, {-1, 0}, {1.645, 1.645}} {
		if got := (Auto{Z: tc.in}).z(); got != tc.want {
			t.Errorf("Auto{Z: %v} uses %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestAutoSignificance: on two moons with 60 pairs (NJW cuts across the
// moons; TestAutoScoresByHand), the strict rule (Z = −1) chooses a
// constrained candidate with b > c. The report's b and c are recounted
// here from the candidates' partitions (b − c must also be the difference
// of the satisfied counts). With a threshold just above that candidate's
// statistic its higher score is not significant, and auto must return the
// baseline's partition (the unconstrained candidate's own Run) and say
// so; with half the statistic as threshold the constrained candidate
// must win, as under the strict rule.
func TestAutoSignificance(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	ctx := context.Background()
	_, g, set := autoMoons(t)
	p := &Problem{Graph: g, K: 2, Constraints: set}
	s := &Settings{Seed: 1}
	strict, err := Run(ctx, Auto{Z: -1}, p, s)
	if err != nil {
		t.Fatal(err)
	}
	rep := strict.Report.(*AutoReport)
	var win, base *AutoCandidate
	for i := range rep.Candidates {
		c := &rep.Candidates[i]
		if c.Name == rep.Chosen {
			win = c
		}
		if c.Name == rep.Baseline {
			base = c
		}
	}
	if win == nil || !win.Supervised || base == nil || base.Supervised || rep.Z != 0 {
		t.Fatalf("strict rule: chose %s against baseline %q, z %v; want a constrained candidate against an unconstrained one, z 0: %s", rep.Chosen, rep.Baseline, rep.Z, rep)
	}
	// Recount b and c: the winner's fold partitions and the baseline's
	// partition of the whole graph on every fold's held-out pairs.
	bm, err := New(base.Method)
	if err != nil {
		t.Fatal(err)
	}
	bres, err := Run(ctx, bm, &Problem{Graph: g, K: 2}, s)
	if err != nil {
		t.Fatal(err)
	}
	wm := autoCandidates(false, g.N(), 2)
	var method Method
	for _, c := range wm {
		if c.name == win.Name {
			method = c.method
		}
	}
	if win.Name == "fgpwc" || win.Name == "fgpwc-dw" {
		t.Skipf("the winner %s shares a basis inside auto; recounting it needs that basis", win.Name)
	}
	train, test := fgpwcSplit(set.Pairs, AutoDefaultFolds, s.Seed)
	b, c := 0, 0
	for f := range train {
		r, err := Run(ctx, method, &Problem{Graph: g, K: 2, Constraints: &constraint.Set{N: g.N(), Pairs: train[f]}}, &Settings{Seed: s.Seed, Restarts: 5})
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range test[f] {
			sw := satisfied([]constraint.Pair{q}, r.Labels) == 1
			sb := satisfied([]constraint.Pair{q}, bres.Labels) == 1
			if sw && !sb {
				b++
			}
			if sb && !sw {
				c++
			}
		}
	}
	if win.B != b || win.C != c || win.B <= win.C {
		t.Fatalf("%s against %s: report b = %d, c = %d; recounted %d, %d (want b > c)", win.Name, base.Name, win.B, win.C, b, c)
	}
	if d := float64(win.B-win.C) - (win.Score-base.Score)*float64(rep.HeldOut); math.Abs(d) > 1e-9 {
		t.Errorf("b − c = %d, the difference of the satisfied counts is %v", win.B-win.C, (win.Score-base.Score)*float64(rep.HeldOut))
	}
	if math.Abs(win.McNemar-autoMcNemarZ(b, c)) > 1e-15 {
		t.Errorf("statistic %v, want %v", win.McNemar, autoMcNemarZ(b, c))
	}

	t.Run("insignificant", func(t *testing.T) {
		res, err := Run(ctx, Auto{Z: win.McNemar + 0.01}, p, s)
		if err != nil {
			t.Fatal(err)
		}
		r := res.Report.(*AutoReport)
		if r.Chosen != base.Name || !strings.Contains(r.Why, "but not significantly") || !strings.Contains(r.Why, win.Name) {
			t.Fatalf("chose %s (want the baseline %s); why = %q", r.Chosen, base.Name, r.Why)
		}
		for i := range bres.Labels {
			if res.Labels[i] != bres.Labels[i] {
				t.Fatalf("node %d: auto %d, %s run directly %d", i, res.Labels[i], base.Name, bres.Labels[i])
			}
		}
	})
	t.Run("significant", func(t *testing.T) {
		res, err := Run(ctx, Auto{Z: win.McNemar / 2}, p, s)
		if err != nil {
			t.Fatal(err)
		}
		r := res.Report.(*AutoReport)
		if r.Chosen != win.Name || !strings.Contains(r.Why, "significantly") || strings.Contains(r.Why, "not significantly") {
			t.Fatalf("chose %s (want %s); why = %q", r.Chosen, win.Name, r.Why)
		}
		for i := range strict.Labels {
			if res.Labels[i] != strict.Labels[i] {
				t.Fatalf("node %d: %d, under the strict rule %d", i, res.Labels[i], strict.Labels[i])
			}
		}
	})
}

// satisfied (for the tests: auto counts with autoPairTable) returns how many of pairs the partition labels satisfies
// (a must-link inside one cluster, a cannot-link across two).
func satisfied(pairs []constraint.Pair, labels []int) int {
	n := 0
	for _, q := range pairs {
		if pairSatisfied(q, labels) {
			n++
		}
	}
	return n
}

// The Folds knob's documentation (tether methods auto) names the default
// number, which is a constant: the two must agree.
func TestAutoFoldsDocNamesDefault(t *testing.T) {
	f, _ := reflect.TypeFor[Auto]().FieldByName("Folds")
	if want := fmt.Sprintf("(0: AutoDefaultFolds, %d)", AutoDefaultFolds); !strings.Contains(f.Tag.Get("doc"), want) {
		t.Errorf("Folds doc %q lacks %q", f.Tag.Get("doc"), want)
	}
}

// autoMoons is ExampleAuto's problem: 150 moons points (noise 0.12, seed
// 5, 6), their default graph and 60 uniform pairs (seed 5, 7), on which
// ml-noa-ssc wins.
func autoMoons(t *testing.T) (*mat.Dense, *graph.Graph, *constraint.Set) {
	t.Helper()
	x, truth, err := synth.Moons(150, 0.12, rand.NewPCG(5, 6))
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(context.Background(), x, graph.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	set, err := constraint.UniformPairs(truth, 60, rand.NewPCG(5, 7))
	if err != nil {
		t.Fatal(err)
	}
	return x, g, set
}
