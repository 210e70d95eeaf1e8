// Package metrics compares a partition (the "prediction", or system
// partition) with a reference partition (the "truth") and scores partitions
// against side information: SPEC §4, thesis §2.5 (seed 000), seeds 001, 002,
// 003 and 004.
//
// A partition of n items is a label slice: labels[i] is the cluster of item
// i. Labels are arbitrary integers (negative values included) and only
// their equality matters, so every figure is invariant under relabelling.
// Truth and prediction may have different numbers of clusters.
//
// Every figure is computed from one Contingency table, built once in
// O(n + k₁ + k₂) time and O(n) memory without any k₁×k₂ array when that
// would be large; the functions ARI, NMI, … build it for you. All figures
// cost O(n + k₁ + k₂ + nnz) on top of it (nnz ≤ min(n, k₁k₂) is the number
// of non-empty cells), except those that need an optimal one-to-one
// cluster alignment (Accuracy, CEAF): they call Hungarian, O(k³) time and
// O(k²) memory with k = max(k₁, k₂).
//
// Families of figures:
//
//   - pair counting: Rand index (thesis eq. 2.5.6), adjusted Rand index
//     (thesis eq. 2.5.9, Hubert & Arabie 1985), pairwise precision, recall
//     and F1, Fowlkes–Mallows index;
//   - information theory: entropies, mutual information, NMI with five named
//     normalizations (Normalization), adjusted mutual information (AMI),
//     variation of information (thesis eq. 2.5.12, Meilă 2007),
//     homogeneity, completeness and V-measure;
//   - matching: purity (seed 001 eq. 5.11), accuracy under the best
//     cluster-to-class mapping (seed 002 eq. 45–46);
//   - coreference: MUC, B³, CEAF_m, CEAF_e and the CoNLL score (thesis
//     §2.5, eq. 2.5.1–2.5.4), per-class micro-averaged F1 by reference
//     cluster size (seed 003 §5.2);
//   - side information: violated must-links and cannot-links, ARI over the
//     pairs the constraints leave free (UnconstrainedARI, as the FGPWC tables
//     report it), cut, ratio cut and normalized cut of a partition on a graph
//     (thesis eq. 2.3.2–2.3.3).
//
// Logarithms are natural: entropies, mutual information and the variation
// of information are in nats (divide by ln 2 for bits). Normalized figures
// (NMI, homogeneity, …) do not depend on the base.
//
// Degenerate cases follow scikit-learn 1.2.1 where it defines the figure,
// so that published numbers can be reproduced: two identical partitions
// have ARI = Rand = NMI = 1 even when both are a single cluster (where the
// ARI formula is 0/0); NMI is 0 when exactly one side is a single cluster.
// Each function documents its own conventions. Evaluate computes every
// figure at once, in a stable order, for the "tether eval" command.
package metrics
