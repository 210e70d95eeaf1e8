package constraint

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestWriteNamed: WriteNamed's exact text (written out by hand), and the
// pairs Read gives back with the names, under AutoNames or not, and, for
// integer names, without them (as indices).
func TestWriteNamed(t *testing.T) {
	tests := []struct {
		name  string
		set   *Set
		names []string
		want  string
		// idx, when not nil, are the pairs read without names: integer
		// names as node indices.
		idx []Pair
	}{
		{
			// A comma, a quote, a leading '#' (a comment unquoted) or
			// '%', blanks around a name (trimmed) and inside it.
			name: "awkward names",
			set: &Set{N: 6, Pairs: []Pair{
				{I: 0, J: 1, Kind: MustLink}, {I: 2, J: 3, Kind: CannotLink},
				{I: 4, J: 5, Kind: MustLink, Weight: 0.5}, {I: 3, J: 0, Kind: CannotLink},
			}},
			names: []string{" Smith, J ", `say "hi"`, "#3", "10", "%x", "plain name"},
			want: "name_i,name_j,kind,weight\n" +
				"\"Smith, J\",\"say \"\"hi\"\"\",ml\n" +
				"\"#3\",10,cl\n" +
				"\"%x\",plain name,ml,0.5\n" +
				"10,\"Smith, J\",cl\n",
		},
		{
			// pandas' index out of order: name "2" is node 0. Read by
			// index it would be node 2.
			name: "integer names out of order",
			set: &Set{N: 3, Pairs: []Pair{
				{I: 0, J: 1, Kind: CannotLink}, {I: 0, J: 2, Kind: MustLink}, {I: 1, J: 2, Kind: CannotLink},
			}},
			names: []string{"2", "0", "1"},
			want:  "name_i,name_j,kind\n2,0,cl\n2,1,ml\n0,1,cl\n",
			idx:   []Pair{{I: 2, J: 0, Kind: CannotLink}, {I: 2, J: 1, Kind: MustLink}, {I: 0, J: 1, Kind: CannotLink}},
		},
		{
			// Row numbers of the rows kept after dropping some.
			name:  "row numbers with gaps",
			set:   &Set{N: 3, Pairs: []Pair{{I: 0, J: 2, Kind: MustLink}, {I: 1, J: 2, Kind: CannotLink, Weight: 2}}},
			names: []string{"0", "4", "5"},
			want:  "name_i,name_j,kind,weight\n0,5,ml\n4,5,cl,2\n",
			idx:   []Pair{{I: 0, J: 5, Kind: MustLink}, {I: 4, J: 5, Kind: CannotLink, Weight: 2}},
		},
		{
			name:  "unicode",
			set:   &Set{N: 2, Pairs: []Pair{{I: 1, J: 0, Kind: MustLink}}},
			names: []string{"é t", "日本"},
			want:  "name_i,name_j,kind\n日本,é t,ml\n",
		},
		{name: "no pairs", set: &Set{N: 2}, names: []string{"a", "b"}, want: "name_i,name_j,kind\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteNamed(&buf, tc.set, tc.names); err != nil {
				t.Fatal(err)
			}
			if buf.String() != tc.want {
				t.Fatalf("wrote\n%s\nwant\n%s", buf.String(), tc.want)
			}
			for _, auto := range []bool{false, true} {
				f, err := Read(strings.NewReader(tc.want), &ReadOptions{Names: tc.names, AutoNames: auto, File: "named.csv"})
				if err != nil {
					t.Fatalf("AutoNames %v: %v", auto, err)
				}
				if f.Set.N != tc.set.N || !slices.Equal(f.Set.Pairs, tc.set.Pairs) {
					t.Errorf("AutoNames %v: read back %+v on %d nodes, want %+v on %d", auto, f.Set.Pairs, f.Set.N, tc.set.Pairs, tc.set.N)
				}
			}
			if tc.idx == nil {
				return
			}
			f, err := Read(strings.NewReader(tc.want), &ReadOptions{File: "named.csv"})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(f.Set.Pairs, tc.idx) {
				t.Errorf("without names: read %+v, want %+v", f.Set.Pairs, tc.idx)
			}
		})
	}
}

// TestWriteNamedErrors: names that cannot key the nodes are refused,
// wrapping ErrInvalid, before anything is written.
func TestWriteNamedErrors(t *testing.T) {
	one := &Set{N: 2, Pairs: []Pair{{I: 0, J: 1, Kind: MustLink}}}
	for _, tc := range []struct {
		name  string
		set   *Set
		names []string
		err   string
	}{
		{"too few names", one, []string{"a"}, "1 names for 2 nodes"},
		{"empty name", one, []string{"a", "  "}, "node 1 has an empty name"},
		{"repeated once trimmed", one, []string{" a", "a "}, `node name "a" used by nodes 0 and 1`},
		{"line break", one, []string{"a\nb", "c"}, "holds a line break or a NUL byte"},
		{"NUL", one, []string{"a", "b\x00"}, "holds a line break or a NUL byte"},
		{"self pair", &Set{N: 2, Pairs: []Pair{{I: 1, J: 1, Kind: MustLink}}}, []string{"a", "b"}, "self"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := WriteNamed(&buf, tc.set, tc.names)
			if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want ErrInvalid with %q", err, tc.err)
			}
			if buf.Len() != 0 {
				t.Errorf("wrote %q before failing", buf.String())
			}
			labels := make(Labels, tc.set.N)
			if err := WriteLabelsNamed(&bytes.Buffer{}, labels, tc.names); tc.name != "self pair" && (err == nil || !errors.Is(err, ErrInvalid)) {
				t.Errorf("WriteLabelsNamed: error %v, want ErrInvalid", err)
			}
		})
	}
}

// TestWriteLabelsNamed: WriteLabelsNamed's exact text, read back by
// ReadLabels with the names, and, for integer names, without them (as
// indices).
func TestWriteLabelsNamed(t *testing.T) {
	tests := []struct {
		name   string
		labels Labels
		names  []string
		want   string
		n      int    // nodes without names (0: skip)
		idx    Labels // read without names on n nodes
	}{
		{
			name:   "awkward names",
			labels: Labels{1, Unlabeled, 0, 2, 3},
			names:  []string{"b,1", `"q"`, "#c", " d e ", "%p"},
			want:   "name,label\n\"b,1\",1\n\"#c\",0\nd e,2\n\"%p\",3\n",
		},
		{
			name:   "row numbers with gaps",
			labels: Labels{1, 0, 1},
			names:  []string{"0", "4", "5"},
			want:   "name,label\n0,1\n4,0\n5,1\n",
			n:      6,
			idx:    Labels{1, Unlabeled, Unlabeled, Unlabeled, 0, 1},
		},
		{
			name:   "integer names out of order",
			labels: Labels{0, 1, 0},
			names:  []string{"2", "0", "1"},
			want:   "name,label\n2,0\n0,1\n1,0\n",
			n:      3,
			idx:    Labels{1, 0, 0},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteLabelsNamed(&buf, tc.labels, tc.names); err != nil {
				t.Fatal(err)
			}
			if buf.String() != tc.want {
				t.Fatalf("wrote\n%s\nwant\n%s", buf.String(), tc.want)
			}
			got, err := ReadLabels(strings.NewReader(tc.want), &ReadOptions{Names: tc.names, File: "named.csv"})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.labels) {
				t.Errorf("read back %v, want %v", got, tc.labels)
			}
			if tc.n == 0 {
				return
			}
			got, err = ReadLabels(strings.NewReader(tc.want), &ReadOptions{N: tc.n, File: "named.csv"})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.idx) {
				t.Errorf("without names: read %v, want %v", got, tc.idx)
			}
		})
	}
	if err := WriteLabelsNamed(&bytes.Buffer{}, Labels{-2}, []string{"a"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("label -2: error %v, want ErrInvalid", err)
	}
}
