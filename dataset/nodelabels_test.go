package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/internal/testmem"
	"github.com/tether-sc/tether/metrics"
)

func TestReadNodeLabels(t *testing.T) {
	const u = Unlabeled
	cases := []struct {
		name    string
		in      string
		opt     NodeLabelOptions
		labels  []int
		classes []string
		names   []string
	}{
		{"one column ints", "0\n1\n1\n", NodeLabelOptions{}, []int{0, 1, 1}, nil, nil},
		{"unknown marks", "2\n-1\n?\n\n2\n\n\n", NodeLabelOptions{}, []int{2, u, u, u, 2}, nil, nil},
		{"class names", "setosa\nvirginica\n-1\nsetosa\n", NodeLabelOptions{}, []int{0, 1, u, 0}, []string{"setosa", "virginica"}, nil},
		{"header word", "class\nb\na\n", NodeLabelOptions{}, []int{1, 0}, []string{"a", "b"}, nil},
		{"numeric class names", "10\n2\n3\n", NodeLabelOptions{}, []int{10, 2, 3}, nil, nil},
		{"mixed class names", "10\n2\nx\n", NodeLabelOptions{}, []int{0, 1, 2}, []string{"10", "2", "x"}, nil},
		{"label below the floor", "65535\n", NodeLabelOptions{}, []int{65535}, nil, nil},
		{"large integer class name beside text", "1000000000\nx\n", NodeLabelOptions{}, []int{0, 1}, []string{"1000000000", "x"}, nil},
		{"pairs", "node,label\n2,1\n0,0\n", NodeLabelOptions{}, []int{0, u, 1}, nil, nil},
		{"pairs blanks", "# node label\n0 4\n3 9\n", NodeLabelOptions{N: 5}, []int{4, u, u, 9, u}, nil, nil},
		{"pairs base 1", "# base=1\n1,0\n3,1\n", NodeLabelOptions{}, []int{0, u, 1}, nil, nil},
		{"pairs empty label", "node,cluster\n0,\n1,1\n", NodeLabelOptions{}, []int{u, 1}, nil, nil},
		// An empty last label after its delimiter, on a line after the
		// first (it was "1 field, want 2" for tabs and blanks, whose
		// trailing delimiter the line's trimming removed).
		{"empty label, tab", "0\tA\n1\t\n2\tB\n", NodeLabelOptions{}, []int{0, u, 1}, []string{"A", "B"}, nil},
		{"empty label, tab and blanks", "0\tA\n1 \t \n2\tB\n", NodeLabelOptions{}, []int{0, u, 1}, []string{"A", "B"}, nil},
		{"empty label, comma", "0,A\n1,\n2,B\n", NodeLabelOptions{}, []int{0, u, 1}, []string{"A", "B"}, nil},
		{"empty label, comma and blank", "0,A\n1, \n2,B\n", NodeLabelOptions{}, []int{0, u, 1}, []string{"A", "B"}, nil},
		{"empty label, semicolon", "0;A\n1;\n2;B\n", NodeLabelOptions{}, []int{0, u, 1}, []string{"A", "B"}, nil},
		{"empty label, blank", "0 A\n1 \n2 B\n", NodeLabelOptions{}, []int{0, u, 1}, []string{"A", "B"}, nil},
		{"empty label, blanks, last line", "0 1\n2 0\n1   \n", NodeLabelOptions{N: 3}, []int{1, u, 0}, nil, nil},
		{"empty label, tab, by name", "name\tclub\nann\t\nbob\tA\n", NodeLabelOptions{Names: []string{"bob", "ann"}}, []int{0, u}, []string{"A"}, nil},
		{"empty first label, comma", "0,\n1,A\n", NodeLabelOptions{}, []int{u, 0}, []string{"A"}, nil},
		// One column: a trailing blank or tab is no second field.
		{"one column, trailing blanks", "A \nB\t\n\t? \n", NodeLabelOptions{}, []int{0, 1, u}, []string{"A", "B"}, nil},
		// A header alone labels no node (found by input.FuzzReadPartialLabels:
		// "name," with N set used to index the first of no records).
		{"header alone, N", "name,\n", NodeLabelOptions{N: 3}, []int{u, u, u}, nil, nil},
		{"header alone, names", "name,label\n", NodeLabelOptions{Names: []string{"a", "b"}}, []int{u, u}, nil, nil},
		{"names from data", "name,cluster\nbob,1\nann,0\n", NodeLabelOptions{Names: []string{"ann", "bob", "cid"}}, []int{0, 1, u}, nil, nil},
		// A name the data repeats is refused only where a line uses it
		// (TestReadNodeLabelsErrors "shared name").
		{"names from data, a shared name unused", "name,cluster\nbob,1\nann,0\n", NodeLabelOptions{Names: []string{"ann", "bob", "cid", "cid"}}, []int{0, 1, u, u}, nil, nil},
		{"numeric names", "id,cluster\n20,1\n10,0\n", NodeLabelOptions{Names: []string{"10", "20"}}, []int{0, 1}, nil, nil},
		{"names define nodes", "bob,x\nann,y\n", NodeLabelOptions{}, []int{0, 1}, []string{"x", "y"}, []string{"bob", "ann"}},
		{"class named y", "y\nx\ny\n", NodeLabelOptions{}, []int{1, 0, 1}, []string{"x", "y"}, nil},
		{"pair class named y", "5,y\n6,x\n7,y\n", NodeLabelOptions{}, []int{u, u, u, u, u, 1, 0, 1}, []string{"x", "y"}, nil},
		{"first name before an integer name", "alice,1\n42,0\n", NodeLabelOptions{Names: []string{"42", "alice"}}, []int{0, 1}, nil, nil},
		{"quoted names", "name,club\n\"Smith, J\",A\nann,B\n", NodeLabelOptions{}, []int{0, 1}, []string{"A", "B"}, []string{"Smith, J", "ann"}},
		// An "id" (or "name") column of integers, as pandas writes its
		// index, for data without names: node indices (it was "the file
		// names its nodes but the data has none").
		{"id header, data without names", "id,label\n2,1\n0,0\n", NodeLabelOptions{N: 3}, []int{0, u, 1}, nil, nil},
		{"name header, base 1", "# base=1\nname\tlabel\n1\tb\n3\ta\n", NodeLabelOptions{N: 3}, []int{1, u, 0}, []string{"a", "b"}, nil},
		// Without N nor names the integers remain names, which define the
		// nodes in line order.
		{"id header, no data", "id,label\n5,a\n0,b\n", NodeLabelOptions{}, []int{0, 1}, []string{"a", "b"}, []string{"5", "0"}},
		// A first line -1, ? or empty is node 0's unknown label, never a
		// header ("?" and a quoted "" were dropped as headers, a leading
		// blank line skipped: every label moved up one node).
		{"first line ?", "?\n0\n1\n", NodeLabelOptions{}, []int{u, 0, 1}, nil, nil},
		{"first line ?, N", "?\n0\n1\n", NodeLabelOptions{N: 3}, []int{u, 0, 1}, nil, nil},
		{"first line -1", "-1\n0\n1\n", NodeLabelOptions{N: 3}, []int{u, 0, 1}, nil, nil},
		{"first line quoted empty", "\"\"\n0\n1\n", NodeLabelOptions{N: 3}, []int{u, 0, 1}, nil, nil},
		{"first line ?, class names", "?\nb\na\n", NodeLabelOptions{}, []int{u, 1, 0}, []string{"a", "b"}, nil},
		{"first lines ?", "?\n?\n1\n", NodeLabelOptions{}, []int{u, u, 1}, nil, nil},
		{"leading blank line", "\n0\n1\n", NodeLabelOptions{N: 3}, []int{u, 0, 1}, nil, nil},
		{"leading blank lines after a comment", "# labels\n\n \n0\n1\n", NodeLabelOptions{}, []int{u, u, 0, 1}, nil, nil},
		{"leading blank, ? then blank", "\n?\n\n1\n\n", NodeLabelOptions{}, []int{u, u, u, 1}, nil, nil},
		// Blank lines before a header, or before node,label lines, are no
		// nodes.
		{"blank line before a header", "\nlabel\n0\n1\n", NodeLabelOptions{N: 2}, []int{0, 1}, nil, nil},
		{"blank line before a word header", "\nkind\n0\n1\n", NodeLabelOptions{}, []int{0, 1}, nil, nil},
		{"blank line before pairs", "\n1,0\n0,1\n", NodeLabelOptions{}, []int{1, 0}, nil, nil},
		// Two columns: an unknown label on the first line is data; an
		// empty node field over integers is pandas' header of an
		// unnamed index and series (",0").
		{"pairs, first label ?", "0,?\n1,0\n", NodeLabelOptions{}, []int{u, 0}, nil, nil},
		{"pairs, first label -1", "0\t-1\n1\t0\n", NodeLabelOptions{}, []int{u, 0}, nil, nil},
		{"pairs by name, first label ?", "ann,?\nbob,A\n", NodeLabelOptions{Names: []string{"bob", "ann"}}, []int{0, u}, []string{"A"}, nil},
		{"pandas unnamed series", ",0\n0,1\n1,0\n", NodeLabelOptions{N: 2}, []int{1, 0}, nil, nil},
		// MaxNodes bounds the inferred count only: node MaxNodes − 1 is
		// read, and N, when given, is the bound instead.
		{"below MaxNodes", "0,0\n4,1\n", NodeLabelOptions{MaxNodes: 5}, []int{0, u, u, u, 1}, nil, nil},
		{"N beyond MaxNodes", "0,0\n6,1\n", NodeLabelOptions{N: 7, MaxNodes: 5}, []int{0, u, u, u, u, u, 1}, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ReadNodeLabels(strings.NewReader(tc.in), "f", tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(d.Labels, tc.labels) || !reflect.DeepEqual(d.ClassNames, tc.classes) || !reflect.DeepEqual(d.Names, tc.names) {
				t.Errorf("got %v %q %q, want %v %q %q", d.Labels, d.ClassNames, d.Names, tc.labels, tc.classes, tc.names)
			}
		})
	}
}

func TestReadNodeLabelsErrors(t *testing.T) {
	cases := []struct {
		name, in string
		opt      NodeLabelOptions
		want     string
	}{
		{"below -1", "0\n-2\n", NodeLabelOptions{}, "f:2: column 1: value \"-2\""},
		{"count", "0\n1\n", NodeLabelOptions{N: 3}, "2 labels for 3 nodes"},
		// A first line ?, or a leading blank line, is a node: the file
		// has one label too many (it was read as 0, 1, shifted).
		{"first line ?, one too many", "?\n0\n1\n", NodeLabelOptions{N: 2}, "f: invalid input: 3 labels for 2 nodes"},
		{"leading blank, one too many", "\n0\n1\n", NodeLabelOptions{N: 2}, "f: invalid input: 3 labels for 2 nodes"},
		// Blank lines at the end are ignored: the error says so, as a
		// file may mean them as the last nodes' missing labels.
		{"trailing blanks", "0\n1\n\n\n", NodeLabelOptions{N: 4}, "2 labels for 4 nodes (2 blank lines at the end are ignored: write -1 or ? for a node without a class)"},
		{"three fields", "0,1,2\n", NodeLabelOptions{}, "f:1"},
		// A user passes the data table itself: the error says how to
		// extract its labels.
		{"a feature table", "x1,x2,label\n0.5,1,0\n", NodeLabelOptions{Spelling: cliSpelling}, "f:1: invalid input: 3 fields: want one label per line or node,label pairs (a feature table with a class column? tether labels -input f -o FILE"},
		// A pairwise constraints file (review 95: it was taken for a
		// feature table with a class column): the kind ml or cl in the
		// third field, or the header i,j,kind[,weight].
		{"a constraints file", "# base=0\n25,41,ml\n37,45,ml\n", NodeLabelOptions{Spelling: cliSpelling}, `f:2: invalid input: 3 fields "25,41,ml": want one label per line or node,label pairs; this is a pairwise constraints file, i,j,ml|cl lines (give the file as -constraints)`},
		{"a weighted cannot-link", "0 1 CL 0.5\n", NodeLabelOptions{}, "this is a pairwise constraints file"},
		{"a constraints header", "i,j,kind,weight\n0,1,ml,1\n", NodeLabelOptions{}, `f:1: invalid input: 4 fields "i,j,kind,weight": want one label per line or node,label pairs; this is a pairwise constraints file`},
		// The header of a file keyed by name (constraint.WriteNamed): it
		// was "3 fields: … (a feature table with a class column?".
		{"a named constraints header", "name_i,name_j,kind\na,b,ml\n", NodeLabelOptions{}, `f:1: invalid input: 3 fields "name_i,name_j,kind": want one label per line or node,label pairs; this is a pairwise constraints file`},
		{"an id constraints header", "ID_I;ID_J;Kind;Weight\na;b;ml;2\n", NodeLabelOptions{}, `this is a pairwise constraints file`},
		// Hand-written headers constraint.ReadFile reads (stop 58's
		// notes: only i,j,kind and name_i,name_j,kind were known here).
		{"an a,b,type header", "a,b,type\nx,y,ml\n", NodeLabelOptions{}, `f:1: invalid input: 3 fields "a,b,type": want one label per line or node,label pairs; this is a pairwise constraints file`},
		{"a node1,node2,constraint,w header", "node1\tnode2\tconstraint\tw\n0\t1\tcl\t1\n", NodeLabelOptions{}, `this is a pairwise constraints file`},
		{"a source,target,relation header", "source,target,relation\n0,1,cl\n", NodeLabelOptions{}, `this is a pairwise constraints file`},
		// A feature table whose third column is named type is a table.
		{"a table with a type column", "sepal,petal,type\n1,2,a\n", NodeLabelOptions{}, `f:1: invalid input: 3 fields: want one label per line or node,label pairs (a feature table with a class column?`},
		{"name_i without name_j", "name_i,j,kind\na,b,ml\n", NodeLabelOptions{}, "(a feature table with a class column?"},
		{"three fields, no kind", "0,1,2\n", NodeLabelOptions{}, "(a feature table with a class column?"},
		{"ragged", "0,1\n1\n", NodeLabelOptions{}, "f:2"},
		// A line of one field without a delimiter is no empty label; the
		// error says how to write one.
		{"no delimiter, tab", "0\tA\n1\n", NodeLabelOptions{}, "f:2: invalid input: 1 field, want 2 as on the first data line (line 1); for a node whose class is unknown, write -1 or ? as its label"},
		{"blank in a tab file", "0\tA\n1 \n", NodeLabelOptions{}, "f:2: invalid input: 1 field, want 2"},
		{"no delimiter, blanks", "0 A\n1\n", NodeLabelOptions{}, "f:2: invalid input: 1 field, want 2"},
		// A first data line "0\t" is one column: a later pair says why.
		{"trailing tab on the first line", "0\t\n1\tA\n", NodeLabelOptions{}, `f:2: invalid input: 2 fields, want 1 as on the first data line (line 1, "0\t": a blank or tab at the end of the first data line does not make a second field): write that node's unknown label as -1 or ?, or begin the file with a header line such as node,label`},
		{"outside", "0,1\n5,1\n", NodeLabelOptions{N: 3}, "f:2: column 1: value \"5\""},
		{"negative node", "0,1\n-4,1\n", NodeLabelOptions{}, "f:2"},
		// An integer beyond int64 is a node out of range, not a name
		// (tether eval said the file named its nodes).
		{"node beyond int64", "0,0\n1,0\n99999999999999999999,1\n", NodeLabelOptions{}, `f:3: column 1: value "99999999999999999999": invalid input: node index outside 0…`},
		// MaxNodes bounds the inferred count (the bound by hand: indices
		// 0…4 for MaxNodes 5); N, when given, bounds it instead.
		{"node at MaxNodes", "0,0\n5,1\n", NodeLabelOptions{MaxNodes: 5}, `f:2: column 1: value "5": invalid input: node index outside 0…4 (base 0)`},
		{"node at MaxNodes, 1-based", "# base=1\n1,0\n6,1\n", NodeLabelOptions{MaxNodes: 5}, `f:3: column 1: value "6": invalid input: node index outside 1…5 (base 1)`},
		{"node beyond int64, N", "0,0\n99999999999999999999,1\n", NodeLabelOptions{N: 5}, `f:2: column 1: value "99999999999999999999": invalid input: node outside 0…4 (base 0)`},
		{"node below int64", "0,0\n-99999999999999999999,1\n", NodeLabelOptions{N: 5}, `f:2: column 1: value "-99999999999999999999": invalid input: node outside 0…4`},
		// A label written as an integer too long to read is out of range
		// (it was read as a class name).
		{"label beyond int64", "0\n99999999999999999999\n1\n", NodeLabelOptions{}, `f:2: column 1: value "99999999999999999999": invalid input: label out of range: integer labels of at most 18 characters are read`},
		{"label beyond int64, pairs", "node,label\n0,1\n1,+1234567890123456789\n", NodeLabelOptions{}, `f:3: column 2: value "+1234567890123456789": invalid input: label out of range`},
		{"label beyond int64 among names", "node,label\n0,a\n1,99999999999999999999\n", NodeLabelOptions{}, `f:3: column 2: value "99999999999999999999": invalid input: label out of range`},
		{"label below int64", "0\n-99999999999999999999\n", NodeLabelOptions{}, `f:2: column 1: value "-99999999999999999999": invalid input: label below -1`},
		{"duplicate", "0,1\n0,1\n", NodeLabelOptions{}, "already labelled on line 1"},
		{"unknown name", "name,c\nann,1\nzed,0\n", NodeLabelOptions{Names: []string{"ann"}}, "f:3: column 1: value \"zed\": invalid input: unknown node name"},
		// A name several nodes of the data share (repeated IDs): it
		// labelled the first of them, silently.
		{"shared name", "name,c\nann,1\nbob,0\n", NodeLabelOptions{Names: []string{"ann", "bob", "cid", "bob"}}, `f:3: column 1: value "bob": invalid input: node name shared by nodes 1 and 3 of the data (0-based rows), so it cannot say which one it labels`},
		{"shared name, trimmed", "ann,1\nbob,0\n", NodeLabelOptions{Names: []string{"bob", "ann", " ann "}}, `f:1: column 1: value "ann": invalid input: node name shared by nodes 1 and 2 of the data`},
		{"shared by many", "name,c\na,1\n", NodeLabelOptions{Names: []string{"a", "a", "b", "a", "a", "a", "a"}}, `node name shared by nodes 0, 1, 3, 4 and 2 more of the data`},
		// With the lines of the data's rows, the error gives them too, as
		// the table's warnings name rows (review 152, 3).
		{"shared name, lines", "name,c\nann,1\nbob,0\n", NodeLabelOptions{Names: []string{"ann", "bob", "cid", "bob"}, NameLines: []int{2, 3, 5, 9}, NamesFile: "d.csv"}, `f:3: column 1: value "bob": invalid input: node name shared by nodes 1 and 3 of the data (0-based rows), so it cannot say which one it labels (the rows on lines 3 and 9 of d.csv): make`},
		{"shared by three", "name,c\na,1\n", NodeLabelOptions{Names: []string{"a", "b", "a", "a"}}, `node name shared by nodes 0, 2 and 3 of the data`},
		{"names without data names", "ann,1\n", NodeLabelOptions{N: 1}, "the data has none"},
		{"id header, names without data names", "id,label\n0,1\nann,1\n", NodeLabelOptions{N: 2}, "the data has none"},
		// An "id" column of integers for data without names holds indices:
		// out of range, the error says so and how to fix it.
		{"id header, id outside", "id,label\n0,1\n7,2\n", NodeLabelOptions{N: 5}, `f:3: column 1: value "7": invalid input: node outside 0…4 (base 0): the data has no node names, so the "id" column holds node indices; to match the nodes by name, give the data an id column`},
		{"id header, 1-based", "id,label\n1,1\n5,2\n", NodeLabelOptions{N: 5}, `f:3: column 1: value "5": invalid input: node outside 0…4 (base 0): the data has no node names, so the "id" column holds node indices; if the file numbers the nodes from 1, begin it with a line "# base=1"; to match the nodes by name, give the data an id column`},
		// With names, an integer under "id" that is none of them: the
		// error says how to give indices.
		{"id header, integer not a name", "id,label\n0,1\n", NodeLabelOptions{Names: []string{"a", "b"}}, `f:2: column 1: value "0": invalid input: unknown node name (the header "id" keys the nodes by name; to give node indices, name the column "node")`},
		// Node N in a file without a base directive: the hint of
		// constraint files (it said only "node outside 0…4 (base 0)").
		{"1-based", "node,label\n1,0\n5,1\n", NodeLabelOptions{N: 5}, `f:3: column 1: value "5": invalid input: node outside 0…4 (base 0): if the file numbers the nodes from 1, begin it with a line "# base=1"`},
		{"1-based, blanks", "1 0\n5 1\n", NodeLabelOptions{N: 5}, `f:2: column 1: value "5": invalid input: node outside 0…4 (base 0): if the file numbers the nodes from 1, begin it with a line "# base=1"`},
		{"bad quote", "\"ann,1\n", NodeLabelOptions{}, "f:1"},
		// One line number, the file's: the csv reader's own ("parse
		// error on line 1, column 5") was line 1 of the line alone.
		{"bad quote, line 2", "node,label\n0,\"x\n1,y\n", NodeLabelOptions{}, "f:2: invalid input: character 5: extraneous or missing \" in quoted-field"},
		{"bad base", "# base=2\n0\n", NodeLabelOptions{}, "f:1"},
		// As the other readers: the line limit by name (it was
		// "bufio.Scanner: token too long"), and binary data.
		{"long line", "0\n" + strings.Repeat("1", DefaultMaxLineBytes+1) + "\n", NodeLabelOptions{}, "f:2: input too large: line is 1048577 bytes long"},
		{"binary", "0\n1\n\x00\x01", NodeLabelOptions{}, "f:3: syntax error: NUL byte"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadNodeLabels(strings.NewReader(tc.in), "f", tc.opt)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q lacks %q", err, tc.want)
			}
		})
	}
}

// TestReadNodeLabelsBaseHint: the hint to declare "# base=1" comes only
// for node N in a file without a base directive, as constraint.Read's.
func TestReadNodeLabelsBaseHint(t *testing.T) {
	const hint = `begin it with a line "# base=1"`
	for _, tc := range []struct {
		name, in string
		hint     bool
	}{
		{"node N", "1,0\n5,1\n", true},
		{"node N, base 0 directive", "# base=0\n1,0\n5,1\n", false},
		{"node N, base 1 directive", "# base=1\n1,0\n6,1\n", false},
		{"node N+1", "1,0\n6,1\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadNodeLabels(strings.NewReader(tc.in), "f", NodeLabelOptions{N: 5})
			if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "outside") {
				t.Fatalf("error %v, want a node outside the nodes", err)
			}
			if got := strings.Contains(err.Error(), hint); got != tc.hint {
				t.Errorf("error %v: hint %v, want %v", err, got, tc.hint)
			}
		})
	}
}

// TestWriteNodeLabelsRoundTrip checks that what WriteNodeLabels writes
// reads back the same, by index and by name.
func TestWriteNodeLabelsRoundTrip(t *testing.T) {
	labels := []int{2, 0, Unlabeled, 1, 2}
	for _, names := range [][]string{nil, {"a", "b, c", "d\"q", "10", "e"}} {
		var buf bytes.Buffer
		if err := WriteNodeLabels(&buf, labels, names, nil, "cluster"); err != nil {
			t.Fatal(err)
		}
		d, err := ReadNodeLabels(&buf, "rt", NodeLabelOptions{N: len(labels), Names: names})
		if err != nil {
			t.Fatalf("%v\n%s", err, buf.String())
		}
		if !reflect.DeepEqual(d.Labels, labels) {
			t.Errorf("names %q: read %v, wrote %v", names, d.Labels, labels)
		}
	}
	var buf bytes.Buffer
	if err := WriteNodeLabels(&buf, []int{1, 0, 1}, nil, []string{"setosa", "virginica"}, ""); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "node,label\n0,virginica\n1,setosa\n2,virginica\n"; got != want {
		t.Errorf("class names: wrote %q, want %q", got, want)
	}
}

// TestWriteNodeLabelsQuotesComments: node names that begin with # or %
// (and other names a bare field would not keep) are quoted, so that the
// file reads back with every node; "#B" written bare was a comment line,
// and its node silently lost (and the nodes after it renumbered when the
// file keyed them by position).
func TestWriteNodeLabelsQuotesComments(t *testing.T) {
	names := []string{"A", "#B", "%C", " lead", "trail ", "q\"x", "a,b", "#"}
	labels := []int{0, 1, 1, 0, 1, 0, 1, 0}
	var buf bytes.Buffer
	if err := WriteNodeLabels(&buf, labels, names, []string{"#x", "%y"}, ""); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "%") {
			t.Errorf("line %q begins a comment", line)
		}
	}
	// By name, against the data's names (blanks around them trimmed, as
	// the reader matches them), and by position, without them.
	d, err := ReadNodeLabels(bytes.NewReader(buf.Bytes()), "q", NodeLabelOptions{N: len(names), Names: names})
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if !reflect.DeepEqual(d.Labels, labels) || !reflect.DeepEqual(d.ClassNames, []string{"#x", "%y"}) {
		t.Errorf("read %v %q, wrote %v [#x %%y]\n%s", d.Labels, d.ClassNames, labels, buf.String())
	}
	d, err = ReadNodeLabels(bytes.NewReader(buf.Bytes()), "q", NodeLabelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"A", "#B", "%C", "lead", "trail", "q\"x", "a,b", "#"}
	if !reflect.DeepEqual(d.Names, want) || !reflect.DeepEqual(d.Labels, labels) {
		t.Errorf("read names %q labels %v, want %q %v", d.Names, d.Labels, want, labels)
	}
}

// TestClassNamesReadBack: the verdict on every case is checked against
// what the reader does with a file written with those class names (every
// class given to two nodes): "" exactly when the file reads back as the
// same partition, with no node losing its class.
func TestClassNamesReadBack(t *testing.T) {
	for _, tc := range []struct {
		classes []string
		want    string // "" or a part of the reason
	}{
		{[]string{"a", "b"}, ""},
		{[]string{"setosa", "versicolor", "virginica"}, ""},
		{[]string{"0", "1", "2"}, ""},
		{[]string{"3", "7"}, ""},
		{[]string{"1", "01", "a"}, ""}, // not all integers: text
		{[]string{"-1", "1"}, `class "-1" reads as no class`},
		{[]string{"?", "a"}, `class "?" reads as no class`},
		{[]string{"", "a"}, `class "" reads as no class`},
		{[]string{" -1", "2"}, `class " -1" reads as no class`},
		{[]string{"a", " a"}, `classes "a" and " a" read as one`},
		{[]string{"1", "01"}, `classes "1" and "01" read as one integer label, 1`},
		{[]string{"+2", "2"}, `read as one integer label, 2`},
		{[]string{"-2", "3"}, `class "-2" reads as a label below -1`},
		{[]string{"5", strings.Repeat("9", 40)}, "too long"},
		{[]string{"A\nX", "B"}, `class "A\nX" holds a line break`}, // a GML string (review 112)
		{[]string{"A\rX", "B"}, "holds a line break"},
		{[]string{"A\n", "B"}, `class "A\n" holds a line break`}, // trimmed, it passed (review 113)
		{[]string{"\nA", "B"}, "holds a line break"},
		{[]string{"A\x00", "B"}, "a NUL byte"},
	} {
		got := ClassNamesReadBack(tc.classes)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%q: %q, want %q", tc.classes, got, tc.want)
		}
		labels := make([]int, 2*len(tc.classes))
		for i := range labels {
			labels[i] = i % len(tc.classes)
		}
		var buf bytes.Buffer
		if err := WriteNodeLabels(&buf, labels, nil, tc.classes, ""); err != nil {
			t.Fatal(err)
		}
		d, err := ReadNodeLabels(&buf, "c", NodeLabelOptions{N: len(labels)})
		same := false
		if err == nil && !slices.Contains(d.Labels, Unlabeled) {
			ari, aerr := metrics.ARI(d.Labels, labels)
			same = aerr == nil && ari == 1 // exact: ARI counts pairs in integers
		}
		if same != (got == "") {
			t.Errorf("%q: verdict %q, but the file reads back as the same classes: %v (%v, err %v)", tc.classes, got, same, d, err)
		}
	}
}

func TestKeyNames(t *testing.T) {
	for _, tc := range []struct {
		name  string
		names []string
		want  []string
	}{
		{"nil", nil, nil},
		{"distinct", []string{"a", "b", " c"}, []string{"a", "b", " c"}},
		{"repeated after trimming", []string{"a", "b", "a "}, nil},
		{"empty", []string{"a", " ", "b"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := KeyNames(tc.names); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("KeyNames(%q) = %q, want %q", tc.names, got, tc.want)
			}
		})
	}
}

// TestReadNodeLabelsLineEndings: labels files take the line endings of the
// other readers; a bare-CR file (classic Mac OS) was one line of 60 fields.
func TestReadNodeLabelsLineEndings(t *testing.T) {
	for _, in := range []string{"0\r1\r1\r", "0\r\n1\r\n1", "\ufeff0\n1\n1\n", "node,label\r0,0\r1,1\r2,1\r"} {
		d, err := ReadNodeLabels(strings.NewReader(in), "f", NodeLabelOptions{N: 3})
		if err != nil || len(d.Labels) != 3 || d.Labels[0] != 0 || d.Labels[1] != 1 || d.Labels[2] != 1 {
			t.Errorf("%q: %+v, %v; want 0 1 1", in, d, err)
		}
	}
}

// TestReadNodeLabelsZeroBaseWarning: a node-indexed file without a base
// directive that never names node 0 though it lists at least two and at
// least half of the nodes is read with a warning saying how to declare
// 1-based numbering; the labels are those of the 0-based reading. Listed
// counts and node counts are worked out by hand from each input.
func TestReadNodeLabelsZeroBaseWarning(t *testing.T) {
	const u = Unlabeled
	for _, tc := range []struct {
		name, in string
		opt      NodeLabelOptions
		labels   []int
		warn     string // "" for none
	}{
		// 1-based labels of nodes 1…3 of 4 nodes, the last one never
		// named: nodes 1, 2, 3 listed, 3 of 4.
		{"1-based, N", "1,a\n2,b\n3,a\n", NodeLabelOptions{N: 4}, []int{u, 0, 1, 0}, "f: no line names node 0, though 3 of the 4 nodes are listed"},
		// Without N the nodes are 0…3: 3 of 4 listed.
		{"1-based, inferred n", "1 0\n2 1\n3 0\n", NodeLabelOptions{}, []int{u, 0, 1, 0}, "f: no line names node 0, though 3 of the 4 nodes are listed"},
		// Exactly half: 2 of 4.
		{"half", "node,label\n2,0\n3,1\n", NodeLabelOptions{N: 4}, []int{u, u, 0, 1}, "f: no line names node 0, though 2 of the 4 nodes are listed"},
		// A node listed with an unknown label is listed.
		{"unknown labels count", "1,?\n2,\n3,0\n", NodeLabelOptions{N: 5}, []int{u, u, u, 0, u}, "f: no line names node 0, though 3 of the 5 nodes are listed"},
		{"id column of indices", "id,label\n1,0\n2,1\n", NodeLabelOptions{N: 3}, []int{u, 0, 1}, "f: no line names node 0, though 2 of the 3 nodes are listed"},
		// Not fired: under half (2 of 5), one node listed, node 0 listed,
		// a base directive either way, names, one column.
		{"under half", "3,0\n4,1\n", NodeLabelOptions{N: 5}, []int{u, u, u, 0, 1}, ""},
		{"one node", "1,0\n", NodeLabelOptions{N: 2}, []int{u, 0}, ""},
		{"node 0 listed", "2,0\n0,1\n", NodeLabelOptions{N: 3}, []int{1, u, 0}, ""},
		{"base=0", "# base=0\n1,a\n2,b\n3,a\n", NodeLabelOptions{N: 4}, []int{u, 0, 1, 0}, ""},
		{"base=1", "# base=1\n1,a\n2,b\n3,a\n", NodeLabelOptions{N: 4}, []int{0, 1, 0, u}, ""},
		{"names", "name,label\nb,0\nc,1\n", NodeLabelOptions{Names: []string{"a", "b", "c"}}, []int{u, 0, 1}, ""},
		{"one column", "-1\n0\n1\n", NodeLabelOptions{}, []int{u, 0, 1}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ReadNodeLabels(strings.NewReader(tc.in), "f", tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(d.Labels, tc.labels) {
				t.Errorf("labels %v, want %v", d.Labels, tc.labels)
			}
			if tc.warn == "" {
				if d.Warnings != nil {
					t.Errorf("warnings %q, want none", d.Warnings)
				}
				return
			}
			if len(d.Warnings) != 1 || !strings.HasPrefix(d.Warnings[0], tc.warn) || !strings.Contains(d.Warnings[0], `begin it with a line "# base=1"`) {
				t.Errorf("warnings %q, want one beginning %q with the directive", d.Warnings, tc.warn)
			}
		})
	}
}

// TestReadNodeLabelsClassNameWarnings: text labels that other tools write
// for a missing value (NaN, NA, null, …) and integers mixed with text are
// read as class names, with a warning each; plain names and integers are
// read without one.
func TestReadNodeLabelsClassNameWarnings(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		classes  []string
		warns    []string
	}{
		{"NaN and mixed", "0\n1\nbanana\nNaN\n", []string{"0", "1", "NaN", "banana"}, []string{
			`f: label "NaN" is read as a class of its own; a node without a class is written -1, ? or an empty field`,
			"f: the labels mix integers (0, 1) and text (NaN, banana): each distinct value is a class name, 4 classes in all"}},
		{"NA alone among names", "a\nNA\nb\n", []string{"NA", "a", "b"}, []string{
			`f: label "NA" is read as a class of its own; a node without a class is written -1, ? or an empty field`}},
		{"many of each", "1\n2\n3\n4\nw\nx\ny\nz\n", nil, []string{"f: the labels mix integers (1, 2, 3, …) and text (w, x, y, …): each distinct value is a class name, 8 classes in all"}},
		{"names", "setosa\nversicolor\n?\n", []string{"setosa", "versicolor"}, nil},
		{"integers", "0\n1\n-1\n", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ReadNodeLabels(strings.NewReader(tc.in), "f", NodeLabelOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if tc.classes != nil && !reflect.DeepEqual(d.ClassNames, tc.classes) {
				t.Errorf("classes %q, want %q", d.ClassNames, tc.classes)
			}
			if !reflect.DeepEqual(d.Warnings, tc.warns) {
				t.Errorf("warnings %q, want %q", d.Warnings, tc.warns)
			}
		})
	}
}

// TestNodeLabelsNode: NodeLabels.Node names node i as the file writes it
// (by name, by index in the file's base, or, for one label per line, by
// its line), and Lines gives the line of each node, so that messages
// about a node need not name it by its 0-based index (a 1-based file's
// node 3 was "node 2"). Expected values by hand from the inputs.
func TestNodeLabelsNode(t *testing.T) {
	for _, c := range []struct {
		name, in string
		opt      NodeLabelOptions
		base     int
		lines    []int
		nodes    []string
	}{
		{"base 1", "# base=1\nnode,label\n3,0\n1,1\n", NodeLabelOptions{}, 1, []int{4, 0, 3}, []string{"1", "2", "3"}},
		{"base 0", "2,0\n0,1\n", NodeLabelOptions{}, 0, []int{2, 0, 1}, []string{"0", "1", "2"}},
		{"names of the data", "name,label\nbob,0\n", NodeLabelOptions{Names: []string{"ann", " bob "}}, 0, []int{0, 2}, []string{"ann", "bob"}},
		{"names of the file", "ann,0\nbob,1\n", NodeLabelOptions{}, 0, []int{1, 2}, []string{"ann", "bob"}},
		{"one per line", "# c\nlabel\n0\n\n1\n", NodeLabelOptions{}, 0, []int{3, 4, 5}, []string{"line 3", "line 4", "line 5"}},
		{"one per line, base directive", "# base=1\n0\n1\n", NodeLabelOptions{}, 0, []int{2, 3}, []string{"line 2", "line 3"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := ReadNodeLabels(strings.NewReader(c.in), "f", c.opt)
			if err != nil {
				t.Fatal(err)
			}
			nodes := make([]string, len(d.Labels))
			for i := range nodes {
				nodes[i] = d.Node(i)
			}
			if d.Base != c.base || !reflect.DeepEqual(d.Lines, c.lines) || !reflect.DeepEqual(nodes, c.nodes) {
				t.Errorf("Base %d Lines %v nodes %q, want %d %v %q", d.Base, d.Lines, nodes, c.base, c.lines, c.nodes)
			}
		})
	}
}

// TestReadNodeLabelsLargeIntegers: integer labels of which one is
// max(n, LabelFloor) or more (community IDs such as SNAP's) are read as
// class names in increasing numeric order, with a note, where they were
// refused (commit 3fa8bb72) though such files were read before. The
// expected classes are the distinct values sorted by hand; the notes are
// written out from the inputs.
func TestReadNodeLabelsLargeIntegers(t *testing.T) {
	const u = Unlabeled
	// 100 nodes labelled 5000000, 7, 1000000, 5000000, … by index.
	var snap strings.Builder
	snap.WriteString("node,community\n")
	want100 := make([]int, 100)
	for i := range 100 {
		fmt.Fprintf(&snap, "%d,%d\n", i, []int{5000000, 7, 1000000}[i%3])
		want100[i] = []int{2, 0, 1}[i%3]
	}
	cases := []struct {
		name    string
		in      string
		opt     NodeLabelOptions
		labels  []int
		classes []string
		note    string
	}{
		{"100 nodes", snap.String(), NodeLabelOptions{N: 100}, want100, []string{"7", "1000000", "5000000"},
			"f: labels 7, 1000000, 5000000 read as classes 0, 1, 2 in increasing order (label 5000000 on line 2 is max(n, LabelFloor) = 65536 or more for 100 nodes: integer labels number the classes from 0)"},
		{"one column", "0\n1000000000\n", NodeLabelOptions{}, []int{0, 1}, []string{"0", "1000000000"},
			"f: labels 0, 1000000000 read as classes 0, 1 in increasing order (label 1000000000 on line 2 is max(n, LabelFloor) = 65536 or more for 2 nodes: integer labels number the classes from 0)"},
		{"at the floor, pairs", "node,label\n0,1\n3,65536\n", NodeLabelOptions{}, []int{0, u, u, 1}, []string{"1", "65536"},
			"f: labels 1, 65536 read as classes 0, 1 in increasing order (label 65536 on line 3 is max(n, LabelFloor) = 65536 or more for 4 nodes: integer labels number the classes from 0)"},
		{"label N", "0,70000\n", NodeLabelOptions{N: 70000}, append([]int{0}, slices.Repeat([]int{u}, 69999)...), []string{"70000"},
			"f: labels 70000 read as classes 0 in increasing order (label 70000 on line 1 is max(n, LabelFloor) = 70000 or more for 70000 nodes: integer labels number the classes from 0)"},
		// Numeric order, not the texts' (which puts 1000000 before
		// 200000 and 7); +7 and 7 are one value.
		{"numeric order", "1000000\n-1\n200000\n1000000\n+7\n?\n7\n", NodeLabelOptions{}, []int{2, u, 1, 2, 0, u, 0}, []string{"7", "200000", "1000000"},
			"f: labels 7, 200000, 1000000 read as classes 0, 1, 2 in increasing order (label 1000000 on line 1 is max(n, LabelFloor) = 65536 or more for 7 nodes: integer labels number the classes from 0)"},
		{"many classes", "100007\n100001\n100002\n100003\n100004\n100005\n100006\n100000\n", NodeLabelOptions{}, []int{7, 1, 2, 3, 4, 5, 6, 0},
			[]string{"100000", "100001", "100002", "100003", "100004", "100005", "100006", "100007"},
			"f: labels 100000, 100001, 100002, 100003, …, 100007 read as classes 0, 1, 2, 3, …, 7 in increasing order (label 100007 on line 1 is max(n, LabelFloor) = 65536 or more for 8 nodes: integer labels number the classes from 0)"},
		// Below the bound the integers are the classes.
		{"below the bound", "0,69999\n", NodeLabelOptions{N: 70000}, append([]int{69999}, slices.Repeat([]int{u}, 69999)...), nil, ""},
		{"below the floor", "65535\n", NodeLabelOptions{}, []int{65535}, nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ReadNodeLabels(strings.NewReader(tc.in), "f", tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(d.Labels, tc.labels) || !reflect.DeepEqual(d.ClassNames, tc.classes) {
				t.Errorf("got %v %q, want %v %q", d.Labels, d.ClassNames, tc.labels, tc.classes)
			}
			if d.Note != tc.note || d.Renumbered != (tc.note != "") {
				t.Errorf("Renumbered %v, note\n%q, want\n%q", d.Renumbered, d.Note, tc.note)
			}
			if d.Warnings != nil {
				t.Errorf("warnings %q, want none", d.Warnings)
			}
		})
	}
}

// TestReadNodeLabelsLargeIntegersMemory: reading huge integer labels as
// class names takes memory for the distinct labels, never a slot per
// value. The file of 2·10⁶ labels from 10⁸ (10⁶ distinct; 2·10⁵ under
// -short) is read beside one of the same line lengths whose labels are
// below n, kept as they are; the renumbering may add a map, a sort and
// the class names, 150 bytes or so per distinct label (measured), at
// most 400, where slots for the values up to 10⁸ would take 800 MB.
func TestReadNodeLabelsLargeIntegersMemory(t *testing.T) {
	n := 2_000_000
	if testing.Short() {
		n = 200_000
	}
	var huge, small bytes.Buffer
	for i := range n {
		v := (i * 7919) % (n / 2) // about n/2 distinct values
		fmt.Fprintf(&huge, "%d\n", 100_000_000+v)
		fmt.Fprintf(&small, "%09d\n", v) // same line lengths
	}
	alloc := func(in []byte) (uint64, *NodeLabels) {
		var d *NodeLabels
		var err error
		got := testmem.Allocated(func() { d, err = ReadNodeLabels(bytes.NewReader(in), "f", NodeLabelOptions{}) })
		if err != nil {
			t.Fatal(err)
		}
		return got, d
	}
	base, ds := alloc(small.Bytes())
	got, dh := alloc(huge.Bytes())
	if ds.Renumbered || !dh.Renumbered || len(dh.ClassNames) != n/2 {
		t.Fatalf("renumbered %v %v, %d classes, want false true %d", ds.Renumbered, dh.Renumbered, len(dh.ClassNames), n/2)
	}
	// Class c is value 10⁸ + c: the values are 0…n/2−1, shifted.
	for _, i := range []int{0, 1, n / 3, n - 1} {
		if c := (i * 7919) % (n / 2); dh.Labels[i] != c {
			t.Errorf("node %d: class %d, want %d", i, dh.Labels[i], c)
		}
	}
	const perClass = 400 // bytes per distinct label: map entry, value, name
	if limit := base + uint64(perClass*n/2); got > limit {
		t.Errorf("%d bytes allocated for huge labels, want at most %d (%d for labels below n, + %d per class)", got, limit, base, perClass)
	}
}
