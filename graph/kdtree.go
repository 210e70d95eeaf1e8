package graph

import (
	"context"
	"fmt"
	"math"

	"github.com/tether-sc/tether/internal/parallel"
)

// kdLeafSize bounds the number of points in a kd-tree leaf: leaves hold
// between kdLeafSize/2 and kdLeafSize points.
const kdLeafSize = 32

// kdSlack relaxes the pruning test of the tree searches. The incremental box
// distance is a sum of non-negative rounded terms, so its relative error is
// far below 1e-9; the slack makes the search visit every box that could hold
// a point at the current bound, which keeps ties exact.
const kdSlack = 1 + 1e-9

// kdTree is a balanced kd-tree over the rows of a data matrix. All leaves
// are at the same depth, so node t has children 2t+1 and 2t+2 and needs no
// pointers. The points are stored in tree order (leaf by leaf), so a leaf
// scan reads contiguous memory.
type kdTree struct {
	n, dim   int
	depth    int       // leaves are the nodes at this depth
	pts      []float64 // coordinates in tree order, dim per point
	perm     []int32   // perm[p] is the original index of tree position p
	lo, hi   []int32   // node t holds tree positions [lo[t], hi[t])
	splitDim []int32   // split dimension of an inner node
	split    []float64 // split value: left child ≤ split ≤ right child
	bmin     []float64 // bounding box of node t's points:
	bmax     []float64 // [bmin, bmax][t*dim:(t+1)*dim]
}

// newKDTree builds the tree over the n×dim row-major data. Each inner node
// splits its points at the median of the dimension of widest spread. Cost
// O(n·dim·log n); the subtrees above kdParallelMin points are split
// between goroutines. It returns ctx's error, wrapped, when ctx is
// cancelled (checked between the subtrees).
func newKDTree(ctx context.Context, data []float64, n, dim int) (*kdTree, error) {
	depth := 0
	for (n+(1<<depth)-1)>>depth > kdLeafSize {
		depth++
	}
	nodes := 1<<(depth+1) - 1
	t := &kdTree{
		n: n, dim: dim, depth: depth,
		perm:     make([]int32, n),
		lo:       make([]int32, nodes),
		hi:       make([]int32, nodes),
		splitDim: make([]int32, nodes),
		split:    make([]float64, nodes),
		bmin:     make([]float64, nodes*dim),
		bmax:     make([]float64, nodes*dim),
	}
	for i := range t.perm {
		t.perm[i] = int32(i)
	}
	// The top levels are built level by level, the nodes of a level
	// concurrently; from level top down, each subtree of at most
	// kdParallelMin points is built depth-first by one goroutine. Nodes of
	// one level own disjoint ranges of perm, set by their parents, so the
	// tree does not depend on the scheduling.
	t.lo[0], t.hi[0] = 0, int32(n)
	top := 0
	for top < depth && n>>top > kdParallelMin {
		top++
	}
	for level := 0; level <= top; level++ {
		first := 1<<level - 1
		err := parallel.For(ctx, 1<<level, 0, func(q int) error {
			if level < top {
				t.build(data, first+q, level)
			} else {
				t.buildSubtree(data, first+q, level)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("graph: k-d tree construction cancelled: %w", err)
		}
	}
	t.pts = make([]float64, n*dim)
	for p, i := range t.perm {
		copy(t.pts[p*dim:(p+1)*dim], data[int(i)*dim:int(i+1)*dim])
	}
	return t, nil
}

// kdParallelMin is the number of points above which newKDTree splits the
// work of building a subtree between goroutines.
const kdParallelMin = 1 << 14

// buildSubtree builds node and its descendants depth-first.
func (t *kdTree) buildSubtree(data []float64, node, level int) {
	t.build(data, node, level)
	if level < t.depth {
		t.buildSubtree(data, 2*node+1, level+1)
		t.buildSubtree(data, 2*node+2, level+1)
	}
}

// build computes node's bounding box and, above the leaves, its split and
// its children's ranges t.lo, t.hi, reordering t.perm[lo:hi] (the node's
// range, set by its parent).
func (t *kdTree) build(data []float64, node, level int) {
	lo, hi := int(t.lo[node]), int(t.hi[node])
	dim := t.dim
	// Bounding box of the points, and its widest dimension.
	best, bestSpread := 0, -1.0
	if dim > 0 {
		mins := t.bmin[node*dim : (node+1)*dim]
		maxs := t.bmax[node*dim : (node+1)*dim]
		for c := range mins {
			mins[c], maxs[c] = math.Inf(1), math.Inf(-1)
		}
		for _, i := range t.perm[lo:hi] {
			row := data[int(i)*dim : int(i+1)*dim]
			for c, v := range row {
				mins[c] = min(mins[c], v)
				maxs[c] = max(maxs[c], v)
			}
		}
		for c := range mins {
			if s := maxs[c] - mins[c]; s > bestSpread {
				best, bestSpread = c, s
			}
		}
	}
	if level == t.depth {
		return
	}
	mid := lo + (hi-lo)/2
	split := 0.0
	if dim > 0 && hi > lo {
		selectNth(t.perm[lo:hi], mid-lo, data, dim, best)
		split = data[int(t.perm[mid])*dim+best]
	}
	t.splitDim[node], t.split[node] = int32(best), split
	t.lo[2*node+1], t.hi[2*node+1] = int32(lo), int32(mid)
	t.lo[2*node+2], t.hi[2*node+2] = int32(mid), int32(hi)
}

// selectNth reorders idx so that idx[nth] holds the point with the nth
// smallest coordinate c, with no larger coordinate before it and no smaller
// one after it (Hoare's selection with a median-of-three pivot).
func selectNth(idx []int32, nth int, data []float64, dim, c int) {
	key := func(p int) float64 { return data[int(idx[p])*dim+c] }
	lo, hi := 0, len(idx)-1
	for hi > lo {
		mid := lo + (hi-lo)/2
		// Median of three as pivot.
		if key(mid) < key(lo) {
			idx[mid], idx[lo] = idx[lo], idx[mid]
		}
		if key(hi) < key(lo) {
			idx[hi], idx[lo] = idx[lo], idx[hi]
		}
		if key(hi) < key(mid) {
			idx[hi], idx[mid] = idx[mid], idx[hi]
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
				idx[i], idx[j] = idx[j], idx[i]
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

// leaves returns the number of leaves; leaf ℓ is node firstLeaf()+ℓ.
func (t *kdTree) leaves() int    { return 1 << t.depth }
func (t *kdTree) firstLeaf() int { return 1<<t.depth - 1 }

// kdQuery is the per-goroutine state of a search.
type kdQuery struct {
	t    *kdTree
	q    []float64 // query coordinates
	self int32     // original index of the query point, excluded
	skip int       // leaf already scanned
	h    nnHeap
	off  []float64 // per-dimension offset from q to the current cell
	r2   float64   // radius² for range searches
	hits []int32   // range search results (original indices)
	hd2  []float64 // and their squared distances
}

func newKDQuery(t *kdTree, k int) *kdQuery {
	return &kdQuery{t: t, h: newNNHeap(k), off: make([]float64, t.dim)}
}

// scanLeaf offers the points of a leaf to the heap. The distance loop is
// dist2Bound written inline (same summation order, so the same values).
func (s *kdQuery) scanLeaf(node int) {
	t := s.t
	dim := t.dim
	lo, hi := int(t.lo[node]), int(t.hi[node])
	pts := t.pts[lo*dim : hi*dim]
	q := s.q[:dim]
	worst := s.h.worst()
points:
	for p := 0; p < hi-lo; p++ {
		x := pts[p*dim : p*dim+dim]
		var d float64
		c := 0
		for ; c+4 <= dim; c += 4 {
			t0 := q[c] - x[c]
			t1 := q[c+1] - x[c+1]
			t2 := q[c+2] - x[c+2]
			t3 := q[c+3] - x[c+3]
			d += float64(t0 * t0)
			d += float64(t1 * t1)
			d += float64(t2 * t2)
			d += float64(t3 * t3)
			if d > worst {
				continue points
			}
		}
		for ; c < dim; c++ {
			t0 := q[c] - x[c]
			d += float64(t0 * t0)
		}
		if d <= worst {
			if j := t.perm[lo+p]; j != s.self {
				s.h.push(d, j)
				worst = s.h.worst()
			}
		}
	}
}

// boxDist2 returns the squared distance from s.q to the bounding box of
// node, or a value above bound once the partial sum exceeds it. Every term
// is at most the matching term of dist2 for any point in the box (rounding
// is monotone) and the terms are summed in the same order, so the result
// never exceeds the distance of a point in the box: pruning with it is exact.
func (s *kdQuery) boxDist2(node int, bound float64) float64 {
	dim := s.t.dim
	lo := s.t.bmin[node*dim : (node+1)*dim]
	hi := s.t.bmax[node*dim : (node+1)*dim]
	q := s.q[:dim]
	var d float64
	for c, v := range q {
		var g float64
		if v < lo[c] {
			g = lo[c] - v
		} else if v > hi[c] {
			g = v - hi[c]
		} else {
			continue
		}
		d += float64(g * g)
		if d > bound {
			return d
		}
	}
	return d
}

// knn descends the tree, nearer child first. rd is a lower bound on the
// squared distance from q to the cell of node, updated incrementally from
// the split planes (Arya & Mount's incremental distance): O(1) per node. A
// leaf is scanned only if its tight bounding box is also within range.
func (s *kdQuery) knn(node, level int, rd float64) {
	t := s.t
	if level == t.depth {
		if node != s.skip {
			w := s.h.worst()
			if s.boxDist2(node, w) <= w {
				s.scanLeaf(node)
			}
		}
		return
	}
	c := t.splitDim[node]
	diff := s.q[c] - t.split[node]
	near, far := 2*node+1, 2*node+2
	if diff > 0 {
		near, far = far, near
	}
	s.knn(near, level+1, rd)
	old := s.off[c]
	// |diff| ≥ |old|: the far cell lies beyond the current cell's face, so
	// the increment is non-negative and rd stays a sum of rounded
	// non-negative terms (kdSlack covers its rounding).
	nrd := rd + (diff*diff - old*old)
	if nrd <= s.h.worst()*kdSlack {
		s.off[c] = diff
		s.knn(far, level+1, nrd)
		s.off[c] = old
	}
}

// allKNN fills nb with the k nearest neighbours of every point. Queries run
// leaf by leaf in tree order so consecutive queries share cache lines; each
// query first scans its own leaf to get a tight bound. (A variant that
// shared one traversal among all the queries of a leaf was measured slower
// at d = 10: the per-query box checks it adds cost more than it saves.)
func (t *kdTree) allKNN(ctx context.Context, k int, nb *Neighbors) error {
	dim := t.dim
	first := t.firstLeaf()
	// Chunks of leaves of about 256 queries.
	chunk := max(1, 256/kdLeafSize)
	return parallelChunks(ctx, t.leaves(), chunk,
		func() *kdQuery { return newKDQuery(t, k) },
		func(s *kdQuery, l0, l1 int) {
			for leaf := first + l0; leaf < first+l1; leaf++ {
				for p := int(t.lo[leaf]); p < int(t.hi[leaf]); p++ {
					s.q = t.pts[p*dim : (p+1)*dim]
					s.self = t.perm[p]
					s.h.reset()
					s.skip = -1
					s.scanLeaf(leaf)
					s.skip = leaf
					clear(s.off)
					s.knn(0, 0, 0)
					i := int(s.self)
					s.h.sortedTo(nb.Index[i*k:(i+1)*k], nb.Dist2[i*k:(i+1)*k])
				}
			}
		})
}

// radius collects the points within squared distance r2 of s.q.
func (s *kdQuery) radius(node, level int, rd float64) {
	t := s.t
	if level == t.depth {
		if s.boxDist2(node, s.r2) > s.r2 {
			return
		}
		dim := t.dim
		for p := int(t.lo[node]); p < int(t.hi[node]); p++ {
			j := t.perm[p]
			if j == s.self {
				continue
			}
			if d := dist2Bound(s.q, t.pts[p*dim:(p+1)*dim], s.r2); d <= s.r2 {
				s.hits = append(s.hits, j)
				s.hd2 = append(s.hd2, d)
			}
		}
		return
	}
	c := t.splitDim[node]
	diff := s.q[c] - t.split[node]
	near, far := 2*node+1, 2*node+2
	if diff > 0 {
		near, far = far, near
	}
	s.radius(near, level+1, rd)
	old := s.off[c]
	nrd := rd + (diff*diff - old*old)
	if nrd <= s.r2*kdSlack {
		s.off[c] = diff
		s.radius(far, level+1, nrd)
		s.off[c] = old
	}
}

// allRadius returns, for every point i, the points j ≠ i with
// dist2(x_i, x_j) ≤ r2, in increasing index order, with their squared
// distances. ctx is checked before each leaf's queries: a dense ε-graph
// visits up to n points per query, so the 8 leaves a check covered before
// took about 0.5 s at the sizes such graphs reach; one leaf of up to
// kdLeafSize points is at most kdLeafSize·n distances between checks.
func (t *kdTree) allRadius(ctx context.Context, r2 float64) ([][]int32, [][]float64, error) {
	dim := t.dim
	first := t.firstLeaf()
	idx := make([][]int32, t.n)
	d2 := make([][]float64, t.n)
	const chunk = 1 // leaves between checks of ctx
	err := parallelChunks(ctx, t.leaves(), chunk,
		func() *kdQuery { s := newKDQuery(t, 1); s.r2 = r2; return s },
		func(s *kdQuery, l0, l1 int) {
			for leaf := first + l0; leaf < first+l1; leaf++ {
				for p := int(t.lo[leaf]); p < int(t.hi[leaf]); p++ {
					s.q = t.pts[p*dim : (p+1)*dim]
					s.self = t.perm[p]
					s.hits, s.hd2 = s.hits[:0], s.hd2[:0]
					clear(s.off)
					s.radius(0, 0, 0)
					i := int(s.self)
					idx[i] = append([]int32(nil), s.hits...)
					d2[i] = append([]float64(nil), s.hd2...)
					sortByIndex(idx[i], d2[i])
				}
			}
		})
	return idx, d2, err
}
