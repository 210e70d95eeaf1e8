package cluster_test

import (
	"context"
	"fmt"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// An interactive session: the basis of the three cliques is computed once,
// then each answer re-clusters with only the descent and k-means, k-means
// starting from the previous partition.
func ExampleFGPWCState() {
	g := threeCliques()
	f := cluster.FGPWC{M: 4, RowNormalize: true, MaxIter: 1000, FTol: -1}
	st, err := f.NewState(context.Background(), g, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	p := &cluster.Problem{Graph: g, K: 2, Constraints: &constraint.Set{N: 12}}
	for _, answer := range []constraint.Pair{
		{I: 1, J: 6, Kind: constraint.MustLink},    // A and B together
		{I: 5, J: 10, Kind: constraint.CannotLink}, // B and C apart
	} {
		p.Constraints.Pairs = append(p.Constraints.Pairs, answer)
		res, err := st.Cluster(context.Background(), p, &cluster.Settings{Seed: 1}, cluster.FGPWCWarm{KMeans: true})
		if err != nil {
			fmt.Println(err)
			return
		}
		ml, cl := constraint.Violations(p.Constraints, res.Labels)
		fmt.Println(len(p.Constraints.Pairs), "answers:", res.Labels, "violated:", ml+cl)
	}
	// Output:
	// 1 answers: [0 0 0 0 0 0 0 0 1 1 1 1] violated: 0
	// 2 answers: [0 0 0 0 0 0 0 0 1 1 1 1] violated: 0
}

// A session on a graph with an isolated node (node 12, beside the three
// cliques): NewStateFor embeds the 12-node core once, and every call
// clusters the core with that basis and attaches node 12 as Run does, here
// by its must-link to node 9.
func ExampleFGPWC_NewStateFor() {
	edges := threeCliques().Edges()
	g, err := graph.FromEdges(13, edges)
	if err != nil {
		fmt.Println(err)
		return
	}
	p := &cluster.Problem{Graph: g, K: 2, Constraints: &constraint.Set{N: 13, Pairs: []constraint.Pair{
		{I: 12, J: 9, Kind: constraint.MustLink},
	}}}
	f := cluster.FGPWC{M: 4, RowNormalize: true, MaxIter: 1000, FTol: -1}
	st, err := f.NewStateFor(context.Background(), p, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("basis of", st.Basis().Vectors().RawMatrix().Rows, "nodes")
	for _, answer := range []constraint.Pair{
		{I: 1, J: 6, Kind: constraint.MustLink},    // A and B together
		{I: 5, J: 10, Kind: constraint.CannotLink}, // B and C apart
	} {
		p.Constraints.Pairs = append(p.Constraints.Pairs, answer)
		res, err := st.Cluster(context.Background(), p, &cluster.Settings{Seed: 1}, cluster.FGPWCWarm{KMeans: true})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(len(p.Constraints.Pairs), "constraints:", res.Labels)
	}
	// Output:
	// basis of 12 nodes
	// 2 constraints: [0 0 0 0 0 0 0 0 1 1 1 1 1]
	// 3 constraints: [0 0 0 0 0 0 0 0 1 1 1 1 1]
}
