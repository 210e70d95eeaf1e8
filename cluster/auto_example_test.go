package cluster_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// Auto on two moons, where the unconstrained NJW partition cuts across
// the moons: 60 pairs drawn from the truth. It reports every candidate's
// cross-validated score and returns the winner's partition.
func ExampleAuto() {
	x, truth, err := synth.Moons(150, 0.12, rand.NewPCG(5, 6))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	g, err := graph.Build(ctx, x, graph.DefaultSpec())
	if err != nil {
		panic(err)
	}
	set, err := constraint.UniformPairs(truth, 60, rand.NewPCG(5, 7))
	if err != nil {
		panic(err)
	}
	res, err := cluster.Run(ctx, cluster.Auto{}, &cluster.Problem{Graph: g, K: 2, Constraints: set}, &cluster.Settings{Seed: 1})
	if err != nil {
		panic(err)
	}
	rep := res.Report.(*cluster.AutoReport)
	for _, c := range rep.Candidates {
		fmt.Printf("%-12s %.4f\n", c.Name, c.Score)
	}
	ari, _ := metrics.ARI(truth, res.Labels)
	fmt.Printf("chose %s, ARI = %.2f\n", rep.Chosen, ari)
	// Output:
	// njw          0.8833
	// ncut         0.8833
	// usc          0.8833
	// bethe        0.6000
	// sl           0.9667
	// ml-noa-ssc   0.9833
	// mcl-noa-ssc  0.9833
	// sscka        0.8833
	// csc          0.9833
	// fast-ge      0.9833
	// fast-ge2     0.9833
	// fast-ge2-bh  0.9667
	// cscap        0.9833
	// fgpwc-dw     0.9000
	// fgpwc        0.9000
	// chose ml-noa-ssc, ARI = 0.97
}
