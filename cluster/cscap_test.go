package cluster

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
)

// cscapWellConditioned returns a symmetric positive definite W (an RBF
// kernel matrix on random points plus 0.5·I, so λ_min ≥ 0.5).
func cscapWellConditioned(n int, seed uint64) *mat.SymDense {
	rng := rand.New(rand.NewPCG(seed, 5))
	x := make([]float64, 2*n)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	w := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			dx, dy := x[2*i]-x[2*j], x[2*i+1]-x[2*j+1]
			v := math.Exp(-(dx*dx + dy*dy) / 2)
			if i == j {
				v += 0.5
			}
			w.SetSym(i, j, v)
		}
	}
	return w
}

// cscapExplicit returns (W⁻¹ + M)⁻¹ with M built entry by entry from thesis
// eq. 4.2.12 (M_ii = m_i/ε_m² + c_i/ε_c², −1/ε_m² on must-links, +1/ε_c² on
// cannot-links; the printed c_j is c_i, the number of cannot-links at i),
// by explicit inversion.
func cscapExplicit(t *testing.T, w *mat.SymDense, pairs []constraint.Pair, em, ec float64) *mat.Dense {
	t.Helper()
	n := w.SymmetricDim()
	m := mat.NewDense(n, n, nil)
	for _, q := range pairs {
		e := em
		off := -1.0
		if q.Kind == constraint.CannotLink {
			e, off = ec, 1
		}
		v := q.W() / (e * e)
		m.Set(q.I, q.I, m.At(q.I, q.I)+v)
		m.Set(q.J, q.J, m.At(q.J, q.J)+v)
		m.Set(q.I, q.J, m.At(q.I, q.J)+off*v)
		m.Set(q.J, q.I, m.At(q.J, q.I)+off*v)
	}
	var wi mat.Dense
	if err := wi.Inverse(w); err != nil {
		t.Fatal(err)
	}
	wi.Add(&wi, m)
	var out mat.Dense
	if err := out.Inverse(&wi); err != nil {
		t.Fatal(err)
	}
	return &out
}

func TestCSCAPWoodburyMatchesExplicitInverse(t *testing.T) {
	w := cscapWellConditioned(15, 1)
	pairs := []constraint.Pair{
		{I: 0, J: 1, Kind: constraint.MustLink},
		{I: 1, J: 4, Kind: constraint.MustLink, Weight: 0.5},
		{I: 2, J: 9, Kind: constraint.CannotLink},
		{I: 3, J: 11, Kind: constraint.CannotLink, Weight: 2},
		{I: 0, J: 14, Kind: constraint.CannotLink},
	}
	for _, eps := range [][2]float64{{1, 1}, {0.3, 0.5}, {0.05, 0.1}} {
		got, err := woodbury(w, pairs, eps[0], eps[1])
		if err != nil {
			t.Fatal(err)
		}
		want := cscapExplicit(t, w, pairs, eps[0], eps[1])
		// Explicit inversion of W (condition ≈ 20) and of W⁻¹ + M loses a
		// few digits; 1e-10 absolute on entries of size ≤ 1.5.
		if d := pwMaxAbsDiff(got, want); d > 1e-10 {
			t.Errorf("ε = %v: max |Woodbury − explicit| = %g", eps, d)
		}
	}
}

// TestCSCAPSeparateCannotLinks checks Alg. 12: min over cannot-links c of
// ((W̄ᵐ)⁻¹ + M^{c})⁻¹, each by explicit inversion, against W̄ᵐ − T.
func TestCSCAPSeparateCannotLinks(t *testing.T) {
	w := cscapWellConditioned(12, 2)
	ml := []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}, {I: 5, J: 6, Kind: constraint.MustLink}}
	cl := []constraint.Pair{{I: 0, J: 5, Kind: constraint.CannotLink}, {I: 2, J: 8, Kind: constraint.CannotLink}, {I: 6, J: 10, Kind: constraint.CannotLink, Weight: 3}}
	const em, ec = 0.2, 0.3
	wm, err := woodbury(w, ml, em, ec)
	if err != nil {
		t.Fatal(err)
	}
	tmax, err := cannotLinkMax(wm, cl, ec)
	if err != nil {
		t.Fatal(err)
	}
	got := clipSym(wm, tmax)
	n := 12
	want := mat.NewDense(n, n, nil)
	for i := range want.RawMatrix().Data {
		want.RawMatrix().Data[i] = math.Inf(1)
	}
	for _, c := range cl {
		wc := cscapExplicit(t, wm, []constraint.Pair{c}, em, ec)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				want.Set(i, j, math.Min(want.At(i, j), wc.At(i, j)))
			}
		}
	}
	for i := range want.RawMatrix().Data {
		want.RawMatrix().Data[i] = math.Max(0, want.RawMatrix().Data[i])
	}
	if d := pwMaxAbsDiff(got, want); d > 1e-10 {
		t.Errorf("max |Alg. 12 − explicit| = %g", d)
	}
}
