package cluster

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// Constraint weights beyond about 1e150 overflow CCSR's fit of M (its
// whitened iterate grows with them): the error wraps ErrNumerical, says
// overflow and names the weights and the remedy. It said "the fitted M is
// 0" (ErrInvalid), which blamed the must-links, for weights from 1e170 up
// to just below 1e308 (where the projection's failure already said
// ErrNumerical: TestOverflowWrapsErrNumerical). Weights of 1e160 and mixed
// ones whose largest is in range still cluster the two triangles.
func TestCCSRWeightOverflowSaysSo(t *testing.T) {
	g, err := graph.FromEdges(6, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 1}, {I: 0, J: 2, W: 1}, {I: 3, J: 4, W: 1}, {I: 4, J: 5, W: 1}, {I: 3, J: 5, W: 1}, {I: 2, J: 3, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	problem := func(ml, cl float64) *Problem {
		return &Problem{Graph: g, K: 2, Constraints: &constraint.Set{N: 6, Pairs: []constraint.Pair{
			{I: 0, J: 5, Kind: constraint.CannotLink, Weight: cl},
			{I: 0, J: 1, Kind: constraint.MustLink, Weight: ml},
		}}}
	}
	for _, w := range []float64{1e200, 1e300} {
		_, err := CCSR{}.Partition(context.Background(), problem(w, w), &Settings{Seed: 1})
		if !errors.Is(err, ErrNumerical) || errors.Is(err, ErrInvalid) {
			t.Fatalf("weights %g: error %v, want one wrapping ErrNumerical (and not ErrInvalid)", w, err)
		}
		msg := err.Error()
		for _, want := range []string{"ccsr: floating-point overflow in the M solve", "constraint weights are too large", fmt.Sprintf("from %g to %g", w, w), "divide them all by the largest"} {
			if !strings.Contains(msg, want) {
				t.Errorf("weights %g: error %q, want it to say %q", w, msg, want)
			}
		}
		if strings.Contains(msg, "fitted M is 0") {
			t.Errorf("weights %g: error %q blames M = 0", w, msg)
		}
	}
	for _, c := range [][2]float64{{1e160, 1e160}, {1e140, 1}} {
		res, err := CCSR{}.Partition(context.Background(), problem(c[0], c[1]), &Settings{Seed: 1})
		if err != nil {
			t.Fatalf("weights %g, %g: %v", c[0], c[1], err)
		}
		if l := res.Labels; l[0] != l[1] || l[0] == l[5] {
			t.Errorf("weights %g, %g: labels %v, want 0 with 1 and apart from 5", c[0], c[1], l)
		}
	}
}
