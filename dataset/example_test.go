package dataset_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/graph"
)

func ExampleRead() {
	// Label first (as in wine.data), a leading-dot number, min–max scaling.
	in := "1,14.2,.28\n2,13.2,.26\n1,13.1,.30\n"
	t, err := dataset.Read(context.Background(), strings.NewReader(in), "wine.data", dataset.Options{
		LabelColumn: "first",
		Scale:       dataset.ScaleMinMax,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	n, p := t.Dims()
	fmt.Println(n, p, t.Labels, t.ClassNames)
	for i := 0; i < n; i++ {
		fmt.Printf("%.3f %.3f\n", t.X.At(i, 0), t.X.At(i, 1))
	}
	// Output:
	// 3 2 [0 1 0] [1 2]
	// 1.000 0.500
	// 0.091 0.000
	// 0.000 1.000
}

func ExampleRead_missing() {
	// A missing value is reported with file, line, column and value, and
	// the policies that accept it.
	_, err := dataset.Read(context.Background(), strings.NewReader("AGE,PROTIME\n30,?\n"), "hepatitis.data", dataset.Options{})
	fmt.Println(err)
	// Output:
	// dataset: hepatitis.data:2: column 2 ("PROTIME"): value "?": missing value: impute it (its column's mean or most frequent value) or drop its row (library: Options.Missing = MissingImpute or MissingDrop)
}

func ExampleReadARFF() {
	in := `@relation zoo
@attribute animal string
@attribute hair {false,true}
@attribute legs integer
@attribute type {mammal,bird}
@data
% comments may appear between rows
bear,true,4,mammal
crow,false,2,bird
`
	t, err := dataset.ReadARFF(context.Background(), strings.NewReader(in), "zoo.arff", dataset.Options{IDColumn: "animal"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(t.Features, t.IDs, t.Labels, t.ClassNames)
	// Output:
	// [hair=false hair=true legs] [bear crow] [0 1] [mammal bird]
}

func ExampleReadGraph() {
	// A directed edge list with a reciprocal link and a self loop.
	in := "# cited citing\n1 2\n2 1\n2 3\n3 3\n"
	d, err := dataset.ReadGraph(context.Background(), strings.NewReader(in), "links.txt", dataset.EdgeList, dataset.GraphOptions{DropSelfLoops: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("base", d.Base, "nodes", d.G.N())
	for _, e := range d.G.Edges() {
		fmt.Println(e.I, e.J, e.W)
	}
	// Output:
	// base 1 nodes 3
	// 0 1 1
	// 1 2 1
}

func ExampleReadGraph_gml() {
	in := `graph [
  node [ id 0 label "a" club "Mr. Hi" ]
  node [ id 1 label "b" club "Officer" ]
  node [ id 2 label "c" club "Mr. Hi" ]
  edge [ source 0 target 1 ]
  edge [ source 0 target 2 weight 0.5 ]
]`
	d, err := dataset.ReadGraph(context.Background(), strings.NewReader(in), "karate.gml", dataset.GML, dataset.GraphOptions{LabelAttr: "club"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Names, d.Labels, d.ClassNames, d.G.Degrees())
	// Output:
	// [a b c] [0 1 0] [Mr. Hi Officer] [1.5 1 0.5]
}

func ExampleReadLabels() {
	d, err := dataset.ReadLabels(strings.NewReader("node,label\n0,2\n2,1\n"), "truth.csv", dataset.LabelOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Labels)
	// Output:
	// [2 -1 1]
}

func ExampleWriteLabels() {
	dataset.WriteLabels(os.Stdout, []int{1, 0, -1})
	// Output:
	// 1
	// 0
	// -1
}

func ExampleWriteCSV() {
	t, _ := dataset.Read(context.Background(), strings.NewReader("1,2,b\n3,4,a\n"), "in.csv", dataset.Options{LabelColumn: "last"})
	dataset.WriteCSV(os.Stdout, t)
	// Output:
	// col1,col2,label
	// 1,2,b
	// 3,4,a
}

func ExampleWriteEdgeList() {
	g, _ := graph.FromEdges(3, []graph.Edge{{I: 0, J: 1, W: 2}, {I: 1, J: 2, W: 0.5}})
	dataset.WriteEdgeList(os.Stdout, g)
	// Output:
	// # 3 nodes, undirected, 0-based: i j weight
	// 0 1 2
	// 1 2 0.5
}

func ExampleWriteMatrixMarket() {
	g, _ := graph.FromEdges(3, []graph.Edge{{I: 0, J: 1, W: 2}, {I: 2, J: 2, W: 1}})
	dataset.WriteMatrixMarket(os.Stdout, g)
	// Output:
	// %%MatrixMarket matrix coordinate real symmetric
	// 3 3 2
	// 2 1 2
	// 3 3 1
}
