package constraint

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		opt   ReadOptions
		want  []Pair
		lines []int
		n     int
		err   string // substring of the error; "" means success
	}{
		{
			name:  "zero based with header and comments",
			in:    "# made by hand\ni,j,kind,weight\n0,1,ml\n\n 2 , 3 , CL , 0.5\n",
			want:  []Pair{{I: 0, J: 1, Kind: MustLink}, {I: 2, J: 3, Kind: CannotLink, Weight: 0.5}},
			lines: []int{3, 5}, n: 4,
		},
		{
			// Line endings as dataset's readers take them: a bare-CR file
			// was one line of 5 fields.
			name:  "bare CR and CRLF line endings",
			in:    "# base=0\r0,1,ml\r2,3,cl\r\n1,2,ml\r",
			want:  []Pair{{I: 0, J: 1, Kind: MustLink}, {I: 2, J: 3, Kind: CannotLink}, {I: 1, J: 2, Kind: MustLink}},
			lines: []int{2, 3, 4}, n: 4,
		},
		{
			name: "directive base=1", in: "# base=1\n1,2,ml\n3,1,cl\n",
			want:  []Pair{{I: 0, J: 1, Kind: MustLink}, {I: 2, J: 0, Kind: CannotLink}},
			lines: []int{2, 3}, n: 3,
		},
		{
			name: "option base 1 agrees", in: "#base = 1\n1,2,ml\n", opt: ReadOptions{Base: Base1, N: 5},
			want: []Pair{{I: 0, J: 1, Kind: MustLink}}, lines: []int{2}, n: 5,
		},
		{
			name: "option base 1 without directive", in: "1,2,ml\n", opt: ReadOptions{Base: Base1},
			want: []Pair{{I: 0, J: 1, Kind: MustLink}}, lines: []int{1}, n: 2,
		},
		{
			name: "names", in: "a,c,ml\nb , a,cl\n", opt: ReadOptions{Names: []string{"a", "b", "c"}},
			want: []Pair{{I: 0, J: 2, Kind: MustLink}, {I: 1, J: 0, Kind: CannotLink}}, lines: []int{1, 2}, n: 3,
		},
		// AutoNames: the first constraint decides. Names that are not
		// integers key the file by name; integers key it by index, even
		// when the names are integers too.
		{
			name: "auto names by name", in: "i,j,kind\nalice,carol,ml\nbob,alice,cl\n", opt: ReadOptions{Names: []string{"alice", "bob", "carol"}, AutoNames: true},
			want: []Pair{{I: 0, J: 2, Kind: MustLink}, {I: 1, J: 0, Kind: CannotLink}}, lines: []int{2, 3}, n: 3,
		},
		{
			name: "auto names, integer name later", in: "alice,10,ml\n", opt: ReadOptions{Names: []string{"alice", "10", "carol"}, AutoNames: true},
			want: []Pair{{I: 0, J: 1, Kind: MustLink}}, lines: []int{1}, n: 3,
		},
		{
			name: "auto names by index", in: "# base=1\n1,3,ml\n", opt: ReadOptions{N: 3, Names: []string{"30", "20", "10"}, AutoNames: true},
			want: []Pair{{I: 0, J: 2, Kind: MustLink}}, lines: []int{2}, n: 3,
		},
		{
			name: "auto names by index, duplicate names", in: "0,2,ml\n", opt: ReadOptions{N: 3, Names: []string{"a", "a", "b"}, AutoNames: true},
			want: []Pair{{I: 0, J: 2, Kind: MustLink}}, lines: []int{1}, n: 3,
		},
		// Without N, the names give it (ReadOptions.N) when the file
		// numbers its nodes too: node 5 of 2 named nodes was read, n = 6
		// (review 109).
		{
			name: "auto names by index, N from the names", in: "0,1,ml\n", opt: ReadOptions{Names: []string{"a", "b"}, AutoNames: true},
			want: []Pair{{I: 0, J: 1, Kind: MustLink}}, lines: []int{1}, n: 2,
		},
		{
			name: "auto names by index, node beyond the names", in: "0,5,ml\n", opt: ReadOptions{Names: []string{"a", "b"}, AutoNames: true},
			err: "in.csv:1: node 5 outside 0…1 (base 0)",
		},
		// The header name_i,name_j,kind (WriteNamed) keys the nodes by
		// name: under AutoNames too, when the names are integers (it was
		// "unknown node name \"name_i\""), and read as indices without
		// Names.
		{
			name: "named header, integer names, auto names", in: "name_i,name_j,kind\n2,0,cl\n1,2,ml\n", opt: ReadOptions{Names: []string{"2", "0", "1"}, AutoNames: true},
			want: []Pair{{I: 0, J: 1, Kind: CannotLink}, {I: 2, J: 0, Kind: MustLink}}, lines: []int{2, 3}, n: 3,
		},
		{
			name: "named header, integer names, names", in: "# made by WriteNamed\nname_i,name_j,kind\n2,0,cl\n", opt: ReadOptions{Names: []string{"2", "0", "1"}},
			want: []Pair{{I: 0, J: 1, Kind: CannotLink}}, lines: []int{3}, n: 3,
		},
		{
			name: "named header without names reads indices", in: "name_i,name_j,kind\n0,4,ml\n5,0,cl\n", opt: ReadOptions{N: 7},
			want: []Pair{{I: 0, J: 4, Kind: MustLink}, {I: 5, J: 0, Kind: CannotLink}}, lines: []int{2, 3}, n: 7,
		},
		// Under the header, errors say what it does (review 112).
		{
			name: "named header, integer names beyond the nodes", in: "name_i,name_j,kind\n1000,1001,ml\n", opt: ReadOptions{N: 12},
			err: "in.csv:2: node 1000 outside 0…11: the header on line 1 keys the nodes by name, and without node names to match them",
		},
		{
			// One past the last node: not the base=1 hint, which names do
			// not take (review 113).
			name: "named header, integer name n", in: "name_i,name_j,kind\n3,0,ml\n", opt: ReadOptions{N: 3},
			err: "in.csv:2: node 3 outside 0…2: the header on line 1 keys the nodes by name",
		},
		{
			name: "named header, row numbers against other names", in: "name_i,name_j,kind\n2,0,cl\n", opt: ReadOptions{Names: []string{"a", "b", "c"}, AutoNames: true},
			err: `in.csv:2: unknown node name "2": the header on line 1 keys the nodes by name, and the data's names do not hold it; if the file's names are row numbers, its header must be i,j,kind`,
		},
		{
			name: "id header, semicolons, weight", in: "ID_I;ID_J;Kind;Weight\na;b;cl;0.5\n", opt: ReadOptions{Names: []string{"b", "a"}, AutoNames: true},
			want: []Pair{{I: 1, J: 0, Kind: CannotLink, Weight: 0.5}}, lines: []int{2}, n: 2,
		},
		// Hand-written headers (review 118): a third field naming the
		// kind column and a fourth the weight column make a header,
		// whatever the first two say ("a,b,type" was "unknown node name
		// \"a\""); only name_i,name_j key the nodes by name.
		{
			name: "header a,b,type", in: "a,b,type\n0,1,ml\n",
			want: []Pair{{I: 0, J: 1, Kind: MustLink}}, lines: []int{2}, n: 2,
		},
		{
			name: "header node1,node2,type, names", in: "node1,node2,type\nalice,carol,ml\n", opt: ReadOptions{Names: []string{"alice", "bob", "carol"}, AutoNames: true},
			want: []Pair{{I: 0, J: 2, Kind: MustLink}}, lines: []int{2}, n: 3,
		},
		{
			name: "header u;v;Constraint;W", in: "# by hand\nu;v;Constraint;W\n1;2;cl;0.5\n",
			want: []Pair{{I: 1, J: 2, Kind: CannotLink, Weight: 0.5}}, lines: []int{3}, n: 3,
		},
		{
			name: "header i j relation, blanks", in: "i j relation\n0 2 ml\n",
			want: []Pair{{I: 0, J: 2, Kind: MustLink}}, lines: []int{2}, n: 3,
		},
		{
			// Not name_i,name_j: integers read as indices under AutoNames.
			name: "header a,b,link, integer names read as indices", in: "a,b,link\n2,0,cl\n", opt: ReadOptions{Names: []string{"2", "0", "1"}, AutoNames: true},
			want: []Pair{{I: 2, J: 0, Kind: CannotLink}}, lines: []int{2}, n: 3,
		},
		{
			name: "header name_i,name_j,type keys by name", in: "name_i,name_j,type\n2,0,cl\n", opt: ReadOptions{Names: []string{"2", "0", "1"}, AutoNames: true},
			want: []Pair{{I: 0, J: 1, Kind: CannotLink}}, lines: []int{2}, n: 3,
		},
		// A first line whose first two fields are nodes is no header,
		// whatever its third says: "3,4,link" was skipped as one, and
		// the constraint it meant lost without a word.
		{
			name: "header a,b,kind still a header", in: "a,b,kind\n0,1,ml\n",
			want: []Pair{{I: 0, J: 1, Kind: MustLink}}, lines: []int{2}, n: 2,
		},
		{name: "first line 3,4,link is data", in: "3,4,link\n0,1,ml\n", err: `in.csv:1: kind "link", want ml or cl (line 1 is no header: its first two fields, 3 and 4, are nodes`},
		{name: "first line 1;2;Type in base 1 is data", in: "# base=1\n1;2;Type\n", err: `in.csv:2: kind "Type", want ml or cl (line 2 is no header`},
		{name: "first line of names alice,bob,type is data", in: "alice,bob,type\n", opt: ReadOptions{Names: []string{"alice", "bob"}}, err: `in.csv:1: kind "type", want ml or cl (line 1 is no header: its first two fields, alice and bob, are nodes`},
		{
			// Column words head the columns even when they name nodes.
			name: "header a,b,type with nodes named a and b", in: "a,b,type\nb,a,cl\n", opt: ReadOptions{Names: []string{"a", "b"}},
			want: []Pair{{I: 1, J: 0, Kind: CannotLink}}, lines: []int{2}, n: 2,
		},
		{name: "first line of integers under auto names is data", in: "0,1,relation\n", opt: ReadOptions{Names: []string{"a", "b"}, AutoNames: true}, err: `in.csv:1: kind "relation", want ml or cl (line 1 is no header`},
		{
			// name_i,name_j always heads the columns, even of names
			// that are those words.
			name: "name_i,name_j,kind a header with such names", in: "name_i,name_j,kind\nname_j,name_i,cl\n", opt: ReadOptions{Names: []string{"name_i", "name_j"}},
			want: []Pair{{I: 1, J: 0, Kind: CannotLink}}, lines: []int{2}, n: 2,
		},
		{
			name: "drop conflicting cannot-links", in: "0,1,ml\n1,2,ml\n0,2,cl\n0,1,ml\n3,4,cl\n",
			opt:   ReadOptions{Policy: DropConflictingCannotLinks},
			want:  []Pair{{I: 0, J: 1, Kind: MustLink}, {I: 1, J: 2, Kind: MustLink}, {I: 3, J: 4, Kind: CannotLink}},
			lines: []int{1, 2, 5}, n: 5,
		},
		{
			// Reject keeps an identical repeat once (Conflict.IdenticalRepeat);
			// the first occurrence and its line stay.
			name: "identical repeat kept once", in: "0,1,ml\n1,0,ml\n2,3,cl\n2,3,cl,1\n",
			want: []Pair{{I: 0, J: 1, Kind: MustLink}, {I: 2, J: 3, Kind: CannotLink}}, lines: []int{1, 3}, n: 4,
		},
		{name: "empty", in: "", want: nil, n: 0},
		// Fields are separated as in labels files: by commas, tabs,
		// semicolons or blanks, whichever the first data line uses (a
		// tab-separated file was "got 1 field: separate the fields with
		// commas"), and an empty last field is absent (it was weight "").
		{
			name: "tabs", in: "i\tj\tkind\n0\t1\tml\n2\t\t3\tcl\t0.5\n",
			want: []Pair{{I: 0, J: 1, Kind: MustLink}, {I: 2, J: 3, Kind: CannotLink, Weight: 0.5}}, lines: []int{2, 3}, n: 4,
		},
		{
			name: "blanks", in: "# base=1\n1 2 ml\n  3   1 cl 2\n",
			want: []Pair{{I: 0, J: 1, Kind: MustLink}, {I: 2, J: 0, Kind: CannotLink, Weight: 2}}, lines: []int{2, 3}, n: 3,
		},
		{
			name: "semicolons", in: "0;1;ml\n1;2;cl\n",
			want: []Pair{{I: 0, J: 1, Kind: MustLink}, {I: 1, J: 2, Kind: CannotLink}}, lines: []int{1, 2}, n: 3,
		},
		{
			name: "trailing commas", in: "i,j,kind,\n0,1,ml,\n1,2,cl,0.5,\n",
			want: []Pair{{I: 0, J: 1, Kind: MustLink}, {I: 1, J: 2, Kind: CannotLink, Weight: 0.5}}, lines: []int{2, 3}, n: 3,
		},
		{
			name: "quoted names", in: "\"Smith, J\",ann,ml\n", opt: ReadOptions{Names: []string{"ann", "Smith, J"}},
			want: []Pair{{I: 1, J: 0, Kind: MustLink}}, lines: []int{1}, n: 2,
		},
		{name: "directive contradicts option", in: "# base=1\n1,2,ml\n", opt: ReadOptions{Base: Base0}, err: "in.csv:1: the file declares base=1 but base 0 was requested"},
		{name: "directive after data", in: "0,1,ml\n# base=1\n", err: "in.csv:2: the base directive"},
		{name: "bad directive", in: "# base=2\n", err: "in.csv:1: directive base=2"},
		{name: "bad kind", in: "0,1,ml\n0,2,must\n", err: "in.csv:2: kind \"must\""},
		{name: "fields", in: "0,1\n", err: "in.csv:1: want i,j,kind[,weight], got 2 fields \"0,1\": give the kind: 0,1,ml (must-link) or 0,1,cl (cannot-link)"},
		{name: "five fields", in: "0,1,ml,1,2\n", err: "in.csv:1: want i,j,kind[,weight], got 5 fields"},
		// The hint writes the line as the file does.
		{name: "blank-separated pair", in: "0 1\n", err: "in.csv:1: want i,j,kind[,weight], got 2 fields \"0 1\": give the kind: 0 1 ml (must-link) or 0 1 cl (cannot-link)"},
		{name: "tab-separated pair", in: "0\t1\n", err: "in.csv:1: want i,j,kind[,weight], got 2 fields \"0\\t1\": give the kind: \"0\\t1\\tml\" (must-link) or \"0\\t1\\tcl\" (cannot-link)"},
		// The delimiter is the first data line's: a line separated
		// otherwise is one field, and the error says how to separate it.
		{name: "tabs after commas", in: "0,1,ml\n0\t2\tml\n", err: "in.csv:2: want i,j,kind[,weight], got 1 field \"0\\t2\\tml\": separate the fields with commas, as line 1 does"},
		{name: "commas after blanks", in: "# c\n0 1 ml\n0,2\n", err: "in.csv:3: want i,j,kind[,weight], got 1 field \"0,2\": separate the fields with blanks, as line 2 does, and give the kind: 0 2 ml (must-link) or 0 2 cl (cannot-link)"},
		// An empty last field is absent; two are a weight left empty.
		{name: "two trailing commas", in: "0,1,ml,,\n", err: "in.csv:1: weight \"\", want a positive finite number"},
		{name: "unterminated quote", in: "\"a,b,ml\n", opt: ReadOptions{Names: []string{"a", "b"}}, err: "in.csv:1: character 1: unterminated quote"},
		// The csv reader's own "parse error on line 1" is dropped: one
		// line number, the file's.
		{name: "bad quote, line 2", in: "0,1,ml\n0,\"2,cl\n", err: "in.csv:2: character 8: extraneous or missing \" in quoted-field"},
		{name: "not an index", in: "0,1,ml\nx,1,ml\n", err: "in.csv:2: node \"x\" is not an integer"},
		{name: "out of range", in: "0,5,ml\n", opt: ReadOptions{N: 5}, err: "in.csv:1: node 5 outside 0…4 (base 0)"},
		// Node N in a file without a base is the mistake of a 1-based
		// file: the error says how to declare it (it said only "outside").
		{name: "one past the end", in: "1,2,ml\n3,5,cl\n", opt: ReadOptions{N: 5}, err: "in.csv:2: node 5 outside 0…4 (base 0): if the file numbers the nodes from 1, begin it with a line \"# base=1\""},
		{name: "one past the end, base option", in: "1,2,ml\n3,5,cl\n", opt: ReadOptions{N: 5, Base: Base0}, err: "in.csv:2: node 5 outside 0…4 (base 0)"},
		{name: "one past the end, base 1", in: "# base=1\n1,2,ml\n3,6,cl\n", opt: ReadOptions{N: 5}, err: "in.csv:3: node 6 outside 1…5 (base 1)"},
		{name: "zero in base 1", in: "# base=1\n0,1,ml\n", err: "in.csv:2: node 0 below the index base 1"},
		{name: "self pair", in: "\n\n2,2,cl\n", err: "in.csv:3: self pair"},
		{name: "negative weight", in: "0,1,ml,-1\n", err: "in.csv:1: weight \"-1\""},
		{name: "NaN weight", in: "0,1,ml,NaN\n", err: "in.csv:1: weight \"NaN\""},
		{name: "zero weight", in: "0,1,ml,0\n", err: "in.csv:1: weight \"0\""},
		// Names that repeat fail on the line that names one, which
		// names the line and the rows (it refused the file wholesale,
		// calling the rows nodes).
		{name: "auto names, duplicate names", in: "a,b,ml\n", opt: ReadOptions{N: 3, Names: []string{"a", "a", "b"}, AutoNames: true}, err: `in.csv:1: node name "a" is shared by rows 0 and 1 of the names (0-based rows of the data, not file lines), so line 1 cannot say which one it means`},
		{name: "duplicate names on line 2", in: "b,c,ml\nc , a,cl\n", opt: ReadOptions{Names: []string{"a", "b", " a", "c", "a"}}, err: `in.csv:2: node name "a" is shared by rows 0, 2 and 4 of the names (0-based rows of the data, not file lines), so line 2 cannot say which one it means`},
		// With the lines of the data file the names come from, the error
		// names those lines, as the table's warning on a dropped row's ID
		// does (review 152, 3: it named 0-based rows beside the warning's
		// file lines).
		{name: "duplicate names, their lines", in: "b,c,ml\nc , a,cl\n", opt: ReadOptions{Names: []string{"a", "b", " a", "c", "a"}, NameLines: []int{2, 3, 5, 6, 9}, NamesFile: "d.csv"}, err: `in.csv:2: node name "a" is that of the rows on lines 2, 5 and 9 of d.csv, so this line cannot say which one it means`},
		{name: "duplicate names, their lines, no file", in: "a,b,ml\n", opt: ReadOptions{Names: []string{"a", "a", "b"}, NameLines: []int{4, 7, 8}, AutoNames: true}, err: `in.csv:1: node name "a" is that of the rows on lines 4 and 7 of the data file, so this line cannot say which one it means`},
		{
			name: "duplicate names not named", in: "b,c,ml\n", opt: ReadOptions{Names: []string{"a", "a", "b", "c"}},
			want: []Pair{{I: 2, J: 3, Kind: MustLink}}, lines: []int{1}, n: 4,
		},
		{
			name: "duplicate names not named, auto names", in: "name_i,name_j,kind\nb,c,ml\n", opt: ReadOptions{Names: []string{"a", "b", "a", "c"}, AutoNames: true},
			want: []Pair{{I: 1, J: 3, Kind: MustLink}}, lines: []int{2}, n: 4,
		},
		{name: "auto names, name after index", in: "0,1,ml\na,b,cl\n", opt: ReadOptions{N: 3, Names: []string{"a", "b", "c"}, AutoNames: true}, err: "in.csv:2: node \"a\" is not an integer (line 1 numbers its nodes, so the file reads indices: name the nodes there too, or number them here)"},
		{name: "auto names, unknown name", in: "a,z,ml\n", opt: ReadOptions{Names: []string{"a", "b"}, AutoNames: true}, err: "in.csv:1: unknown node name \"z\""},
		{name: "unknown name", in: "a,z,ml\n", opt: ReadOptions{Names: []string{"a", "b"}}, err: "in.csv:1: unknown node name \"z\""},
		{name: "named header, no names", in: "name_i,name_j,kind\na,b,ml\n", err: "in.csv:2: unknown node name \"a\": the header on line 1 keys the nodes by name, but no node names were given"},
		{name: "named header, duplicate names", in: "name_i,name_j,kind\nb,a,ml\n", opt: ReadOptions{N: 3, Names: []string{"a", "a", "b"}, AutoNames: true}, err: `in.csv:2: node name "a" is shared by rows 0 and 1`},
		{name: "named header, unknown integer name", in: "name_i,name_j,kind\n0,7,ml\n", opt: ReadOptions{Names: []string{"0", "1"}, AutoNames: true}, err: "in.csv:2: unknown node name \"7\""},
		// A first line that is neither a constraint nor a header says
		// what a header is, as the nodes are read (review 118).
		{name: "no header, names", in: "from,to,relation_kind\nalice,bob,ml\n", opt: ReadOptions{Names: []string{"alice", "bob"}, AutoNames: true}, err: `in.csv:1: unknown node name "from"; if line 1 is a header, write it name_i,name_j,kind (name_i,name_j,kind,weight with weights)`},
		{name: "no header, indices", in: "# c\nsrc,dst,label\n0,1,ml\n", err: `in.csv:2: node "src" is not an integer; if line 2 is a header, write it i,j,kind (i,j,kind,weight with weights)`},
		{name: "no header, weight column", in: "a,b,type,0.5\n", err: `in.csv:1: node "a" is not an integer; if line 1 is a header, write it i,j,kind`},
		{name: "huge inferred", in: "0,999999999,ml\n", err: "in.csv:1: node 999999999: more than"}, // an int where int has 32 bits too
		// Integers beyond int64 are out of range, not "not an integer".
		{name: "beyond int64", in: "0,1,ml\n1,99999999999999999999,cl\n", err: "in.csv:2: node 99999999999999999999 out of range: more than 16777216 nodes; give the number of nodes explicitly"},
		{name: "beyond int64, N", in: "0,99999999999999999999,cl\n", opt: ReadOptions{N: 5}, err: "in.csv:1: node 99999999999999999999 out of range: outside 0…4 (base 0)"},
		{name: "below int64", in: "-99999999999999999999,1,cl\n", err: "in.csv:1: node -99999999999999999999 out of range: below the index base 0"},
		{name: "beyond int64, auto names", in: "99999999999999999999,1,ml\n", opt: ReadOptions{N: 3, Names: []string{"a", "b", "c"}, AutoNames: true}, err: "in.csv:1: node 99999999999999999999 out of range: outside 0…2 (base 0)"},
		// A repeat is refused when its weight differs; an identical one is
		// kept once (below).
		{name: "duplicate rejected", in: "0,1,ml\n1,0,ml,0.5\n", err: "duplicate: ml(0,1) [in.csv:1], ml(1,0) w=0.5 [in.csv:2]"},
		{name: "contradiction rejected", in: "0,1,cl\n1,0,ml\n", err: "must-link and cannot-link on one pair: ml(1,0) [in.csv:2], cl(0,1) [in.csv:1]"},
		{name: "cannot-link in component", in: "0,1,ml\n2,1,ml\n0,2,cl\n", err: "cl(0,2) [in.csv:3] joined by ml(0,1) [in.csv:1], ml(2,1) [in.csv:2]"},
		// Conflicts name the nodes as the file does: in its base, or by
		// name (they were written 0-based whatever the file said).
		{name: "duplicate in base 1", in: "# base=1\n1,2,ml\n2,1,ml,0.5\n", err: "duplicate: ml(1,2) [in.csv:2], ml(2,1) w=0.5 [in.csv:3]"},
		{name: "cannot-link in component in base 1", in: "1,2,ml\n3,2,ml\n1,3,cl\n", opt: ReadOptions{Base: Base1}, err: "cl(1,3) [in.csv:3] joined by ml(1,2) [in.csv:1], ml(3,2) [in.csv:2]"},
		{name: "contradiction by name", in: "a,c,cl\nc , a,ml\n", opt: ReadOptions{Names: []string{"a", "b", " c "}}, err: "must-link and cannot-link on one pair: ml(c,a) [in.csv:2], cl(a,c) [in.csv:1]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opt := tc.opt
			opt.File = "in.csv"
			f, err := Read(strings.NewReader(tc.in), &opt)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				if !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrConflict) {
					t.Errorf("error %v wraps neither ErrInvalid nor ErrConflict", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(f.Set.Pairs, tc.want) || !slices.Equal(f.Lines, tc.lines) || f.Set.N != tc.n {
				t.Errorf("got %+v lines %v n %d\nwant %+v lines %v n %d", f.Set.Pairs, f.Lines, f.Set.N, tc.want, tc.lines, tc.n)
			}
		})
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	s := &Set{N: 7, Pairs: []Pair{
		{I: 0, J: 6, Kind: MustLink}, {I: 5, J: 1, Kind: CannotLink, Weight: 0.1},
		{I: 2, J: 3, Kind: CannotLink, Weight: 1.0 / 3},
	}}
	for _, base := range []int{0, 1} {
		var buf bytes.Buffer
		if err := Write(&buf, s, base); err != nil {
			t.Fatal(err)
		}
		got, err := Read(&buf, &ReadOptions{N: 7})
		if err != nil {
			t.Fatal(err)
		}
		if got.Base != base || !slices.Equal(got.Set.Pairs, s.Pairs) {
			t.Errorf("base %d: read back %+v (base %d)", base, got.Set.Pairs, got.Base)
		}
	}
	if err := Write(&bytes.Buffer{}, s, 2); err == nil {
		t.Error("base 2: no error")
	}
	// ReadFile on disk, n inferred.
	path := filepath.Join(t.TempDir(), "c.csv")
	if err := os.WriteFile(path, []byte("# base=1\n1,7,ml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path, 0)
	if err != nil || got.N != 7 || !slices.Equal(got.Pairs, []Pair{{I: 0, J: 6, Kind: MustLink}}) {
		t.Errorf("ReadFile = %+v, %v", got, err)
	}
	if _, err := ReadFile(path, 3); err == nil || !strings.Contains(err.Error(), path+":2:") {
		t.Errorf("ReadFile n=3: %v, want an error at %s:2", err, path)
	}
	// ReadFile keeps contradictions (Soft); Read with Reject refuses them.
	if err := os.WriteFile(path, []byte("0,1,ml\n1,0,cl\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFile(path, 0); err != nil || len(got.Pairs) != 2 {
		t.Errorf("ReadFile with a contradiction = %+v, %v; want both pairs", got, err)
	}
}

func TestReadLabels(t *testing.T) {
	tests := []struct {
		name string
		in   string
		opt  ReadOptions
		want Labels
		err  string
	}{
		{name: "one per line", in: "1\n-1\n\n?\n0\n", want: Labels{1, -1, -1, -1, 0}},
		{name: "one per line header", in: "# x\nlabel\n2\n0\n", want: Labels{2, 0}},
		{name: "node,label", in: "node,label\n3,1\n0,0\n", want: Labels{0, -1, -1, 1}},
		{name: "node,label N", in: "3,1\n0,?\n", opt: ReadOptions{N: 6}, want: Labels{-1, -1, -1, 1, -1, -1}},
		{name: "node,label base 1", in: "# base=1\n1,4\n2,-1\n", want: Labels{4, -1}},
		{name: "names", in: "b,1\n", opt: ReadOptions{Names: []string{"a", "b", "c"}}, want: Labels{-1, 1, -1}},
		// Names that repeat: the line naming one fails, the others are
		// read (the file was refused wholesale), on as many nodes as
		// names (it was the distinct names).
		{name: "names shared, not named", in: "b,1\n", opt: ReadOptions{Names: []string{"a", "b", "a"}}, want: Labels{-1, 1, -1}},
		{name: "names shared, named", in: "b,1\na,0\n", opt: ReadOptions{Names: []string{"a", "b", "a"}}, err: `in.txt:2: node name "a" is shared by rows 0 and 2 of the names`},
		// The header name,label (WriteLabelsNamed) keys the nodes by name
		// (it was "unknown node name \"name\""), or, without names, by
		// the integers they are.
		{name: "name header", in: "name,label\nc,0\n1,2\n", opt: ReadOptions{Names: []string{"a", "1", "c"}}, want: Labels{-1, 2, 0}},
		{name: "id header without names", in: "ID,Label\n4,0\n1,2\n", want: Labels{-1, 2, -1, -1, 0}},
		{name: "name header, no names", in: "name,label\nc,0\n", err: "in.txt:2: unknown node name \"c\": the header on line 1 keys the nodes by name"},
		// The header words of dataset.ReadNodeLabels: id,class was
		// "node id is not an integer" (review 114's list).
		{name: "id,class header", in: "id,class\nc,0\n1,2\n", opt: ReadOptions{Names: []string{"a", "1", "c"}}, want: Labels{-1, 2, 0}},
		{name: "vertex,community header", in: "Vertex;Community\n2;1\n", want: Labels{-1, -1, 1}},
		{name: "one per line, class header", in: "class\n1\n0\n", want: Labels{1, 0}},
		// The delimiters of Read, detected on the first line of two fields.
		{name: "node<tab>label", in: "node\tlabel\n3\t1\n0\t?\n", want: Labels{-1, -1, -1, 1}},
		{name: "node label", in: "3 1\n0 0\n", want: Labels{0, -1, -1, 1}},
		// An empty label after the delimiter, as dataset.ReadNodeLabels
		// reads it: the trimming of the line used to hide tabs and blanks.
		{name: "empty label, tab", in: "0\t2\n1\t\n2\t0\n", want: Labels{2, -1, 0}},
		{name: "empty label, blank", in: "0 2\n1 \n2 0\n", want: Labels{2, -1, 0}},
		{name: "empty label, comma", in: "0,2\n1,\n2,0\n", want: Labels{2, -1, 0}},
		{name: "empty label, semicolon", in: "0;2\n1;\n2;0\n", want: Labels{2, -1, 0}},
		{name: "no delimiter", in: "0\t2\n1\n", err: "in.txt:2: want node,label, got 1 fields"},
		{name: "blank in a tab file", in: "0\t2\n1 \n", err: "in.txt:2: want node,label, got 1 fields"},
		{name: "one per line, trailing blanks", in: "2\t\n0 \n", want: Labels{2, 0}},
		{name: "count mismatch", in: "1\n2\n", opt: ReadOptions{N: 3}, err: "in.txt: 2 label lines for 3 nodes"},
		{name: "too many lines", in: "1\n2\n3\n", opt: ReadOptions{N: 2}, err: "in.txt:3: more than 2 label lines"},
		{name: "bad label", in: "0,1\n1,x\n", err: "in.txt:2: label \"x\""},
		{name: "negative label", in: "-2\n", err: "in.txt:1: label \"-2\""},
		{name: "label beyond int64", in: "0,1\n1,99999999999999999999\n", err: "in.txt:2: label 99999999999999999999 out of range"},
		{name: "node beyond int64", in: "0,1\n99999999999999999999,0\n", err: "in.txt:2: node 99999999999999999999 out of range"},
		// Labels index per-class slots downstream: a label of max(n,
		// LabelFloor) or more is refused (1e9 allocated gigabytes).
		{name: "huge label", in: "0,1\n1,1000000000\n", err: "in.txt:2: label 1000000000 too large: at most 65535 (max(n, LabelFloor) − 1 for 2 nodes)"},
		{name: "label at the floor", in: "65536\n", err: "in.txt:1: label 65536 too large"},
		{name: "label below the floor", in: "0,65535\n", want: Labels{65535}},
		{name: "label below N", in: "0,69999\n", opt: ReadOptions{N: 70000}, want: append(Labels{69999}, slices.Repeat(Labels{-1}, 69999)...)},
		{name: "label N", in: "0,1\n3,70000\n", opt: ReadOptions{N: 70000}, err: "in.txt:2: label 70000 too large: at most 69999 (max(n, LabelFloor) − 1 for 70000 nodes)"},
		{name: "label below an inferred n", in: "69999,69999\n", want: append(slices.Repeat(Labels{-1}, 69999), 69999)},
		{name: "first huge label named", in: "0,69999\n1,80000\n2,70000\n69999,0\n", err: "in.txt:2: label 80000 too large: at most 69999 (max(n, LabelFloor) − 1 for 70000 nodes)"},
		{name: "names", in: "b,100000\n", opt: ReadOptions{Names: []string{"a", "b"}}, err: "in.txt:1: label 100000 too large"},
		{name: "mixed", in: "1\n0,1\n", err: "in.txt:2: want one label per line"},
		{name: "twice", in: "0,1\n\n0,1\n", err: "in.txt:3: node 0 already labelled on line 1"},
		{name: "three fields", in: "0,1,2\n", err: "in.txt:1: want node,label or one label per line"},
		// As dataset.ReadNodeLabels: a first line ?, -1 or blank is node
		// 0's label; blank lines before a header or node,label lines are
		// no nodes (they were, or made a node,label file an error), nor
		// are those at the end of the file (they were).
		{name: "first line ?", in: "?\n0\n1\n", opt: ReadOptions{N: 3}, want: Labels{-1, 0, 1}},
		{name: "leading blank line", in: "\n0\n1\n", opt: ReadOptions{N: 3}, want: Labels{-1, 0, 1}},
		{name: "leading blank lines after a comment", in: "# x\n\n\n2\n", want: Labels{-1, -1, 2}},
		{name: "blank line before a header", in: "\nlabel\n0\n1\n", opt: ReadOptions{N: 2}, want: Labels{0, 1}},
		{name: "blank line before node,label", in: "\n1,0\n0,1\n", want: Labels{1, 0}},
		{name: "blank line before a node,label header", in: "\nnode,label\n1,0\n", want: Labels{-1, 0}},
		{name: "trailing blank lines", in: "\n0\n\n1\n\n\n", want: Labels{-1, 0, -1, 1}},
		{name: "trailing blank lines, count", in: "0\n1\n\n", opt: ReadOptions{N: 3}, err: "in.txt: 2 label lines for 3 nodes (1 blank line at the end is ignored: write -1 or ? for an unlabelled node)"},
		{name: "leading blank, one too many", in: "\n0\n1\n", opt: ReadOptions{N: 2}, err: "in.txt:3: more than 2 label lines"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opt := tc.opt
			opt.File = "in.txt"
			l, err := ReadLabels(strings.NewReader(tc.in), &opt)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, ErrInvalid) {
					t.Fatalf("error %v, want ErrInvalid containing %q", err, tc.err)
				}
				return
			}
			if err != nil || !slices.Equal(l, tc.want) {
				t.Fatalf("got %v, %v; want %v", l, err, tc.want)
			}
		})
	}
	l := Labels{2, Unlabeled, 0, 1}
	var buf bytes.Buffer
	if err := WriteLabels(&buf, l, 1); err != nil {
		t.Fatal(err)
	}
	got, err := ReadLabels(&buf, &ReadOptions{N: 4})
	if err != nil || !slices.Equal(got, l) {
		t.Errorf("labels round trip: %v, %v", got, err)
	}
}

func FuzzReadPairs(f *testing.F) {
	for _, s := range []string{
		"0,1,ml\n2,3,cl,0.5\n", "# base=1\n1,2,ML\n", "i,j,kind\n0,1,cl\n1,0,ml\n",
		"0,1,ml\n1,2,ml\n0,2,cl\n", "\ufeff# c\n\n5,7,cl,1e-3\n", "0,0,ml\n", "a,b,ml",
		"i\tj\tkind\n0\t1\tml\n2\t\t3\tcl\t0.5\n", "0 1 ml\n  2 3   cl\n", "0;1;ml\n1;2;cl;2\n",
		"0,1,ml,\n1,2,cl,0.5,\n", "\"0\",\"1\",ml\n", "0,1,ml\n0\t2\tml\n",
		"0,1,ml\n1,99999999999999999999,cl\n", "-99999999999999999999,1,cl\n",
	} {
		f.Add(s, 0, uint8(0))
		f.Add(s, 10, uint8(2))
	}
	f.Fuzz(func(t *testing.T, in string, n int, pol uint8) {
		if n < 0 || n > 1000 {
			return
		}
		p := Policy(pol % 3)
		got, err := Read(strings.NewReader(in), &ReadOptions{N: n, Policy: p})
		if err != nil {
			if !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrConflict) {
				t.Fatalf("error %v wraps neither sentinel", err)
			}
			return
		}
		if err := got.Set.Validate(); err != nil {
			t.Fatalf("accepted an invalid set: %v", err)
		}
		if len(got.Lines) != len(got.Set.Pairs) {
			t.Fatalf("%d lines for %d pairs", len(got.Lines), len(got.Set.Pairs))
		}
		if p != Soft && !Check(got.Set).OK() {
			t.Fatalf("policy %v left conflicts", p)
		}
		var buf bytes.Buffer
		if err := Write(&buf, got.Set, got.Base); err != nil {
			t.Fatal(err)
		}
		back, err := Read(&buf, &ReadOptions{N: got.Set.N, Policy: Soft})
		if err != nil {
			t.Fatalf("re-reading written set: %v", err)
		}
		if !slices.Equal(back.Set.Pairs, got.Set.Pairs) {
			t.Fatalf("round trip changed the pairs")
		}
	})
}

func FuzzReadLabels(f *testing.F) {
	for _, s := range []string{"1\n-1\n\n?\n0\n", "node,label\n3,1\n", "# base=1\n1,4\n", "label\n2\n", "0,1\n1,x\n", "node\tlabel\n3\t1\n", "3 1\n0 ?\n",
		"0\t2\n1\t\n", "0 2\n1 \n", "0;2\n1;\n", "2\t\n0 \n",
		// A first line ?, -1 or blank is node 0's label; blank lines
		// before a header or pairs, or at the end, are no nodes.
		"?\n0\n1\n", "-1\n0\n1\n", "\n0\n1\n", "# c\n\n0\n", "\nlabel\n0\n", "\n1,0\n", "0\n\n\n",
		"0,1\n1,99999999999999999999\n", "99999999999999999999,0\n",
		// Labels of LabelFloor and more, refused unless below n.
		"0,1000000000\n", "65536\n", "0,65535\n", "1\n9223372036854775807\n", "65537,65536\n"} {
		f.Add(s, 0)
		f.Add(s, 6)
	}
	f.Fuzz(func(t *testing.T, in string, n int) {
		if n < 0 || n > 1000 {
			return
		}
		l, err := ReadLabels(strings.NewReader(in), &ReadOptions{N: n})
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		if n > 0 && len(l) != n {
			t.Fatalf("%d labels for n = %d", len(l), n)
		}
		if err := l.Validate(0); err != nil {
			t.Fatal(err)
		}
		for i, c := range l {
			if c >= max(len(l), LabelFloor) {
				t.Fatalf("node %d: label %d ≥ max(n = %d, LabelFloor) accepted", i, c, len(l))
			}
		}
		var buf bytes.Buffer
		if err := WriteLabels(&buf, l, 0); err != nil {
			t.Fatal(err)
		}
		back, err := ReadLabels(&buf, &ReadOptions{N: len(l)})
		if len(l) == 0 {
			return // nothing to give N from
		}
		if err != nil || !slices.Equal(back, l) {
			t.Fatalf("round trip: %v, %v; want %v", back, err, l)
		}
	})
}

// TestReadBaseHint: the hint to declare "# base=1" comes only for node N
// in a file whose base nobody gave, not when the option or the file sets
// the base, nor for another node out of range.
func TestReadBaseHint(t *testing.T) {
	const hint = `begin it with a line "# base=1"`
	for _, tc := range []struct {
		name, in string
		base     IndexBase
		hint     bool
	}{
		{"node N", "1,2,ml\n3,5,cl\n", 0, true},
		{"node N, base 0 given", "1,2,ml\n3,5,cl\n", Base0, false},
		{"node N, base 0 directive", "# base=0\n1,2,ml\n3,5,cl\n", 0, false},
		{"node N+1", "1,6,ml\n", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.in), &ReadOptions{File: "in.csv", N: 5, Base: tc.base})
			if err == nil || !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v, want one wrapping ErrInvalid", err)
			}
			if got := strings.Contains(err.Error(), hint); got != tc.hint {
				t.Errorf("error %v: hint %v, want %v", err, got, tc.hint)
			}
		})
	}
}

// TestReadLabelsFileAsPairs: a labels file given where pairs are expected
// (review 95: tether cluster -constraints moons.truth said "give the kind:
// node,label,ml") is named as one, with an error wrapping ErrLabelsFile
// and ErrInvalid, on its first line; pairs that lack only their kind keep
// the error that says how to write the kind.
func TestReadLabelsFileAsPairs(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		labels   bool   // the error wraps ErrLabelsFile
		err      string // substring of the error
	}{
		{"header node,label", "node,label\n0,0\n1,1\n", true, `in.csv:1: want i,j,kind[,weight], got 2 fields "node,label": this is a labels file (node,label lines: each node's class), not pairwise constraints`},
		{"header id,class after a comment", "# base=0\nid;class\n0;setosa\n", true, `in.csv:2: want i,j,kind[,weight], got 2 fields "id;class": this is a labels file`},
		{"header alone", "node,label\n", true, "this is a labels file"},
		{"integers, classes repeat", "0,0\n1,0\n2,1\n3,1\n", true, `in.csv:1: want i,j,kind[,weight], got 2 fields "0,0": this is a labels file (node,label lines`},
		{"an unknown label", "0,1\n1,-1\n", true, "this is a labels file"},
		{"an empty label", "0\t2\n1\t\n", true, "this is a labels file"},
		{"class names", "0,a\n1,b\n2,a\n3,b\n", true, "this is a labels file"},
		{"one label per line", "0\n1\n0\n", true, `in.csv:1: want i,j,kind[,weight], got 1 field "0": this is a labels file (one label per line), not pairwise constraints`},
		// Pairs without their kind: a node repeats in the first column,
		// or the second has as many values as lines.
		{"one pair", "0,1\n", false, `in.csv:1: want i,j,kind[,weight], got 2 fields "0,1": give the kind: 0,1,ml (must-link) or 0,1,cl (cannot-link)`},
		{"a chain of pairs", "0,1\n1,2\n2,3\n", false, `in.csv:1: want i,j,kind[,weight], got 2 fields "0,1": give the kind`},
		{"a star of pairs", "0,1\n0,2\n0,3\n", false, `in.csv:1: want i,j,kind[,weight], got 2 fields "0,1": give the kind`},
		{"then three fields", "0,0\n1,0\n2,1,ml\n", false, `in.csv:1: want i,j,kind[,weight], got 2 fields "0,0": give the kind`},
		{"one field, then three", "5\n0,1,ml\n", false, "in.csv:1: want i,j,kind[,weight], got 1 field"},
		// Not the first line: a pair of a constraints file lacking its kind.
		{"two fields on line 2", "0,1,ml\n1,0\n2,0\n", false, `in.csv:2: want i,j,kind[,weight], got 2 fields "1,0": give the kind`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.in), &ReadOptions{File: "in.csv"})
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want one containing %q", err, tc.err)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %v does not wrap ErrInvalid", err)
			}
			if got := errors.Is(err, ErrLabelsFile); got != tc.labels {
				t.Errorf("wraps ErrLabelsFile: %v, want %v", got, tc.labels)
			}
		})
	}
}

// TestReadNamesAsIndices: File.NamesAsIndices gives the line of the name
// header when the file was read without names (its integer names read as
// indices), for the front ends' note, and 0 otherwise.
func TestReadNamesAsIndices(t *testing.T) {
	for _, tc := range []struct {
		in   string
		opt  ReadOptions
		want int
	}{
		{"# by WriteNamed\nname_i,name_j,kind\n2,0,cl\n", ReadOptions{N: 3}, 2},
		{"name_i,name_j,kind\n2,0,cl\n", ReadOptions{Names: []string{"2", "0", "1"}, AutoNames: true}, 0},
		{"i,j,kind\n2,0,cl\n", ReadOptions{N: 3}, 0},
		{"2,0,cl\n", ReadOptions{N: 3}, 0},
	} {
		opt := tc.opt
		f, err := Read(strings.NewReader(tc.in), &opt)
		if err != nil || f.NamesAsIndices != tc.want {
			t.Errorf("%q: NamesAsIndices %v (err %v), want %d", tc.in, f, err, tc.want)
		}
	}
}

// TestReadHeaderHintOnlyFirst checks that the header hint of an unknown
// node is given on the first data line only when it is no constraint
// (its kind ml or cl): an unknown name in a constraint, or on a later
// line, is only unknown.
func TestReadHeaderHintOnlyFirst(t *testing.T) {
	names := []string{"a", "b"}
	for _, in := range []string{"a,z,ml\n", "a,b,ml\nz,a,type\n", "x,y,kind\nz,a,ml\n"} {
		_, err := Read(strings.NewReader(in), &ReadOptions{Names: names, File: "in.csv"})
		if err == nil || !strings.Contains(err.Error(), "unknown node name") || strings.Contains(err.Error(), "header") {
			t.Errorf("%q: error %v, want an unknown node name without the header hint", in, err)
		}
	}
}
