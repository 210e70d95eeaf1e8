package cluster_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
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

// Run is the one entry point: a Problem (the graph, k and any
// supervision), Settings (nil: every default) and a method. It validates
// the problem against what the method reads, runs it and returns the
// partition with its diagnostics; an ill-posed problem is an error
// wrapping ErrInvalid.
func ExampleRun() {
	x, truth, err := synth.Moons(200, 0.1, rand.NewPCG(1, 2))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	g, err := graph.Build(ctx, x, graph.DefaultSpec())
	if err != nil {
		panic(err)
	}
	pairs, err := constraint.UniformPairs(truth, 40, rand.NewPCG(3, 4))
	if err != nil {
		panic(err)
	}
	p := &cluster.Problem{Graph: g, K: 2, Constraints: pairs}
	res, err := cluster.Run(ctx, cluster.SpectralLearning{}, p, &cluster.Settings{Seed: 1})
	if err != nil {
		panic(err)
	}
	ari, _ := metrics.ARI(truth, res.Labels)
	fmt.Printf("k = %d, ARI = %.2f, %d warnings\n", res.K, ari, len(res.Warnings))
	_, err = cluster.Run(ctx, cluster.SpectralLearning{}, &cluster.Problem{Graph: g, K: 201}, nil)
	fmt.Println(errors.Is(err, cluster.ErrInvalid), err)
	// Output:
	// k = 2, ARI = 0.96, 0 warnings
	// true cluster: invalid problem: sl: k = 201, want 1 ≤ k ≤ n = 200
}

// The normalized cut of Shi and Malik on three blobs whose 10-NN graph
// is connected (λ₁ = 0 for the constant vector, then two small
// eigenvalues for the two cuts between the blobs).
func ExampleShiMalik() {
	x, truth, err := synth.Blobs(300, 3, 2, 0.6, rand.NewPCG(1, 2))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	g, err := graph.Build(ctx, x, graph.DefaultSpec())
	if err != nil {
		panic(err)
	}
	res, err := cluster.Run(ctx, cluster.ShiMalik{}, &cluster.Problem{Graph: g, K: 3}, &cluster.Settings{Seed: 1})
	if err != nil {
		panic(err)
	}
	ari, _ := metrics.ARI(truth, res.Labels)
	fmt.Printf("%s: k = %d, ARI = %.2f, λ = %.4f %.4f %.4f\n", cluster.ShiMalik{}.Name(), res.K, ari, res.Eigenvalues[0], res.Eigenvalues[1], res.Eigenvalues[2])
	// Output:
	// ncut: k = 3, ARI = 1.00, λ = 0.0000 0.0008 0.0029
}

// Unnormalized spectral clustering on ExampleShiMalik's blobs, on the
// eigenvectors of L = D − W and on the commute-time embedding (which
// needs a connected graph, or more clusters than components).
func ExampleUnnormalized() {
	x, truth, err := synth.Blobs(300, 3, 2, 0.6, rand.NewPCG(1, 2))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	g, err := graph.Build(ctx, x, graph.DefaultSpec())
	if err != nil {
		panic(err)
	}
	for _, m := range []cluster.Unnormalized{{}, {CommuteTime: true}} {
		res, err := cluster.Run(ctx, m, &cluster.Problem{Graph: g, K: 3}, &cluster.Settings{Seed: 1})
		if err != nil {
			panic(err)
		}
		ari, _ := metrics.ARI(truth, res.Labels)
		fmt.Printf("CommuteTime %v: ARI = %.2f\n", m.CommuteTime, ari)
	}
	// Output:
	// CommuteTime false: ARI = 1.00
	// CommuteTime true: ARI = 1.00
}

// The Bethe Hessian on a sparse graph of the stochastic block model, the
// graphs it is meant for: with Problem.K = 0 it estimates k from the
// negative eigenvalues of H(r), and says so in a note.
func ExampleBetheHessian() {
	g, truth, err := synth.SBM(600, 3, 12, 1, rand.NewPCG(1, 2))
	if err != nil {
		panic(err)
	}
	res, err := cluster.Run(context.Background(), cluster.BetheHessian{}, &cluster.Problem{Graph: g}, &cluster.Settings{Seed: 1})
	if err != nil {
		panic(err)
	}
	ari, _ := metrics.ARI(truth, res.Labels)
	fmt.Printf("k = %d, ARI = %.2f\n", res.K, ari)
	fmt.Println(res.Notes[0])
	// Output:
	// k = 3, ARI = 0.82
	// k = 3 estimated from the negative eigenvalues of H(r), r = 2.149
}

// Hierarchical bisection by Cheeger sweeps on ExampleShiMalik's blobs:
// with k given it cuts the part of lowest Ncut until there are k parts.
// Objective is the k-way normalized cut of the partition,
// Σ_c cut(C_c, V∖C_c)/vol(C_c).
func ExampleHBisection() {
	x, truth, err := synth.Blobs(300, 3, 2, 0.6, rand.NewPCG(1, 2))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	g, err := graph.Build(ctx, x, graph.DefaultSpec())
	if err != nil {
		panic(err)
	}
	res, err := cluster.Run(ctx, cluster.HBisection{}, &cluster.Problem{Graph: g, K: 3}, &cluster.Settings{Seed: 1})
	if err != nil {
		panic(err)
	}
	ari, _ := metrics.ARI(truth, res.Labels)
	fmt.Printf("k = %d, ARI = %.2f, Ncut = %.4f\n", res.K, ari, res.Objective)
	// Output:
	// k = 3, ARI = 1.00, Ncut = 0.0071
}
