package cluster

import (
	"context"
	"strings"
	"testing"

	"github.com/tether-sc/tether/graph"
)

// TestRegularizeIgnoredWarns: Problem.Regularize set (any value but the
// zero one) for a graph method that does not declare Uses.Regularizes
// gives a warning naming it, as Run does for the other side information a
// method ignores; the methods that declare it, and the zero value, give
// none. Before, the library ignored it without a word (only tether
// cluster refused -regularize).
func TestRegularizeIgnoredWarns(t *testing.T) {
	g, _, pairs, labels := sbmSupervised(t)
	const warned = "ignores Problem.Regularize"
	regs := []struct {
		reg    graph.Regularization
		detail string
	}{
		{graph.Regularization{}, ""},
		{graph.Regularization{Mode: graph.RegNone}, "(mode " + graph.RegNone.String() + ")"},
		{graph.Regularization{Mode: graph.RegOn, Tau: 20, Complete: true}, "(mode " + graph.RegOn.String() + ", τ = 20, complete)"},
		{graph.Regularization{Tau: 1e-200}, "τ = 1e-200"}, // Run rescales tiny weights and τ with them: named as given
	}
	for _, m := range []Method{NJW{}, ShiMalik{}, NewFGPWC(), SpectralLearning{}, HBisection{}, SSCKA{}} {
		u := m.Uses()
		for _, r := range regs {
			gr := g
			if r.reg.Tau == 1e-200 {
				gr = weightsTimes(t, g, 1e-200)
			}
			p := &Problem{Graph: gr, K: 2, Regularize: r.reg}
			switch {
			case u.Supervision&Pairs != 0:
				p.Constraints = pairs
			case u.Supervision&LabelSet != 0:
				p.Labels = labels
			}
			res, err := Run(context.Background(), m, p, &Settings{Seed: 1})
			if err != nil {
				t.Fatalf("%s, %+v: %v", m.Name(), r.reg, err)
			}
			w := strings.Join(res.Warnings, "\n")
			want := r.reg != (graph.Regularization{}) && !u.Regularizes
			if got := strings.Contains(w, m.Name()+" "+warned); got != want {
				t.Errorf("%s, %+v: warning %v, want %v (%q)", m.Name(), r.reg, got, want, res.Warnings)
			}
			if want && !strings.Contains(w, r.detail) {
				t.Errorf("%s, %+v: warning %q lacks %q", m.Name(), r.reg, w, r.detail)
			}
		}
	}
}
