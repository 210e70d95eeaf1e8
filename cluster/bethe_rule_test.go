package cluster

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
)

// TestBetheRuleEstimatesK checks the k estimate of both rules on DC-SBM
// graphs well above the detectability threshold (c = 10, c_out = 0.1·c_in,
// k ≤ 4: c_in − c_out ≥ 2.5 k√c), plain (γ = 0) and heterogeneous
// (γ = 2.5); docs/results/kestimate has the full grid. It also checks
// that each rule's r is the one documented.
func TestBetheRuleEstimatesK(t *testing.T) {
	for _, tc := range []struct {
		k     int
		gamma float64
	}{{2, 0}, {4, 0}, {2, 2.5}, {4, 2.5}} {
		cin := float64(tc.k) * 10 / (1 + float64(tc.k-1)*0.1)
		g, _, _, err := synth.DCSBM(1500, tc.k, cin, 0.1*cin, tc.gamma, rand.NewPCG(uint64(tc.k), 11))
		if err != nil {
			t.Fatal(err)
		}
		for _, rule := range []BetheRule{BetheRuleMean, BetheRuleNB} {
			res, err := Run(context.Background(), BetheHessian{Rule: rule}, &Problem{Graph: g}, &Settings{Seed: 1, Restarts: 1})
			if err != nil {
				t.Fatal(err)
			}
			if res.K != tc.k {
				t.Errorf("k=%d γ=%g rule %v: estimated k = %d", tc.k, tc.gamma, rule, res.K)
			}
		}
		if got, want := BetheRuleNB.R(g), graph.BetheRNonBacktracking(g); got != want {
			t.Errorf("nb: r = %v, want %v", got, want)
		}
		if got, want := BetheRuleMean.R(g), graph.BetheR(g); got != want {
			t.Errorf("mean: r = %v, want %v", got, want)
		}
	}
	var r BetheRule
	if err := r.UnmarshalText([]byte("NB")); err != nil || r != BetheRuleNB {
		t.Errorf("UnmarshalText(NB) = %v, %v", r, err)
	}
	if err := r.UnmarshalText([]byte("median")); !errors.Is(err, ErrInvalid) {
		t.Errorf("UnmarshalText(median): err = %v, want ErrInvalid", err)
	}
	g, _ := plantedCliques(t, []int{5, 5}, 1)
	if _, err := Run(context.Background(), BetheHessian{Rule: 7}, &Problem{Graph: g, K: 2}, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("Rule 7: err = %v, want ErrInvalid", err)
	}
}
