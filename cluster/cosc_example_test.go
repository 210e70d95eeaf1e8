package cluster_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/metrics"
)

// COSC on two cliques joined by a weak edge, with the pairs of four labelled
// nodes: the split satisfies every constraint and is the least Ncut,
// 2·0.2/30.2 = 0.0132 (cut 0.2, each side of volume 30.2). Three mutually
// cannot-linked nodes admit no 2-way partition: an error names the cycle.
func ExampleCOSC() {
	g, labels, truth := pwTwoCliques()
	set := constraint.FromLabels(labels)
	p := &cluster.Problem{Graph: g, K: 2, Constraints: set}
	ctx := context.Background()
	res, err := cluster.Run(ctx, cluster.COSC{}, p, &cluster.Settings{Seed: 1})
	if err != nil {
		panic(err)
	}
	ari, _ := metrics.ARI(truth, res.Labels)
	ml, cl := constraint.Violations(set, res.Labels)
	fmt.Printf("ARI %.2f, Ncut %.4f, violations %d\n", ari, res.Objective, ml+cl)
	odd := &constraint.Set{N: 12, Pairs: []constraint.Pair{
		{I: 0, J: 6, Kind: constraint.CannotLink},
		{I: 6, J: 11, Kind: constraint.CannotLink},
		{I: 11, J: 0, Kind: constraint.CannotLink},
	}}
	_, err = cluster.Run(ctx, cluster.COSC{}, &cluster.Problem{Graph: g, K: 2, Constraints: odd}, nil)
	fmt.Println(errors.Is(err, cluster.ErrInvalid))
	// Output:
	// ARI 1.00, Ncut 0.0132, violations 0
	// true
}
