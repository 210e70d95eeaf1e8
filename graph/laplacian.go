package graph

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// ErrIsolated is wrapped by errors from operators that divide by degrees
// (L_sym, L_rw, D^{-1/2}WD^{-1/2}) when the graph has a node of degree zero.
// Graph.WithSelfLoops is the documented regularization (seed 004 §5.2).
var ErrIsolated = errors.New("graph: isolated node")

// LaplacianKind selects one of the graph Laplacians of thesis §2.2.
type LaplacianKind int

const (
	// Unnormalized is L = D − W (thesis eq. 2.2.1).
	Unnormalized LaplacianKind = iota
	// Symmetric is L_sym = I − D^{-1/2} W D^{-1/2} (thesis eq. 2.2.6).
	Symmetric
	// RandomWalk is L_rw = I − D^{-1} W (thesis eq. 2.2.7). It is not
	// symmetric; symmetric eigensolvers use L u = λ D u instead, which has the
	// same eigenpairs.
	RandomWalk
)

// String returns the conventional name of the Laplacian.
func (k LaplacianKind) String() string {
	switch k {
	case Unnormalized:
		return "L"
	case Symmetric:
		return "L_sym"
	case RandomWalk:
		return "L_rw"
	}
	return fmt.Sprintf("LaplacianKind(%d)", int(k))
}

// Laplacian is a graph Laplacian applied as an operator: it never forms a
// matrix. It satisfies eigen.Operator.
type Laplacian struct {
	g    *Graph
	kind LaplacianKind
	// vals are the off-diagonal weights the operator applies, parallel to
	// the graph's storage: W_ij (Unnormalized), W_ij/√(d_i d_j) (Symmetric)
	// or W_ij/d_i (RandomWalk), precomputed so a product is one pass.
	vals []float64
	// Regularization (NewRegularizedLaplacian): tau, the regularized
	// degrees d + τ (nil without), and the rank-one term c·u vᵀ of a
	// complete regularization (u nil without).
	tau  float64
	deg  []float64
	c    float64
	u, v []float64
}

// NewLaplacian returns the Laplacian of g of the given kind. For Symmetric and
// RandomWalk it returns an error wrapping ErrIsolated naming the first node of
// degree zero; a nil g is an error wrapping ErrInvalid.
func NewLaplacian(g *Graph, kind LaplacianKind) (*Laplacian, error) {
	if err := nilGraph("NewLaplacian", g); err != nil {
		return nil, err
	}
	l := &Laplacian{g: g, kind: kind}
	switch kind {
	case Unnormalized:
		l.vals = g.w
	case Symmetric, RandomWalk:
		for i, d := range g.deg {
			if d <= 0 {
				return nil, fmt.Errorf("%w: node %d has degree 0, so %v is undefined (add self loops or drop the node)", ErrIsolated, i, kind)
			}
		}
		l.vals = make([]float64, len(g.w))
		for i := 0; i < g.n; i++ {
			for k := g.ptr[i]; k < g.ptr[i+1]; k++ {
				if kind == Symmetric {
					l.vals[k] = g.w[k] / SqrtProduct(g.deg[i], g.deg[g.idx[k]])
				} else {
					l.vals[k] = g.w[k] / g.deg[i]
				}
			}
		}
	default:
		return nil, fmt.Errorf("graph: unknown Laplacian kind %d", int(kind))
	}
	return l, nil
}

// Dim returns the number of nodes.
func (l *Laplacian) Dim() int { return l.g.n }

// Kind returns the kind of the Laplacian.
func (l *Laplacian) Kind() LaplacianKind { return l.kind }

// MulTo sets dst = L·x for n×p blocks. Cost O(nnz·p).
func (l *Laplacian) MulTo(dst, x *mat.Dense) {
	if l.kind == Unnormalized {
		l.g.apply(dst, x, l.vals, l.g.deg, 0, -1)
		return
	}
	l.g.apply(dst, x, l.vals, nil, 1, -1)
	l.mulRankOne(dst, x)
}

// NormalizedAdjacency is the operator M = D^{-1/2} W D^{-1/2} = I − L_sym,
// whose largest eigenpairs are the smallest of L_sym (thesis Alg. 3).
type NormalizedAdjacency struct {
	l *Laplacian
}

// NewNormalizedAdjacency returns D^{-1/2} W D^{-1/2}; errors as NewLaplacian.
func NewNormalizedAdjacency(g *Graph) (*NormalizedAdjacency, error) {
	l, err := NewLaplacian(g, Symmetric)
	if err != nil {
		return nil, err
	}
	return &NormalizedAdjacency{l: l}, nil
}

// Dim returns the number of nodes.
func (a *NormalizedAdjacency) Dim() int { return a.l.g.n }

// MulTo sets dst = D^{-1/2} W D^{-1/2} x.
func (a *NormalizedAdjacency) MulTo(dst, x *mat.Dense) {
	a.l.g.apply(dst, x, a.l.vals, nil, 0, 1)
}

// DegreeMatrix is the diagonal operator D (the right-hand side of the
// Shi–Malik problem L u = λ D u, thesis Alg. 2).
type DegreeMatrix struct{ g *Graph }

// NewDegreeMatrix returns D as an operator.
func NewDegreeMatrix(g *Graph) DegreeMatrix { return DegreeMatrix{g: g} }

// Dim returns the number of nodes.
func (d DegreeMatrix) Dim() int { return d.g.n }

// MulTo sets dst = D·x.
func (d DegreeMatrix) MulTo(dst, x *mat.Dense) {
	_, p := x.Dims()
	dm, xr := dst.RawMatrix(), x.RawMatrix()
	for i, v := range d.g.deg {
		out := dm.Data[i*dm.Stride : i*dm.Stride+p]
		xi := xr.Data[i*xr.Stride : i*xr.Stride+p]
		for c := range out {
			out[c] = v * xi[c]
		}
	}
}

// BetheHessian is the weighted Bethe Hessian H(r) of seed 004 eq. 3.6
// (Saade, Krzakala, Zdeborová 2014), applied as an operator:
//
//	H_ij = δ_ij (1 + Σ_k W_ik²/(r² − W_ik²)) − r W_ij/(r² − W_ij²).
//
// Seed 004 prints W_ij² in the numerator of the sum; the sum runs over the
// neighbours k of i, so W_ik² is meant (SPEC §3) and is what we use. For an
// unweighted graph H equals the matrix of eq. 3.5, ((r²−1)I − rA + D), divided
// by r² − 1, so both have the same eigenvectors and, for r > 1, the same
// number of negative eigenvalues.
type BetheHessian struct {
	g    *Graph
	r    float64
	diag []float64
	off  []float64 // −r W_ij/(r² − W_ij²), parallel to g.w
}

// NewBetheHessian returns H(r). It returns an error when r² ≤ max W_ij²
// (a denominator would vanish or change sign) or r is not finite, and one
// wrapping ErrInvalid for a nil g. Cost O(nnz) time and memory.
func NewBetheHessian(g *Graph, r float64) (*BetheHessian, error) {
	if err := nilGraph("NewBetheHessian", g); err != nil {
		return nil, err
	}
	if math.IsNaN(r) || math.IsInf(r, 0) || r <= 0 {
		return nil, fmt.Errorf("graph: Bethe Hessian parameter r = %v must be positive and finite", r)
	}
	r2 := r * r
	h := &BetheHessian{g: g, r: r, diag: make([]float64, g.n), off: make([]float64, len(g.w))}
	for i := 0; i < g.n; i++ {
		s := 1.0
		for k := g.ptr[i]; k < g.ptr[i+1]; k++ {
			w := g.w[k]
			den := r2 - w*w
			if den <= 0 {
				return nil, fmt.Errorf("graph: Bethe Hessian needs r² > W_ij²; r = %g but W[%d,%d] = %g", r, i, g.idx[k], w)
			}
			s += w * w / den
			h.off[k] = -r * w / den
		}
		h.diag[i] = s
	}
	return h, nil
}

// BetheR returns the default Bethe Hessian parameter r = √c, where c is the
// mean degree (seed 004 §3.2, the optimal value for the stochastic block
// model). The weighted H(r) of eq. 3.6 needs r > |W_ij| for every edge; when
// √c does not exceed the largest weight (a mean degree ≤ 1 on an unweighted
// graph, where eq. 3.6 would divide by r² − 1 = 0), BetheR returns 1.01
// times the largest weight instead. For a graph with no edges it returns
// 1. Cost O(nnz).
func BetheR(g *Graph) float64 {
	if g.n == 0 {
		return 1
	}
	wmax := 0.0
	for _, w := range g.w {
		wmax = math.Max(wmax, math.Abs(w))
	}
	if wmax == 0 {
		return 1
	}
	r := math.Sqrt(g.Volume() / float64(g.n))
	if r <= wmax {
		r = 1.01 * wmax
	}
	return r
}

// BetheRNonBacktracking returns r = √ρ̂, with ρ̂ = Σ_i d_i²/Σ_i d_i − 1 the
// estimate of the spectral radius of the non-backtracking matrix B of a
// graph drawn from a configuration model or a degree-corrected block model
// (ρ(B) ≈ c·⟨θ²⟩ = E[d(d−1)]/E[d]). It is the r of Saade, Krzakala &
// Zdeborová (2014) for heterogeneous degrees (where √c of BetheR
// underestimates √ρ(B), and hubs then give spurious negative eigenvalues of
// H(r)), of the moment-corrected BHm of Le & Levina (2015) and of Dall'Amico,
// Couillet & Tremblay (2019, 2021), whose negative-eigenvalue count
// estimates k. On an SBM graph ρ̂ ≈ c, so r ≈ √c. As BetheR, it returns
// 1.01 times the largest weight when √ρ̂ does not exceed it, and 1 for a
// graph without edges. Cost O(n + nnz).
func BetheRNonBacktracking(g *Graph) float64 {
	wmax := 0.0
	for _, w := range g.w {
		wmax = math.Max(wmax, math.Abs(w))
	}
	if g.n == 0 || wmax == 0 {
		return 1
	}
	var s1, s2 float64
	for _, d := range g.deg {
		s1 += d
		s2 += d * d
	}
	r := math.Sqrt(math.Max(s2/s1-1, 0))
	if r <= wmax {
		r = 1.01 * wmax
	}
	return r
}

// R returns the parameter r.
func (h *BetheHessian) R() float64 { return h.r }

// Dim returns the number of nodes.
func (h *BetheHessian) Dim() int { return h.g.n }

// Coupling returns max_i Σ_{j≠i} |H_ij|, the largest off-diagonal row sum
// of H(r) (a Gershgorin radius; the diagonal is at least 1). When it is
// negligible, H(r) is the identity to working precision and its
// eigenvectors carry nothing of the graph: the weighted H(r) is not
// invariant under W → cW, and weights near 1e-20 of a unit degree
// (r ≈ √c) give couplings W/r near 1e-10. Cost O(nnz).
func (h *BetheHessian) Coupling() float64 {
	c := 0.0
	for i := 0; i < h.g.n; i++ {
		s := 0.0
		for k := h.g.ptr[i]; k < h.g.ptr[i+1]; k++ {
			if int(h.g.idx[k]) != i {
				s += math.Abs(h.off[k])
			}
		}
		c = math.Max(c, s)
	}
	return c
}

// MulTo sets dst = H(r)·x. Cost O(nnz·p).
func (h *BetheHessian) MulTo(dst, x *mat.Dense) {
	h.g.apply(dst, x, h.off, h.diag, 0, 1)
}

// Dense returns the n×n matrix of an operator by applying it to the identity.
// It allocates n² floats: use it for small problems and tests only.
func Dense(op interface {
	Dim() int
	MulTo(dst, x *mat.Dense)
}) *mat.Dense {
	n := op.Dim()
	if n == 0 {
		return &mat.Dense{}
	}
	id := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		id.Set(i, i, 1)
	}
	out := mat.NewDense(n, n, nil)
	op.MulTo(out, id)
	return out
}

// SqrtProduct returns √(a·b) for a, b ≥ 0: the normalization √(d_i d_j)
// of L_sym's entries. It computes √(a·b) as written when the product is a
// normal float64, so results in that range are those of the plain
// expression to the bit, and √a·√b otherwise, where a·b would overflow to
// +Inf (degrees above about 1e154) or underflow to 0 or a subnormal
// (below about 1e-154): L_sym is invariant under W → cW, and so is its
// computation over the whole float64 range. Cost O(1).
func SqrtProduct(a, b float64) float64 {
	if p := a * b; p >= 0x1p-1022 && p <= math.MaxFloat64 {
		return math.Sqrt(p)
	}
	return math.Sqrt(a) * math.Sqrt(b)
}
