package main

import (
	"context"
	"errors"
	"fmt"
	"os"
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
	// .mm is Matrix Market too: -graph-out wrote it so, but the readers
	// took it for an edge list (the size line "40 40 m" an edge 40–40).
	for _, name := range []string{"g.mtx", "g.mm", "G.MM", "g.txt"} {
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

// TestGenGraphMatrixMarketExtensions: tether gen writes Matrix Market for
// -o ending in .mtx or .mm (any case), the extensions the graph readers read
// as Matrix Market, and an edge list otherwise; each reads back to the
// same graph (gen wrote an edge list to x.mm, which the readers now take
// for Matrix Market).
func TestGenGraphMatrixMarketExtensions(t *testing.T) {
	dir := t.TempDir()
	var ref *graph.Graph
	for _, c := range []struct {
		name string
		mm   bool
	}{{"sbm.txt", false}, {"sbm.mtx", true}, {"sbm.mm", true}, {"SBM.MM", true}} {
		path := filepath.Join(dir, c.name)
		if _, _, err := run(t, "gen", "sbm", "-n", "60", "-k", "2", "-seed", "3", "-o", path, "-labels", path+".labels"); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := strings.HasPrefix(readFile(t, path), "%%MatrixMarket"); got != c.mm {
			t.Errorf("%s: Matrix Market %v, want %v", c.name, got, c.mm)
		}
		d, err := dataset.ReadGraphFileOptions(context.Background(), path, dataset.GraphOptions{NumNodes: 60})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if ref == nil {
			ref = d.G
			continue
		}
		for i := 0; i < ref.N(); i++ {
			gi, gw := d.G.Row(i)
			wi, ww := ref.Row(i)
			if fmt.Sprint(gi, gw) != fmt.Sprint(wi, ww) {
				t.Fatalf("%s: row %d: %v %v, the edge list has %v %v", c.name, i, gi, gw, wi, ww)
			}
		}
	}
}

// TestGraphOutStdoutCarriesOneThing: standard output carries one thing.
// -graph-out - and -gen-out - are refused with -json, whose document is
// standard output's (the JSON was followed by the edge list, which no
// JSON reader took); with -o FILE, the summary goes to standard error and
// standard output holds the graph alone (the summary followed it).
func TestGraphOutStdoutCarriesOneThing(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "f.csv")
	if _, _, err := run(t, "gen", "blobs", "-n", "30", "-k", "3", "-o", data); err != nil {
		t.Fatal(err)
	}
	lab := filepath.Join(dir, "lab.txt")
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"cluster", "-input", data, "-k", "3", "-graph-out", "-", "-json", "-o", lab}, "-graph-out"},
		{[]string{"cluster", "-input", data, "-k", "3", "-graph-out", "-", "-json"}, "-graph-out"},
		{[]string{"cluster", "-gen", "sbm", "-n", "40", "-k", "2", "-gen-out", "-", "-json", "-o", lab}, "-gen-out"},
	} {
		_, _, err := run(t, c.args...)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "-json") || !strings.Contains(err.Error(), c.flag) {
			t.Errorf("%q: err = %v, want a usage error naming -json and %s", c.args, err, c.flag)
		}
	}
	for _, args := range [][]string{
		{"cluster", "-input", data, "-k", "3", "-quiet", "-graph-out", "-", "-o", lab},
		{"cluster", "-gen", "sbm", "-n", "40", "-k", "2", "-quiet", "-gen-out", "-", "-o", lab},
	} {
		stdout, stderr, err := run(t, args...)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if !strings.Contains(stderr, "Ncut") || strings.Contains(stdout, "Ncut") {
			t.Errorf("%q: the summary is not on standard error alone:\nstdout:\n%s\nstderr:\n%s", args, stdout, stderr)
		}
		if _, err := dataset.ReadGraph(context.Background(), strings.NewReader(stdout), "stdout", dataset.EdgeList, dataset.GraphOptions{}); err != nil {
			t.Errorf("%q: standard output is not an edge list: %v\n%s", args, err, stdout)
		}
	}
}

// TestGraphOutReadsBack: what -graph-out writes reads back as the same
// graph, as an edge list named .csv too (tether's header makes it one; a
// triangle's three edges of three fields were read as a 3×3 matrix and
// refused), and a .gml -graph-out, which held an edge list the readers
// refused as GML, is a usage error before anything is read (review 114).
func TestGraphOutReadsBack(t *testing.T) {
	dir := t.TempDir()
	tri := filepath.Join(dir, "tri.txt")
	if err := os.WriteFile(tri, []byte("0 1\n1 2\n2 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"out.csv", "out.edges", "out.mtx"} {
		out := filepath.Join(dir, name)
		if _, _, err := run(t, "cluster", "-graph-file", tri, "-k", "2", "-quiet", "-graph-out", out, "-o", os.DevNull); err != nil {
			t.Fatal(err)
		}
		stdout, _, err := run(t, "cluster", "-graph-file", out, "-k", "2", "-quiet", "-o", os.DevNull)
		if err != nil || !strings.Contains(stdout, "3 nodes, 3 edges") {
			t.Errorf("%s read back: %v\n%s", name, err, stdout)
		}
	}
	_, _, err := run(t, "cluster", "-graph-file", tri, "-k", "2", "-graph-out", filepath.Join(dir, "out.GML"))
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "not GML") {
		t.Errorf("-graph-out .GML: %v", err)
	}
	// tether gen writes the same edge list (review 115).
	_, _, err = run(t, "gen", "sbm", "-n", "30", "-o", filepath.Join(dir, "g.gml"))
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "not GML") {
		t.Errorf("gen -o .gml: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "g.gml")); !os.IsNotExist(err) {
		t.Errorf("gen -o g.gml wrote a file (%v)", err)
	}
}

// TestGraphOutNamedNodes: the edge list -graph-out writes for a graph of
// named nodes names them as -o does (review 114 found them dropped; a
// note then said the file numbered them in -o's order): read back, its
// edges join the input's names with their weights, every node is named,
// an isolated one too, and no note is printed. Matrix Market, which
// holds no names, numbers the nodes and the note says so.
func TestGraphOutNamedNodes(t *testing.T) {
	dir := t.TempDir()
	in := evalWriteTemp(t, dir, "named.txt", "# 7 nodes\nann bob 1\nbob cat 1\ncat ann 1\ndan eve 1\neve fay 1\nfay dan 1\ncat dan 0.1\nzed zed 0\n")
	out := filepath.Join(dir, "g.txt")
	pred := filepath.Join(dir, "pred.csv")
	_, stderr, err := run(t, "cluster", "-graph-file", in, "-k", "2", "-o", pred, "-graph-out", out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stderr, "numbers the nodes") {
		t.Errorf("a note on numbered nodes for an edge list that names them:\n%s", stderr)
	}
	d, err := dataset.ReadGraphFileOptions(context.Background(), out, dataset.GraphOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d.G.N() != 7 || len(d.Names) != 7 {
		t.Fatalf("read back: %d nodes, names %q; want 7 named", d.G.N(), d.Names)
	}
	edges := map[string]float64{}
	for _, e := range d.G.Edges() {
		a, b := d.Names[e.I], d.Names[e.J]
		if a > b {
			a, b = b, a
		}
		edges[a+"-"+b] = e.W
	}
	want := map[string]float64{"ann-bob": 1, "bob-cat": 1, "ann-cat": 1, "dan-eve": 1, "eve-fay": 1, "dan-fay": 1, "cat-dan": 0.1}
	if fmt.Sprint(edges) != fmt.Sprint(want) {
		t.Errorf("edges read back by name %v, want %v", edges, want)
	}
	// Matrix Market: numbered, with the note.
	mtx := filepath.Join(dir, "g.mtx")
	if _, stderr, err := run(t, "cluster", "-graph-file", in, "-k", "2", "-o", pred, "-graph-out", mtx); err != nil || !strings.Contains(stderr, "note: -graph-out "+mtx+" numbers the nodes in the order of the labels -o writes") || !strings.Contains(stderr, "Matrix Market holds no node names") {
		t.Errorf("Matrix Market: err %v, stderr %s", err, stderr)
	}
	// Without names, no note.
	if _, stderr, err := run(t, "cluster", "-graph-file", mtx, "-k", "2", "-o", pred, "-graph-out", filepath.Join(dir, "g2.txt")); err != nil || strings.Contains(stderr, "numbers the nodes") {
		t.Errorf("integer graph: err %v, stderr %s", err, stderr)
	}
}

// TestGraphOutTruthRoundTrip: the graph cluster -graph-out writes for a
// feature table with an -id column is read back by cluster -graph-file
// with the -truth file tether labels writes for that table (names), and
// gives the same partition as -o (matched by name). Before, the graph
// numbered its nodes and the read failed with "the file names its nodes
// but the data has none". Integer names need -named-nodes, as the note
// says.
func TestGraphOutTruthRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		prefix string
		named  bool
	}{{"p", false}, {"", true}} {
		var b strings.Builder
		b.WriteString("id,x1,x2,label\n")
		for i := 0; i < 40; i++ {
			c := i % 2
			fmt.Fprintf(&b, "%s%d,%g,%g,%d\n", tc.prefix, 1000+i, float64(c*5)+0.1*float64(i%7), 0.2*float64(i%5), c)
		}
		in := evalWriteTemp(t, dir, "moonsid.csv", b.String())
		pred, gout, truth := filepath.Join(dir, "mid.pred"), filepath.Join(dir, "mid.txt"), filepath.Join(dir, "mid.truth")
		_, stderr, err := run(t, "cluster", "-input", in, "-id", "id", "-k", "2", "-o", pred, "-graph-out", gout)
		if err != nil {
			t.Fatal(err)
		}
		if tc.named != strings.Contains(stderr, "read it back with -named-nodes") {
			t.Errorf("names %q…: note on -named-nodes %v, want %v:\n%s", tc.prefix, !tc.named, tc.named, stderr)
		}
		if _, _, err := run(t, "labels", "-input", in, "-id", "id", "-o", truth); err != nil {
			t.Fatal(err)
		}
		args := []string{"cluster", "-graph-file", gout, "-truth", truth, "-k", "2", "-quiet", "-o", filepath.Join(dir, "again.pred")}
		if tc.named {
			args = append(args, "-named-nodes")
		}
		if _, _, err := run(t, args...); err != nil {
			t.Fatalf("names %q…: cluster -graph-file with -truth: %v", tc.prefix, err)
		}
		first, again := readPred(t, pred), readPred(t, filepath.Join(dir, "again.pred"))
		if len(first) != 40 || len(again) != 40 {
			t.Fatalf("names %q…: %d and %d labels, want 40", tc.prefix, len(first), len(again))
		}
		// The same partition up to the clusters' numbers.
		m := map[string]string{}
		for name, c := range first {
			if m[c] == "" {
				m[c] = again[name]
			}
			if again[name] != m[c] {
				t.Errorf("names %q…: node %s in cluster %s then %s: not the same partition", tc.prefix, name, c, again[name])
			}
		}
	}
}

// readPred reads a "name,cluster" file cluster -o wrote: cluster by name.
func readPred(t *testing.T, path string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(readFile(t, path)), "\n")[1:] {
		f := strings.Split(line, ",")
		out[f[0]] = f[1]
	}
	return out
}
