// Package active proposes the next pairwise questions to ask a person
// ("do these two belong together?") in interactive constrained clustering.
//
// Suggest reads a State — an embedding (one row per node), the current
// partition and the constraints answered so far — and returns pairs to
// ask, best first. The strategies are documented on the Strategy
// constants; all of them share three rules:
//
//   - A question is never a pair already answered nor one whose answer the
//     transitive closure of the answers implies: two nodes joined by a chain
//     of must-links (constraint.Closure), or lying in two must-link
//     components joined by a cannot-link (constraint.ComponentCannotLinks).
//   - The cost of a call is O(n·d·(k + c)) for n nodes, d embedding
//     columns, k clusters and c touched components or questions asked, plus
//     O(n log n) for ranking (the Strategy constants give each one's). That
//     is linear in n for a few questions and clusters, but quadratic,
//     O(n²·d), when k or the Count asked for is of the order of n: Explore,
//     and Boundary before any neighbourhood, scan every node for each
//     question, and the margins of Boundary and Similarity compare every
//     node with every centroid.
//   - Every random choice (tie breaks, the first point, the Random
//     strategy) is drawn from Options.Seed: the same State and Options give
//     the same questions.
//
// # Neighbourhoods
//
// The Explore and Auto strategies follow the Explore and Consolidate scheme
// of Basu, Banerjee and Mooney, "Active semi-supervision for pairwise
// constrained clustering" (SDM 2004). The answers are first reduced to
// must-link components (constraint.Closure). The neighbourhoods are the
// components touched by a constraint that are pairwise cannot-linked,
// chosen greedily in the order the constraints first mention them: they
// are groups known to lie in different clusters. A touched component that
// is not a neighbourhood is pending: the next question about it asks it
// against the nearest neighbourhood it is not yet cannot-linked to. A
// must-link answer merges it into that neighbourhood, and the closure
// then implies its cannot-links to every other neighbourhood, so one answer
// counts for k − 1 more.
package active
