package dataset

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tether-sc/tether/internal/testctx"
	"github.com/tether-sc/tether/internal/textline"
)

// TestReadersCancel checks that every table and graph reader polls its
// context while parsing: 2.5·10⁶ rows took 3–5 s to parse, and Ctrl-C
// waited for the end. With a context cancelled at its first check each
// reader returns context.Canceled, naming the file; with a live context the
// same text reads.
func TestReadersCancel(t *testing.T) {
	const rows = 3 * textline.PollLines
	var csv, arff, edges, mtx, dense strings.Builder
	csv.WriteString("x,y\n")
	arff.WriteString("@relation r\n@attribute x numeric\n@attribute y numeric\n@data\n")
	fmt.Fprintf(&mtx, "%%%%MatrixMarket matrix coordinate real symmetric\n%d %d %d\n", rows+1, rows+1, rows)
	for i := 0; i < rows; i++ {
		fmt.Fprintf(&csv, "%d,%d\n", i, i%7)
		fmt.Fprintf(&arff, "%d,%d\n", i, i%7)
		fmt.Fprintf(&edges, "%d %d 1\n", i, i+1)
		fmt.Fprintf(&mtx, "%d %d 1\n", i+2, i+1)
	}
	const side = 300
	for i := 0; i < side; i++ {
		for j := 0; j < side; j++ {
			if j > 0 {
				dense.WriteByte(',')
			}
			dense.WriteString(map[bool]string{true: "1", false: "0"}[i != j])
		}
		dense.WriteByte('\n')
	}
	tables := []struct {
		name, text string
		format     Format
	}{
		{"t.csv", csv.String(), FormatDelimited},
		{"t.arff", arff.String(), FormatARFF},
	}
	for _, tc := range tables {
		_, err := Read(testctx.CancelAfter(0), strings.NewReader(tc.text), tc.name, Options{Format: tc.format})
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%s: cancelled read: err = %v, want context.Canceled naming the file", tc.name, err)
		}
		if _, err := Read(context.Background(), strings.NewReader(tc.text), tc.name, Options{Format: tc.format}); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	graphs := []struct {
		name, text string
		format     GraphFormat
	}{
		{"g.txt", edges.String(), EdgeList},
		{"g.mtx", mtx.String(), MatrixMarket},
		{"g.csv", dense.String(), DenseCSV},
		{"g.gml", "graph [ node [ id 0 ] node [ id 1 ] edge [ source 0 target 1 ] ]", GML},
	}
	for _, tc := range graphs {
		_, err := ReadGraph(testctx.CancelAfter(0), strings.NewReader(tc.text), tc.name, tc.format, GraphOptions{})
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%s: cancelled read: err = %v, want context.Canceled naming the file", tc.name, err)
		}
		if _, err := ReadGraph(context.Background(), strings.NewReader(tc.text), tc.name, tc.format, GraphOptions{}); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// TestReadersStopMidRead cancels the context of every reader the tether
// command uses while it reads an input that never ends (a pipe whose
// writer never stops): each returns ctx's error naming the input, having
// read little after the cancellation. readAll used to read to the end of
// its input before looking at ctx.
func TestReadersStopMidRead(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		read       func(ctx context.Context, r io.Reader) error
	}{
		{"table", "1,2\n", func(ctx context.Context, r io.Reader) error {
			_, err := Read(ctx, r, "in", Options{})
			return err
		}},
		{"edge list", "1 2\n", func(ctx context.Context, r io.Reader) error {
			_, err := ReadGraph(ctx, r, "in", EdgeList, GraphOptions{})
			return err
		}},
		{"values", "1\n", func(ctx context.Context, r io.Reader) error {
			_, err := ReadValuesContext(ctx, r, "in", ValueOptions{})
			return err
		}},
		{"labels", "1\n", func(ctx context.Context, r io.Reader) error {
			_, err := ReadLabelsContext(ctx, r, "in", LabelOptions{})
			return err
		}},
		{"node labels", "1\n", func(ctx context.Context, r io.Reader) error {
			_, err := ReadNodeLabelsContext(ctx, r, "in", NodeLabelOptions{})
			return err
		}},
		{"doc-term", "1 1 1\n", func(ctx context.Context, r io.Reader) error {
			_, err := ReadDocTermContext(ctx, r, "in", 0)
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			testctx.StopsMidRead(t, tc.line, "in", tc.read)
		})
	}
}

// TestReadGraphCancelAfterTheLines: the passes after the last line of an
// edge list (numbering the nodes, sorting and combining the entries,
// building the graph) check the context too: 3·10⁶ named edges took 2.7 s
// to stop after Ctrl-C, the line loop's checks being all behind. A context
// cancelled at any of the last three checks of a whole read (counted
// first) stops the read there, naming the file and the stage; one that
// is never cancelled reads.
func TestReadGraphCancelAfterTheLines(t *testing.T) {
	const rows = 3 * textline.PollLines
	var ints, named strings.Builder
	for i := 0; i < rows; i++ {
		fmt.Fprintf(&ints, "%d %d 1\n", i, i+1)
		fmt.Fprintf(&named, "n%d n%d 1\n", i, i+1)
	}
	for _, tc := range []struct{ name, text string }{{"ints.txt", ints.String()}, {"named.txt", named.String()}} {
		var c countingCtx
		if _, err := ReadGraph(&c, strings.NewReader(tc.text), tc.name, EdgeList, GraphOptions{}); err != nil {
			t.Fatal(err)
		}
		checks := int(c.n.Load())
		for before := checks - 3; before < checks; before++ {
			_, err := ReadGraph(testctx.CancelAfter(before), strings.NewReader(tc.text), tc.name, EdgeList, GraphOptions{})
			if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), tc.name+": stopped while building the graph") {
				t.Errorf("%s, cancelled at check %d of %d: err = %v, want context.Canceled naming the file and the stage", tc.name, before+1, checks, err)
			}
		}
	}
}

// countingCtx is a live context that counts the calls of Err.
type countingCtx struct {
	context.Context
	n atomic.Int64
}

func (c *countingCtx) Err() error {
	c.n.Add(1)
	return nil
}

func (c *countingCtx) Done() <-chan struct{}                   { return nil }
func (c *countingCtx) Deadline() (deadline time.Time, ok bool) { return }
func (c *countingCtx) Value(key any) any                       { return nil }
