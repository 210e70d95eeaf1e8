package cluster

import "github.com/tether-sc/tether/internal/unionfind"

// forestPrec is the spanning-forest preconditioner of the L1-CSC
// subproblem's system H = L + 2μM + ρCᵀC (seed 001 eq. 4.10, through the
// ADMM x̂-update; see L1CSC). Once ρ grows, ρCᵀC dominates H and the
// Jacobi preconditioner leaves its off-diagonal couplings, a constraint
// between i and j, to the conjugate gradients, which then converge slowly
// (iterations grow like √ρ). forestPrec keeps them exactly on a spanning
// forest F of the constraint graph (nodes joined by a constraint):
//
//	P = diag(H) + ρ Σ_{r∈F} w_r² s_r (e_i e_jᵀ + e_j e_iᵀ),
//
// for constraint row r = w_r(s_r e_i + e_j) (s_r = −1 for a must-link,
// +1 for a cannot-link). P keeps H's diagonal and the off-diagonal
// entries of the forest's constraints; it drops those of the graph
// Laplacian (as Jacobi does) and of the constraints that close a cycle
// (their diagonal ρw_r² stays). P is positive definite: it is diag(L) +
// 2μM ≻ 0 plus ρ times a sum of the positive semidefinite c̃c̃ᵀ over F and
// of ρw_r²(e_ie_iᵀ + e_je_jᵀ) over the rest. When the constraint graph is
// a forest (for example 5·10⁴ random pairs on 10⁵ nodes, mostly), P is
// exactly diag(L) + 2μM + ρCᵀC.
//
// On a forest, Gaussian elimination from the leaves up creates no fill:
// P = UᵀDU with U unit upper triangular having one off-diagonal entry per
// forest edge. Building the forest costs O(n + p·α(n)) (union–find over
// the p constraint rows, in order: the first row that joins two trees is
// a forest edge), factoring O(n), each solve O(n), memory O(n). Ours, a
// simple instance of the support-tree preconditioners of Vaidya (1991).
type forestPrec struct {
	order  []int32   // every node, children before their parent
	parent []int32   // −1 for a root
	coef   []float64 // w_r² s_r of the forest edge to the parent
	d, l   []float64 // pivots and multipliers of the factorization
}

// newForestPrec builds the spanning forest of the constraint rows
// (ci, cj, cs, cw as in l1Problem) on n nodes.
func newForestPrec(n int, ci, cj []int32, cs, cw []float64) *forestPrec {
	uf := unionfind.New(n)
	// Adjacency of the forest (CSR, built from the kept rows).
	deg := make([]int, n+1)
	var kept []int
	for r := range ci {
		if !uf.Union(int(ci[r]), int(cj[r])) {
			continue
		}
		kept = append(kept, r)
		deg[ci[r]+1]++
		deg[cj[r]+1]++
	}
	for i := 0; i < n; i++ {
		deg[i+1] += deg[i]
	}
	nb := make([]int32, deg[n])
	row := make([]int32, deg[n])
	fill := append([]int(nil), deg[:n]...)
	for _, r := range kept {
		i, j := ci[r], cj[r]
		nb[fill[i]], row[fill[i]] = j, int32(r)
		fill[i]++
		nb[fill[j]], row[fill[j]] = i, int32(r)
		fill[j]++
	}
	f := &forestPrec{order: make([]int32, 0, n), parent: make([]int32, n), coef: make([]float64, n), d: make([]float64, n), l: make([]float64, n)}
	for i := range f.parent {
		f.parent[i] = -2 // unvisited
	}
	// Breadth first from each root: parents come before children in the
	// visit order, which is then reversed.
	for root := 0; root < n; root++ {
		if f.parent[root] != -2 {
			continue
		}
		f.parent[root] = -1
		head := len(f.order)
		f.order = append(f.order, int32(root))
		for ; head < len(f.order); head++ {
			v := f.order[head]
			for t := deg[v]; t < deg[v+1]; t++ {
				u := nb[t]
				if f.parent[u] != -2 {
					continue
				}
				r := row[t]
				f.parent[u] = v
				f.coef[u] = cw[r] * cw[r] * cs[r]
				f.order = append(f.order, u)
			}
		}
	}
	for a, b := 0, len(f.order)-1; a < b; a, b = a+1, b-1 {
		f.order[a], f.order[b] = f.order[b], f.order[a]
	}
	return f
}

// factor computes P = UᵀDU for the diagonal diag (= diag(H)) and penalty
// ρ. O(n).
func (f *forestPrec) factor(diag []float64, rho float64) {
	copy(f.d, diag)
	for _, v := range f.order {
		p := f.parent[v]
		if p < 0 {
			continue
		}
		a := rho * f.coef[v]
		f.l[v] = a / f.d[v]
		f.d[p] -= a * f.l[v]
	}
}

// solveTo sets dst = P⁻¹r (dst and r may be the same slice). O(n).
func (f *forestPrec) solveTo(dst, r []float64) {
	if len(dst) == 0 {
		return
	}
	if &dst[0] != &r[0] {
		copy(dst, r)
	}
	for _, v := range f.order { // Uᵀ y = r, leaves first
		if p := f.parent[v]; p >= 0 {
			dst[p] -= f.l[v] * dst[v]
		}
	}
	for i, d := range f.d {
		dst[i] /= d
	}
	for k := len(f.order) - 1; k >= 0; k-- { // U z = D⁻¹y, roots first
		v := f.order[k]
		if p := f.parent[v]; p >= 0 {
			dst[v] -= f.l[v] * dst[p]
		}
	}
}
