package graph

import (
	"context"
	"fmt"

	"github.com/tether-sc/tether/internal/parallel"
)

// kdLeaves is the leaf partition of a balanced kd-tree, all that NN-descent
// needs of its seeding trees: no split values or bounding boxes.
type kdLeaves struct {
	perm   []int32 // perm[p] is the original index of tree position p
	bounds []int32 // leaf ℓ holds tree positions [bounds[ℓ], bounds[ℓ+1])
}

// newKDLeaves partitions the n points of pts (n×dim, row-major) as the
// leaves of a balanced kd-tree with newKDTree's shape (depth, median
// splits at lo+(hi-lo)/2, leaves of kdLeafSize/2 to kdLeafSize points),
// each inner node split at the median of its widest dimension: on float64
// data the same partition as newKDTree's (the same spreads and the same
// swaps of Hoare's selection), but with the rows themselves moved. It reorders
// the rows of pts in place into tree order, so every pass (the spread of a
// node, the selection of its median) reads and swaps contiguous memory
// instead of reaching the rows through an index array; on return row p of
// pts is the point perm[p]. Cost O(n·dim·log n) time, O(n) memory besides
// pts; the subtrees above kdParallelMin points are split between
// goroutines, and the result does not depend on the scheduling. It returns
// ctx's error, wrapped, when ctx is cancelled (checked between levels).
func newKDLeaves[T float32 | float64](ctx context.Context, pts []T, n, dim int) (*kdLeaves, error) {
	depth := 0
	for (n+(1<<depth)-1)>>depth > kdLeafSize {
		depth++
	}
	lv := &kdLeaves{perm: make([]int32, n), bounds: make([]int32, 1<<depth+1)}
	for i := range lv.perm {
		lv.perm[i] = int32(i)
	}
	// Node q of a level holds [lo, hi) with lo = q·n/2^level rounded as the
	// median rule rounds: computed top down, the ranges of one level are
	// disjoint, so the nodes of a level run concurrently.
	top := 0
	for top < depth && n>>top > kdParallelMin {
		top++
	}
	lo, hi := []int{0}, []int{n}
	for level := 0; level <= top; level++ {
		err := parallel.For(ctx, len(lo), 0, func(q int) error {
			if level < top {
				kdSplit(lv, pts, dim, lo[q], hi[q])
			} else {
				kdSubtree(lv, pts, dim, lo[q], hi[q], depth-level)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("graph: k-d tree construction cancelled: %w", err)
		}
		if level < top {
			nlo, nhi := make([]int, 0, 2*len(lo)), make([]int, 0, 2*len(lo))
			for q := range lo {
				mid := lo[q] + (hi[q]-lo[q])/2
				nlo, nhi = append(nlo, lo[q], mid), append(nhi, mid, hi[q])
			}
			lo, hi = nlo, nhi
		}
	}
	// Leaf bounds: the ranges at depth, in order.
	var fill func(l, lo, hi, levels int)
	fill = func(l, lo, hi, levels int) {
		if levels == 0 {
			lv.bounds[l], lv.bounds[l+1] = int32(lo), int32(hi)
			return
		}
		mid := lo + (hi-lo)/2
		fill(2*l, lo, mid, levels-1)
		fill(2*l+1, mid, hi, levels-1)
	}
	fill(0, 0, n, depth)
	return lv, nil
}

// kdSubtree splits [lo, hi) and its descendants down to levels more
// levels, depth-first.
func kdSubtree[T float32 | float64](lv *kdLeaves, pts []T, dim, lo, hi, levels int) {
	if levels == 0 {
		return
	}
	mid := kdSplit(lv, pts, dim, lo, hi)
	kdSubtree(lv, pts, dim, lo, mid, levels-1)
	kdSubtree(lv, pts, dim, mid, hi, levels-1)
}

// kdSplit reorders rows [lo, hi) of pts (and lv.perm alike) so that the row at
// mid = lo+(hi-lo)/2 holds the median of the widest dimension, none larger
// before it and none smaller after it, and returns mid. Cost O((hi-lo)·dim).
func kdSplit[T float32 | float64](lv *kdLeaves, pts []T, dim, lo, hi int) int {
	mid := lo + (hi-lo)/2
	if dim == 0 || hi-lo < 2 {
		return mid
	}
	rows := pts[lo*dim : hi*dim]
	mins := make([]T, dim)
	maxs := make([]T, dim)
	copy(mins, rows[:dim])
	copy(maxs, rows[:dim])
	for r := dim; r < len(rows); r += dim {
		row := rows[r : r+dim]
		for c, v := range row[:len(mins)] {
			mins[c] = min(mins[c], v)
			maxs[c] = max(maxs[c], v)
		}
	}
	best, bestSpread := 0, T(-1)
	for c := range mins {
		if s := maxs[c] - mins[c]; s > bestSpread {
			best, bestSpread = c, s
		}
	}
	selectNthRows(rows, lv.perm[lo:hi], mid-lo, dim, best)
	return mid
}

// selectNthRows is selectNth on the rows of pts themselves (len(idx) rows
// of dim coordinates, swapped together with idx): it reorders them so that
// row nth holds the nth smallest coordinate c, with no larger coordinate
// before it and no smaller one after it (Hoare's selection with a
// median-of-three pivot). Expected cost O(len(idx)·dim).
func selectNthRows[T float32 | float64](pts []T, idx []int32, nth, dim, c int) {
	key := func(p int) T { return pts[p*dim+c] }
	swap := func(a, b int) {
		ra, rb := pts[a*dim:a*dim+dim], pts[b*dim:b*dim+dim]
		for i := range ra {
			ra[i], rb[i] = rb[i], ra[i]
		}
		idx[a], idx[b] = idx[b], idx[a]
	}
	lo, hi := 0, len(idx)-1
	for hi > lo {
		mid := lo + (hi-lo)/2
		// Median of three as pivot.
		if key(mid) < key(lo) {
			swap(mid, lo)
		}
		if key(hi) < key(lo) {
			swap(hi, lo)
		}
		if key(hi) < key(mid) {
			swap(hi, mid)
		}
		pivot := key(mid)
		i, j := lo, hi
		for i <= j {
			for key(i) < pivot {
				i++
			}
			for key(j) > pivot {
				j--
			}
			if i <= j {
				swap(i, j)
				i++
				j--
			}
		}
		switch {
		case nth <= j:
			hi = j
		case nth >= i:
			lo = i
		default:
			return
		}
	}
}

// ranges returns, for each tree position, the range of tree positions of
// its leaf. Cost O(n).
func (lv *kdLeaves) ranges() (lo, hi []int32) {
	n := len(lv.perm)
	lo, hi = make([]int32, n), make([]int32, n)
	for l := 0; l+1 < len(lv.bounds); l++ {
		a, b := lv.bounds[l], lv.bounds[l+1]
		for p := a; p < b; p++ {
			lo[p], hi[p] = a, b
		}
	}
	return lo, hi
}
