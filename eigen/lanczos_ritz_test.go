package eigen

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// oldRitzVectors is ritzVectors before it checked the context: one Gemm
// per chunk of orthoChunks. It is the oracle of
// TestLanczosRitzVectorsBlockedExact.
func oldRitzVectors(r *lanczosRun, dst []float64, locked, size int, cols []int) {
	k := len(cols)
	if k == 0 || size == 0 {
		return
	}
	ys := r.ritzCoefficients(size, cols)
	v := r.v[locked*r.n : (locked+size)*r.n]
	r.chunks(size, func(_, lo, hi int) {
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
			blas64.General{Rows: k, Cols: size, Stride: size, Data: ys},
			blas64.General{Rows: size, Cols: hi - lo, Stride: r.n, Data: v[lo : (size-1)*r.n+hi]},
			0, blas64.General{Rows: k, Cols: hi - lo, Stride: r.n, Data: dst[lo : (k-1)*r.n+hi]})
	})
}

// TestLanczosRitzVectorsBlockedExact checks that the final Ritz vectors,
// a product in blocks of restartBlock columns with a context check
// between them, are bit for bit those of the old per-chunk product and of
// one unblocked Gemm of the coefficients with the whole basis: serially
// (small n·size), in parallel chunks of several blocks with n not a
// multiple of restartBlock, and with locked rows before the basis. A
// product whose context is cancelled from its third check on stops after
// at most orthoChunks more checks, with context.Canceled and at most three
// blocks of columns written.
func TestLanczosRitzVectorsBlockedExact(t *testing.T) {
	for _, c := range []struct{ n, locked, size, keep int }{
		{n: 50, locked: 0, size: 7, keep: 3},
		{n: 5*restartBlock + 3, locked: 0, size: 301, keep: 200},
		{n: 3*restartBlock + 17, locked: 4, size: 90, keep: 31},
	} {
		rng := rand.New(rand.NewPCG(uint64(c.n), 13))
		r := &lanczosRun{n: c.n, v: make([]float64, (c.locked+c.size+1)*c.n)}
		randomize(r.v, rng)
		y := mat.NewDense(c.size, c.size, nil)
		for i := range c.size {
			for j := range c.size {
				y.Set(i, j, rng.NormFloat64()/math.Sqrt(float64(c.size)))
			}
		}
		r.y = *y
		cols := rng.Perm(c.size)[:c.keep]
		before := append([]float64(nil), r.v...)
		ys := r.ritzCoefficients(c.size, cols)
		whole := make([]float64, c.keep*c.n)
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
			blas64.General{Rows: c.keep, Cols: c.size, Stride: c.size, Data: ys},
			blas64.General{Rows: c.size, Cols: c.n, Stride: c.n, Data: before[c.locked*c.n : (c.locked+c.size)*c.n]},
			0, blas64.General{Rows: c.keep, Cols: c.n, Stride: c.n, Data: whole})
		old := make([]float64, c.keep*c.n)
		oldRitzVectors(r, old, c.locked, c.size, cols)
		got := make([]float64, c.keep*c.n)
		for i := range got {
			got[i] = math.NaN()
		}
		if err := r.ritzVectors(context.Background(), got, c.locked, c.size, cols); err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if got[i] != old[i] || got[i] != whole[i] {
				t.Fatalf("n %d: vector %d entry %d = %v, want %v (old code) and %v (one Gemm) exactly", c.n, i/c.n, i%c.n, got[i], old[i], whole[i])
			}
		}
		for i := range r.v {
			if r.v[i] != before[i] {
				t.Fatalf("n %d: basis entry %d changed", c.n, i)
			}
		}
	}

	// Cancelled: 3 checks pass (3 of the 8 blocks: 4 chunks of two), the
	// rest report context.Canceled and each chunk stops at its first.
	const n, size, keep = 5*restartBlock + 3, 301, 200
	rng := rand.New(rand.NewPCG(5, 5))
	r := &lanczosRun{n: n, v: make([]float64, (size+1)*n)}
	randomize(r.v, rng)
	y := mat.NewDense(size, size, nil)
	for i := range size {
		y.Set(i, i, 1)
	}
	r.y = *y
	cols := rng.Perm(size)[:keep]
	dst := make([]float64, keep*n)
	for i := range dst {
		dst[i] = math.NaN()
	}
	ctx := newPollCtx(3)
	err := r.ritzVectors(ctx, dst, 0, size, cols)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if c := ctx.Calls(); c > 3+orthoChunks {
		t.Errorf("%d context checks, want at most %d (3 passed, one cancelled per chunk)", c, 3+orthoChunks)
	}
	written := 0
	for j := range n {
		if !math.IsNaN(dst[j]) {
			written++
		}
	}
	if maxDone := 3 * restartBlock; written > maxDone {
		t.Errorf("%d columns written after cancellation, want at most %d (3 blocks)", written, maxDone)
	}
}
