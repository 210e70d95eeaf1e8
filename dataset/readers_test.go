package dataset

import (
	"errors"
	"reflect"
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
			_, err := ReadGraph(strings.NewReader(c.in), "g", EdgeList, GraphOptions{})
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
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := ReadGraph(strings.NewReader(c.in), "g", EdgeList, GraphOptions{})
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
			_, err := ReadGraph(strings.NewReader(c.in), "g", EdgeList, GraphOptions{})
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
	d, err := ReadGraph(strings.NewReader("1 2\n2 3\n3 x4\n"), "g", EdgeList, GraphOptions{NamedNodes: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"1", "2", "3", "x4"}; !reflect.DeepEqual(d.Names, want) {
		t.Fatalf("Names = %q, want %q", d.Names, want)
	}
}
