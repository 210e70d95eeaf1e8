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

// Validate reports, wrapping ErrInvalid, a matrix whose fields do not
// form the compressed sparse rows the type describes: negative
// dimensions, len(Ptr) ≠ Rows + 1, Ptr not starting at 0 or decreasing,
// Ptr[Rows] ≠ len(Idx) ≠ len(Val), or a row's columns outside [0, Cols)
// or not increasing. The readers' matrices are valid; a hand-built one
// should be checked before use, as Row and At index it blindly. Cost
// O(Rows + NNZ).
func (s *Sparse) Validate() error {
	switch {
	case s.Rows < 0 || s.Cols < 0:
		return errorf(ErrInvalid, "sparse matrix: %d×%d, want non-negative dimensions", s.Rows, s.Cols)
	case len(s.Ptr) != s.Rows+1:
		return errorf(ErrInvalid, "sparse matrix: len(Ptr) = %d, want Rows + 1 = %d", len(s.Ptr), s.Rows+1)
	case s.Ptr[0] != 0:
		return errorf(ErrInvalid, "sparse matrix: Ptr[0] = %d, want 0", s.Ptr[0])
	case s.Ptr[s.Rows] != len(s.Idx) || len(s.Idx) != len(s.Val):
		return errorf(ErrInvalid, "sparse matrix: Ptr[Rows] = %d, len(Idx) = %d, len(Val) = %d, want all equal", s.Ptr[s.Rows], len(s.Idx), len(s.Val))
	}
	for i := 0; i < s.Rows; i++ {
		if s.Ptr[i+1] < s.Ptr[i] {
			return errorf(ErrInvalid, "sparse matrix: Ptr[%d] = %d < Ptr[%d] = %d", i+1, s.Ptr[i+1], i, s.Ptr[i])
		}
	}
	for i := 0; i < s.Rows; i++ {
		for q := s.Ptr[i]; q < s.Ptr[i+1]; q++ {
			j := s.Idx[q]
			if j < 0 || int(j) >= s.Cols {
				return errorf(ErrInvalid, "sparse matrix: row %d has column %d, outside 0…%d", i, j, s.Cols-1)
			}
			if q > s.Ptr[i] && j <= s.Idx[q-1] {
				return errorf(ErrInvalid, "sparse matrix: row %d lists column %d after column %d, want increasing columns", i, j, s.Idx[q-1])
			}
		}
	}
	return nil
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
