// Package constraint holds the side information of semi-supervised
// clustering (SPEC §5): partial labels, pairwise must-link and cannot-link
// constraints with optional weights, their files, consistency checks
// (must-link closure, contradictions) and the seeded generators of the
// experimental protocols of the sources.
//
// # Kinds of supervision
//
// Labels gives some nodes a class (Unlabeled for the others); a Set holds
// Pairs, each a must-link or cannot-link between two nodes with an optional
// weight for soft constraints. FromLabels and SampleFromLabels turn labels
// into pairs (same label → must-link, different → cannot-link);
// PartialLabels goes back through the must-link closure. LabelsToSets and
// SetsToLabels convert to and from the label sets V_1 … V_k of seed 004
// (LabelsToSets gives one set per label present, so sparse large labels
// cost nothing).
//
// # Consistency
//
// Must-links are transitive: Closure computes the components of the
// must-link graph by union–find, in O(n + m·α(n)) rather than the O(n³) of
// Warshall's algorithm. Check reports the cheap contradictions — bad pairs,
// duplicates, a pair both must-link and cannot-link, a cannot-link inside a
// must-link component (with the chain of must-links that forces it) — and
// Resolve applies a Policy: Reject, DropConflictingCannotLinks or Soft.
// Whether cannot-links can all hold with k ≥ 3 clusters is graph
// colouring, NP-complete, so Check does not try: a set it accepts may still
// be unsatisfiable for a given k.
//
// # Noisy constraints
//
// Vote scores each pair by the pairs most similar to it on a node
// similarity (a graph's weights): a flipped constraint sits among
// constraints of the other kind. VoteFilter drops the pairs the vote
// contradicts and, with VoteOptions.Consistent, takes the rest in
// decreasing agreement and drops each one that conflicts (as Check finds
// conflicts) with those taken, instead of failing
// (experiment noisy-constraints measures it on every pairwise method).
// VoteWeights is its soft form (weights scaled down instead of pairs
// dropped; CSCAP's default), Plausibility turns the vote into each pair's
// probability of being right, and Repair (minimum must-link cuts) and
// Contract (greedy additive edge contraction of the signed constraint graph)
// choose constraints to drop so that the rest are consistent.
//
// # Generators
//
// Every generator takes a rand.Source (nil means DefaultSeed) and gives the
// same output for the same seed; none visits all n² pairs when it samples a
// share of them, and none costs more than O(k log k) for k distinct labels,
// whatever their values (but LabelSets, whose sets are indexed by label).
// BernoulliPairsContext, UniformPairsContext, FractionPairsContext,
// SampleFromLabelsContext, FromLabelsContext, FractionLabelsContext,
// StratifiedLabels, MustLinksUniformityContext, FlipLabelsContext and
// FlipPairsContext check a context every few thousand draws and stop with
// its error once it is cancelled; the names without Context use
// context.Background().
//
//	protocol                                      source                            function
//	each pair with probability p (p = 1/n)        seed 003 §5.1, seed 000 §4.5.1    BernoulliPairs
//	a fraction of all pairs (1%; 0–20%)           seed 000 Table 4.2, seed 002 §6   FractionPairs, UniformPairs
//	a fraction of labelled nodes (10%; 20–80%)    seed 000 §3.4, seed 001 §5        FractionLabels
//	label sets V_1…V_k (25/50/75% of nodes)       seed 004 eq. 4.1, §6              LabelSets, StratifiedLabels
//	uniform must-links only                       seed 000 §4.1.3, Fig. 4.3         UniformMustLinks
//	must-links with uniformity α                  seed 000 §4.1.3, Fig. 4.4         MustLinksUniformity
//	partitions A–D                                seed 000 Table 4.1                Table41, BlockLabels
//	flip a fraction of labels / of pairs          seed 001 §5 (10% noisy labels)    FlipLabels, FlipPairs
//
// # Files
//
// Pairwise constraints (Read, ReadFile, Write) are text lines
//
//	# base=1
//	i,j,kind[,weight]
//
// with kind ml or cl and an optional positive weight, the fields separated
// by commas, tabs, semicolons or blanks as the first data line has them
// (the rule of the labels files of package dataset); '#' starts a comment,
// and a "# base=0" or "# base=1" directive before the first constraint
// declares the numbering of i and j (0 when absent); a first line whose
// third field names the kind column (i,j,kind; a,b,type;
// u,v,constraint,weight) is a header. An explicit
// ReadOptions.Base must agree with the directive, else reading fails: the
// two are never silently reconciled. With ReadOptions.Names, i and j are
// node names from the data file's id column instead; WriteNamed writes
// them so, after a header "name_i,name_j,kind" that keys the nodes by
// name even when the names are integers (read as indices without Names).
// Partial labels (ReadLabels, ReadLabelsFile, WriteLabels,
// WriteLabelsNamed) are either node,label lines (name,label after a
// "name,label" header) or one label per line in node order, with -1, "?"
// or an empty field for an unlabelled node. Every reader error names the
// file and line.
package constraint
