package kmeans

import (
	"context"
	"fmt"
	"math"
	"runtime"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/graph"
)

// Kernel is a symmetric n×n kernel matrix K known through the two things
// weighted kernel k-means needs: its diagonal and its cluster sums.
// Implementations must be safe for concurrent use.
type Kernel interface {
	// Dim returns n.
	Dim() int
	// Diag returns K_ii.
	Diag(i int) float64
	// ClusterSumsTo sets dst[a,c] = Σ_{b : labels[b] = c} w_b K_ab for every
	// point a and every column c of dst (n×k). Points with labels[b] < 0 are
	// left out; a label ≥ k, or dst or labels of the wrong size, is a caller
	// bug and panics. A nil w means w_b = 1.
	ClusterSumsTo(dst *mat.Dense, labels []int, w []float64)
}

func checkSums(n int, dst *mat.Dense, labels []int, w []float64) {
	r, _ := dst.Dims()
	if r != n || len(labels) != n || (w != nil && len(w) != n) {
		panic(fmt.Sprintf("kmeans: ClusterSumsTo size mismatch: kernel %d, dst rows %d, labels %d, weights %d", n, r, len(labels), len(w)))
	}
}

// DenseKernel is a kernel held as a full n×n matrix, for small n.
type DenseKernel struct {
	n int
	a []float64 // row-major, both triangles
}

// NewDenseKernel copies the symmetric matrix k into a DenseKernel. It
// returns an error wrapping ErrInvalid when k is empty or has a NaN or
// infinite entry. Memory n² floats; ClusterSumsTo costs O(n²).
func NewDenseKernel(k mat.Symmetric) (*DenseKernel, error) {
	if k == nil {
		return nil, fmt.Errorf("%w: nil kernel", ErrInvalid)
	}
	n := k.SymmetricDim()
	if n == 0 {
		return nil, fmt.Errorf("%w: empty kernel", ErrInvalid)
	}
	a := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := k.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: kernel entry (%d,%d) is %v", ErrInvalid, i, j, v)
			}
			a[i*n+j], a[j*n+i] = v, v
		}
	}
	return &DenseKernel{n: n, a: a}, nil
}

// Dim returns n.
func (k *DenseKernel) Dim() int { return k.n }

// Diag returns K_ii.
func (k *DenseKernel) Diag(i int) float64 { return k.a[i*k.n+i] }

// ClusterSumsTo implements Kernel in O(n²) time.
func (k *DenseKernel) ClusterSumsTo(dst *mat.Dense, labels []int, w []float64) {
	n := k.n
	checkSums(n, dst, labels, w)
	_, nc := dst.Dims()
	raw := dst.RawMatrix()
	forBlocks(context.Background(), n, runtime.GOMAXPROCS(0), func(_, lo, hi int) {
		for a := lo; a < hi; a++ {
			out := raw.Data[a*raw.Stride : a*raw.Stride+nc]
			clear(out)
			for b, v := range k.a[a*n : (a+1)*n] {
				l := labels[b]
				if l < 0 {
					continue
				}
				if w != nil {
					v *= w[b]
				}
				out[l] += v
			}
		}
	})
}

// GraphKernel is the sparse kernel K = diag(δ) + S·W·S, where W is the
// affinity matrix of a graph (self loops included) and S = diag(s) a
// positive scaling (S = I when s is nil). It covers the three kernels of
// thesis Table 4.3 without forming an n×n matrix. Build one with
// NewGraphKernel, RatioAssociation, RatioCut or NormalizedCut: the zero
// value has no graph, and its methods panic.
type GraphKernel struct {
	g     *graph.Graph
	diag  []float64
	scale []float64
}

// NewGraphKernel returns K = diag(delta) + S·W·S with S = diag(scale)
// (nil scale means S = I). The slices are copied. It returns an error
// wrapping ErrInvalid when the lengths differ from g.N(), an entry is NaN or
// infinite, or a scale is ≤ 0. ClusterSumsTo costs O(nnz + n·k).
func NewGraphKernel(g *graph.Graph, delta, scale []float64) (*GraphKernel, error) {
	if g == nil || g.N() == 0 {
		return nil, fmt.Errorf("%w: empty graph", ErrInvalid)
	}
	n := g.N()
	if len(delta) != n || (scale != nil && len(scale) != n) {
		return nil, fmt.Errorf("%w: graph has %d nodes, diagonal %d, scale %d", ErrInvalid, n, len(delta), len(scale))
	}
	for i, v := range delta {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: kernel diagonal shift at node %d is %v", ErrInvalid, i, v)
		}
	}
	for i, v := range scale {
		if !(v > 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: kernel scale at node %d is %v, want a finite value > 0", ErrInvalid, i, v)
		}
	}
	k := &GraphKernel{g: g, diag: append([]float64(nil), delta...)}
	if scale != nil {
		k.scale = append([]float64(nil), scale...)
	}
	return k, nil
}

// Dim returns the number of nodes.
func (k *GraphKernel) Dim() int { return k.g.N() }

// Diag returns K_ii = δ_i + s_i² W_ii.
func (k *GraphKernel) Diag(i int) float64 {
	s := 1.0
	if k.scale != nil {
		s = k.scale[i]
	}
	return k.diag[i] + s*s*k.g.Weight(i, i)
}

// ClusterSumsTo implements Kernel in O(nnz + n·k) time:
// dst[a,c] = δ_a w_a [a∈c] + s_a Σ_{b∈c} W_ab s_b w_b.
func (k *GraphKernel) ClusterSumsTo(dst *mat.Dense, labels []int, w []float64) {
	n := k.g.N()
	checkSums(n, dst, labels, w)
	_, nc := dst.Dims()
	sw := make([]float64, n)
	for b := range sw {
		v := 1.0
		if w != nil {
			v = w[b]
		}
		if k.scale != nil {
			v *= k.scale[b]
		}
		sw[b] = v
	}
	raw := dst.RawMatrix()
	forBlocks(context.Background(), n, runtime.GOMAXPROCS(0), func(_, lo, hi int) {
		for a := lo; a < hi; a++ {
			out := raw.Data[a*raw.Stride : a*raw.Stride+nc]
			clear(out)
			idx, val := k.g.Row(a)
			for t, b := range idx {
				if l := labels[b]; l >= 0 {
					out[l] += val[t] * sw[b]
				}
			}
			if k.scale != nil {
				s := k.scale[a]
				for c := range out {
					out[c] *= s
				}
			}
			if l := labels[a]; l >= 0 {
				wa := 1.0
				if w != nil {
					wa = w[a]
				}
				out[l] += k.diag[a] * wa
			}
		}
	})
}

// Sum is the kernel K_1 + K_2 + …, for example a graph kernel plus a sparse
// matrix of constraint rewards and penalties (thesis §4.2.1, eq. 4.2.7). All
// terms must be non-nil and have the same Dim. An empty Sum is a kernel on
// no points: Dim returns 0, which KernelCluster, KernelSeed and Objective
// refuse with ErrInvalid as they refuse any kernel without points.
type Sum []Kernel

// mismatch describes the first nil term or the first term whose dimension
// differs from that of term 0, or returns "" when there is none.
func (s Sum) mismatch() string {
	for t, k := range s {
		if k == nil {
			return fmt.Sprintf("term %d is nil", t)
		}
		if t > 0 {
			if d, d0 := k.Dim(), s[0].Dim(); d != d0 {
				return fmt.Sprintf("term %d has dimension %d, term 0 has %d", t, d, d0)
			}
		}
	}
	return ""
}

// Dim returns the common dimension of the terms, 0 for an empty Sum. It
// panics if a term is nil or the terms' dimensions differ.
func (s Sum) Dim() int {
	if m := s.mismatch(); m != "" {
		panic("kmeans: Sum.Dim: " + m)
	}
	if len(s) == 0 {
		return 0
	}
	return s[0].Dim()
}

// Diag returns Σ_t K_t,ii. It panics on an empty Sum, which has no points,
// and on a nil term.
func (s Sum) Diag(i int) float64 {
	if len(s) == 0 {
		panic(fmt.Sprintf("kmeans: Sum.Diag(%d) of an empty Sum, which has no points", i))
	}
	var v float64
	for t, k := range s {
		if k == nil {
			panic(fmt.Sprintf("kmeans: Sum.Diag: term %d is nil", t))
		}
		v += k.Diag(i)
	}
	return v
}

// ClusterSumsTo implements Kernel by adding the terms' cluster sums. It
// panics if a term is nil or the terms' dimensions differ, and, as
// Kernel.ClusterSumsTo does, on sizes that differ from Dim.
func (s Sum) ClusterSumsTo(dst *mat.Dense, labels []int, w []float64) {
	if m := s.mismatch(); m != "" {
		panic("kmeans: Sum.ClusterSumsTo: " + m)
	}
	if len(s) == 0 {
		checkSums(0, dst, labels, w)
		return
	}
	s[0].ClusterSumsTo(dst, labels, w)
	if len(s) == 1 {
		return
	}
	r, c := dst.Dims()
	tmp := mat.NewDense(r, c, nil)
	for _, k := range s[1:] {
		k.ClusterSumsTo(tmp, labels, w)
		dst.Add(dst, tmp)
	}
}

// ones returns a slice of n ones.
func ones(n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = 1
	}
	return w
}

// RatioAssociation returns the kernel σI + W and the unit weights of thesis
// Table 4.3 (seed 000, after Dhillon et al.): weighted kernel k-means with
// them maximises the ratio association Σ_c W(A_c, A_c)/|A_c|. Its
// objective is (n − k)σ + tr W − Σ_c W(A_c, A_c)/|A_c|. Errors as
// NewGraphKernel (σ must be finite).
func RatioAssociation(g *graph.Graph, sigma float64) (*GraphKernel, []float64, error) {
	if g == nil || g.N() == 0 {
		return nil, nil, fmt.Errorf("%w: empty graph", ErrInvalid)
	}
	delta := make([]float64, g.N())
	for i := range delta {
		delta[i] = sigma
	}
	k, err := NewGraphKernel(g, delta, nil)
	if err != nil {
		return nil, nil, err
	}
	return k, ones(g.N()), nil
}

// RatioCut returns the kernel σI − L = σI − D + W and the unit weights of
// thesis Table 4.3: weighted kernel k-means with them minimises the ratio
// cut Σ_c cut(A_c)/|A_c|. Its objective is
// (n − k)σ − Σ_i (d_i − W_ii) + Σ_c cut(A_c)/|A_c|. Errors as
// NewGraphKernel.
func RatioCut(g *graph.Graph, sigma float64) (*GraphKernel, []float64, error) {
	if g == nil || g.N() == 0 {
		return nil, nil, fmt.Errorf("%w: empty graph", ErrInvalid)
	}
	delta := make([]float64, g.N())
	for i := range delta {
		delta[i] = sigma - g.Degree(i)
	}
	k, err := NewGraphKernel(g, delta, nil)
	if err != nil {
		return nil, nil, err
	}
	return k, ones(g.N()), nil
}

// NormalizedCut returns the kernel σD⁻¹ + D⁻¹WD⁻¹ and the weights d (the
// degrees) of thesis Table 4.3: weighted kernel k-means with them minimises
// the normalized cut Σ_c cut(A_c)/vol(A_c). Its objective is
// (n − k)σ + Σ_i W_ii/d_i − k + Σ_c cut(A_c)/vol(A_c). It returns an error
// wrapping graph.ErrIsolated when a node has degree 0 (see
// graph.Graph.WithSelfLoops), and errors as NewGraphKernel otherwise.
func NormalizedCut(g *graph.Graph, sigma float64) (*GraphKernel, []float64, error) {
	if g == nil || g.N() == 0 {
		return nil, nil, fmt.Errorf("%w: empty graph", ErrInvalid)
	}
	d := g.Degrees()
	delta := make([]float64, len(d))
	scale := make([]float64, len(d))
	for i, v := range d {
		if v <= 0 {
			return nil, nil, fmt.Errorf("kmeans: normalized cut kernel: %w: node %d has degree 0", graph.ErrIsolated, i)
		}
		delta[i] = sigma / v
		scale[i] = 1 / v
	}
	k, err := NewGraphKernel(g, delta, scale)
	if err != nil {
		return nil, nil, err
	}
	return k, d, nil
}

// RatioAssociationShift returns a σ for which σI + W is positive
// semidefinite, from Gershgorin's theorem: every eigenvalue lies in a disc
// centred at σ + W_ii of radius d_i − W_ii, so σ = max_i (d_i − 2W_ii)
// suffices. The smallest sufficient σ is −λ_min(W) (≤ the bound), which an
// eigensolver gives when a tighter shift matters. Cost O(nnz).
func RatioAssociationShift(g *graph.Graph) float64 {
	s := math.Inf(-1)
	for i := 0; i < g.N(); i++ {
		s = math.Max(s, g.Degree(i)-2*g.Weight(i, i))
	}
	if math.IsInf(s, -1) {
		return 0
	}
	return s
}

// RatioCutShift returns a σ for which σI − L is positive semidefinite:
// λ_max(L) ≤ max_i 2(d_i − W_ii) by Gershgorin (disc centre and radius both
// d_i − W_ii), so that bound is returned. The smallest sufficient σ is
// λ_max(L). Cost O(nnz).
func RatioCutShift(g *graph.Graph) float64 {
	var s float64
	for i := 0; i < g.N(); i++ {
		s = math.Max(s, 2*(g.Degree(i)-g.Weight(i, i)))
	}
	return s
}

// NormalizedCutShift returns a σ for which σD⁻¹ + D⁻¹WD⁻¹ = D⁻¹(σD + W)D⁻¹
// is positive semidefinite. By congruence this holds when σD + W is, and by
// Gershgorin (centre σd_i + W_ii, radius d_i − W_ii) σ = max_i (1 − 2W_ii/d_i)
// ≤ 1 suffices. The smallest sufficient σ is −λ_min(D^{-1/2}WD^{-1/2}).
// Nodes of degree 0 are skipped (NormalizedCut rejects them). Cost O(nnz).
func NormalizedCutShift(g *graph.Graph) float64 {
	s := math.Inf(-1)
	for i := 0; i < g.N(); i++ {
		if d := g.Degree(i); d > 0 {
			s = math.Max(s, 1-2*g.Weight(i, i)/d)
		}
	}
	if math.IsInf(s, -1) {
		return 0
	}
	return s
}
