package dataset

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/internal/inputfile"
	"github.com/tether-sc/tether/internal/wording"
)

// DefaultMaxDocTerm is the largest rows + cols ReadDocTerm accepts when
// its limit is 0.
const DefaultMaxDocTerm = 1 << 24

// ReadDocTermContext reads a document-by-term matrix in the triplet format of the
// Classic3 / Classic4 release: a header line "rows cols nnz", then nnz lines
// "row col value" with 1-based row and column numbers and a finite value
// ≥ 0 (a count or a weight). Entries given twice are summed; zeros are not
// stored. Blank lines are skipped; lines end as for every reader here
// ("\n", "\r\n" or a bare "\r", at most DefaultMaxLineBytes). Errors name
// name:line. maxNodes bounds
// rows + cols (0: DefaultMaxDocTerm). Cost O(nnz log nnz).
//
// ctx is checked while r is read and every few thousand lines; a cancelled
// read returns ctx's error, wrapped. ReadDocTermData also returns the
// reader's warnings (repeated entries).
func ReadDocTermContext(ctx context.Context, r io.Reader, name string, maxNodes int) (*Sparse, error) {
	d, err := ReadDocTermData(ctx, r, name, maxNodes)
	if err != nil {
		return nil, err
	}
	return d.Matrix, nil
}

// DocTermData is a document-by-term matrix read by ReadDocTermData, with
// the reader's warnings.
type DocTermData struct {
	Matrix *Sparse
	// Warnings say what the file holds that may not be meant: entries
	// given more than once for a (row, column), summed (their number and
	// the first repeat, with both lines), as the graph readers warn
	// about repeated edges.
	Warnings []string
}

// ReadDocTermData is ReadDocTermContext, returning the matrix with the
// reader's warnings.
func ReadDocTermData(ctx context.Context, r io.Reader, name string, maxNodes int) (*DocTermData, error) {
	if maxNodes <= 0 {
		maxNodes = DefaultMaxDocTerm
	}
	lines, err := readAll(ctx, r, name, 0)
	if err != nil {
		return nil, err
	}
	type trip struct {
		r, c int32
		v    float64
		line int
	}
	var ts []trip
	var rows, cols, nnz int
	header, ln, count := false, 0, 0
	for k, l := range lines {
		if err := poll(ctx, name, k); err != nil {
			return nil, err
		}
		ln = k + 1
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		if !header {
			if len(f) != 3 {
				return nil, fmt.Errorf("%s:%d: header has %s, want \"rows cols nnz\"", name, ln, wording.Count(len(f), "field", "fields"))
			}
			var err error
			var v [3]int
			for q := range v {
				if v[q], err = strconv.Atoi(f[q]); err != nil || v[q] < 0 {
					return nil, fmt.Errorf("%s:%d: header field %q is not a count", name, ln, f[q])
				}
			}
			rows, cols, nnz = v[0], v[1], v[2]
			if rows == 0 || cols == 0 {
				return nil, fmt.Errorf("%s:%d: %d×%d matrix, want at least one row and one column", name, ln, rows, cols)
			}
			if rows > maxNodes || cols > maxNodes || rows+cols > maxNodes {
				return nil, fmt.Errorf("%s:%d: %d rows + %d columns exceed the limit of %d", name, ln, rows, cols, maxNodes)
			}
			header = true
			continue
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("%s:%d: %s, want \"row col value\"", name, ln, wording.Count(len(f), "field", "fields"))
		}
		i, err := strconv.Atoi(f[0])
		if err != nil || i < 1 || i > rows {
			return nil, fmt.Errorf("%s:%d: row %q outside 1…%d", name, ln, f[0], rows)
		}
		j, err := strconv.Atoi(f[1])
		if err != nil || j < 1 || j > cols {
			return nil, fmt.Errorf("%s:%d: column %q outside 1…%d", name, ln, f[1], cols)
		}
		v, err := strconv.ParseFloat(f[2], 64)
		if err != nil || !(v >= 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%s:%d: value %q is not a finite number ≥ 0", name, ln, f[2])
		}
		count++
		if count > nnz {
			return nil, fmt.Errorf("%s:%d: more than the %d entries of the header", name, ln, nnz)
		}
		if v > 0 {
			ts = append(ts, trip{int32(i - 1), int32(j - 1), v, ln})
		}
	}
	if !header {
		return nil, fmt.Errorf("%s: empty file, want a \"rows cols nnz\" header", name)
	}
	if count != nnz {
		return nil, fmt.Errorf("%s:%d: %d entries, the header says %d", name, ln, count, nnz)
	}
	// Stable: the first of repeated entries comes first, in file order.
	sort.SliceStable(ts, func(a, b int) bool {
		if ts[a].r != ts[b].r {
			return ts[a].r < ts[b].r
		}
		return ts[a].c < ts[b].c
	})
	s := &Sparse{Rows: rows, Cols: cols, Ptr: make([]int, rows+1)}
	lastR, lastC := int32(-1), int32(-1)
	// The repeats, and the earliest in the file with the line of the
	// entry it repeats.
	repeats, repFirst := 0, 0
	var rep trip
	first := 0 // line of the current entry's first occurrence
	for _, t := range ts {
		if t.r == lastR && t.c == lastC {
			s.Val[len(s.Val)-1] += t.v
			if math.IsInf(s.Val[len(s.Val)-1], 0) {
				return nil, fmt.Errorf("%s: entry (%d, %d) overflows when its repeats are summed", name, t.r+1, t.c+1)
			}
			if repeats == 0 || t.line < rep.line {
				rep, repFirst = t, first
			}
			repeats++
			continue
		}
		s.Idx = append(s.Idx, t.c)
		s.Val = append(s.Val, t.v)
		s.Ptr[t.r+1] = len(s.Idx)
		lastR, lastC, first = t.r, t.c, t.line
	}
	for i := 1; i <= rows; i++ {
		s.Ptr[i] = max(s.Ptr[i], s.Ptr[i-1])
	}
	d := &DocTermData{Matrix: s}
	if repeats > 0 {
		what := fmt.Sprintf("%d entries repeat", repeats)
		if repeats == 1 {
			what = "1 entry repeats"
		}
		d.Warnings = append(d.Warnings, fmt.Sprintf("%s:%d: %s the row and column of an earlier one (the first: row %d, column %d, also on line %d); the values of each (row, column) are summed", name, rep.line, what, rep.r+1, rep.c+1, repFirst))
	}
	return d, nil
}

// ReadDocTerm is ReadDocTermContext with a context that is never
// cancelled.
func ReadDocTerm(r io.Reader, name string, maxNodes int) (*Sparse, error) {
	return ReadDocTermContext(context.Background(), r, name, maxNodes)
}

// ReadDocTermFile reads the triplet file path (see ReadDocTerm). It is
// ReadDocTermFileContext with a context that is never cancelled.
func ReadDocTermFile(path string, maxNodes int) (*Sparse, error) {
	return ReadDocTermFileContext(context.Background(), path, maxNodes)
}

// ReadDocTermFileContext reads the triplet file path (see
// ReadDocTermContext). A FIFO without a writer is waited for until ctx is
// cancelled.
func ReadDocTermFileContext(ctx context.Context, path string, maxNodes int) (*Sparse, error) {
	d, err := ReadDocTermFileData(ctx, path, maxNodes)
	if err != nil {
		return nil, err
	}
	return d.Matrix, nil
}

// ReadDocTermFileData is ReadDocTermFileContext, returning the matrix with
// the reader's warnings (ReadDocTermData).
func ReadDocTermFileData(ctx context.Context, path string, maxNodes int) (*DocTermData, error) {
	f, err := inputfile.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadDocTermData(ctx, f, path, maxNodes)
}

// TFIDF returns the tf–idf weights count·ln(N/df) of a document-by-term
// count matrix: N documents (rows), df the number of documents in which the
// term occurs. A term in every document gets weight 0 (and is then not
// stored). Cost O(nnz).
func TFIDF(s *Sparse) *Sparse {
	df := make([]int, s.Cols)
	for _, j := range s.Idx {
		df[j]++
	}
	out := &Sparse{Rows: s.Rows, Cols: s.Cols, Ptr: make([]int, s.Rows+1)}
	for i := 0; i < s.Rows; i++ {
		idx, val := s.Row(i)
		for q, j := range idx {
			if w := val[q] * math.Log(float64(s.Rows)/float64(df[j])); w > 0 {
				out.Idx = append(out.Idx, j)
				out.Val = append(out.Val, w)
			}
		}
		out.Ptr[i+1] = len(out.Idx)
	}
	return out
}

// SelectRows returns the rows rows of s, in that order, and only the
// columns that have a stored entry in them; cols[j] is the column of s
// that column j of the result was. Cost O(nnz of the rows + s.Cols).
func (s *Sparse) SelectRows(rows []int) (sub *Sparse, cols []int) {
	used := make([]int, s.Cols)
	for _, i := range rows {
		idx, _ := s.Row(i)
		for _, j := range idx {
			used[j] = 1
		}
	}
	for j, u := range used {
		if u > 0 {
			used[j] = len(cols)
			cols = append(cols, j)
		} else {
			used[j] = -1
		}
	}
	sub = &Sparse{Rows: len(rows), Cols: len(cols), Ptr: make([]int, len(rows)+1)}
	for r, i := range rows {
		idx, val := s.Row(i)
		for q, j := range idx {
			sub.Idx = append(sub.Idx, int32(used[j]))
			sub.Val = append(sub.Val, val[q])
		}
		sub.Ptr[r+1] = len(sub.Idx)
	}
	return sub, cols
}
