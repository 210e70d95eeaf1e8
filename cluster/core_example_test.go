package cluster_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// Spectral Learning on two 4-cliques (nodes 0–7) with an isolated node 8
// must-linked to node 1: Run clusters the 8-node core and attaches node 8
// to its partner's cluster, with a warning. Strict mode gives the method
// the whole graph; CSP then refuses the isolated node, as before.
func ExampleDisconnected() {
	var edges []graph.Edge
	for c := 0; c < 2; c++ {
		for i := 0; i < 4; i++ {
			for j := i + 1; j < 4; j++ {
				edges = append(edges, graph.Edge{I: 4*c + i, J: 4*c + j, W: 1})
			}
		}
	}
	edges = append(edges, graph.Edge{I: 0, J: 4, W: 0.1})
	g, _ := graph.FromEdges(9, edges)
	cons := &constraint.Set{N: 9, Pairs: []constraint.Pair{
		{I: 8, J: 1, Kind: constraint.MustLink},
		{I: 2, J: 6, Kind: constraint.CannotLink},
	}}
	ctx := context.Background()
	res, err := cluster.Run(ctx, cluster.SpectralLearning{}, &cluster.Problem{Graph: g, K: 2, Constraints: cons}, &cluster.Settings{Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Labels[8] == res.Labels[1], res.Labels[8] != res.Labels[6])
	fmt.Println(res.Warnings[len(res.Warnings)-1])
	_, err = cluster.Run(ctx, cluster.CSP{}, &cluster.Problem{Graph: g, K: 2, Constraints: cons, Disconnected: cluster.DisconnectedStrict}, nil)
	fmt.Println(errors.Is(err, graph.ErrIsolated))
	// Output:
	// true true
	// sl: the graph has 1 isolated node outside its 8-node core (components below n/(4k) = 1.125): sl clustered the core and attached the 1 other node: 1 by must-links (Problem.Disconnected = strict refuses instead)
	// true
}
