package dataset

import (
	"errors"
	"strings"
	"testing"
)

// TestSparseValidate: every way the fields can fail to be compressed
// sparse rows is named; a valid matrix and the empty one pass.
func TestSparseValidate(t *testing.T) {
	for _, c := range []struct {
		name string
		s    Sparse
		want string // "" for valid
	}{
		{"valid", Sparse{Rows: 2, Cols: 3, Ptr: []int{0, 2, 3}, Idx: []int32{0, 2, 1}, Val: []float64{1, 2, 3}}, ""},
		{"empty", Sparse{Ptr: []int{0}}, ""},
		{"negative", Sparse{Rows: -1, Ptr: []int{0}}, "want non-negative dimensions"},
		{"short Ptr", Sparse{Rows: 2, Cols: 2, Ptr: []int{0, 5}}, "len(Ptr) = 2, want Rows + 1 = 3"},
		{"Ptr[0]", Sparse{Rows: 1, Cols: 2, Ptr: []int{1, 1}, Idx: []int32{0}, Val: []float64{1}}, "Ptr[0] = 1"},
		{"Ptr past Idx", Sparse{Rows: 1, Cols: 2, Ptr: []int{0, 5}, Idx: []int32{0}, Val: []float64{1}}, "Ptr[Rows] = 5, len(Idx) = 1"},
		{"Val short", Sparse{Rows: 1, Cols: 2, Ptr: []int{0, 1}, Idx: []int32{0}}, "len(Val) = 0"},
		{"decreasing Ptr", Sparse{Rows: 2, Cols: 2, Ptr: []int{0, 2, 1}, Idx: []int32{0}, Val: []float64{1}}, "Ptr[2] = 1 < Ptr[1] = 2"},
		{"column out of range", Sparse{Rows: 1, Cols: 2, Ptr: []int{0, 1}, Idx: []int32{2}, Val: []float64{1}}, "row 0 has column 2, outside 0…1"},
		{"unsorted columns", Sparse{Rows: 1, Cols: 3, Ptr: []int{0, 2}, Idx: []int32{2, 1}, Val: []float64{1, 1}}, "row 0 lists column 1 after column 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.s.Validate()
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("err %v, want ErrInvalid containing %q", err, c.want)
			}
		})
	}
}
