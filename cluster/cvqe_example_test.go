package cluster_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
)

// CVQE on six points of a line, 0 1 2 | 10 11 12. Without constraints the
// two groups are found (CVQE = ½·4, the k-means error). Add a must-link
// 2–10 and cannot-links 0–2 and 10–12: leaving 2 with 0 and 1 would cost
// half the squared distance between the centroids (about 40), so 2 joins
// 10, 11, 12. The cannot-link 10–12 stays violated; it is charged
// ½‖μ₀ − μ_h(0)‖² and pulls μ₀ toward the other centroid, to about
// (35 + 0.5)/5 = 7.1: CVQE ≈ ½(5.1² + 2.9² + 3.9² + 4.9² + 2·0.5² + 6.6²)
// ≈ 58.9 (the run stops when the assignment repeats, before μ₀ has quite
// settled).
func ExampleCVQE() {
	x := mat.NewDense(6, 1, []float64{0, 1, 2, 10, 11, 12})
	cons := &constraint.Set{N: 6, Pairs: []constraint.Pair{
		{I: 2, J: 3, Kind: constraint.MustLink},
		{I: 0, J: 2, Kind: constraint.CannotLink},
		{I: 3, J: 5, Kind: constraint.CannotLink},
	}}
	ctx := context.Background()
	for _, c := range []*constraint.Set{nil, cons} {
		res, err := cluster.Run(ctx, cluster.CVQE{}, &cluster.Problem{Features: x, K: 2, Constraints: c}, &cluster.Settings{Seed: 1})
		if err != nil {
			panic(err)
		}
		ml, cl := c.Count()
		fmt.Printf("%d must-links, %d cannot-links: labels %v, CVQE %.2f\n", ml, cl, res.Labels, res.Objective)
	}
	// Output:
	// 0 must-links, 0 cannot-links: labels [0 0 0 1 1 1], CVQE 2.00
	// 1 must-links, 2 cannot-links: labels [1 1 0 0 0 0], CVQE 58.88
}
