package graph

import (
	"errors"
	"strings"
	"testing"
)

// TestFromCSRSymmetrizes checks that FromCSR returns an exactly symmetric
// Graph: mirrors within tol are both stored as their mean, and a missing
// mirror is refused at every tol. FromCSR(2, W01 = 1, W10 = 1.5, tol 0.5)
// kept both values (L_sym's off-diagonals −0.816 and −1.225), and
// FromCSR(3, only (0,2), tol 1) gave W02 = 1, W20 = 0, since |0 − 1| ≤
// 1·1 (review 130).
func TestFromCSRSymmetrizes(t *testing.T) {
	g, err := FromCSR(2, []int{0, 1, 2}, []int32{1, 0}, []float64{1, 1.5}, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	// (1 + 1.5)/2 = 1.25 exactly; both degrees 1.25, so L_sym's
	// off-diagonals are −1.25/√(1.25·1.25) = −1.
	if g.Weight(0, 1) != 1.25 || g.Weight(1, 0) != 1.25 || g.Degree(0) != 1.25 || g.Degree(1) != 1.25 {
		t.Errorf("W01 %g, W10 %g, degrees %v; want 1.25 each", g.Weight(0, 1), g.Weight(1, 0), g.Degrees())
	}
	l, err := NewLaplacian(g, Symmetric)
	if err != nil {
		t.Fatal(err)
	}
	if a := Dense(l); a.At(0, 1) != -1 || a.At(1, 0) != -1 {
		t.Errorf("L_sym off-diagonals %g and %g, want −1", a.At(0, 1), a.At(1, 0))
	}
	for _, tc := range []struct {
		name string
		ptr  []int
		idx  []int32
		tol  float64
		want string
	}{
		{"upper entry alone, tol 1", []int{0, 1, 1, 1}, []int32{2}, 1, "W[0,2] = 1 but W[2,0] is missing"},
		{"lower entry alone, tol 2", []int{0, 0, 0, 1}, []int32{0}, 2, "W[2,0] = 1 but W[0,2] is missing"},
		{"upper entry alone, tol 0", []int{0, 1, 1, 1}, []int32{2}, 0, "W[0,2] = 1 but W[2,0] is missing"},
	} {
		_, err := FromCSR(3, tc.ptr, tc.idx, []float64{1}, tc.tol)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one wrapping ErrInvalid saying %q", tc.name, err, tc.want)
		}
	}
	// Out of tolerance: refused as before.
	if _, err := FromCSR(2, []int{0, 1, 2}, []int32{1, 0}, []float64{1, 1.5}, 0.2); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "W[0,1] = 1 but W[1,0] = 1.5") {
		t.Errorf("1 against 1.5 at tol 0.2: error %v", err)
	}
	// Exactly symmetric input, a self loop and a 3-cycle of distinct
	// weights: stored as given, at any tol.
	ptr := []int{0, 3, 5, 7}
	idx := []int32{2, 0, 1, 0, 2, 1, 0}
	w := []float64{0.3, 5, 0.7, 0.7, 0.1, 0.1, 0.3}
	for _, tol := range []float64{0, 0.5, 3} {
		g, err := FromCSR(3, ptr, idx, w, tol)
		if err != nil {
			t.Fatal(err)
		}
		want := [][]float64{{5, 0.7, 0.3}, {0.7, 0, 0.1}, {0.3, 0.1, 0}}
		for i := range want {
			for j, v := range want[i] {
				if g.Weight(i, j) != v {
					t.Errorf("tol %g: W[%d,%d] = %g, want %g", tol, i, j, g.Weight(i, j), v)
				}
			}
		}
		// Summed in float64 in row order, as compact sums them.
		a, b, c, e := 5.0, 0.7, 0.3, 0.1
		if d := g.Degrees(); d[0] != a+b+c || d[1] != b+e || d[2] != c+e {
			t.Errorf("tol %g: degrees %v", tol, d)
		}
	}
}
