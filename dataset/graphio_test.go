package dataset

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/memlimit"
)

// dense returns the affinity matrix of g as nested slices.
func dense(g *graph.Graph) [][]float64 {
	n := g.N()
	out := make([][]float64, n)
	for i := range out {
		out[i] = make([]float64, n)
		for j := range out[i] {
			out[i][j] = g.Weight(i, j)
		}
	}
	return out
}

func TestReadGraph(t *testing.T) {
	// Expected matrices are written out by hand from the input text.
	cases := []struct {
		name   string
		in     string
		format GraphFormat
		opt    GraphOptions
		w      [][]float64
		names  []string
		labels []int
		class  []string
		base   int
	}{
		{
			name: "0-based weighted edge list with comments",
			in:   "# c\n0 1 2.5\n% c\n1 2 1\n\n",
			w:    [][]float64{{0, 2.5, 0}, {2.5, 0, 1}, {0, 1, 0}},
		},
		{
			name: "1-based detected, comma separated",
			in:   "1,2,1\n2,3,0.5\n",
			w:    [][]float64{{0, 1, 0}, {1, 0, 0.5}, {0, 0.5, 0}},
			base: 1,
		},
		{
			name: "forced 0-based keeps isolated node 0",
			in:   "1 2\n",
			opt:  GraphOptions{Base: Base0},
			w:    [][]float64{{0, 0, 0}, {0, 0, 1}, {0, 1, 0}},
		},
		{
			name: "directed duplicates and self loop, max policy",
			// 0→1, 1→0, 0→1 again: one undirected edge of weight max = 1.
			in: "0 1\n1 0\n0 1\n2 2\n1 2\n",
			w:  [][]float64{{0, 1, 0}, {1, 0, 1}, {0, 1, 1}},
		},
		{
			// As label and constraint files are (it was "1 field, want
			// \"i j\" or \"i j w\"").
			name: "semicolon separated",
			in:   "0;1;2.5\n1;2;1\n",
			w:    [][]float64{{0, 2.5, 0}, {2.5, 0, 1}, {0, 1, 0}},
		},
		{
			name: "sum policy and dropped self loops",
			in:   "0 1 1\n1 0 2\n2 2 1\n1 2 1\n",
			opt:  GraphOptions{Duplicates: DupSum, DropSelfLoops: true},
			w:    [][]float64{{0, 3, 0}, {3, 0, 1}, {0, 1, 0}},
		},
		{
			name:  "named nodes with header",
			in:    "source,target,weight\nalice,bob,2\nbob,\"carol x\",1\n",
			w:     [][]float64{{0, 2, 0}, {2, 0, 1}, {0, 1, 0}},
			names: []string{"alice", "bob", "carol x"},
		},
		{
			name: "NumNodes adds isolated nodes",
			in:   "0 1\n",
			opt:  GraphOptions{NumNodes: 3},
			w:    [][]float64{{0, 1, 0}, {1, 0, 0}, {0, 0, 0}},
		},
		{
			name:   "matrix market symmetric real",
			in:     "%%MatrixMarket matrix coordinate real symmetric\n% c\n3 3 3\n2 1 0.5\n3 2 2\n3 3 1\n",
			format: MatrixMarket,
			w:      [][]float64{{0, 0.5, 0}, {0.5, 0, 2}, {0, 2, 1}},
			base:   1,
		},
		{
			// An entry in both triangles with one value counts once, even
			// under DupSum; a repeat in one triangle is a duplicate (sum).
			name:   "matrix market symmetric, both triangles agree",
			in:     "%%MatrixMarket matrix coordinate real symmetric\n3 3 5\n2 1 0.5\n1 2 0.5\n3 2 2\n3 2 1\n2 3 3\n",
			format: MatrixMarket,
			opt:    GraphOptions{Duplicates: DupSum},
			w:      [][]float64{{0, 0.5, 0}, {0.5, 0, 3}, {0, 3, 0}},
			base:   1,
		},
		{
			name:   "matrix market symmetric pattern, both triangles",
			in:     "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n2 1\n1 2\n",
			format: MatrixMarket,
			w:      [][]float64{{0, 1}, {1, 0}},
			base:   1,
		},
		{
			name:   "matrix market general symmetric pattern",
			in:     "%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n2 1\n",
			format: MatrixMarket,
			w:      [][]float64{{0, 1}, {1, 0}},
			base:   1,
		},
		{
			name:   "matrix market general symmetrized",
			in:     "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 2 4\n2 1 2\n",
			format: MatrixMarket,
			opt:    GraphOptions{Symmetrize: true},
			// (A + Aᵀ)/2: (4+2)/2 = 3.
			w:    [][]float64{{0, 3}, {3, 0}},
			base: 1,
		},
		{
			name:   "GML with label attribute, weights and nested lists",
			in:     "graph [\n directed 0\n node [ id 10 label \"a\" club \"Mr. Hi\" graphics [ x 1 ] ]\n node [ id 20 label \"b\" club \"Officer\" ]\n node [ id 5 club \"Mr. Hi\" ]\n edge [ source 10 target 20 weight 2 ]\n edge [ source 5 target 10 ]\n]\n",
			format: GML,
			opt:    GraphOptions{LabelAttr: "club"},
			w:      [][]float64{{0, 2, 1}, {2, 0, 0}, {1, 0, 0}},
			names:  []string{"a", "b", "5"},
			labels: []int{0, 1, 0},
			class:  []string{"Mr. Hi", "Officer"},
		},
		{
			name:   "dense CSV with header",
			in:     "a,b,c\n0,1,0\n1,0,.5\n0,0.5,0\n",
			format: DenseCSV,
			w:      [][]float64{{0, 1, 0}, {1, 0, 0.5}, {0, 0.5, 0}},
			names:  []string{"a", "b", "c"},
		},
		{
			name:   "dense CSV symmetrized",
			in:     "1 2\n4 1\n",
			format: DenseCSV,
			opt:    GraphOptions{Symmetrize: true},
			w:      [][]float64{{1, 3}, {3, 1}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			format := c.format
			if format == GraphAuto {
				format = EdgeList
			}
			d, err := ReadGraph(context.Background(), strings.NewReader(c.in), "g", format, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := dense(d.G); !reflect.DeepEqual(got, c.w) {
				t.Errorf("W = %v, want %v", got, c.w)
			}
			if !reflect.DeepEqual(d.Names, c.names) {
				t.Errorf("Names = %q, want %q", d.Names, c.names)
			}
			if !reflect.DeepEqual(d.Labels, c.labels) || !reflect.DeepEqual(d.ClassNames, c.class) {
				t.Errorf("Labels = %v %q, want %v %q", d.Labels, d.ClassNames, c.labels, c.class)
			}
			if d.Base != c.base {
				t.Errorf("Base = %d, want %d", d.Base, c.base)
			}
		})
	}
}

func TestReadGraphErrors(t *testing.T) {
	cases := []struct {
		name     string
		in       string
		format   GraphFormat
		opt      GraphOptions
		sentinel error
		parts    []string
	}{
		{"negative weight", "0 1 -1\n", EdgeList, GraphOptions{}, ErrInvalid, []string{"g:1", "column 3", `"-1"`, "negative"}},
		{"bad weight", "0 1 1\n1 2 x\n", EdgeList, GraphOptions{}, ErrSyntax, []string{"g:2", `"x"`}},
		{"too many fields", "0 1 2 3\n", EdgeList, GraphOptions{}, ErrSyntax, []string{"g:1", "4 fields"}},
		// A line whose field count differs from the first data line's: a
		// weighted file whose last line lost its weight read that edge with
		// weight 1, silently.
		{"truncated last weight", "# w\n0 1 0.5\n1 2 0.2\n2 3\n", EdgeList, GraphOptions{}, ErrSyntax, []string{"g:4: ", "2 fields, want 3 as on the first data line (line 2)"}},
		{"weight after unweighted lines", "0 1\n1 2\n2 3 0.1\n", EdgeList, GraphOptions{}, ErrSyntax, []string{"g:3: ", "3 fields, want 2 as on the first data line (line 1)"}},
		{"weight after a header", "source target\n0 1\n1 2 0.1\n", EdgeList, GraphOptions{}, ErrSyntax, []string{"g:3: ", "3 fields, want 2 as on the first data line (line 2)"}},
		{"huge node number", "0 99999999999\n", EdgeList, GraphOptions{}, ErrTooLarge, []string{"g:1", "99999999999"}},
		// Review 114: numbers that are not integers were taken as node
		// names (np.savetxt's matrix became a graph of 2 named nodes),
		// and a Matrix Market file read as an edge list made its size
		// line an edge.
		{"non-integer node numbers", "0.000000000000000000e+00 1.000000000000000000e+00 1.000000000000000000e+00\n1.000000000000000000e+00 0.000000000000000000e+00 1.000000000000000000e+00\n", EdgeList, GraphOptions{}, ErrSyntax, []string{"g:1", `value "0.000000000000000000e+00"`, "every node is written as a number, and not all as integers"}},
		{"-1e-400", "0 1 1\n1 2 -1e-400\n", EdgeList, GraphOptions{}, ErrInvalid, []string{"g:2", "weight is negative"}}, // it read as −0 (review 115)
		// The line of the value kept among repeated entries: the error
		// named line 6 for the 0.7 of line 8 (review 114).
		{"mirror differs after a repeat", "%%MatrixMarket matrix coordinate real symmetric\n4 4 6\n2 1 1\n3 1 1\n3 2 1\n4 3 0.5\n3 4 0.5\n4 3 0.7\n", MatrixMarket, GraphOptions{}, ErrInvalid, []string{"g:8", "entry (3,4) = 0.5 on line 7 and its mirror (4,3) = 0.7 on line 8 differ"}},
		{"weight underflows to 0", "0 1 1\n1 2 1e-400\n", EdgeList, GraphOptions{}, ErrInvalid, []string{"g:2", `"1e-400"`, "weight is positive but below the smallest float64"}},
		{"dense weight underflows to 0", "0,2.5E-999\n2.5E-999,0\n", DenseCSV, GraphOptions{}, ErrInvalid, []string{"g:1", "weight is positive but below the smallest float64"}},
		{"matrix market as an edge list", "%%MatrixMarket matrix coordinate real symmetric\n4 4 4\n2 1 1\n", EdgeList, GraphOptions{}, ErrSyntax, []string{"a Matrix Market file (its first line is the %%MatrixMarket banner) read as an edge list"}},
		{"node outside NumNodes", "0 5\n", EdgeList, GraphOptions{NumNodes: 3}, ErrInvalid, []string{"g:1", `"5"`}},
		{"duplicate rejected", "0 1\n1 0\n", EdgeList, GraphOptions{Duplicates: DupError}, ErrInvalid, []string{"g:2", "repeats line 1"}},
		// The larger value used to be kept silently.
		{"mm symmetric, triangles differ", "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n2 1 0.5\n3 3 1\n1 2 0.7\n", MatrixMarket, GraphOptions{}, ErrInvalid,
			[]string{"g:5", "(2,1) = 0.5 on line 3", "(1,2) = 0.7 on line 5", "differ"}},
		{"mm symmetric, triangles differ, upper first", "%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n1 2 4\n2 1 3\n", MatrixMarket, GraphOptions{Symmetrize: true}, ErrInvalid,
			[]string{"g:4", "(1,2) = 4 on line 3", "(2,1) = 3 on line 4"}},
		{"mm absurd size", "%%MatrixMarket matrix coordinate real symmetric\n1000000000000 1000000000000 1\n1 1 1\n", MatrixMarket, GraphOptions{}, ErrTooLarge, []string{"g:2"}},
		{"mm not square", "%%MatrixMarket matrix coordinate real general\n2 3 0\n", MatrixMarket, GraphOptions{}, ErrInvalid, []string{"2×3"}},
		{"mm asymmetric", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1\n", MatrixMarket, GraphOptions{}, ErrInvalid, []string{"g:3", "not symmetric", "Symmetrize"}},
		// A decimal index is not an integer (it was "outside 1…3"); an
		// integer beyond int64 is out of range (a size line of one was
		// "must hold three non-negative integers").
		{"mm decimal row index", "%%MatrixMarket matrix coordinate real general\n3 3 1\n2.0 1 1.0\n", MatrixMarket, GraphOptions{}, ErrSyntax, []string{"g:3: column 1: ", `value "2.0"`, "row index is not an integer"}},
		{"mm decimal column index", "%%MatrixMarket matrix coordinate real general\n3 3 1\n2 1e0 1.0\n", MatrixMarket, GraphOptions{}, ErrSyntax, []string{"g:3: column 2: ", "column index is not an integer"}},
		{"mm huge row index", "%%MatrixMarket matrix coordinate real general\n3 3 1\n99999999999999999999 1 1.0\n", MatrixMarket, GraphOptions{}, ErrInvalid, []string{"g:3: column 1: ", `value "99999999999999999999"`, "row index outside 1…3"}},
		{"mm huge size", "%%MatrixMarket matrix coordinate real general\n99999999999999999999 99999999999999999999 1\n", MatrixMarket, GraphOptions{}, ErrTooLarge, []string{"g:2: ", "99999999999999999999 rows out of range: more than GraphOptions.MaxNodes"}},
		{"mm huge entries", "%%MatrixMarket matrix coordinate real general\n3 3 99999999999999999999\n", MatrixMarket, GraphOptions{}, ErrInvalid, []string{"g:2: ", "99999999999999999999 entries out of range: cannot fit a 3×3 matrix"}},
		// An edge-list node beyond int64 is an integer out of range, not a
		// name beside integers (which advised -named-nodes).
		{"edge list node beyond int64", "0 1\n1 99999999999999999999\n", EdgeList, GraphOptions{}, ErrTooLarge, []string{"g:2: ", `value "99999999999999999999"`, "node number out of range: at most"}},
		{"edge list first node beyond int64", "99999999999999999999 1\n1 2\n", EdgeList, GraphOptions{}, ErrTooLarge, []string{"g:1: ", "node number out of range"}},
		{"edge list node below int64", "0 1\n-99999999999999999999 1\n", EdgeList, GraphOptions{}, ErrInvalid, []string{"g:2: ", "negative node number"}},
		{"gml id beyond int64", "graph [ node [ id 99999999999999999999 ] ]", GML, GraphOptions{}, ErrInvalid, []string{"g:1: id: ", "node id out of range"}},
		{"mm index out of range", "%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n3 1 1\n", MatrixMarket, GraphOptions{}, ErrInvalid, []string{"g:3", `"3"`, "1…2"}},
		{"mm too few entries", "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n2 1 1\n", MatrixMarket, GraphOptions{}, ErrSyntax, []string{"1 entries", "declares 2"}},
		{"mm too many entries", "%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n2 1 1\n2 2 1\n", MatrixMarket, GraphOptions{}, ErrSyntax, []string{"g:4", "more entries"}},
		{"mm array", "%%MatrixMarket matrix array real general\n2 2\n", MatrixMarket, GraphOptions{}, ErrSyntax, []string{"coordinate"}},
		{"mm complex", "%%MatrixMarket matrix coordinate complex general\n", MatrixMarket, GraphOptions{}, ErrSyntax, []string{"complex"}},
		{"gml unknown target", "graph [ node [ id 1 ] edge [ source 1 target 2 ] ]", GML, GraphOptions{}, ErrInvalid, []string{"g:1", "target", `"2"`}},
		{"gml missing attr", "graph [\nnode [ id 1 ]\n]", GML, GraphOptions{LabelAttr: "club"}, ErrInvalid, []string{"g:2", `node 1 has no attribute "club"`, "no attribute besides id"}},
		// The attributes the nodes do have are listed; the id is not given
		// as a "value" of the missing attribute.
		{"gml misspelt attr", "graph [\n name \"k\"\n node [ id 0 label \"a\" club \"x\" ]\n node [ id 4\n club \"y\" size 2 graphics [ x 1 ] ]\n]", GML, GraphOptions{LabelAttr: "clubb"}, ErrInvalid,
			[]string{"g:3: ", `node 0 has no attribute "clubb"`, `"club", "label", "size"`}},
		{"gml attr on some nodes", "graph [\n node [ id 0 club \"x\" ]\n node [ id 4 ]\n]", GML, GraphOptions{LabelAttr: "club"}, ErrInvalid,
			[]string{"g:3: ", `node 4 has no attribute "club"`, `"club"`}},
		{"gml unbalanced", "graph [ node [ id 1 ]", GML, GraphOptions{}, ErrSyntax, []string{"missing ']'"}},
		{"gml deep", "graph [ " + strings.Repeat("a [ ", 100), GML, GraphOptions{}, ErrTooLarge, []string{"nested"}},
		{"gml duplicate id", "graph [ node [ id 1 ] node [ id 1 ] ]", GML, GraphOptions{}, ErrInvalid, []string{"twice"}},
		// A second graph list and a repeated key that tether reads were
		// silently dropped: the first graph and the first value were used.
		{"gml second graph", "graph [\n node [ id 0 ]\n]\ngraph [\n node [ id 1 ]\n]\n", GML, GraphOptions{}, ErrSyntax, []string{"g:4: ", "a second \"graph [ … ]\" list (the first is on line 1)"}},
		{"gml node two ids", "graph [\n node [ id 0 ]\n node [ id 1\n id 2 ]\n]", GML, GraphOptions{}, ErrSyntax, []string{"g:4: ", "id: ", `value "2"`, `the node has "id" twice (first on line 3)`}},
		{"gml node two labels", "graph [\n node [ id 0 label \"a\" label \"b\" ]\n]", GML, GraphOptions{}, ErrSyntax, []string{"g:2: ", `the node has "label" twice`}},
		{"gml node two label attrs", "graph [\n node [ id 0 club \"x\"\n club \"y\" ]\n]", GML, GraphOptions{LabelAttr: "club"}, ErrSyntax, []string{"g:3: ", `value "y"`, `the node has "club" twice (first on line 2)`}},
		{"gml label attr scalar and list", "graph [\n node [ id 0 club [ a 1 ] club \"y\" ]\n]", GML, GraphOptions{LabelAttr: "club"}, ErrSyntax, []string{"g:2: ", `"club" twice`}},
		{"gml edge two weights", "graph [ node [ id 0 ] node [ id 1 ]\n edge [ source 0 target 1\n weight 2\n weight 5 ] ]", GML, GraphOptions{}, ErrSyntax, []string{"g:4: ", `value "5"`, `the edge has "weight" twice (first on line 3)`}},
		{"gml edge two values", "graph [ node [ id 0 ] node [ id 1 ]\n edge [ source 0 target 1 value 2 value 5 ] ]", GML, GraphOptions{}, ErrSyntax, []string{"g:2: ", `"value" twice`}},
		{"gml edge two weight attrs", "graph [ node [ id 0 ] node [ id 1 ]\n edge [ source 0 target 1 w 2 w 5 ] ]", GML, GraphOptions{WeightAttr: "w"}, ErrSyntax, []string{"g:2: ", `"w" twice`}},
		{"gml edge two targets", "graph [ node [ id 0 ] node [ id 1 ]\n edge [ source 0 target 1 target 0 ] ]", GML, GraphOptions{}, ErrSyntax, []string{"g:2: ", `"target" twice`}},
		{"gml graph directed twice", "graph [ directed 0\n directed 1 node [ id 0 ] ]", GML, GraphOptions{}, ErrSyntax, []string{"g:2: ", `the graph has "directed" twice`}},
		{"dense asymmetric", "0,1\n2,0\n", DenseCSV, GraphOptions{}, ErrInvalid, []string{"not symmetric"}},
		{"dense not square", "0,1\n", DenseCSV, GraphOptions{}, ErrInvalid, []string{"square"}},
		{"dense negative", "0,-1\n-1,0\n", DenseCSV, GraphOptions{}, ErrInvalid, []string{"g:1", "column 2", "negative"}},
		// Finite weights whose sums overflow: every method divides by the
		// degrees or the volume, which would be +Inf.
		{"degree overflows", "0 1 1e308\n1 2 1e308\n2 3 1\n", EdgeList, GraphOptions{}, ErrInvalid, []string{"g:", "node 1", "sum beyond"}},
		{"volume overflows", "0 1 1e308\n", EdgeList, GraphOptions{}, ErrInvalid, []string{"g:", "all the weights", "sum beyond"}},
		{"named degree overflows", "a b 1e308\nb c 1e308\n", EdgeList, GraphOptions{}, ErrInvalid, []string{"node b", "sum beyond"}},
		{"mm degree overflows", "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 1e308\n3 2 1e308\n", MatrixMarket, GraphOptions{}, ErrInvalid, []string{"node 2", "sum beyond"}},
		{"dense degree overflows", "0,1e308,1e308\n1e308,0,0\n1e308,0,0\n", DenseCSV, GraphOptions{}, ErrInvalid, []string{"node 0", "sum beyond"}},
		{"gml degree overflows", "graph [ node [ id 7 ] node [ id 8 ] node [ id 9 ] edge [ source 7 target 8 weight 1e308 ] edge [ source 8 target 9 weight 1e308 ] ]", GML, GraphOptions{}, ErrInvalid, []string{"node 8", "sum beyond"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadGraph(context.Background(), strings.NewReader(c.in), "g", c.format, c.opt)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, c.sentinel) {
				t.Errorf("error %q does not wrap %v", err, c.sentinel)
			}
			for _, p := range c.parts {
				if !strings.Contains(err.Error(), p) {
					t.Errorf("message %q lacks %q", err, p)
				}
			}
		})
	}
}

// TestGraphFormatFor: the extension picks the reader, in any case; .mm is
// Matrix Market as .mtx is (it was an edge list, so that a file written by
// tether cluster -graph-out x.mm read its size line as an edge).
func TestGraphFormatFor(t *testing.T) {
	for _, c := range []struct {
		path string
		want GraphFormat
	}{
		{"g.mtx", MatrixMarket}, {"g.MTX", MatrixMarket}, {"g.mm", MatrixMarket}, {"dir/G.Mm", MatrixMarket},
		{"g.gml", GML}, {"g.csv", DenseCSV}, {"g.txt", EdgeList}, {"g.edges", EdgeList}, {"g", EdgeList}, {"g.mm.txt", EdgeList},
	} {
		if got := GraphFormatFor(c.path); got != c.want {
			t.Errorf("GraphFormatFor(%q) = %v, want %v", c.path, got, c.want)
		}
	}
	// Written as Matrix Market under .mm, the file reads back as the graph.
	g, err := graph.FromEdges(3, []graph.Edge{{I: 0, J: 1, W: 2}, {I: 1, J: 2, W: 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	var mm bytes.Buffer
	if err := WriteMatrixMarket(&mm, g); err != nil {
		t.Fatal(err)
	}
	d, err := ReadGraph(context.Background(), &mm, "x.mm", GraphAuto, GraphOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dense(d.G), dense(g); !reflect.DeepEqual(got, want) {
		t.Errorf("x.mm read as %v, wrote %v", got, want)
	}
}

func TestGraphWriteRoundTrip(t *testing.T) {
	g, err := graph.FromEdges(4, []graph.Edge{{I: 0, J: 1, W: 0.1}, {I: 1, J: 2, W: 3}, {I: 2, J: 2, W: 1e-7}})
	if err != nil {
		t.Fatal(err)
	}
	var el, mm bytes.Buffer
	if err := WriteEdgeList(&el, g); err != nil {
		t.Fatal(err)
	}
	if err := WriteMatrixMarket(&mm, g); err != nil {
		t.Fatal(err)
	}
	a, err := ReadGraph(context.Background(), &el, "g.txt", EdgeList, GraphOptions{Base: Base0, NumNodes: 4})
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadGraph(context.Background(), &mm, "g.mtx", MatrixMarket, GraphOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := dense(g)
	if !reflect.DeepEqual(dense(a.G), want) || !reflect.DeepEqual(dense(b.G), want) {
		t.Errorf("round trips differ:\nedge list %v\nmtx %v\nwant %v", dense(a.G), dense(b.G), want)
	}
}

// TestEdgeListAutoBase: BaseAuto reads an edge list whose smallest node
// number is 1 as 1-based, with a warning naming the rule and Base0, unless
// GraphOptions.NumNodes leaves room for node 0 (then 0-based, as the
// constraint and label files are) or leaves none (then 1-based without a
// word: the only reading that fits). "1 2/2 3/3 1/4 5" with NumNodes 6 was
// read 1-based, its pairs then pointing at the wrong nodes (review 86).
// The edges are written out from the text: node i of the file is node
// i − base of the graph.
func TestEdgeListAutoBase(t *testing.T) {
	const (
		shifted     = "1 2\n2 3\n3 1\n4 5\n"
		zeroWarning = "g.edges: node numbers read as 0-based, the smallest being 1 and the 6 nodes leaving room for node 0 above the largest, 5 (GraphOptions.Base auto): node 0 has no edge; if the file numbers the nodes from 1 and its last node has no edge, read it as 1-based (GraphOptions.Base = Base1)"
		warning     = "g.edges: node numbers read as 1-based, the smallest being 1 (GraphOptions.Base auto: 1-based when no edge names node 0): node 1 of the file is the first node, which the files that number the nodes from 0 (constraints, labels by node) call 0; if the file numbers them from 0 and node 0 has no edge, read it as 0-based (GraphOptions.Base = Base0)"
	)
	for _, c := range []struct {
		name     string
		in       string
		opt      GraphOptions
		n, base  int
		edge     [2]int // an edge of the graph: the file's "1 2"
		warnings []string
	}{
		{"no NumNodes: 1-based, warned", shifted, GraphOptions{}, 5, 1, [2]int{0, 1}, []string{warning}},
		{"NumNodes above the largest: 0-based, warned", shifted, GraphOptions{NumNodes: 6}, 6, 0, [2]int{1, 2}, []string{zeroWarning}},
		{"NumNodes equal to the largest: 1-based", shifted, GraphOptions{NumNodes: 5}, 5, 1, [2]int{0, 1}, nil},
		{"node 0 named: 0-based", "0 1\n1 2\n2 3\n", GraphOptions{}, 4, 0, [2]int{0, 1}, nil},
		{"smallest 2: 0-based", "2 3\n3 4\n", GraphOptions{}, 5, 0, [2]int{2, 3}, nil},
		{"Base1 given", shifted, GraphOptions{Base: Base1}, 5, 1, [2]int{0, 1}, nil},
		{"Base0 given", shifted, GraphOptions{Base: Base0}, 6, 0, [2]int{1, 2}, nil},
		{"named nodes", shifted, GraphOptions{NamedNodes: true}, 5, 0, [2]int{0, 1}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := ReadGraph(context.Background(), strings.NewReader(c.in), "g.edges", GraphAuto, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if d.G.N() != c.n || d.Base != c.base {
				t.Errorf("n = %d, base %d; want %d, %d", d.G.N(), d.Base, c.n, c.base)
			}
			if w := d.G.Weight(c.edge[0], c.edge[1]); w != 1 {
				t.Errorf("W[%d,%d] = %g, want 1", c.edge[0], c.edge[1], w)
			}
			if !reflect.DeepEqual(d.Warnings, c.warnings) {
				t.Errorf("warnings %q, want %q", d.Warnings, c.warnings)
			}
		})
	}
	// The warning as each front end spells -graph-base: a job and the
	// web app have none, and name the library's option alone.
	for front, sp := range spellingsByFront {
		d, err := ReadGraph(context.Background(), strings.NewReader(shifted), "g.edges", GraphAuto, GraphOptions{Spelling: sp})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"cli": "(GraphOptions.Base = Base0; tether: -graph-base 0)", "job": "(GraphOptions.Base = Base0)", "web": "(GraphOptions.Base = Base0)", "lib": "(GraphOptions.Base = Base0)"}[front]
		checkSpelled(t, front, d.Warnings, want)
		if !strings.HasSuffix(d.Warnings[0], want) {
			t.Errorf("%s: warning %q does not end with %q", front, d.Warnings[0], want)
		}
	}
	withGraphBase := Spelling{Front: "serve", Style: StyleOption, GraphBase: "base"}
	d, err := ReadGraph(context.Background(), strings.NewReader(shifted), "g.edges", GraphAuto, GraphOptions{Spelling: withGraphBase})
	if err != nil {
		t.Fatal(err)
	}
	if want := "(GraphOptions.Base = Base0; serve: option base 0)"; len(d.Warnings) != 1 || !strings.HasSuffix(d.Warnings[0], want) {
		t.Errorf("warnings %q, want one ending with %q", d.Warnings, want)
	}
}

// TestEdgeListSparseNumbers: an integer edge list whose integers are IDs
// (SNAP's files: a 34-node network with nodes such as 240891) is read as
// max+1 numbered nodes, as before, mostly isolated, but now with a warning
// naming GraphOptions.NamedNodes, which reads the 34 nodes (review 118:
// "graph 988599 nodes, 78 edges, 988565 isolated", and no word of
// -named-nodes). The rule (sparseNumbersWarning): n ≥ 1000 and fewer than
// n/10 nodes in an edge; a graph with many isolated nodes, a small graph,
// and a node count the caller or the file declares are not warned of.
func TestEdgeListSparseNumbers(t *testing.T) {
	ring := func(ids func(i int) int, k int) string {
		var b strings.Builder
		for i := 0; i < k; i++ {
			fmt.Fprintf(&b, "%d %d\n", ids(i), ids((i+1)%k))
		}
		return b.String()
	}
	snap := ring(func(i int) int { return 1000 + 7001*i }, 34) // nodes 1000…232033
	// top(k) numbers a ring of k nodes 0…k−2 and 999.
	top := func(k int) func(i int) int {
		return func(i int) int {
			if i == k-1 {
				return 999
			}
			return i
		}
	}
	const snapWarning = "s.txt: only 34 of the 232034 nodes appear in an edge: the integers of the file are read as the node numbers 0…232033, so 232000 nodes have no edge; if the integers are IDs rather than node numbers, read them as names, the 34 nodes numbered in order of first appearance (set GraphOptions.NamedNodes, or write them in the file as names that are not integers, such as n232033)"
	for _, c := range []struct {
		name     string
		in       string
		opt      GraphOptions
		n        int
		warnings []string
	}{
		{"IDs", snap, GraphOptions{}, 232034, []string{snapWarning}},
		{"IDs read as names", snap, GraphOptions{NamedNodes: true}, 34, nil},
		{"IDs with NumNodes", snap, GraphOptions{NumNodes: 300000}, 300000, nil},
		{"IDs with the count declared", "# 232034 nodes, undirected, 0-based: i j weight\n" + snap, GraphOptions{}, 232034, nil},
		// 99 of 1000 nodes in an edge: warned; 100 of 1000: not.
		{"99 of 1000", ring(top(99), 99), GraphOptions{}, 1000,
			[]string{"s.txt: only 99 of the 1000 nodes appear in an edge: the integers of the file are read as the node numbers 0…999, so 901 nodes have no edge; if the integers are IDs rather than node numbers, read them as names, the 99 nodes numbered in order of first appearance (set GraphOptions.NamedNodes, or write them in the file as names that are not integers, such as n999)"}},
		{"100 of 1000", ring(top(100), 100), GraphOptions{}, 1000, nil},
		{"half isolated", ring(func(i int) int { return 2 * i }, 1000), GraphOptions{}, 1999, nil},
		{"small", "0 1\n1 500\n", GraphOptions{}, 501, nil},
		{"1-based", "1 2\n2 5000\n", GraphOptions{}, 5000, []string{
			"s.txt: node numbers read as 1-based, the smallest being 1 (GraphOptions.Base auto: 1-based when no edge names node 0): node 1 of the file is the first node, which the files that number the nodes from 0 (constraints, labels by node) call 0; if the file numbers them from 0 and node 0 has no edge, read it as 0-based (GraphOptions.Base = Base0)",
			"s.txt: only 3 of the 5000 nodes appear in an edge: the integers of the file are read as the node numbers 1…5000, so 4997 nodes have no edge; if the integers are IDs rather than node numbers, read them as names, the 3 nodes numbered in order of first appearance (set GraphOptions.NamedNodes, or write them in the file as names that are not integers, such as n5000)"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := ReadGraph(context.Background(), strings.NewReader(c.in), "s.txt", GraphAuto, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if d.G.N() != c.n {
				t.Errorf("n = %d, want %d", d.G.N(), c.n)
			}
			if !reflect.DeepEqual(d.Warnings, c.warnings) {
				t.Errorf("warnings\n%q\nwant\n%q", d.Warnings, c.warnings)
			}
		})
	}
}

// TestIndexBaseText: IndexBase reads and writes "auto", "0" and "1", as
// tether cluster's -graph-base takes them, and refuses another text.
func TestIndexBaseText(t *testing.T) {
	for _, b := range []IndexBase{BaseAuto, Base0, Base1} {
		text, err := b.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var got IndexBase
		if err := got.UnmarshalText(text); err != nil || got != b || b.String() != string(text) {
			t.Errorf("%v: text %q read back as %v, %v", b, text, got, err)
		}
	}
	var b IndexBase
	if err := b.UnmarshalText([]byte("2")); !errors.Is(err, ErrInvalid) {
		t.Errorf("UnmarshalText(2) = %v, want ErrInvalid", err)
	}
}

// An edge list written by WriteEdgeList reads back with its node count
// and base from its first line, with the default options: node 0 and the
// last nodes without an edge are kept (before, the largest node number set
// n and node 0's absence made the file 1-based). Options the caller sets
// win over the line, each on its own; a header that is not exactly
// WriteEdgeList's is an ordinary comment; a node beyond the declared count
// is an error.
func TestEdgeListHeaderDeclaresNodes(t *testing.T) {
	g, err := graph.FromEdges(7, []graph.Edge{{I: 1, J: 2, W: 0.5}, {I: 2, J: 3, W: 1}, {I: 3, J: 3, W: 2}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteEdgeList(&buf, g); err != nil {
		t.Fatal(err)
	}
	written := buf.String()
	d, err := ReadGraph(context.Background(), strings.NewReader(written), "g.txt", GraphAuto, GraphOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(dense(d.G), dense(g)) || d.Base != 0 {
		t.Errorf("read back n = %d, base %d, %v; want %v", d.G.N(), d.Base, dense(d.G), dense(g))
	}
	for _, tc := range []struct {
		name, text string
		opt        GraphOptions
		n, base    int
		err        string
	}{
		{"NumNodes given", written, GraphOptions{NumNodes: 9}, 9, 0, ""},
		{"Base1 given", written, GraphOptions{Base: Base1}, 7, 1, ""},
		{"other comment", strings.Replace(written, "# 7 nodes,", "# 7 vertices,", 1), GraphOptions{}, 3, 1, ""},
		{"node beyond the count", "# 3 nodes, undirected, 0-based: i j weight\n0 1 1\n1 5 1\n", GraphOptions{}, 0, 0, `g.txt:3: value "5": invalid input: node number outside the 3 nodes declared (integers that are IDs rather than node numbers are read as names with GraphOptions.NamedNodes)`},
		{"count beyond MaxNodes", "# 100 nodes, undirected, 0-based: i j weight\n0 1 1\n", GraphOptions{MaxNodes: 10}, 0, 0, "100 nodes exceed GraphOptions.MaxNodes = 10"},
		{"node beyond the short count", "# 4 nodes\n0 1\n1 2\n3 4\n", GraphOptions{}, 0, 0, `g.txt:4: value "4": invalid input: node number outside the 4 nodes declared (integers that are IDs rather than node numbers are read as names with GraphOptions.NamedNodes)`},
		// A count the caller gives (tether eval: the labels') is not the
		// file's declaration: the error says where it comes from (it said
		// "the 4 nodes declared" of a file that declares nothing, and
		// named NamedNodes, which cannot help a file of 5 nodes).
		{"node beyond the caller's count", "0 1\n1 2\n2 3\n3 4\n", GraphOptions{NumNodes: 4}, 0, 0, `g.txt:4: value "4": invalid input: node number outside the 4 nodes GraphOptions.NumNodes gives (node numbers 0…3, 0-based): the file has more than 4 nodes`},
		{"node beyond the labels' count", "0 1\n1 2\n2 3\n3 4\n", GraphOptions{NumNodes: 4, NumNodesFrom: "the labels give"}, 0, 0, `g.txt:4: value "4": invalid input: node number outside the 4 nodes the labels give (node numbers 0…3, 0-based): the file has more than 4 nodes`},
		{"caller's count over the file's", "# 5 nodes\n0 1\n1 2\n2 3\n3 4\n", GraphOptions{NumNodes: 4, NumNodesFrom: "the labels give"}, 0, 0, `g.txt:5: value "4": invalid input: node number outside the 4 nodes the labels give (node numbers 0…3, 0-based): the file has more than 4 nodes`},
		{"1-based beyond the labels' count", "1 2\n2 3\n3 4\n4 5\n", GraphOptions{NumNodes: 4, NumNodesFrom: "the labels give", Base: Base1}, 0, 0, `g.txt:4: value "5": invalid input: node number outside the 4 nodes the labels give (node numbers 1…4, 1-based): the file has more than 4 nodes`},
		{"IDs beyond the labels' count", "10 20\n20 30\n30 40\n", GraphOptions{NumNodes: 4, NumNodesFrom: "the labels give", Spelling: Spelling{Front: "tether", CommandLine: true}}, 0, 0, `g.txt:1: value "10": invalid input: node number outside the 4 nodes the labels give (node numbers 0…3, 0-based): if the file's integers are IDs rather than node numbers, read them as names with GraphOptions.NamedNodes; tether: -named-nodes`},
		{"names beyond the labels' count", "a b\nb c\nc d\nd e\n", GraphOptions{NumNodes: 4, NumNodesFrom: "the labels give"}, 0, 0, `g.txt: invalid input: 5 named nodes, more than the 4 nodes the labels give`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ReadGraph(context.Background(), strings.NewReader(tc.text), "g.txt", GraphAuto, tc.opt)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.G.N() != tc.n || d.Base != tc.base {
				t.Errorf("n = %d, base %d; want %d, %d", d.G.N(), d.Base, tc.n, tc.base)
			}
		})
	}
}

func TestReadLabels(t *testing.T) {
	cases := []struct {
		name    string
		in      string
		opt     LabelOptions
		labels  []int
		classes []string
	}{
		{"one per line", "0\n2\n1\n-1\n", LabelOptions{}, []int{0, 2, 1, -1}, nil},
		{"one per line with header, CRLF", "label\r\n1\r\n0\r\n", LabelOptions{}, []int{1, 0}, nil},
		{"pairs csv", "node,label\n2,1\n0,0\n", LabelOptions{}, []int{0, -1, 1}, nil},
		{"pairs space (Wiki_category)", "0 8\n1 8\n2 3\n", LabelOptions{}, []int{8, 8, 3}, nil},
		{"pairs with N", "1 1\n", LabelOptions{N: 3}, []int{-1, 1, -1}, nil},
		{"strings sorted", "b\na\nb\n", LabelOptions{}, []int{1, 0, 1}, []string{"a", "b"}},
		{"comments and blanks", "# x\n\n1\n% y\n2\n", LabelOptions{}, []int{1, 2}, nil},
		// −1, ? and an empty field mark a node without a class, as
		// ReadNodeLabels and constraint.ReadLabels read them: never a
		// class name (? and "" were classes, or errors with Strict), and
		// a first line "?" is a node, not a header.
		{"pairs, ? and empty", "0,?\n1,\n2,1\n3,-1\n", LabelOptions{}, []int{-1, -1, 1, -1}, nil},
		{"pairs, ? and empty, strict", "0,?\n1,\n2,1\n", LabelOptions{Strict: true}, []int{-1, -1, 1}, nil},
		{"pairs by blanks, ?, strict (Wiki_category)", "0 8\n1 ?\n2 3\n", LabelOptions{Strict: true}, []int{8, -1, 3}, nil},
		{"strings and ?", "b\n?\na\n-1\n", LabelOptions{}, []int{1, -1, 0, -1}, []string{"a", "b"}},
		{"strings and empty", "0,b\n1,\n2,a\n", LabelOptions{}, []int{1, -1, 0}, []string{"a", "b"}},
		{"first line ?", "?\n1\n0\n", LabelOptions{Strict: true}, []int{-1, 1, 0}, nil},
		{"only ?", "?\n?\n", LabelOptions{}, []int{-1, -1}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := ReadLabels(strings.NewReader(c.in), "l", c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(d.Labels, c.labels) || !reflect.DeepEqual(d.ClassNames, c.classes) {
				t.Errorf("got %v %q, want %v %q", d.Labels, d.ClassNames, c.labels, c.classes)
			}
		})
	}
	bad := []struct {
		in    string
		opt   LabelOptions
		parts []string
	}{
		{"1\nx\n", LabelOptions{Strict: true}, []string{"l:2", `"x"`}},
		{"0 1\n0 2\n", LabelOptions{}, []string{"l:2", "already labeled on line 1"}},
		{"0 1\n1\n", LabelOptions{}, []string{"l:2", "1 field"}},
		{"0 1 2\n", LabelOptions{}, []string{"3 fields"}},
		{"1\n2\n", LabelOptions{N: 3}, []string{"2 labels, want 3"}},
		{"99999999999 1\n", LabelOptions{}, []string{"l:1", "node index"}},
		// Beyond int64: out of range, not "not a non-negative integer",
		// and never a header dropped.
		{"99999999999999999999 1\n0 2\n", LabelOptions{}, []string{"l:1", "node index ≥"}},
		{"0 1\n99999999999999999999 1\n", LabelOptions{}, []string{"l:2", "node index ≥"}},
		{"-3\n", LabelOptions{Strict: true}, []string{"l:1", `"-3"`}},
	}
	for _, b := range bad {
		_, err := ReadLabels(strings.NewReader(b.in), "l", b.opt)
		if err == nil {
			t.Errorf("%q: no error", b.in)
			continue
		}
		for _, p := range b.parts {
			if !strings.Contains(err.Error(), p) {
				t.Errorf("%q: message %q lacks %q", b.in, err, p)
			}
		}
	}
}

func TestWriteLabels(t *testing.T) {
	var a, b bytes.Buffer
	labels := []int{2, 0, -1}
	if err := WriteLabels(&a, labels); err != nil {
		t.Fatal(err)
	}
	if err := WriteLabelsCSV(&b, labels); err != nil {
		t.Fatal(err)
	}
	if a.String() != "2\n0\n-1\n" {
		t.Errorf("WriteLabels = %q", a.String())
	}
	if b.String() != "node,label\n0,2\n1,0\n2,-1\n" {
		t.Errorf("WriteLabelsCSV = %q", b.String())
	}
	for _, buf := range []*bytes.Buffer{&a, &b} {
		d, err := ReadLabels(buf, "l", LabelOptions{Strict: true})
		if err != nil || !reflect.DeepEqual(d.Labels, labels) {
			t.Errorf("round trip: %v %v", d, err)
		}
	}
}

// Repeated edges merged by DupMax: a warning naming the first repeat whose
// weight differs (its line, both weights and the earlier line) and the
// count, in edge lists and Matrix Market files; none when the repeats
// carry the same weight (both directions of an unweighted directed edge)
// or another policy was asked for.
func TestReadGraphRepeatWarning(t *testing.T) {
	cases := []struct {
		name, in string
		format   GraphFormat
		opt      GraphOptions
		want     []string // substrings of the one warning; nil: no warning
	}{
		{"same weights", "0 1\n1 0\n1 2\n", EdgeList, GraphOptions{}, nil},
		{"one differs", "0 1 1\n0 1 2\n1 2 1\n2 0 1\n", EdgeList, GraphOptions{}, []string{"g:2:", "1 repeated edge has", "2 here, 1 on line 1", "largest weight"}},
		{"two differ", "0 1 1\n1 0 3\n1 2 1\n2 1 5\n2 1 5\n", EdgeList, GraphOptions{}, []string{"g:2:", "2 repeated edges have", "3 here, 1 on line 1"}},
		{"sum asked for", "0 1 1\n0 1 2\n1 2 1\n", EdgeList, GraphOptions{Duplicates: DupSum}, nil},
		{"matrix market", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 1\n1 2 4\n2 1 4\n", MatrixMarket, GraphOptions{}, []string{"g:4:", "4 here, 1 on line 3"}},
	}
	for _, c := range cases {
		d, err := ReadGraph(context.Background(), strings.NewReader(c.in), "g", c.format, c.opt)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if c.want == nil {
			if len(d.Warnings) != 0 {
				t.Errorf("%s: warnings %q, want none", c.name, d.Warnings)
			}
			continue
		}
		if len(d.Warnings) != 1 {
			t.Fatalf("%s: warnings %q, want one", c.name, d.Warnings)
		}
		for _, w := range c.want {
			if !strings.Contains(d.Warnings[0], w) {
				t.Errorf("%s: warning %q lacks %q", c.name, d.Warnings[0], w)
			}
		}
	}
}

// TestReadGraphAutoByContent: in GraphAuto mode the content decides where
// the name cannot (review 114): a Matrix Market banner in a file named
// otherwise (/dev/stdin) is read as Matrix Market (as an edge list its
// size line 4 4 4 was a self loop of weight 4 on node 4), tether's own
// edge-list header makes a .csv file an edge list (-graph-out x.csv of a
// triangle, three edges of three fields, was read as a 3×3 matrix and
// failed), and a dense matrix's comment lines are skipped (they named the
// nodes). Expected graphs by hand.
func TestReadGraphAutoByContent(t *testing.T) {
	for _, tc := range []struct {
		name, file, in string
		want           [][]float64
		names          []string
	}{
		{"matrix market on stdin", "/dev/stdin", "%%MatrixMarket matrix coordinate real symmetric\n4 4 4\n2 1 1\n3 1 1\n3 2 1\n4 3 0.5\n",
			[][]float64{{0, 1, 1, 0}, {1, 0, 1, 0}, {1, 1, 0, 0.5}, {0, 0, 0.5, 0}}, nil},
		{"banner in any case", "m.txt", "  %%matrixmarket matrix coordinate pattern symmetric\n2 2 1\n2 1\n",
			[][]float64{{0, 1}, {1, 0}}, nil},
		// Names that look like numbers beside names are names, as before
		// (review 115: refused for a while).
		{"decimal-looking names", "n.edges", "a b\nb 1.5\n1.5 a\n",
			[][]float64{{0, 1, 1}, {1, 0, 1}, {1, 1, 0}}, []string{"a", "b", "1.5"}},
		{"zero weights written otherwise", "z.edges", "0 1 0e-400\n1 2 0.0E+5\n0 2 -0\n2 3 4.9e-324\n",
			[][]float64{{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 4.9e-324}, {0, 0, 4.9e-324, 0}}, nil},
		{"tether's edge list as .csv", "tri.csv", "# 3 nodes, undirected, 0-based: i j weight\n0 1 1\n0 2 1\n1 2 1\n",
			[][]float64{{0, 1, 1}, {1, 0, 1}, {1, 1, 0}}, nil},
		// "# N nodes", the short declaration the edge-list reader takes
		// on a first line: 2 rows of 2 fields were an ambiguous 2×2
		// matrix, read as one.
		{"short node count as .csv", "p.csv", "# 5 nodes\n0,1\n1,2\n",
			[][]float64{{0, 1, 0, 0, 0}, {1, 0, 1, 0, 0}, {0, 1, 0, 0, 0}, {0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}}, nil},
		{"pandas' column numbers", "pd.csv", "0,1,2\n0,1,1\n1,0,1\n1,1,0\n",
			[][]float64{{0, 1, 1}, {1, 0, 1}, {1, 1, 0}}, nil},
		{"dense matrix with comments", "d.csv", "% my, matrix, symmetric, 3x3\n0,1,1\n# a comment\n1,0,0.5\n1,0.5,0\n",
			[][]float64{{0, 1, 1}, {1, 0, 0.5}, {1, 0.5, 0}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ReadGraph(context.Background(), strings.NewReader(tc.in), tc.file, GraphAuto, GraphOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := dense(d.G); !reflect.DeepEqual(got, tc.want) || !reflect.DeepEqual(d.Names, tc.names) {
				t.Errorf("graph %v names %q, want %v %q", got, d.Names, tc.want, tc.names)
			}
		})
	}
	// pandas' column numbers: read as a 2-node edge list before (the
	// header an edge), now a matrix with a warning saying how to read an
	// edge list instead, and read as one by DenseCSV given explicitly (it
	// refused 4 rows of 3 columns).
	in := "0,1,2\n0,1,1\n1,0,1\n1,1,0\n"
	d, err := ReadGraph(context.Background(), strings.NewReader(in), "pd.csv", GraphAuto, GraphOptions{})
	if err != nil || len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "a first line 0,1,2 above 3 rows of 3 fields, symmetric, is read as the column numbers of a 3×3 affinity matrix") {
		t.Errorf("auto: warnings %q, %v", d.Warnings, err)
	}
	d, err = ReadGraph(context.Background(), strings.NewReader(in), "pd.txt", DenseCSV, GraphOptions{})
	if err != nil || d.G.N() != 3 || d.G.Weight(0, 1) != 1 {
		t.Errorf("DenseCSV: %v", err)
	}
	// Four columns cannot be an edge: a matrix without a warning, even
	// symmetric only within the reader's tolerance; asymmetric, it is
	// still the matrix the reader refuses or symmetrizes (review 115: both
	// were "5 rows and 4 columns").
	four := "0,1,2,3\n0,0.5,1,0\n0.5000000000000001,0,1,0\n1,1,0,2\n0,0,2,0\n"
	d, err = ReadGraph(context.Background(), strings.NewReader(four), "p4.csv", GraphAuto, GraphOptions{})
	if err != nil || d.G.N() != 4 || len(d.Warnings) != 0 || d.G.Weight(2, 3) != 2 {
		t.Errorf("four columns: %v, warnings %q", err, d.Warnings)
	}
	asym := "0,1,2,3\n0,1,0,0\n3,0,0,0\n0,0,0,1\n0,0,1,0\n"
	d, err = ReadGraph(context.Background(), strings.NewReader(asym), "a4.csv", DenseCSV, GraphOptions{Symmetrize: true})
	if err != nil || d.G.N() != 4 || d.G.Weight(0, 1) != 2 {
		t.Errorf("asymmetric, symmetrized: %v", err)
	}
	// Three columns whose rows are symmetric but whose diagonal is not
	// constant: an edge list of 4 weighted edges (review 115: read as a
	// 3×3 matrix).
	d, err = ReadGraph(context.Background(), strings.NewReader("0,1,2\n0,2,1\n2,3,4\n1,4,5\n"), "e.csv", GraphAuto, GraphOptions{})
	if err != nil || d.G.N() != 5 || d.G.Weight(1, 4) != 5 {
		t.Errorf("edge list 0,1,2 …: %v", err)
	}
}

// TestReadGraphBeyondMemory: a graph whose nodes alone would not fit in
// the machine's memory is an ErrTooLarge naming their number and the
// memory, before any allocation: one edge to node 2³¹ − 2 under a node
// limit of 2³¹ − 1 died of a 48 GiB allocation with a stack trace
// (review 114). On machines with more memory the read would run, and is
// not tried.
func TestReadGraphBeyondMemory(t *testing.T) {
	const n = 1<<31 - 1
	if avail, err := memlimit.Available(); err != nil || avail >= n*graphBytesPerNode {
		t.Skipf("this machine has %d bytes (%v)", avail, err)
	}
	_, err := ReadGraph(context.Background(), strings.NewReader("0 2147483646\n"), "big.edges", EdgeList, GraphOptions{MaxNodes: n, Base: Base0})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "big.edges: input too large: 2147483647 nodes need 48.0 GiB for the graph alone") {
		t.Errorf("error %v", err)
	}
}

// TestEdgeListNoEdges: an edge list without an edge (comments, blank
// lines, a header alone, nothing) read as an empty graph without a word;
// it is an error naming the file, unless the node count is given (the
// option, or WriteEdgeList's first line), when it is a graph of nodes
// without edges, with a warning.
func TestEdgeListNoEdges(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		opt      GraphOptions
		n        int
		err      string // "" for a graph, with the warning warn
		warn     string
	}{
		{"comments only", "# edges of g\n% none yet\n\n", GraphOptions{}, 0, "dataset: g.txt: syntax error: no edges: every line is blank or a comment", ""},
		{"empty file", "", GraphOptions{}, 0, "g.txt: syntax error: no edges", ""},
		{"header only", "source target weight\n", GraphOptions{}, 0, "g.txt: syntax error: no edges: line 1, read as a header, is its only data line", ""},
		{"comments, NumNodes", "# none\n", GraphOptions{NumNodes: 4}, 4, "", "g.txt: no edges (every line is blank or a comment): the graph has its declared nodes and no edge"},
		{"declared by WriteEdgeList", "# 3 nodes, undirected, 0-based: i j weight\n", GraphOptions{}, 3, "", "g.txt: no edges"},
		// The shorter declaration, a comment line of exactly that form
		// (review 152, 1); a longer comment declares nothing.
		{"declared # N nodes", "# 5 nodes\n", GraphOptions{}, 5, "", "g.txt: no edges (every line is blank or a comment)"},
		{"declared # N nodes, blanks", "\n# 5 nodes \r\n", GraphOptions{}, 5, "", "g.txt: no edges"},
		{"# N nodes not first", "# g\n# 5 nodes\n", GraphOptions{}, 0, "no edges: every line is blank or a comment", ""},
		{"# N nodes and more", "# 5 nodes of g\n", GraphOptions{}, 0, "no edges: every line is blank or a comment", ""},
		{"# N nodes, leading zero", "# 05 nodes\n", GraphOptions{}, 0, "no edges: every line is blank or a comment", ""},
		// Two column words alone are a header, as "source target weight"
		// is (review 152, 2): not an edge between nodes "source" and
		// "target".
		{"two-column header only", "source target\n", GraphOptions{}, 0, "g.txt: syntax error: no edges: line 1, read as a header, is its only data line", ""},
		{"two-column header only, i j", "# g\ni,j\n", GraphOptions{}, 0, "no edges: line 2, read as a header, is its only data line", ""},
		{"two-column header, declared", "# 4 nodes\nfrom to\n", GraphOptions{}, 4, "", "g.txt: no edges (line 2, read as a header, is its only data line)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ReadGraph(context.Background(), strings.NewReader(tc.in), "g.txt", EdgeList, tc.opt)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, ErrSyntax) {
					t.Fatalf("error %v, want ErrSyntax containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.G.N() != tc.n || !slices.ContainsFunc(d.Warnings, func(w string) bool { return strings.HasPrefix(w, tc.warn) }) {
				t.Errorf("n = %d, warnings %q; want n = %d and a warning beginning %q", d.G.N(), d.Warnings, tc.n, tc.warn)
			}
		})
	}
}

// TestEdgeListNoEdgesRemedy: the error of an edge list without an edge
// names how each front end gives the node count (review 152, 1): the
// library's GraphOptions.NumNodes, which no front end sets, and the
// declaration the file may begin with, quoted as WriteEdgeList writes it
// (edgeListHeader with N). The expected texts are written by hand.
func TestEdgeListNoEdgesRemedy(t *testing.T) {
	const decl = `a first line "# N nodes", or "# N nodes, undirected, 0-based: i j weight"`
	for _, tc := range []struct {
		name string
		sp   Spelling
		want string
	}{
		{"library", Spelling{}, `g.txt: syntax error: no edges: every line is blank or a comment (an edge list holds "i j" or "i j w" lines; a graph of nodes without edges needs its node count: GraphOptions.NumNodes, or ` + decl + ` as WriteEdgeList writes it, N the number of nodes)`},
		{"command line", Spelling{Front: "tether", CommandLine: true}, `g.txt: syntax error: no edges: every line is blank or a comment (an edge list holds "i j" or "i j w" lines; a graph of nodes without edges needs its node count: GraphOptions.NumNodes; tether: ` + decl + ` as tether writes it, N the number of nodes)`},
		{"server", Spelling{Front: "serve", Style: StyleOption, GraphFormat: "graph_format"}, `; serve: ` + decl + ` as tether writes it, N the number of nodes)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadGraph(context.Background(), strings.NewReader("# edges of g\n"), "g.txt", EdgeList, GraphOptions{Spelling: tc.sp})
			if err == nil || !strings.HasSuffix(err.Error(), tc.want) {
				t.Fatalf("error %v\nwant it ending %s", err, tc.want)
			}
			if tc.sp.Front != "" && strings.Contains(err.Error(), "WriteEdgeList") {
				t.Errorf("error %v names the library's function to a front end's users", err)
			}
		})
	}
}

// WriteNamedEdgeList writes the names for the numbers, and a node
// without an edge as "a a 0"; names of the wrong count are refused.
func TestWriteNamedEdgeList(t *testing.T) {
	g, err := graph.FromEdges(4, []graph.Edge{{I: 0, J: 1, W: 0.1}, {I: 1, J: 2, W: 3}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteNamedEdgeList(&b, g, []string{"a", "b", "c", "d"}); err != nil {
		t.Fatal(err)
	}
	const want = "# 4 nodes\na b 0.1\nb c 3\nd d 0\n"
	if b.String() != want {
		t.Errorf("WriteNamedEdgeList wrote %q, want %q", b.String(), want)
	}
	if err := WriteNamedEdgeList(&b, g, []string{"a"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("1 name for 4 nodes: err = %v, want ErrInvalid", err)
	}
}
