package cluster_test

import (
	"context"
	"fmt"

	"github.com/tether-sc/tether/cluster"
)

// pairs is a document for OPPLCOnline: x_ij = (similarity, 0) and
// x_i = (0, 1), so w₁ weighs pairs and w₂ the new-cluster score.
type pairs struct {
	sim [][]float64 // sim[i][j], j < i
}

func (p pairs) Len() int                { return len(p.sim) }
func (p pairs) Pair(i, j int) []float64 { return []float64{p.sim[i][j], 0} }
func (p pairs) Node(i int) []float64    { return []float64{0, 1} }

// OPPLCOnline learns from passes over one small document whose mentions
// 0, 2, 3 and 1, 4 corefer, until a pass makes no mistake, then
// partitions it. (θ left [0, 1) in pass 2 and was clamped to 0.)
func ExampleOPPLCOnline() {
	doc := pairs{sim: [][]float64{
		{},
		{0.1},
		{0.9, 0.2},
		{0.8, 0.1, 0.7},
		{0.2, 0.9, 0.1, 0.3},
	}}
	truth := []int{0, 1, 0, 0, 1}
	m := cluster.NewOPPLCOnline(2)
	for pass := range 5 {
		up, err := m.Learn(context.Background(), doc, nil, truth)
		if err != nil {
			panic(err)
		}
		fmt.Printf("pass %d: %d mistakes, w = %.3f, α = %.3f, θ = %.3f\n", pass, up.Mistakes(), m.W, m.Alpha, m.Theta)
	}
	labels, err := m.Predict(context.Background(), doc, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println("labels:", labels)
	// Output:
	// pass 0: 1 mistakes, w = [0.165 -0.499], α = 1.138, θ = 0.334
	// pass 1: 2 mistakes, w = [0.215 -0.323], α = 1.484, θ = 0.724
	// pass 2: 3 mistakes, w = [1.223 -0.281], α = 1.661, θ = 0.000
	// pass 3: 2 mistakes, w = [1.379 0.196], α = 1.820, θ = 0.000
	// pass 4: 0 mistakes, w = [1.379 0.196], α = 1.820, θ = 0.000
	// labels: [0 1 0 0 1]
}
