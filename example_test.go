package tether_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/input"
	"github.com/tether-sc/tether/metrics"
)

// clusterMoons is the README's library snippet, word for word
// (TestReadmeLibrarySnippet).
//
// clusterMoons clusters the tour's moons.csv with the pairs of moons-cons.csv and
// returns the ARI of the partition against the table's label column.
func clusterMoons(ctx context.Context, table, cons string) (float64, error) {
	// The table as tether cluster reads it: the column named label (or class,
	// target, y) becomes d.Truth, not a feature; d.Notes says so.
	d, err := input.ReadTableFile(ctx, table, dataset.Options{})
	if err != nil {
		return 0, err
	}
	x, truth := d.X, d.Truth                           // x: the n×d feature rows, a gonum *mat.Dense
	g, err := graph.Build(ctx, x, graph.DefaultSpec()) // the k-NN graph of the rows
	if err != nil {
		return 0, err
	}
	// i,j,ml|cl lines; in Go, &constraint.Set{N: g.N(), Pairs: []constraint.Pair{{I: 0, J: 7, Kind: constraint.MustLink}}}.
	// A file keyed by node names: constraint.ReadContext with ReadOptions{Names: d.Names, AutoNames: true}.
	pairs, err := constraint.ReadFileContext(ctx, cons, g.N())
	if err != nil {
		return 0, err
	}
	// cluster.Auto{} would choose a method by cross-validation on the pairs.
	res, err := cluster.Run(ctx, cluster.NewFGPWC(), &cluster.Problem{Graph: g, K: 2, Constraints: pairs}, &cluster.Settings{Seed: 1})
	if err != nil {
		return 0, err // wraps cluster.ErrInvalid for an ill-posed problem, names the node or field at fault
	}
	return metrics.ARI(truth, res.Labels)
}

// Example runs the README's library snippet on the tour's moons.csv and
// moons-cons.csv, and shows why it reads the table with
// input.ReadTableFile: dataset.ReadFile, the lower-level reader, keeps the
// label column as a third feature unless Options.LabelColumn names it.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "tether-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path, cons := filepath.Join(dir, "moons.csv"), filepath.Join(dir, "moons-cons.csv")
	if err := writeTourFiles(ctx, path, cons); err != nil {
		log.Fatal(err)
	}

	ari, err := clusterMoons(ctx, path, cons)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("ARI %.2f\n", ari)

	d, err := input.ReadTableFile(ctx, path, dataset.Options{})
	if err != nil {
		log.Fatal(err)
	}
	t, err := dataset.ReadFile(ctx, path, dataset.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("input.ReadTableFile:", d.Features, "and", len(d.Truth), "reference labels")
	fmt.Println("dataset.ReadFile:   ", t.Features, "and", len(t.Labels), "reference labels")
	// Output:
	// ARI 0.98
	// input.ReadTableFile: [x1 x2] and 1000 reference labels
	// dataset.ReadFile:    [x1 x2 label] and 0 reference labels
}

// writeTourFiles writes the moons.csv and moons-cons.csv of the README's
// tour, as tether gen moons -n 1000 -noise 0.12 -seed 1 -o moons.csv and
// tether constraints gen -protocol pairs-1/n -seed 1 do.
func writeTourFiles(ctx context.Context, table, cons string) error {
	g, p, err := input.GenParams("moons", map[string]string{"n": "1000", "noise": "0.12"})
	if err != nil {
		return err
	}
	d, err := input.Generate(ctx, g, p, 1)
	if err != nil {
		return err
	}
	pairs, err := constraint.BernoulliPairs(d.Truth, 1/float64(len(d.Truth)), rand.NewPCG(1, 0x7e7e))
	if err != nil {
		return err
	}
	if err := writeFile(table, func(w io.Writer) error {
		return dataset.WriteCSV(w, &dataset.Table{X: d.X, Labels: d.Truth, Features: []string{"x1", "x2"}})
	}); err != nil {
		return err
	}
	return writeFile(cons, func(w io.Writer) error { return constraint.Write(w, pairs, 0) })
}

// writeFile creates path and writes it with write.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// TestReadmeLibrarySnippet: the README's library snippet (the ```go block
// after "As a library:") is clusterMoons as written here, with imports
// that this file has.
func TestReadmeLibrarySnippet(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "\nAs a library")
	if !ok {
		t.Fatal(`README has no "As a library" snippet`)
	}
	_, block, ok := strings.Cut(after, "```go\n")
	if !ok {
		t.Fatal("no ```go block after \"As a library\"")
	}
	block, _, ok = strings.Cut(block, "\n```")
	if !ok {
		t.Fatal("the ```go block is not closed")
	}
	imports, body, ok := strings.Cut(block, "\n)\n\n")
	if !ok || !strings.HasPrefix(imports, "import (\n") {
		t.Fatalf("the snippet does not open with an import block:\n%s", block)
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range strings.Split(strings.TrimPrefix(imports, "import (\n"), "\n") {
		if imp != "" && !strings.Contains(string(src), "\n"+imp+"\n") {
			t.Errorf("README imports %s, which example_test.go does not", strings.TrimSpace(imp))
		}
	}
	if !strings.HasPrefix(body, "// clusterMoons clusters") || !strings.Contains(string(src), "\n"+body+"\n") {
		t.Errorf("README's snippet is not clusterMoons of example_test.go as written; README has:\n%s", body)
	}
}
