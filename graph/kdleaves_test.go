package graph

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestKDLeaves checks the leaf partition against its definition, computed
// independently from the original rows: perm is a permutation and row p
// of the reordered buffer is row perm[p] of the input; the leaves tile
// [0, n) with kdLeafSize/2 to kdLeafSize points (one leaf below that); and
// at every inner node, recomputed from the original coordinates of its
// points, no point left of the median rule's split exceeds a point right of
// it in the node's widest dimension. Inputs include duplicates (a coarse
// grid) and sizes around the parallel threshold, in float32 and float64;
// on float64 data the order is also newKDTree's.
func TestKDLeaves(t *testing.T) {
	for _, c := range []struct{ n, d int }{{1, 3}, {2, 2}, {31, 4}, {33, 4}, {500, 1}, {1000, 10}, {3 * kdParallelMin, 3}, {5000, 0}} {
		rng := rand.New(rand.NewPCG(uint64(c.n), uint64(c.d)))
		orig := make([]float64, c.n*c.d)
		for i := range orig {
			if c.n == 1000 {
				orig[i] = float64(rng.IntN(4)) // many ties
			} else {
				orig[i] = float64(float32(rng.NormFloat64()))
			}
		}
		lv := checkKDLeaves(t, orig, c.n, c.d)
		if c.d > 0 {
			tr, err := newKDTree(context.Background(), orig, c.n, c.d)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(tr.perm, lv.perm) {
				t.Errorf("n=%d d=%d: order differs from newKDTree's", c.n, c.d)
			}
		}
		orig32 := make([]float32, len(orig))
		for i, v := range orig {
			orig32[i] = float32(v)
		}
		checkKDLeaves(t, orig32, c.n, c.d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := newKDLeaves(ctx, make([]float32, 2*kdParallelMin*2), 2*kdParallelMin, 2); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
}

// checkKDLeaves runs newKDLeaves on a copy of orig and checks the result
// as TestKDLeaves describes.
func checkKDLeaves[T float32 | float64](t *testing.T, orig []T, n, d int) *kdLeaves {
	t.Helper()
	pts := slices.Clone(orig)
	lv, err := newKDLeaves(context.Background(), pts, n, d)
	if err != nil {
		t.Fatal(err)
	}
	seen := make([]bool, n)
	for p, i := range lv.perm {
		if seen[i] {
			t.Fatalf("n=%d: index %d twice", n, i)
		}
		seen[i] = true
		for k := 0; k < d; k++ {
			if pts[p*d+k] != orig[int(i)*d+k] {
				t.Fatalf("n=%d: row %d is not point %d", n, p, i)
			}
		}
	}
	b := lv.bounds
	if b[0] != 0 || int(b[len(b)-1]) != n {
		t.Fatalf("n=%d: leaves span [%d, %d)", n, b[0], b[len(b)-1])
	}
	for l := 0; l+1 < len(b); l++ {
		if sz := b[l+1] - b[l]; sz > kdLeafSize || (len(b) > 2 && sz < kdLeafSize/2) {
			t.Fatalf("n=%d: leaf %d has %d points", n, l, sz)
		}
	}
	lo, hi := lv.ranges()
	for p := range lo {
		if !(lo[p] <= int32(p) && int32(p) < hi[p]) {
			t.Fatalf("n=%d: position %d not in its leaf range [%d, %d)", n, p, lo[p], hi[p])
		}
	}
	// The split property, node by node.
	levels := 0
	for 1<<levels < len(b)-1 {
		levels++
	}
	var check func(lo, hi, lvl int)
	check = func(lo, hi, lvl int) {
		if lvl == levels || d == 0 {
			return
		}
		mid := lo + (hi-lo)/2
		best, spread := 0, -1.0
		for k := 0; k < d; k++ {
			mn, mx := math.Inf(1), math.Inf(-1)
			for _, i := range lv.perm[lo:hi] {
				v := float64(orig[int(i)*d+k])
				mn, mx = math.Min(mn, v), math.Max(mx, v)
			}
			if mx-mn > spread {
				best, spread = k, mx-mn
			}
		}
		leftMax, rightMin := math.Inf(-1), math.Inf(1)
		for p := lo; p < hi; p++ {
			v := float64(orig[int(lv.perm[p])*d+best])
			if p < mid {
				leftMax = math.Max(leftMax, v)
			} else {
				rightMin = math.Min(rightMin, v)
			}
		}
		if leftMax > rightMin {
			t.Fatalf("n=%d: node [%d, %d) splits dimension %d with left max %v > right min %v", n, lo, hi, best, leftMax, rightMin)
		}
		check(lo, mid, lvl+1)
		check(mid, hi, lvl+1)
	}
	check(0, n, 0)
	return lv
}

// TestRotate compares rotate with a plain triple loop applying the same Q
// (drawn from an identically seeded generator), and checks that it
// preserves distances (Q orthogonal).
func TestRotate(t *testing.T) {
	n, d := 300, 10
	x := randData(n, d, 3, 9)
	data := denseData(x)
	got := make([]float64, n*d)
	rotate(data, n, d, rand.New(rand.NewPCG(1, 2)), got)
	rng := rand.New(rand.NewPCG(1, 2))
	g := mat.NewDense(d, d, nil)
	for i := range d {
		for j := range d {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	for i := range n {
		for j := range d {
			var w float64
			for c := range d {
				w += data[i*d+c] * q.At(c, j)
			}
			if math.Abs(got[i*d+j]-w) > 1e-12*(1+math.Abs(w)) {
				t.Fatalf("(%d, %d): %v, plain loop %v", i, j, got[i*d+j], w)
			}
		}
	}
	for i := 1; i < n; i++ {
		dr := dist2(got[i*d:(i+1)*d], got[:d])
		dx := dist2(data[i*d:(i+1)*d], data[:d])
		if math.Abs(dr-dx) > 1e-10*(1+dx) {
			t.Fatalf("row %d: squared distance to row 0 %v after rotation, %v before", i, dr, dx)
		}
	}
}
