package input

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/graph"
)

// TestPartialLabelMessagesNameNodes: the errors about partial labels
// (more classes than k; pairs against the labels) name a node as the
// file writes it — its line in a file of one label per line, its index in
// a "# base=1" file, its name — and, with rows dropped for missing
// values, the file's row of the node kept. They named the 0-based index
// of the node kept ("node 3" for line 4, or for the base-1 node 4). The
// expected nodes are read off the inputs by hand.
func TestPartialLabelMessagesNameNodes(t *testing.T) {
	g := twoTriangles(t)
	names := []string{"a", "b", "c", "d", "e", "f"}
	for _, tc := range []struct {
		name, cons, labs string
		noNames          bool
		want             string
		sentinel         error
	}{
		// Node 3 (0-based) is on line 5, after a comment.
		{name: "one label per line", labs: "# partial\n0\n1\n?\n2\n?\n?\n",
			want: "l.txt: 3 classes (0, 1, 2) for k = 2: line 5 has label 2; want at most 2 distinct labels (-1, ? or empty when unknown)", sentinel: ErrTooManyClasses},
		{name: "one class name per line", labs: "x\ny\n?\nz\n?\n?\n",
			want: `l.txt: 3 classes (x, y, z) for k = 2: line 4 has class "z"`, sentinel: ErrTooManyClasses},
		// Node 4 (0-based) is 5 in the file.
		{name: "base 1", labs: "# base=1\n1,0\n2,1\n5,2\n", noNames: true,
			want: "l.txt: 3 classes (0, 1, 2) for k = 2: node 5 has label 2; want at most 2 distinct labels (-1, ? or empty when unknown)", sentinel: ErrTooManyClasses},
		{name: "by name", labs: "name,label\nf,0\nb,1\ne,2\n",
			want: `l.txt: 3 classes (0, 1, 2) for k = 2: node "e" has label 2; want at most 2 distinct labels (-1, ? or empty when unknown)`, sentinel: ErrTooManyClasses},
		// Pairs against the labels, in a base-1 pairs file: nodes 0 and
		// 4 (0-based) are 1 and 5 there.
		{name: "must-link chain, base 1", cons: "# base=1\n1,2,ml\n2,5,ml\n", labs: "0,1\n4,0\n", noNames: true,
			want: "c.txt: constraint: conflicting constraints: the must-links join node 1, labelled 1, and node 5, labelled 0 in l.txt", sentinel: constraint.ErrConflict},
		{name: "components, base 1", cons: "# base=1\n1,2,ml\n5,6,ml\n2,6,cl\n", labs: "0,1\n4,1\n", noNames: true,
			want: "c.txt: constraint: conflicting constraints: cl(2,6) [c.txt:4] separates the must-link components of nodes 1 and 5, both labelled 1 in l.txt", sentinel: constraint.ErrConflict},
		{name: "must-link chain by name", cons: "a,b,ml\nb,e,ml\n", labs: "name,label\na,x\ne,y\n",
			want: `c.txt: constraint: conflicting constraints: the must-links join node a, labelled "x", and node e, labelled "y" in l.txt`, sentinel: constraint.ErrConflict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tempFiles(t, map[string]string{"c.txt": tc.cons, "l.txt": tc.labs})
			s := Supervision{Labels: filepath.Join(dir, "l.txt")}
			if tc.cons != "" {
				s.Constraints = filepath.Join(dir, "c.txt")
			}
			d := &Data{Name: "g", Graph: g, Names: names}
			if tc.noNames {
				d.Names = nil
			}
			_, err := s.AddTo(context.Background(), &cluster.Problem{Graph: g, K: 2}, d)
			if got := strings.ReplaceAll(errText(err), dir+string(filepath.Separator), ""); got != tc.want {
				t.Errorf("err = %q, want %q", got, tc.want)
			}
			if !errors.Is(err, tc.sentinel) {
				t.Errorf("err = %v does not wrap %v", err, tc.sentinel)
			}
		})
	}
}

// TestPartialLabelMessagesDroppedRows: with rows dropped for missing
// values, node i of the problem is the file's row d.Rows[i], and the
// error names that row as the file writes it (it named the kept node's
// row number as a name, "node \"5\"", whatever the file's layout).
// droppedTable keeps rows 0, 2, 4, 5 as nodes 0…3; row 5 (node 3) holds
// the third class.
func TestPartialLabelMessagesDroppedRows(t *testing.T) {
	ctx := context.Background()
	d, err := ReadTable(ctx, []byte(droppedTable), "m.csv", dataset.Options{Missing: dataset.MissingDrop, Spelling: cliSpelling})
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.FromEdges(4, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 1}, {I: 2, J: 3, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, labs, want string }{
		{"base 1", "# base=1\n1,0\n5,1\n6,2\n", "node 6 has label 2"},
		{"base 0", "0,0\n4,1\n5,2\n", "node 5 has label 2"},
		{"one label per line", "0\n?\n1\n?\n?\n2\n", "line 6 has label 2"},
		// A name column of row numbers, as tether labels writes it,
		// numbers the rows.
		{"by row name", "name,label\n0,a\n4,b\n5,c\n", `node 5 has class "c"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tempFiles(t, map[string]string{"p.txt": tc.labs})
			s := Supervision{Labels: filepath.Join(dir, "p.txt"), Spelling: cliSpelling}
			_, err := s.AddTo(ctx, &cluster.Problem{Graph: g, K: 2}, d)
			if !errors.Is(err, ErrTooManyClasses) || !strings.Contains(errText(err), ": "+tc.want) {
				t.Errorf("err = %v, want ErrTooManyClasses naming %q", err, tc.want)
			}
		})
	}
}

// TestPartialLabelsLargeIntegers: partial labels that are community IDs
// (an integer of max(n, dataset.LabelFloor) or more) are read as classes
// in increasing numeric order with the reader's note, whatever k, where
// they were refused; more classes than k name the label as the file
// writes it. Expected values by hand from the inputs.
func TestPartialLabelsLargeIntegers(t *testing.T) {
	g := twoTriangles(t)
	const u = constraint.Unlabeled
	note := "l.txt: labels 7, 1000000, 5000000 read as classes 0, 1, 2 in increasing order (label 1000000 on line 2 is max(n, LabelFloor) = 65536 or more for 6 nodes: integer labels number the classes from 0)"
	for _, tc := range []struct {
		name   string
		k      int
		labels constraint.Labels
		err    string
	}{
		{"k unknown", 0, constraint.Labels{1, u, 2, u, 0, u}, ""},
		{"k 3", 3, constraint.Labels{1, u, 2, u, 0, u}, ""},
		{"k 2", 2, nil, "l.txt: 3 classes (7, 1000000, 5000000) for k = 2: node 2 has label 5000000; want at most 2 distinct labels (-1, ? or empty when unknown)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tempFiles(t, map[string]string{"l.txt": "node,label\n0,1000000\n2,5000000\n4,7\n"})
			s := Supervision{Labels: filepath.Join(dir, "l.txt"), KFromLabels: true}
			p := &cluster.Problem{Graph: g, K: tc.k}
			a, err := s.AddTo(context.Background(), p, &Data{Name: "g", Graph: g})
			if got := strings.ReplaceAll(errText(err), dir+string(filepath.Separator), ""); got != tc.err {
				t.Fatalf("err = %q, want %q", got, tc.err)
			}
			if err != nil {
				return
			}
			if !reflect.DeepEqual(p.Labels, tc.labels) || p.K != 3 {
				t.Errorf("labels %v, k %d, want %v, 3", p.Labels, p.K, tc.labels)
			}
			if got := strings.ReplaceAll(a.LabelNote, dir+string(filepath.Separator), ""); got != note || len(a.Notes) != 1 || a.Notes[0] != a.LabelNote {
				t.Errorf("label note %q, notes %q, want %q", got, a.Notes, note)
			}
			if want := []string{"7", "1000000", "5000000"}; !reflect.DeepEqual(a.LabelClasses, want) {
				t.Errorf("classes %q, want %q", a.LabelClasses, want)
			}
			// The clusters are numbered by the classes, written as the
			// file writes them.
			if got, want := a.ClusterClasses(p.Labels, 3), []string{"7", "1000000", "5000000"}; !reflect.DeepEqual(got, want) {
				t.Errorf("cluster classes %q, want %q", got, want)
			}
		})
	}
}
