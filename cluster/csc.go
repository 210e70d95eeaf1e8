package cluster

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
)

// CSC is the constrained spectral clustering (cSC) of Wacquet, Poisson
// Caillault, Hamad and Hébert (seed 002 §5). Constraints form the signed
// matrix Q (q_ij = +w for a must-link, −w for a cannot-link, eq. 35) and
//
//	W_cSC = γW + (1 − γ)Q                                  (eq. 41)
//	D̄_ii = Σ_j |W_cSC,ij|  (signed degree, eq. 43)
//	L̄_cSC = D̄^{-1/2}(D̄ − W_cSC)D̄^{-1/2}                      (eq. 42, 44)
//
// (the signed Laplacian of Kunegis et al., positive semidefinite). The rows
// of the K eigenvectors of L̄_cSC with the smallest eigenvalues are clustered
// by k-means (§5, lines 236–243).
//
// A node with D̄_ii = 0 (no edge and no constraint) is an error wrapping
// graph.ErrIsolated. Cost: O(nnz + |S| log) to build, one sparse eigensolve
// of O(nnz·k) per iteration, and k-means.
type CSC struct {
	// Gamma is the balance γ ∈ (0, 1] between the graph and the
	// constraints. If Gamma is 0, 0.5 is used (seed 002 §6, line 299).
	Gamma float64
	// NormalizeRows scales each embedding row to unit length before
	// k-means. Seed 002 says the projected data are normalized to unit length
	// when describing FCSC (line 298); for cSC it is not stated, so the
	// default is false.
	NormalizeRows bool
}

// Name returns "csc".
func (CSC) Name() string { return "csc" }

// signedCSR is a sparse symmetric matrix with entries of any sign.
type signedCSR struct {
	n   int
	ptr []int
	idx []int
	w   []float64
	dis []float64 // D̄^{-1/2}
}

type entry struct {
	i, j int
	v    float64
}

// newSignedCSR sums duplicate entries and drops zeros.
func newSignedCSR(n int, es []entry) *signedCSR {
	sort.Slice(es, func(a, b int) bool {
		if es[a].i != es[b].i {
			return es[a].i < es[b].i
		}
		return es[a].j < es[b].j
	})
	m := &signedCSR{n: n, ptr: make([]int, n+1)}
	for t := 0; t < len(es); {
		e := es[t]
		v := 0.0
		for t < len(es) && es[t].i == e.i && es[t].j == e.j {
			v += es[t].v
			t++
		}
		if v != 0 {
			m.idx = append(m.idx, e.j)
			m.w = append(m.w, v)
			m.ptr[e.i+1]++
		}
	}
	for i := 0; i < n; i++ {
		m.ptr[i+1] += m.ptr[i]
	}
	return m
}

// Dim returns n.
func (m *signedCSR) Dim() int { return m.n }

// MulTo sets dst = (I − D̄^{-1/2} W D̄^{-1/2}) x.
func (m *signedCSR) MulTo(dst, x *mat.Dense) {
	_, p := x.Dims()
	xr, dm := x.RawMatrix(), dst.RawMatrix()
	for i := 0; i < m.n; i++ {
		out := dm.Data[i*dm.Stride : i*dm.Stride+p]
		clear(out)
		for t := m.ptr[i]; t < m.ptr[i+1]; t++ {
			j := m.idx[t]
			v := m.w[t] * m.dis[j]
			for c, xv := range xr.Data[j*xr.Stride : j*xr.Stride+p] {
				out[c] += v * xv
			}
		}
		s := m.dis[i]
		for c, xv := range xr.Data[i*xr.Stride : i*xr.Stride+p] {
			out[c] = xv - s*out[c]
		}
	}
}

// Cluster partitions p.Graph into p.K clusters using p.Constraints and the
// pairs of p.Labels. Without constraints it is NJW without row
// normalization on γW, i.e. on W.
func (c CSC) Cluster(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	start := time.Now()
	if err := checkProblem(p, true); err != nil {
		return nil, err
	}
	gamma := c.Gamma
	if gamma == 0 {
		gamma = 0.5
	}
	if !(gamma > 0 && gamma <= 1) {
		return nil, fmt.Errorf("%w: csc: γ = %v outside (0, 1]", ErrInvalid, gamma)
	}
	s = s.orDefault()
	pairs, err := pairsOf(p, "csc", maxLabelPairs)
	if err != nil {
		return nil, err
	}
	l, err := newCSCLaplacian(p.Graph, pairs, gamma)
	if err != nil {
		return nil, err
	}
	res, err := s.solve(ctx, eigen.Problem{A: l, K: p.K, Which: eigen.Smallest})
	if err != nil && res == nil {
		return nil, err
	}
	var warnings []string
	if err != nil {
		warnings = append(warnings, err.Error())
	}
	u := mat.DenseCopyOf(res.Vectors)
	if c.NormalizeRows {
		normalizeRows(u)
	}
	km, err := runKMeans(ctx, u, p.K, withSeedStream(s, streamCSC), 10, nil)
	if err != nil {
		return nil, err
	}
	return &Result{
		Labels:      km.Labels,
		K:           p.K,
		Eigenvalues: res.Values,
		Embedding:   u,
		Objective:   km.Distortion,
		Iterations:  km.Iterations,
		Runtime:     time.Since(start),
		Warnings:    warnings,
	}, nil
}

// newCSCLaplacian returns L̄_cSC of seed 002 eq. 42–44 as an operator.
func newCSCLaplacian(g *graph.Graph, pairs []constraint.Pair, gamma float64) (*signedCSR, error) {
	n := g.N()
	es := make([]entry, 0, g.NNZ()+2*len(pairs))
	for i := 0; i < n; i++ {
		idx, w := g.Row(i)
		for t, j := range idx {
			es = append(es, entry{i, int(j), gamma * w[t]})
		}
	}
	for _, q := range pairs {
		v := (1 - gamma) * q.W()
		if q.Kind == constraint.CannotLink {
			v = -v
		}
		es = append(es, entry{q.I, q.J, v}, entry{q.J, q.I, v})
	}
	m := newSignedCSR(n, es)
	m.dis = make([]float64, n)
	for i := 0; i < n; i++ {
		var d float64
		for t := m.ptr[i]; t < m.ptr[i+1]; t++ {
			d += math.Abs(m.w[t])
		}
		if d <= 0 {
			return nil, fmt.Errorf("cluster: csc: %w: node %d has no edge and no constraint, so its signed degree is 0", graph.ErrIsolated, i)
		}
		m.dis[i] = 1 / math.Sqrt(d)
	}
	return m, nil
}
