package eigen

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
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
		if err := r.restart(context.Background(), c.locked, c.size, cols); err != nil {
			t.Fatal(err)
		}
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
			if err := r.restart(context.Background(), 0, size, cols); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("second-basis", func(b *testing.B) {
		tmp := make([]float64, size*n)
		for b.Loop() {
			if err := r.ritzVectors(context.Background(), tmp[:keep*n], 0, size, cols); err != nil {
				b.Fatal(err)
			}
			copy(r.v[:keep*n], tmp[:keep*n])
		}
	})
}

// TestLanczosRestartBlockedExact checks that the restart, a product in
// blocks of restartBlock columns with a context check between them, gives
// bit for bit the product of one unblocked Gemm of the coefficients with
// the whole basis (a seeded problem of 5·restartBlock + 3 nodes, 301
// basis vectors, 200 kept: orthoChunks chunks of two blocks each), and that a restart whose
// context is cancelled from its third check on stops after at most
// orthoChunks more checks, with context.Canceled and the later blocks of
// the basis untouched.
func TestLanczosRestartBlockedExact(t *testing.T) {
	const n, size, keep = 5*restartBlock + 3, 301, 200
	rng := rand.New(rand.NewPCG(7, 11))
	r := &lanczosRun{n: n, v: make([]float64, (size+1)*n)}
	randomize(r.v, rng)
	y := mat.NewDense(size, size, nil)
	for i := range size {
		for j := range size {
			y.Set(i, j, rng.NormFloat64()/math.Sqrt(size))
		}
	}
	r.y = *y
	cols := rng.Perm(size)[:keep]
	before := append([]float64(nil), r.v...)
	ys := r.ritzCoefficients(size, cols)
	want := make([]float64, keep*n)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
		blas64.General{Rows: keep, Cols: size, Stride: size, Data: ys},
		blas64.General{Rows: size, Cols: n, Stride: n, Data: before[:size*n]},
		0, blas64.General{Rows: keep, Cols: n, Stride: n, Data: want})
	if err := r.restart(context.Background(), 0, size, cols); err != nil {
		t.Fatal(err)
	}
	for i, w := range want {
		if r.v[i] != w {
			t.Fatalf("row %d entry %d = %v, want %v (unblocked) exactly", i/n, i%n, r.v[i], w)
		}
	}
	for i := keep * n; i < len(r.v); i++ {
		if r.v[i] != before[i] {
			t.Fatalf("row %d entry %d changed", i/n, i%n)
		}
	}

	// Cancelled: 3 checks pass (3 of the 8 blocks), the rest
	// report context.Canceled and each chunk stops at its first.
	copy(r.v, before)
	ctx := newPollCtx(3)
	err := r.restart(ctx, 0, size, cols)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if c := ctx.Calls(); c > 3+orthoChunks {
		t.Errorf("%d context checks, want at most %d (3 passed, one cancelled per chunk)", c, 3+orthoChunks)
	}
	untouched := 0
	for j := range n {
		if r.v[j] == before[j] {
			untouched++
		}
	}
	if maxDone := 3 * restartBlock; n-untouched > maxDone {
		t.Errorf("%d columns rotated after cancellation, want at most %d (3 blocks)", n-untouched, maxDone)
	}
}

// pollCtx is a context whose Err returns nil for its first pass calls and
// context.Canceled from then on, and counts the calls (Calls), and the
// operator products done when it first cancelled (products, read from
// count when set).
type pollCtx struct {
	context.Context
	pass, calls atomic.Int64
	count       *int
	products    int
	once        sync.Once
	done        chan struct{}
}

func newPollCtx(pass int64) *pollCtx {
	c := &pollCtx{Context: context.Background(), done: make(chan struct{})}
	c.pass.Store(pass)
	return c
}

func (c *pollCtx) Calls() int64 { return c.calls.Load() }

func (c *pollCtx) Err() error {
	if c.calls.Add(1) > c.pass.Load() {
		c.once.Do(func() {
			close(c.done)
			if c.count != nil {
				c.products = *c.count
			}
		})
		return context.Canceled
	}
	return nil
}

func (c *pollCtx) Done() <-chan struct{} { return c.done }

// TestLanczosCancelDuringRestart cancels a solve of many pairs (K = 100
// on a 60×60 grid: NCV = 201, the restart's rotation of 201 basis vectors
// into 125 kept ones runs in orthoChunks = 4 chunks of 900 columns) at its restart: the context lets
// through the checks of the first cycle (one in Solve, one before each of
// its NCV steps, one after its Rayleigh–Ritz step) and the first chunk of
// the restart, then cancels. Solve must return context.Canceled with no
// operator product after the first cycle and at most orthoChunks more
// checks (one per chunk of the restart); checked only between cycles,
// the restart ran to its end and the second cycle's first step took a
// product (tether serve: njw k = 800 on 10⁴ nodes ran on for seconds of
// rotation after its deadline).
func TestLanczosCancelDuringRestart(t *testing.T) {
	op := &countedGrid{gridLaplacian: gridLaplacian{side: 60}}
	const k = 100
	ncv := max(2*k+1, k+20)
	first := int64(1 + ncv + 1)
	// Calibration: cancelled at the first restart check, the first cycle's
	// products are all done.
	ctx := newPollCtx(first)
	ctx.count = &op.n
	if _, err := (Lanczos{}).Solve(ctx, Problem{A: op, K: k, Which: Smallest}, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if ctx.products != ncv || op.n != ncv {
		t.Fatalf("cancelled at check %d: %d products then, %d in all, want the first cycle's %d", first+1, ctx.products, op.n, ncv)
	}
	op.n = 0
	ctx = newPollCtx(first + 1)
	ctx.count = &op.n
	_, err := Lanczos{}.Solve(ctx, Problem{A: op, K: k, Which: Smallest}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if op.n != ncv {
		t.Errorf("%d operator products, want %d (the first cycle's): the restart did not stop at its check", op.n, ncv)
	}
	if c := ctx.Calls(); c > first+1+orthoChunks {
		t.Errorf("%d context checks, want at most %d", c, first+1+orthoChunks)
	}
}
