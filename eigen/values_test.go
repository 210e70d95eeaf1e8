package eigen

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSymValues checks SymValues against matrices of known spectrum,
// Q·diag(λ)·Qᵀ with Q a random orthogonal matrix, scaled by factors
// inside and outside gonum Dsterf's safe range (mat.EigenSym without
// vectors panics at 1e-160, which the test confirms so that it notices
// when gonum fixes it), to 1e-10 relative to the largest |λ|, and where
// mat.EigenSym works, that the values are its own bit for bit; then on a
// matrix of two blocks, one of norm 1 and one scaled by 1e-130, which
// panics in mat.EigenSym too.
func TestSymValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	const n = 40
	var qr mat.QR
	g := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	lambda := make([]float64, n)
	for i := range lambda {
		lambda[i] = float64(i) - 12.5 // increasing, both signs
	}
	for _, f := range []float64{1, 1e-3, 1e150, 1e160, 1e-160} {
		t.Run(fmt.Sprintf("scale=%g", f), func(t *testing.T) {
			a := mat.NewSymDense(n, nil)
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					var s float64
					for k := 0; k < n; k++ {
						s += q.At(i, k) * lambda[k] * f * q.At(j, k)
					}
					a.SetSym(i, j, s)
				}
			}
			got, err := SymValues(a)
			if err != nil {
				t.Fatal(err)
			}
			top := 27.5 * f
			for i, v := range got {
				if d := math.Abs(v - lambda[i]*f); !(d <= 1e-10*top) {
					t.Fatalf("value %d = %g, want %g (|diff| %g > %g)", i, v, lambda[i]*f, d, 1e-10*top)
				}
			}
			ref, ok, panicked := symValues(a, false)
			switch {
			case f == 1e-160:
				if !panicked {
					t.Logf("mat.EigenSym without vectors no longer panics at scale %g (gonum fixed Dsterf?)", f)
				}
			case !ok || panicked:
				t.Fatalf("mat.EigenSym failed at scale %g", f)
			default:
				for i := range ref {
					if math.Float64bits(ref[i]) != math.Float64bits(got[i]) {
						t.Fatalf("value %d = %v, mat.EigenSym gives %v", i, got[i], ref[i])
					}
				}
			}
		})
	}
	const tiny = 1e-130
	blocks := mat.NewSymDense(4, []float64{1, 0.5, 0, 0, 0.5, 1, 0, 0, 0, 0, tiny, 0.5 * tiny, 0, 0, 0.5 * tiny, tiny})
	if _, _, panicked := symValues(blocks, false); !panicked {
		t.Logf("mat.EigenSym without vectors no longer panics on a block of norm %g (gonum fixed Dsterf?)", tiny)
	}
	got, err := SymValues(blocks)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{0.5 * tiny, 1.5 * tiny, 0.5, 1.5} {
		if d := math.Abs(got[i] - want); !(d <= 1e-14*math.Abs(want)) {
			t.Errorf("blocks: value %d = %g, want %g", i, got[i], want)
		}
	}
}

// TestSymValuesNonFinite: a matrix holding a NaN or an infinity gives an
// error wrapping ErrNonFinite naming the entry; SymValues returned NaN
// eigenvalues with no error.
func TestSymValuesNonFinite(t *testing.T) {
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		a := mat.NewSymDense(3, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1})
		a.SetSym(2, 1, bad)
		vals, err := SymValues(a)
		if !errors.Is(err, ErrNonFinite) || !strings.Contains(err.Error(), fmt.Sprintf("entry %v at (1,2)", bad)) {
			t.Errorf("%v: values %v, error %v; want ErrNonFinite naming entry (1,2)", bad, vals, err)
		}
	}
	// A NaN on the diagonal made dsyev fail (ErrNoConvergence, checked
	// in TestSymValues before); it is now named as the non-finite entry.
	if _, err := SymValues(mat.NewSymDense(3, []float64{1, 0, 0, 0, math.NaN(), 0, 0, 0, 1})); !errors.Is(err, ErrNonFinite) || !strings.Contains(err.Error(), "NaN at (1,1)") {
		t.Errorf("NaN diagonal: err = %v, want ErrNonFinite naming (1,1)", err)
	}
}
