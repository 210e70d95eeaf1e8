package cluster

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// l1DenseMaxN is the largest subproblem that L1CSC solves with a dense
// Cholesky factor of its system matrix (8·n² bytes: 32 MB at 2000).
const l1DenseMaxN = 2000

// l1UseDense reports whether the L1-CSC x̂-update of a subproblem with n
// nodes, nnz off-diagonal graph entries and p constraint rows is solved by
// the dense Cholesky factor (l1Chol) rather than by preconditioned
// conjugate gradients: when n ≤ l1DenseMaxN and the system matrix H =
// L + 2μM + ρCᵀC is at least a quarter full (n² ≤ 4(n + nnz + 2p)). Then
// the two triangular solves of one x̂-update (2n² flops) cost about as
// much as one or two sparse products H·v, where the conjugate gradients
// take several (8 a solve on the noisy-constraints wdbc cells, whose full
// RBF graph has n² entries), and a factorization (n³/3 flops) is paid only
// when ρ changes. The full RBF graphs of the UCI reproductions (n ≤ 10³)
// take the dense path, the k-NN graphs the conjugate gradients.
func l1UseDense(n, nnz, p int) bool {
	return n <= l1DenseMaxN && n*n <= 4*(n+nnz+2*p)
}

// l1Chol is the dense Cholesky factor H = UᵀU of the L1-CSC subproblem's
// system matrix H = L + 2μM + ρCᵀC (seed 001 eq. 4.10, through the ADMM
// x̂-update; see L1CSC). Memory: one n×n array (row-major, U in its upper
// triangle).
type l1Chol struct {
	n int
	a []float64
}

func newL1Chol(n int) *l1Chol { return &l1Chol{n: n, a: make([]float64, n*n)} }

// factor assembles H for the problem q, damping mu and penalty rho, from
// q's sparse rows (O(n² + nnz + p)), and factors it by LAPACK's dpotrf
// (n³/3 flops). It returns false if H is not numerically positive
// definite (it is in exact arithmetic: 2μM ≻ 0).
func (c *l1Chol) factor(q *l1Problem, mu, rho float64) bool {
	n, a := c.n, c.a
	clear(a)
	for i := 0; i < n; i++ {
		d := 2 * mu * q.m[i]
		for t := q.ptr[i]; t < q.ptr[i+1]; t++ {
			d += q.w[t]
			if j := int(q.adj[t]); j > i {
				a[i*n+j] -= q.w[t]
			}
		}
		a[i*n+i] += d
	}
	// Row r of C has cw·cs at ci and cw at cj: ρ times its outer product.
	for r := range q.ci {
		i, j := int(q.ci[r]), int(q.cj[r])
		vi, vj := q.cw[r]*q.cs[r], q.cw[r]
		if i == j {
			a[i*n+i] += rho * (vi + vj) * (vi + vj)
			continue
		}
		a[i*n+i] += rho * vi * vi
		a[j*n+j] += rho * vj * vj
		a[min(i, j)*n+max(i, j)] += rho * vi * vj
	}
	_, ok := lapack64.Potrf(blas64.Symmetric{N: n, Stride: n, Uplo: blas.Upper, Data: a})
	return ok
}

// solveTo sets dst = H⁻¹b by two triangular solves (2n² flops). dst and b
// may be the same slice.
func (c *l1Chol) solveTo(dst, b []float64) {
	if len(dst) == 0 {
		return
	}
	if &dst[0] != &b[0] {
		copy(dst, b)
	}
	u := blas64.Triangular{N: c.n, Stride: c.n, Uplo: blas.Upper, Diag: blas.NonUnit, Data: c.a}
	v := blas64.Vector{N: c.n, Inc: 1, Data: dst}
	blas64.Trsv(blas.Trans, u, v)   // Uᵀy = b
	blas64.Trsv(blas.NoTrans, u, v) // U x = y
}

// String returns "auto", "cg" or "cholesky".
func (s l1Solver) String() string {
	switch s {
	case l1SolveCG:
		return "cg"
	case l1SolveChol:
		return "cholesky"
	}
	return "auto"
}
