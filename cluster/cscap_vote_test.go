package cluster

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/metrics"
)

// cscapVoteCase is three blobs of 90 points on a 10-NN RBF graph with
// count oracle pairs, a share flip of them flipped.
func cscapVoteCase(t *testing.T, seed uint64, count int, flip float64) (p *Problem, truth []int, flipped []int) {
	t.Helper()
	rnd := rand.New(rand.NewPCG(seed, 17))
	x, truth := fgpwcBlobs(rnd, 90, 2, 3, 3)
	g := fgpwcKNNGraph(t, x, 10)
	clean := fgpwcOracle(rnd, truth, count)
	noisy, flipped, err := constraint.FlipPairs(clean, flip, rand.NewPCG(seed, 18))
	if err != nil {
		t.Fatal(err)
	}
	return &Problem{Graph: g, K: 3, Constraints: noisy}, truth, flipped
}

func TestCSCAPVoteWeightsAsPreprocessing(t *testing.T) {
	// Default CSCAP must equal CSCAP{NoVote} run on the pairs reweighted
	// independently by constraint.VoteWeights on the graph's weights (RBF,
	// in [0, 1], so denseSim does not rescale), label for label.
	for _, seed := range []uint64{1, 2, 3} {
		p, _, _ := cscapVoteCase(t, seed, 80, 0.15)
		set, f, err := constraint.VoteWeights(context.Background(), p.Constraints, p.Graph.Weight, constraint.VoteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(f, func(x float64) bool { return x < 1 }) {
			t.Fatalf("seed %d: no constraint down-weighted: the case tests nothing", seed)
		}
		s := &Settings{Seed: seed}
		got, err := Run(context.Background(), CSCAP{}, p, s)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Run(context.Background(), CSCAP{NoVote: true}, &Problem{Graph: p.Graph, K: 3, Constraints: set}, s)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Labels, want.Labels) {
			t.Errorf("seed %d: default CSCAP differs from CSCAP{NoVote} on VoteWeights' pairs", seed)
		}
		if len(got.Warnings) == 0 {
			t.Errorf("seed %d: no warning about the down-weighted constraints", seed)
		}
	}
}

func TestCSCAPVoteNeedsEnoughPairs(t *testing.T) {
	// Below VoteMinPairs every constraint is used at full weight: the
	// default and NoVote give the same labels.
	p, _, _ := cscapVoteCase(t, 4, VoteMinPairs-1, 0.2)
	s := &Settings{Seed: 4}
	a, err := Run(context.Background(), CSCAP{}, p, s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(context.Background(), CSCAP{NoVote: true}, p, s)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Labels, b.Labels) {
		t.Error("labels differ below VoteMinPairs")
	}
}

func TestCSCAPVoteRobustness(t *testing.T) {
	// With 15% of 80 constraints flipped, the vote weights must not lower
	// the mean ARI over five draws (they leave the flipped pairs out).
	var on, off float64
	for seed := range uint64(5) {
		p, truth, _ := cscapVoteCase(t, 10+seed, 80, 0.15)
		s := &Settings{Seed: seed}
		for _, c := range []struct {
			m   CSCAP
			sum *float64
		}{{CSCAP{}, &on}, {CSCAP{NoVote: true}, &off}} {
			r, err := Run(context.Background(), c.m, p, s)
			if err != nil {
				t.Fatal(err)
			}
			ari, err := metrics.ARI(truth, r.Labels)
			if err != nil {
				t.Fatal(err)
			}
			*c.sum += ari / 5
		}
	}
	t.Logf("mean ARI: vote %.3f, no vote %.3f", on, off)
	if on < off-1e-9 {
		t.Errorf("mean ARI with vote weights %.3f < without %.3f", on, off)
	}
}
