package cluster_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/metrics"
)

// CCSR on two cliques joined by a weak edge, with the pairs of four
// labelled nodes, in a 2-dimensional embedding (u_1 and u_2 of L_sym): a
// near-exact fit of the 6 pairs. Cannot-links alone are an error (M = 0
// fits them exactly).
func ExampleCCSR() {
	g, labels, truth := pwTwoCliques()
	p := &cluster.Problem{Graph: g, K: 2, Constraints: constraint.FromLabels(labels)}
	ctx := context.Background()
	res, err := cluster.Run(ctx, cluster.CCSR{M: 2}, p, &cluster.Settings{Seed: 1})
	if err != nil {
		panic(err)
	}
	ari, _ := metrics.ARI(truth, res.Labels)
	fmt.Printf("ARI %.2f, m = %d, f(M*) = %.6f\n", ari, len(res.Eigenvalues), res.Objective)
	var cl constraint.Set
	cl.N = g.N()
	for _, q := range p.Constraints.Pairs {
		if q.Kind == constraint.CannotLink {
			cl.Pairs = append(cl.Pairs, q)
		}
	}
	_, err = cluster.Run(ctx, cluster.CCSR{M: 2}, &cluster.Problem{Graph: g, K: 2, Constraints: &cl}, nil)
	fmt.Println(errors.Is(err, cluster.ErrInvalid))
	// Output:
	// ARI 1.00, m = 2, f(M*) = 0.001035
	// true
}
