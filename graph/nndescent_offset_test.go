package graph

import (
	"context"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// offsetBlobs returns 5000 points in 8-D, every coordinate off + N(0, 1)
// (the same draws at every offset): the data of review 130's
// TestR130ApproxOffset.
func offsetBlobs(off float64) *mat.Dense {
	r := rand.New(rand.NewPCG(2, 2))
	const n, d = 5000, 8
	data := make([]float64, n*d)
	for i := range data {
		data[i] = off + r.NormFloat64()
	}
	return mat.NewDense(n, d, data)
}

// neighborsHash is an FNV-1a hash of the indices and the bits of the
// squared distances of nb, to pin a result bit for bit.
func neighborsHash(nb *Neighbors) uint64 {
	h := fnv.New64a()
	var b [8]byte
	for p, j := range nb.Index {
		v := uint64(uint32(j))<<32 ^ math.Float64bits(nb.Dist2[p])
		for s := range b {
			b[s] = byte(v >> (8 * s))
		}
		h.Write(b[:])
	}
	return h.Sum64()
}

// TestApproxKNNFarFromOrigin checks that ApproxKNN finds the neighbours of
// points far from the origin: the working coordinates were rounded to
// float32 with the common offset in them, so that at 10⁷ over unit
// spreads about one bit was left for the differences that rank the
// neighbours (review 130: recall@10 0.997 up to offset 10⁶, 0.426 at 10⁷,
// 0.006 at 10⁸, without an error). Columns far from the origin are now
// translated (workingShift): recall ≥ 0.99 against the exact KNN at
// every offset. At offset 0 no column is translated and the lists are
// those of the code before the change bit for bit (the hash was computed
// with it, commit b8f27228).
func TestApproxKNNFarFromOrigin(t *testing.T) {
	const k = 10
	for _, off := range []float64{0, 1e7, 1e8, -3e9} {
		x := offsetBlobs(off)
		nb, err := ApproxKNN(context.Background(), x, k, nil)
		if err != nil {
			t.Fatal(err)
		}
		ex, err := KNN(context.Background(), x, k)
		if err != nil {
			t.Fatal(err)
		}
		if rc := Recall(nb, ex, nil); rc < 0.99 {
			t.Errorf("offset %g: recall@%d %.4f, want ≥ 0.99", off, k, rc)
		}
		if off == 0 {
			if h := neighborsHash(nb); h != offsetZeroHash {
				t.Errorf("offset 0: neighbour lists hash %#x, want %#x (the lists before translation was added)", h, offsetZeroHash)
			}
		}
	}
}

// offsetZeroHash is neighborsHash of ApproxKNN(offsetBlobs(0), 10, nil)
// at commit b8f27228, before workingShift.
const offsetZeroHash uint64 = 0x17fed2dd74feba04

// TestWorkingShift checks the rule of workingShift on hand-made columns:
// translated by the mid-range exactly when its magnitude exceeds 2¹⁰ times
// the half-range (which must be positive).
func TestWorkingShift(t *testing.T) {
	// Columns: near the origin; offset 1000 over half-range 1 (ratio 1000,
	// kept); offset 2000 over half-range 1 (ratio 2000, translated);
	// constant far away (kept: no spread to resolve); −1e8 ± 3.
	data := []float64{
		-1, 999, 1999, 5e9, -1e8 - 3,
		1, 1001, 2001, 5e9, -1e8 + 3,
		0.5, 1000, 2000, 5e9, -1e8,
	}
	want := []float64{0, 0, 2000, 0, -1e8}
	got := workingShift(data, 3, 5)
	for c := range want {
		if got[c] != want[c] {
			t.Errorf("column %d: shift %g, want %g", c, got[c], want[c])
		}
	}
}
