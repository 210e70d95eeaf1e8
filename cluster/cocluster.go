package cluster

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/enum"
	"github.com/tether-sc/tether/internal/wording"
)

// CoCluster is constrained spectral co-clustering: Dhillon's bipartite
// spectral co-clustering (KDD 2001) of a nonnegative rows×cols matrix A
// (documents × words, seed 001 §5.2), with pairwise constraints entering
// the relaxed normalized cut as a signed reward.
//
// The graph is bipartite: node i < rows is row (document) i, node rows + j
// is column (word) j, with W = [0 A; Aᵀ 0], degrees D = diag(D₁, D₂),
// D₁ = diag(A·1), D₂ = diag(Aᵀ·1). Result.Labels holds rows + cols
// entries: the row clusters first, then the column clusters, in one
// numbering (a row and a column with the same label are co-clustered).
//
// Without constraints the method is Dhillon's algorithm: with
// Aₙ = D₁^{-1/2} A D₂^{-1/2} = U Σ Vᵀ and ℓ = ⌈log₂ k⌉, the rows of
//
//	Z = [D₁^{-1/2} U; D₂^{-1/2} V]   (singular vectors 2…ℓ+1)
//
// are clustered by k-means; Result.Embedding is Z and Result.Eigenvalues
// are σ₂ ≥ … ≥ σ_{ℓ+1} (descending). No SVD is formed: the singular pairs
// are the top eigenpairs of S = D^{-1/2} W D^{-1/2} = [0 Aₙ; Aₙᵀ 0], whose
// eigenvector of σ is [u; v]/√2, found by the project's eigensolver in the
// complement of the trivial vector q = D^{1/2}1/‖D^{1/2}1‖ (σ₁ = 1).
//
// Constraints (seed 001 §5.2: pairs between documents, from known labels)
// enter as the must-link graph of seed 001 eq. 3.6, which it describes as
// the problem of Shi et al. (ICDM 2010): minimize xᵀLx + δ·xᵀL_C x with
// L_C = D̄_C − C the Laplacian of the constraint graph (c_ab = w for a
// must-link of weight w, D̄_C = diag(Σ_b |c_ab|)). Eq. 3.6 is printed
// with xᵀ1 = 0 and xᵀx = 1; in the normalized-cut form (eq. 3.4) used
// here for L (xᵀD1 = 0 and xᵀDx = 1, so with z = D^{1/2}x:
// D^{-1/2}LD^{-1/2} = I − S, zᵀq = 0, ‖z‖ = 1) it is maximizing
// zᵀ(S − γQ)z, and Z = √2·D^{-1/2}Y with Y the top ℓ eigenvectors of
//
//	P (S − γ·Q) P,   Q = D^{-1/2} (D̄_C − C) D^{-1/2} / ρ,   P = I − qqᵀ,
//
// that is δ = γ/ρ, with ρ the largest absolute row sum of
// D^{-1/2}(D̄_C − C)D^{-1/2}: Q is positive semidefinite with ‖Q‖ ≤ 1
// (Gershgorin; usually well below: about ½ for all pairs among labelled
// nodes of equal degree), and γ is free of the scale of the matrix and of
// the weights. The term is a penalty: for a ±1 indicator x, xᵀL_C x is 4w
// per violated pair, the "number of constraint violations" of eq. 3.6.
// Cannot-links (c_ab = −w) enter with their sign, as in the signed
// Laplacian (Kunegis et al., SDM 2010): w(x_a + x_b)², zero when the two
// are opposite. By default (Pairs = CoAuto) they enter for k = 2 only: for
// k ≥ 3 the signed penalty cannot hold the classes apart (see CoAuto).
// With Pairs = CoMustLink they are dropped and L_C is
// exactly eq. 3.6's must-link Laplacian, the baseline as seed 001
// describes it (our rendering of that description, not Shi et al.'s
// algorithm). Seed 001's own co-clustering is its L1-regularized method
// (§4) on this bipartite graph: L1CSC on the graph W above (tether cluster
// -bipartite FILE -method l1csc; seed001-fig4 runs both).
//
// Constraints may join any two nodes: rows (the paper's setting), columns,
// or a row and a column. Partial labels become pairs (see MaxLabelPairs).
//
// An all-zero matrix, or a row or column with no positive entry (its
// degree is 0 and D^{-1/2} undefined), is an error wrapping ErrInvalid:
// drop such rows and columns first. Problem.Bipartite may be dense or
// sparse; a matrix with the method Row(i) ([]int32, []float64) (such as
// dataset.Sparse) is read row by row. The operator is applied in
// O(nnz + pairs) per product without forming a rows×cols or
// (rows+cols)² matrix, but the dense eigensolver, used when Settings.Eigen
// is eigen.Dense or is nil and rows + cols ≤ DenseLimit, forms the
// (rows+cols)² operator from rows + cols products (O((rows+cols)²) memory,
// O((rows+cols)³) time); above DenseLimit Lanczos forms nothing of that
// size. Cost otherwise: one eigensolve for ℓ vectors and k-means on
// (rows+cols)×ℓ.
//
// Result: Labels (rows + cols entries, as above); Eigenvalues the ℓ
// singular values σ₂ ≥ … ≥ σ_{ℓ+1} (with constraints, the top eigenvalues
// of P(S − γQ)P), descending; Embedding Z; Objective the k-means
// distortion of the run kept over Z's rows, the lowest of
// Settings.Restarts runs (10 if 0); Iterations its Lloyd iterations. With
// k = 1, one cluster and Objective 0.
type CoCluster struct {
	// Gamma is the weight γ > 0 of the normalized constraint penalty. If
	// Gamma is 0, CoClusterDefaultGamma (0.3) is used, or
	// CoClusterDefaultGammaMustLink (0.1) when only must-links enter and
	// k ≥ 3 (CoClusterDefaults). As γ grows the embedding is pushed into
	// the null space of Q (the D^{-1/2}-scaled x equal across must-links,
	// opposite across cannot-links): the hard-constraint limit. 0.3 was
	// chosen on Medline/Cranfield (seed001-fig4) for an earlier operator
	// that added γ·D^{-1/2}CD^{-1/2}/ρ without the −D̄_C term; on
	// cocluster-dev's generated document–word matrices (round 1) no γ in
	// {0.1, 0.3, 1, 3, 10} with signed pairs kept every case within 0.01
	// of Dhillon's NMI, so 0.3 stays; with must-links only at k ≥ 3
	// (round 2) γ = 0.1 did, and is that case's default.
	Gamma float64 `doc:"weight γ of the normalized constraint penalty (0: 0.3; 0.1 with must-links only at k ≥ 3)" range:"0 | (0, 1e6]"`
	// Vectors is ℓ, the number of singular vectors after the first. If
	// Vectors is 0, ⌈log₂ k⌉ is used (Dhillon 2001, Alg. Multipartition).
	Vectors int `doc:"singular vectors after the first (0: ⌈log₂ k⌉, Dhillon 2001)" range:"0 | [1, 100000]"`
	// Pairs selects how pairs enter; the zero value is CoAuto: signed
	// pairs for k = 2, must-links only for k ≥ 3.
	Pairs CoPairs `doc:"how pairs enter: auto (signed for k = 2, must-link for k ≥ 3), signed (must- and cannot-links) or must-link (must-links only, seed 001 eq. 3.6)"`
}

// CoClusterDefaultGamma is CoCluster's γ when Gamma is 0, but for
// must-links only at k ≥ 3 (see CoCluster.Gamma).
const CoClusterDefaultGamma = 0.3

// CoClusterDefaultGammaMustLink is CoCluster's γ when Gamma is 0 and only
// must-links enter at k ≥ 3: the value cocluster-dev's round 2 chose.
const CoClusterDefaultGammaMustLink = 0.1

// CoClusterDefaults returns how CoCluster c uses pairs on k clusters and
// its γ: Pairs with CoAuto resolved (CoSigned for k ≤ 2, CoMustLink for
// k ≥ 3), and Gamma, or when it is 0 the default for that mode and k
// (CoClusterDefaultGammaMustLink for must-links only at k ≥ 3, else
// CoClusterDefaultGamma).
func CoClusterDefaults(c CoCluster, k int) (CoPairs, float64) {
	mode := c.Pairs
	if mode == CoAuto {
		mode = CoSigned
		if k >= 3 {
			mode = CoMustLink
		}
	}
	gamma := c.Gamma
	if gamma == 0 {
		gamma = CoClusterDefaultGamma
		if mode == CoMustLink && k >= 3 {
			gamma = CoClusterDefaultGammaMustLink
		}
	}
	return mode, gamma
}

// CoPairs selects how CoCluster uses pairwise constraints.
type CoPairs int

const (
	// CoAuto, the default: CoSigned for k = 2 and CoMustLink for k ≥ 3.
	// The signed penalty w(x_a + x_b)² of a cannot-link is zero when its
	// ends are opposite, which three classes pairwise cannot-linked cannot
	// all be (x_a = −x_b = x_c = −x_a forces 0): for k ≥ 3 it pulls the
	// labelled nodes towards 0 rather than apart. On cocluster-dev's
	// generated matrices with k = 3 and 4 (round 2) signed pairs fell
	// below Dhillon's NMI on 4 of 12 cases (by up to 0.099), must-links
	// only at γ = 0.1 on none, with a mean NMI of 0.574 against 0.527.
	CoAuto CoPairs = iota
	// CoSigned: must-links penalize disagreement, cannot-links agreement
	// (the signed Laplacian of the constraint graph).
	CoSigned
	// CoMustLink: only must-links enter, as the must-link Laplacian of
	// seed 001 eq. 3.6 (its description of Shi et al. 2010); cannot-links
	// are ignored with a warning.
	CoMustLink
)

// coPairsNames are the names of the CoPairs values, in order.
var coPairsNames = []string{"auto", "signed", "must-link"}

// String returns the name of v.
func (v CoPairs) String() string { return enum.String("CoPairs", coPairsNames, v) }

// MarshalText returns the name of v.
func (v CoPairs) MarshalText() ([]byte, error) {
	return enum.Marshal("co-clustering pairs", coPairsNames, v)
}

// UnmarshalText sets v from its name, so that CoPairs works as a
// command-line value (tether cluster -set Pairs=…) and in JSON.
func (v *CoPairs) UnmarshalText(b []byte) error {
	return parseEnum(v, "co-clustering pairs", coPairsNames, b)
}

// Name returns "cocluster".
func (CoCluster) Name() string { return "cocluster" }

// Uses declares what CoCluster reads from a Problem (see Run).
func (CoCluster) Uses() Uses { return Uses{Input: BipartiteInput, Supervision: Pairs} }

// Partition co-clusters p.Bipartite (see CoCluster). Use Run.
func (c CoCluster) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, c, p, s)
	if err != nil {
		return nil, err
	}
	if c.Pairs != CoAuto && c.Pairs != CoSigned && c.Pairs != CoMustLink {
		return nil, fmt.Errorf("%w: cocluster: unknown pairs mode %d", ErrInvalid, int(c.Pairs))
	}
	mode, gamma := CoClusterDefaults(c, p.K)
	if !(gamma > 0 && gamma <= 1e6) {
		return nil, fmt.Errorf("%w: cocluster: γ = %v outside (0, 1e6]", ErrInvalid, gamma)
	}
	b, err := newBipartite(p.Bipartite)
	if err != nil {
		return nil, err
	}
	n := b.r + b.c
	k := p.K
	ell := c.Vectors
	if ell == 0 {
		for 1<<ell < k {
			ell++
		}
	}
	if k == 1 {
		return &Result{Labels: make([]int, n), K: 1}, nil
	}
	if ell >= min(b.r, b.c) {
		return nil, fmt.Errorf("%w: cocluster: ℓ = %d singular vectors after the first need at least %d rows and columns, the matrix is %d×%d", ErrInvalid, ell, ell+1, b.r, b.c)
	}
	pairs, warnings, err := supervisionPairsContext(ctx, "cocluster", p, s, allPairs)
	if err != nil {
		return nil, err
	}
	op := b.operator(pairs, gamma, mode)
	switch {
	case op.dropped > 0 && c.Pairs == CoAuto:
		// A warning, as Result asks of dropped side information, though
		// it is the default's choice.
		warnings = append(warnings, fmt.Sprintf("cocluster: with k = %d the %s are left out and the must-links enter with γ = %g: a signed cannot-link penalty cannot hold three or more classes apart (Pairs = signed keeps them)", k, wording.Count(op.dropped, "cannot-link", "cannot-links"), gamma))
	case op.dropped > 0:
		warnings = append(warnings, fmt.Sprintf("cocluster: Pairs = must-link ignores the %s", wording.Count(op.dropped, "cannot-link", "cannot-links")))
	}
	res, err := s.solve(ctx, eigen.Problem{A: op, K: ell, Which: eigen.Largest})
	if err != nil && res == nil {
		return nil, cancelledIn("cocluster", "singular vectors of D₁^{-1/2}AD₂^{-1/2}", err)
	}
	if err != nil {
		warnings = append(warnings, err.Error())
	}
	z := b.coEmbedding(res.Vectors)
	out, err := partition(ctx, z, k, s.derive(streamCoCluster), 10, nil)
	if err != nil {
		return nil, cancelledIn("cocluster", "k-means on the rows and columns", err)
	}
	out.Eigenvalues = res.Values
	out.Warnings = append(warnings, out.Warnings...)
	return out, nil
}

// bipartite is a nonnegative rows×cols matrix in compressed sparse rows,
// with its row degrees d1 and column degrees d2.
type bipartite struct {
	r, c   int
	ptr    []int
	idx    []int32
	val    []float64
	d1, d2 []float64
}

// sparseRows is a matrix read row by row (dataset.Sparse).
type sparseRows interface {
	Dims() (int, int)
	Row(i int) ([]int32, []float64)
}

// newBipartite copies the positive entries of m and checks that every row
// and column has one. Cost O(nnz) for sparse m, O(rows·cols) for dense.
func newBipartite(m mat.Matrix) (*bipartite, error) {
	r, c := m.Dims()
	b := &bipartite{r: r, c: c, ptr: make([]int, r+1), d1: make([]float64, r), d2: make([]float64, c)}
	add := func(i, j int, v float64) error {
		if !(v >= 0) || math.IsInf(v, 1) {
			return fmt.Errorf("%w: cocluster: entry (%d, %d) = %v, want finite and ≥ 0", ErrInvalid, i, j, v)
		}
		if v > 0 {
			b.idx = append(b.idx, int32(j))
			b.val = append(b.val, v)
			b.d1[i] += v
			b.d2[j] += v
		}
		return nil
	}
	sp, isSparse := m.(sparseRows)
	for i := 0; i < r; i++ {
		if isSparse {
			idx, val := sp.Row(i)
			for q, j := range idx {
				if int(j) < 0 || int(j) >= c {
					return nil, fmt.Errorf("%w: cocluster: row %d has column %d outside 0…%d", ErrInvalid, i, j, c-1)
				}
				if err := add(i, int(j), val[q]); err != nil {
					return nil, err
				}
			}
		} else {
			for j := 0; j < c; j++ {
				if err := add(i, j, m.At(i, j)); err != nil {
					return nil, err
				}
			}
		}
		b.ptr[i+1] = len(b.idx)
	}
	if len(b.idx) == 0 {
		return nil, fmt.Errorf("%w: cocluster: the %d×%d matrix is all zero", ErrInvalid, r, c)
	}
	// The entries are finite, so an infinite degree is the sum of a row
	// or column overflowing: a numerical failure, which rescaling the
	// matrix avoids, not an empty row or column.
	for i, d := range b.d1 {
		if math.IsInf(d, 0) {
			return nil, fmt.Errorf("%w: cocluster: row %d's degree (the sum of its entries) overflowed to %v: the entries are out of floating-point range; divide the matrix by its largest entry", ErrNumerical, i, d)
		}
		if !(d > 0) {
			return nil, fmt.Errorf("%w: cocluster: row %d has degree %v: every row needs a positive entry (drop empty rows)", ErrInvalid, i, d)
		}
	}
	for j, d := range b.d2 {
		if math.IsInf(d, 0) {
			return nil, fmt.Errorf("%w: cocluster: column %d's degree (the sum of its entries) overflowed to %v: the entries are out of floating-point range; divide the matrix by its largest entry", ErrNumerical, j, d)
		}
		if !(d > 0) {
			return nil, fmt.Errorf("%w: cocluster: column %d has degree %v: every column needs a positive entry (drop empty columns)", ErrInvalid, j, d)
		}
	}
	return b, nil
}

// degree returns the degree of node a of the bipartite graph.
func (b *bipartite) degree(a int) float64 {
	if a < b.r {
		return b.d1[a]
	}
	return b.d2[a-b.r]
}

// coEntry is one off-diagonal entry (and its mirror) of −γQ.
type coEntry struct {
	a, b int
	v    float64
}

// coOp is P(S − γQ)P − shift·qqᵀ on the rows + cols nodes (see CoCluster):
// the shift moves q below the spectrum, so the largest eigenpairs are those
// of the complement of q.
type coOp struct {
	b       *bipartite
	an      []float64 // entries of Aₙ, aligned with b.idx
	cons    []coEntry // off-diagonal entries of −γQ: γ·c_ab/(ρ√(d_a d_b))
	diag    []float64 // diagonal of −γQ: −γ·(D̄_C)_aa/(ρ d_a); nil without pairs
	q, mq   []float64 // q and (S − γQ)q
	shift   float64
	dropped int // cannot-links dropped by CoMustLink
}

// operator builds the operator of CoCluster for the given pairs: the
// entries of Q = D^{-1/2}(D̄_C − C)D^{-1/2}/ρ (seed 001 eq. 3.6's L_C,
// signed for cannot-links). Cost O(nnz + pairs + rows + cols).
func (b *bipartite) operator(pairs []constraint.Pair, gamma float64, mode CoPairs) *coOp {
	n := b.r + b.c
	op := &coOp{b: b, an: make([]float64, len(b.val)), q: make([]float64, n), shift: 2 + gamma}
	for i := 0; i < b.r; i++ {
		for t := b.ptr[i]; t < b.ptr[i+1]; t++ {
			op.an[t] = b.val[t] / math.Sqrt(b.d1[i]*b.d2[b.idx[t]])
		}
	}
	// dc[a] = (D̄_C)_aa/d_a, the diagonal of D^{-1/2}D̄_C D^{-1/2};
	// rowAbs[a] the absolute row sum of D^{-1/2}CD^{-1/2}.
	dc := make([]float64, n)
	rowAbs := make([]float64, n)
	for _, pr := range pairs {
		if pr.I == pr.J {
			continue // a self-loop adds nothing to a Laplacian
		}
		sign := 1.0
		if pr.Kind == constraint.CannotLink {
			if mode == CoMustLink {
				op.dropped++
				continue
			}
			sign = -1
		}
		w := pr.W()
		v := sign * w / graph.SqrtProduct(b.degree(pr.I), b.degree(pr.J))
		op.cons = append(op.cons, coEntry{pr.I, pr.J, v})
		rowAbs[pr.I] += math.Abs(v)
		rowAbs[pr.J] += math.Abs(v)
		dc[pr.I] += w / b.degree(pr.I)
		dc[pr.J] += w / b.degree(pr.J)
	}
	// ρ is the largest absolute row sum of D^{-1/2}(D̄_C − C)D^{-1/2}.
	rho := 0.0
	for a := range dc {
		rho = math.Max(rho, dc[a]+rowAbs[a])
	}
	if rho > 0 {
		for t := range op.cons {
			op.cons[t].v *= gamma / rho
		}
		op.diag = dc
		for a := range op.diag {
			op.diag[a] *= -gamma / rho
		}
	}
	var vol float64
	for a := 0; a < n; a++ {
		vol += b.degree(a)
	}
	for a := 0; a < n; a++ {
		op.q[a] = math.Sqrt(b.degree(a) / vol)
	}
	mq := mat.NewDense(n, 1, nil)
	op.apply(mq, mat.NewDense(n, 1, op.q))
	op.mq = mq.RawMatrix().Data
	return op
}

// Dim returns rows + cols.
func (o *coOp) Dim() int { return o.b.r + o.b.c }

// apply sets dst = (S − γQ)x.
func (o *coOp) apply(dst, x *mat.Dense) {
	n, p := x.Dims()
	xr, dr := x.RawMatrix(), dst.RawMatrix()
	for a := 0; a < n; a++ {
		clear(dr.Data[a*dr.Stride : a*dr.Stride+p])
	}
	b := o.b
	for i := 0; i < b.r; i++ {
		di := dr.Data[i*dr.Stride : i*dr.Stride+p]
		xi := xr.Data[i*xr.Stride : i*xr.Stride+p]
		for t := b.ptr[i]; t < b.ptr[i+1]; t++ {
			j := b.r + int(b.idx[t])
			v := o.an[t]
			dj := dr.Data[j*dr.Stride : j*dr.Stride+p]
			xj := xr.Data[j*xr.Stride : j*xr.Stride+p]
			for u := 0; u < p; u++ {
				di[u] += v * xj[u]
				dj[u] += v * xi[u]
			}
		}
	}
	for _, e := range o.cons {
		da := dr.Data[e.a*dr.Stride : e.a*dr.Stride+p]
		db := dr.Data[e.b*dr.Stride : e.b*dr.Stride+p]
		xa := xr.Data[e.a*xr.Stride : e.a*xr.Stride+p]
		xb := xr.Data[e.b*xr.Stride : e.b*xr.Stride+p]
		for u := 0; u < p; u++ {
			da[u] += e.v * xb[u]
			db[u] += e.v * xa[u]
		}
	}
	for a, v := range o.diag {
		if v == 0 {
			continue
		}
		da := dr.Data[a*dr.Stride : a*dr.Stride+p]
		xa := xr.Data[a*xr.Stride : a*xr.Stride+p]
		for u := 0; u < p; u++ {
			da[u] += v * xa[u]
		}
	}
}

// MulTo sets dst = (P(S − γQ)P − shift·qqᵀ)x, computed as
// y = Mx − (Mq)(qᵀx), then y − q(qᵀy + shift·qᵀx).
func (o *coOp) MulTo(dst, x *mat.Dense) {
	n, p := x.Dims()
	o.apply(dst, x)
	xr, dr := x.RawMatrix(), dst.RawMatrix()
	qx := make([]float64, p)
	for a := 0; a < n; a++ {
		xa := xr.Data[a*xr.Stride : a*xr.Stride+p]
		for u := range qx {
			qx[u] += o.q[a] * xa[u]
		}
	}
	qy := make([]float64, p)
	for a := 0; a < n; a++ {
		da := dr.Data[a*dr.Stride : a*dr.Stride+p]
		for u := range qy {
			da[u] -= o.mq[a] * qx[u]
			qy[u] += o.q[a] * da[u]
		}
	}
	for a := 0; a < n; a++ {
		da := dr.Data[a*dr.Stride : a*dr.Stride+p]
		for u := range qy {
			da[u] -= o.q[a] * (qy[u] + o.shift*qx[u])
		}
	}
}

// coEmbedding returns Z = √2·D^{-1/2}Y for the eigenvectors Y (columns),
// which is [D₁^{-1/2}U; D₂^{-1/2}V] without constraints.
func (b *bipartite) coEmbedding(y *mat.Dense) *mat.Dense {
	n, l := y.Dims()
	z := mat.NewDense(n, l, nil)
	for a := 0; a < n; a++ {
		f := math.Sqrt(2 / b.degree(a))
		for u := 0; u < l; u++ {
			z.Set(a, u, f*y.At(a, u))
		}
	}
	return z
}
