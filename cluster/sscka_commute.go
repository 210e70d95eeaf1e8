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
//     truncation is exact. On a disconnected graph the kernel adds
//     s·Σ_C 1_C 1_Cᵀ/(|C|·ε), each component's indicator with weight 1/ε,
//     ε = λ₂/1000 (the null part of (L + εI)⁻¹; componentIndicators), so
//     that it sets the components apart as the spectral embeddings do; m = SSCKA.Rank, by default max(2k, 10): the
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
//     unless SSCKA.Shift is set (σ = 0 without constraints). The component
//     indicators are left out of it: they are positive semidefinite, so
//     they only raise λ_min, and their weight, about 1000 times L⁺'s
//     largest, would make the eigensolver's tolerance, relative to the
//     operator's norm, 1000 times coarser (a review measured σ short by
//     up to 1.3·10⁻⁴ of the penalty weight at 1500 nodes).
//
// The kernel is never formed: the cluster sums are s·F·(Σ_{b∈c} w_b F_b)
// (lowRankKernel), summed with the sparse penalty term (kmeans.Sum).
// Cost: the m + c smallest eigenpairs of L (c of them, the null vectors,
// known exactly), then O(n·m·k + c·k + |S|) per kernel k-means iteration and
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
	comp     []int     // each node's component, nil for a connected graph
	weight   []float64 // each component's indicator weight 1/(|C|·ε)
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
	comp, nc := g.Components()
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
	b.f, b.scale = f, scale
	if nc > 1 {
		b.comp = comp
		b.weight, b.warnings = componentIndicators(comp, nc, e.values, b.warnings, s)
	}
	return b, nil
}

// commuteComponentGap is the ratio λ₂/ε of the smallest non-zero
// eigenvalue λ₂ of L to the ε of the component indicators' weight 1/ε in
// the commute kernel of a disconnected graph (componentIndicators).
const commuteComponentGap = 1000

// componentIndicators returns, for the commute kernel of a disconnected
// graph whose nodes lie in the nc connected components comp names (as
// graph.Components gives them), each component's indicator
// weight 1/(|C|·ε) with ε = λ₂/1000 (λ₂ the smallest non-zero value of
// values, the eigenvalues of L behind the basis; 0 for a single node),
// and warnings with the embedding's note on components replaced by the
// kernel's own. The kernel adds s·Σ_C weight_C·1_C 1_Cᵀ, never formed
// (lowRankKernel).
//
// Why: L⁺ is 0 between components and its rows on a component sum to 0,
// so on a disconnected graph the pseudo-inverse alone does not tell the
// components apart (three separated blobs, one component each: ARI
// 0.08–0.27 where NJW gives 1.00, TestSSCKACommuteComponents).
// (L + εI)⁻¹ = Σ_j u_j u_jᵀ/(λ_j + ε) + Σ_C 1_C 1_Cᵀ/(|C|·ε) is the
// regularized Laplacian kernel of Smola & Kondor (2003); the kernel here is
// it with its non-zero modes taken at ε = 0, L⁺, and its null part kept at
// ε = λ₂/1000: components lie apart by a squared kernel distance about
// 1000 times that of the slowest non-zero mode. The scale s is computed
// from L⁺ alone (newCommuteBasis), so that within a component the kernel
// and the constraints' weight are those of L⁺, and so is the shift σ
// (ssckaCommuteKernel): the indicators are positive semidefinite and only
// raise the smallest eigenvalue. A single node (an isolated node kept by
// DisconnectedStrict) gets weight 0: its row of the kernel stays 0, as
// before, rather than each isolated node lying far from everything and
// drawing k-means' seeds. A connected graph gets no indicator: a constant
// added to every kernel entry does not change kernel k-means. Cost O(n).
func componentIndicators(comp []int, nc int, values []float64, warnings []string, s *Settings) ([]float64, []string) {
	floor := zeroEigenvalueFloor(values)
	lam2 := math.Inf(1)
	for _, l := range values {
		if l > floor {
			lam2 = min(lam2, l)
		}
	}
	eps := lam2 / commuteComponentGap
	size := make([]int, nc)
	for _, c := range comp {
		size[c]++
	}
	weight := make([]float64, nc)
	singles := 0
	for c, sz := range size {
		if sz == 1 {
			singles++
			continue
		}
		weight[c] = 1 / (float64(sz) * eps)
	}
	kept := warnings[:0:0]
	for _, w := range warnings {
		if !strings.Contains(w, componentsApartText) {
			kept = append(kept, w)
		}
	}
	single := ""
	if singles > 0 {
		single = fmt.Sprintf("; %s get no indicator, their rows of the kernel are 0", wording.Count(singles, "isolated node", "isolated nodes"))
	}
	kept = append(kept, fmt.Sprintf("sscka: graph has %d connected components: the commute kernel adds each component's indicator with weight 1/ε to L⁺ (ε = λ₂/%d = %.4g, the null part of (L + εI)⁻¹)%s, which sets the components apart, so clusters follow the components and constraints between components do not join them (harmless when each component is a cluster or a union of clusters; otherwise a graph with more neighbours joins them%s)", nc, commuteComponentGap, eps, single, inParens(s.front("knn"))))
	return weight, kept
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
	return kmeans.Sum{newLowRankKernel(b.f, b.scale, sigma, b.comp, b.weight), &penaltyKernel{m: om}}, sigma, warnings, nil
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

// lowRankKernel is the kernel K = σI + s·F Fᵀ + s·Σ_C weight_C·1_C 1_Cᵀ
// of an n×m matrix F and, when comp is not nil, the indicators of the
// components comp names (componentIndicators), as a kmeans.Kernel. Memory
// n·m floats; ClusterSumsTo costs O(n·m·k + c·k) for c components.
type lowRankKernel struct {
	f      *mat.Dense
	s      float64
	sigma  float64
	comp   []int     // each node's component, nil for none
	weight []float64 // each component's indicator weight
	diag   []float64 // K_ii
}

// newLowRankKernel returns σI + s·F Fᵀ + s·Σ_C weight_C·1_C 1_Cᵀ (no
// indicator when comp is nil); f, comp and weight are kept, not copied.
func newLowRankKernel(f *mat.Dense, s, sigma float64, comp []int, weight []float64) *lowRankKernel {
	n, m := f.Dims()
	k := &lowRankKernel{f: f, s: s, sigma: sigma, comp: comp, weight: weight, diag: make([]float64, n)}
	for i := range k.diag {
		var v float64
		for _, x := range f.RawRowView(i)[:m] {
			v += x * x
		}
		if comp != nil {
			v += weight[comp[i]]
		}
		k.diag[i] = sigma + s*v
	}
	return k
}

// Dim returns n.
func (k *lowRankKernel) Dim() int { return len(k.diag) }

// Diag returns K_ii = σ + s‖F_i‖² + s·weight of i's component.
func (k *lowRankKernel) Diag(i int) float64 { return k.diag[i] }

// ClusterSumsTo implements kmeans.Kernel: with G_c = Σ_{b∈c} w_b F_b (k×m,
// O(n·m)), dst[a,c] = s·F_a·G_c + σ·w_a·[a∈c] (O(n·m·k)), plus
// s·weight_C·Σ_{b∈c∩C} w_b for a's component C (O(n·k + c·k)).
func (k *lowRankKernel) ClusterSumsTo(dst *mat.Dense, labels []int, w []float64) {
	n, m := k.f.Dims()
	r, nc := dst.Dims()
	if r != n || len(labels) != n || (w != nil && len(w) != n) {
		panic(fmt.Sprintf("cluster: lowRankKernel.ClusterSumsTo size mismatch: kernel %d, dst rows %d, labels %d, weights %d", n, r, len(labels), len(w)))
	}
	g := mat.NewDense(nc, m, nil)
	var cs []float64 // cs[C·nc + c] = Σ_{b∈c∩C} w_b
	if k.comp != nil {
		cs = make([]float64, len(k.weight)*nc)
	}
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
		if cs != nil {
			cs[k.comp[b]*nc+l] += wb
		}
	}
	dst.Mul(k.f, g.T())
	dst.Scale(k.s, dst)
	if cs != nil {
		for a := 0; a < n; a++ {
			c := k.comp[a]
			wc := k.s * k.weight[c]
			if wc == 0 {
				continue
			}
			out := dst.RawRowView(a)[:nc]
			for l, v := range cs[c*nc : (c+1)*nc] {
				out[l] += wc * v
			}
		}
	}
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
