// Package graph builds and represents the affinity graphs that spectral
// clustering works on.
//
// A Graph is an immutable undirected weighted graph stored as a symmetric
// sparse matrix in CSR form (graph.go). Graphs come from edge lists
// (FromEdges), CSR arrays (FromCSR), dense matrices (FromDense, the path for
// small problems), or from feature vectors with Build, which follows the
// catalogue of similarity graphs of the thesis (§2.1.2; von Luxburg 2007,
// §2.2):
//
//   - which pairs are joined, Kind: the symmetric k-NN graph ("either is a
//     neighbour"), the mutual k-NN graph ("both"), the fully connected graph,
//     the ε-graph, and scikit-learn's ½(C + Cᵀ) k-NN graph;
//   - how they are weighted, Affinity: RBF exp(−‖x−x'‖²/2σ²), cosine
//     similarity (clipped at 0) or binary;
//   - how σ is chosen, Sigma: a fixed value, the median heuristic, the mean
//     feature variance of seed 002 §6.1, or the local scaling of
//     Zelnik-Manor & Perona (seed 002 §6.2), σ_i = distance to the K-th
//     neighbour and W_ij = exp(−d²/(σ_iσ_j)).
//
// A Spec gathers these choices; its zero value is DefaultSpec (symmetric
// 10-NN, RBF, local scaling with the 7th neighbour). Kind, Affinity and
// Sigma read and print their names (UnmarshalText, MarshalText, String), so
// they work as command-line flags and in JSON.
//
// KNN computes exact k nearest neighbours: a kd-tree with bucket leaves up to
// 16 dimensions, blocked brute force with BLAS Dgemm tiles above, both in
// parallel over GOMAXPROCS goroutines. Results are deterministic: distances
// are the same floating-point sums on every path, ties go to the smaller
// index.
//
// ApproxKNN finds approximate neighbours by NN-descent (Dong, Charikar & Li
// 2011) started from the leaves of a few k-d trees, on every core and
// deterministically; Recall and SampleRecall measure it against exact
// search. Spec.Search chooses: SearchAuto (the default) is exact below
// ApproxMinN points or in at most ApproxMaxExactDim dimensions, and
// approximate beyond (at 10⁶ points in 10-D: 19–25 s with recall@9 =
// 0.975 against 147 s exact; bench/results.md). BuildNeighbors returns the lists
// a k-NN graph was built from, for such a check.
//
// Graph.Stats reports connected components and isolated nodes: every
// normalized Laplacian (laplacian.go: L, L_sym, L_rw, D^{-1/2}WD^{-1/2},
// the Bethe Hessian of seed 004) divides by degrees, so isolated nodes are an
// error (ErrIsolated) unless regularized with Graph.WithSelfLoops (seed 004
// §5.2) or by a Regularization (regularize.go): the regularized L_sym,τ and
// L_rw,τ replace the degrees by d + τ (Qin & Rohe 2013), optionally adding
// τ/n to every weight as an implicit rank-one term (Amini et al. 2013).
// NeedsRegularization is the rule of the default (RegAuto): isolated nodes,
// components too small to be clusters, or heterogeneous degrees.
// BetheRNonBacktracking is the Bethe Hessian's r for heterogeneous degrees.
//
// Graph.Coarsen merges the pairs of a heavy-edge matching (the coarse graph
// is the Galerkin projection of the Laplacian pencil), and Multigrid stacks
// such levels into a V-cycle approximating (L_sym + σI)⁻¹, a preconditioner
// for eigen.LOBPCG on graphs whose small eigenvalues are too close for
// Krylov methods (the k-NN graphs of 2-D point clouds; multigrid.go).
package graph
