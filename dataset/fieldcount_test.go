package dataset

import (
	"context"
	"strings"
	"testing"
)

// The readers count the fields of a line in the singular for one ("1
// field, want 2 …"), where they said "1 fields".
func TestOneFieldSingular(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		read func() error
		want string
	}{
		{"table", func() error {
			_, err := Read(ctx, strings.NewReader("a,b\n1,2\n3\n"), "t.csv", Options{})
			return err
		}, "1 field, want 2 as on line 1"},
		{"edge list", func() error {
			_, err := ReadGraph(ctx, strings.NewReader("0 1 1\n1\n"), "g.edges", EdgeList, GraphOptions{})
			return err
		}, "1 field, want"},
		{"Matrix Market", func() error {
			_, err := ReadGraph(ctx, strings.NewReader("%%MatrixMarket matrix coordinate real general\n2 2 1\n1\n"), "g.mtx", GraphAuto, GraphOptions{})
			return err
		}, "1 field, want 3"},
		{"labels", func() error {
			_, err := ReadLabels(strings.NewReader("0,a\n1\n"), "l.txt", LabelOptions{})
			return err
		}, "1 field, want 2 as on the first line"},
		{"node labels", func() error {
			_, err := ReadNodeLabels(strings.NewReader("0,a\n1\n"), "l.txt", NodeLabelOptions{})
			return err
		}, "1 field, want 2 as on the first data line"},
		{"document-term", func() error {
			_, err := ReadDocTerm(strings.NewReader("2 2 1\n1\n"), "d.txt", 0)
			return err
		}, "1 field, want \"row col value\""},
	} {
		err := c.read()
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "1 fields") {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
		}
	}
}
