package cluster_test

import (
	"context"
	"fmt"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/metrics"
)

// L1CSC on two cliques joined by a weak edge, with the pairs of four
// labelled nodes: the sign of the final vector is the two cliques, and no
// constraint is violated. A cannot-link inside a clique is outvoted by the
// graph at a small λ: the ℓ1 penalty lets it be violated.
func ExampleL1CSC() {
	g, labels, truth := pwTwoCliques()
	set := constraint.FromLabels(labels)
	ctx := context.Background()
	res, err := cluster.Run(ctx, cluster.L1CSC{}, &cluster.Problem{Graph: g, K: 2, Constraints: set}, &cluster.Settings{Seed: 1})
	if err != nil {
		panic(err)
	}
	ari, _ := metrics.ARI(truth, res.Labels)
	ml, cl := constraint.Violations(set, res.Labels)
	fmt.Printf("ARI %.2f, violations %d\n", ari, ml+cl)
	noisy := &constraint.Set{N: 12, Pairs: append(append([]constraint.Pair(nil), set.Pairs...), constraint.Pair{I: 2, J: 3, Kind: constraint.CannotLink})}
	res, err = cluster.Run(ctx, cluster.L1CSC{Lambda: 0.1}, &cluster.Problem{Graph: g, K: 2, Constraints: noisy}, &cluster.Settings{Seed: 1})
	if err != nil {
		panic(err)
	}
	ari, _ = metrics.ARI(truth, res.Labels)
	ml, cl = constraint.Violations(noisy, res.Labels)
	fmt.Printf("with a wrong cannot-link: ARI %.2f, violations %d\n", ari, ml+cl)
	// Output:
	// ARI 1.00, violations 0
	// with a wrong cannot-link: ARI 1.00, violations 1
}
