package graph

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/internal/parallel"
)

// kdMaxDim is the largest dimension searched with the kd-tree; above it KNN
// and the ε-neighbourhoods use blocked brute force with BLAS. Measured on
// Gaussian blobs: the tree still wins clearly at d = 16.
const kdMaxDim = 16

// Neighbors holds the K nearest neighbours of every row of a data matrix.
// Row i's neighbours are Index[i*K:(i+1)*K], sorted by increasing squared
// Euclidean distance Dist2, ties by increasing index. A point is never its
// own neighbour, but its duplicates are (at distance 0).
type Neighbors struct {
	K     int
	Index []int32
	Dist2 []float64
	// Approximate is set when the lists come from an approximate search
	// (ApproxKNN): a listed neighbour may then be farther than a missed
	// one, but every Dist2 is still the exact squared distance.
	Approximate bool
}

// checkNeighbors panics, naming the function fn and the argument arg, if
// nb is nil or its lists do not form whole rows of nb.K entries (no
// entries at all when K = 0).
func checkNeighbors(fn, arg string, nb *Neighbors) {
	switch {
	case nb == nil:
		panic(fmt.Sprintf("graph: %s: %s is nil", fn, arg))
	case nb.K < 0:
		panic(fmt.Sprintf("graph: %s: %s has K = %d", fn, arg, nb.K))
	case len(nb.Index) != len(nb.Dist2):
		panic(fmt.Sprintf("graph: %s: %s has %d indices and %d distances", fn, arg, len(nb.Index), len(nb.Dist2)))
	case nb.K == 0 && len(nb.Index) != 0, nb.K > 0 && len(nb.Index)%nb.K != 0:
		panic(fmt.Sprintf("graph: %s: %s has %d entries, not a multiple of K = %d", fn, arg, len(nb.Index), nb.K))
	}
}

// N returns the number of points.
func (nb *Neighbors) N() int {
	if nb.K == 0 {
		return 0
	}
	return len(nb.Index) / nb.K
}

// Row returns the neighbours of point i and their squared distances. The
// slices alias nb's storage. A point outside [0, N()) is a programming
// error: it panics naming the method, i and N() ("graph: Neighbors.Row(7)
// of the neighbour lists of 5 points, want 0 ≤ i < 5"), as Graph.Row does;
// with K = 0 there is no point. It costs O(1).
func (nb *Neighbors) Row(i int) (idx []int32, dist2 []float64) {
	if n := nb.N(); uint(i) >= uint(n) {
		panic(nodeOutside{"Neighbors.Row", i, n, true})
	}
	a, b := i*nb.K, (i+1)*nb.K
	return nb.Index[a:b], nb.Dist2[a:b]
}

// KNN returns the exact k nearest neighbours of every row of x (n points in
// d dimensions) under the Euclidean distance, excluding the point itself.
//
// The squared distance of rows a and b is, by definition here, the
// floating-point sum Σ_c (a_c − b_c)² accumulated in column order; both
// search paths report exactly this value and rank by it, ties broken by the
// smaller index, so the result is deterministic and independent of
// GOMAXPROCS.
//
// For d ≤ 16 KNN searches a kd-tree (median splits on the widest dimension,
// bucket leaves, points stored in tree order, queries run in tree order in
// parallel chunks): about O(n log n) for low intrinsic dimension. Above 16
// dimensions it uses blocked brute force: distances ‖a‖² + ‖b‖² − 2a·b of
// the centred data from BLAS Dgemm tiles screen candidates, which are then
// re-ranked with exact distances; a row whose screening margin is smaller
// than the rounding-error bound (many near-ties or duplicates) is redone by
// exact brute force. Cost O(n²d), memory O(nk) plus small tiles.
//
// KNN returns an error when x is nil or empty, has a NaN or infinite entry
// (naming its row and column), when k < 1 or k ≥ n, when squared distances
// would overflow or underflow (largest |x| below 2⁻⁴⁵⁹ ≈ 6.7e-139 with the
// points not all identical; wrapping ErrInvalid, naming the row and
// value, as Build does), or when ctx is cancelled (checked between chunks
// of a few hundred queries).
func KNN(ctx context.Context, x *mat.Dense, k int) (*Neighbors, error) {
	if err := checkData(x); err != nil {
		return nil, err
	}
	n, d := x.Dims()
	if k < 1 || k >= n {
		return nil, fmt.Errorf("graph: k = %d nearest neighbours needs 1 ≤ k < n = %d", k, n)
	}
	data := denseData(x)
	if err := checkScale(data, n, d, nil); err != nil {
		return nil, err
	}
	return knnData(ctx, data, n, d, k)
}

// knnData is KNN on validated n×d row-major data with 1 ≤ k < n.
func knnData(ctx context.Context, data []float64, n, d, k int) (*Neighbors, error) {
	nb := &Neighbors{K: k, Index: make([]int32, n*k), Dist2: make([]float64, n*k)}
	var err error
	if d <= kdMaxDim && d > 0 {
		var t *kdTree
		if t, err = newKDTree(ctx, data, n, d); err == nil {
			err = t.allKNN(ctx, k, nb)
		}
	} else {
		err = bruteKNN(ctx, data, n, d, k, nb)
	}
	if err != nil {
		return nil, err
	}
	return nb, nil
}

// radiusData returns, for every point i, the points j ≠ i with
// dist2(x_i, x_j) ≤ r2 in increasing index order, with their squared
// distances: the kd-tree for d ≤ 16, screened brute force above.
func radiusData(ctx context.Context, data []float64, n, d int, r2 float64) ([][]int32, [][]float64, error) {
	if d <= kdMaxDim && d > 0 {
		t, err := newKDTree(ctx, data, n, d)
		if err != nil {
			return nil, nil, err
		}
		return t.allRadius(ctx, r2)
	}
	return bruteRadius(ctx, data, n, d, r2)
}

// checkData reports the first NaN or infinite entry of x, and nil, empty or
// too large inputs, with an error wrapping ErrInvalid.
func checkData(x *mat.Dense) error {
	if x == nil || x.IsEmpty() {
		return fmt.Errorf("%w: no data points", ErrInvalid)
	}
	n, _ := x.Dims()
	if n > math.MaxInt32 {
		return fmt.Errorf("%w: %d points exceed the limit of %d", ErrInvalid, n, math.MaxInt32)
	}
	for i := 0; i < n; i++ {
		for j, v := range x.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: data entry (row %d, column %d) is %v", ErrInvalid, i, j, v)
			}
		}
	}
	return nil
}

// denseData returns the row-major entries of x with stride equal to the
// number of columns, copying only when x is a view.
func denseData(x *mat.Dense) []float64 {
	r, c := x.Dims()
	raw := x.RawMatrix()
	if raw.Stride == c {
		return raw.Data[:r*c]
	}
	out := make([]float64, r*c)
	for i := 0; i < r; i++ {
		copy(out[i*c:(i+1)*c], raw.Data[i*raw.Stride:i*raw.Stride+c])
	}
	return out
}

// dist2 is the squared Euclidean distance of a and b, summed in index order.
// Every path of this package reports distances computed by it (or by
// dist2Bound, which returns the same value when it does not give up),
// except the weights of a Full RBF graph above kdMaxDim dimensions and the
// σ they read: there the squared distances come from the Gram matrix of
// the centred rows, within 10⁻⁶ of dist2's in the weights' exponent, and
// within 10⁻¹² when any was off by more (gramTrigger, builder.refineGram).
func dist2(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for c, v := range a {
		t := v - b[c]
		s += float64(t * t) // explicit rounding: no fused multiply-add
	}
	return s
}

// dist2Bound is dist2 that may stop early once the partial sum exceeds
// bound; the value it then returns is larger than bound but otherwise
// meaningless. Partial sums of non-negative terms never decrease in floating
// point, so the comparison with bound is exact.
func dist2Bound(a, b []float64, bound float64) float64 {
	return dist2BoundOf(a, b, bound)
}

// dist2BoundOf is dist2Bound for float32 or float64 coordinates, summed in
// the precision of T and in index order, four terms at a time.
func dist2BoundOf[T float32 | float64](a, b []T, bound T) T {
	b = b[:len(a)]
	var s T
	c := 0
	for ; c+4 <= len(a); c += 4 {
		t0 := a[c] - b[c]
		t1 := a[c+1] - b[c+1]
		t2 := a[c+2] - b[c+2]
		t3 := a[c+3] - b[c+3]
		s += T(t0 * t0)
		s += T(t1 * t1)
		s += T(t2 * t2)
		s += T(t3 * t3)
		if s > bound {
			return s
		}
	}
	for ; c < len(a); c++ {
		t := a[c] - b[c]
		s += T(t * t)
	}
	return s
}

// nnHeap is a bounded max-heap of candidate neighbours ordered by
// (distance, index): the root is the worst one kept.
type nnHeap struct {
	d   []float64
	idx []int32
	n   int // entries in use
}

func newNNHeap(k int) nnHeap {
	return nnHeap{d: make([]float64, k), idx: make([]int32, k)}
}

func (h *nnHeap) reset() { h.n = 0 }

// worst returns the distance a candidate must not exceed to enter the heap.
func (h *nnHeap) worst() float64 {
	if h.n < len(h.d) {
		return math.Inf(1)
	}
	return h.d[0]
}

func (h *nnHeap) less(a, b int) bool { // a is worse than b
	return h.d[a] > h.d[b] || (h.d[a] == h.d[b] && h.idx[a] > h.idx[b])
}

// push offers candidate (d, j).
func (h *nnHeap) push(d float64, j int32) {
	if h.n < len(h.d) {
		i := h.n
		h.n++
		h.d[i], h.idx[i] = d, j
		for i > 0 {
			p := (i - 1) / 2
			if !h.less(i, p) {
				break
			}
			h.d[i], h.d[p] = h.d[p], h.d[i]
			h.idx[i], h.idx[p] = h.idx[p], h.idx[i]
			i = p
		}
		return
	}
	if d > h.d[0] || (d == h.d[0] && j > h.idx[0]) {
		return
	}
	h.d[0], h.idx[0] = d, j
	i, n := 0, h.n
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			break
		}
		h.d[i], h.d[m] = h.d[m], h.d[i]
		h.idx[i], h.idx[m] = h.idx[m], h.idx[i]
		i = m
	}
}

// sortedTo writes the heap's entries in increasing (distance, index) order.
func (h *nnHeap) sortedTo(idx []int32, d []float64) {
	copy(idx, h.idx[:h.n])
	copy(d, h.d[:h.n])
	sortPairs(idx[:h.n], d[:h.n])
}

// sortPairs sorts by (d, idx) with insertion sort for short lists.
func sortPairs(idx []int32, d []float64) {
	if len(idx) > 32 {
		sort.Sort(pairSorter{idx, d})
		return
	}
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && (d[j] < d[j-1] || (d[j] == d[j-1] && idx[j] < idx[j-1])); j-- {
			d[j], d[j-1] = d[j-1], d[j]
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
}

type pairSorter struct {
	idx []int32
	d   []float64
}

func (p pairSorter) Len() int { return len(p.idx) }
func (p pairSorter) Less(a, b int) bool {
	return p.d[a] < p.d[b] || (p.d[a] == p.d[b] && p.idx[a] < p.idx[b])
}
func (p pairSorter) Swap(a, b int) {
	p.idx[a], p.idx[b] = p.idx[b], p.idx[a]
	p.d[a], p.d[b] = p.d[b], p.d[a]
}

// parallelChunks runs work over [0,n) in chunks of the given size pulled by
// up to GOMAXPROCS goroutines, each with its own state from newState (see
// parallel.ForState). It stops at the first chunk that finds ctx cancelled
// and returns ctx's error, wrapped.
func parallelChunks[S any](ctx context.Context, n, chunk int, newState func() S, work func(s S, lo, hi int)) error {
	nChunks := (n + chunk - 1) / chunk
	rep := reporterFrom(ctx)
	if rep != nil {
		rep.begin()
	}
	var done atomic.Int64
	err := parallel.ForState(ctx, nChunks, 0, newState, func(s S, c int) error {
		lo, hi := c*chunk, min((c+1)*chunk, n)
		work(s, lo, hi)
		if rep != nil {
			rep.report(int(done.Add(int64(hi-lo))), n)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("graph: graph construction cancelled: %w", err)
	}
	return nil
}

// sortByIndex sorts parallel slices by increasing index.
func sortByIndex(idx []int32, d []float64) {
	if len(idx) < 2 {
		return
	}
	sort.Sort(indexSorter{idx, d})
}

type indexSorter struct {
	idx []int32
	d   []float64
}

func (p indexSorter) Len() int           { return len(p.idx) }
func (p indexSorter) Less(a, b int) bool { return p.idx[a] < p.idx[b] }
func (p indexSorter) Swap(a, b int) {
	p.idx[a], p.idx[b] = p.idx[b], p.idx[a]
	p.d[a], p.d[b] = p.d[b], p.d[a]
}
