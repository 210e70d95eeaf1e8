// Package eigen computes a few eigenpairs of large sparse symmetric
// eigenproblems A x = λ B x, the numerical core of spectral clustering: the
// first k eigenvectors of L_sym (thesis Alg. 3, seed 000), of L u = λ D u
// (Shi–Malik, thesis Alg. 2), of the Bethe Hessian H(r) (seed 004 Alg. 2)
// and of the regularized pencils of constrained methods (seed 002 §4.3).
//
// A Problem says what is solved (operators A and B given only by their
// action on blocks of vectors, K, which end of the spectrum, known
// eigenvectors to deflate), Settings say when to stop and how to report, and
// a Solver says how. Four solvers are provided; all pass the conformance
// suite in eigen/eigentest.
//
// # Which solver
//
// Dense (a Cholesky reduction for B; for K ≤ n/2 a tridiagonal reduction,
// the eigenvalues alone and K vectors by inverse iteration, as LAPACK
// dsyevx; for more, gonum's mat.EigenSym) costs O(n³) time and O(n²)
// memory whatever K is, plus n operator applications to materialize A. It
// is exact to rounding, handles every multiplicity and is the right choice
// for n up to a few hundred (n = 400, K = 10: about 0.06 s, against 0.23 s
// for all vectors by dsyev: BenchmarkSymSelect), and it is the fallback of
// the iterative solvers on tiny problems.
//
// Lanczos (thick-restart Lanczos with full reorthogonalization) is the
// choice for standard problems B = I, which is what spectral clustering
// needs most of the time (L_sym, L, the Bethe Hessian; L u = λ D u can be
// solved as L_sym v = λ v with u = D^{-1/2} v). A Krylov method extracts the
// extreme eigenpairs from the whole subspace built so far, so it needs fewer
// operator applications than block methods: on the Laplacian L_sym of a
// random sparse graph with n = 2000 and K = 8, tolerance 1e-10, it takes
// about 400 single-vector products A·v (including the multiplicity check)
// where unpreconditioned LOBPCG takes about 1600
// (TestAcceptanceRandomSparse), and LOBPCG adds O(n·BlockSize²) dense work
// per iteration on top. Full reorthogonalization
// keeps the basis orthonormal to rounding, so residuals of 1e-10·‖A‖ are
// reached reliably. Cost: O(nnz) per product plus O(n·NCV) for
// reorthogonalization of each new vector, O(n·NCV) memory; the number of
// products grows like √(spread/gap)·log(1/Tol), where gap separates the K-th
// eigenvalue from the next one.
//
// BlockLanczos (thick-restart block Lanczos, the symmetric block
// Krylov–Schur method) is the choice for standard problems whose wanted
// eigenvalues come in tight clusters or with multiplicities up to its block
// size, when deflation is not possible: a block of p vectors converges at a
// rate set by the gap to the p-th next eigenvalue, so a cluster does not
// stall it the way it stalls single-vector Lanczos, whose restart count
// around a cluster varies erratically with rounding, and it needs no
// verification run. It applies A to blocks (a graph product reads the
// matrix once per block) and does its Gram–Schmidt as matrix–matrix
// products (dgemm) on both cores. It is not faster than Lanczos for many
// pairs on this code's BLAS (gonum's, pure Go: 4–6 GFlop/s on two cores for
// these shapes), measured on a loaded 2-core machine: for K = 51 of L_sym
// on a 2·10⁴-node planted graph, tolerance 1e-8 (BenchmarkLanczosManyPairs),
// Lanczos took 1427 products, 32 restarts and about 5 s of CPU, BlockLanczos
// 2115 products, 25 restarts and about 15 s; for FGPWC's 48 vectors on a
// 2·10⁴-node 10-NN graph (tolerance 1e-5) 1105 products and 4.2–4.8 s
// against 1299 products and 8.3 s, and on the 10⁵-node graph of
// BenchmarkFGPWC100k 2724 products, 69 restarts and 26 s against 5711
// products, 70 restarts and 108 s. Block Gram–Schmidt costs 4·n·NCV flops
// per new vector per pass in dgemm, where Lanczos' gemv mostly only
// measures the rounding-level components and skips the subtraction.
// For K = 6 at 10⁵ nodes (BenchmarkEigen100k) it is 4–14 times slower
// than Lanczos. Memory n·(NCV + 2p + d) floats, with NCV about
// Keep + min(20p, K + 32).
//
// Tried and not kept (2026-11-27, FGPWC's 51 pairs): Chebyshev-filtered
// subspace iteration (Zhou & Saad 2007; degree 16, blocks of K + ⌈K/4⌉)
// passed the conformance suite but took 14.3 s against Lanczos' 13.3 s on
// BenchmarkFGPWC100k, and 5–8 times Lanczos' products at 2·10⁴ nodes;
// Lanczos on a Chebyshev filter p(A) needed 3.4 times fewer steps (726
// against 2465 at 10⁵ nodes) when its cut was set from the known λ_52,
// but every cheap rigorous bound of the cut (the K-th Ritz value after one
// Lanczos cycle: 0.92 against λ_51 = 0.029 at 2·10⁴) left it slower than
// Lanczos. What did pay is structural: the Laplacian of a disconnected
// graph is block diagonal, and the clustering code solves large ones
// component by component (cluster's componentEmbedding).
//
// LOBPCG (block locally optimal preconditioned conjugate gradient) is the
// choice for generalized problems A x = λ B x with B positive definite given
// only as an operator — Lanczos would need B⁻¹ — and whenever a good
// preconditioner T ≈ A⁻¹ is available, which can cut the iteration count by
// orders of magnitude. Cost per iteration: at most BlockSize products with
// A, B and T each, plus O(n·BlockSize²) dense block algebra; O(n·BlockSize)
// memory. For L_sym of a graph, graph.Multigrid is such a T (a V-cycle over
// heavy-edge matchings approximating (L_sym + σI)⁻¹): on NJW's problem for
// 10⁵ 2-D points (K = 5, one deflated, tolerance 1e-8, wanted eigenvalues
// 2e-6…1.2e-4 with relative gaps near 1e-5) it takes 18 iterations and 119
// products with A where Lanczos takes 1623 products, about 4 s against 6–7 s
// (BenchmarkMultigrid2DKNN; at 2·10⁴ nodes it is slower than Lanczos, at
// 5·10⁴ about even); the clustering code hands such problems on graphs of
// 10⁵ nodes or more to it when Lanczos has not converged within 8 restarts
// and the graph is long (graph.PseudoDiameter at least 128 hops). On
// shorter graphs its V-cycles cost more than they save: on 10⁵ 10-D
// points with K = 10, where the last wanted eigenvalues form a
// near-degenerate bulk, it took 15–24 s against Lanczos' 2 s.
//
// # Multiplicity and deflation
//
// Repeated eigenvalues are common in graph problems: a graph with c
// connected components has the eigenvalue 0 of L with multiplicity c. The
// cheapest and most robust remedy is to deflate what is known: put the
// normalized component indicators in Problem.Deflate (B-normalized for a
// generalized problem) with DeflateValues zero; every solver then works in
// their orthogonal complement. Without deflation, Dense is exact, LOBPCG
// and BlockLanczos capture multiplicities up to their block size, and
// Lanczos finds missed copies by a verification run from a new random
// vector (see Lanczos).
//
// # Conventions
//
// Results are ordered by Which (ascending for Smallest, descending for
// Largest); vectors are orthonormal (B-orthonormal) columns; Residuals are
// recomputed explicitly; MatVecs counts single-vector products with A (a
// block of p vectors counts p). Multiplying A by c and B by c′ multiplies
// the eigenvalues by c/c′ and B-orthonormal vectors by 1/√c′; every solver
// returns those pairs to its tolerance for c and c′ from 1e-300 to 1e300
// as long as the products and the eigenvalues are representable
// (TestExtremeScale): LOBPCG and BlockLanczos by solving a problem
// rescaled by powers of two when an operator's norm leaves [2⁻²⁰⁰, 2²⁰⁰],
// where their sums of squares would underflow or overflow. When the
// eigenvalues themselves are not representable, LOBPCG and BlockLanczos
// return ErrNonFinite; Dense returns the non-finite values of a standard
// problem as they are (callers read them), and an error when a
// generalized problem's reduction overflows. Starting
// vectors come from Settings.Src, a fixed seed when nil, so the same
// Settings give bit-identical output.
// Iterative solvers check the context at each restart or iteration and
// return ctx.Err() when it is done; they report progress on Stage "eigen".
// Invalid problems (K outside [1, n], mismatched dimensions, non-orthonormal
// deflation vectors, a generalized problem given to Lanczos or
// BlockLanczos), Settings and solver fields out of range are reported as
// errors wrapping ErrInvalid, never panics.
package eigen
