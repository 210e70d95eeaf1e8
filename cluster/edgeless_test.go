package cluster

import (
	"context"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// TestEdgelessGraphWarning: a graph without an edge between distinct
// nodes gives every partition a cut of 0, so the partition says nothing
// about the graph; Run warns, naming what it follows. It was returned
// with a note on the regularization only (ncut split six isolated nodes
// 5 + 1). Self loops are no edges between nodes; one edge ends the
// warning.
func TestEdgelessGraphWarning(t *testing.T) {
	loops := []graph.Edge{{I: 0, J: 0, W: 1}, {I: 3, J: 3, W: 2}}
	for _, tc := range []struct {
		name  string
		edges []graph.Edge
		m     Method
		cons  bool
		want  string // "" for no warning
	}{
		{"no edges, ncut", nil, ShiMalik{}, false, "ncut: the graph has no edge between distinct nodes (6 nodes), so every partition cuts nothing and the graph says nothing about the clusters: the partition is an arbitrary split"},
		{"self loops only, njw", loops, NJW{}, false, "njw: the graph has no edge between distinct nodes (6 nodes)"},
		{"no edges, constraints", nil, SpectralLearning{}, true, "sl: the graph has no edge between distinct nodes (6 nodes), so every partition cuts nothing and the graph says nothing about the clusters: the partition is the side information alone"},
		{"one edge", append(loops, graph.Edge{I: 1, J: 2, W: 1}), ShiMalik{}, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := graph.FromEdges(6, tc.edges)
			if err != nil {
				t.Fatal(err)
			}
			p := &Problem{Graph: g, K: 2}
			if tc.cons {
				p.Constraints = &constraint.Set{N: 6, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}, {I: 0, J: 5, Kind: constraint.CannotLink}}}
			}
			res, err := Run(context.Background(), tc.m, p, &Settings{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			for _, w := range res.Warnings {
				if strings.Contains(w, "no edge between distinct nodes") {
					got = w
				}
			}
			if tc.want == "" && got != "" || tc.want != "" && !strings.HasPrefix(got, tc.want) {
				t.Errorf("warning %q, want %q (all: %q)", got, tc.want, res.Warnings)
			}
		})
	}
}
