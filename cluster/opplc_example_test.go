package cluster_test

import (
	"context"
	"fmt"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// OPPLC reads five mentions in order. Node 3 would join {0, 1} through its
// strong link to node 1, but a cannot-link between 1 and 3 bars that
// cluster, so it links to node 2 instead; node 4 is weakly linked to
// everything before it and starts a third cluster.
func ExampleOPPLC() {
	g, err := graph.FromEdges(5, []graph.Edge{
		{I: 0, J: 1, W: 0.9}, {I: 0, J: 2, W: 0.1}, {I: 1, J: 2, W: 0.2},
		{I: 0, J: 3, W: 0.6}, {I: 1, J: 3, W: 0.7}, {I: 2, J: 3, W: 0.4},
		{I: 0, J: 4, W: 0.1}, {I: 2, J: 4, W: 0.3}, {I: 3, J: 4, W: 0.2},
	})
	if err != nil {
		panic(err)
	}
	cl := &constraint.Set{N: 5, Pairs: []constraint.Pair{{I: 1, J: 3, Kind: constraint.CannotLink}}}
	m := cluster.OPPLC{Alpha: 1, Theta: 0.5}
	res, err := cluster.Run(context.Background(), m, &cluster.Problem{Graph: g, Constraints: cl}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println("labels:", res.Labels, "k:", res.K)
	fmt.Printf("weight of the links: %.2f\n", res.Objective)
	// Output:
	// labels: [0 0 1 1 2] k: 3
	// weight of the links: 1.30
}
