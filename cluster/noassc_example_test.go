package cluster_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// cliqueChain returns k cliques of 5 nodes (weight 1 inside) joined in a
// chain by one edge of weight 0.1 between consecutive cliques.
func cliqueChain(k int) *graph.Graph {
	var edges []graph.Edge
	for c := 0; c < k; c++ {
		for i := 0; i < 5; i++ {
			for j := i + 1; j < 5; j++ {
				edges = append(edges, graph.Edge{I: 5*c + i, J: 5*c + j, W: 1})
			}
		}
		if c > 0 {
			edges = append(edges, graph.Edge{I: 5*c - 1, J: 5 * c, W: 0.1})
		}
	}
	g, err := graph.FromEdges(5*k, edges)
	if err != nil {
		panic(err)
	}
	return g
}

// oneLabelPerClique labels the first node of every clique with its index.
func oneLabelPerClique(k int) constraint.Labels {
	l := make(constraint.Labels, 5*k)
	for i := range l {
		l[i] = constraint.Unlabeled
	}
	for c := 0; c < k; c++ {
		l[5*c] = c
	}
	return l
}

func ExampleLabelProp() {
	p := &cluster.Problem{Graph: cliqueChain(3), K: 3, Labels: oneLabelPerClique(3)}
	res, err := cluster.Run(context.Background(), cluster.LabelProp{}, p, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Labels)
	fmt.Printf("H[4] = %.3f %.3f %.3f\n", res.Embedding.At(4, 0), res.Embedding.At(4, 1), res.Embedding.At(4, 2))
	// Output:
	// [0 0 0 0 0 1 1 1 1 1 2 2 2 2 2]
	// H[4] = 0.962 0.038 0.000
}

func ExampleMAVRO() {
	p := &cluster.Problem{Graph: cliqueChain(2), K: 2, Labels: oneLabelPerClique(2)}
	res, err := cluster.Run(context.Background(), cluster.MAVRO{}, p, &cluster.Settings{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Labels)
	fmt.Printf("dominant eigenvalue %.4f\n", res.Eigenvalues[0])
	// Output:
	// [0 0 0 0 0 1 1 1 1 1]
	// dominant eigenvalue 2.5497
}

func ExampleMavroK() {
	p := &cluster.Problem{Graph: cliqueChain(3), K: 3, Labels: oneLabelPerClique(3)}
	res, err := cluster.Run(context.Background(), cluster.MavroK{}, p, &cluster.Settings{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Run numbers the clusters by the classes of the labels: clique c,
	// whose labelled node is of class c, is cluster c.
	fmt.Println(res.Labels)
	// Output:
	// [0 0 0 0 0 1 1 1 1 1 2 2 2 2 2]
}

func ExampleNOASSC() {
	p := &cluster.Problem{Graph: cliqueChain(3), K: 3, Labels: oneLabelPerClique(3)}
	res, err := cluster.Run(context.Background(), cluster.NOASSC{}, p, &cluster.Settings{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Labels)
	fmt.Printf("eigenvalues %.4f\n", res.Eigenvalues)
	// Output:
	// [0 0 0 0 0 1 1 1 1 1 2 2 2 2 2]
	// eigenvalues [2.5533 2.5453 2.5521]
}

func ExampleSpectralLearning() {
	// A must-link inside each clique and a cannot-link across the bridges.
	set := &constraint.Set{N: 15, Pairs: []constraint.Pair{
		{I: 0, J: 4, Kind: constraint.MustLink},
		{I: 4, J: 5, Kind: constraint.CannotLink},
		{I: 9, J: 10, Kind: constraint.CannotLink},
	}}
	p := &cluster.Problem{Graph: cliqueChain(3), K: 3, Constraints: set}
	res, err := cluster.Run(context.Background(), cluster.SpectralLearning{}, p, &cluster.Settings{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Labels)
	// The cannot-links remove both bridges: three components, so the
	// three largest eigenvalues of N are 1.
	fmt.Printf("σ = %.4f\n", res.Eigenvalues)
	// Output:
	// [2 2 2 2 2 1 1 1 1 1 0 0 0 0 0]
	// σ = [1.0000 1.0000 1.0000]
}

func ExampleMCLNOASSC() {
	// Must-links join the first two nodes of each clique; a cannot-link
	// separates the first and second cliques' groups.
	set := &constraint.Set{N: 15, Pairs: []constraint.Pair{
		{I: 0, J: 1, Kind: constraint.MustLink},
		{I: 5, J: 6, Kind: constraint.MustLink},
		{I: 10, J: 11, Kind: constraint.MustLink},
		{I: 1, J: 6, Kind: constraint.CannotLink},
	}}
	p := &cluster.Problem{Graph: cliqueChain(3), K: 3, Constraints: set}
	res, err := cluster.Run(context.Background(), cluster.MCLNOASSC{}, p, &cluster.Settings{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Labels)
	fmt.Println(res.Notes[0])
	// Output:
	// [2 2 2 2 2 1 1 1 1 1 0 0 0 0 0]
	// mcl-noa-ssc: must-link closure: 12 groups for 15 nodes
}

func ExampleMLNOASSC() {
	// Must-links only: each clique's first two nodes. The closure leaves 12
	// groups; their normalized cut gives 3 clusters that label every node
	// for NOA-SSC.
	set := &constraint.Set{N: 15, Pairs: []constraint.Pair{
		{I: 0, J: 1, Kind: constraint.MustLink},
		{I: 5, J: 6, Kind: constraint.MustLink},
		{I: 10, J: 11, Kind: constraint.MustLink},
	}}
	p := &cluster.Problem{Graph: cliqueChain(3), K: 3, Constraints: set}
	res, err := cluster.Run(context.Background(), cluster.MLNOASSC{}, p, &cluster.Settings{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Labels)
	// Output:
	// [2 2 2 2 2 1 1 1 1 1 0 0 0 0 0]
}

// Contradictory constraints: a wrong must-link (node 2 with node 7, of
// two cliques) sits among correct ones that say otherwise. By default the
// constraints are resolved (the wrong must-link is left out), and the
// refinement, chosen by cross-validation on the constraints together
// with the resolve's reference partition, may move single nodes; the
// warning says what the resolve left out, the notes what was chosen and
// done.
func ExampleMCLNOASSC_contradictory() {
	var pairs []constraint.Pair
	for c := 0; c < 3; c++ {
		for i := 0; i < 4; i++ {
			pairs = append(pairs, constraint.Pair{I: 5*c + i, J: 5*c + i + 1, Kind: constraint.MustLink})
		}
	}
	for _, ab := range [][2]int{{0, 5}, {1, 6}, {3, 8}, {4, 9}, {0, 10}, {5, 10}, {2, 12}, {7, 13}} {
		pairs = append(pairs, constraint.Pair{I: ab[0], J: ab[1], Kind: constraint.CannotLink})
	}
	pairs = append(pairs, constraint.Pair{I: 2, J: 7, Kind: constraint.MustLink}) // wrong
	p := &cluster.Problem{Graph: cliqueChain(3), K: 3, Constraints: &constraint.Set{N: 15, Pairs: pairs}}
	res, err := cluster.Run(context.Background(), cluster.MCLNOASSC{}, p, &cluster.Settings{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Labels)
	for _, w := range res.Warnings {
		fmt.Println("warning:", w)
	}
	for _, w := range res.Notes {
		if i := strings.Index(w, " ("); i > 0 && strings.Contains(w, "cross-validation") {
			w = w[:i] // the scores follow
		}
		fmt.Println("note:", w)
	}
	// Output:
	// [2 2 2 2 2 1 1 1 1 1 0 0 0 0 0]
	// warning: mcl-noa-ssc: the 21 constraints contradict each other; resolved by leaving out 0 that the constraints near them contradict (constraint.VoteWeights), 1 must-link whose ends a reference partition (cscap) separates, and 0 must-links and 0 cannot-links by contraction (constraint.Contract); MCLNOASSC.NoResolve uses every constraint as given
	// note: mcl-noa-ssc: must-link closure: 3 groups for 15 nodes
	// note: mcl-noa-ssc: reference and refinement chosen by 5-fold cross-validation on the constraints: λ=2
	// note: mcl-noa-ssc: refinement in the reference partition's (cscap) embedding with every given constraint as a penalty of weight 2 moved 0 nodes in 1 sweep (MCLNOASSC.Refine = −1 turns it off)
}
