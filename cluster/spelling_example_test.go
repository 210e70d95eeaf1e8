package cluster_test

import (
	"context"
	"fmt"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/graph"
)

// Settings.Spelling names a remedy as the caller's users set it: the
// library's alone by default, then tether's flag with the command line's
// dataset.Spelling, as tether cluster passes it. COSC refuses a graph
// without edges.
func ExampleSettings_spelling() {
	g, err := graph.FromEdges(4, nil)
	if err != nil {
		panic(err)
	}
	p := &cluster.Problem{Graph: g, K: 2}
	for _, sp := range []cluster.Spelling{nil, dataset.Spelling{Front: "tether", CommandLine: true}} {
		_, err := cluster.Run(context.Background(), cluster.COSC{}, p, &cluster.Settings{Spelling: sp})
		fmt.Println(err)
	}
	// Output:
	// cluster: invalid problem: graph: isolated node: cosc: the graph has no edge, so node 0 and every other node has degree 0: add self loops (graph.WithSelfLoops) or drop the nodes of degree 0
	// cluster: invalid problem: graph: isolated node: cosc: the graph has no edge, so node 0 and every other node has degree 0: add self loops (graph.WithSelfLoops; tether: -self-loops) or drop the nodes of degree 0
}
