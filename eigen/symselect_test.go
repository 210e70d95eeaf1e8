package eigen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// symSelectCases returns symmetric test matrices: random dense ones, graph
// Laplacians with repeated eigenvalues (identical components, a path, a
// star), a diagonal matrix with ties, the zero matrix and a 1×1.
func symSelectCases() []struct {
	name string
	a    *mat.SymDense
} {
	rng := rand.New(rand.NewPCG(3, 4))
	var out []struct {
		name string
		a    *mat.SymDense
	}
	add := func(name string, a *mat.SymDense) {
		out = append(out, struct {
			name string
			a    *mat.SymDense
		}{name, a})
	}
	for _, n := range []int{1, 2, 3, 40, 150, 333} {
		a := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				a.SetSym(i, j, rng.NormFloat64())
			}
		}
		add(fmt.Sprintf("gaussian%d", n), a)
	}
	// The Laplacian of c identical copies of a random graph (each
	// eigenvalue c times), plus a path and a star.
	lap := func(w [][]float64) *mat.SymDense {
		n := len(w)
		a := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			var s float64
			for j := 0; j < n; j++ {
				if i != j {
					s += w[i][j]
					a.SetSym(i, j, -w[i][j])
				}
			}
			a.SetSym(i, i, s)
		}
		return a
	}
	const c, b = 6, 25
	n := c*b + 30 + 20
	w := make([][]float64, n)
	for i := range w {
		w[i] = make([]float64, n)
	}
	block := make([][]float64, b)
	for i := range block {
		block[i] = make([]float64, b)
	}
	for i := 0; i < b; i++ {
		for j := i + 1; j < b; j++ {
			if rng.Float64() < 0.2 {
				v := rng.Float64()
				block[i][j], block[j][i] = v, v
			}
		}
		block[i][(i+1)%b], block[(i+1)%b][i] = 1, 1
	}
	for k := 0; k < c; k++ {
		for i := 0; i < b; i++ {
			for j := 0; j < b; j++ {
				w[k*b+i][k*b+j] = block[i][j]
			}
		}
	}
	for i := c * b; i < c*b+29; i++ {
		w[i][i+1], w[i+1][i] = 1, 1
	}
	hub := c*b + 30
	for i := hub + 1; i < n; i++ {
		w[hub][i], w[i][hub] = 1, 1
	}
	add("laplacian-repeated", lap(w))
	d := mat.NewSymDense(60, nil)
	for i := 0; i < 60; i++ {
		d.SetSym(i, i, float64(i%7))
	}
	add("diagonal-ties", d)
	add("zero", mat.NewSymDense(50, nil))
	// Norms outside gonum Dsterf's safe range (its rescaling panics):
	// symSelect declines and denseSolve falls back to dsyev.
	for _, f := range []float64{1e160, 1e-160} {
		b := mat.NewSymDense(40, nil)
		for i := 0; i < 40; i++ {
			for j := i; j < 40; j++ {
				b.SetSym(i, j, f*rng.NormFloat64())
			}
		}
		add(fmt.Sprintf("scaled%g", f), b)
	}
	return out
}

// TestSymSelect checks symSelect against the full decomposition of
// mat.EigenSym: the same eigenvalues (to 1e-11·‖A‖), unit residuals
// ‖A·v − λ·v‖ ≤ 1e-11·‖A‖, orthonormal vectors (|VᵀV − I| ≤ 1e-11), and
// for eigenvalues not repeated across the selection's edge the same
// eigenspace: the projection of each vector onto the dsyev eigenvectors of
// its eigenvalue's cluster has norm 1 to 1e-9.
func TestSymSelect(t *testing.T) {
	for _, tc := range symSelectCases() {
		a := tc.a
		n := a.SymmetricDim()
		var es mat.EigenSym
		if !es.Factorize(a, true) {
			t.Fatalf("%s: EigenSym failed", tc.name)
		}
		ref := es.Values(nil)
		var refVecs mat.Dense
		es.VectorsTo(&refVecs)
		norm := 0.0
		for _, v := range ref {
			norm = math.Max(norm, math.Abs(v))
		}
		scale := math.Max(norm, 1)
		for _, kk := range []int{1, 2, 5, n / 3, n} {
			if kk < 1 || kk > n {
				continue
			}
			for _, which := range []Which{Smallest, Largest} {
				vals, vecs, ok := symSelect(a, kk, which)
				if strings.HasPrefix(tc.name, "scaled") {
					// Declined, without a panic: denseSolve's dsyev.
					if ok {
						t.Errorf("%s kk=%d %v: symSelect did not decline", tc.name, kk, which)
					}
					var err error
					if vals, vecs, err = denseSolve(a, nil, nil, kk, which); err != nil {
						t.Fatalf("%s: %v", tc.name, err)
					}
				} else if !ok {
					t.Errorf("%s kk=%d %v: not ok", tc.name, kk, which)
					continue
				}
				for j := 0; j < kk; j++ {
					idx := j
					if which == Largest {
						idx = n - 1 - j
					}
					if d := math.Abs(vals[j] - ref[idx]); d > 1e-11*scale {
						t.Errorf("%s kk=%d %v: value %d = %v, dsyev %v", tc.name, kk, which, j, vals[j], ref[idx])
					}
					v := vecs.ColView(j)
					var av mat.VecDense
					av.MulVec(a, v)
					av.AddScaledVec(&av, -vals[j], v)
					if r := mat.Norm(&av, 2); r > 1e-11*scale {
						t.Errorf("%s kk=%d %v: residual %d = %.3g", tc.name, kk, which, j, r)
					}
					// The eigenspace of ref[idx]: dsyev's vectors of
					// eigenvalues within 1e-8·scale.
					var proj float64
					for c := 0; c < n; c++ {
						if math.Abs(ref[c]-ref[idx]) <= 1e-8*scale {
							p := mat.Dot(v, refVecs.ColView(c))
							proj += p * p
						}
					}
					if math.Abs(proj-1) > 1e-9 {
						t.Errorf("%s kk=%d %v: vector %d has %.3g of its norm² in its eigenspace", tc.name, kk, which, j, proj)
					}
				}
				var g mat.Dense
				g.Mul(vecs.T(), vecs)
				for i := 0; i < kk; i++ {
					for j := 0; j < kk; j++ {
						want := 0.0
						if i == j {
							want = 1
						}
						if d := math.Abs(g.At(i, j) - want); d > 1e-11 {
							t.Errorf("%s kk=%d %v: (VᵀV)[%d,%d] = %v", tc.name, kk, which, i, j, g.At(i, j))
						}
					}
				}
			}
		}
	}
}

// TestTridiagLU checks the pivoted LU solve of T − σI against a dense
// solve, on a tridiagonal matrix where both pivot branches occur.
func TestTridiagLU(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, m := range []int{1, 2, 3, 9, 40} {
		d := make([]float64, m)
		e := make([]float64, max(m-1, 0))
		for i := range d {
			d[i] = rng.NormFloat64()
		}
		for i := range e {
			e[i] = 3 * rng.NormFloat64()
		}
		sigma := 0.3
		dense := mat.NewDense(m, m, nil)
		for i := 0; i < m; i++ {
			dense.Set(i, i, d[i]-sigma)
			if i < m-1 {
				dense.Set(i, i+1, e[i])
				dense.Set(i+1, i, e[i])
			}
		}
		b := make([]float64, m)
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		var want mat.VecDense
		if err := want.SolveVec(dense, mat.NewVecDense(m, append([]float64(nil), b...))); err != nil {
			t.Fatal(err)
		}
		f := newTridiagLU(m)
		f.factor(d, e, sigma, 0)
		f.solve(b)
		swaps := 0
		for k := 0; k < m-1; k++ {
			if f.swap[k] {
				swaps++
			}
		}
		for i := range b {
			if math.Abs(b[i]-want.AtVec(i)) > 1e-10*math.Max(1, math.Abs(want.AtVec(i))) {
				t.Errorf("m=%d: x[%d] = %v, dense %v", m, i, b[i], want.AtVec(i))
			}
		}
		if m == 40 && (swaps == 0 || swaps == m-1) {
			t.Errorf("m=40: %d swaps: both branches not exercised", swaps)
		}
	}
}

// BenchmarkSymSelect compares symSelect with mat.EigenSym (dsyev with
// vectors) on a random symmetric matrix of order 400 (DenseLimit), for the
// 10 smallest eigenpairs.
func BenchmarkSymSelect(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n, kk = 400, 10
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			a.SetSym(i, j, rng.NormFloat64())
		}
	}
	b.Run("symSelect", func(b *testing.B) {
		for b.Loop() {
			if _, _, ok := symSelect(a, kk, Smallest); !ok {
				b.Fatal("not ok")
			}
		}
	})
	b.Run("EigenSym", func(b *testing.B) {
		for b.Loop() {
			var es mat.EigenSym
			if !es.Factorize(a, true) {
				b.Fatal("failed")
			}
		}
	})
}
