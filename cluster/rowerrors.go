package cluster

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/wording"
)

// unresolvedRowRatio is κ of clearUnresolvedRows: a row of computed
// eigenvectors is kept when its norm exceeds κ times its estimated error
// (laplacianRowErrors). At nodes coupled weakly to the rest, where noise
// survives and the estimate is exact, a row of noise has a ratio of
// about 1 (TestFGPWCClearsUnresolvedRows), so κ = 4 clears the rows whose
// error is a quarter of their norm or more. Elsewhere the estimate is
// not a bound (see laplacianRowErrors) and κ only separates noise from
// rows far above it: on the 89 503-node core of a DC-SBM graph (n = 10⁵,
// k = 4, c_in = 12, c_out = 2, γ = 2.5) solved to a relative residual of
// 10⁻⁵ the smallest ratio is about 10⁴ (TestFGPWCKeepsResolvedRows), so
// any κ from 2 to 1000 clears no row there.
const unresolvedRowRatio = 4

// laplacianRowErrors returns an estimate of the error of every row of x,
// computed eigenvectors of a Laplacian L (column j of eigenvalue
// values[j]) to the relative accuracy tol, given lx = L·x: err_i =
// ‖(r_ij/δ_ij)_j‖, where r_ij is entry (i, j) of the residual
// R = LX − XΛ and δ_ij = max(|L_ii − λ_j|, s_i, tol·‖L‖), s_i =
// Σ_{k≠i} |L_ik| the coupling of node i to the others and ‖L‖ bounded by
// Gershgorin's max_i (|L_ii| + s_i).
//
// Row i of (L − λ_j)e = r is (L_ii − λ_j)e_i + Σ_{k≠i} L_ik e_k = r_i. At a
// node coupled weakly to the rest (s_i ≪ |L_ii − λ_j|: a node of degree
// 10⁻²⁰ beside degrees of 1 in L_sym, whose row is 1 on the diagonal and
// 10⁻¹⁰ off it) the error is its own, e_i = r_i/(L_ii − λ_j), and the
// estimate is exact: the row and its estimate are then the same noise.
// Elsewhere it is a local heuristic, not a bound: an error along the
// eigenvectors of eigenvalues near λ_j leaves a residual smaller by their
// distance to λ_j, which no row of R can tell (on DC-SBM cores the worst
// rows' true errors were 20–180 times the estimate: review 106), and
// r_i/s_i stands for an error shared with the neighbours. The floors
// keep exact rows: s_i, a node where L_ii = λ_j (the ends of a 3-node
// path in D − W, λ = 1); tol·‖L‖, the resolution of λ_j itself, a node
// alone in its component (a self loop only: L_ii = s_i = 0) in a null
// column whose λ_j is rounding. L_ii is 1 − w_ii/d_i for L_sym and
// d_i − w_ii for D − W, s_i Σ_{k≠i} w_ik/√(d_i d_k) and d_i − w_ii. The
// estimate is relative: scaling W (hence L, Λ and R) leaves it as it is.
// Cost O(nnz + n·m) given lx.
func laplacianRowErrors(g *graph.Graph, kind FGPWCLaplacian, x, lx *mat.Dense, values []float64, tol float64) []float64 {
	n, m := x.Dims()
	deg := g.Degrees()
	diag, off := make([]float64, n), make([]float64, n)
	norm := 0.0
	for i := 0; i < n; i++ {
		idx, w := g.Row(i)
		for p, k := range idx {
			switch {
			case int(k) == i:
				diag[i] -= w[p]
			case kind == FGPWCUnnormalized:
				off[i] += w[p]
			default:
				off[i] += w[p] / math.Sqrt(deg[i]*deg[k])
			}
		}
		diag[i] += deg[i]
		if kind != FGPWCUnnormalized && deg[i] > 0 {
			diag[i] /= deg[i]
		}
		norm = max(norm, math.Abs(diag[i])+off[i])
	}
	floor := tol * norm
	errs := make([]float64, n)
	for i := 0; i < n; i++ {
		xi, li := x.RawRowView(i)[:m], lx.RawRowView(i)[:m]
		var s float64
		for j, l := range values[:m] {
			if r := li[j] - l*xi[j]; r != 0 {
				e := r / max(math.Abs(diag[i]-l), off[i], floor)
				s += e * e
			}
		}
		errs[i] = math.Sqrt(s)
	}
	return errs
}

// clearUnresolvedRows sets to zero the rows of x that its computed
// accuracy does not resolve, and returns their number, exact zeros
// included: row i is cleared when ‖x_i‖ ≤ κ·errs[i] (κ =
// unresolvedRowRatio, errs from laplacianRowErrors, a local estimate), or
// when it is at most
// r·ε·‖x‖_F (r the rows of x, ε = 2⁻⁵²: the rounding floor of
// clearZeroRows, below which no computed error is meaningful).
//
// clearZeroRows clears the rows below one global bound, tol·‖x‖_F (tol
// the solver's relative tolerance). That bound assumes every row as
// accurate as the columns on average; it cleared resolved rows where the
// eigenvectors are localized: 10 057 of the 89 503 rows of the DC-SBM core
// above, at FGPWC's tolerance 10⁻⁵, whose rows are small because the
// vectors live elsewhere and whose errors are smaller still (3·10⁻³ of
// the row at worst, against a solve to 10⁻¹²). The residual
// row tells the two apart: at a node the solver has not resolved (a node
// of degree 10⁻²⁰ beside degrees of 1) the row and its residual are the
// same noise. A row holding NaN or ±Inf is kept. Cost O(r·c).
func clearUnresolvedRows(x *mat.Dense, errs []float64) (zero int) {
	r, c := x.Dims()
	sq, total := rowSquares(x)
	t := float64(r) * 0x1p-52
	floor := t * t * total
	if math.IsInf(floor, 0) {
		floor = 0
	}
	for i, s := range sq {
		if math.IsNaN(s) || math.IsInf(s, 0) {
			continue
		}
		if s <= floor || math.Sqrt(s) <= unresolvedRowRatio*errs[i] {
			clear(x.RawRowView(i)[:c])
			zero++
		}
	}
	return zero
}

// unresolvedRowsWarning is FGPWC's warning when clearUnresolvedRows set
// zero of the n rows of its embedding to zero, or "" when zero is 0.
// Cost O(1).
func unresolvedRowsWarning(zero, n int) string {
	if zero == 0 {
		return ""
	}
	return fmt.Sprintf("fgpwc: %s of %d %s an embedding row the eigensolver does not resolve (its error, estimated from the residual at the node, is a quarter of the row or more: a node joined to the graph by weights far below the others', or a row at rounding), set to zero, so %s clustered by no information of %s own: k-means puts %s in one cluster", wording.Count(zero, "node", "nodes"), n, wording.Form(zero, "has", "have"), wording.Form(zero, "it is", "they are"), wording.Form(zero, "its", "their"), wording.Form(zero, "it", "them all"))
}
