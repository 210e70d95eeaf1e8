package dataset

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

var sinkTable *Table
var sinkGraph *GraphData

// benchCSV returns an n×p numeric CSV with a class column.
func benchCSV(n, p int) string {
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			fmt.Fprintf(&b, "%.4f,", rng.NormFloat64())
		}
		fmt.Fprintf(&b, "c%d\n", i%3)
	}
	return b.String()
}

func BenchmarkReadCSV5000x57(b *testing.B) {
	in := benchCSV(5000, 57) // spambase-sized
	b.SetBytes(int64(len(in)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t, err := Read(context.Background(), strings.NewReader(in), "b.csv", Options{LabelColumn: "last", Scale: ScaleMinMax})
		if err != nil {
			b.Fatal(err)
		}
		sinkTable = t
	}
}

func BenchmarkReadEdgeList100k(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	var sb strings.Builder
	for e := 0; e < 100000; e++ {
		fmt.Fprintf(&sb, "%d %d\n", rng.IntN(20000), rng.IntN(20000))
	}
	in := sb.String()
	b.SetBytes(int64(len(in)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d, err := ReadGraph(context.Background(), strings.NewReader(in), "b.txt", EdgeList, GraphOptions{})
		if err != nil {
			b.Fatal(err)
		}
		sinkGraph = d
	}
}
