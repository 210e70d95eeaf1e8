package dataset

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/graph"
)

// WriteCSV writes t as CSV: a header row with the feature names (and
// "label" when t has labels), then one row per point with the features in
// shortest round-trip form and the label last (as its class name when
// ClassNames is set, the integer otherwise). Reading the output back with
// Options{LabelColumn: "last"} gives the same X and Labels.
func WriteCSV(w io.Writer, t *Table) error {
	bw := bufio.NewWriter(w)
	n, p := t.X.Dims()
	names := make([]string, 0, p+1)
	for j := 0; j < p; j++ {
		name := fmt.Sprintf("x%d", j+1)
		if j < len(t.Features) {
			name = t.Features[j]
		}
		names = append(names, csvField(name))
	}
	if t.Labels != nil {
		names = append(names, "label")
	}
	bw.WriteString(strings.Join(names, ","))
	bw.WriteByte('\n')
	var buf []byte
	for i := 0; i < n; i++ {
		buf = buf[:0]
		for j := 0; j < p; j++ {
			if j > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendFloat(buf, t.X.At(i, j), 'g', -1, 64)
		}
		if t.Labels != nil {
			buf = append(buf, ',')
			l := t.Labels[i]
			if l >= 0 && l < len(t.ClassNames) {
				buf = append(buf, csvField(t.ClassNames[l])...)
			} else {
				buf = strconv.AppendInt(buf, int64(l), 10)
			}
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return fmt.Errorf("dataset: writing CSV: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("dataset: writing CSV: %w", err)
	}
	return nil
}

// csvField quotes s when it holds a delimiter, quote or blank.
func csvField(s string) string {
	if s == "" || strings.ContainsAny(s, ",\"\t; \r\n") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// edgeListHeader is the first line WriteEdgeList writes, with the node
// count; ReadGraph reads the count and the base from it (edgeListDeclared).
const edgeListHeader = "# %d nodes, undirected, 0-based: i j weight"

// WriteEdgeList writes every undirected edge of g once as "i j w" with
// 0-based node numbers and i ≤ j, preceded by a '#' comment giving the node
// count and the base (edgeListHeader). ReadGraph reads it back exactly,
// nodes without an edge included (weights are written in shortest
// round-trip form). Cost O(n + edges).
func WriteEdgeList(w io.Writer, g *graph.Graph) error {
	number := func(b []byte, i int) []byte { return strconv.AppendInt(b, int64(i), 10) }
	return writeEdgeList(w, g, fmt.Sprintf(edgeListHeader, g.N()), number, false)
}

// WriteNamedEdgeList writes g as an edge list whose nodes are names[i],
// each one token (no blank, delimiter or quote, not empty, none
// repeated: the caller checks): a first line "# N nodes", then every
// undirected edge once as "a b w" (a's index ≤ b's, weights in shortest
// round-trip form), and "a a 0" for a node without an edge, so that every
// node is named and ReadGraph reads back the same graph with the same
// names (the nodes numbered in order of first appearance). An error
// wrapping ErrInvalid when len(names) ≠ n. Cost O(n + edges).
func WriteNamedEdgeList(w io.Writer, g *graph.Graph, names []string) error {
	if len(names) != g.N() {
		return fmt.Errorf("%w: %d node names for a graph of %d nodes", ErrInvalid, len(names), g.N())
	}
	name := func(b []byte, i int) []byte { return append(b, names[i]...) }
	return writeEdgeList(w, g, fmt.Sprintf("# %d nodes", g.N()), name, true)
}

// writeEdgeList writes the header line, then every undirected edge of g
// once as "a b w" with a ≤ b, the nodes written by node, and with
// isolated "a a 0" for each node without an edge. Cost O(n + edges).
func writeEdgeList(w io.Writer, g *graph.Graph, header string, node func([]byte, int) []byte, isolated bool) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, header)
	var buf []byte
	line := func(i, j int, wt float64) error {
		buf = node(buf[:0], i)
		buf = append(buf, ' ')
		buf = node(buf, j)
		buf = append(buf, ' ')
		buf = strconv.AppendFloat(buf, wt, 'g', -1, 64)
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return fmt.Errorf("dataset: writing edge list: %w", err)
		}
		return nil
	}
	for i := 0; i < g.N(); i++ {
		idx, wt := g.Row(i)
		if isolated && len(idx) == 0 {
			if err := line(i, i, 0); err != nil {
				return err
			}
			continue
		}
		for k, j := range idx {
			if int(j) < i {
				continue
			}
			if err := line(i, int(j), wt[k]); err != nil {
				return err
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("dataset: writing edge list: %w", err)
	}
	return nil
}

// WriteMatrixMarket writes g as a "matrix coordinate real symmetric" Matrix
// Market file holding the lower triangle (i ≥ j), 1-based.
func WriteMatrixMarket(w io.Writer, g *graph.Graph) error {
	bw := bufio.NewWriter(w)
	n := g.N()
	nnz := 0
	for i := 0; i < n; i++ {
		idx, _ := g.Row(i)
		for _, j := range idx {
			if int(j) <= i {
				nnz++
			}
		}
	}
	fmt.Fprintf(bw, "%%%%MatrixMarket matrix coordinate real symmetric\n%d %d %d\n", n, n, nnz)
	var buf []byte
	for i := 0; i < n; i++ {
		idx, wt := g.Row(i)
		for k, j := range idx {
			if int(j) > i {
				break
			}
			buf = strconv.AppendInt(buf[:0], int64(i+1), 10)
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(j)+1, 10)
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, wt[k], 'g', -1, 64)
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return fmt.Errorf("dataset: writing Matrix Market: %w", err)
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("dataset: writing Matrix Market: %w", err)
	}
	return nil
}
