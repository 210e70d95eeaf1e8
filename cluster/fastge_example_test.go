package cluster_test

import (
	"context"
	"fmt"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// pwTwoCliques returns two 6-node cliques joined by one weak edge, with
// partial labels on two nodes of each clique and the reference partition.
func pwTwoCliques() (*graph.Graph, constraint.Labels, []int) {
	var es []graph.Edge
	truth := make([]int, 12)
	for c := 0; c < 2; c++ {
		for i := 0; i < 6; i++ {
			truth[6*c+i] = c
			for j := i + 1; j < 6; j++ {
				es = append(es, graph.Edge{I: 6*c + i, J: 6*c + j, W: 1})
			}
		}
	}
	es = append(es, graph.Edge{I: 5, J: 6, W: 0.2})
	g, _ := graph.FromEdges(12, es)
	labels := constraint.Labels{0, 0, -1, -1, -1, -1, 1, 1, -1, -1, -1, -1}
	return g, labels, truth
}

func pwReport(m cluster.Method, p *cluster.Problem, truth []int) {
	res, err := cluster.Run(context.Background(), m, p, &cluster.Settings{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	ari, _ := metrics.ARI(truth, res.Labels)
	fmt.Printf("%s: ARI %.2f\n", m.Name(), ari)
}

func ExampleFastGE() {
	g, labels, truth := pwTwoCliques()
	pwReport(cluster.FastGE{}, &cluster.Problem{Graph: g, K: 2, Constraints: constraint.FromLabels(labels)}, truth)
	// Output: fast-ge: ARI 1.00
}

func ExampleFastGE2() {
	g, labels, truth := pwTwoCliques()
	pwReport(cluster.FastGE2{}, &cluster.Problem{Graph: g, K: 2, Labels: labels}, truth)
	// Output: fast-ge2: ARI 1.00
}

// The default variant replaces both matrices by Bethe Hessians
// (BetheBoth); Variant: cluster.BetheLN is the source's "only L_N".
func ExampleFastGE2BH() {
	g, labels, truth := pwTwoCliques()
	pwReport(cluster.FastGE2BH{}, &cluster.Problem{Graph: g, K: 2, Labels: labels}, truth)
	pwReport(cluster.FastGE2BH{Variant: cluster.BetheLN}, &cluster.Problem{Graph: g, K: 2, Labels: labels}, truth)
	// Output:
	// fast-ge2-bh: ARI 1.00
	// fast-ge2-bh: ARI 1.00
}

func ExampleSSCKA() {
	g, labels, truth := pwTwoCliques()
	pwReport(cluster.SSCKA{}, &cluster.Problem{Graph: g, K: 2, Constraints: constraint.FromLabels(labels)}, truth)
	// Output: sscka: ARI 1.00
}

func ExampleCSCAP() {
	g, labels, truth := pwTwoCliques()
	pwReport(cluster.CSCAP{}, &cluster.Problem{Graph: g, K: 2, Constraints: constraint.FromLabels(labels)}, truth)
	// Output: cscap: ARI 1.00
}

func ExampleCSC() {
	g, labels, truth := pwTwoCliques()
	pwReport(cluster.CSC{}, &cluster.Problem{Graph: g, K: 2, Constraints: constraint.FromLabels(labels)}, truth)
	// Output: csc: ARI 1.00
}

func ExampleBetheVariant_UnmarshalText() {
	var v cluster.BetheVariant
	err := v.UnmarshalText([]byte("both"))
	fmt.Println(v == cluster.BetheBoth, err)
	// Output: true <nil>
}
