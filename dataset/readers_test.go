package dataset

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestEdgeListStrictHeader: only a first line with no field written as a
// number is a header; a first edge with a non-finite weight used to be taken
// for one and dropped, shifting the index base.
func TestEdgeListStrictHeader(t *testing.T) {
	for _, c := range []struct {
		name, in string
		parts    []string
	}{
		{"Inf weight", "1 2 Inf\n2 3 1\n", []string{"g:1", `"Inf"`}},
		{"overflowing weight", "1 2 1e400\n2 3 1\n", []string{"g:1", `"1e400"`}},
		{"NaN weight", "0,1,NaN\n1,2,1\n", []string{"g:1", `"NaN"`}},
		{"named nodes, NaN weight", "a b NaN\nb c 1\n", []string{"g:1", `"NaN"`}},
		{"bad weight after a header", "src dst w\n1 2 x\n", []string{"g:2", `"x"`}},
		{"numeric ids, word weight", "1 2 heavy\n2 3 1\n", []string{"g:1", `"heavy"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadGraph(context.Background(), strings.NewReader(c.in), "g", EdgeList, GraphOptions{})
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("err = %v, want ErrSyntax", err)
			}
			for _, p := range c.parts {
				if !strings.Contains(err.Error(), p) {
					t.Errorf("message %q lacks %q", err, p)
				}
			}
		})
	}
	for _, c := range []struct {
		name, in string
		header   int
		base     int
		n        int
		names    []string
	}{
		{"three-name header", "# c\nsource target weight\n1 2 1\n2 3 1\n", 2, 1, 3, nil},
		{"two-name header", "from,to\n0,1\n", 1, 0, 2, nil},
		{"named edges with header", "src dst w\na b 1\n", 1, 0, 2, []string{"a", "b"}},
		{"named edges, no header", "a b 1\nb c 2\n", 0, 0, 3, []string{"a", "b", "c"}},
		// Two words naming the columns, over named edges: a header (it
		// was read as an edge between nodes "source" and "target").
		{"column words over named edges", "source\ttarget\na\tb\nb\tc\n", 1, 0, 3, []string{"a", "b", "c"}},
		{"column words, any case", "From,To\nx,y\n", 1, 0, 2, []string{"x", "y"}},
		// Column words that are nodes elsewhere, or with a weight, are an edge.
		{"column words used as nodes", "u v\nv w\n", 0, 0, 3, []string{"u", "v", "w"}},
		{"column words with a weight", "u v 1\nx y 1\n", 0, 0, 4, []string{"u", "v", "x", "y"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := ReadGraph(context.Background(), strings.NewReader(c.in), "g", EdgeList, GraphOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if d.HeaderLine != c.header || d.Base != c.base || d.G.N() != c.n || !reflect.DeepEqual(d.Names, c.names) {
				t.Fatalf("header %d base %d n %d names %q, want %d %d %d %q", d.HeaderLine, d.Base, d.G.N(), d.Names, c.header, c.base, c.n, c.names)
			}
		})
	}
}

// TestEdgeListMixedIDs: one name among integer node numbers used to turn
// every node into a name; it is an error unless NamedNodes asks for names.
func TestEdgeListMixedIDs(t *testing.T) {
	for _, c := range []struct{ name, in, line, value string }{
		{"name after integers", "1 2\n2 3\n3 x4\n", "g:3", `"x4"`},
		{"integer after names", "a b\nb 7\n", "g:2", `"7"`},
		{"decimal id", "1 2\n2.5 3\n", "g:2", `"2.5"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadGraph(context.Background(), strings.NewReader(c.in), "g", EdgeList, GraphOptions{Spelling: cliSpelling})
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("err = %v, want ErrSyntax", err)
			}
			for _, p := range []string{c.line, c.value, "NamedNodes", "-named-nodes"} {
				if !strings.Contains(err.Error(), p) {
					t.Errorf("message %q lacks %q", err, p)
				}
			}
		})
	}
	d, err := ReadGraph(context.Background(), strings.NewReader("1 2\n2 3\n3 x4\n"), "g", EdgeList, GraphOptions{NamedNodes: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"1", "2", "3", "x4"}; !reflect.DeepEqual(d.Names, want) {
		t.Fatalf("Names = %q, want %q", d.Names, want)
	}
}

// TestGMLDirectedAndMultigraph: directed graphs and repeated edges used to
// be collapsed without a word; they are read as undirected simple graphs
// with a warning each, or refused under DupError.
func TestGMLDirectedAndMultigraph(t *testing.T) {
	const directed = "graph [\n directed 1\n node [ id 0 ]\n node [ id 1 ]\n node [ id 2 ]\n edge [ source 0 target 1 ]\n edge [ source 1 target 0 weight 3 ]\n edge [ source 1 target 2 ]\n]\n"
	const multi = "graph [\n multigraph 1\n node [ id 0 ]\n node [ id 1 ]\n edge [ source 0 target 1 weight 2 ]\n edge [ source 0 target 1 weight 5 ]\n]\n"
	const simple = "graph [\n node [ id 0 ]\n node [ id 1 ]\n edge [ source 0 target 1 ]\n]\n"
	for _, c := range []struct {
		name, in string
		opt      GraphOptions
		w01      float64
		warnings [][]string // parts of each warning
	}{
		{"directed, reciprocal edge", directed, GraphOptions{}, 3, [][]string{{"g:2", "directed"}, {"g:7", "1 edge repeats", "line 6", "largest weight"}}},
		{"multigraph, max", multi, GraphOptions{}, 5, [][]string{{"g:6", "1 edge repeats", "line 5", "largest weight"}}},
		{"multigraph, sum", multi, GraphOptions{Duplicates: DupSum}, 7, [][]string{{"weights added"}}},
		{"simple", simple, GraphOptions{}, 1, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := ReadGraph(context.Background(), strings.NewReader(c.in), "g", GML, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if w := d.G.Weight(0, 1); w != c.w01 {
				t.Errorf("W[0,1] = %v, want %v", w, c.w01)
			}
			if len(d.Warnings) != len(c.warnings) {
				t.Fatalf("warnings %q, want %d", d.Warnings, len(c.warnings))
			}
			for k, parts := range c.warnings {
				for _, p := range parts {
					if !strings.Contains(d.Warnings[k], p) {
						t.Errorf("warning %q lacks %q", d.Warnings[k], p)
					}
				}
			}
		})
	}
	_, err := ReadGraph(context.Background(), strings.NewReader(multi), "g", GML, GraphOptions{Duplicates: DupError})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "g:6") {
		t.Fatalf("err = %v, want ErrInvalid at g:6", err)
	}
}

// TestMissingDropNamesRows: MissingDrop used to drop rows without saying
// which; the table lists their lines and warns with all of them, runs as
// ranges.
func TestMissingDropNamesRows(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,b\n")
	for i := 0; i < 10; i++ {
		if i%2 == 1 {
			b.WriteString("?,1\n") // lines 3, 5, 7, 9, 11
		} else {
			b.WriteString("1,2\n")
		}
	}
	b.WriteString("# c\n3,\n") // line 13 (comment on 12)
	tb, err := ReadCSV(context.Background(), strings.NewReader(b.String()), "m.csv", Options{Missing: MissingDrop, Comment: "#"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{3, 5, 7, 9, 11, 13}; !reflect.DeepEqual(tb.DroppedLines, want) {
		t.Fatalf("DroppedLines = %v, want %v", tb.DroppedLines, want)
	}
	if n, _ := tb.Dims(); n != 5 {
		t.Fatalf("%d rows kept, want 5", n)
	}
	// The data rows 0, 2, 4, 6, 8 are kept (the comment is no row).
	if want := []int{0, 2, 4, 6, 8}; !reflect.DeepEqual(tb.Rows, want) {
		t.Fatalf("Rows = %v, want %v", tb.Rows, want)
	}
	if len(tb.Warnings) != 1 || !strings.Contains(tb.Warnings[0], "m.csv: dropped 6 of 11 rows") || !strings.HasSuffix(tb.Warnings[0], "lines 3, 5, 7, 9, 11, 13") {
		t.Fatalf("Warnings = %q", tb.Warnings)
	}
	tb, err = ReadCSV(context.Background(), strings.NewReader("1,2\n3,4\n"), "m.csv", Options{Missing: MissingDrop})
	if err != nil || tb.DroppedLines != nil || tb.Rows != nil || tb.Warnings != nil {
		t.Fatalf("nothing dropped: %v %v %v %v", err, tb.DroppedLines, tb.Rows, tb.Warnings)
	}
}

// TestCSVGraphFormat: a ".csv" graph file used to be read as a dense matrix
// whatever it held; in GraphAuto mode an edge list is recognised, an
// ambiguous file is read as a matrix with a warning, and an explicit format
// wins.
func TestCSVGraphFormat(t *testing.T) {
	for _, c := range []struct {
		name, in  string
		format    GraphFormat
		ambiguous bool
	}{
		{"edge list", "0,1\n1,2\n2,3\n", EdgeList, false},
		// pandas' column numbers above a symmetric matrix (review 114),
		// not an edge list whose first edge is 0,1,2 and whose rows are
		// not symmetric.
		{"pandas' column numbers", "0,1,2\n0,1,1\n1,0,1\n1,1,0\n", DenseCSV, true},
		{"edges 0,1,2 then three", "0,1,2\n0,2,1\n1,2,1\n2,3,1\n", EdgeList, false},
		{"weighted edge list with header", "source,target,weight\n1,2,0.5\n2,3,1\n3,1,1\n4,1,2\n", EdgeList, false},
		{"dense", "0,0.5,0\n0.5,0,1\n0,1,0\n", DenseCSV, false},
		{"dense with header", "a,b,c,d\n0,1,1,1\n1,0,1,1\n1,1,0,1\n1,1,1,0\n", DenseCSV, false},
		{"square integer matrix", "0,1,2\n1,0,3\n2,3,0\n", DenseCSV, true},
		{"2×2 matrix", "0,1\n1,0\n", DenseCSV, true},
		// A first line declaring the node count as the edge-list reader
		// reads it (edgeListCount): WriteEdgeList's, or "# N nodes" (was
		// an ambiguous 2×2 matrix); another comment is a comment.
		{"short node count", "# 5 nodes\n0,1\n1,2\n", EdgeList, false},
		{"short node count, blanks", "\n# 5 nodes \r\n0,1\n1,0\n", EdgeList, false},
		{"not a node count", "# 5 nodes of g\n0,1\n1,0\n", DenseCSV, true},
		{"node count not first", "# g\n# 5 nodes\n0,1\n1,0\n", DenseCSV, true},
		// Names: a matrix holds numbers only (these were read as a
		// matrix, which failed).
		{"names", "a,b\nb,c\nc,d\n", EdgeList, false},
		{"named weighted edges with header", "source,target,weight\na,b,1\nb,c,2\nc,a,1\n", EdgeList, false},
		{"named square", "a,b,1\nb,c,2\nc,a,1\n", EdgeList, false},
		{"names and a word weight", "a,b,x\nb,c,y\n", DenseCSV, false},
		{"a name and a number", "a,1\nb,2\n", DenseCSV, false},
		{"empty", "", DenseCSV, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, amb, err := DetectCSVGraph(strings.NewReader(c.in))
			if err != nil || f != c.format || amb != c.ambiguous {
				t.Fatalf("DetectCSVGraph = %v, %v, %v; want %v, %v", f, amb, err, c.format, c.ambiguous)
			}
		})
	}
	// The edge list reads as one through the .csv name.
	d, err := ReadGraph(context.Background(), strings.NewReader("1,2\n2,3\n3,1\n3,4\n"), "e.csv", GraphAuto, GraphOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// No warning on its format; its 1-based numbers get theirs
	// (TestEdgeListAutoBase).
	if d.G.N() != 4 || d.Base != 1 || len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "node numbers read as 1-based") {
		t.Fatalf("n = %d, base %d, warnings %q; want 4 nodes, base 1, the warning on the base alone", d.G.N(), d.Base, d.Warnings)
	}
	// Ambiguous: a matrix, with a warning naming the option and the flag.
	d, err = ReadGraph(context.Background(), strings.NewReader("0,1,2\n1,0,3\n2,3,0\n"), "m.csv", GraphAuto, GraphOptions{Spelling: cliSpelling})
	if err != nil {
		t.Fatal(err)
	}
	if d.G.N() != 3 || len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "-graph-format") || !strings.Contains(d.Warnings[0], "GraphOptions.Format") {
		t.Fatalf("n = %d, warnings %q", d.G.N(), d.Warnings)
	}
	// Explicit formats.
	// As an edge list, (0,1) weighs 2 on line 1 and 3 on line 2: merged,
	// with a warning.
	d, err = ReadGraph(context.Background(), strings.NewReader("0,1,2\n1,0,3\n2,3,0\n"), "m.csv", EdgeList, GraphOptions{})
	if err != nil || d.G.N() != 4 || len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "m.csv:2: 1 repeated edge") {
		t.Fatalf("as edge list: %v, %d nodes, warnings %q", err, d.G.N(), d.Warnings)
	}
	_, err = ReadGraph(context.Background(), strings.NewReader("1,2\n2,3\n3,1\n3,4\n"), "e.csv", DenseCSV, GraphOptions{Spelling: cliSpelling})
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "-graph-format edgelist") {
		t.Fatalf("err = %v, want a square-matrix error suggesting -graph-format edgelist", err)
	}
	var f GraphFormat
	if err := f.UnmarshalText([]byte("EdgeList")); err != nil || f != EdgeList {
		t.Fatalf("UnmarshalText: %v, %v", f, err)
	}
	if err := f.UnmarshalText([]byte("csv")); !errors.Is(err, ErrInvalid) {
		t.Fatalf("UnmarshalText(csv): %v", err)
	}
}

// TestDetectEdgeList: an edge list of numbered nodes without a header is
// one (tether serve reads such a .txt as a graph); a header, names, other
// numbers of fields or decimal nodes make a table. Every text detected
// reads as an edge list of numbered nodes, without a header line.
func TestDetectEdgeList(t *testing.T) {
	for _, c := range []struct {
		name, in string
		want     bool
	}{
		{"tether gen's, with comment", "# 4 nodes, undirected, 0-based: i j weight\n0 1 1\n1 2 1\n2 3 0.5\n", true},
		{"without comment", "0 1 1\n1 2 1\n2 3 0.5\n", true},
		{"two columns", "0 1\n1 2\n", true},
		{"two and three columns", "0 1\n1 2 3\n", true}, // ReadGraph's to refuse
		{"1-based", "1 2\n2 3\n3 1\n", true},
		{"commas, blank and % lines", "% x\n\n0,1,2\n  # y\n1,2,1e-3\n", true},
		{"tabs", "0\t1\n1\t2\n", true},
		{"bad weight", "0 1 NaN\n1 2 -1\n", true}, // ReadGraph's to refuse
		{"CSV table with header", "x,y,label\n0.5,1.25,0\n3,4,1\n", false},
		{"integer table with header", "a b c\n1 2 3\n4 5 6\n", false},
		{"edge-list header", "source target\n0 1\n1 2\n", false},
		{"decimal node", "0 1\n1.5 2\n", false},
		{"negative node", "0 1\n-1 2\n", false},
		{"names", "a b\nb c\n", false},
		{"word weight", "0 1 x\n", false},
		{"four fields", "0 1 2 3\n", false},
		{"one field", "0\n1\n", false},
		{"unterminated quote", "\"0 1\n", false},
		{"empty", "", false},
		{"comments only", "# a\n% b\n\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := DetectEdgeList(context.Background(), strings.NewReader(c.in), "e.txt")
			if err != nil || got != c.want {
				t.Fatalf("DetectEdgeList = %v, %v; want %v", got, err, c.want)
			}
			if !got || c.name == "bad weight" || c.name == "two and three columns" {
				return
			}
			d, err := ReadGraph(context.Background(), strings.NewReader(c.in), "e.txt", EdgeList, GraphOptions{})
			if err != nil || d.HeaderLine != 0 || d.Names != nil {
				t.Fatalf("ReadGraph: %v, header line %d, names %q; want numbered nodes, no header", err, d.HeaderLine, d.Names)
			}
		})
	}
	_, err := DetectEdgeList(context.Background(), strings.NewReader("0 1\n1\x002\n"), "e.txt")
	if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "e.txt:2") {
		t.Errorf("NUL byte: error %v, want a syntax error naming e.txt:2", err)
	}
}

// FuzzDetectCSVGraph checks that the detection never panics, that an
// ambiguous answer is DenseCSV, and that ReadGraph in auto mode reads what
// the detection says with the format read explicitly.
func FuzzDetectCSVGraph(f *testing.F) {
	for _, s := range []string{"0,1\n1,2\n2,3\n", "0,1\n1,0\n", "a,b\n0,1\n1,0\n", "s t w\n1 2 3\n", "0\t1\n", "\"1\",2\n", "source,target,weight\na,b,1\nb,c,2\n", "source target\na b\nb c\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		format, amb, err := DetectCSVGraph(strings.NewReader(in))
		if err != nil {
			return
		}
		if format != EdgeList && format != DenseCSV || amb && format != DenseCSV {
			t.Fatalf("DetectCSVGraph = %v, %v", format, amb)
		}
		opt := GraphOptions{MaxNodes: fuzzMaxNodes}
		auto, errA := ReadGraph(context.Background(), strings.NewReader(in), "f.csv", GraphAuto, opt)
		expl, errE := ReadGraph(context.Background(), strings.NewReader(in), "f.csv", format, opt)
		if (errA == nil) != (errE == nil) {
			t.Fatalf("auto: %v; %v: %v", errA, format, errE)
		}
		if errA != nil {
			return
		}
		checkGraph(t, auto)
		if auto.G.N() != expl.G.N() || auto.G.NNZ() != expl.G.NNZ() {
			t.Fatalf("auto %d nodes %d entries, %v %d nodes %d entries", auto.G.N(), auto.G.NNZ(), format, expl.G.N(), expl.G.NNZ())
		}
		if amb != (len(auto.Warnings) > len(expl.Warnings)) {
			t.Fatalf("ambiguous %v but warnings %q", amb, auto.Warnings)
		}
	})
}

// FuzzReadDenseCSV checks the dense affinity reader: no panic, a valid
// symmetric graph, and one node per column and per data row.
func FuzzReadDenseCSV(f *testing.F) {
	for _, s := range []string{
		"0,1\n1,0\n",
		"a,b,c\n0,0.5,0\n0.5,0,1\n0,1,0\n",
		"0;2\n2;0\n",
		"0 1e-300\n1e-300 0\n",
		"0,1\n2,0\n",
		"0,NaN\nNaN,0\n",
		"\"x\",\"y\"\r\n0,1\r\n1,0\r\n",
	} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, in string, sym bool) {
		d, err := ReadGraph(context.Background(), strings.NewReader(in), "fuzz.csv", DenseCSV, GraphOptions{MaxNodes: fuzzMaxNodes, Symmetrize: sym})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "dataset: ") {
				t.Fatalf("error without prefix: %v", err)
			}
			return
		}
		checkGraph(t, d)
		rows := 0
		lines, _ := readAll(context.Background(), strings.NewReader(in), "", 0)
		for _, l := range lines {
			if !isBlank(l) {
				rows++
			}
		}
		if d.Names != nil {
			rows-- // the header
		}
		if d.G.N() != rows {
			t.Fatalf("%d nodes from %d data rows", d.G.N(), rows)
		}
	})
}

// TestGMLNonFinite: networkx writes ±infinity as +INF and -INF and NaN as
// NAN. In attributes tether does not read they are left alone (the whole
// file was refused at "+", or "key without a value" for NAN); as a
// weight they are the error of any non-finite weight, naming the line
// (review 114).
func TestGMLNonFinite(t *testing.T) {
	ok := "graph [\n node [ id 0 betweenness +INF ]\n node [ id 1 betweenness NAN score -inf ]\n node [ id 2 ]\n edge [ source 0 target 1 ]\n edge [ source 1 target 2 ]\n]\n"
	d, err := ReadGraph(context.Background(), strings.NewReader(ok), "nx.gml", GraphAuto, GraphOptions{})
	if err != nil || d.G.N() != 3 || d.G.Weight(0, 1) != 1 || d.G.Weight(1, 2) != 1 {
		t.Fatalf("non-finite attributes not read: %v", err)
	}
	for _, w := range []string{"NAN", "+INF", "-INF", "nan"} {
		in := "graph [\n node [ id 0 ]\n node [ id 1 ]\n edge [ source 0 target 1 weight " + w + " ]\n]\n"
		_, err := ReadGraph(context.Background(), strings.NewReader(in), "nx.gml", GraphAuto, GraphOptions{})
		if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), `nx.gml:4: weight: value "`+w+`": syntax error: weight is not a finite number`) {
			t.Errorf("weight %s: error %v", w, err)
		}
	}
	// A word that is not NaN nor infinity is still no value.
	bad := "graph [\n node [ id 0 label foo ]\n]\n"
	if _, err := ReadGraph(context.Background(), strings.NewReader(bad), "nx.gml", GraphAuto, GraphOptions{}); !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "key without a value") {
		t.Errorf("label foo: error %v", err)
	}
}

// TestGMLEntities: GML strings write characters outside ASCII as HTML
// character references (networkx: "&#252;"; the GML paper: "&uuml;").
// They are node names and label values, decoded, as networkx reads them;
// they were kept as written, so a name differed from the same name in a
// labels or constraints file (review 114). Text with an ampersand that is
// no reference stays as it is.
func TestGMLEntities(t *testing.T) {
	in := "graph [\n node [ id 0 label \"J&#252;rgen\" club \"M&#xFC;nchen\" ]\n node [ id 1 label \"J&uuml;rgen Sr\" club \"AT&T\" ]\n" +
		" node [ id 2 label \"R&D &amp; more\" club \"&foo; &#0;\" ]\n node [ id 3 label \"AT&notit;x&NewLine;&#128;&nbsp;\" ]\n edge [ source 0 target 1 ]\n edge [ source 1 target 2 ]\n edge [ source 2 target 3 ]\n]\n"
	d, err := ReadGraph(context.Background(), strings.NewReader(strings.Replace(in, "id 3 label", "id 3 club \"x\" label", 1)), "nx.gml", GraphAuto, GraphOptions{LabelAttr: "club"})
	if err != nil {
		t.Fatal(err)
	}
	// &notit; is no entity (html.UnescapeString read "¬it;"), &NewLine;
	// names a control character, &#128; is U+0080 as networkx reads it
	// (HTML5 maps it to €; review 123).
	if want := []string{"Jürgen", "Jürgen Sr", "R&D & more", "AT&notit;x&NewLine;\u0080\u00a0"}; !slices.Equal(d.Names, want) {
		t.Errorf("names %q, want %q", d.Names, want)
	}
	if want := []string{"&foo; &#0;", "AT&T", "München", "x"}; !slices.Equal(d.ClassNames, want) {
		t.Errorf("class names %q, want %q", d.ClassNames, want)
	}
}

// TestEdgeListEmptyNodeName: a line of a named edge list that lacks a
// node (",bob,1", or a quoted empty field) is an error naming the line and
// column; it was a node named "", after which the labels files numbered
// every node instead of naming them, without a word (review 114).
func TestEdgeListEmptyNodeName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ann,bob,1\nbob,cat,1\n,bob,1\n", "e.txt:3: column 1: syntax error: empty node name"},
		{"ann bob\nbob \"\"\n", "e.txt:2: column 2: syntax error: empty node name"},
	} {
		_, err := ReadGraph(context.Background(), strings.NewReader(c.in), "e.txt", GraphAuto, GraphOptions{})
		if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
	if _, err := ReadGraph(context.Background(), strings.NewReader("0 1\n\"\" 1\n"), "e.txt", GraphAuto, GraphOptions{NamedNodes: true}); err == nil || !strings.Contains(err.Error(), "e.txt:2: column 1: syntax error: empty node name") {
		t.Errorf("-named-nodes: error %v", err)
	}
}

// TestMatrixMarketRepeatedEntries: a Matrix Market file listing an entry
// twice with the same value is read with the entry once (DupMax), and now
// says so, since scipy.io.mmread adds the two (the merge was silent,
// review 114); a symmetric file's entry given in both triangles is no
// repeat, and an edge list's two orientations of an edge are not warned
// about.
func TestMatrixMarketRepeatedEntries(t *testing.T) {
	read := func(in string) *GraphData {
		t.Helper()
		d, err := ReadGraph(context.Background(), strings.NewReader(in), "m.mtx", GraphAuto, GraphOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := read("%%MatrixMarket matrix coordinate real general\n3 3 5\n1 2 1\n2 1 1\n2 3 2\n3 2 2\n1 2 1\n")
	if d.G.Weight(0, 1) != 1 || len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "m.mtx:7: 1 entry repeats an earlier entry with the same row, column and value (the first: line 3); each is read once, while scipy.io.mmread adds") {
		t.Errorf("general, repeated: weight %g, warnings %q", d.G.Weight(0, 1), d.Warnings)
	}
	d = read("%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n2 1 1\n3 2 2\n2 1 1\n3 2 2\n")
	if len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "m.mtx:5: 2 entries repeat") {
		t.Errorf("symmetric, repeated: warnings %q", d.Warnings)
	}
	for _, in := range []string{
		"%%MatrixMarket matrix coordinate real general\n3 3 4\n1 2 1\n2 1 1\n2 3 2\n3 2 2\n",
		"%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n2 1 1\n1 2 1\n3 2 2\n",
	} {
		if d := read(in); len(d.Warnings) != 0 {
			t.Errorf("%q: warnings %q", in, d.Warnings)
		}
	}
	e, err := ReadGraph(context.Background(), strings.NewReader("0 1\n1 0\n1 2\n"), "e.txt", GraphAuto, GraphOptions{})
	if err != nil || len(e.Warnings) != 0 {
		t.Errorf("edge list with both orientations: %v, warnings %q", err, e.Warnings)
	}
}

// TestDenseCSVHeaderNamesClash: a dense matrix whose header has an empty
// or repeated node name warns, as GML and ID columns do, that the labels
// files will number the nodes; it said nothing (review 123).
func TestDenseCSVHeaderNamesClash(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a,,c\n0,1,0\n1,0,1\n0,1,0\n", "d.csv:1: the header's node names cannot name the nodes: column 2's is empty"},
		{"# m\na,b,a\n0,1,0\n1,0,1\n0,1,0\n", `d.csv:2: the header's node names cannot name the nodes: column 3's, "a", repeats column 1's`},
		{"a,b,c\n0,1,0\n1,0,1\n0,1,0\n", ""},
	} {
		d, err := ReadGraph(context.Background(), strings.NewReader(c.in), "d.csv", DenseCSV, GraphOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(d.Warnings, "\n")
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%q: warnings %q, want %q", c.in, got, c.want)
		}
	}
}

// TestDenseCSVCommentedHeader: a comment just above a dense matrix that
// reads as its header of names ("# a,b,c", as numpy's savetxt writes a
// header) warns that the names are not read; the nodes were numbered
// with no word (stop-59 note). A comment that is prose, has another
// number of fields, holds a number, or is not the last comment line
// before the rows does not warn; a real header is read as names.
func TestDenseCSVCommentedHeader(t *testing.T) {
	const rows = "0,1,0\n1,0,1\n0,1,0\n"
	for _, c := range []struct{ in, want string }{
		{"#a,b,c\n" + rows, `d.csv:1: the comment "#a,b,c" has 3 fields, none a number, as many as the matrix has columns: if they name the nodes, remove the "#"`},
		{"% made by hand\n# a, b, c\n\n" + rows, `d.csv:2: the comment "# a, b, c" has 3 fields`},
		{"%x\ty\tz\n" + strings.ReplaceAll(rows, ",", "\t"), `d.csv:1: the comment "%x\ty\tz" has 3 fields`},
		{"# a toy graph, three nodes\n" + rows, ""},
		{"# a,b\n" + rows, ""},
		{"# a,b,c,d\n" + rows, ""},
		{"# a,1,c\n" + rows, ""},
		{"# a,b,c\n# made by hand\n" + rows, ""},
		{"a,b,c\n" + rows, ""},
		{rows, ""},
	} {
		d, err := ReadGraph(context.Background(), strings.NewReader(c.in), "d.csv", DenseCSV, GraphOptions{})
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		got := strings.Join(d.Warnings, "\n")
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%q: warnings %q, want %q", c.in, got, c.want)
		}
	}
}
