package graph

import (
	"context"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// Tile sizes of the blocked brute force. gonum's Dgemm runs a call serially
// when it spans fewer than four 64×64 blocks, so 64×192 tiles keep each
// worker on its own core.
const (
	bruteQueryBlock = 64
	bruteRefBlock   = 192
)

// centred holds the column-centred data and the squared row norms used to
// screen distances as ‖a‖² + ‖b‖² − 2a·b.
type centred struct {
	n, dim  int
	orig    []float64 // original data, for exact distances
	c       []float64 // centred data
	norm2   []float64 // ‖c_i‖²
	maxNorm float64   // max_i ‖c_i‖²
	errUnit float64   // screening error bound per unit of ‖c_i‖² + ‖c_j‖²
}

// newCentred centres the data. Centring makes the norms, and so the
// cancellation error of the screening formula, as small as possible.
//
// Error bound: with u = 2⁻⁵³ and a, b centred rows, the screened value d̃ and
// the exact dist2 of the original rows differ by at most about
// (4·dim + 14)·u·(‖a‖² + ‖b‖²) (rounding of the centring, of the norms and
// the dot product, and of dist2 itself); errUnit doubles that for margin.
func newCentred(data []float64, n, dim int) *centred {
	mean := make([]float64, dim)
	for i := 0; i < n; i++ {
		for c, v := range data[i*dim : (i+1)*dim] {
			mean[c] += v
		}
	}
	for c := range mean {
		mean[c] /= float64(n)
	}
	cd := &centred{n: n, dim: dim, orig: data, c: make([]float64, n*dim), norm2: make([]float64, n)}
	for i := 0; i < n; i++ {
		row := cd.c[i*dim : (i+1)*dim]
		var s float64
		for c, v := range data[i*dim : (i+1)*dim] {
			t := v - mean[c]
			row[c] = t
			s += float64(t * t)
		}
		cd.norm2[i] = s
		cd.maxNorm = max(cd.maxNorm, s)
	}
	cd.errUnit = float64(8*dim+32) * 0x1p-53
	return cd
}

// gram sets buf (rows q1−q0, stride bruteRefBlock) to the dot products of the
// centred rows [q0,q1) with rows [r0,r1).
func (cd *centred) gram(buf []float64, q0, q1, r0, r1 int) {
	d := cd.dim
	a := blas64.General{Rows: q1 - q0, Cols: d, Stride: d, Data: cd.c[q0*d : q1*d]}
	b := blas64.General{Rows: r1 - r0, Cols: d, Stride: d, Data: cd.c[r0*d : r1*d]}
	c := blas64.General{Rows: q1 - q0, Cols: r1 - r0, Stride: bruteRefBlock, Data: buf}
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, a, b, 0, c)
}

// bruteState is the per-goroutine scratch space of bruteKNN.
type bruteState struct {
	heaps []nnHeap
	exact nnHeap
	buf   []float64
	cd    []float64
}

// bruteKNN is the high-dimensional path of KNN; see KNN for the method.
func bruteKNN(ctx context.Context, data []float64, n, dim, k int, nb *Neighbors) error {
	if dim == 0 || n <= bruteQueryBlock {
		return parallelChunks(ctx, n, bruteQueryBlock,
			func() nnHeap { return newNNHeap(k) },
			func(h nnHeap, lo, hi int) {
				for i := lo; i < hi; i++ {
					exactKNNRow(data, n, dim, i, &h, nb)
				}
			})
	}
	cd := newCentred(data, n, dim)
	// Screen k + extra candidates so that a few near-ties at the k-th place
	// do not force the exact fallback.
	kk := min(k+max(4, k/4), n-1)
	return parallelChunks(ctx, n, bruteQueryBlock,
		func() *bruteState {
			s := &bruteState{
				heaps: make([]nnHeap, bruteQueryBlock),
				exact: newNNHeap(k),
				buf:   make([]float64, bruteQueryBlock*bruteRefBlock),
				cd:    make([]float64, kk),
			}
			for q := range s.heaps {
				s.heaps[q] = newNNHeap(kk)
			}
			return s
		},
		func(s *bruteState, lo, hi int) {
			for q := lo; q < hi; q++ {
				s.heaps[q-lo].reset()
			}
			for r0 := 0; r0 < n; r0 += bruteRefBlock {
				r1 := min(r0+bruteRefBlock, n)
				cd.gram(s.buf, lo, hi, r0, r1)
				for q := lo; q < hi; q++ {
					h := &s.heaps[q-lo]
					g := s.buf[(q-lo)*bruteRefBlock : (q-lo)*bruteRefBlock+(r1-r0)]
					nq := cd.norm2[q]
					worst := h.worst()
					for t, dot := range g {
						dt := nq + cd.norm2[r0+t] - 2*dot
						if dt <= worst {
							j := r0 + t
							if j == q {
								continue
							}
							h.push(max(dt, 0), int32(j))
							worst = h.worst()
						}
					}
				}
			}
			for q := lo; q < hi; q++ {
				h := &s.heaps[q-lo]
				if !refine(cd, q, k, h, s.cd, nb) {
					exactKNNRow(data, n, dim, q, &s.exact, nb)
				}
			}
		})
}

// refine re-ranks the screened candidates of query q by exact distance and
// writes the first k to nb. It reports false when the screening margin does
// not prove that no other point could be among the k nearest.
func refine(cd *centred, q, k int, h *nnHeap, exact []float64, nb *Neighbors) bool {
	dim := cd.dim
	full := h.n == len(h.d) && h.n < cd.n-1
	screenWorst := h.d[0]
	idx := nb.Index[q*k : (q+1)*k]
	d2 := nb.Dist2[q*k : (q+1)*k]
	// Exact distances of all candidates, sorted.
	cand := h.idx[:h.n]
	ex := exact[:h.n]
	a := cd.orig[q*dim : (q+1)*dim]
	for t, j := range cand {
		ex[t] = dist2(a, cd.orig[int(j)*dim:int(j+1)*dim])
	}
	sortPairs(cand, ex)
	if full {
		bound := cd.errUnit * (cd.norm2[q] + cd.maxNorm)
		if !(screenWorst-bound > ex[k-1]) {
			return false
		}
	}
	copy(idx, cand[:k])
	copy(d2, ex[:k])
	return true
}

// exactKNNRow computes row i of nb by exact brute force. Cost O(n·dim).
func exactKNNRow(data []float64, n, dim, i int, h *nnHeap, nb *Neighbors) {
	k := nb.K
	exactKNNRowTo(data, n, dim, i, h, nb.Index[i*k:(i+1)*k], nb.Dist2[i*k:(i+1)*k])
}

// exactKNNRowTo writes the exact neighbours of point i, found by brute
// force, to idx and d2 (of length h's capacity). Cost O(n·dim).
func exactKNNRowTo(data []float64, n, dim, i int, h *nnHeap, idx []int32, d2 []float64) {
	h.reset()
	a := data[i*dim : (i+1)*dim]
	worst := h.worst()
	for j := 0; j < n; j++ {
		if j == i {
			continue
		}
		if d := dist2Bound(a, data[j*dim:(j+1)*dim], worst); d <= worst {
			h.push(d, int32(j))
			worst = h.worst()
		}
	}
	h.sortedTo(idx, d2)
}

// bruteRadius returns, for every point i, the points j ≠ i with
// dist2(x_i, x_j) ≤ r2 in increasing index order: the high-dimensional path
// of the ε-graph. Candidates are screened with the Gram formula and the
// error bound of newCentred, then confirmed exactly. Cost O(n²·dim).
func bruteRadius(ctx context.Context, data []float64, n, dim int, r2 float64) ([][]int32, [][]float64, error) {
	cd := newCentred(data, n, dim)
	idx := make([][]int32, n)
	d2 := make([][]float64, n)
	err := parallelChunks(ctx, n, bruteQueryBlock,
		func() []float64 { return make([]float64, bruteQueryBlock*bruteRefBlock) },
		func(buf []float64, lo, hi int) {
			for r0 := 0; r0 < n; r0 += bruteRefBlock {
				r1 := min(r0+bruteRefBlock, n)
				if dim > 0 {
					cd.gram(buf, lo, hi, r0, r1)
				}
				for q := lo; q < hi; q++ {
					nq := cd.norm2[q]
					bound := r2 + cd.errUnit*(nq+cd.maxNorm)
					a := data[q*dim : (q+1)*dim]
					for t := 0; t < r1-r0; t++ {
						j := r0 + t
						if j == q {
							continue
						}
						if dim > 0 && nq+cd.norm2[j]-2*buf[(q-lo)*bruteRefBlock+t] > bound {
							continue
						}
						if d := dist2(a, data[j*dim:(j+1)*dim]); d <= r2 {
							idx[q] = append(idx[q], int32(j))
							d2[q] = append(d2[q], d)
						}
					}
				}
			}
		})
	return idx, d2, err
}
