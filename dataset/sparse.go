package dataset

import (
	"sort"

	"gonum.org/v1/gonum/mat"
)

// Sparse is a sparse Rows×Cols matrix in compressed sparse row form: the
// non-zeros of row i are Val[Ptr[i]:Ptr[i+1]] in the columns
// Idx[Ptr[i]:Ptr[i+1]], in increasing column order. It holds
// high-dimensional data such as document–term counts, whose dense form would
// not fit in memory.
type Sparse struct {
	Rows, Cols int
	Ptr        []int
	Idx        []int32
	Val        []float64
}

// Dims returns the numbers of rows and columns.
func (s *Sparse) Dims() (r, c int) { return s.Rows, s.Cols }

// NNZ returns the number of stored entries.
func (s *Sparse) NNZ() int { return len(s.Idx) }

// Row returns the column indices and values of row i. The slices alias the
// matrix and must not be modified.
func (s *Sparse) Row(i int) ([]int32, []float64) {
	a, b := s.Ptr[i], s.Ptr[i+1]
	return s.Idx[a:b], s.Val[a:b]
}

// At returns the entry (i, j), 0 when it is not stored (a binary search in
// row i), so that a *Sparse is a gonum mat.Matrix: it can be given as
// cluster.Problem.Bipartite, whose methods read it row by row with Row.
func (s *Sparse) At(i, j int) float64 {
	if i < 0 || i >= s.Rows || j < 0 || j >= s.Cols {
		panic(mat.ErrIndexOutOfRange)
	}
	idx, val := s.Row(i)
	q := sort.Search(len(idx), func(t int) bool { return int(idx[t]) >= j })
	if q < len(idx) && int(idx[q]) == j {
		return val[q]
	}
	return 0
}

// T returns the implicit transpose of s (mat.Matrix).
func (s *Sparse) T() mat.Matrix { return mat.Transpose{Matrix: s} }
