// Package cluster holds tether's clustering methods. Every method shares one
// shape, after gonum's optimize.Minimize: a Problem (graph, k, constraints or
// labels; feature rows or a bipartite matrix for the methods that declare
// them) says what is solved, *Settings say how randomness, restarts, the
// eigensolver and progress are handled, and a Method value with exported
// knobs says which algorithm runs. Run drives every method through one
// lifecycle: it checks the Problem against the method's Uses, applies the
// defaults, times the run and warns about side information the method
// ignores. A Result separates Warnings, conditions that may make the
// result differ from what was asked (side information ignored or
// dropped, a fallback, nodes attached), from Notes, the documented
// choices a method made (the candidate auto chose, cross-validated
// knobs, an estimated k). Methods are also registered by name (Methods,
// New) for the command-line tool.
//
// # Which method when
//
// By the side information you have (n nodes, nnz stored graph entries, k
// clusters, K constraints or L labelled nodes):
//
//   - Not sure. Auto (auto) chooses for you from the supervision alone,
//     never from a ground truth. Candidates, simplest first: the
//     unconstrained njw, ncut, usc and bethe (k given); with labels alone,
//     labelprop, noa-ssc and mavro-k; then sl, ml-noa-ssc, mcl-noa-ssc,
//     sscka, csc, fast-ge, fast-ge2, fast-ge2-bh and cscap (these four
//     only up to 1000 nodes: dense, or a slowly converging pencil), fgpwc
//     with D − W (m = k) and fgpwc with L_sym (m = max(2k, 10)), each with
//     its other defaults. The rule: every method that clusters the graph
//     alone into the k given, reads the supervision and fits in about one
//     sparse eigensolve or kernel k-means (cosc, l1csc, csp and ccsr are
//     left out for cost; Auto's documentation gives the reasons and the
//     measured costs). Choice: 5-fold cross-validation
//     on the constraints (pairs stratified by kind; labels split by
//     labelled node, the held-out constraints being the pairs between
//     held-out and training labelled nodes; fold fits use at most 5
//     k-means restarts); a candidate's score is the fraction of held-out
//     constraints its partitions satisfy, pooled over the folds (with
//     Auto.Score = pair-ari, the ARI of the held-out pairs' 2×2 table);
//     within each kind the highest wins, ties go to the simpler candidate.
//     The best unconstrained partition is returned unless the best
//     constrained candidate scores strictly higher (the default,
//     AutoDefaultZ = 0) or, with Auto.Z > 0, also satisfies significantly
//     more of the same held-out constraints (McNemar's paired test,
//     b − c > Z·√(b + c)); Result.Report (*AutoReport, JSON with tether
//     cluster -json) lists every candidate's scores, b, c and seconds and
//     why the winner won. The unconstrained candidates run
//     once (not per fold) and both FGPWC candidates share one embedding
//     across the folds. Cost: one fit per fold (AutoDefaultFolds = 5)
//     and supervised candidate plus the final fit (BenchmarkAuto3000). It
//     is what tether cluster and batch jobs run when given constraints or
//     labels and no method (DefaultMethod).
//
//   - None. NJW (njw; thesis Alg. 3) is the default: k eigenvectors of
//     L_sym, O(nnz·k) per Lanczos step plus k-means. ShiMalik (ncut) and
//     Unnormalized (usc) are its relatives; HBisection (hbisect) cuts
//     recursively and can stop by a threshold instead of k. On sparse
//     graphs near the detectability threshold (stochastic block models,
//     mean degree of a few) BetheHessian (bethe) succeeds where the
//     Laplacians fail, and estimates k.
//
//     Sparse networks with hubs, isolated nodes or many tiny components
//     (citation, web and social graphs) defeat the plain L_sym: tiny
//     components and dangling trees take the smallest eigenvalues, and NJW
//     returns one giant cluster. Problem.Regularize (graph.Regularization)
//     replaces the degrees by d + τ in the k-way embeddings of NJW, Ncut,
//     cSC-AP and CCSR (Qin & Rohe 2013); its default, RegAuto, does so with
//     τ = the mean degree on exactly such graphs (graph.NeedsRegularization)
//     and leaves most k-NN graphs of feature sets alone (of the 21 feature
//     sets in docs/results/regularize, it regularizes spambase and the four
//     WebKB word graphs). Components too small to
//     be clusters then take no eigenvector of their own. Their nodes have
//     no link to the big component, so nothing places them: k-means puts
//     their near-zero embedding rows in whichever cluster is nearest, and
//     figures computed on the whole node set count them as they fall.
//     docs/results/regularize has the measurement.
//
//     The methods that cannot cluster such a graph as it is (their
//     operators divide by degrees without regularization, or each
//     component takes one of their K clusters: FGPWC, SL, ML-/MCL-NOA-SSC,
//     FAST-GE, FAST-GE-2.0, CSP, cSC, L1-CSC, and power-law means and
//     SSC:KA with the commute-time or normalized-cut kernel) declare
//     Uses.Core, and Run
//     applies one rule for them (core.go): the method clusters the core of
//     the graph (graph.Core: the components of at least n/(4k) nodes, the
//     threshold of the regularization), and every other node is attached
//     in rounds by its label, else its must-links, else the weight of its
//     edges to nodes already placed, the heaviest cluster not holding one
//     of its cannot-link partners winning; a node with no link to any
//     placed node joins the largest allowed cluster, and its small
//     component follows it. A warning counts the nodes attached each way;
//     Problem.Disconnected = DisconnectedStrict (tether cluster
//     -disconnected strict) restores the refusal.
//
//     Without regularization, the Laplacian of a disconnected graph is
//     block diagonal: from 10⁴ nodes its smallest eigenpairs are computed
//     component by component and merged (embed.go),
//     which for FGPWC's 51 pairs on a 3-component 10⁵-node k-NN graph cut
//     the whole run (BenchmarkFGPWC100k) from about 37 s to 14 s, and finds
//     eigenvalues shared by two components that one Lanczos run on the
//     whole graph can miss.
//
//   - Partial labels. LabelProp (labelprop) when you want a classifier:
//     O(nnz·k) per conjugate-gradient step, no eigenproblem. Where a class
//     or a connected component has no labelled node, the label methods
//     recover it from the NJW partition with a warning (labelrecover.go;
//     their Strict knob refuses instead). NOASSC (noa-ssc) and the Mavroeidis methods
//     (mavro for k = 2, mavro-k) bias the spectral embedding toward the
//     labels instead and keep the graph's structure where labels are
//     scarce. FastGE2 and FastGE2BH (fast-ge2, fast-ge2-bh; seed 004) take
//     labels and pairs together.
//
//   - Must-link / cannot-link pairs. Auto (above) is the default of tether
//     cluster and batch jobs; it chooses among the methods below.
//     FGPWC (fgpwc; seed 003) is the interactive one (tether serve): one
//     embedding, then a descent in O(K·m²) per step, so new
//     constraints are cheap (FGPWC.Basis) and it scales to 10⁵ nodes; set
//     Imprint, IterCV and Laplacian = auto to tune it from the constraints
//     alone. SpectralLearning (sl) edits the affinity and is the simplest
//     baseline. FastGE (fast-ge) and CSC (csc) solve a constrained
//     eigenproblem, sparse. SSCKA (sscka) is kernel k-means with
//     constraint penalties, by default on the Laplacian's pseudo-inverse,
//     as thesis §4.2.1 suggests (docs/results/sscka-dev chose it; a higher
//     mean ARI than the thesis's ratio association on 15 of the 20
//     datasets of docs/results/fgpwc-table1, lower on 5). CSCAP (cscap) propagates constraints through a
//     Gaussian process and is dense, O(n²) memory and O(n³) time: up to a
//     few thousand nodes; by default it down-weights the constraints that
//     the constraints near them contradict (constraint.VoteWeights), which
//     makes it robust to a share of wrong constraints. MLNOASSC and MCLNOASSC reduce pairs to labels
//     through the must-link closure, where one wrong must-link merges two
//     classes; by default, when the pairs contradict each other (a
//     cannot-link inside a must-link component), they first resolve them
//     (the same vote, the must-links a reference partition separates:
//     CSCAP's, or FAST-GE's where cross-validation on the constraints
//     prefers it, unless Reference or ReferenceFixed says otherwise, then
//     constraint.Contract's correlation clustering of the signed
//     constraint graph), then refine the partition with every constraint
//     as a soft penalty (Refine, chosen by the same cross-validation unless
//     RefineFixed), and use consistent pairs as given (NoResolve: as
//     published); with Screen they screen the pairs whether or not they
//     contradict each other (the vote, then constraint.Repair's minimum
//     cuts), which also drops correct constraints that contradict the
//     graph. CSP (csp; Wang & Davidson 2010) is
//     the flexible constrained spectral clustering of seeds 001 and 002: a
//     generalized eigenproblem with a constraint threshold α; its default
//     α often admits only vectors concentrated on a few weakly connected
//     constrained nodes, so lower AlphaFraction on graphs of uneven degree.
//     COSC (cosc; Rangapuram & Hein 2012) is the choice when cannot-links
//     must hold exactly in a 2-way split: at k = 2 it satisfies every
//     consistent constraint and minimizes the normalized cut through a
//     tight nonlinear relaxation (RatioDCA, O(nnz) per inner step, 10⁴
//     nodes in seconds); contradictory constraints are an error naming
//     them. For k > 2 it bisects recursively and may violate constraints.
//     CCSR (ccsr; Li, Liu & Tang 2009) learns a PSD metric M on the m
//     smallest eigenvectors of L_sym from the constraints and clusters
//     F·M^{1/2}: it needs must-links and suits classes that live in the
//     span of a few smooth eigenvectors without being the graph's own
//     clusters (XOR-like data). Keep m small against the number of pairs
//     (fewer than m(m+1)/2 overfit); a solve costs O(K·m² + m³) per
//     iteration. On graphs with weakly attached groups prefer FGPWC.
//     L1CSC (l1csc; seed 001, Kawale & Boley 2013) penalizes violated
//     pairs by λ‖Cx‖₁ instead of enforcing them, a convex subproblem by
//     ADMM per step; it splits by sign (k > 2 by bisection with
//     must-links only). CPCA and CLPP (cpca, clpp; seed 002 §3) project
//     feature rows on constrained directions and run k-means, and CVQE
//     (cvqe; Davidson & Ravi 2005) is k-means whose objective charges
//     violated pairs: the non-spectral peers of the sources, which need
//     Problem.Features.
//
//   - A nonnegative rows×cols matrix (documents × words). CoCluster
//     (cocluster; seed 001 §5.2, Dhillon 2001) clusters rows and columns
//     together from the SVD of D₁^{-1/2}AD₂^{-1/2}, with pairs on rows or
//     columns as the normalized constraint-Laplacian penalty of seed 001
//     eq. 3.6 (signed for cannot-links); it needs Problem.Bipartite.
//
//   - A prior on cluster sizes only (thesis ch. 5). PLMeans (plmeans) is
//     power-law means (Zhou et al.), for study: it finds k, but returns
//     all singletons for small σ, one cluster for large σ, and never more
//     than one cluster of size > 1 unless α + 3θ < 1 (thesis §5.2.3; the
//     plmeans-limits reproduction); on graphs the switch is abrupt.
//     OPPLC (opplc; thesis Alg. 17) is for ordered nodes (mentions in
//     reading order): one pass links each node to its best earlier node
//     or starts a cluster, with Pitman–Yor weights; it honours
//     cannot-links exactly and finds k in O(nnz + constraints). W must lie
//     in [0, 1] (Scale = max rescales). OPPLCOnline learns its scores from
//     pair features (§5.3.2).
//
// Pairwise methods accept partial labels too (converted by one policy, see
// MaxLabelPairs). Above DenseLimit nodes the embedding methods use the
// iterative eigensolver and never form a dense n×n matrix, except CSCAP
// and where a method's documentation says so.
//
// # Files
//
// One file per method (spectral.go holds NJW, ShiMalik, Unnormalized and
// BetheHessian; fgpwc*.go is FGPWC; cosc*.go is COSC; opplc*.go and
// qcqp.go are OPPLC and its online learning; linproj.go holds CPCA and
// CLPP, which share their projection code). Shared code lives in files
// named for what they hold: run.go (the driver), registry.go, knobs.go
// (knob ranges and descriptions), partition.go (k-means to Result,
// constraint-violation selection), embed.go (Laplacian and commute-time
// embeddings), operators.go (sparse-plus-low-rank operators), bisection.go
// (greedy recursive bisection, COSC and L1CSC), cg.go (preconditioned
// conjugate gradients), pencil.go
// (generalized eigenproblems), power.go (the power method of the
// rank-one-supervision methods), supervision.go (labels to pairs,
// imprinted affinities, labelled classes), labelrecover.go (the label
// methods' recovery of unlabelled classes and components), auto.go (the
// cross-validated choice of a method) and seeds.go (random streams).
package cluster
