package cluster

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// TestAutoScoresByHand recomputes every candidate's score independently:
// the folds are rebuilt with fgpwcSplit, each candidate is run through Run
// on the training pairs, and the held-out pairs it satisfies are counted
// here; the report must match, the choice must be the highest score (ties
// to the earlier), and the result must be the chosen method's own Run on
// the whole problem with the same Settings.
func TestAutoScoresByHand(t *testing.T) {
	g, truth := roBlobs(t, 150, 3, 1.4, 7)
	set, err := constraint.UniformPairs(truth, 120, rand.NewPCG(7, 7))
	if err != nil {
		t.Fatal(err)
	}
	p := &Problem{Graph: g, K: 3, Constraints: set}
	s := &Settings{Seed: 11}
	res, err := Run(context.Background(), Auto{}, p, s)
	if err != nil {
		t.Fatal(err)
	}
	rep, ok := res.Report.(*AutoReport)
	if !ok {
		t.Fatalf("Report is %T, want *AutoReport", res.Report)
	}
	if rep.Folds != 3 || rep.HeldOut != 120 || rep.Supervision != "pairs" {
		t.Fatalf("report folds %d, held out %d, supervision %s; want 3, 120, pairs", rep.Folds, rep.HeldOut, rep.Supervision)
	}
	train, test := fgpwcSplit(set.Pairs, 3, s.Seed)
	cands := autoCandidates(false, 3)
	if len(rep.Candidates) != len(cands) {
		t.Fatalf("%d candidates reported, want %d", len(rep.Candidates), len(cands))
	}
	best := 0
	for ci, c := range cands {
		m := c.method
		total := 0
		for f := range train {
			fp := &Problem{Graph: g, K: 3, Constraints: &constraint.Set{N: g.N(), Pairs: train[f]}}
			if !c.supervised {
				fp.Constraints = nil
			}
			fs := s
			if c.supervised {
				fs = &Settings{Seed: s.Seed, Restarts: 5} // auto's fold fits
			}
			r, err := Run(context.Background(), m, fp, fs)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			for _, q := range test[f] {
				if (r.Labels[q.I] == r.Labels[q.J]) == (q.Kind == constraint.MustLink) {
					total++
				}
			}
		}
		want := float64(total) / 120
		got := rep.Candidates[ci]
		// FGPWC reuses one basis in auto; the basis is the same numbers as
		// its own embedding, so the counts agree exactly.
		if got.Name != c.name || math.Abs(got.Score-want) > 1e-12 {
			t.Errorf("candidate %d: %s score %v, recomputed %s %v", ci, got.Name, got.Score, c.name, want)
		}
		if want > rep.Candidates[best].Score+1e-12 {
			best = ci
		}
	}
	if rep.Chosen != cands[best].name {
		t.Errorf("chose %s, the highest score is %s's", rep.Chosen, cands[best].name)
	}
	direct, err := Run(context.Background(), cands[best].method, p, s)
	if err != nil {
		t.Fatal(err)
	}
	for i := range direct.Labels {
		if direct.Labels[i] != res.Labels[i] {
			t.Fatalf("node %d: auto %d, %s run directly %d", i, res.Labels[i], rep.Chosen, direct.Labels[i])
		}
	}
	if !strings.HasPrefix(res.Warnings[0], "auto: chose "+rep.Chosen) {
		t.Errorf("first warning %q does not say what was chosen", res.Warnings[0])
	}
	if _, err := json.Marshal(rep); err != nil {
		t.Errorf("report does not encode as JSON: %v", err)
	}
}

// TestAutoKeepsUnconstrained checks the tie rule: on two 10-cliques
// joined by one weak edge, NJW's partition is the two cliques, and
// constraints drawn from that partition are all satisfied by it (score 1).
// No candidate can score more, so the tie keeps NJW, and the report says
// that no constrained candidate did better.
func TestAutoKeepsUnconstrained(t *testing.T) {
	var edges []graph.Edge
	for a := 0; a < 2; a++ {
		for i := 0; i < 10; i++ {
			for j := i + 1; j < 10; j++ {
				edges = append(edges, graph.Edge{I: 10*a + i, J: 10*a + j, W: 1})
			}
		}
	}
	edges = append(edges, graph.Edge{I: 0, J: 10, W: 0.01})
	g, err := graph.FromEdges(20, edges)
	if err != nil {
		t.Fatal(err)
	}
	truth := make([]int, 20)
	for i := 10; i < 20; i++ {
		truth[i] = 1
	}
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
	for f := 0; f < 3; f++ {
		size := L / 3
		if f < L%3 {
			size++
		}
		want += size * (L - size)
	}
	if rep.Supervision != "labels" || rep.HeldOut != want || rep.Candidates[1].Name != "labelprop" {
		t.Errorf("supervision %s, held out %d (want %d), second candidate %s", rep.Supervision, rep.HeldOut, want, rep.Candidates[1].Name)
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
}
