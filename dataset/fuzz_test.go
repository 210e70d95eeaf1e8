package dataset

import (
	"context"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"
)

// The fuzz targets check that no input makes a reader panic, hang or return
// an inconsistent result; run one with
//
//	go test -run='^$' -fuzz=FuzzReadCSV -fuzztime=20s ./dataset/
//
// Limits are lowered so that the fuzzer does not spend its time allocating.

const fuzzMaxNodes = 1 << 12

func checkTable(t *testing.T, tb *Table) {
	t.Helper()
	n, p := tb.X.Dims()
	if n == 0 || p == 0 {
		t.Fatalf("empty table %d×%d returned without error", n, p)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			if v := tb.X.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("X[%d,%d] = %v", i, j, v)
			}
		}
	}
	if len(tb.Features) != p {
		t.Fatalf("%d feature names for %d columns", len(tb.Features), p)
	}
	if tb.Labels != nil {
		if len(tb.Labels) != n {
			t.Fatalf("%d labels for %d rows", len(tb.Labels), n)
		}
		for _, l := range tb.Labels {
			if l < 0 || l >= len(tb.ClassNames) {
				t.Fatalf("label %d outside 0…%d", l, len(tb.ClassNames)-1)
			}
		}
	}
}

func checkGraph(t *testing.T, d *GraphData) {
	t.Helper()
	g := d.G
	if g.N() > fuzzMaxNodes {
		t.Fatalf("%d nodes beyond MaxNodes", g.N())
	}
	for i := 0; i < g.N(); i++ {
		idx, w := g.Row(i)
		for k, j := range idx {
			if w[k] <= 0 || math.IsNaN(w[k]) || math.IsInf(w[k], 0) {
				t.Fatalf("W[%d,%d] = %v", i, j, w[k])
			}
			if g.Weight(int(j), i) != w[k] {
				t.Fatalf("asymmetric at (%d,%d)", i, j)
			}
		}
	}
	if d.Names != nil && len(d.Names) != g.N() {
		t.Fatalf("%d names for %d nodes", len(d.Names), g.N())
	}
	if d.Labels != nil && len(d.Labels) != g.N() {
		t.Fatalf("%d labels for %d nodes", len(d.Labels), g.N())
	}
}

func FuzzReadCSV(f *testing.F) {
	for _, s := range []string{
		"1,2,a\n3,4,b\n",
		"\"Class\",\"A\"\r\n\"car\",\".28\"\r\n",
		"h1\th2\n1\t?\n",
		"a b c\n1 2 3\n",
		"x;1\ny;2\n\n\n",
		"\"a,\"\"b\",1\n",
		"1e308,-1e308\n-1e308,1e308\n",
		"?,?\n1,2\n",
		",x,y\n0,1,2\n1,3,4\n",
		"x,y,\n1,2,\n3,4,\n",
		"v,w\n45%,1\n50%,2\n",
		"name,x\nann,1\nbob,2\n",
	} {
		f.Add(s, uint8(0))
	}
	// Dropped columns (mode bit 8): a free-text column, pandas's index.
	f.Add("id,note,x\n1,hello world,2\n2,\"a, b\",3\n", uint8(8))
	f.Add(",x,y\n0,1,2\n1,3,4\n", uint8(9))
	f.Fuzz(func(t *testing.T, in string, mode uint8) {
		opt := Options{MaxCells: 1 << 16}
		switch mode % 4 {
		case 1:
			opt.LabelColumn, opt.Scale, opt.Missing = "last", ScaleMinMax, MissingImpute
		case 2:
			opt.LabelColumn, opt.Scale, opt.Missing = "first", ScaleZScore, MissingDrop
		case 3:
			opt.Header, opt.IDColumn, opt.Categorical = HeaderYes, "1", []string{"last"}
		}
		if mode&8 != 0 {
			opt.Drop = []string{"first", "2"}
		}
		tb, err := ReadCSV(context.Background(), strings.NewReader(in), "fuzz.csv", opt)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "dataset: ") {
				t.Fatalf("error without prefix: %v", err)
			}
			return
		}
		checkTable(t, tb)
	})
}

// FuzzReadARFF: any input gives a valid table or an error; with an option
// of delimited text (mode 1: Delimiter, 2: Header, 3: Comment), always an
// error, never the option ignored.
func FuzzReadARFF(f *testing.F) {
	for _, s := range []string{zooLike,
		"@relation r\n@attribute 'a b' numeric\n@attribute c {x,'y z'}\n@data\n1,x\n% c\n?,'y z'\n",
		"@RELATION r\r\n@ATTRIBUTE s string\r\n@ATTRIBUTE c {p,n}\r\n@DATA\r\n\"q\",p\r\n",
		"@relation r\n@attribute a numeric\n@attribute c {p,q}\n@data\n1,p\n2,q\n"} {
		for mode := range uint8(4) {
			f.Add(s, mode)
		}
	}
	f.Fuzz(func(t *testing.T, in string, mode uint8) {
		opt := Options{MaxCells: 1 << 16, Missing: MissingImpute}
		switch mode % 4 {
		case 1:
			opt.Delimiter = ";"
		case 2:
			opt.Header = HeaderNo
		case 3:
			opt.Comment = "#"
		}
		tb, err := ReadARFF(context.Background(), strings.NewReader(in), "fuzz.arff", opt)
		if mode%4 != 0 && err == nil {
			t.Fatalf("option mode %d: read, the option ignored", mode%4)
		}
		if err != nil {
			return
		}
		checkTable(t, tb)
	})
}

func FuzzReadEdgeList(f *testing.F) {
	for _, s := range []string{
		"0 1\n1 2 0.5\n",
		"1,2\n2,3\n",
		"# c\na b 1\nb c 2\n",
		"source,target,weight\nx,y,1\n",
		"0 0\n0 1\n1 0\n",
		"1 2 Inf\n2 3 1\n",
		"1 2 1e400\n2 3\n",
		"from to\n1 2\n",
		"source\ttarget\na\tb\n",
		"1 2\n2 x\n",
		"a b 0\nb c 1\n",
		"0 1\n1 99999999999999999999\n",
		"-99999999999999999999 1\n",
	} {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, in string, mode uint8) {
		opt := GraphOptions{MaxNodes: fuzzMaxNodes, Base: IndexBase(mode % 3), Duplicates: DupPolicy(mode / 3 % 3), DropSelfLoops: mode&64 != 0, NamedNodes: mode&128 != 0}
		d, err := ReadGraph(context.Background(), strings.NewReader(in), "fuzz.txt", EdgeList, opt)
		if err != nil {
			return
		}
		checkGraph(t, d)
		checkNoLineDropped(t, in, d, &opt)
	})
}

// checkNoLineDropped checks that every data line of an edge list (not
// blank, not a comment, not the header) is an edge of d: a line must never
// be skipped silently.
func checkNoLineDropped(t *testing.T, in string, d *GraphData, opt *GraphOptions) {
	t.Helper()
	lines, err := readAll(context.Background(), strings.NewReader(in), "fuzz.txt", 0)
	if err != nil {
		t.Fatalf("readAll failed after ReadGraph succeeded: %v", err)
	}
	id := map[string]int{}
	for i, s := range d.Names {
		id[s] = i
	}
	var sp *splitter
	for ln, l := range lines {
		if isBlank(l) {
			continue
		}
		if c := trimLeftBlank(l)[0]; c == '#' || c == '%' {
			continue
		}
		if sp == nil {
			// Commas, else semicolons, else blanks, as the first data
			// line has them (semicolons were missing: "0A0;A" was
			// "malformed but accepted").
			sp = &splitter{quotes: `"`}
			switch {
			case strings.IndexByte(l, ',') >= 0:
				sp.delim = ','
			case strings.IndexByte(l, ';') >= 0:
				sp.delim = ';'
			}
		}
		if ln+1 == d.HeaderLine {
			continue
		}
		f, _, err := sp.split(l, nil)
		if err != nil || len(f) < 2 || len(f) > 3 {
			t.Fatalf("line %d %q is malformed but was accepted", ln+1, l)
		}
		node := func(s string) int {
			if d.Names != nil {
				i, ok := id[s]
				if !ok {
					t.Fatalf("line %d: node %q is not among the names", ln+1, s)
				}
				return i
			}
			v, ok := parseInt(s)
			if !ok {
				t.Fatalf("line %d: node %q is not an integer in a numbered graph", ln+1, s)
			}
			return v - d.Base
		}
		i, j := node(f[0]), node(f[1])
		w := 1.0
		if len(f) == 3 {
			var ok bool
			if w, ok = parseNum(f[2]); !ok || w < 0 {
				t.Fatalf("line %d: weight %q accepted", ln+1, f[2])
			}
		}
		if w == 0 || i == j && opt.DropSelfLoops {
			continue
		}
		if i < 0 || j < 0 || i >= d.G.N() || j >= d.G.N() || d.G.Weight(i, j) <= 0 {
			t.Fatalf("line %d %q is not an edge of the result (nodes %d, %d of %d)", ln+1, l, i, j, d.G.N())
		}
	}
}

func FuzzReadMatrixMarket(f *testing.F) {
	for _, s := range []string{
		"%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 1\n3 3 2\n",
		"%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n2 1\n",
		"%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 3\n",
		"%%MatrixMarket matrix coordinate real symmetric\n1000000000000 1000000000000 1000000000000\n",
		"%%MatrixMarket matrix coordinate real general\n3 3 1\n2.0 1 1.0\n",
		"%%MatrixMarket matrix coordinate real general\n99999999999999999999 3 99999999999999999999\n1 99999999999999999999 1\n",
	} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, in string, sym bool) {
		d, err := ReadGraph(context.Background(), strings.NewReader(in), "fuzz.mtx", MatrixMarket, GraphOptions{MaxNodes: fuzzMaxNodes, Symmetrize: sym})
		if err != nil {
			return
		}
		checkGraph(t, d)
	})
}

func FuzzReadGML(f *testing.F) {
	f.Add("graph [ node [ id 0 label \"a\" club \"x\" ] node [ id 1 club \"y\" ] edge [ source 0 target 1 weight 2 ] ]")
	f.Add("# c\ngraph [\n directed 1\n node [ id 5 graphics [ x 1.5 y -2 ] club 3 ]\n]\n")
	f.Add("graph [ node [ id 0 ] ]\ngraph [ node [ id 1 ] ]\n")
	f.Add("graph [ node [ id 99999999999999999999 ] node [ id -99999999999999999999 ] ]")
	f.Add("graph [ node [ id 0 club \"x\" club \"y\" ] node [ id 1 id 2 club \"y\" ] edge [ source 0 target 1 weight 2 weight 5 ] ]")
	// Labels that cannot name the nodes: repeated, empty, a label that is
	// another node's id.
	f.Add("graph [\n node [ id 0 label \"a\" club \"x\" ]\n node [ id 1 label \" a \" club \"y\" ]\n node [ id 2 label \"\" club \"x\" ]\n node [ id 3 label \"2\" club \"y\" ]\n]")
	f.Fuzz(func(t *testing.T, in string) {
		d, err := ReadGraph(context.Background(), strings.NewReader(in), "fuzz.gml", GML, GraphOptions{MaxNodes: fuzzMaxNodes, LabelAttr: "club"})
		if err != nil {
			return
		}
		checkGraph(t, d)
	})
}

func FuzzReadLabels(f *testing.F) {
	for _, s := range []string{"0\n1\n-1\n", "node,label\n0,1\n2,0\n", "a\nb\n", "0 8\n1 8\n",
		// A first line ?, -1 or empty is node 0's unknown label.
		"?\n0\n1\n", "-1\n0\n1\n", "\"\"\n0\n1\n", "\n0\n1\n", "0,?\n1,0\n",
		"99999999999999999999 1\n0 2\n",
		// Labels of LabelFloor and more, refused unless below n.
		"0\n1000000000\n", "0,65536\n", "65535\n", "node,label\n65537,65536\n"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, in string, strict bool) {
		d, err := ReadLabels(strings.NewReader(in), "fuzz.labels", LabelOptions{Strict: strict, MaxNodes: fuzzMaxNodes})
		if err != nil {
			return
		}
		if len(d.Labels) > fuzzMaxNodes && strings.Count(in, "\n")+1 < len(d.Labels) {
			t.Fatalf("%d labels from %d lines", len(d.Labels), strings.Count(in, "\n")+1)
		}
		for _, l := range d.Labels {
			if l < Unlabeled {
				t.Fatalf("label %d < -1", l)
			}
			if d.ClassNames != nil && l >= len(d.ClassNames) {
				t.Fatalf("label %d outside %d classes", l, len(d.ClassNames))
			}
			if l >= max(len(d.Labels), LabelFloor) {
				t.Fatalf("label %d ≥ max(n = %d, LabelFloor) accepted", l, len(d.Labels))
			}
		}
	})
}

// FuzzReadNodeLabels checks that ReadNodeLabels returns a *ParseError or
// labels that are Unlabeled, class numbers below len(ClassNames), or
// integers below max(n, LabelFloor), never an allocation a stray label
// asks for; integer labels read as class names (Renumbered) have
// ClassNames in strictly increasing numeric order and a note.
//
// The nodes are bounded by fuzzMaxNodes, N and MaxNodes both: a read
// allocates 16 bytes a node whatever the file (labels and lines), so N
// up to 10⁵ (seeds at 70 000) took 1.7 ms an execution for the 2-byte
// file "0,", a hundred times a small one, and most of the corpus soon
// had such an N; an index near 2²⁴ with N = 0 ("16777215,0") took
// 175 ms and 268 MB. N above LabelFloor, where max(n, LabelFloor) is n,
// is TestReadNodeLabelsLargeIntegers's ("label N", "below the bound").
func FuzzReadNodeLabels(f *testing.F) {
	for _, s := range []string{"0\n1\n-1\n", "node,label\n0,1\n2,0\n", "a\nb\n", "name,label\nx,1\ny,0\n", "# base=1\n1,4\n",
		"0\n1000000000\n", "0,65536\n", "65535\n", "node,label\n65537,65536\n", "0,9223372036854775807\n", "16777215,0\n", "4095,1\n"} {
		f.Add(s, 0)
		f.Add(s, fuzzMaxNodes)
	}
	f.Fuzz(func(t *testing.T, in string, n int) {
		if n < 0 || n > fuzzMaxNodes {
			return
		}
		d, err := ReadNodeLabels(strings.NewReader(in), "fuzz.labels", NodeLabelOptions{N: n, MaxNodes: fuzzMaxNodes})
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		if lines := strings.Count(in, "\n") + 1; len(d.Labels) > max(n, fuzzMaxNodes, lines) {
			t.Fatalf("%d labels from %d lines, N = %d, MaxNodes = %d", len(d.Labels), lines, n, fuzzMaxNodes)
		}
		for _, l := range d.Labels {
			switch {
			case l < Unlabeled:
				t.Fatalf("label %d < -1", l)
			case d.ClassNames != nil && l >= len(d.ClassNames):
				t.Fatalf("label %d outside %d classes", l, len(d.ClassNames))
			case l >= max(len(d.Labels), LabelFloor):
				t.Fatalf("label %d ≥ max(n = %d, LabelFloor) accepted", l, len(d.Labels))
			}
		}
		if d.Renumbered {
			if d.Note == "" {
				t.Fatal("renumbered without a note")
			}
			for c := 1; c < len(d.ClassNames); c++ {
				a, _ := strconv.Atoi(d.ClassNames[c-1])
				b, err := strconv.Atoi(d.ClassNames[c])
				if err != nil || a >= b {
					t.Fatalf("classes %q not increasing integers", d.ClassNames)
				}
			}
		}
	})
}
