package cluster_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/metrics"
)

// CSP on two cliques joined by a weak edge, with the pairs of four labelled
// nodes: the cheapest feasible vector splits the cliques. α at its bound
// λ_max(Q̄)·vol leaves no feasible vector.
func ExampleCSP() {
	g, labels, truth := pwTwoCliques()
	p := &cluster.Problem{Graph: g, K: 2, Constraints: constraint.FromLabels(labels)}
	ctx := context.Background()
	res, err := cluster.Run(ctx, cluster.CSP{}, p, &cluster.Settings{Seed: 1})
	if err != nil {
		panic(err)
	}
	ari, _ := metrics.ARI(truth, res.Labels)
	fmt.Printf("ARI %.2f, λ = %.4f, cost vᵀL̄v = %.4f\n", ari, res.Eigenvalues[0], res.Objective)
	_, err = cluster.Run(ctx, cluster.CSP{AlphaFraction: 1}, p, nil)
	fmt.Println(errors.Is(err, cluster.ErrInvalid))
	// Output:
	// ARI 1.00, λ = 1.4595, cost vᵀL̄v = 10.1770
	// true
}
