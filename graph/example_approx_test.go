package graph_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/graph"
)

func ExampleApproxKNN() {
	// 2000 points uniform in the unit cube of 8 dimensions.
	rng := rand.New(rand.NewPCG(1, 2))
	x := mat.NewDense(2000, 8, nil)
	for i := range 2000 {
		for j := range 8 {
			x.Set(i, j, rng.Float64())
		}
	}
	ctx := context.Background()
	nb, err := graph.ApproxKNN(ctx, x, 10, &graph.ApproxOptions{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Recall against exact search on every point (sample 0).
	r, rows, err := graph.SampleRecall(ctx, x, nb, 0, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("approximate: %v, recall@10 on %d points: %.3f\n", nb.Approximate, rows, r)
	// Output:
	// approximate: true, recall@10 on 2000 points: 0.999
}
