package graph

import (
	"context"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/internal/parallel"
)

// Multigrid approximates (L_sym + σI)⁻¹ of a graph by one symmetric V-cycle
// over a hierarchy of heavy-edge matchings (Coarsen). It satisfies
// eigen.Operator and is meant as the preconditioner T of eigen.LOBPCG for
// the smallest eigenpairs of L_sym, the multilevel preconditioning of
// Knyazev (SIAM J. Sci. Comput. 23(2), 2001, §5) with the aggregation
// hierarchy of Barnard & Simon (1994) and the coarse-grid correction of
// plain aggregation AMG (Vaněk, Mandel & Brezina 1996), over-corrected by
// a constant factor as in Braess (1995) and Notay's aggregation AMG.
//
// Level ℓ holds A_ℓ = L_sym,ℓ + σI of the ℓ-th coarse graph; with S_ℓ the
// aggregation map scaled by √(d_i/D_a) (orthonormal columns, so that
// S_ℓᵀ L_sym,ℓ S_ℓ = L_sym,ℓ+1 exactly, the null vector D^{1/2}1 is mapped
// onto the coarse one, and the coarse problem is the Galerkin one), a cycle
// on level ℓ for the right-hand side b is: 3 sweeps of l1-Jacobi
// (x ← x + M⁻¹(b − A_ℓx), M_ii = |A_ii| + Σ_{j≠i} |A_ij|, convergent for
// every SPD A: Baker, Falgout, Kolev & Yang 2011; the first, from x = 0,
// is x = M⁻¹b), the coarse correction
// x ← x + α S_ℓ cycle_{ℓ+1}(S_ℓᵀ(b − A_ℓx)) with α = 1.6, and 3 more
// sweeps; the coarsest level, at most 800 nodes, is
// solved by a dense Cholesky factorization. The cycle is symmetric, and
// positive definite for α < 2.
//
// Cost per application to an n×p block: 2·3 = 6 products with L_sym per
// level on blocks of shrinking size, so about 12 products with
// the fine L_sym when the levels halve; building costs O(nnz) per level plus
// O(m³/3) for the coarsest m ≤ 800 nodes. Memory: the coarse graphs
// (about as much as g) plus 4 blocks of n×p floats per level, kept between
// applications. MulTo is serialized by a mutex (the workspace is shared).
type Multigrid struct {
	levels []mgLevel
	sigma  float64
	chol   mat.Cholesky
	mu     sync.Mutex
	width  int // block width the workspace is sized for
}

type mgLevel struct {
	op   *Laplacian
	minv []float64 // 1/M_ii of the l1-Jacobi smoother
	s    []float64 // √(d_i/D_agg[i]): the scaled aggregation map
	agg  []int32   // nil on the coarsest level
	nc   int       // nodes of the next level
	// Workspace: right-hand side, iterate and residual blocks.
	b, x, r []float64
}

// mgCoarseN is the size from which Multigrid stops coarsening and factors
// the coarsest operator densely; mgMinShrink the least reduction of the
// node count per level below which it gives up (the graph does not
// coarsen, a star for example); mgOverCorrect the factor α of the coarse
// correction (plain aggregation's coarse operator overestimates the energy
// of smooth vectors by about 2 per level on 2-D graphs, so the unscaled
// correction is too short: LOBPCG on NJW's 10⁵-node 2-D problem took 40
// iterations with α = 1 and 22 with 1.6, both with one sweep).
const (
	mgCoarseN     = 800
	mgMinShrink   = 0.8
	mgOverCorrect = 1.6
)

// ErrNoCoarsening is returned by NewMultigrid when the graph's heavy-edge
// matchings stop reducing it before 800 nodes.
var ErrNoCoarsening = fmt.Errorf("graph: graph does not coarsen")

// NewMultigrid builds the V-cycle approximating (L_sym + σI)⁻¹ of g, σ > 0
// (see Multigrid). It returns an error wrapping ErrIsolated for a node of
// degree zero, ErrInvalid for a nil g, a graph without nodes or σ ≤ 0 or
// not finite, ErrNoCoarsening when a level shrinks by less than a fifth
// before reaching 800 nodes, and ctx's error, wrapped, when
// cancelled.
func NewMultigrid(ctx context.Context, g *Graph, sigma float64) (*Multigrid, error) {
	if err := nilGraph("NewMultigrid", g); err != nil {
		return nil, err
	}
	if g.n == 0 {
		return nil, fmt.Errorf("%w: NewMultigrid: the graph has no nodes", ErrInvalid)
	}
	if !(sigma > 0) || math.IsInf(sigma, 0) {
		return nil, fmt.Errorf("%w: multigrid shift σ = %v must be positive and finite", ErrInvalid, sigma)
	}
	m := &Multigrid{sigma: sigma}
	cur := g
	for {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("graph: cancelled: %w", err)
		}
		op, err := NewLaplacian(cur, Symmetric)
		if err != nil {
			return nil, err
		}
		n := cur.n
		lv := mgLevel{op: op, minv: make([]float64, n)}
		for i := 0; i < n; i++ {
			diag, off := sigma+1, 0.0
			for k := cur.ptr[i]; k < cur.ptr[i+1]; k++ {
				if int(cur.idx[k]) == i {
					diag -= op.vals[k]
				} else {
					off += math.Abs(op.vals[k])
				}
			}
			lv.minv[i] = 1 / (math.Abs(diag) + off)
		}
		if n <= mgCoarseN {
			if err := m.factorCoarsest(cur); err != nil {
				return nil, err
			}
			m.levels = append(m.levels, lv)
			return m, nil
		}
		c, agg, err := cur.Coarsen(ctx)
		if err != nil {
			return nil, err
		}
		if float64(c.n) > mgMinShrink*float64(n) {
			return nil, fmt.Errorf("%w: a level of %d nodes has %d aggregates", ErrNoCoarsening, n, c.n)
		}
		lv.agg, lv.nc = agg, c.n
		lv.s = make([]float64, n)
		for i, a := range agg {
			lv.s[i] = math.Sqrt(cur.deg[i] / c.deg[a])
		}
		m.levels = append(m.levels, lv)
		cur = c
	}
}

// factorCoarsest forms L_sym + σI of g densely and factors it.
func (m *Multigrid) factorCoarsest(g *Graph) error {
	n := g.n
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		a.SetSym(i, i, 1+m.sigma)
	}
	for i := 0; i < n; i++ {
		for k := g.ptr[i]; k < g.ptr[i+1]; k++ {
			if j := int(g.idx[k]); j >= i {
				a.SetSym(i, j, a.At(i, j)-g.w[k]/SqrtProduct(g.deg[i], g.deg[j]))
			}
		}
	}
	if !m.chol.Factorize(a) {
		return fmt.Errorf("graph: multigrid coarsest operator (%d nodes) is not positive definite", n)
	}
	return nil
}

// Dim returns the number of nodes of the finest graph.
func (m *Multigrid) Dim() int { return len(m.levels[0].minv) }

// Levels returns the number of levels, the finest included.
func (m *Multigrid) Levels() int { return len(m.levels) }

// MulTo sets dst to one V-cycle applied to the n×p block x, an
// approximation of (L_sym + σI)⁻¹x. dst must not alias x.
func (m *Multigrid) MulTo(dst, x *mat.Dense) {
	n, p := x.Dims()
	if n != m.Dim() {
		panic(fmt.Sprintf("graph: block has %d rows, multigrid has %d nodes", n, m.Dim()))
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.width != p {
		// Sized for the widest block seen: LOBPCG's active columns
		// shrink as pairs converge.
		for l := range m.levels {
			lv := &m.levels[l]
			nl := len(lv.minv)
			if cap(lv.b) < nl*p {
				lv.b, lv.x, lv.r = make([]float64, nl*p), make([]float64, nl*p), make([]float64, nl*p)
			}
			lv.b, lv.x, lv.r = lv.b[:nl*p], lv.x[:nl*p], lv.r[:nl*p]
		}
		m.width = p
	}
	b0 := m.levels[0].b
	xr := x.RawMatrix()
	for i := 0; i < n; i++ {
		copy(b0[i*p:(i+1)*p], xr.Data[i*xr.Stride:i*xr.Stride+p])
	}
	m.cycle(0, p)
	x0 := m.levels[0].x
	dr := dst.RawMatrix()
	for i := 0; i < n; i++ {
		copy(dr.Data[i*dr.Stride:i*dr.Stride+p], x0[i*p:(i+1)*p])
	}
}

// mgSweeps is the number of smoothing sweeps before and after the coarse
// correction.
const mgSweeps = 3

// cycle solves approximately A_l x = b on level l, in the level's buffers.
func (m *Multigrid) cycle(l, p int) {
	lv := &m.levels[l]
	n := len(lv.minv)
	if lv.agg == nil {
		copy(lv.x, lv.b)
		xd := mat.NewDense(n, p, lv.x)
		bd := mat.NewDense(n, p, lv.b)
		if err := m.chol.SolveTo(xd, bd); err != nil {
			panic(fmt.Sprintf("graph: multigrid coarse solve: %v", err))
		}
		return
	}
	// First sweep from x = 0: x = M⁻¹b.
	parallel.Range(n, n*p, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			s := lv.minv[i]
			for c := i * p; c < (i+1)*p; c++ {
				lv.x[c] = s * lv.b[c]
			}
		}
	})
	for range mgSweeps - 1 {
		m.smooth(lv, n, p)
	}
	// Restrict the residual: b_c = Sᵀ(b − A x).
	m.residual(lv, n, p)
	next := &m.levels[l+1]
	clear(next.b)
	for i, a := range lv.agg {
		s := lv.s[i]
		dst := next.b[int(a)*p : int(a+1)*p]
		for c, v := range lv.r[i*p : (i+1)*p] {
			dst[c] += s * v
		}
	}
	m.cycle(l+1, p)
	parallel.Range(n, n*p, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			s := mgOverCorrect * lv.s[i]
			a := int(lv.agg[i])
			src := next.x[a*p : (a+1)*p]
			for c, v := range src {
				lv.x[i*p+c] += s * v
			}
		}
	})
	for range mgSweeps {
		m.smooth(lv, n, p)
	}
}

// residual sets lv.r = b − A x.
func (m *Multigrid) residual(lv *mgLevel, n, p int) {
	ax := mat.NewDense(n, p, lv.r)
	lv.op.MulTo(ax, mat.NewDense(n, p, lv.x))
	parallel.Range(n, n*p, func(lo, hi int) {
		for c := lo * p; c < hi*p; c++ {
			lv.r[c] = lv.b[c] - (lv.r[c] + m.sigma*lv.x[c])
		}
	})
}

// smooth makes one l1-Jacobi sweep x ← x + M⁻¹(b − A x).
func (m *Multigrid) smooth(lv *mgLevel, n, p int) {
	m.residual(lv, n, p)
	parallel.Range(n, n*p, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			s := lv.minv[i]
			for c := i * p; c < (i+1)*p; c++ {
				lv.x[c] += s * lv.r[c]
			}
		}
	})
}
