package cluster

import (
	"context"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/progress"
)

// This file holds the graph-only part of FGPWC (seed 003 Alg. 1, lines
// 2–4): the embedding V of the m smallest non-trivial eigenvectors of the
// Laplacian, its automatic dimension, and X₀ = (VᵀLV)^{-1/2}. FGPWC.Embed
// exposes it so that one graph can be clustered with many constraint sets.

// FGPWCBasis is the graph-only part of FGPWC (seed 003 Alg. 1, lines 2–4):
// the embedding V (n×m, row-normalized if asked), the eigenvalues λ_2 …
// λ_{m+1} of the Laplacian L (L_sym, or D − W: FGPWC.Laplacian) and
// X₀ = (VᵀLV)^{-1/2}. Make it with FGPWC.Embed and
// pass it in FGPWC.Basis to cluster one graph with several constraint sets
// without recomputing the eigenvectors. It is immutable and safe for
// concurrent use.
type FGPWCBasis struct {
	g        *graph.Graph
	parent   *graph.Graph // with core: g is the subgraph of parent induced by core (NewStateFor)
	core     []int
	key      fgpwcBasisKey
	n, m     int
	v        *mat.Dense // n×m, row-normalized if asked
	values   []float64  // λ_2 … λ_{m+1} of the basis's Laplacian
	x0       *mat.Dense
	x0Norm2  float64
	warnings []string
}

// fgpwcBasisKey is what a basis depends on besides the graph.
type fgpwcBasisKey struct {
	m, maxM      int
	mThreshold   float64
	rowNormalize bool
	laplacian    FGPWCLaplacian
}

// M returns the dimension m of the embedding.
func (b *FGPWCBasis) M() int { return b.m }

// Eigenvalues returns λ_2 … λ_{m+1} of the basis's Laplacian, ascending
// (a copy).
func (b *FGPWCBasis) Eigenvalues() []float64 { return append([]float64(nil), b.values...) }

// Vectors returns a copy of the embedding V (n×m, row-normalized when
// the basis was made with FGPWC.RowNormalize): column j holds u_{j+2}.
// Cost O(n·m).
func (b *FGPWCBasis) Vectors() *mat.Dense { return mat.DenseCopyOf(b.v) }

// Laplacian returns the Laplacian the basis was computed with
// (FGPWCSymmetric or FGPWCUnnormalized).
func (b *FGPWCBasis) Laplacian() FGPWCLaplacian { return b.key.laplacian }

func (f FGPWC) basisKey() fgpwcBasisKey {
	return fgpwcBasisKey{m: f.M, maxM: f.MaxM, mThreshold: f.MThreshold, rowNormalize: f.RowNormalize, laplacian: f.Laplacian}
}

// Embed computes the graph-only part of FGPWC on g (see FGPWCBasis) with
// f's M, MThreshold, RowNormalize and Laplacian (FGPWCAutoLaplacian is an
// error wrapping ErrInvalid: the choice needs the constraints); f.Basis
// and f.Imprint are ignored
// (with Imprint the embedding depends on the constraints and Partition
// computes it). When s.EigenSettings is nil or sets no Tol the
// eigensolver is asked for a relative residual of 1e-5. Errors are those of Run about ctx, the
// graph, knobs and s. Cost: the m+1 smallest eigenpairs of L_sym (the iterative solver
// above DenseLimit nodes, whatever the graph's density), then
// VᵀL_symV in O(nnz·m + n·m²) and its eigendecomposition in O(m³).
func (f FGPWC) Embed(ctx context.Context, g *graph.Graph, s *Settings) (*FGPWCBasis, error) {
	if err := nilContext(ctx); err != nil {
		return nil, err
	}
	if err := s.validate(f.Name()); err != nil {
		return nil, err
	}
	s = s.orDefault()
	cfg, err := f.withDefaults()
	if err != nil {
		return nil, err
	}
	if err := validate(f.Name(), f.Uses(), &Problem{Graph: g}); err != nil {
		return nil, err
	}
	if cfg.Laplacian == FGPWCAutoLaplacian {
		return nil, fmt.Errorf("%w: fgpwc: Embed needs a fixed Laplacian (FGPWCSymmetric or FGPWCUnnormalized); Laplacian = auto chooses it from the constraints in Run", ErrInvalid)
	}
	return cfg.basis(ctx, g, s)
}

func (f FGPWC) basis(ctx context.Context, g *graph.Graph, s *Settings) (*FGPWCBasis, error) {
	n := g.N()
	if n < 2 {
		return nil, fmt.Errorf("%w: fgpwc: the graph has %d node; the embedding needs at least 2", ErrInvalid, n)
	}
	if f.M >= n {
		return nil, knobInvalid("fgpwc: M = %d, want M ≤ n − 1 = %d (u_1 is dropped)", f.M, n-1)
	}
	if iso := g.Isolated(); len(iso) > 0 {
		return nil, fmt.Errorf("%w: %w: fgpwc: node %d has degree 0 (%s), so L_sym is undefined; add self loops %s or drop the nodes of degree 0", ErrInvalid, graph.ErrIsolated, iso[0], wording.Count(len(iso), "isolated node", "isolated nodes"), s.selfLoops())
	}
	b := &FGPWCBasis{g: g, key: f.basisKey(), n: n}
	// The components: one warning, fgpwc's, which takes in the
	// embedding's about them below (each gave one: review 86).
	_, nc := g.Components()
	comps, keep := -1, ""
	if nc > 1 {
		keep = fmt.Sprintf("the embedding keeps the %d null directions of %s orthogonal to its trivial null vector and X₀ gives them the scale of the smallest positive eigenvalue", nc-1, f.Laplacian.symbol())
		comps = len(b.warnings)
		b.warnings = append(b.warnings, fmt.Sprintf("fgpwc: the graph has %d connected components; %s", nc, keep))
	}
	if s.EigenSettings == nil || s.EigenSettings.Tol == 0 {
		es, set := *s, eigen.Settings{}
		if s.EigenSettings != nil {
			set = *s.EigenSettings
		}
		set.Tol = fgpwcEigenTol
		es.EigenSettings = &set
		s = &es
	}

	// Embedding: m+1 smallest eigenpairs, u_1 dropped.
	var e *embedding
	var err error
	if f.M > 0 {
		e, err = laplacianEmbedding(ctx, g, f.Laplacian.graphKind(), f.M+1, exactLaplacian, s)
		if err != nil {
			return nil, fmt.Errorf("cluster: fgpwc: embedding: %w", err)
		}
	} else {
		maxM := f.MaxM
		if maxM == 0 {
			maxM = fgpwcMaxM
		}
		e, err = fgpwcAutoEmbedKind(ctx, g, f.Laplacian, fgpwcMThreshold(g, f.Laplacian, f.MThreshold), maxM, s)
		if err != nil {
			return nil, err
		}
	}
	head := fmt.Sprintf("graph has %d connected components; ", nc)
	for _, w := range e.warnings {
		if why, ok := strings.CutPrefix(w, head); ok && comps >= 0 {
			b.warnings[comps] = fmt.Sprintf("fgpwc: the %s%s; %s", head, why, keep)
			continue
		}
		b.warnings = append(b.warnings, "fgpwc: embedding: "+w)
	}
	b.values, b.v = fgpwcDropNull(e.values, e.vectors, fgpwcTrivialVector(g.Degrees(), f.Laplacian))
	_, b.m = b.v.Dims()
	progress.Send(s.Recorder, progress.Event{Stage: "fgpwc", Message: fmt.Sprintf("embedding of dimension m = %d", b.m)})
	if f.RowNormalize {
		n := g.N()
		// Rows the solver did not resolve are cleared by their own
		// residual, not by one bound for all rows (clearUnresolvedRows).
		lv := fgpwcLaplacianMul(g, f.Laplacian, b.v)
		cleared := clearUnresolvedRows(b.v, laplacianRowErrors(g, f.Laplacian, b.v, lv, b.values, s.rowTol(n)))
		unitRows(b.v)
		if w := unresolvedRowsWarning(cleared, n); w != "" {
			b.warnings = append(b.warnings, w)
		}
	}

	// X₀ = (VᵀLV)^{-1/2}, with L_symV = V − D^{-1/2}W D^{-1/2}V (or
	// (D − W)V) computed from the graph's own product (no scaled copy of
	// W, which for a dense graph of 4600 nodes would be 170 MB).
	lv := fgpwcLaplacianMul(g, f.Laplacian, b.v)
	vtlv := mat.NewSymDense(b.m, nil)
	var prod mat.Dense
	prod.Mul(b.v.T(), lv)
	for i := 0; i < b.m; i++ {
		for j := i; j < b.m; j++ {
			vtlv.SetSym(i, j, 0.5*(prod.At(i, j)+prod.At(j, i)))
		}
	}
	var clamped int
	b.x0, clamped, err = fgpwcInitial(vtlv)
	if err != nil {
		return nil, err
	}
	switch {
	case clamped == b.m:
		b.warnings = append(b.warnings, fmt.Sprintf("fgpwc: VᵀLV = 0 (the embedding holds only null vectors of %s): X₀ = I", f.Laplacian.symbol()))
	case clamped > 0:
		b.warnings = append(b.warnings, fmt.Sprintf("fgpwc: VᵀLV (%s) has %s ≈ 0; %s raised to the smallest positive one to form X₀", f.Laplacian.symbol(), wording.Count(clamped, "eigenvalue", "eigenvalues"), wording.Form(clamped, "it was", "they were")))
	}
	nx := mat.Norm(b.x0, 2)
	b.x0Norm2 = nx * nx
	return b, nil
}

// fgpwcAutoEmbedKind returns the eigenpairs of g's Laplacian of the given
// (concrete) kind below threshold (the "no tuning" m = #{λ < threshold},
// seed 003 §5.1, at least 1 and at most capM, FGPWC.MaxM), with the trivial
// vector first: it asks the solver for 16 pairs, then doubles the request
// while every pair returned is below the threshold. Cost: one partial
// eigendecomposition per request, O(nnz·m) per Lanczos step.
func fgpwcAutoEmbedKind(ctx context.Context, g *graph.Graph, kind FGPWCLaplacian, threshold float64, capM int, s *Settings) (*embedding, error) {
	n := g.N()
	maxM := min(capM, n-1)
	try := min(16, maxM)
	solver := s.Eigen
	if solver == nil {
		solver = autoSolver(n)
	}
	switch solver.(type) {
	case eigen.Dense, *eigen.Dense:
		try = maxM
	}
	for {
		if try < maxM && n > DenseLimit {
			below, err := fgpwcCertifyBelow(ctx, g, kind, try+1, threshold, s)
			if err != nil {
				return nil, err
			}
			if below {
				// Every one of the try pairs is below the threshold:
				// the solve for them would be thrown away.
				try = min(2*try, maxM)
				continue
			}
		}
		e, err := laplacianEmbedding(ctx, g, kind.graphKind(), try+1, exactLaplacian, s)
		if err != nil {
			return nil, fmt.Errorf("cluster: fgpwc: embedding: %w", err)
		}
		values := e.values
		count := 0
		for _, l := range values[1:] {
			if l < threshold {
				count++
			}
		}
		if count == len(values)-1 && try < maxM {
			try = min(2*try, maxM)
			continue
		}
		m := max(count, 1)
		e.values = values[:m+1]
		e.vectors = mat.DenseCopyOf(e.vectors.Slice(0, n, 0, m+1))
		return e, nil
	}
}

// fgpwcCertifyBelow reports whether the count smallest eigenvalues of g's
// Laplacian of the given kind are all below threshold, when a short
// eigensolve can prove it: fgpwcProbeRestarts restarts of the solver
// fgpwcAutoEmbedKind uses (no multigrid hand-over, no repair), whose
// count-th Ritz value bounds the count-th eigenvalue from above (Cauchy
// interlacing: the Ritz values of a symmetric operator on any subspace are
// at least its eigenvalues, rank by rank), so θ_count < threshold proves
// λ_count < threshold. It answers false when the bound does not prove it,
// and fgpwcAutoEmbedKind then solves as before. The doubling of the
// automatic m thus solves fully only the request it keeps: the same call,
// with the same random stream (the streams do not depend on earlier
// calls), so the embedding is the one of before, bit for bit. On 10⁵ 10-D
// blob points (m = 200, the cap, reached through requests of 16, 32, 64
// and 128 pairs) the four discarded solves took about half of the 130 s
// of eigensolves. Cost: fgpwcProbeRestarts Lanczos restarts for count
// pairs; an error only when ctx is done or the solver fails otherwise than
// by not converging.
func fgpwcCertifyBelow(ctx context.Context, g *graph.Graph, kind FGPWCLaplacian, count int, threshold float64, s *Settings) (bool, error) {
	e, err := laplacianEmbedding(ctx, g, kind.graphKind(), count, exactLaplacian, s.probe(g.N()))
	if err != nil {
		if ctx.Err() != nil {
			return false, fmt.Errorf("cluster: fgpwc: embedding: %w", err)
		}
		return false, nil
	}
	return len(e.values) == count && e.values[count-1] < threshold, nil
}

// probe returns the settings of a short solve whose Ritz values bound the
// eigenvalues from above (fgpwcCertifyBelow):
// s's solver (autoSolver's choice for n nodes when s names none, so that
// no multigrid hand-over runs), at most probeRestarts restarts, no
// repair, no progress events.
func (s *Settings) probe(n int) *Settings {
	ps := *s
	if ps.Eigen == nil {
		ps.Eigen = autoSolver(n)
	}
	es := ps.eigenSettings()
	es.MaxIter = probeRestarts
	ps.EigenSettings = &es
	ps.Repair = RepairNever
	ps.Recorder = nil
	return &ps
}

// probeRestarts is the number of restarts of a probe's short solve.
const probeRestarts = 3

// fgpwcDropNull removes the trivial null vector z (unit length:
// D^{1/2}1/‖·‖ for L_sym, 1/√n for D − W) from the m+1 eigenpairs (values
// ascending, vecs n×(m+1) orthonormal) of the Laplacian and returns the
// other m. When c0 > 1 eigenvalues are ≈ 0 (a graph with several
// components) the solver may return any basis of the null space; then the
// first c0 columns are projected on the complement of z and an orthonormal
// basis of the c0 − 1 dimensional result is kept. Cost O(n·c0²).
// Eigenvalues up to 1e-8 times the largest returned one (at least 1e-8)
// count as null.
func fgpwcDropNull(values []float64, vecs *mat.Dense, z []float64) ([]float64, *mat.Dense) {
	n, cols := vecs.Dims()
	nullTol := 1e-8 * math.Max(1, values[cols-1])
	c0 := 1
	for c0 < cols && values[c0] <= nullTol {
		c0++
	}
	m := cols - 1
	v := mat.NewDense(n, m, nil)
	vals := make([]float64, m)
	copy(vals, values[1:])
	if c0 == 1 {
		v.Copy(vecs.Slice(0, n, 1, cols))
		return vals, v
	}
	zp := mat.DenseCopyOf(vecs.Slice(0, n, 0, c0))
	zv := mat.NewVecDense(n, z)
	var proj mat.VecDense
	proj.MulVec(zp.T(), zv) // zᵀZ
	var outer mat.Dense
	outer.Outer(1, zv, &proj)
	zp.Sub(zp, &outer)
	var gram mat.SymDense
	gram.SymOuterK(1, zp.T())
	var es mat.EigenSym
	es.Factorize(&gram, true) // ascending; keep the c0−1 largest
	ev := es.Values(nil)
	var q mat.Dense
	es.VectorsTo(&q)
	var basis mat.Dense
	basis.Mul(zp, q.Slice(0, c0, 1, c0))
	for j := 0; j < c0-1; j++ {
		sc := 1 / math.Sqrt(math.Max(ev[j+1], 1e-300))
		for i := 0; i < n; i++ {
			v.Set(i, j, basis.At(i, j)*sc)
		}
	}
	if c0 < cols {
		v.Slice(0, n, c0-1, m).(*mat.Dense).Copy(vecs.Slice(0, n, c0, cols))
	}
	return vals, v
}
