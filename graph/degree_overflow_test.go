package graph

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestDegreeOverflowRefused checks that the constructors refuse finite
// weights whose degree or volume overflows float64. FromEdges(3, {0–1:
// 1e308, 0–2: 1e308}) was accepted with degrees [+Inf 1e308 1e308]: L_sym
// became the identity, L's row 0 [+Inf NaN NaN], L_rw's [1 0 0], the
// Cholesky inverse all NaN without an error, DegreeCV NaN, TauFor +Inf
// (review 130); FromDense and FromCSR the same. The error is a
// *DegreeOverflowError wrapping ErrInvalid that names the node and says
// the weights are too large. Weights whose sums stay finite (half as
// large) still build, with finite Laplacians.
func TestDegreeOverflowRefused(t *testing.T) {
	star := func(w float64) map[string]func() (*Graph, error) {
		return map[string]func() (*Graph, error){
			"FromEdges": func() (*Graph, error) { return FromEdges(3, []Edge{{0, 1, w}, {0, 2, w}}) },
			"FromDense": func() (*Graph, error) {
				return FromDense(mat.NewSymDense(3, []float64{0, w, w, w, 0, 0, w, 0, 0}))
			},
			"FromCSR": func() (*Graph, error) {
				return FromCSR(3, []int{0, 2, 3, 4}, []int32{1, 2, 0, 0}, []float64{w, w, w, w}, 0)
			},
		}
	}
	for name, build := range star(1e308) {
		_, err := build()
		var oe *DegreeOverflowError
		if !errors.Is(err, ErrInvalid) || !errors.As(err, &oe) || oe.Node != 0 || oe.Volume {
			t.Errorf("%s at 1e308: error %v, want a DegreeOverflowError naming node 0", name, err)
			continue
		}
		for _, want := range []string{"node 0", "sum beyond float64's range", "the weights are too large", "normalize them"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %q lacks %q", name, err, want)
			}
		}
	}
	// One edge of 1e308: both degrees finite, their sum, the volume, not.
	_, err := FromEdges(2, []Edge{{0, 1, 1e308}})
	var oe *DegreeOverflowError
	if !errors.As(err, &oe) || !oe.Volume || !strings.Contains(err.Error(), "the volume Σd_i overflows") {
		t.Errorf("one edge of 1e308: error %v, want the volume's DegreeOverflowError", err)
	}
	// 4e307: degrees 8e307 and 4e307, volume 1.6e308, all finite.
	for name, build := range star(4e307) {
		g, err := build()
		if err != nil {
			t.Errorf("%s at 4e307: %v", name, err)
			continue
		}
		if v := g.Volume(); math.IsInf(v, 0) || v != 1.6e308 {
			t.Errorf("%s at 4e307: volume %g, want 1.6e308", name, v)
		}
		for _, k := range []LaplacianKind{Unnormalized, Symmetric, RandomWalk} {
			l, err := NewLaplacian(g, k)
			if err != nil {
				t.Fatal(err)
			}
			a := Dense(l)
			for i := 0; i < 3; i++ {
				for j := 0; j < 3; j++ {
					if v := a.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
						t.Errorf("%s at 4e307, %v Laplacian: entry (%d,%d) = %v", name, k, i, j, v)
					}
				}
			}
		}
	}
}
