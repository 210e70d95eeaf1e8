package input_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/input"
)

// Example loads a small table whose "label" column holds the classes (as
// tether gen writes it), builds its 2-NN graph, reads two partial labels
// and clusters with label propagation: the steps tether cluster, tether
// serve and job all take.
func Example() {
	ctx := context.Background()
	csv := "x1,x2,label\n0,0,a\n0,0.2,a\n0.2,0,a\n5,5,b\n5,5.2,b\n5.2,5,b\n"
	d, err := input.ReadTable(ctx, []byte(csv), "blobs.csv", dataset.Options{})
	if err != nil {
		log.Fatal(err)
	}
	spec := graph.Spec{Kind: graph.SymmetricKNN, K: 2, Affinity: graph.RBF, Sigma: graph.Sigma{Rule: graph.SigmaFixed, Value: 1}}
	if _, err := d.BuildGraph(ctx, spec, nil); err != nil {
		log.Fatal(err)
	}
	if err := d.Check(); err != nil {
		log.Fatal(err)
	}
	m, err := cluster.New("labelprop")
	if err != nil {
		log.Fatal(err)
	}
	p, err := input.NewProblem(d, m, 2)
	if err != nil {
		log.Fatal(err)
	}
	if p.Labels, err = input.ReadPartialLabels(context.Background(), strings.NewReader("0,0\n3,1\n"), "partial.txt", d.N(), p.K, d.Names); err != nil {
		log.Fatal(err)
	}
	res, err := cluster.Run(ctx, m, p, &cluster.Settings{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.Notes[0])
	fmt.Println("reference:", d.Truth)
	fmt.Println("partial:  ", p.Labels)
	fmt.Println("clusters: ", res.Labels)
	// Output:
	// blobs.csv: column "label" is the reference labels, not a feature (library: Options.LabelColumn "none" makes it a feature)
	// reference: [0 0 0 1 1 1]
	// partial:   [0 -1 -1 1 -1 -1]
	// clusters:  [0 0 0 1 1 1]
}

// ExampleGenParams draws the data of tether gen blobs -n 60 -k 3 -seed 5,
// as tether cluster -gen, tether serve and job do.
func ExampleGenParams() {
	g, p, err := input.GenParams("blobs", map[string]string{"n": "60", "k": "3"})
	if err != nil {
		log.Fatal(err)
	}
	d, err := input.Generate(context.Background(), g, p, 5)
	if err != nil {
		log.Fatal(err)
	}
	n, dim := d.X.Dims()
	fmt.Println(d.Name, n, dim, len(d.Truth), d.Graph == nil)
	_, _, err = input.GenParams("blobs", map[string]string{"n": "many"})
	fmt.Println(err)
	// Output:
	// generated blobs 60 2 60 true
	// gen blobs: synth: invalid parameter: parameter n: strconv.Atoi: parsing "many": invalid syntax
}
