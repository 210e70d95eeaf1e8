package cluster

import (
	"context"
	"fmt"
	"slices"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/wording"
)

// MaxLabelPairs is the limit of the one policy by which every pairwise
// method turns partial labels into pairs. With L labelled nodes, all
// L(L−1)/2 labelled pairs are used when that is at most MaxLabelPairs;
// above, each pair is kept independently with probability
// MaxLabelPairs/(L(L−1)/2) (constraint.SampleFromLabels, seeded by
// Settings.Seed), and the Result warns. 10⁵ pairs keep FGPWC's descent,
// O(pairs·m²) per step, within seconds; pass a sample of pairs in
// Problem.Constraints to use another number.
const MaxLabelPairs = 100_000

// VoteMinPairs is the number of pairwise constraints from which the
// methods that down-weight contradicted constraints by default (CSCAP,
// see CSCAP.NoVote) do so: with fewer, each constraint has too few
// neighbours for constraint.Vote to tell a wrong one from a correct
// one that is merely isolated, and every constraint is used at full
// weight. 30 is three times Vote's default K = 10 (ours, not tuned on
// any result table).
const VoteMinPairs = 30

// votePairs returns pairs with their weights scaled by
// constraint.VoteWeights (default K and Margin) on the node similarity
// sim, in [0, 1], and a warning saying how many were down-weighted and
// how many left out; pairs unchanged when there are fewer than
// VoteMinPairs. n is the number of nodes. nbr, when not nil, lists for
// each node every other node of positive similarity
// (constraint.VoteOptions.Neighbours): the scores are the same, and only
// the pairs near each pair are examined. Cost O(m²) calls of sim for m
// pairs without nbr; with nbr, O(Σ_t Σ_{a ∈ N[i_t]} pairs at a) (see
// constraint.Vote).
func votePairs(ctx context.Context, method, knob string, n int, pairs []constraint.Pair, sim func(a, b int) float64, nbr func(a int) []int32) ([]constraint.Pair, []string, error) {
	if len(pairs) < VoteMinPairs {
		return pairs, nil, nil
	}
	out, f, err := constraint.VoteWeights(ctx, &constraint.Set{N: n, Pairs: pairs}, sim, constraint.VoteOptions{Neighbours: nbr})
	if err != nil {
		return nil, nil, fmt.Errorf("cluster: %s: vote weights of the constraints: %w", method, err)
	}
	soft, zero := countVoted(f)
	if soft+zero == 0 {
		return out.Pairs, nil, nil
	}
	w := fmt.Sprintf("%s: %d of %d constraints contradicted by the constraints near them on the graph: %d down-weighted, %d left out (constraint.VoteWeights; set %s to use every constraint at full weight)", method, soft+zero, len(pairs), soft, zero, knob)
	return out.Pairs, []string{w}, nil
}

// screenPairs is the constraint screen of ML- and MCL-NOA-SSC (ours,
// beyond the sources; issue 17), applied to the pairs before the
// must-link closure, where one wrong must-link merges two classes:
//
//  1. the vote: each pair's weight is scaled by constraint.VoteWeights
//     with VoteFilter's default K = 10 and margin ½ (the constants CSCAP
//     uses, fixed before any noisy-constraint result), on the
//     similarity W_ab / max(1, max W) of g; pairs with agreement ≤ −½ (at
//     least 75% of their neighbours' vote weight for the other kind) are
//     left out;
//  2. the repair: constraint.Repair drops, for each cannot-link still
//     inside a must-link component, a minimum cut of the must-links
//     separating its ends when it weighs less than the contradicted
//     cannot-links it resolves, else that cannot-link, weights being the
//     vote's (exact for one contradiction; no constant to choose).
//
// Below VoteMinPairs pairs nothing is done (too few to vote). It returns
// the pairs kept, in order, with their vote weights, and a warning naming
// knob when any pair was left out or down-weighted. Cost: constraint.Vote
// restricted to the graph's neighbourhoods (VoteOptions.Neighbours:
// O(Σ_t Σ_{a ∈ N[i_t]} pairs at a) weight look-ups of O(log deg) each,
// O(m²) on a complete graph), plus Repair's.
func screenPairs(ctx context.Context, method, knob string, g *graph.Graph, pairs []constraint.Pair) ([]constraint.Pair, []string, error) {
	if len(pairs) < VoteMinPairs {
		return pairs, nil, nil
	}
	n := g.N()
	scale := 1.0
	for i := 0; i < n; i++ {
		idx, w := g.Row(i)
		for k, j := range idx {
			if int(j) != i {
				scale = max(scale, w[k])
			}
		}
	}
	sim := func(a, b int) float64 { return max(0, g.Weight(a, b)) / scale }
	nbr := func(a int) []int32 { idx, _ := g.Row(a); return idx }
	voted, f, err := constraint.VoteWeights(ctx, &constraint.Set{N: n, Pairs: pairs}, sim, constraint.VoteOptions{Neighbours: nbr})
	if err != nil {
		return nil, nil, fmt.Errorf("cluster: %s: vote on the constraints: %w", method, err)
	}
	soft, zero := countVoted(f)
	cut, err := constraint.Repair(ctx, voted)
	if err != nil {
		return nil, nil, fmt.Errorf("cluster: %s: repair of contradicted constraints: %w", method, err)
	}
	var cutML, cutCL int
	for _, t := range cut {
		if voted.Pairs[t].Kind == constraint.MustLink {
			cutML++
		} else {
			cutCL++
		}
	}
	out := voted.Pairs
	if len(cut) > 0 {
		out = make([]constraint.Pair, 0, len(voted.Pairs)-len(cut))
		for t, p := range voted.Pairs {
			if _, found := slices.BinarySearch(cut, t); !found {
				out = append(out, p)
			}
		}
	}
	if soft+zero+len(cut) == 0 {
		return out, nil, nil
	}
	w := fmt.Sprintf("%s: constraint screen: of %d constraints, %d contradicted by the constraints near them on the graph (%d down-weighted, %d left out; constraint.VoteWeights), and %s and %s left out to resolve contradictions of the closure (constraint.Repair); %s = false uses every constraint", method, len(pairs), soft+zero, soft, zero, wording.Count(cutML, "must-link", "must-links"), wording.Count(cutCL, "cannot-link", "cannot-links"), knob)
	return out, []string{w}, nil
}

// pairPolicy selects how supervisionPairsContext converts labels.
type pairPolicy int

const (
	// allPairs: every labelled pair, sampled above MaxLabelPairs.
	allPairs pairPolicy = iota
	// closurePairs: a chain of must-links per class and one cannot-link
	// between the first nodes of every two classes, O(L + k²) pairs with
	// the must-link closure and the component cannot-links of all pairs.
	// Exact for methods that use only those (ML- and MCL-NOA-SSC); never
	// sampled.
	closurePairs
)

// supervisionPairsContext returns the pairwise supervision of p: the pairs
// of p.Constraints, then those made from p.Labels by the policy (see
// MaxLabelPairs), and a warning when labels were sampled. The sample
// draws from the streamLabelSample stream of s. Cost O(pairs), or O(L²)
// to enumerate the labelled pairs. Making the pairs of all labelled nodes
// or sampling them checks ctx every 4096 pairs (constraint.FromLabelsContext,
// constraint.SampleFromLabelsContext, which draw what FromLabels and
// SampleFromLabels draw); once it is cancelled the error, naming method
// and the stage, wraps ctx's.
func supervisionPairsContext(ctx context.Context, method string, p *Problem, s *Settings, policy pairPolicy) ([]constraint.Pair, []string, error) {
	var pairs []constraint.Pair
	if p.Constraints != nil {
		pairs = append(pairs, p.Constraints.Pairs...)
	}
	if p.Labels == nil {
		return pairs, nil, nil
	}
	if policy == closurePairs {
		return append(pairs, chainPairs(p.Labels)...), nil, nil
	}
	lab := len(p.Labels.Labeled())
	total := constraint.NumPairs(lab)
	const stage = "pairs of the labelled nodes"
	if total <= MaxLabelPairs {
		set, err := constraint.FromLabelsContext(ctx, p.Labels)
		if err != nil {
			return nil, nil, methodError(method, stage, err)
		}
		return append(pairs, set.Pairs...), nil, nil
	}
	set, err := constraint.SampleFromLabelsContext(ctx, p.Labels, float64(MaxLabelPairs)/float64(total), s.src(streamLabelSample))
	if err != nil {
		return nil, nil, methodError(method, stage, err)
	}
	w := fmt.Sprintf("%s: %d labelled nodes give %d pairs; %d were sampled (MaxLabelPairs = %d)", method, lab, total, len(set.Pairs), MaxLabelPairs)
	return append(pairs, set.Pairs...), []string{w}, nil
}

// chainPairs returns the closurePairs form of labels: a must-link from
// each labelled node to the previous one of its class, and a cannot-link
// between the first nodes of every two classes, in node order.
func chainPairs(labels constraint.Labels) []constraint.Pair {
	var pairs []constraint.Pair
	first := map[int]int{}
	last := map[int]int{}
	var order []int
	for i, c := range labels {
		if c == constraint.Unlabeled {
			continue
		}
		if j, ok := last[c]; ok {
			pairs = append(pairs, constraint.Pair{I: j, J: i, Kind: constraint.MustLink})
		} else {
			first[c] = i
			order = append(order, c)
		}
		last[c] = i
	}
	for a := 0; a < len(order); a++ {
		for b := a + 1; b < len(order); b++ {
			pairs = append(pairs, constraint.Pair{I: first[order[a]], J: first[order[b]], Kind: constraint.CannotLink})
		}
	}
	return pairs
}

// labelledClasses returns the labelled nodes of each class 0…p.K−1 of
// p.Labels. It reports, wrapping ErrInvalid, a problem without labels (with
// a hint when only pairs were given: they convert to labels only through
// the must-link closure of ml-noa-ssc and mcl-noa-ssc) or whose labels are
// all constraint.Unlabeled, both wrapping ErrNoSupervision too
// (noSupervision), and a class without any labelled node. p must have
// passed Run's validation.
func labelledClasses(method string, p *Problem) ([][]int, error) {
	if p.Labels == nil {
		if p.Constraints != nil {
			return nil, noSupervision("%s needs partial labels; pairwise constraints define labels only through the must-link closure (use ml-noa-ssc or mcl-noa-ssc)", method)
		}
		return nil, noSupervision("%s needs partial labels, none given", method)
	}
	members := make([][]int, p.K)
	total := 0
	for i, c := range p.Labels {
		if c != constraint.Unlabeled {
			members[c] = append(members[c], i)
			total++
		}
	}
	if total == 0 {
		return nil, noSupervision("%s needs partial labels, but every node is unlabelled", method)
	}
	for c, m := range members {
		if len(m) == 0 {
			return nil, fmt.Errorf("%w: %s: class %d of k = %d has no labelled node (every class needs at least one)", ErrInvalid, method, c, p.K)
		}
	}
	return members, nil
}

// constrainedAffinity returns g with W_ij = wml for the must-links of set
// and W_ij = 0 for its cannot-links (seed 000 §4.1.1). With soft, a pair
// of confidence c = min(1, Σ w_q) (the weights Pair.W() of its copies in
// set summed) moves W_ij only that far: W_ij ← (1 − c)·W_ij + c·wml for a
// must-link, (1 − c)·W_ij for a cannot-link (an edge of weight 0 is left
// out), the convex combination of the affinity and Kamvar et al.'s
// overwrite, which c = 1 (every unit weight, and every confidence of 1 or
// more) gives exactly. Without soft every pair has c = 1. Repeated pairs
// are allowed; a pair that is both must-link and cannot-link is an error
// naming the calling method, its remedy spelled by s (Settings.Spelling;
// s may be nil). It checks ctx every affinityCheckEvery pairs or edges
// (6·10⁶ pairs on a 2·10⁶-node graph take seconds) and returns its error,
// wrapped, when it is cancelled. Cost O(nnz + pairs) expected (a hash of
// the pairs).
func constrainedAffinity(ctx context.Context, g *graph.Graph, set *constraint.Set, wml float64, soft bool, method string, s *Settings) (*graph.Graph, error) {
	cancelled := func(i int) error {
		if i%affinityCheckEvery != 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("cluster: %s: constrained affinity: %w", method, err)
		}
		return nil
	}
	type pairKind struct {
		kind constraint.Kind
		c    float64 // confidence: Σ w_q, used up to 1
	}
	kind := make(map[[2]int]pairKind, len(set.Pairs))
	for t, pr := range set.Pairs {
		if err := cancelled(t); err != nil {
			return nil, err
		}
		key := [2]int{min(pr.I, pr.J), max(pr.I, pr.J)}
		old, ok := kind[key]
		if ok && old.kind != pr.Kind {
			return nil, fmt.Errorf("%w: %s: pair %d (%d,%d) is both a must-link and a cannot-link; resolve the contradiction first %s, or use a method that resolves it (ml-noa-ssc, mcl-noa-ssc)", ErrInvalid, method, t, pr.I, pr.J, s.resolveRemedy())
		}
		c := 1.0
		if soft {
			c = old.c + pr.W()
		}
		kind[key] = pairKind{pr.Kind, c}
	}
	edges := g.Edges()
	out := edges[:0]
	for t, e := range edges {
		if err := cancelled(t); err != nil {
			return nil, err
		}
		key := [2]int{e.I, e.J}
		pk, ok := kind[key]
		if ok {
			delete(kind, key)
			switch {
			case pk.kind == constraint.MustLink && pk.c >= 1:
				e.W = wml
			case pk.kind == constraint.MustLink:
				e.W = (1-pk.c)*e.W + pk.c*wml
			case pk.c >= 1:
				continue
			default:
				if e.W *= 1 - pk.c; e.W == 0 {
					continue
				}
			}
		}
		out = append(out, e)
	}
	// Must-links between nodes that were not adjacent, in pair order.
	for t, pr := range set.Pairs {
		if err := cancelled(t); err != nil {
			return nil, err
		}
		key := [2]int{min(pr.I, pr.J), max(pr.I, pr.J)}
		if pk, ok := kind[key]; ok && pk.kind == constraint.MustLink {
			w := wml
			if pk.c < 1 {
				w = pk.c * wml
			}
			out = append(out, graph.Edge{I: key[0], J: key[1], W: w})
			delete(kind, key)
		}
	}
	g2, err := graph.FromEdges(g.N(), out)
	if err != nil {
		return nil, wrapMethod(method, err)
	}
	return g2, nil
}

// affinityCheckEvery is how many pairs or edges constrainedAffinity
// handles between two checks of its context.
const affinityCheckEvery = 1 << 14

// countVoted counts the vote factors f of constraint.VoteWeights that
// down-weight a constraint (0 < f < 1: soft) or leave it out (f = 0).
func countVoted(f []float64) (soft, zero int) {
	for _, x := range f {
		switch {
		case x == 0:
			zero++
		case x < 1:
			soft++
		}
	}
	return soft, zero
}
