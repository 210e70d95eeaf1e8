package graph

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/internal/parallel"
)

// ApproxOptions tunes ApproxKNN. The zero value (or nil) gives the defaults.
type ApproxOptions struct {
	// Trees is the number of k-d trees whose leaves seed the neighbour
	// lists: the first over the data, the others over random rotations of
	// it, so that the leaf boundaries differ. If Trees is 0, 5 are used.
	// At least 2 are required: from one tree's leaves NN-descent stays
	// inside them (recall@10 about 0.12 on 10⁴ blobs). Each tree costs
	// O(n·d·log n) but starts the descent closer: on 2·10⁵ blobs in 10-D,
	// 5 trees need 5 rounds where 3 need 8, for a higher recall.
	Trees int
	// MaxIter bounds the NN-descent rounds. If MaxIter is 0, 12 are used.
	MaxIter int
	// Delta stops the descent when a round changes fewer than Delta·n·k
	// list entries (the early termination rule of Dong et al. 2011). If
	// Delta is 0, 0.01 is used: Dong et al. use 0.001, but on the blobs
	// of bench/njw_million.sh (10⁶ points, k = 9, pool 13, 5 trees) the
	// fifth round changes 0.57% of the entries, and the sixth round that
	// 0.005 then runs raises recall@9 only from 0.9758 to 0.9771, for about
	// 5% of the time.
	Delta float64
	// ReverseCap bounds how many reverse neighbours (points that list i)
	// join i's local neighbourhood in a round; the closest are kept. If
	// ReverseCap is 0, 2k is used: a point meets the neighbours of its own
	// neighbour v only through v's neighbourhood, where it may be one of
	// v's reverse neighbours; on 10⁶ blobs (10-D, k = 9, pool 13)
	// recall@9 is 0.959 with a cap of 14, 0.977 with 18, 0.979 with 20.
	ReverseCap int
	// Pool is the length of the lists the descent keeps, of which the k
	// nearest are returned; a longer pool finds more of the true
	// neighbours at a higher cost per round. If Pool is 0 (or below k),
	// k + k/2 is used.
	Pool int
	// Seed seeds the random rotations. Every seed is valid; the result is a
	// function of the data, k, the options and Seed only (not of
	// GOMAXPROCS or scheduling).
	Seed uint64

	// trace, when set (by tests), is called after each round with the
	// round number (from 0) and the number of list entries it changed,
	// and before the rounds with -2 (trees built) and -1 (lists started).
	trace func(round int, changed int64)
}

func (o *ApproxOptions) withDefaults(k int) ApproxOptions {
	var r ApproxOptions
	if o != nil {
		r = *o
	}
	if r.Trees == 0 {
		r.Trees = 5
	}
	if r.MaxIter == 0 {
		r.MaxIter = 12
	}
	if r.Delta == 0 {
		r.Delta = 0.01
	}
	if r.Pool < k {
		r.Pool = k + k/2
	}
	if r.ReverseCap == 0 {
		r.ReverseCap = 2 * k
	}
	return r
}

func (o ApproxOptions) check() error {
	switch {
	case o.Trees < 2:
		return fmt.Errorf("graph: ApproxOptions.Trees = %d: at least 2 k-d trees are needed (one tree's leaves trap NN-descent)", o.Trees)
	case o.MaxIter < 0:
		return fmt.Errorf("graph: ApproxOptions.MaxIter = %d is negative", o.MaxIter)
	case !(o.Delta >= 0 && o.Delta < 1):
		return fmt.Errorf("graph: ApproxOptions.Delta = %v is outside [0, 1)", o.Delta)
	case o.ReverseCap < 0:
		return fmt.Errorf("graph: ApproxOptions.ReverseCap = %d is negative", o.ReverseCap)
	}
	return nil
}

// ApproxKNN returns approximate k nearest neighbours of every row of x
// (n points in d dimensions) under the Euclidean distance, excluding the
// point itself, in the layout of KNN: each row sorted by increasing squared
// distance (computed exactly, as KNN computes it), ties by index, and
// Neighbors.Approximate set. Recall and SampleRecall measure how many of
// the exact neighbours it finds.
//
// The search is NN-descent (W. Dong, M. Charikar and K. Li, "Efficient
// k-nearest neighbor graph construction for generic similarity measures",
// WWW 2011, Algorithm 2: a neighbour of a neighbour is likely a
// neighbour), started from the leaves of opt.Trees k-d trees as
// pynndescent starts from random-projection trees: every point's list
// begins with the nearest of its leaf mates. Each round is the local join
// of Dong et al. (§2.3): for every point v, each pair of members of v's
// local neighbourhood (its forward neighbours and up to ReverseCap reverse
// ones), and v with each member, is measured once and the distance offered
// to both sides, skipping pairs whose two links were both already present
// in the previous round (the "new/old" rule of §3.2); each list keeps the
// k nearest of its entries and the candidates offered to it. Measured
// from the neighbourhood rather than from each endpoint (every point
// gathering its neighbours' neighbours), a pair costs one distance instead
// of two, and the coordinates of a neighbourhood's members are loaded once
// for all its pairs instead of once per pair: the join of 10⁶ points is
// bound by those loads. The offers are buffered per goroutine and merged
// into the lists between batches of neighbourhoods; the next list of a
// point is the k nearest, by (distance, position), of its current list
// and every candidate offered to it in the round, so the result does not
// depend on the order of the merges, the scheduling or GOMAXPROCS. Points
// are processed in the first tree's order so that neighbours share cache
// lines, and the descent ranks candidates by squared distances of the
// coordinates scaled by a power of two (the largest |x| into [½, 1), so
// that the result does not depend on the data's scale) and rounded to
// float32 (half the memory traffic of float64); a column whose mid-range
// m exceeds 2¹⁰ times its half-range in magnitude is first translated by
// m, so that an offset far larger than the spread does not take float32's
// bits (data nearer the origin is not translated); at
// the end the exact distances of each point's whole pool are computed in
// float64 and the kOut nearest by them are kept.
//
// Cost: O(T·n·d·log n) for the trees, then per round O(n·c·d) with c ≈
// (k + ReverseCap)²/2 pairs per point in the first round and far fewer
// later; memory about 2·n·(k+ReverseCap)·13 bytes, n·d·4 bytes for the
// float32 coordinates, n·d·8 bytes for the copy of the data (then of its
// rotations) that the trees partition in place (the trees keep only their
// leaves: no split values or boxes), plus the offers of a batch (tens of
// MB at 10⁶ points). The descent stops after MaxIter rounds or when a
// round changes fewer than Delta·n·k entries.
//
// ApproxKNN returns an error when x is nil or empty, has a NaN or infinite
// entry, when k < 1 or k ≥ n, when squared distances would overflow or
// underflow (as KNN), when an option is out of range, or when ctx is
// cancelled (checked between chunks of points).
func ApproxKNN(ctx context.Context, x *mat.Dense, k int, opt *ApproxOptions) (*Neighbors, error) {
	if err := checkData(x); err != nil {
		return nil, err
	}
	n, d := x.Dims()
	if k < 1 || k >= n {
		return nil, fmt.Errorf("graph: k = %d nearest neighbours needs 1 ≤ k < n = %d", k, n)
	}
	o := opt.withDefaults(k)
	if err := o.check(); err != nil {
		return nil, err
	}
	data := denseData(x)
	if err := checkScale(data, n, d, nil); err != nil {
		return nil, err
	}
	return approxKNNData(ctx, data, n, d, k, o)
}

// shiftRatio is the ratio of a column's offset (the magnitude of its
// mid-range) to its spread (half its range) above which ApproxKNN
// translates the column before rounding it to float32 (workingShift):
// 2¹⁰, so that at least 14 of float32's 24 bits resolve the spread.
const shiftRatio = 0x1p10

// workingShift returns, for each column c of the n×d row-major data, the
// amount ApproxKNN subtracts from it before rounding the working
// coordinates to float32: its mid-range m = (min + max)/2 when |m| exceeds
// shiftRatio times its half-range (max − min)/2 > 0, else 0. Squared
// distances are translation invariant, but a float32 keeps 24 bits of
// the value it rounds, so an offset of 10⁷ over unit spreads (timestamps,
// projected coordinates) left about one bit for the differences that rank
// the neighbours (recall@10 0.43 on 5000 points in 8-D, 0.006 at 10⁸);
// translated, the column keeps the bits of its spread. Columns nearer the
// origin, or constant, are not translated, so that the working coordinates
// of ordinary data are those of x·2⁻ᵉ bit for bit. Cost O(nd).
func workingShift(data []float64, n, d int) []float64 {
	shift := make([]float64, d)
	for c := 0; c < d; c++ {
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := c; i < n*d; i += d {
			lo, hi = min(lo, data[i]), max(hi, data[i])
		}
		// Halved before adding: no overflow near math.MaxFloat64.
		m, h := lo/2+hi/2, hi/2-lo/2
		if h > 0 && math.Abs(m) > shiftRatio*h {
			shift[c] = m
		}
	}
	return shift
}

// descent is the state of NN-descent. Points are numbered by their
// position in the first tree (pos), lists hold positions.
type descent struct {
	n, dim, k int
	pts       []float32 // coordinates in working order, scaled by 2⁻ᵉ, rounded to float32
	idx       []int32   // n·k neighbour positions, rows sorted by (dist, position)
	dst       []float64 // their squared distances in float32 arithmetic
	isNew     []bool    // entry entered the list in the last round
	perm      []int32   // perm[p]: original index of position p
	// Local neighbourhoods of a round: the forward entries and the kept
	// reverse entries of point v, each once, are sIdx[sOff[3v]:sOff[3v+2]],
	// those whose link is new first (up to sOff[3v+1]), then the old ones;
	// v's slots end where v+1's begin, sOff[3v+3], and are not all used
	// when v lists some of its reverse neighbours. The three offsets a join
	// reads for v are adjacent (one cache line).
	sOff  []int
	sIdx  []int32
	nIdx  []int32 // next round's lists (double buffering)
	nDst  []float64
	nNew  []bool
	revIx []int32 // scratch for reverse lists
	revD  []float64
	revN  []bool
	thr   []float32 // the last distance of each next list, in float32
}

// approxKNNData is ApproxKNN on validated n×d row-major data.
func approxKNNData(ctx context.Context, data []float64, n, d, kOut int, o ApproxOptions) (*Neighbors, error) {
	k := min(o.Pool, n-1)
	// Tree 0 partitions a copy of the data, which it leaves in tree order:
	// rounded to float32, the descent's working coordinates. The copy is
	// then reused for the rotations the other trees partition.
	buf := slices.Clone(data)
	t, err := newKDLeaves(ctx, buf, n, d)
	if err != nil {
		return nil, err
	}
	// The working coordinates are x·2⁻ᵉ, e the exponent of the largest
	// |x| (so that it lies in [½, 1)), rounded to float32: the power of two
	// is exact, so the descent does not depend on the scale of the data,
	// whose float64 range far exceeds float32's (x of 1e-100 would round
	// to 0, x of 1e50 to ±Inf). Only the ranking uses them. A column far
	// from the origin is first translated (workingShift): float32's 24
	// bits would otherwise go to the offset.
	shift := workingShift(buf, n, d)
	var amax float64
	for i, v := range buf {
		amax = max(amax, math.Abs(v-shift[i%d]))
	}
	_, e := math.Frexp(amax)
	pts := make([]float32, n*d)
	for i, v := range buf {
		pts[i] = float32(math.Ldexp(v-shift[i%d], -e))
	}
	s := &descent{n: n, dim: d, k: k, pts: pts, perm: t.perm,
		idx: make([]int32, n*k), dst: make([]float64, n*k), isNew: make([]bool, n*k)}
	// Every point's list starts as the nearest of its leaf mates in every
	// tree (the lists are heaps until all the trees are seen), tree by
	// tree as they are built.
	cnt := make([]int32, n)
	if err := s.seed(ctx, nil, t.bounds, cnt, true); err != nil {
		return nil, err
	}
	// pos[i] is the working position of original point i.
	pos := make([]int32, n)
	for p, i := range t.perm {
		pos[i] = int32(p)
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x6e6e64657363)) // "nndesc"
	for tr := 1; tr < o.Trees; tr++ {
		rotate(data, n, d, rng, buf)
		t2, err := newKDLeaves(ctx, buf, n, d)
		if err != nil {
			return nil, err
		}
		ord := t2.perm // positions in tree tr's order
		for q, i := range ord {
			ord[q] = pos[i]
		}
		if err := s.seed(ctx, ord, t2.bounds, cnt, false); err != nil {
			return nil, err
		}
	}
	buf, pos, cnt = nil, nil, nil
	if o.trace != nil {
		o.trace(-2, 0)
	}
	parallel.Range(n, n*k*4, func(lo, hi int) {
		for p := lo; p < hi; p++ {
			sortPairs(s.idx[p*k:(p+1)*k], s.dst[p*k:(p+1)*k])
		}
	})
	if o.trace != nil {
		o.trace(-1, 0)
	}
	// Every entry is new in the first round.
	for i := range s.isNew {
		s.isNew[i] = true
	}
	var pool []*joinScratch
	s.nIdx = make([]int32, n*k)
	s.nDst = make([]float64, n*k)
	s.nNew = make([]bool, n*k)
	for it := 0; it < o.MaxIter; it++ {
		s.neighbourhoods(o.ReverseCap)
		changed, err := s.round(ctx, &pool)
		if err != nil {
			return nil, err
		}
		s.idx, s.nIdx = s.nIdx, s.idx
		s.dst, s.nDst = s.nDst, s.dst
		s.isNew, s.nNew = s.nNew, s.isNew
		if o.trace != nil {
			o.trace(it, changed)
		}
		if float64(changed) < o.Delta*float64(n)*float64(k) {
			break
		}
	}
	s.nIdx, s.nDst, s.nNew, s.sIdx, pool = nil, nil, nil, nil, nil
	// Back to original indices, rows in original order: the exact squared
	// distances of the whole pool, sorted by (distance, original index),
	// of which the kOut nearest are kept.
	ko := kOut
	nb := &Neighbors{K: ko, Index: make([]int32, n*ko), Dist2: make([]float64, n*ko), Approximate: true}
	parallel.Range(n, n*k*d, func(lo, hi int) {
		row := make([]int32, k)
		rd := make([]float64, k)
		for p := lo; p < hi; p++ {
			i := int(t.perm[p])
			xi := data[i*d : (i+1)*d]
			for r, q := range s.idx[p*k : (p+1)*k] {
				j := t.perm[q]
				row[r], rd[r] = j, dist2(xi, data[int(j)*d:int(j+1)*d])
			}
			sortPairs(row, rd)
			copy(nb.Index[i*ko:(i+1)*ko], row)
			copy(nb.Dist2[i*ko:(i+1)*ko], rd)
		}
	})
	return nb, nil
}

// descentChunk is the number of neighbourhoods a goroutine joins at a time.
const descentChunk = 2048

// seedLeafChunk is the number of leaves a goroutine seeds at a time.
const seedLeafChunk = 64

// seed offers every point the members of its leaf (widened to k+1 slots)
// in one tree: leaf ℓ holds the tree slots [bounds[ℓ], bounds[ℓ+1]), slot
// q being position ord[q] (position q when ord is nil). The lists s.idx,
// s.dst are max-heaps of cnt[p] entries, kept once offered (dedup by a
// scan of the ≤ k entries, done only for candidates that would enter).
// Each pair of leaf mates is measured once and offered to both (the
// distance is symmetric bit for bit), and a leaf's rows are read once per
// leaf rather than once per member. The heaps end holding the k nearest
// candidates by (distance, position) whatever the order of the offers, so
// the lists do not depend on the scheduling. Within one tree a point is
// offered each candidate once (only a leaf's members receive offers, from
// distinct slots), so fresh, set when the heaps start empty, skips the
// duplicate check. Cost O(n·m·d) for leaves of
// m points; leaves run in parallel (they are disjoint), the trees in turn.
func (s *descent) seed(ctx context.Context, ord []int32, bounds []int32, cnt []int32, fresh bool) error {
	n, k, d := s.n, s.k, s.dim
	at := func(q int) int32 {
		if ord == nil {
			return int32(q)
		}
		return ord[q]
	}
	leaves := len(bounds) - 1
	return parallelChunks(ctx, leaves, seedLeafChunk,
		func() *[]int32 { b := make([]int32, 0, 2*kdLeafSize+k+1); return &b },
		func(mb *[]int32, l0, l1 int) {
			for l := l0; l < l1; l++ {
				a, b := int(bounds[l]), int(bounds[l+1])
				wa, wb := widen(a, b, k+1, n)
				// Members first, then the widening slots (offered one way).
				m := (*mb)[:0]
				for q := a; q < b; q++ {
					m = append(m, at(q))
				}
				for q := wa; q < wb; q++ {
					if q < a || q >= b {
						m = append(m, at(q))
					}
				}
				*mb = m
				for i, p := range m[:b-a] {
					xp := s.pts[int(p)*d : int(p+1)*d]
					for j, q := range m[i+1:] {
						wp := s.heapWorst(p, cnt)
						bound := wp
						inLeaf := i+1+j < b-a
						if inLeaf {
							bound = max(bound, s.heapWorst(q, cnt))
						}
						dd := s.dist32(xp, q, float32(bound))
						if float64(dd) > bound {
							continue
						}
						s.heapOffer(p, q, float64(dd), cnt, fresh)
						if inLeaf {
							s.heapOffer(q, p, float64(dd), cnt, fresh)
						}
					}
				}
			}
		})
}

// heapWorst returns the distance a candidate must not exceed to enter
// position p's heap (+Inf until it holds k entries).
func (s *descent) heapWorst(p int32, cnt []int32) float64 {
	if int(cnt[p]) < s.k {
		return math.Inf(1)
	}
	return s.dst[int(p)*s.k]
}

// heapOffer pushes (dd, q) onto position p's heap unless q is there
// already; fresh skips that check (no candidate is offered twice within
// one tree). Cost O(k).
func (s *descent) heapOffer(p, q int32, dd float64, cnt []int32, fresh bool) {
	k := s.k
	h := nnHeap{d: s.dst[int(p)*k : int(p+1)*k], idx: s.idx[int(p)*k : int(p+1)*k], n: int(cnt[p])}
	if h.n == k && (dd > h.d[0] || (dd == h.d[0] && q > h.idx[0])) {
		return
	}
	if !fresh && slices.Contains(h.idx[:h.n], q) {
		return
	}
	h.push(dd, q)
	cnt[p] = int32(h.n)
}

// dist32 is the float32 squared distance from xp to position q, or some
// value above bound once a partial sum exceeds it (dist2f32x10Bound in
// 10-D, dist2f32Bound otherwise). Cost O(d).
func (s *descent) dist32(xp []float32, q int32, bound float32) float32 {
	if d := s.dim; d != 10 {
		return dist2f32Bound(xp, s.pts[int(q)*d:int(q+1)*d], bound)
	}
	return dist2f32x10Bound(xp, s.pts[int(q)*10:int(q)*10+10], bound)
}

// widen grows [a, b) around itself to at least m slots within [0, n).
func widen(a, b, m, n int) (int, int) {
	for b-a < m {
		if a > 0 {
			a--
		}
		if b < n && b-a < m {
			b++
		}
	}
	return a, b
}

// rotate sets out (n×d, row-major) to data·Q for a random orthogonal d×d
// matrix Q (the Q factor of a Gaussian matrix) drawn from rng. Cost
// O(n·d²).
func rotate(data []float64, n, d int, rng *rand.Rand, out []float64) {
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
	x := mat.NewDense(n, d, data)
	y := mat.NewDense(n, d, out[:n*d])
	y.Mul(x, &q)
}

// neighbourhoods builds the local neighbourhoods of the round: for each
// position v, its k forward entries and at most cap reverse entries (the
// positions u listing v, the closest first, ties by position), each with
// the new flag of its link. A reverse entry that v lists too (u and v list
// each other: about half the pairs on 10⁶ blobs) is kept once, as the
// forward entry, new if either link is: the join through u then scans u's
// neighbourhood once instead of twice (its whole neighbourhood when either
// link is new, as the two scans did), so the candidates are the same and
// the scans fewer. Cost O(n·k·cap) plus the selection of
// reverse entries. The reverse lists are counted and filled by every
// goroutine over all the lists, each keeping only the targets v of its own
// range: every goroutine reads all n·k entries (sequentially) but writes
// only its share, in increasing u as a serial pass would, so the result
// does not depend on the scheduling. (Filling with atomic slot counters
// shared by the cores was measured 4× slower in CPU than a serial pass at
// 10⁶ points: the cores contend for the counters' cache lines.)
func (s *descent) neighbourhoods(rcap int) {
	n, k := s.n, s.k
	cnt := make([]int32, n+1)
	parallel.Range(n, n*k, func(lo, hi int) {
		for _, v := range s.idx {
			if int(v) >= lo && int(v) < hi {
				cnt[v+1]++
			}
		}
	})
	for v := 0; v < n; v++ {
		cnt[v+1] += cnt[v]
	}
	if s.revIx == nil {
		s.revIx = make([]int32, n*k)
		s.revD = make([]float64, n*k)
		s.revN = make([]bool, n*k)
	}
	fill := slices.Clone(cnt[:n])
	parallel.Range(n, n*k, func(lo, hi int) {
		for u := 0; u < n; u++ {
			for r := u * k; r < (u+1)*k; r++ {
				if v := s.idx[r]; int(v) >= lo && int(v) < hi {
					f := fill[v]
					s.revIx[f], s.revD[f], s.revN[f] = int32(u), s.dst[r], s.isNew[r]
					fill[v]++
				}
			}
		}
	})
	if s.sOff == nil {
		s.sOff = make([]int, 3*n)
	}
	total := 0
	for v := 0; v < n; v++ {
		s.sOff[3*v] = total
		total += k + min(int(cnt[v+1]-cnt[v]), rcap)
	}
	if cap(s.sIdx) < total {
		s.sIdx = make([]int32, total)
	}
	s.sIdx = s.sIdx[:total]
	parallel.Range(n, total*4, func(lo, hi int) {
		fn := make([]bool, k)
		dup := make([]bool, rcap)
		for v := lo; v < hi; v++ {
			a, b := int(cnt[v]), int(cnt[v+1])
			if b-a > rcap {
				selectRev(s.revIx[a:b], s.revD[a:b], s.revN[a:b], rcap)
				b = a + rcap
			}
			fwd := s.idx[v*k : (v+1)*k]
			rev, revNew := s.revIx[a:b], s.revN[a:b]
			// A reverse entry that v lists too joins its forward entry,
			// new if either link is.
			copy(fn, s.isNew[v*k:(v+1)*k])
			for r, q := range rev {
				i := slices.Index(fwd, q)
				dup[r] = i >= 0
				if i >= 0 && revNew[r] {
					fn[i] = true
				}
			}
			m := s.sOff[3*v]
			for _, f := range fn {
				if f {
					m++
				}
			}
			for r, f := range revNew {
				if f && !dup[r] {
					m++
				}
			}
			s.sOff[3*v+1] = m
			wn, wo := s.sOff[3*v], m
			for r, q := range fwd {
				if fn[r] {
					s.sIdx[wn] = q
					wn++
				} else {
					s.sIdx[wo] = q
					wo++
				}
			}
			for r, q := range rev {
				if dup[r] {
					continue
				}
				if revNew[r] {
					s.sIdx[wn] = q
					wn++
				} else {
					s.sIdx[wo] = q
					wo++
				}
			}
			s.sOff[3*v+2] = wo
		}
	})
}

// selectRev moves the m smallest reverse entries by (distance, position)
// to the front, sorted, by insertion into the sorted prefix: O(len·m)
// rather than the O(len²) of sorting a hub's long reverse list.
func selectRev(ix []int32, d []float64, nw []bool, m int) {
	less := func(a, b int) bool { return d[a] < d[b] || (d[a] == d[b] && ix[a] < ix[b]) }
	swap := func(a, b int) {
		d[a], d[b] = d[b], d[a]
		ix[a], ix[b] = ix[b], ix[a]
		nw[a], nw[b] = nw[b], nw[a]
	}
	for i := 1; i < len(ix); i++ {
		j := i
		if i >= m {
			// The prefix holds the m smallest of ix[:i], sorted: entry i
			// replaces the m-th if it is smaller.
			if !less(i, m-1) {
				continue
			}
			swap(i, m-1)
			j = m - 1
		}
		for ; j > 0 && less(j, j-1); j-- {
			swap(j, j-1)
		}
	}
}

// dist2f32Bound is dist2Bound in float32 arithmetic: the squared distance
// of a and b summed in index order, or, once a partial sum exceeds bound,
// some value above bound. The descent ranks candidates with it (half the
// memory traffic of float64 coordinates); the distances it returns are
// recomputed exactly at the end.
func dist2f32Bound(a, b []float32, bound float32) float32 {
	return dist2BoundOf(a, b, bound)
}

// dist2f32x10Bound is dist2f32Bound for 10-D points (a and b of length at
// least 10; the first 10 coordinates count), written out for the fixed
// dimension: the same terms summed in the same order with the same early
// exits (after 4 and 8 terms), so it returns exactly dist2f32Bound's
// value, without the loop and with one bounds check per operand. Cost:
// 10 subtractions, multiplications and additions at most.
func dist2f32x10Bound(a, b []float32, bound float32) float32 {
	a, b = a[:10:10], b[:10:10]
	t0, t1, t2, t3 := a[0]-b[0], a[1]-b[1], a[2]-b[2], a[3]-b[3]
	s := float32(t0 * t0)
	s += float32(t1 * t1)
	s += float32(t2 * t2)
	s += float32(t3 * t3)
	if s > bound {
		return s
	}
	t0, t1, t2, t3 = a[4]-b[4], a[5]-b[5], a[6]-b[6], a[7]-b[7]
	s += float32(t0 * t0)
	s += float32(t1 * t1)
	s += float32(t2 * t2)
	s += float32(t3 * t3)
	if s > bound {
		return s
	}
	t0, t1 = a[8]-b[8], a[9]-b[9]
	s += float32(t0 * t0)
	s += float32(t1 * t1)
	return s
}

// offer is a candidate of the local join: position q for the list of
// position t, at float32 squared distance d.
type offer struct {
	t, q int32
	d    float32
}

// joinBucketShift sets the buckets the offers are merged by: bucket b
// holds the offers to positions [b<<joinBucketShift, (b+1)<<joinBucketShift),
// whose rows (4096·k entries, about 0.6 MB at k = 13) stay in a core's L2
// cache while they are merged, and a bucket is merged by one goroutine.
const joinBucketShift = 12

// joinBatch is the number of neighbourhoods joined before their offers are
// merged: it bounds the offers held at once (about 10⁶, 12 MB, in the first
// round at 10⁶ points), and each merge tightens the thresholds that filter
// the next batch's offers.
const joinBatch = 1 << 16

// joinScratch is a goroutine's state in the local join: its offers (in the
// order made, then by target bucket, starting at start[b]) and the
// members, coordinates, thresholds and current lists of the neighbourhood
// being joined.
type joinScratch struct {
	offers, sorted []offer
	start          []int
	mem            []int32
	xs             []float32
	thr            []float32
	rows           []int32
}

// round runs one round of the local join over the neighbourhoods of s.sOff,
// s.sIdx: it sets s.nIdx, s.nDst to the next lists, s.nNew to their new
// flags, and returns the number of new entries. Each batch of
// neighbourhoods is joined in parallel (joinAt), each goroutine recording
// its offers; each goroutine's offers are then sorted by target bucket
// (counting sort), and the buckets merged in parallel (merge). The next
// lists start as the current ones and only take offers better than their
// last entry, so each ends as the k nearest of its current list and all
// its offers, whatever the batches and the goroutine that made each offer.
// pool holds the goroutines' scratch states across rounds. Cost: that of
// the pairs measured, plus O(k) per offer merged and O(n·k) per round.
func (s *descent) round(ctx context.Context, pool *[]*joinScratch) (int64, error) {
	n, k := s.n, s.k
	if len(s.thr) != n {
		s.thr = make([]float32, n)
	}
	parallel.Range(n, n*k, func(lo, hi int) {
		copy(s.nIdx[lo*k:hi*k], s.idx[lo*k:hi*k])
		copy(s.nDst[lo*k:hi*k], s.dst[lo*k:hi*k])
		for p := lo; p < hi; p++ {
			s.thr[p] = float32(s.dst[p*k+k-1]) // exact: float32 values
		}
	})
	nb := (n + 1<<joinBucketShift - 1) >> joinBucketShift
	var mu sync.Mutex
	// One progress pass per round, advanced batch by batch (the batches'
	// own chunk loops report nothing).
	rep := reporterFrom(ctx)
	if rep != nil {
		rep.begin()
		ctx = withReporter(ctx, nil)
	}
	for b0 := 0; b0 < n; b0 += joinBatch {
		b1 := min(n, b0+joinBatch)
		used := 0
		err := parallelChunks(ctx, b1-b0, descentChunk,
			func() *joinScratch {
				mu.Lock()
				defer mu.Unlock()
				if used == len(*pool) {
					*pool = append(*pool, &joinScratch{start: make([]int, nb+1)})
				}
				used++
				return (*pool)[used-1]
			},
			func(sc *joinScratch, lo, hi int) {
				for v := b0 + lo; v < b0+hi; v++ {
					s.joinAt(sc, v)
				}
			})
		if err != nil {
			return 0, err
		}
		scs := (*pool)[:used]
		parallel.Range(len(scs), 1<<30, func(lo, hi int) {
			for _, sc := range scs[lo:hi] {
				sc.byBucket()
			}
		})
		parallel.Range(nb, n*k, func(lo, hi int) {
			for _, sc := range scs {
				for _, o := range sc.sorted[sc.start[lo]:sc.start[hi]] {
					s.merge(o)
				}
			}
		})
		for _, sc := range scs {
			sc.offers = sc.offers[:0]
		}
		if rep != nil {
			rep.report(b1, n)
		}
	}
	var changed atomic.Int64
	parallel.Range(n, n*k, func(lo, hi int) {
		c := 0
		for p := lo; p < hi; p++ {
			r := p * k
			c += flagNew(s.idx[r:r+k], s.dst[r:r+k], s.nIdx[r:r+k], s.nDst[r:r+k], s.nNew[r:r+k])
		}
		changed.Add(int64(c))
	})
	return changed.Load(), nil
}

// byBucket sorts the goroutine's offers into sc.sorted by target bucket
// (counting sort, stable), bucket b from sc.start[b]. Cost O(offers +
// buckets).
func (sc *joinScratch) byBucket() {
	start := sc.start
	clear(start)
	for _, o := range sc.offers {
		start[o.t>>joinBucketShift+1]++
	}
	for b := 1; b < len(start); b++ {
		start[b] += start[b-1]
	}
	if cap(sc.sorted) < len(sc.offers) {
		sc.sorted = make([]offer, len(sc.offers), cap(sc.offers))
	}
	sc.sorted = sc.sorted[:len(sc.offers)]
	fill := start[:len(start)-1]
	for _, o := range sc.offers {
		b := o.t >> joinBucketShift
		sc.sorted[fill[b]] = o
		fill[b]++
	}
	// fill[b] now holds bucket b's end, bucket b+1's start: shift back.
	copy(start[1:], fill)
	start[0] = 0
}

// merge enters offer o into the next list of its target (sorted by
// (distance, position)) unless it is not better than the last entry or
// listed already (an entry listed has the same distance), and updates the
// target's threshold. Cost O(k).
func (s *descent) merge(o offer) {
	k := s.k
	t := int(o.t)
	row, rd := s.nIdx[t*k:(t+1)*k], s.nDst[t*k:(t+1)*k]
	dd, q := float64(o.d), o.q
	if dd > rd[k-1] || (dd == rd[k-1] && q >= row[k-1]) || slices.Contains(row, q) {
		return
	}
	r := k - 1
	for ; r > 0 && (rd[r-1] > dd || (rd[r-1] == dd && row[r-1] > q)); r-- {
	}
	copy(row[r+1:], row[r:k-1])
	copy(rd[r+1:], rd[r:k-1])
	row[r], rd[r] = q, dd
	s.thr[t] = float32(rd[k-1])
}

// joinAt joins position v's neighbourhood: it measures each pair of its
// members of which at least one link is new, and v with each new member,
// and records for each side the offers that could enter its list: not
// farther than its threshold (its last entry when the batch started) and
// not listed already. The members' coordinates, thresholds and lists are
// first copied together (their loads, which miss the cache at 10⁶ points,
// then overlap), then the pairs measured from the copies. In 10-D the
// distance is dist2f32x10Bound's full sum written inline (the same terms
// in the same order, so the same value) without its early exits: their
// branches, taken at random, cost more than the terms they skip (the
// rounds at 10⁶ points took about 10% less time without them). Cost
// O(m²·d) for m members.
func (s *descent) joinAt(sc *joinScratch, v int) {
	a, mid, e := s.sOff[3*v], s.sOff[3*v+1], s.sOff[3*v+2]
	nn := mid - a // new members, mem[1:nn+1]
	if nn == 0 {
		return
	}
	d, k := s.dim, s.k
	sc.mem = append(append(sc.mem[:0], int32(v)), s.sIdx[a:e]...)
	m := len(sc.mem)
	if len(sc.thr) < m {
		sc.xs = make([]float32, 2*m*d)
		sc.thr = make([]float32, 2*m)
		sc.rows = make([]int32, 2*m*k)
	}
	xs, thr, rows := sc.xs[:m*d], sc.thr[:m], sc.rows[:m*k]
	for i, q := range sc.mem {
		if d == 10 {
			src := s.pts[int(q)*10 : int(q)*10+10 : int(q)*10+10]
			dst := xs[i*10 : i*10+10 : i*10+10]
			dst[0], dst[1], dst[2], dst[3], dst[4] = src[0], src[1], src[2], src[3], src[4]
			dst[5], dst[6], dst[7], dst[8], dst[9] = src[5], src[6], src[7], src[8], src[9]
		} else {
			copy(xs[i*d:(i+1)*d], s.pts[int(q)*d:int(q+1)*d])
		}
		thr[i] = s.thr[q]
		copy(rows[i*k:(i+1)*k], s.nIdx[int(q)*k:int(q+1)*k])
	}
	// Member i (v for i = 0, then the new members) with the members after
	// it (only the new ones for v).
	for i := 0; i <= nn; i++ {
		pi, ti := sc.mem[i], thr[i]
		j1 := m
		if i == 0 {
			j1 = 1 + nn
		}
		for j := i + 1; j < j1; j++ {
			qj, tj := sc.mem[j], thr[j]
			w := max(ti, tj)
			var dd float32
			if d == 10 {
				a, b := xs[i*10:i*10+10:i*10+10], xs[j*10:j*10+10:j*10+10]
				t0, t1, t2, t3 := a[0]-b[0], a[1]-b[1], a[2]-b[2], a[3]-b[3]
				t4, t5, t6, t7 := a[4]-b[4], a[5]-b[5], a[6]-b[6], a[7]-b[7]
				t8, t9 := a[8]-b[8], a[9]-b[9]
				dd = float32(t0 * t0)
				dd += float32(t1 * t1)
				dd += float32(t2 * t2)
				dd += float32(t3 * t3)
				dd += float32(t4 * t4)
				dd += float32(t5 * t5)
				dd += float32(t6 * t6)
				dd += float32(t7 * t7)
				dd += float32(t8 * t8)
				dd += float32(t9 * t9)
				if dd > w {
					continue
				}
			} else {
				dd = dist2f32Bound(xs[i*d:(i+1)*d], xs[j*d:(j+1)*d], w)
			}
			if qj == pi {
				continue
			}
			if dd <= ti && !slices.Contains(rows[i*k:(i+1)*k], qj) {
				sc.offers = append(sc.offers, offer{pi, qj, dd})
			}
			if dd <= tj && !slices.Contains(rows[j*k:(j+1)*k], pi) {
				sc.offers = append(sc.offers, offer{qj, pi, dd})
			}
		}
	}
}

// flagNew flags the entries of row (sorted by (distance, position)) that
// are not in old (sorted alike; an entry kept keeps its distance) and
// returns their number, in one merge-like pass: O(k).
func flagNew(old []int32, od []float64, row []int32, rd []float64, rn []bool) int {
	k := len(row)
	c, o := 0, 0
	for r, q := range row {
		d := rd[r]
		for o < k && (od[o] < d || (od[o] == d && old[o] < q)) {
			o++
		}
		rn[r] = !(o < k && od[o] == d && old[o] == q)
		if rn[r] {
			c++
		}
	}
	return c
}

// Recall returns the share of exact neighbours that approx found, over the
// rows of exact (all rows of approx, or the sampled ones: exact row r is
// compared with approx row rows[r]; rows nil means row r). An approximate
// neighbour counts as found when its distance does not exceed the k-th
// exact distance of its row, so ties at the k-th distance are not counted
// as misses. It returns NaN when exact has no rows. Cost O(rows·k).
//
// It panics if approx or exact is nil or malformed (K < 0, Index and Dist2
// of different lengths, or a length that is not a multiple of K), if their
// K differ, if rows is nil and they have different numbers of rows, or if
// rows is not nil and does not have one entry in [0, approx.N()) per row
// of exact.
func Recall(approx, exact *Neighbors, rows []int) float64 {
	checkNeighbors("Recall", "approx", approx)
	checkNeighbors("Recall", "exact", exact)
	if approx.K != exact.K {
		panic(fmt.Sprintf("graph: Recall: approx has K = %d, exact has K = %d; both must have the same K", approx.K, exact.K))
	}
	k := exact.K
	m := exact.N()
	if rows == nil {
		if approx.N() != m {
			panic(fmt.Sprintf("graph: Recall: approx has %d rows, exact has %d and rows is nil", approx.N(), m))
		}
	} else {
		if len(rows) != m {
			panic(fmt.Sprintf("graph: Recall: rows has %d entries, exact has %d rows", len(rows), m))
		}
		for r, i := range rows {
			if i < 0 || i >= approx.N() {
				panic(fmt.Sprintf("graph: Recall: rows[%d] = %d outside [0,%d), the rows of approx", r, i, approx.N()))
			}
		}
	}
	if m == 0 {
		return math.NaN()
	}
	found := 0
	for r := range m {
		i := r
		if rows != nil {
			i = rows[r]
		}
		_, ed := exact.Row(r)
		_, ad := approx.Row(i)
		kth := ed[k-1]
		for _, v := range ad {
			if v <= kth {
				found++
			}
		}
	}
	return float64(found) / float64(m*k)
}

// SampleRecall measures the recall of nb, the k-NN lists of the rows of x,
// against exact search: on every row when sample ≤ 0 or sample ≥ n (an
// exact KNN, cost that of KNN), else on sample rows drawn without
// replacement with seed (a k-d tree and one exact query per sampled row,
// brute force above 16 dimensions: O(sample·n·d) at worst). It returns the
// recall (see Recall) and the rows measured. It returns an error wrapping
// ErrInvalid when x is nil or empty, has a NaN or infinite entry or
// features out of range (as KNN), or when nb is nil or does not have one
// list per row of x; and an error when ctx is cancelled.
func SampleRecall(ctx context.Context, x *mat.Dense, nb *Neighbors, sample int, seed uint64) (recall float64, rows int, err error) {
	if err := checkData(x); err != nil {
		return 0, 0, err
	}
	n, d := x.Dims()
	switch {
	case nb == nil:
		return 0, 0, fmt.Errorf("%w: SampleRecall: the neighbour lists are nil", ErrInvalid)
	case nb.N() != n:
		return 0, 0, fmt.Errorf("%w: %d neighbour lists for %d points", ErrInvalid, nb.N(), n)
	}
	data := denseData(x)
	if err := checkScale(data, n, d, nil); err != nil {
		return 0, 0, err
	}
	if sample <= 0 || sample >= n {
		ex, err := knnData(ctx, data, n, d, nb.K)
		if err != nil {
			return 0, 0, err
		}
		return Recall(nb, ex, nil), n, nil
	}
	rng := rand.New(rand.NewPCG(seed, 0x726563616c6c)) // "recall"
	pick := rng.Perm(n)[:sample]
	slices.Sort(pick)
	ex := &Neighbors{K: nb.K, Index: make([]int32, sample*nb.K), Dist2: make([]float64, sample*nb.K)}
	k := nb.K
	if d <= kdMaxDim && d > 0 {
		t, err := newKDTree(ctx, data, n, d)
		if err != nil {
			return 0, 0, err
		}
		err = parallelChunks(ctx, sample, 64,
			func() *kdQuery { return newKDQuery(t, k) },
			func(s *kdQuery, lo, hi int) {
				for r := lo; r < hi; r++ {
					i := pick[r]
					s.q = data[i*d : (i+1)*d]
					s.self = int32(i)
					s.h.reset()
					s.skip = -1
					clear(s.off)
					s.knn(0, 0, 0)
					s.h.sortedTo(ex.Index[r*k:(r+1)*k], ex.Dist2[r*k:(r+1)*k])
				}
			})
		if err != nil {
			return 0, 0, err
		}
	} else {
		err := parallelChunks(ctx, sample, 8,
			func() *nnHeap { h := newNNHeap(k); return &h },
			func(h *nnHeap, lo, hi int) {
				for r := lo; r < hi; r++ {
					exactKNNRowTo(data, n, d, pick[r], h, ex.Index[r*k:(r+1)*k], ex.Dist2[r*k:(r+1)*k])
				}
			})
		if err != nil {
			return 0, 0, err
		}
	}
	return Recall(nb, ex, pick), sample, nil
}
