package cluster_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// CPCA on four points (±3, ±1) whose classes differ in the second feature,
// the one of smaller variance. PCA keeps the first feature (variance 9);
// two must-links along it and one cannot-link across the classes make the
// second the leading cPCA direction (eigenvalue 1 + 4 = 5), and k-means
// on it finds the classes.
func ExampleCPCA() {
	x := mat.NewDense(4, 2, []float64{-3, -1, 3, -1, -3, 1, 3, 1})
	cons := &constraint.Set{N: 4, Pairs: []constraint.Pair{
		{I: 0, J: 1, Kind: constraint.MustLink},
		{I: 2, J: 3, Kind: constraint.MustLink},
		{I: 0, J: 2, Kind: constraint.CannotLink},
	}}
	ctx := context.Background()
	for _, c := range []*constraint.Set{nil, cons} {
		res, err := cluster.Run(ctx, cluster.CPCA{Dim: 1}, &cluster.Problem{Features: x, K: 2, Constraints: c}, &cluster.Settings{Seed: 1})
		if err != nil {
			panic(err)
		}
		ml, cl := c.Count()
		fmt.Printf("%d must-links, %d cannot-links: eigenvalue %.1f, labels %v\n", ml, cl, res.Eigenvalues[0], res.Labels)
	}
	// Output:
	// 0 must-links, 0 cannot-links: eigenvalue 9.0, labels [0 1 0 1]
	// 2 must-links, 1 cannot-links: eigenvalue 5.0, labels [1 1 0 0]
}

// CLPP on the same points joined by a complete graph of unit weights: the
// must-links add 1 to the affinity of the pairs along the first feature,
// so that the projection of least locality cost J(a) = 216a₁² + 16a₂² per
// unit aᵀXᵀD̄Xa = 144a₁² + 16a₂² is the second feature (λ = 1 against 1.5).
func ExampleCLPP() {
	x := mat.NewDense(4, 2, []float64{-3, -1, 3, -1, -3, 1, 3, 1})
	var edges []graph.Edge
	for i := 0; i < 4; i++ {
		for j := i + 1; j < 4; j++ {
			edges = append(edges, graph.Edge{I: i, J: j, W: 1})
		}
	}
	g, err := graph.FromEdges(4, edges)
	if err != nil {
		panic(err)
	}
	cons := &constraint.Set{N: 4, Pairs: []constraint.Pair{
		{I: 0, J: 1, Kind: constraint.MustLink},
		{I: 2, J: 3, Kind: constraint.MustLink},
	}}
	res, err := cluster.Run(context.Background(), cluster.CLPP{Dim: 2}, &cluster.Problem{Features: x, Graph: g, K: 2, Constraints: cons}, &cluster.Settings{Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("λ = %.2f, %.2f\n", res.Eigenvalues[0], res.Eigenvalues[1])
	fmt.Printf("first projected column: %.2f\n", mat.Col(nil, 0, res.Embedding))
	// Output:
	// λ = 1.00, 1.50
	// first projected column: [-0.25 -0.25 0.25 0.25]
}
