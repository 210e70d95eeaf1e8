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
