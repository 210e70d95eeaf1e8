package kmeans

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// kproblem is weighted kernel k-means (thesis Alg. 10).
type kproblem struct {
	kern    Kernel
	n, k    int
	w       []float64 // never nil
	uniform bool      // weights were nil (k-means++ then draws as Seed does)
	diag    []float64 // K_aa
	wdiag   float64   // Σ_a w_a K_aa
	maxIter int
	tol     float64
}

func newKProblem(kern Kernel, weights []float64) (*kproblem, error) {
	if kern == nil {
		return nil, fmt.Errorf("%w: nil kernel", ErrInvalid)
	}
	if s, ok := kern.(Sum); ok {
		if m := s.mismatch(); m != "" {
			return nil, fmt.Errorf("%w: Sum: %s", ErrInvalid, m)
		}
	}
	n := kern.Dim()
	if n == 0 {
		return nil, fmt.Errorf("%w: no points", ErrInvalid)
	}
	if err := checkWeights(weights, n); err != nil {
		return nil, err
	}
	uniform := weights == nil
	if uniform {
		weights = ones(n)
	}
	p := &kproblem{kern: kern, n: n, w: weights, uniform: uniform, diag: make([]float64, n)}
	for i := range p.diag {
		v := kern.Diag(i)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: kernel diagonal entry %d is %v", ErrInvalid, i, v)
		}
		p.diag[i] = v
		p.wdiag += weights[i] * v
	}
	return p, nil
}

// KernelCluster partitions the n points of kern into s.K clusters with
// weighted kernel k-means (thesis Alg. 10, seed 000 §4.2.1; Dhillon et al.),
// minimising Σ_c Σ_{a∈c} w_a ‖φ(a) − m_c‖² (eq. 4.2.2) with the distances of
// eq. 4.2.3. Each iteration assigns every point to its nearest weighted
// centroid in feature space (ties to the lowest index) and refills empty
// clusters as vector k-means does (package documentation). A run stops when
// the partition no longer changes, the objective is stable (Settings.Tol),
// or after Settings.MaxIter iterations. With a positive semidefinite kernel
// the objective never increases; with an indefinite one (σ below the PSD
// shift in Table 4.3) it may, and the iteration can oscillate: a run that
// returns to the partition of two iterations back stops there, keeps the
// better of the two partitions and reports Converged = false.
//
// weights nil means uniform weights; all must be finite and > 0 (the
// weights of Table 4.3 come with RatioAssociation, RatioCut and
// NormalizedCut). Runs start from s.Init when it is set, and otherwise from
// k-means++ in feature space (KernelSeed) followed by assignment to the
// nearest seed, once per restart. s.Update, s.Weights and s.Centers do not
// apply (s.Centers set is an error).
//
// Errors wrap ErrInvalid for invalid input, ErrNonFinite when the
// objective of the finite kernel and weights overflows (kernel entries or
// weights near the float64 range), and ctx.Err() on cancellation.
//
// Cost: one Kernel.ClusterSumsTo plus O(n·k) per iteration, so
// O(nnz + n·k) for a GraphKernel; seeding costs K of them.
func KernelCluster(ctx context.Context, kern Kernel, weights []float64, s Settings) (*Result, error) {
	p, err := newKProblem(kern, weights)
	if err != nil {
		return nil, err
	}
	cfg, err := s.config(p.n)
	if err != nil {
		return nil, err
	}
	if s.Centers != nil {
		return nil, fmt.Errorf("%w: Centers do not apply to kernel k-means (use Init)", ErrInvalid)
	}
	p.k, p.maxIter, p.tol = cfg.k, cfg.maxIter, cfg.tol
	res, err := runRestarts(ctx, cfg, func(ctx context.Context, rnd *rand.Rand, inner int) (*outcome, error) {
		var labels []int
		if s.Init != nil {
			labels = append([]int(nil), s.Init...)
		} else {
			var err error
			if _, labels, err = p.seed(ctx, rnd, inner); err != nil {
				return nil, err
			}
		}
		return p.run(ctx, labels, inner)
	})
	if err != nil {
		return nil, err
	}
	if v := res.Distortion; math.IsNaN(v) || math.IsInf(v, 0) {
		return nil, fmt.Errorf("%w: kernel k-means objective %v: the kernel entries (or the weights) are out of floating-point range; rescale them", ErrNonFinite, v)
	}
	return res, nil
}

// KernelSeed returns the indices of k points chosen by k-means++ in the
// feature space of kern (the D² law of thesis Alg. 4 with
// ‖φ(a) − φ(b)‖² = K_aa + K_bb − 2K_ab, negative values of an indefinite
// kernel counted as 0), with probability ∝ w·D². weights nil means uniform;
// src nil means rand.NewPCG(DefaultSeed, DefaultSeed). Errors wrap
// ErrInvalid. Cost: k calls of Kernel.ClusterSumsTo with one column.
func KernelSeed(kern Kernel, k int, weights []float64, src rand.Source) ([]int, error) {
	p, err := newKProblem(kern, weights)
	if err != nil {
		return nil, err
	}
	if k < 1 || k > p.n {
		return nil, fmt.Errorf("%w: k = %d, want 1 ≤ k ≤ n = %d", ErrInvalid, k, p.n)
	}
	p.k = k
	if src == nil {
		src = rand.NewPCG(DefaultSeed, DefaultSeed)
	}
	idx, _, _ := p.seed(context.Background(), rand.New(src), 1)
	return idx, nil
}

// column sets col[a] = K_ac.
func (p *kproblem) column(col *mat.Dense, lab []int, c int) {
	lab[c] = 0
	p.kern.ClusterSumsTo(col, lab, nil)
	lab[c] = -1
}

// seed runs kernel k-means++ and returns the seeds and the partition that
// assigns each point to its nearest seed (empty clusters refilled). The
// error is d2Sample's.
func (p *kproblem) seed(ctx context.Context, rnd *rand.Rand, workers int) ([]int, []int, error) {
	n, k := p.n, p.k
	lab := make([]int, n)
	for i := range lab {
		lab[i] = -1
	}
	cols := make([]*mat.Dense, 0, k)
	minD := make([]float64, n)
	for i := range minD {
		minD[i] = math.Inf(1)
	}
	var cur *mat.Dense
	w := p.w
	if p.uniform {
		w = nil
	}
	idx, err := d2Sample(ctx, n, k, w, minD, rnd, workers, func(c int) {
		cur = mat.NewDense(n, 1, nil)
		p.column(cur, lab, c)
		cols = append(cols, cur)
	}, func(c, lo, hi int) {
		kc := cur.RawMatrix().Data
		for a := lo; a < hi; a++ {
			v := max(0, p.diag[a]+p.diag[c]-2*kc[a])
			if v < minD[a] {
				minD[a] = v
			}
		}
	})
	if err != nil {
		return nil, nil, err
	}
	last := mat.NewDense(n, 1, nil)
	p.column(last, lab, idx[k-1])
	cols = append(cols, last)
	labels := make([]int, n)
	dist := make([]float64, n)
	for a := 0; a < n; a++ {
		best, bj := math.Inf(1), 0
		for j, c := range idx {
			if v := p.diag[a] + p.diag[c] - 2*cols[j].RawMatrix().Data[a]; v < best {
				best, bj = v, j
			}
		}
		labels[a], dist[a] = bj, best
	}
	counts := make([]int, k)
	for _, l := range labels {
		counts[l]++
	}
	p.refill(labels, dist, counts)
	return idx, labels, nil
}

// stats sets s_c = Σ_{a∈c} w_a and g_c = Σ_{a,b∈c} w_a w_b K_ab from the
// cluster sums f and returns the objective Σ_a w_a K_aa − Σ_c g_c/s_c.
func (p *kproblem) stats(labels []int, f *mat.Dense, s, g []float64) float64 {
	clear(s)
	clear(g)
	raw := f.RawMatrix()
	for a, l := range labels {
		s[l] += p.w[a]
		g[l] += p.w[a] * raw.Data[a*raw.Stride+l]
	}
	j := p.wdiag
	for c := range s {
		if s[c] > 0 {
			j -= g[c] / s[c]
		}
	}
	return j
}

// run iterates Alg. 10 from labels (owned; every cluster non-empty). Besides
// the stopping rules of KernelCluster it stops on a 2-cycle (a partition
// equal to the one two iterations back, which only an indefinite kernel can
// produce) and keeps the better of the two partitions.
func (p *kproblem) run(ctx context.Context, labels []int, workers int) (*outcome, error) {
	n, k := p.n, p.k
	f := mat.NewDense(n, k, nil)
	s, g := make([]float64, k), make([]float64, k)
	inv, q := make([]float64, k), make([]float64, k)
	next := make([]int, n)
	older := make([]int, n) // the partition before labels
	haveOlder := false
	var olderJ float64
	dist := make([]float64, n)
	counts := make([]int, k)
	p.kern.ClusterSumsTo(f, labels, p.w)
	prev := p.stats(labels, f, s, g)
	o := &outcome{value: prev}
	for it := 1; it <= p.maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for c := range s {
			inv[c], q[c] = 2/s[c], g[c]/(s[c]*s[c])
		}
		raw := f.RawMatrix()
		err := forBlocks(ctx, n, workers, func(_, lo, hi int) {
			for a := lo; a < hi; a++ {
				fa := raw.Data[a*raw.Stride : a*raw.Stride+k]
				best, bj := math.Inf(1), 0
				for c, v := range fa {
					if d := p.diag[a] - v*inv[c] + q[c]; d < best {
						best, bj = d, c
					}
				}
				next[a], dist[a] = bj, best
			}
		})
		if err != nil {
			return nil, err
		}
		clear(counts)
		for _, l := range next {
			counts[l]++
		}
		o.reseeds += p.refill(next, dist, counts)
		changed := !slices.Equal(next, labels)
		cycle := changed && haveOlder && slices.Equal(next, older)
		older, labels, next = labels, next, older
		olderJ, haveOlder = prev, true
		p.kern.ClusterSumsTo(f, labels, p.w)
		j := p.stats(labels, f, s, g)
		o.trace = append(o.trace, j)
		o.iters, o.value = it, j
		if cycle {
			if olderJ < j {
				labels, o.value = older, olderJ
			}
			break
		}
		if !changed || math.Abs(prev-j) <= p.tol*math.Abs(prev) {
			o.converged = true
			break
		}
		prev = j
	}
	o.labels = labels
	return o, nil
}

// refill is vproblem.refill without centres: the point of largest
// w_a·dist[a] from a cluster with at least two points fills each empty
// cluster (its distance to its own singleton centroid is 0, so the
// objective decreases).
func (p *kproblem) refill(labels []int, dist []float64, counts []int) int {
	moved := 0
	for c := 0; c < p.k; c++ {
		if counts[c] > 0 {
			continue
		}
		bi, bv := -1, 0.0
		for i, l := range labels {
			if counts[l] < 2 {
				continue
			}
			if v := p.w[i] * dist[i]; bi < 0 || v > bv {
				bi, bv = i, v
			}
		}
		counts[labels[bi]]--
		labels[bi], dist[bi] = c, 0
		counts[c] = 1
		moved++
	}
	return moved
}

// Objective returns the weighted kernel k-means objective
// Σ_c Σ_{a∈c} w_a ‖φ(a) − m_c‖² = Σ_a w_a K_aa − Σ_c (Σ_{a,b∈c} w_a w_b K_ab)/s_c
// (thesis eq. 4.2.2–4.2.3) of the partition labels (values in 0…k−1, empty
// clusters allowed). weights nil means uniform. Errors wrap ErrInvalid.
// Cost: one Kernel.ClusterSumsTo.
func Objective(kern Kernel, weights []float64, labels []int, k int) (float64, error) {
	p, err := newKProblem(kern, weights)
	if err != nil {
		return 0, err
	}
	if k < 1 {
		return 0, fmt.Errorf("%w: k = %d, want ≥ 1", ErrInvalid, k)
	}
	if len(labels) != p.n {
		return 0, fmt.Errorf("%w: %d labels for %d points", ErrInvalid, len(labels), p.n)
	}
	for i, l := range labels {
		if l < 0 || l >= k {
			return 0, fmt.Errorf("%w: label %d of point %d outside [0,%d)", ErrInvalid, l, i, k)
		}
	}
	f := mat.NewDense(p.n, k, nil)
	p.kern.ClusterSumsTo(f, labels, p.w)
	return p.stats(labels, f, make([]float64, k), make([]float64, k)), nil
}
