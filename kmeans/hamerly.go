package kmeans

import (
	"context"
	"math"
	"slices"
)

// The bounded assignment skips the points whose nearest centre provably has
// not changed, after G. Hamerly, "Making k-means even faster", Proc. 2010
// SIAM Int. Conf. on Data Mining, pp. 130–140. Each point i keeps an upper
// bound u_i on its distance to its centre a_i and one lower bound l_i on its
// distance to every other centre; each centre c has
// s(c) = ½ min_{c'≠c} ‖μ_c − μ_c'‖. For j ≠ a_i, ‖x_i − μ_j‖ ≥ l_i and, by
// the triangle inequality, ‖x_i − μ_j‖ ≥ ‖μ_a − μ_j‖ − u_i ≥ 2s(a) − u_i, so
// u_i < max(s(a_i), l_i) proves that a_i is strictly the nearest centre and
// the k distances of point i need not be computed. When the centres move by
// δ_c, l_i decreases by max_{c≠a_i} δ_c. Hamerly increases u_i by δ_{a_i};
// here u_i is exact instead, because the distortion step computes
// ‖x_i − μ_{a_i}‖² with the moved centres anyway. The bounds only use the
// centre drift, so they hold for the Chatel update as well as for Lloyd's.
//
// Exactness. The plain assignment picks the lowest index among the centres
// whose computed squared distance is smallest. The bounded one must pick the
// same centre, including on ties and rounding. Every bound is therefore a
// guaranteed bound on the exact distance, derived from computed squared
// distances with explicit rounding allowances (see bounds), and a point is
// skipped only when every other exact distance exceeds u_i = hi(q_a), q_a
// the computed ‖x_i − μ_{a_i}‖²: directly through l_i > u_i, or through
// ‖x_i − μ_j‖ ≥ 2s(a_i) − ‖x_i − μ_{a_i}‖ > 2u_i − u_i. Then the computed
// squared distance to a_i is strictly below every other computed squared
// distance, so the plain assignment also picks a_i, whatever the indices. Every other point (ties, near ties,
// coincident centres, NaN or infinite distances) gets all its k distances
// computed exactly as the plain assignment computes them.

// boundAbs is an absolute allowance (in distance units) that covers the
// rounding of squared distances in the subnormal range, where relative
// error bounds fail: there the absolute error of sqDist is at most about
// d·2⁻¹⁰⁷⁴, whose square root is far below 10⁻¹⁵⁰ for any d < 10²⁰.
const boundAbs = 1e-150

// shrink rounds a lower bound down: for y > 0, fl(fl(y)·shrink) < y.
const shrink = 1 - 0x1p-50

// bounds turns computed squared distances into bounds on exact distances.
//
// In d dimensions sqDist sums d rounded squares of rounded differences, so
// its result q satisfies |q − D²| ≤ γ·D² with γ = (d+2)·2⁻⁵³(1+o(1))
// (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., §4.2,
// for a sum of non-negative terms), outside the subnormal range. With
// rel = (d+8)·2⁻⁵² ≥ 2γ + 12·2⁻⁵³:
//
//	hi(q) = √q·(1+rel) + boundAbs ≥ D,  lo(q) = √q·(1−rel) − boundAbs ≤ D,
//
// and if an exact distance D_j exceeds hi(q_a) then q_j > q_a: the computed
// squared distances are ordered as the exact distances are.
type bounds struct {
	up, down float64 // 1 + rel and 1 − rel
}

func newBounds(d int) bounds {
	rel := float64(d+8) * 0x1p-52
	return bounds{up: 1 + rel, down: 1 - rel}
}

// hi returns an upper bound on the exact distance whose square was computed
// as q (+Inf for q = +Inf, NaN for NaN).
func (b bounds) hi(q float64) float64 { return math.Sqrt(q)*b.up + boundAbs }

// lo returns a lower bound on the exact distance whose square was computed
// as q: 0 when q overflowed, NaN for NaN.
func (b bounds) lo(q float64) float64 {
	if q > math.MaxFloat64 {
		return 0
	}
	return math.Sqrt(q)*b.down - boundAbs
}

// runBounded is run with the bounded assignment. It returns exactly what
// runPlain returns: the same labels, centres, distortions, iterations and
// reseeds, bit for bit.
//
// Besides skipping points, it reads the data once per iteration instead of
// three times: the distortion of iteration t (with the moved centres), the
// assignment of iteration t+1 (which needs ‖x_i − μ_{a_i}‖² just computed)
// and, on one goroutine, the cluster sums of iteration t+1 are formed in one
// pass, point after point. The sums are still added in point order, so they
// are those of runPlain; on several goroutines they are formed afterwards in
// a serial pass, and after a reseed (which moves points) they are redone.
// The assignment made for an iteration that does not happen (the run has
// converged) is discarded.
//
// Cost: O(n·k·d) for the first iteration, then O(n·d + k²·d) plus O(k·d) per
// point that cannot be skipped; O(n + k·d) extra memory.
func (p *vproblem) runBounded(ctx context.Context, centers []float64, init []int, workers int) (*outcome, error) {
	n, d, k := p.n, p.d, p.k
	r := &boundedRun{p: p, bd: newBounds(d), centers: centers,
		labels: make([]int, n), next: make([]int, n),
		dist: make([]float64, n), lower: make([]float64, n), half: make([]float64, k),
		wsum: make([]float64, k), sums: make([]float64, k*d)}
	if init != nil {
		copy(r.labels, init)
	} else {
		for i := range r.labels {
			r.labels[i] = -1
		}
	}
	old := make([]float64, k*d) // the centres before the update
	counts := make([]int, k)
	nb := numBlocks(n)
	partial := make([]float64, nb)
	skips := make([]int, nb)
	serial := min(workers, nb) <= 1 // forBlocks then visits the points in order
	o := &outcome{centers: centers}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if p.maxIter >= 1 {
		// The first assignment compares every point with every centre.
		err := forBlocks(ctx, n, workers, func(b, lo, hi int) {
			_, skips[b] = r.pass(lo, hi, false, true, serial)
		})
		if err != nil {
			return nil, err
		}
	}
	prev := math.NaN()
	for it := 1; it <= p.maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// r.next is the assignment of this iteration (Alg. 4 line 7; ties
		// go to the lowest index) and, if serial, r.sums its cluster sums.
		for _, v := range skips {
			o.skipped += v
		}
		clear(counts)
		for _, l := range r.next {
			counts[l]++
		}
		// A reseed moves a point and a centre outside the bounds' control:
		// the next assignment is then a full one.
		reseeds := p.refill(centers, r.next, r.dist, counts)
		o.reseeds += reseeds
		r.bounded = reseeds == 0
		changed := !slices.Equal(r.labels, r.next)
		r.labels, r.next = r.next, r.labels
		if !serial || reseeds > 0 {
			r.clearSums()
			for i, l := range r.labels {
				r.addPoint(i, l)
			}
		}
		if r.bounded {
			copy(old, centers)
		}
		// Update (Alg. 4 line 9, or the plain mean).
		p.moveCenters(centers, r.wsum, r.sums)
		if r.bounded {
			r.drift(old)
			p.halfGaps(r.half, centers, r.bd)
		}
		// Distortion with the updated centres (Alg. 4 line 10), fused with
		// the next assignment.
		assign := it < p.maxIter
		if assign && serial {
			r.clearSums()
		}
		err := forBlocks(ctx, n, workers, func(b, lo, hi int) {
			partial[b], skips[b] = r.pass(lo, hi, true, assign, serial)
		})
		if err != nil {
			return nil, err
		}
		j := sumOrdered(partial)
		o.trace = append(o.trace, j)
		o.iters, o.value = it, j
		if (p.update == Lloyd && !changed) || (it > 1 && math.Abs(prev-j) <= p.tol*math.Abs(prev)) {
			o.converged = true
			break
		}
		prev = j
	}
	o.labels = r.labels
	return o, nil
}

// boundedRun is the state of runBounded.
type boundedRun struct {
	p       *vproblem
	bd      bounds
	centers []float64
	labels  []int // the partition of the current iteration
	next    []int // the assignment of the next iteration
	// dist[i] is the computed ‖x_i − μ_{labels[i]}‖² for the current
	// centres, as the distortion step computes it: what the plain
	// assignment computes for a point whose centre does not change.
	dist  []float64
	lower []float64 // l_i: lower bound on ‖x_i − μ_j‖ for every j ≠ labels[i]
	half  []float64 // s(c), lower bounds
	// Upper bounds on the last centre moves: every centre moved at most
	// m1, every centre other than j1 at most m2.
	m1, m2     float64
	j1         int
	bounded    bool // whether dist, lower and labels hold valid bounds
	wsum, sums []float64
}

// drift sets m1, j1 and m2 from the centres old before the update: m1 is
// the largest centre move (at j1) and m2 the largest among the other
// centres, so that the centres other than labels[i] moved at most m1, or m2
// if labels[i] = j1. A NaN move makes both NaN, so that no point is skipped
// until the next full assignment.
func (r *boundedRun) drift(old []float64) {
	d := r.p.d
	r.m1, r.m2, r.j1 = 0, 0, -1
	for j := 0; j < r.p.k; j++ {
		v := r.bd.hi(sqDist(old[j*d:(j+1)*d], r.centers[j*d:(j+1)*d]))
		switch {
		case math.IsNaN(v):
			r.m1, r.m2 = v, v
		case v > r.m1:
			r.m1, r.m2, r.j1 = v, r.m1, j
		case v > r.m2:
			r.m2 = v
		}
	}
}

// pass visits the points lo…hi−1 in order. If distort, it sets dist[i] for
// the current centres, lowers the lower bounds by the drift and returns
// Σ w_i·dist[i] summed in point order (the distortion loop of runPlain, four
// points at a time). If assign, it then sets next[i] to the nearest centre,
// skipping the points the bounds allow, and returns the number skipped; if
// also sum, it adds each point to the sums of cluster next[i].
func (r *boundedRun) pass(lo, hi int, distort, assign, sum bool) (float64, int) {
	p, d := r.p, r.p.d
	c := func(i int) []float64 { l := r.labels[i]; return r.centers[l*d : (l+1)*d] }
	dj := make([]float64, p.k)
	var s float64
	skipped := 0
	for i0 := lo; i0 < hi; i0 += 4 {
		i1 := min(i0+4, hi)
		if distort {
			if i1-i0 == 4 {
				i := i0
				v0, v1, v2, v3 := sqDist4(p.row(i), c(i), p.row(i+1), c(i+1), p.row(i+2), c(i+2), p.row(i+3), c(i+3))
				r.dist[i], r.dist[i+1], r.dist[i+2], r.dist[i+3] = v0, v1, v2, v3
			} else {
				for i := i0; i < i1; i++ {
					r.dist[i] = sqDist(p.row(i), c(i))
				}
			}
			for i := i0; i < i1; i++ {
				s += p.wt(i) * r.dist[i]
			}
			if r.bounded {
				for i := i0; i < i1; i++ {
					delta := r.m1
					if r.labels[i] == r.j1 {
						delta = r.m2
					}
					r.lower[i] = (r.lower[i] - delta) * shrink
				}
			}
		}
		if !assign {
			continue
		}
		for i := i0; i < i1; i++ {
			if r.assign(i, dj, distort) {
				skipped++
			}
			if sum {
				r.addPoint(i, r.next[i])
			}
		}
	}
	return s, skipped
}

// assign sets next[i] to the nearest centre of point i (the lowest index on
// ties) and reports whether the bounds proved it without computing the k
// distances. Otherwise it sets dist[i] and lower[i] from the k computed
// squared distances; if fresh, dist[i] already holds the one to centre
// labels[i], which is not computed again.
func (r *boundedRun) assign(i int, dj []float64, fresh bool) bool {
	known := -1
	if fresh {
		known = r.labels[i]
	}
	if r.bounded {
		a := r.labels[i]
		if r.bd.hi(r.dist[i]) < max(r.half[a], r.lower[i]) {
			r.next[i] = a
			return true
		}
	}
	if known >= 0 {
		dj[known] = r.dist[i]
	}
	sqDists(dj, r.p.row(i), r.centers, r.p.d, known)
	best, second, bj := math.Inf(1), math.Inf(1), 0
	for j, v := range dj {
		if v < best {
			best, second, bj = v, best, j
		} else if v < second {
			second = v
		}
	}
	r.next[i], r.dist[i], r.lower[i] = bj, best, r.bd.lo(second)
	return false
}

// clearSums zeroes the cluster weights and sums.
func (r *boundedRun) clearSums() {
	clear(r.wsum)
	clear(r.sums)
}

// addPoint adds point i to the weight and weighted sum of cluster l, as the
// update of runPlain does (without the product by a uniform weight 1, which
// is exact).
func (r *boundedRun) addPoint(i, l int) {
	p, d := r.p, r.p.d
	s := r.sums[l*d : (l+1)*d]
	if p.w == nil {
		r.wsum[l]++
		for t, v := range p.row(i) {
			s[t] += v
		}
		return
	}
	wi := p.w[i]
	r.wsum[l] += wi
	for t, v := range p.row(i) {
		s[t] += wi * v
	}
}

// halfGaps sets half[c] to a lower bound on s(c) = ½ min_{c'≠c} ‖μ_c − μ_c'‖
// (+Inf when k = 1, NaN when a centre distance is NaN).
func (p *vproblem) halfGaps(half, centers []float64, bd bounds) {
	d, k := p.d, p.k
	for c := range half {
		half[c] = math.Inf(1)
	}
	for c := 0; c < k; c++ {
		for c2 := c + 1; c2 < k; c2++ {
			g := 0.5 * bd.lo(sqDist(centers[c*d:(c+1)*d], centers[c2*d:(c2+1)*d]))
			half[c], half[c2] = min(half[c], g), min(half[c2], g)
		}
	}
}

// sqDists sets out[j] = sqDist(x, μ_j) for the len(out) centres stored as
// rows of length d in c, except out[skip] (skip < 0 skips none), four at a
// time.
func sqDists(out, x, c []float64, d, skip int) {
	var idx [4]int
	m := 0
	flush := func() {
		switch m {
		case 4:
			out[idx[0]], out[idx[1]], out[idx[2]], out[idx[3]] = sqDist4(x, c[idx[0]*d:(idx[0]+1)*d],
				x, c[idx[1]*d:(idx[1]+1)*d], x, c[idx[2]*d:(idx[2]+1)*d], x, c[idx[3]*d:(idx[3]+1)*d])
		default:
			for _, j := range idx[:m] {
				out[j] = sqDist(x, c[j*d:(j+1)*d])
			}
		}
		m = 0
	}
	for j := range out {
		if j == skip {
			continue
		}
		idx[m] = j
		if m++; m == 4 {
			flush()
		}
	}
	flush()
}

// sqDist4 returns sqDist(a0, b0), …, sqDist(a3, b3), all of length
// len(a0). The four sums are independent chains, which the processor
// overlaps, and each is formed in the same order as by sqDist, so the values
// are identical to sqDist's.
func sqDist4(a0, b0, a1, b1, a2, b2, a3, b3 []float64) (s0, s1, s2, s3 float64) {
	n := len(a0)
	b0, a1, b1, a2, b2, a3, b3 = b0[:n], a1[:n], b1[:n], a2[:n], b2[:n], a3[:n], b3[:n]
	for t := 0; t < n; t++ {
		e0 := a0[t] - b0[t]
		e1 := a1[t] - b1[t]
		e2 := a2[t] - b2[t]
		e3 := a3[t] - b3[t]
		s0 += e0 * e0
		s1 += e1 * e1
		s2 += e2 * e2
		s3 += e3 * e3
	}
	return s0, s1, s2, s3
}
