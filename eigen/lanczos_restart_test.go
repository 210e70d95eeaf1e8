package eigen

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestLanczosRestartInPlace checks the in-place restart against the
// product of the coefficient matrix with the basis, computed naively into a
// separate matrix: serially (small n·size) and in parallel chunks, with n
// not a multiple of restartBlock, and with rows before `locked` and after
// the kept ones left untouched.
func TestLanczosRestartInPlace(t *testing.T) {
	for _, c := range []struct{ n, locked, size, keep int }{
		{n: 50, locked: 0, size: 7, keep: 3},
		{n: 3*restartBlock + 17, locked: 2, size: 40, keep: 25},
		{n: 9*restartBlock + 5, locked: 1, size: 60, keep: 60},
	} {
		rng := rand.New(rand.NewPCG(uint64(c.n), 2))
		rows := c.locked + c.size + 1
		r := &lanczosRun{n: c.n, v: make([]float64, rows*c.n)}
		randomize(r.v, rng)
		y := mat.NewDense(c.size, c.size, nil)
		for i := range c.size {
			for j := range c.size {
				y.Set(i, j, rng.NormFloat64())
			}
		}
		r.y = *y
		// The kept columns of y, in a scrambled order.
		cols := rng.Perm(c.size)[:c.keep]
		before := append([]float64(nil), r.v...)
		want := make([]float64, c.keep*c.n)
		for q, col := range cols {
			for i := range c.n {
				s := 0.0
				for l := range c.size {
					s += y.At(l, col) * before[(c.locked+l)*c.n+i]
				}
				want[q*c.n+i] = s
			}
		}
		r.restart(c.locked, c.size, cols)
		for row := range rows {
			for i := range c.n {
				got := r.v[row*c.n+i]
				exp := before[row*c.n+i]
				if q := row - c.locked; q >= 0 && q < c.keep {
					exp = want[q*c.n+i]
				}
				if math.Abs(got-exp) > 1e-12*(1+math.Abs(exp)) {
					t.Fatalf("n=%d size=%d keep=%d: row %d entry %d = %v, want %v", c.n, c.size, c.keep, row, i, got, exp)
				}
			}
		}
	}
}

// TestFinishTransposedAndBlocked checks finish on a row-major block of
// vectors (the Transpose of a k×n Dense, as Lanczos passes it) against the
// same vectors as an n×k Dense, with more than finishBlock columns and a
// deflated pair, and the residuals against a direct computation.
func TestFinishTransposedAndBlocked(t *testing.T) {
	const n, k = 300, finishBlock + 9
	diag := make([]float64, n)
	for i := range diag {
		diag[i] = float64(i%13) + 0.5
	}
	mulA := func(dst, x *mat.Dense) {
		r, c := x.Dims()
		for i := range r {
			for j := range c {
				dst.Set(i, j, diag[i]*x.At(i, j))
			}
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	rowMajor := make([]float64, k*n)
	randomize(rowMajor, rng)
	vals := make([]float64, k)
	for j := range vals {
		vals[j] = float64(j) / 3
	}
	z := mat.NewDense(n, 1, nil)
	z.Set(0, 0, 1)
	p := Problem{K: k + 1, Which: Smallest, Deflate: z, DeflateValues: []float64{diag[0]}}
	t1 := finish(p, n, vals, mat.NewDense(k, n, rowMajor).T(), mulA, nil)
	cols := mat.DenseCopyOf(mat.NewDense(k, n, rowMajor).T())
	t2 := finish(p, n, vals, cols, mulA, nil)
	if !mat.Equal(t1.Vectors, t2.Vectors) {
		t.Fatal("finish: transposed and column inputs give different vectors")
	}
	for j, v := range t1.Values {
		if t2.Values[j] != v || t2.Residuals[j] != t1.Residuals[j] {
			t.Fatalf("pair %d: (%v, %v) against (%v, %v)", j, v, t1.Residuals[j], t2.Values[j], t2.Residuals[j])
		}
		num, den := 0.0, 0.0
		for i := range n {
			x := t1.Vectors.At(i, j)
			d := diag[i]*x - v*x
			num += d * d
			den += x * x
		}
		if want := math.Sqrt(num / den); math.Abs(t1.Residuals[j]-want) > 1e-12*(1+want) {
			t.Fatalf("pair %d: residual %v, want %v", j, t1.Residuals[j], want)
		}
	}
	// The deflated pair (value diag[0] = 0.5) sorts between the computed
	// values 1/3 and 2/3 and keeps its vector.
	if t1.Values[2] != diag[0] || t1.Vectors.At(0, 2) != 1 || t1.Residuals[2] != 0 {
		t.Fatalf("deflated pair: value %v, vector entry %v, residual %v", t1.Values[2], t1.Vectors.At(0, 2), t1.Residuals[2])
	}
}

// BenchmarkLanczosRestart compares the in-place restart with the product
// into a second basis and its copy back (the restart before it), at the
// shape of FGPWC's 201-pair solve at 10⁵ nodes: 403 basis vectors, 302
// kept.
func BenchmarkLanczosRestart(b *testing.B) {
	const n, size, keep = 100000, 403, 302
	rng := rand.New(rand.NewPCG(1, 1))
	r := &lanczosRun{n: n, v: make([]float64, (size+1)*n)}
	randomize(r.v, rng)
	y := mat.NewDense(size, size, nil)
	for i := range size {
		y.Set(i, i, 1) // the identity: the basis stays bounded run after run
	}
	r.y = *y
	cols := make([]int, keep)
	for i := range cols {
		cols[i] = i
	}
	b.Run("in-place", func(b *testing.B) {
		for b.Loop() {
			r.restart(0, size, cols)
		}
	})
	b.Run("second-basis", func(b *testing.B) {
		tmp := make([]float64, size*n)
		for b.Loop() {
			r.ritzVectors(tmp[:keep*n], 0, size, cols)
			copy(r.v[:keep*n], tmp[:keep*n])
		}
	})
}
