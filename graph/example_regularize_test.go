package graph_test

import (
	"fmt"

	"github.com/tether-sc/tether/graph"
)

// A path 0–1–2 plus an isolated node 3: the plain L_sym is undefined, the
// default (auto) regularization applies τ = the mean degree, 1, and the
// regularized L_sym,τ = I − D_τ^{-1/2} W D_τ^{-1/2} has the isolated
// node's row of the identity.
func ExampleNewRegularizedLaplacian() {
	g, _ := graph.FromEdges(4, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 1}})
	_, err := graph.NewLaplacian(g, graph.Symmetric)
	fmt.Println(err != nil)
	reg, _ := graph.ParseRegularization("auto")
	ok, why := graph.NeedsRegularization(g, 2)
	tau := reg.TauFor(g, 2)
	fmt.Println(ok, why, tau)
	l, _ := graph.NewRegularizedLaplacian(g, graph.Symmetric, tau, false)
	m := graph.Dense(l)
	for i := 0; i < 4; i++ {
		fmt.Printf("%6.3f %6.3f %6.3f %6.3f\n", m.At(i, 0), m.At(i, 1), m.At(i, 2), m.At(i, 3))
	}
	// Output:
	// true
	// true 1 isolated node (the plain L_sym is undefined) 1
	//  1.000 -0.408  0.000  0.000
	// -0.408  1.000 -0.408  0.000
	//  0.000 -0.408  1.000  0.000
	//  0.000  0.000  0.000  1.000
}

// Two triangles joined by an edge (nodes 0–5), a pair {6, 7} and an
// isolated node 8. For k = 2, n/(4k) = 1.125: only the isolated node is
// outside the core. For k = 1 on 40 nodes, components below 10 nodes are
// small: a pair is, a 12-node component is not.
func ExampleCore() {
	g, _ := graph.FromEdges(9, []graph.Edge{
		{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 1}, {I: 0, J: 2, W: 1},
		{I: 3, J: 4, W: 1}, {I: 4, J: 5, W: 1}, {I: 3, J: 5, W: 1},
		{I: 2, J: 3, W: 1}, {I: 6, J: 7, W: 1},
	})
	fmt.Println(graph.Core(g, 2))
	fmt.Println(graph.SmallComponent(2, 40, 1), graph.SmallComponent(12, 40, 1))
	// Output:
	// [0 1 2 3 4 5 6 7]
	// true false
}
