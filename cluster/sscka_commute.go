package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/kmeans"
)

// This file holds SSCKA's commute-time kernel (Objective = CommuteTime),
// the thesis's suggestion in §4.2.1: "A better choice for normalized cut
// would be the Moore-Penrose pseudo-inverse of the graph Laplacian, as this
// is a proper positive semidefinite kernel for the commute-time distance in
// the graph". Kulis et al. did not use it; this is beyond their paper.
//
// The kernel is K = σI + s·L⁺_m + Ω with unit node weights, where
//
//   - L⁺_m = F Fᵀ is the pseudo-inverse of L = D − W truncated to the m
//     smallest non-zero eigenvalues: F is the commute-time embedding of
//     thesis eq. 2.4.18 (column j = u_j/√λ_j; the thesis prints 1/λ_j, see
//     commuteTimeScale), so that vol(G)·‖F_i − F_j‖² is the commute-time
//     distance of eq. 2.4.16–2.4.17 restricted to those m eigenpairs. The
//     null vectors (one per connected component) are left out, as L⁺ does:
//     on a disconnected graph L⁺ is the pseudo-inverse of each component's
//     Laplacian, 0 between components. With m = n − c (c components) the
//     truncation is exact. On a disconnected graph the kernel adds each
//     component's indicator with weight 1/ε, ε = λ₂/1000, the ε → 0 limit
//     of (L + εI)⁻¹ (withComponentIndicators), so that it sets the
//     components apart as the spectral embeddings do. m = SSCKA.Rank, by default max(2k, 10): the
//     m largest eigenvalues of L⁺ carry the cluster structure (the k
//     smallest of L are those of spectral clustering), twice as many, and
//     at least 10, keep more of the kernel than an embedding of k columns;
//
//   - s converts L⁺'s units (inverse edge weights: L⁺'s entries are
//     effective resistances) into those of Ω (edge weights): s makes the
//     mean diagonal of s·L⁺_m equal to W_max, the largest edge weight of
//     the graph, which is also the default constraint weight (SSCKA's
//     Penalty = 0). The columns of F have zero mean on every component
//     (they are orthogonal to its null vector), so 2·mean_i K_ii is the mean
//     squared kernel distance between two nodes of a connected graph: with
//     the default penalty a must-link, which lowers its pair's distance by
//     2·W_max, is worth the mean distance between two nodes, and a
//     cannot-link raises it by as much. The rule reads neither the
//     constraints nor any label, and it is scale-free: multiplying W by c
//     multiplies the whole kernel by c (s by c², L⁺ by 1/c, W_max and Ω by
//     c) and leaves the partition unchanged;
//
//   - L⁺ is positive semidefinite but Ω is not, so the diagonal shift σ of
//     eq. 4.2.8 is kept with SSCKA's rule: σ = max(0, −λ_min(s·L⁺_m + Ω))
//     unless SSCKA.Shift is set (σ = 0 without constraints).
//
// The kernel is never formed: the cluster sums are s·F·(Σ_{b∈c} w_b F_b)
// (lowRankKernel), summed with the sparse penalty term (kmeans.Sum).
// Cost: the m + c smallest eigenpairs of L (c of them, the null vectors,
// known exactly), then O(n·m·k + |S|) per kernel k-means iteration and
// O(n·m + |S|) per product of the shift's eigenproblem.
//
// Accuracy: the iterative eigensolver's tolerance is relative to ‖L‖
// (about twice the largest degree), so eigenvalues of L far below tol·‖L‖
// are not told apart: on spambase's full RBF graph of fgpwc-table1
// (degrees 0.008 to 477) Lanczos alone misses six eigenvalues below 10⁻⁶
// against a dense decomposition (BenchmarkSSCKACommuteSpambase). The
// embedding detects such eigenvalues and solves again by shift-and-invert
// with a sparse direct factor (laplacianEmbedding, shiftInvertEmbedding),
// which resolves them as a dense solver would, within its budget of
// factor size; above it, a warning says that the kernel may not be L⁺'s
// truncation.

// SSCKADefaultRank returns the rank m of SSC:KA's commute-time kernel for
// k clusters when SSCKA.Rank is 0: max(2k, 10) (docs/results/
// sscka-rank-dev compares it with k and k − 1 on generated data).
func SSCKADefaultRank(k int) int { return max(2*k, 10) }

// commuteRank returns the rank m of the commute-time kernel for SSCKA's
// Rank knob and k clusters: rank itself, or SSCKADefaultRank(k) when it is
// 0.
func commuteRank(rank, k int) int {
	if rank > 0 {
		return rank
	}
	return SSCKADefaultRank(k)
}

// commuteBasis is the part of SSCKA's commute-time kernel that depends on
// the graph and the rank alone, not on the constraints: F (the non-zero
// columns of the commute-time embedding, at most m), the scale s and the
// warnings of the embedding. Read only once made, so that the fits of
// Auto's folds and its final fit share one (SSCKA.commute).
type commuteBasis struct {
	g        *graph.Graph // the graph it was made for
	m        int          // the rank asked for
	explicit bool         // whether m was asked for (SSCKA.Rank > 0)
	f        *mat.Dense
	scale    float64
	warnings []string
}

// newCommuteBasis returns the commute basis of g with rank at most m (see
// the comment at the top of this file). explicit says whether m was asked
// for (a cap to the non-zero eigenvalues available is then reported).
// Errors wrap ErrInvalid for a graph whose Laplacian is 0 (no edge between
// distinct nodes) and are those of the eigensolver otherwise. Cost: the
// m + c smallest eigenpairs of L, then O(n·m).
func newCommuteBasis(ctx context.Context, g *graph.Graph, m int, explicit bool, s *Settings) (*commuteBasis, error) {
	b := &commuteBasis{g: g, m: m, explicit: explicit}
	n := g.N()
	_, nc := g.Components()
	if avail := n - nc; m > avail {
		if avail < 1 {
			return nil, fmt.Errorf("%w: sscka: commute kernel: the graph has no edge between distinct nodes, L = D − W is 0 and so is its pseudo-inverse", ErrInvalid)
		}
		if explicit {
			b.warnings = append(b.warnings, fmt.Sprintf("sscka: Rank = %d capped at %d, the number of non-zero eigenvalues of L (%d nodes, %s): the kernel is the exact pseudo-inverse", m, avail, n, wording.Count(nc, "connected component", "connected components")))
		}
		m = avail
	}
	e, err := laplacianEmbedding(ctx, g, graph.Unnormalized, nc+m, exactLaplacian, s)
	if err != nil {
		return nil, err
	}
	b.warnings = append(b.warnings, e.warnings...)
	commuteTimeScale(e)
	f := nonZeroColumns(e.vectors)
	if f == nil {
		return nil, fmt.Errorf("%w: sscka: commute kernel: every computed eigenvalue of L is 0 to rounding", ErrInvalid)
	}
	_, mm := f.Dims()
	var tr float64
	for i := 0; i < n; i++ {
		for _, v := range f.RawRowView(i)[:mm] {
			tr += v * v
		}
	}
	scale := maxEdgeWeight(g) * float64(n) / tr
	if math.IsInf(scale, 0) || math.IsNaN(scale) || scale == 0 {
		return nil, fmt.Errorf("%w: sscka: commute kernel scale s = %v (largest edge weight %v, trace of L⁺ %v): the graph's weights are out of floating-point range", ErrNumerical, scale, maxEdgeWeight(g), tr)
	}
	if nc > 1 {
		f, b.warnings = withComponentIndicators(g, f, e.values, b.warnings)
	}
	b.f, b.scale = f, scale
	return b, nil
}

// commuteComponentGap is the ratio λ₂/ε of the smallest non-zero
// eigenvalue λ₂ of L to the ε of the component indicators' weight 1/ε in
// the commute kernel of a disconnected graph (withComponentIndicators).
const commuteComponentGap = 1000

// withComponentIndicators returns f with one column per connected
// component C of g appended, 1_C/√(|C|·ε) with ε = λ₂/1000 (λ₂ the
// smallest non-zero value of values, the eigenvalues of L behind f), and
// warnings with the embedding's note on components replaced by the
// kernel's own.
//
// Why: L⁺ is 0 between components and its rows on a component sum to 0,
// so on a disconnected graph the pseudo-inverse alone does not tell the
// components apart (a QA run on three separated blobs, one component
// each, gave ARI 0.11–0.28 where NJW gave 1.00). (L + εI)⁻¹ =
// Σ_j u_j u_jᵀ/(λ_j + ε) + Σ_C 1_C 1_Cᵀ/(|C|·ε) is the regularized
// Laplacian kernel of Smola & Kondor (2003); as ε → 0 it is L⁺ plus the
// component indicators with weight 1/ε, which set the components apart by
// a squared kernel distance 1000 times that of the slowest non-zero mode.
// The scale s is computed before they are added (newCommuteBasis), so
// that within a component the kernel and the constraints' weight are those
// of L⁺. A connected graph gets no column: a constant added to every
// kernel entry does not change kernel k-means. Cost O(n·(m + c)).
func withComponentIndicators(g *graph.Graph, f *mat.Dense, values []float64, warnings []string) (*mat.Dense, []string) {
	comp, nc := g.Components()
	top := 0.0
	for _, l := range values {
		top = max(top, l)
	}
	lam2 := math.Inf(1)
	for _, l := range values {
		if l > 1e-9*top {
			lam2 = min(lam2, l)
		}
	}
	eps := lam2 / commuteComponentGap
	size := make([]int, nc)
	for _, c := range comp {
		size[c]++
	}
	n, m := f.Dims()
	out := mat.NewDense(n, m+nc, nil)
	for i, c := range comp {
		row := out.RawRowView(i)
		copy(row, f.RawRowView(i)[:m])
		row[m+c] = 1 / math.Sqrt(float64(size[c])*eps)
	}
	kept := warnings[:0:0]
	for _, w := range warnings {
		if !strings.Contains(w, "the embedding sets each component apart") {
			kept = append(kept, w)
		}
	}
	kept = append(kept, fmt.Sprintf("sscka: graph has %d connected components: the commute kernel is the ε → 0 limit of (L + εI)⁻¹ (L⁺ plus each component's indicator with weight 1/ε, ε = λ₂/%d = %.4g), which sets the components apart, so clusters follow the components and constraints between components do not join them (harmless when each component is a cluster or a union of clusters; otherwise a graph with more neighbours joins them)", nc, commuteComponentGap, eps))
	return out, kept
}

// fits reports whether b was made for graph g with rank m asked for as
// explicit says, so that a fit can use it.
func (b *commuteBasis) fits(g *graph.Graph, m int, explicit bool) bool {
	return b != nil && b.g == g && b.m == m && b.explicit == explicit
}

// ssckaCommuteKernel returns SSCKA's commute-time kernel σI + s·F Fᵀ + Ω of
// g (see the comment at the top of this file) with rank at most m, the
// shift σ used and warnings, from basis when it fits g and m (see
// commuteBasis), else from a new one. explicit says whether m was asked
// for (a cap to the non-zero eigenvalues available is then reported).
// Errors wrap ErrInvalid for a graph whose Laplacian is 0 (no edge between
// distinct nodes) and those of the eigensolver otherwise.
func ssckaCommuteKernel(ctx context.Context, g *graph.Graph, pairs []constraint.Pair, m int, explicit bool, penalty, shift float64, basis *commuteBasis, s *Settings) (kmeans.Kernel, float64, []string, error) {
	b := basis
	if !b.fits(g, m, explicit) {
		var err error
		if b, err = newCommuteBasis(ctx, g, m, explicit, s); err != nil {
			return nil, 0, nil, err
		}
	}
	warnings := append([]string(nil), b.warnings...)
	om, w := ssckaPenalty(g, pairs, penalty)
	sigma := shift
	if sigma == 0 && len(om.idx) > 0 {
		res, err := s.solve(ctx, eigen.Problem{A: &commuteBase{f: b.f, s: b.scale, om: om}, K: 1, Which: eigen.Smallest})
		if err != nil && res == nil {
			if errors.Is(err, ErrNumerical) {
				return nil, 0, nil, fmt.Errorf("cluster: sscka: smallest eigenvalue of the commute kernel before its shift σ (s·L⁺ + Ω, penalty weight %.4g): %w", w, err)
			}
			return nil, 0, nil, err
		}
		if err != nil {
			warnings = append(warnings, err.Error())
		}
		// The same relative margin as ssckaKernelW.
		sigma = math.Max(0, -res.Values[0]) * (1 + 1e-9)
	}
	return kmeans.Sum{newLowRankKernel(b.f, b.scale, sigma), &penaltyKernel{m: om}}, sigma, warnings, nil
}

// nonZeroColumns returns the columns of x that are not all zero, as a new
// matrix, or nil when there are none. Cost O(n·k).
func nonZeroColumns(x *mat.Dense) *mat.Dense {
	n, k := x.Dims()
	var keep []int
	for j := 0; j < k; j++ {
		for i := 0; i < n; i++ {
			if x.At(i, j) != 0 {
				keep = append(keep, j)
				break
			}
		}
	}
	if len(keep) == 0 {
		return nil
	}
	f := mat.NewDense(n, len(keep), nil)
	for i := 0; i < n; i++ {
		row, dst := x.RawRowView(i), f.RawRowView(i)
		for c, j := range keep {
			dst[c] = row[j]
		}
	}
	return f
}

// lowRankKernel is the kernel K = σI + s·F Fᵀ of an n×m matrix F, as a
// kmeans.Kernel. Memory n·m floats; ClusterSumsTo costs O(n·m·k).
type lowRankKernel struct {
	f     *mat.Dense
	s     float64
	sigma float64
	diag  []float64 // K_ii
}

// newLowRankKernel returns σI + s·F Fᵀ; f is kept, not copied.
func newLowRankKernel(f *mat.Dense, s, sigma float64) *lowRankKernel {
	n, m := f.Dims()
	k := &lowRankKernel{f: f, s: s, sigma: sigma, diag: make([]float64, n)}
	for i := range k.diag {
		var v float64
		for _, x := range f.RawRowView(i)[:m] {
			v += x * x
		}
		k.diag[i] = sigma + s*v
	}
	return k
}

// Dim returns n.
func (k *lowRankKernel) Dim() int { return len(k.diag) }

// Diag returns K_ii = σ + s‖F_i‖².
func (k *lowRankKernel) Diag(i int) float64 { return k.diag[i] }

// ClusterSumsTo implements kmeans.Kernel: with G_c = Σ_{b∈c} w_b F_b (k×m,
// O(n·m)), dst[a,c] = s·F_a·G_c + σ·w_a·[a∈c] (O(n·m·k)).
func (k *lowRankKernel) ClusterSumsTo(dst *mat.Dense, labels []int, w []float64) {
	n, m := k.f.Dims()
	r, nc := dst.Dims()
	if r != n || len(labels) != n || (w != nil && len(w) != n) {
		panic(fmt.Sprintf("cluster: lowRankKernel.ClusterSumsTo size mismatch: kernel %d, dst rows %d, labels %d, weights %d", n, r, len(labels), len(w)))
	}
	g := mat.NewDense(nc, m, nil)
	for b, l := range labels {
		if l < 0 {
			continue
		}
		wb := 1.0
		if w != nil {
			wb = w[b]
		}
		row := g.RawRowView(l)
		for j, x := range k.f.RawRowView(b)[:m] {
			row[j] += wb * x
		}
	}
	dst.Mul(k.f, g.T())
	dst.Scale(k.s, dst)
	if k.sigma != 0 {
		for a, l := range labels {
			if l < 0 {
				continue
			}
			wa := 1.0
			if w != nil {
				wa = w[a]
			}
			dst.Set(a, l, dst.At(a, l)+k.sigma*wa)
		}
	}
}

// commuteBase is s·F Fᵀ + Ω as an eigen.Operator, whose smallest
// eigenvalue gives the commute kernel's shift. Cost O(n·m·p + |S|·p) per
// product with p vectors.
type commuteBase struct {
	f  *mat.Dense
	s  float64
	om *signedCSR
}

func (b *commuteBase) Dim() int { return b.om.n }

func (b *commuteBase) MulTo(dst, x *mat.Dense) {
	_, m := b.f.Dims()
	_, p := x.Dims()
	t := mat.NewDense(m, p, nil)
	t.Mul(b.f.T(), x)
	dst.Mul(b.f, t)
	dst.Scale(b.s, dst)
	b.om.addMulTo(dst, x)
}

var (
	_ kmeans.Kernel  = (*lowRankKernel)(nil)
	_ eigen.Operator = (*commuteBase)(nil)
)
