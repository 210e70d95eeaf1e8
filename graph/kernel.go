package graph

import (
	"fmt"

	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/internal/parallel"
)

// apply is the one sparse kernel behind every operator of this package:
//
//	dst_i = c_i·x_i + sign·Σ_k vals_k·x_{idx_k}   (k over row i of g)
//
// where c_i = diag[i], or diagConst when diag is nil, and vals is parallel
// to g's column indices (g.w itself, or scaled weights). x and dst are n×p
// row-major blocks; p = 1 takes a scalar fast path. Rows are split over
// GOMAXPROCS goroutines for large products. Cost O(nnz·p).
func (g *Graph) apply(dst, x *mat.Dense, vals, diag []float64, diagConst, sign float64) {
	r, p := x.Dims()
	if r != g.n {
		panic(fmt.Sprintf("graph: block has %d rows, graph has %d nodes", r, g.n))
	}
	if dr, dc := dst.Dims(); dr != r || dc != p {
		panic(fmt.Sprintf("graph: destination is %d×%d, want %d×%d", dr, dc, r, p))
	}
	xr, dm := x.RawMatrix(), dst.RawMatrix()
	ptr, idx := g.ptr, g.idx
	if p == 1 {
		xs, ds, xst, dst1 := xr.Data, dm.Data, xr.Stride, dm.Stride
		work := func(lo, hi int) {
			for i := lo; i < hi; i++ {
				var s float64
				a, b := ptr[i], ptr[i+1]
				vv := vals[a:b]
				for t, j := range idx[a:b] {
					s += vv[t] * xs[int(j)*xst]
				}
				c := diagConst
				if diag != nil {
					c = diag[i]
				}
				ds[i*dst1] = c*xs[i*xst] + sign*s
			}
		}
		parallel.Range(g.n, len(idx), work)
		return
	}
	var blas gonum.Implementation
	work := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out := dm.Data[i*dm.Stride : i*dm.Stride+p]
			for c := range out {
				out[c] = 0
			}
			a, b := ptr[i], ptr[i+1]
			vv := vals[a:b]
			if p < applyAxpyMin {
				axpyRowsSmall(out, vv, idx[a:b], xr.Data, xr.Stride)
			} else {
				for t, j := range idx[a:b] {
					// Daxpy reaches gonum's vectorized kernel: several
					// times faster than a Go loop for the block widths
					// of the eigensolvers (p ≈ 10–100).
					blas.Daxpy(p, vv[t], xr.Data[int(j)*xr.Stride:int(j)*xr.Stride+p], 1, out, 1)
				}
			}
			c := diagConst
			if diag != nil {
				c = diag[i]
			}
			xi := xr.Data[i*xr.Stride : i*xr.Stride+p]
			for col := range out {
				out[col] = c*xi[col] + sign*out[col]
			}
		}
	}
	parallel.Range(g.n, len(idx)*p, work)
}

// applyAxpyMin is the block width from which apply accumulates a row by
// gonum's Daxpy; narrower blocks (LOBPCG's for k = 2–7, on dense graphs
// the bulk of a FAST-GE fit) use axpyRowsSmall, whose loop costs less
// than a call per stored weight.
const applyAxpyMin = 8

// axpyRowsSmall adds vv[t]·x_{idx[t]} to out for every t, in order, x the
// rows of data with the given stride: out[c] += v·x[c] column by column,
// skipping v = 0, the same operations in the same order as Daxpy (which
// returns at once for a zero factor), so the sums are the same to the
// last bit. For blocks narrower than applyAxpyMin.
func axpyRowsSmall(out, vv []float64, idx []int32, data []float64, stride int) {
	p := len(out)
	for t, j := range idx {
		v := vv[t]
		if v == 0 {
			continue
		}
		x := data[int(j)*stride : int(j)*stride+p]
		for c, xv := range x {
			// The conversion keeps the product rounded on its own (no
			// fused multiply-add, which the spec otherwise allows), as
			// Daxpy's kernel computes it.
			out[c] += float64(v * xv)
		}
	}
}
