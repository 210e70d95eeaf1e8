package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/input"
	"github.com/tether-sc/tether/internal/wording"
)

// bipartiteOptions are the flags of a document-by-term input (-bipartite).
type bipartiteOptions struct {
	file     string // triplet file
	rowNames string // documents file: "name" or "name class" lines
	colNames string // terms file: one name per line
	tfidf    bool
	drop     bool // drop empty rows and columns
	// matrixMethod names the method when it clusters the matrix itself
	// (cluster.BipartiteInput: cocluster), whose rows and columns all
	// need a positive entry; "" for a method of the bipartite graph.
	matrixMethod string
}

// loadBipartite reads the triplet file of o: the matrix (tf–idf
// weighted unless -tfidf=false), its bipartite graph on rows + cols nodes
// (documents first, then terms, edge weight the matrix entry), the node
// names and, when the documents file has a class column, the reference
// labels of the documents (terms have none). For a method that clusters
// the matrix (o.matrixMethod), a row or column without a positive entry
// is an error naming it as the file does, 1-based, and -drop-empty (the
// method's own error numbered them from 0).
func (o *bipartiteOptions) loadBipartite(ctx context.Context) (*input.Data, error) {
	dt, err := dataset.ReadDocTermFileData(ctx, o.file, 0)
	if err != nil {
		return nil, err
	}
	counts := dt.Matrix
	s := counts
	l := &input.Data{Name: o.file, Warnings: dt.Warnings}
	if o.tfidf {
		s = dataset.TFIDF(s)
	}
	if o.matrixMethod != "" && !o.drop {
		if err := o.checkEmpty(counts, s); err != nil {
			return nil, err
		}
	}
	r, c := s.Dims()
	var rowNames, colNames []string
	var classes []int
	if o.rowNames != "" {
		if rowNames, classes, err = readNameFile(ctx, o.rowNames, r, true); err != nil {
			return nil, err
		}
	}
	if o.colNames != "" {
		if colNames, _, err = readNameFile(ctx, o.colNames, c, false); err != nil {
			return nil, err
		}
	}
	if rowNames != nil || colNames != nil {
		if rowNames == nil {
			rowNames = numbered("row", r)
		}
		if colNames == nil {
			colNames = numbered("col", c)
		}
		l.Names = append(rowNames, colNames...)
	}
	if classes != nil {
		l.Truth = make([]int, r+c)
		copy(l.Truth, classes)
		for j := r; j < r+c; j++ {
			l.Truth[j] = -1
		}
	}
	if o.drop {
		var keep []int
		for i := 0; i < r; i++ {
			if idx, _ := s.Row(i); len(idx) > 0 {
				keep = append(keep, i)
			}
		}
		sub, cols := s.SelectRows(keep)
		if sub.Rows < r || sub.Cols < c {
			l.Warnings = append(l.Warnings, fmt.Sprintf("%s: -drop-empty dropped %s and %s; nodes are the %s, then the %s kept", o.file, wording.Count(r-sub.Rows, "empty row", "empty rows"), wording.Count(c-sub.Cols, "empty column", "empty columns"), wording.Count(sub.Rows, "row", "rows"), wording.Count(sub.Cols, "column", "columns")))
			nodes := append([]int(nil), keep...)
			for _, j := range cols {
				nodes = append(nodes, r+j)
			}
			if l.Names != nil {
				l.Names = pick(l.Names, nodes)
			}
			if l.Truth != nil {
				l.Truth = pick(l.Truth, nodes)
			}
			s, r, c = sub, sub.Rows, sub.Cols
		}
	}
	edges := make([]graph.Edge, 0, s.NNZ())
	for i := 0; i < r; i++ {
		idx, val := s.Row(i)
		for q, j := range idx {
			edges = append(edges, graph.Edge{I: i, J: r + int(j), W: val[q]})
		}
	}
	if l.Graph, err = graph.FromEdges(r+c, edges); err != nil {
		return nil, fmt.Errorf("%s: %w", o.file, err)
	}
	l.Bipartite = s
	return l, nil
}

// checkEmpty returns an error naming the first row and the first column
// of s, the matrix clustered, without a positive entry (1-based, as the
// file numbers them), how many there are and -drop-empty, nil when there
// is none. counts is the matrix as read: a row or column that has entries
// there lost them to tf–idf (a term in every row weighs 0), which the
// error says, with -tfidf=false. Cost O(nnz + rows + cols).
func (o *bipartiteOptions) checkEmpty(counts, s *dataset.Sparse) error {
	r, c := s.Dims()
	hasCol := func(m *dataset.Sparse) []bool {
		has := make([]bool, c)
		for _, j := range m.Idx {
			has[j] = true
		}
		return has
	}
	var rows, cols []int
	for i := 0; i < r; i++ {
		if idx, _ := s.Row(i); len(idx) == 0 {
			rows = append(rows, i)
		}
	}
	for j, h := range hasCol(s) {
		if !h {
			cols = append(cols, j)
		}
	}
	if len(rows)+len(cols) == 0 {
		return nil
	}
	var first, total, lost []string
	if len(rows) > 0 {
		first = append(first, fmt.Sprintf("row %d", rows[0]+1))
		total = append(total, wording.Count(len(rows), "empty row", "empty rows"))
		if idx, _ := counts.Row(rows[0]); len(idx) > 0 {
			lost = append(lost, fmt.Sprintf("the terms of row %d all occur in every row", rows[0]+1))
		}
	}
	if len(cols) > 0 {
		first = append(first, fmt.Sprintf("column %d", cols[0]+1))
		total = append(total, wording.Count(len(cols), "empty column", "empty columns"))
		if hasCol(counts)[cols[0]] {
			lost = append(lost, fmt.Sprintf("column %d occurs in every row", cols[0]+1))
		}
	}
	verb := "has"
	if len(first) == 2 {
		verb = "have"
	}
	msg := fmt.Sprintf("%s: %s %s no positive entry (%s in all): %s needs one in every row and column; -drop-empty drops the empty ones, renumbering the nodes kept",
		o.file, strings.Join(first, " and "), verb, strings.Join(total, " and "), o.matrixMethod)
	if len(lost) > 0 {
		msg += fmt.Sprintf(" (%s, which tf–idf weighs 0: -tfidf=false keeps the counts)", strings.Join(lost, ", and "))
	}
	return errors.New(msg)
}

// pick returns x[nodes[0]], x[nodes[1]], ….
func pick[T any](x []T, nodes []int) []T {
	out := make([]T, len(nodes))
	for q, a := range nodes {
		out[q] = x[a]
	}
	return out
}

// numbered returns prefix0, prefix1, …, prefix(n−1).
func numbered(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i)
	}
	return out
}

// readNameFile reads n names, one a line. With classes, a second field is
// the line's class (the Classic3 documents.txt form "name class"); every
// line must then have one, and classes are numbered in order of first
// appearance. Errors name path:line.
func readNameFile(ctx context.Context, path string, n int, classes bool) ([]string, []int, error) {
	lines, err := dataset.ReadNamesContext(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	var names []string
	var cls []int
	ids := map[string]int{}
	for k, l := range lines {
		ln := k + 1
		fs := strings.Fields(l)
		if len(fs) == 0 {
			return nil, nil, fmt.Errorf("%s:%d: empty line, want a name", path, ln)
		}
		switch {
		case len(fs) == 1 && (!classes || cls == nil):
		case len(fs) == 2 && classes && (ln == 1 || cls != nil):
			id, ok := ids[fs[1]]
			if !ok {
				id = len(ids)
				ids[fs[1]] = id
			}
			cls = append(cls, id)
		case classes:
			return nil, nil, fmt.Errorf("%s:%d: %s, want \"name\" or \"name class\" as on line 1", path, ln, wording.Count(len(fs), "field", "fields"))
		default:
			return nil, nil, fmt.Errorf("%s:%d: %s, want one name", path, ln, wording.Count(len(fs), "field", "fields"))
		}
		names = append(names, fs[0])
		if len(names) > n {
			return nil, nil, fmt.Errorf("%s:%d: more than the %d names of the matrix", path, ln, n)
		}
	}
	if len(names) != n {
		return nil, nil, fmt.Errorf("%s: %s, the matrix has %d", path, wording.Count(len(names), "name", "names"), n)
	}
	return names, cls, nil
}
