package cluster_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/cluster"
)

// Power-law means on feature rows: one big group, one small group and an
// outlier. k is found (K = 0); α + 3θ < 1 lets clusters beyond the first
// form (thesis eq. 5.2.9).
func ExamplePLMeans() {
	x := mat.NewDense(9, 2, []float64{
		0, 0, 0.1, 0, 0, 0.1, 0.1, 0.1, 0.05, 0.05, // five points near the origin
		3, 3, 3.1, 3, 3, 3.1, // three near (3, 3)
		-3, 3, // an outlier
	})
	m := cluster.PLMeans{Kernel: cluster.PLFeatures, Alpha: 0.3, Theta: 0.05, Sigma: 1}
	res, err := cluster.Run(context.Background(), m, &cluster.Problem{Features: x}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("k =", res.K)
	fmt.Println("labels:", res.Labels)
	fmt.Printf("objective %.4f after %d sweeps\n", res.Objective, res.Iterations)
	// Output:
	// k = 3
	// labels: [0 0 0 0 0 1 1 1 2]
	// objective 9.6711 after 2 sweeps
}
