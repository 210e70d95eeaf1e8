package cluster_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
)

// Co-clustering four documents × five words: documents 0–1 use words 0–2,
// documents 2–3 words 3–4, and document 1 borrows word 3. Labels lists the
// document clusters first (nodes 0–3), then the word clusters (nodes 4–8).
// A cannot-link between documents 0 and 1 and a must-link between 1 and 2,
// weighted by γ = 2 (the default 0.3, and any γ up to 1.5, is too weak to
// move a document of this tiny matrix), move document 1 to the other
// co-cluster.
func ExampleCoCluster() {
	a := mat.NewDense(4, 5, []float64{
		2, 1, 1, 0, 0,
		1, 2, 1, 1.5, 0,
		0, 0, 0, 2, 1,
		0, 0.2, 0, 1, 2,
	})
	ctx := context.Background()
	res, err := cluster.Run(ctx, cluster.CoCluster{}, &cluster.Problem{Bipartite: a, K: 2}, &cluster.Settings{Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println("documents", res.Labels[:4], "words", res.Labels[4:], fmt.Sprintf("σ₂ = %.4f", res.Eigenvalues[0]))
	cons := &constraint.Set{N: 9, Pairs: []constraint.Pair{
		{I: 0, J: 1, Kind: constraint.CannotLink},
		{I: 1, J: 2, Kind: constraint.MustLink},
	}}
	res, err = cluster.Run(ctx, cluster.CoCluster{Gamma: 2}, &cluster.Problem{Bipartite: a, K: 2, Constraints: cons}, &cluster.Settings{Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println("documents", res.Labels[:4], "words", res.Labels[4:])
	// Output:
	// documents [1 1 0 0] words [1 1 1 0 0] σ₂ = 0.8498
	// documents [0 1 1 1] words [0 0 0 1 1]
}
