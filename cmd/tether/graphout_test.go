package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/graph"
)

// TestClusterGraphOutRoundTrip checks that cluster -graph-out writes the
// graph it clustered: read back (Matrix Market and edge list) it equals the
// graph built from the features, weight for weight, and eval -graph reads
// it.
func TestClusterGraphOutRoundTrip(t *testing.T) {
	dir := t.TempDir()
	var csv strings.Builder
	csv.WriteString("a,b\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&csv, "%g,%g\n", float64(i%4)*3+0.1*float64(i%7), float64(i%3)*0.37)
	}
	data := evalWriteTemp(t, dir, "data.csv", csv.String())
	tab, err := dataset.ReadFile(context.Background(), data, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	spec := graph.DefaultSpec()
	spec.K = 6
	want, err := graph.Build(context.Background(), tab.X, spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"g.mtx", "g.txt"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			pred := filepath.Join(dir, name+".pred")
			if _, _, err := run(t, "cluster", "-input", data, "-knn", "6", "-k", "4", "-quiet", "-o", pred, "-graph-out", path); err != nil {
				t.Fatal(err)
			}
			d, err := dataset.ReadGraphFileOptions(context.Background(), path, dataset.GraphOptions{NumNodes: want.N()})
			if err != nil {
				t.Fatal(err)
			}
			got := d.G
			if got.N() != want.N() {
				t.Fatalf("%d nodes, want %d", got.N(), want.N())
			}
			for i := 0; i < want.N(); i++ {
				gi, gw := got.Row(i)
				wi, ww := want.Row(i)
				if fmt.Sprint(gi, gw) != fmt.Sprint(wi, ww) {
					t.Fatalf("row %d: read %v %v, built %v %v", i, gi, gw, wi, ww)
				}
			}
			if _, _, err := run(t, "eval", "-truth", pred, "-pred", pred, "-graph", path); err != nil {
				t.Errorf("eval -graph: %v", err)
			}
		})
	}
}
