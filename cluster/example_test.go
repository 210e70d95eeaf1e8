package cluster_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// NJW on a k-NN graph of three Gaussian blobs: the library's main path.
func ExampleNJW() {
	x, truth, err := synth.Blobs(300, 3, 2, 0.5, rand.NewPCG(1, 2))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	g, err := graph.Build(ctx, x, graph.DefaultSpec())
	if err != nil {
		panic(err)
	}
	res, err := cluster.Run(ctx, cluster.NJW{}, &cluster.Problem{Graph: g, K: 3}, &cluster.Settings{Seed: 1})
	if err != nil {
		panic(err)
	}
	ari, _ := metrics.ARI(truth, res.Labels)
	fmt.Printf("k = %d, ARI = %.2f\n", res.K, ari)
	// Output:
	// k = 3, ARI = 1.00
}

// A method chosen by name, as the command-line tool does, and the warning
// Run gives when it is handed side information it does not use.
func ExampleNew() {
	x, _, err := synth.Blobs(200, 2, 2, 0.5, rand.NewPCG(3, 4))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	g, err := graph.Build(ctx, x, graph.DefaultSpec())
	if err != nil {
		panic(err)
	}
	m, err := cluster.New("usc")
	if err != nil {
		panic(err)
	}
	fmt.Println(m.Name(), m.Uses().Supervision)
	labels := make([]int, 200)
	for i := range labels {
		labels[i] = -1
	}
	labels[0] = 0
	res, err := cluster.Run(ctx, m, &cluster.Problem{Graph: g, K: 2, Labels: labels}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Warnings[0])
	// Output:
	// usc none
	// usc ignores the 1 partial label (unsupervised: auto, or a method that reads them, uses them)
}
