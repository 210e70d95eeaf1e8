package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestEvalNamedFilesMeetTheGraph: when the reference and the prediction
// both name their nodes, the cut figures are those of the graph's nodes:
// through the names of a graph that names them, whatever the files'
// orders; a graph that numbers its nodes is read on the files' order only
// when both list their names in the same order, and refused otherwise.
// The figures were computed on the reference's line order against the
// graph's own, wrong without a word (review 118: cut 23 for 10 on a
// karate edge list). A constraints file keyed by name is read by those
// names (it was refused: "node \"a\" is not an integer").
func TestEvalNamedFilesMeetTheGraph(t *testing.T) {
	dir := t.TempDir()
	// Two triangles joined by c–d. Reference {a,b,c} {d,e,f}: cut 1.
	// Prediction {a,b} {c,d,e,f}: cut 2 (a–c, b–c).
	edges := evalWriteTemp(t, dir, "g.txt", "a b\nb c\nc a\nd e\ne f\nf d\nc d\n")
	truth := evalWriteTemp(t, dir, "truth.csv", "name,label\nf,1\nb,0\nd,1\na,0\ne,1\nc,0\n")
	pred := evalWriteTemp(t, dir, "pred.csv", "name,cluster\nc,1\na,0\ne,1\nb,0\nf,1\nd,1\n")
	cons := evalWriteTemp(t, dir, "cons.csv", "name_i,name_j,kind\na,c,ml\nc,d,cl\n")
	// figures returns eval -json's figures of the given names.
	figures := func(args ...string) map[string]float64 {
		t.Helper()
		out, _, err := run(t, append([]string{"eval", "-json"}, args...)...)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		m := map[string]float64{}
		for _, name := range []string{"cut", "cut_truth", "ml_violated", "cl_violated", "ari"} {
			if strings.Contains(out, `"name": "`+name+`"`) {
				m[name] = jsonFigure(t, out, name)
			}
		}
		return m
	}
	f := figures("-truth", truth, "-pred", pred, "-graph", edges, "-constraints", cons)
	for name, want := range map[string]float64{"cut": 2, "cut_truth": 1, "ml_violated": 1, "cl_violated": 1} {
		if got, ok := f[name]; !ok || got != want {
			t.Errorf("%s = %v (present %v), want %v", name, got, ok, want)
		}
	}
	// A numbered graph: the same graph as a Matrix Market file whose
	// node i is line i of a file in the order a … f.
	mtx := evalWriteTemp(t, dir, "g.mtx", "%%MatrixMarket matrix coordinate real symmetric\n6 6 7\n2 1 1\n3 2 1\n3 1 1\n5 4 1\n6 5 1\n6 4 1\n4 3 1\n")
	inOrder := evalWriteTemp(t, dir, "truth-ordered.csv", "name,label\na,0\nb,0\nc,0\nd,1\ne,1\nf,1\n")
	predOrdered := evalWriteTemp(t, dir, "pred-ordered.csv", "name,cluster\na,0\nb,0\nc,1\nd,1\ne,1\nf,1\n")
	f = figures("-truth", inOrder, "-pred", predOrdered, "-graph", mtx, "-constraints", cons)
	if f["cut"] != 2 || f["cut_truth"] != 1 || f["ml_violated"] != 1 {
		t.Errorf("same order, numbered graph: cut %v, cut_truth %v, ml_violated %v; want 2, 1, 1", f["cut"], f["cut_truth"], f["ml_violated"])
	}
	_, _, err := run(t, "eval", "-truth", truth, "-pred", predOrdered, "-graph", mtx)
	if err == nil || !strings.Contains(err.Error(), "name their nodes in different orders, and -graph "+mtx+" numbers its nodes") {
		t.Errorf("different orders, numbered graph: error %v", err)
	}
	// Other nodes, not another order: the readers' own errors (review
	// 123: "in different orders" for a missing node).
	pred5 := evalWriteTemp(t, dir, "pred5.csv", "name,cluster\na,0\nb,0\nc,1\nd,1\ne,1\n")
	if _, _, err := run(t, "eval", "-truth", inOrder, "-pred", pred5, "-graph", mtx); err == nil || strings.Contains(err.Error(), "different orders") || !strings.Contains(err.Error(), "no label") {
		t.Errorf("a node missing from the prediction: error %v", err)
	}
	// Without a graph the orders may differ: ARI by name.
	if f := figures("-truth", truth, "-pred", filepath.Join(dir, "pred-ordered.csv")); f["ari"] == 0 {
		t.Errorf("no graph: figures %v", f)
	}
}

// TestEvalNamedNodes: eval reads -graph as tether cluster does with
// -graph-format and -named-nodes, so that the labels tether cluster
// -named-nodes writes (an edge list of SNAP-style integer IDs) get their
// cut figures; eval lacked both flags, and the integers were read as node
// numbers beyond the files' nodes. The flags without -graph, or for a
// format that does not read them, are usage errors. The cut is counted by
// hand: two triangles joined by one edge, the partition the triangles.
func TestEvalNamedNodes(t *testing.T) {
	dir := t.TempDir()
	edges := evalWriteTemp(t, dir, "ids.edges", "1001 1002\n1002 1003\n1003 1001\n2001 2002\n2002 2003\n2003 2001\n1003 2001\n")
	truth := evalWriteTemp(t, dir, "truth.csv", "name,label\n2003,1\n1001,0\n2001,1\n1002,0\n2002,1\n1003,0\n")
	pred := evalWriteTemp(t, dir, "pred.csv", "name,cluster\n1001,0\n1002,0\n1003,0\n2001,1\n2002,1\n2003,1\n")
	out, _, err := run(t, "eval", "-json", "-truth", truth, "-pred", pred, "-graph", edges, "-named-nodes")
	if err != nil {
		t.Fatal(err)
	}
	if cut, ari := jsonFigure(t, out, "cut"), jsonFigure(t, out, "ari"); cut != 1 || ari != 1 {
		t.Errorf("-named-nodes: cut %v, ari %v; want 1, 1", cut, ari)
	}
	// Without it the error says how to read the integers as names.
	_, _, err = run(t, "eval", "-truth", truth, "-pred", pred, "-graph", edges)
	if err == nil || !strings.Contains(err.Error(), "is read as names with -named-nodes") {
		t.Errorf("without -named-nodes: error %v", err)
	}
	// Nor for a Matrix Market file, which -named-nodes does not read
	// (review 134).
	mtx := evalWriteTemp(t, dir, "g.mtx", "%%MatrixMarket matrix coordinate real symmetric\n6 6 1\n2 1 1\n")
	_, _, err = run(t, "eval", "-truth", truth, "-pred", pred, "-graph", mtx)
	if err == nil || !strings.Contains(err.Error(), "different orders") || strings.Contains(err.Error(), "-named-nodes") {
		t.Errorf("Matrix Market graph: error %v", err)
	}
	ordered := evalWriteTemp(t, dir, "ordered.csv", "name,label\n1001,0\n1002,0\n1003,0\n2001,1\n2002,1\n2003,1\n")
	_, _, err = run(t, "eval", "-truth", ordered, "-pred", pred, "-graph", edges)
	if err == nil || !strings.Contains(err.Error(), "node number outside the 6 nodes the labels give (node numbers 0…5, 0-based): if the file's integers are IDs rather than node numbers, read them as names with GraphOptions.NamedNodes; tether eval: -named-nodes") {
		t.Errorf("same order, without -named-nodes: error %v", err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-named-nodes"}, "usage: eval: -named-nodes reads the graph file -graph, which is not given"},
		{[]string{"-graph-format", "gml"}, "usage: eval: -graph-format reads the graph file -graph, which is not given"},
		{[]string{"-graph", "g.mtx", "-named-nodes"}, "usage: eval: -named-nodes reads the nodes of an edge list as names and does not apply to -graph g.mtx, a Matrix Market file"},
		{[]string{"-graph", edges, "-graph-format", "gml", "-graph-base", "1"}, "usage: eval: -graph-base numbers the nodes of an edge list and does not apply to -graph " + edges + ", a GML file"},
	} {
		_, _, err := run(t, append([]string{"eval", "-truth", truth, "-pred", pred}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.args, err, c.want)
		}
	}
}

// TestEvalSharedGraphLabelLines: a -graph GML file whose label "a" two
// nodes share (lines 3 and 6) names the nodes of the labels and
// constraints files; a line of those naming "a" cannot say which node
// it means, and its error names the graph's lines, as tether cluster
// names a data table's. They were 0-based rows (0 and 2), which are not
// lines of any file.
func TestEvalSharedGraphLabelLines(t *testing.T) {
	dir := t.TempDir()
	gml := evalWriteTemp(t, dir, "g.gml", "graph [\n node [ id 0\n label \"a\" ]\n node [ id 1\n label \"b\" ]\n node [ id 2 label \"a\" ]\n node [ id 3 label \"c\" ]\n edge [ source 0 target 1 ]\n edge [ source 1 target 2 ]\n]\n")
	truthA := evalWriteTemp(t, dir, "ta.csv", "name,label\na,0\nb,1\n")
	truthB := evalWriteTemp(t, dir, "tb.csv", "name,label\nb,0\nc,1\n")
	pred := evalWriteTemp(t, dir, "pn.csv", "node,label\n0,0\n1,1\n2,0\n3,1\n")
	cons := evalWriteTemp(t, dir, "c.csv", "i,j,kind\na,b,ml\n")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"labels", []string{"-truth", truthA, "-pred", truthA, "-graph", gml}, "(the rows on lines 3 and 6 of " + gml + ")"},
		{"constraints", []string{"-truth", truthB, "-pred", pred, "-graph", gml, "-constraints", cons}, `node name "a" is that of the rows on lines 3 and 6 of ` + gml},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := run(t, append([]string{"eval"}, tc.args...)...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to hold %q", err, tc.want)
			}
		})
	}
}

// TestClusterSharedGraphLabelLines: tether cluster, like eval, names the
// GML lines of two nodes that share a label when a side file names that
// label (input.Data's nameLines from dataset.GraphData.NameLines); it
// said 0-based rows before.
func TestClusterSharedGraphLabelLines(t *testing.T) {
	dir := t.TempDir()
	gml := evalWriteTemp(t, dir, "g.gml", "graph [\n node [ id 0\n label \"a\" ]\n node [ id 1\n label \"b\" ]\n node [ id 2 label \"a\" ]\n node [ id 3 label \"c\" ]\n edge [ source 0 target 1 ]\n edge [ source 1 target 2 ]\n edge [ source 2 target 3 ]\n]\n")
	cons := evalWriteTemp(t, dir, "c.csv", "i,j,kind\na,b,ml\n")
	partial := evalWriteTemp(t, dir, "p.csv", "name,label\na,0\nb,1\n")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"constraints", []string{"-constraints", cons}},
		{"partial labels", []string{"-partial-labels", partial}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := run(t, append([]string{"cluster", "-graph-file", gml, "-k", "2", "-o", filepath.Join(dir, "l")}, tc.args...)...)
			if want := "lines 3 and 6 of " + gml; err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("error %v, want it to hold %q", err, want)
			}
		})
	}
}

// TestEvalGraphBeyondLabels: an edge list with more nodes than the labels
// is an error that says the count comes from the labels; it said "the 4
// nodes declared" of a file that declares nothing, and pointed to
// -named-nodes, which cannot fit 5 nodes into 4 labels.
func TestEvalGraphBeyondLabels(t *testing.T) {
	dir := t.TempDir()
	labels := evalWriteTemp(t, dir, "t4", "0\n1\n0\n1\n")
	edges := evalWriteTemp(t, dir, "g5.txt", "0 1\n1 2\n2 3\n3 4\n")
	_, _, err := run(t, "eval", "-truth", labels, "-pred", labels, "-graph", edges)
	if err == nil || !strings.Contains(err.Error(), `g5.txt:4: value "4": invalid input: node number outside the 4 nodes the labels give (node numbers 0…3, 0-based): the file has more than 4 nodes`) ||
		strings.Contains(err.Error(), "declared") || strings.Contains(err.Error(), "-named-nodes") {
		t.Errorf("error %v", err)
	}
}
