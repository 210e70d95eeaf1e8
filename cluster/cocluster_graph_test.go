package cluster

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/graph"
)

// TestCoClusterGraphIgnored: a graph given beside the matrix (here the
// matrix's own bipartite graph, with its weights) is ignored by
// cocluster, and Run says so (ignored), as it says it of cpca's
// ("graph ignored"); the partition is the one without it, which gets no such
// warning. Before, the graph was ignored without a word.
func TestCoClusterGraphIgnored(t *testing.T) {
	a := coBlocks(12, 9, 3, 5)
	r, c := a.Dims()
	var edges []graph.Edge
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if v := a.At(i, j); v > 0 {
				edges = append(edges, graph.Edge{I: i, J: r + j, W: v})
			}
		}
	}
	g, err := graph.FromEdges(r+c, edges)
	if err != nil {
		t.Fatal(err)
	}
	const word = "cocluster: graph ignored"
	ctx := context.Background()
	bare, err := Run(ctx, CoCluster{}, &Problem{Bipartite: a, K: 3}, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	withG, err := Run(ctx, CoCluster{}, &Problem{Bipartite: a, Graph: g, K: 3}, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(bare.Warnings, func(w string) bool { return strings.Contains(w, "graph ignored") }) {
		t.Errorf("without a graph: warnings %q", bare.Warnings)
	}
	if !slices.ContainsFunc(withG.Warnings, func(w string) bool { return strings.HasPrefix(w, word) }) {
		t.Errorf("with a graph: warnings %q, want one starting %q", withG.Warnings, word)
	}
	if !slices.Equal(bare.Labels, withG.Labels) {
		t.Errorf("labels with the graph %v, without %v", withG.Labels, bare.Labels)
	}
	// k = 1, which Run answers without asking the method.
	one, err := Run(ctx, CoCluster{}, &Problem{Bipartite: a, Graph: g, K: 1}, &Settings{Seed: 1})
	if err != nil || !slices.ContainsFunc(one.Warnings, func(w string) bool { return strings.HasPrefix(w, word) }) {
		t.Errorf("Run with k = 1: %v, warnings %q", err, one.Warnings)
	}
}
