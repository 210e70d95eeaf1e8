package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/input"
)

// bipartiteOptions are the flags of a document-by-term input (-bipartite).
type bipartiteOptions struct {
	file     string // triplet file
	rowNames string // documents file: "name" or "name class" lines
	colNames string // terms file: one name per line
	tfidf    bool
	drop     bool // drop empty rows and columns
}

// loadBipartite reads the triplet file of o: the matrix (tf–idf
// weighted unless -tfidf=false), its bipartite graph on rows + cols nodes
// (documents first, then terms, edge weight the matrix entry), the node
// names and, when the documents file has a class column, the reference
// labels of the documents (terms have none).
func (o *bipartiteOptions) loadBipartite(ctx context.Context) (*input.Data, error) {
	s, err := dataset.ReadDocTermFileContext(ctx, o.file, 0)
	if err != nil {
		return nil, err
	}
	l := &input.Data{Name: o.file}
	if o.tfidf {
		s = dataset.TFIDF(s)
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
			l.Warnings = append(l.Warnings, fmt.Sprintf("%s: -drop-empty dropped %d empty rows and %d empty columns; nodes are the %d rows, then the %d columns kept", o.file, r-sub.Rows, c-sub.Cols, sub.Rows, sub.Cols))
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
			return nil, nil, fmt.Errorf("%s:%d: %d fields, want \"name\" or \"name class\" as on line 1", path, ln, len(fs))
		default:
			return nil, nil, fmt.Errorf("%s:%d: %d fields, want one name", path, ln, len(fs))
		}
		names = append(names, fs[0])
		if len(names) > n {
			return nil, nil, fmt.Errorf("%s:%d: more than the %d names of the matrix", path, ln, n)
		}
	}
	if len(names) != n {
		return nil, nil, fmt.Errorf("%s: %d names, the matrix has %d", path, len(names), n)
	}
	return names, cls, nil
}
