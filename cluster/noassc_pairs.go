package cluster

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/wording"
)

// MLNOASSC is ML-NOA-SSC (seed 000 Alg. 8, §4.1.2): pairwise must-links
// turned into labels, then NOA-SSC. The transitive closure of the
// must-links partitions the nodes into m groups P (line 2–4); the groups
// form the graph W^m = PᵀWP (line 5: W^m_ff' sums the weights between
// groups f and f', the diagonal the weights inside a group); normalized
// cut (Shi–Malik, thesis Alg. 2) splits W^m into K clusters Q (line 6–8);
// and NOA-SSC runs on W with the labels PQ of every node (line 9), which
// relaxes the must-links into soft label constraints.
//
// Supervision: Problem.Constraints; Problem.Labels, when given, are first
// converted to pairs (same label → must-link, different → cannot-link;
// only the closure and, for MCLNOASSC, the component cannot-links matter,
// so a chain of must-links per class and one cannot-link per pair of
// classes is used, which has the same effect in O(n + K²)). Cannot-links
// are ignored by ML-NOA-SSC. It needs at least one pair or label; when the
// closure leaves exactly K groups they are the labels (no cut needed), and
// fewer than K groups is an error wrapping ErrInvalid (the must-links join
// nodes that K clusters would have to separate).
//
// With Screen (ours, beyond the sources; issue 17), when
// Problem.Constraints holds at least VoteMinPairs pairs, they are
// screened before the closure: pairs that the constraints near them on the graph contradict
// are left out (constraint.VoteWeights, VoteFilter's default K = 10 and
// margin ½), and every cannot-link left inside a must-link component is
// resolved by dropping a minimum cut of the must-links between its ends
// when it weighs less than the contradicted cannot-links it resolves, or
// else that cannot-link (constraint.Repair). One
// wrong must-link otherwise merges two classes for good: with 10% of the
// constraints flipped at 5 pairs per node, MCL-NOA-SSC lost 0.35–0.57 ARI
// (docs/results/noisy-constraints). The cannot-links thus also act in
// ML-NOA-SSC's screen, though not in its cut. Pairs made from
// Problem.Labels are not screened (they are consistent by construction).
// The screen is not the default: it also leaves out correct constraints
// that contradict the graph, which cost up to 0.34 ARI on clean real data
// at 5n pairs (docs/results/realdata, first run of issue 17's screen).
//
// By default (ours, beyond the sources; issue 17) the constraints are
// resolved instead, and only when they contradict each other (a
// cannot-link inside a must-link component, which proves some of them
// wrong): consistent constraints are used as given, so the algorithm is
// then exactly as published. Contradictory ones are cleaned in three
// steps: the pairs that the constraints near them on the
// graph contradict are left out (the vote of the screen); on graphs of
// at most 1000 nodes, so are the must-links whose ends a reference
// partition separates (Reference: CSCAP with its defaults, or FAST-GE
// when the refinement's cross-validation below picks it; see
// ResolveReference and ReferenceFixed); and the rest is clustered
// by greedy additive edge contraction on the signed constraint graph,
// each pair weighing its log-odds of being right (constraint.Contract,
// constraint.Plausibility), which leaves out the must-links between the
// groups and the cannot-links inside them. NoResolve turns it off; then
// MCL-NOA-SSC warns when cannot-links fall inside a must-link group and
// ignores them, as published. Pairs made from Problem.Labels are not
// resolved. Results with 10% of the constraints flipped:
// docs/results/noisy-constraints.
//
// By default (ours, beyond the sources; issue 17), after the resolve
// acted, a refinement moves single nodes to lower the PCKMeans energy of
// the partition in the reference partition's embedding, with every given
// constraint as a soft penalty of weight λ = RefineDefault (Refine): it
// puts back nodes that a wrong must-link the resolve
// kept had carried into another class, and lets the correct must-links it
// left out act again. Consistent constraints are not refined, so the
// method stays as published on them. The cannot-links also act in
// ML-NOA-SSC's refinement. λ was chosen on generated data only
// (docs/results/noisy-dev). By default (RefineCVDefault, noisy-dev's
// round 3) that refinement is only the incumbent: 5-fold cross-validation
// on the given constraints replaces it by another λ, NJW's
// embedding or no refinement when that satisfies significantly more
// held-out constraints. Setting Refine or RefineNJW fixes the refinement
// (Refine = −1 turns it off), and RefineFixed fixes the default one. By
// default (ReferenceCVDefault, noisy-dev's round 4) the same
// cross-validation also chooses the resolve's reference: each fold
// resolves with CSCAP's reference and with FAST-GE's, and the
// refinements of both compete (ReferenceFixed, or setting Reference,
// keeps Reference's). After a refinement the
// Result's Embedding is still NOA-SSC's and its Objective is 0 (the
// distortion was that of the labels before the moves).
//
// The embedded NOASSC holds the knobs of the final step. Result: that of
// NOA-SSC, with a warning giving m (and one from the screen when it left
// out or down-weighted a pair, or from the resolve when it acted), and
// Report = *RefineReport when the refinement's cross-validation ran.
//
// Cost: O(n + nnz + pairs) for the closure and W^m, a Shi–Malik cut of the
// m-node graph, and NOA-SSC on W; the screen adds the vote's weight
// look-ups over neighbouring pairs (O(pairs²) on a complete graph) and a
// max-flow per contradiction. The resolve costs O(n + pairs·α(n)) to find
// the constraints consistent; when they are not, the vote's look-ups,
// the reference (CSCAP by default, O(n³); FAST-GE one generalized
// eigensolve; n ≤ 1000) and the
// contraction's O(n + pairs·log n·log pairs); then the refinement's
// cross-validation: five such fits per reference (two by
// default) on 4/5 of the pairs with 5 k-means restarts, the folds in
// parallel, sharing CSCAP's prior and each fold's vote, one NJW embedding
// and 35 refinements per reference, run before the final fit, which then
// uses the reference chosen (about 4 times the resolved fit's wall time
// on 2 cores; BenchmarkMCLNOASSCNoisy500 against …BothFixed).
type MLNOASSC struct {
	NOASSC
	// Screen screens the constraints before the closure (the vote, then
	// the contradiction repair; see above), whether or not they contradict
	// each other. Off: the default resolve (see NoResolve).
	Screen bool `doc:"screen the constraints before the must-link closure: leave out those the constraints near them on the graph contradict, then repair contradictions by minimum must-link cuts (robust to wrong constraints; may drop correct ones that contradict the graph)"`
	// NoResolve uses the constraints as given even when they contradict
	// each other, as seed 000 Alg. 8 does. Off (the default):
	// contradictory constraints are resolved before the closure (see
	// above); consistent ones are used as given either way.
	NoResolve bool `doc:"use the constraints as given even when they contradict each other (as published); by default contradictory constraints are resolved before the must-link closure (vote, reference partition, contraction)"`
	// Reference is the reference partition of the resolve (step 2 above):
	// ReferenceCSCAP (the zero value), ReferenceFastGE, or ReferenceNone
	// to leave that step out. It acts only when the resolve does.
	Reference ResolveReference `doc:"reference partition of the resolve, whose separated must-links are left out: cscap (CSCAP, default; then cross-validation may pick FAST-GE instead unless ReferenceFixed), fast-ge (FAST-GE) or none; setting fast-ge or none fixes it"`
	// Refine is the weight λ of a violated constraint in the refinement
	// that follows the resolve when it acted, relative to a node's typical
	// squared distance to its centroid in the reference partition's
	// embedding (see RefineNJW): 0 means RefineDefault, or the
	// cross-validation's choice (see RefineFixed); −1 turns the
	// refinement off.
	Refine float64 `doc:"weight of a violated constraint in the refinement after the resolve, in units of a typical squared distance to a centroid (0: cluster.RefineDefault, or another chosen by cross-validation unless RefineFixed; −1: no refinement)" range:"-1 | [0, 1e6]"`
	// RefineNJW measures the refinement's distances in NJW's embedding of
	// the graph even when the resolve's reference partition has an
	// embedding (by default the reference's is used).
	RefineNJW bool `doc:"measure the refinement's distances in NJW's embedding of the graph instead of the resolve's reference partition's"`
	// RefineFixed uses the default refinement (λ = RefineDefault in the
	// reference partition's embedding) as it is. By default
	// (RefineCVDefault), when Refine and RefineNJW are not set, that
	// refinement is only the incumbent of a cross-validation on the
	// constraints, kept unless another weight or space (or
	// none) satisfies significantly more held-out constraints. Setting
	// Refine or RefineNJW fixes the refinement too.
	RefineFixed bool `doc:"use the default refinement (λ = cluster.RefineDefault) as it is; by default, with Refine and RefineNJW unset, 5-fold cross-validation on the given constraints replaces it by another weight, space or none when that satisfies significantly more held-out constraints (McNemar, z > 1.645); setting Refine or RefineNJW also fixes it"`
	// ReferenceFixed keeps the resolve's reference partition as
	// Reference says. By default (ReferenceCVDefault), when Reference is
	// not set, the refinement's cross-validation (see RefineFixed)
	// chooses it too: each fold resolves with CSCAP's
	// reference and with FAST-GE's, and the refinements of both compete,
	// CSCAP's default refinement the incumbent. It acts only when the
	// refinement is chosen by cross-validation and the graph has at most
	// 1000 nodes (where the resolve computes a reference). Setting
	// Reference to fast-ge or none fixes it too.
	ReferenceFixed bool `doc:"keep the resolve's reference partition (Reference) as it is; by default, with Reference unset, the refinement's cross-validation also chooses between CSCAP's and FAST-GE's references (only when that cross-validation runs; up to 1000 nodes); setting Reference also fixes it"`
	// VoteHops is the node similarity of the resolve's vote on a sparse
	// graph (VoteHopsAct: a k-NN graph, not a full RBF one): 1, the
	// graph's weights; 2, the two-step similarity (Ŵ + I)², which lets
	// pairs vote on each other through a common neighbour of their ends;
	// 0 means VoteHopsDefault. On a dense graph the vote
	// reads the graph's weights either way.
	VoteHops int `doc:"node similarity of the resolve's vote on a sparse graph (rows with at most a quarter of the nodes, e.g. k-NN): 1 the graph's weights, 2 two steps, (Ŵ + I)² (0: cluster.VoteHopsDefault); a denser graph always uses its weights" range:"0 | [1, 2]"`

	// prior, when not nil and made by CSCAP{} for the graph being
	// clustered, is the resolve's CSCAP reference's work on the graph
	// alone (cscapPrior), which every fit would otherwise build once:
	// Auto shares its cscap candidate's with its folds. A cache with
	// nothing to set.
	prior *cscapPrior
	// refs, when not nil, shares the resolve's reference partitions with
	// other methods' fits of the same problem (referenceCache): Auto
	// gives its ML- and MCL-NOA-SSC candidates one.
	refs *referenceCache
}

// Name returns "ml-noa-ssc".
func (MLNOASSC) Name() string { return "ml-noa-ssc" }

// Uses declares what MLNOASSC reads from a Problem (see Run). It
// declares WeightScale, for contradictory pairs only
// (ScaleOnContradiction), when it resolves or screens them: the resolve
// weighs them against the graph on the weights' scale
// (on a 300-node SBM graph with 20% of 200 pairs flipped, the weights
// times 2⁻¹⁰ gave a partition at ARI 0.01 against that of scale 1);
// consistent pairs, used as given, give the same partition at every
// scale.
func (m MLNOASSC) Uses() Uses {
	// The resolve's reference partition (cscap) and the refinement's
	// embedding (NJW's) read Problem.Regularize.
	u := Uses{Supervision: Pairs, NeedsPairs: true, Core: true, Resolves: !m.NoResolve || m.Screen}
	u.Regularizes = u.Resolves
	if u.Resolves {
		u.WeightScale = "the pairs contradict each other, and their resolution weighs them against the edges on the weights' scale (CSCAP's reference partition, the refinement's penalty λ = 2)"
		u.ScaleOnContradiction = true
	}
	return u
}

// Partition partitions p.Graph into p.K clusters.
func (m MLNOASSC) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, m, p, s)
	if err != nil {
		return nil, err
	}
	return pairNOASSC(ctx, p, s, m.opts("ml-noa-ssc", false))
}

// opts returns m's knobs as pairNOASSC takes them, for the method name
// (Alg. 9 with useCL); MCLNOASSC, whose fields are MLNOASSC's, converts
// itself to use it.
func (m MLNOASSC) opts(name string, useCL bool) pairOpts {
	return pairOpts{
		name: name, inner: m.NOASSC, useCL: useCL,
		screen: m.Screen, resolve: !m.NoResolve, ref: m.Reference,
		refine: refineKnobsOf(m.Refine, m.RefineNJW, m.RefineFixed, referenceByCV(m.Reference, m.ReferenceFixed)),
		hops:   m.VoteHops, prior: m.prior, refs: m.refs,
	}
}

// MCLNOASSC is MCL-NOA-SSC (seed 000 Alg. 9): ML-NOA-SSC in which the
// cannot-links also act, after the closure: W^m_ff' = 0 whenever a
// cannot-link joins a node of group f and a node of group f' (lines 6–8),
// so every cannot-link is propagated to all pairs of the two groups (the
// idea of Kamvar et al. for cannot-links, seed 000 §4.1.1). A group whose
// every link is cut this way keeps a tiny self loop (10⁻¹² of the mean
// degree) so the cut stays defined; a warning says so. Cannot-links inside
// one group contradict the must-links; they are skipped with a warning.
// Everything else is as MLNOASSC, including the default resolve of
// contradictory constraints (NoResolve) and the optional screen (Screen);
// after either no cannot-link lies inside a group.
//
// Its knobs are MLNOASSC's (the same fields, documented there), except
// that with NoResolve the cannot-links inside a must-link group are
// ignored, with a warning. MLNOASSC(m) converts one to the other. Its
// Result is as MLNOASSC's: NOA-SSC's, Objective its k-means distortion,
// or 0 after a refinement.
type MCLNOASSC MLNOASSC

// Name returns "mcl-noa-ssc".
func (MCLNOASSC) Name() string { return "mcl-noa-ssc" }

// Uses declares what MCLNOASSC reads from a Problem (see Run).
func (m MCLNOASSC) Uses() Uses { return MLNOASSC(m).Uses() }

// Partition partitions p.Graph into p.K clusters.
func (m MCLNOASSC) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, m, p, s)
	if err != nil {
		return nil, err
	}
	return pairNOASSC(ctx, p, s, MLNOASSC(m).opts("mcl-noa-ssc", true))
}

// pairOpts is what the two pairwise NOA-SSC methods pass to pairNOASSC:
// the method's name (for errors and warnings), the NOA-SSC of the final
// step, whether the cannot-links act in the cut (Alg. 9) and the knobs
// of MLNOASSC and MCLNOASSC, resolved (resolve is !NoResolve; refine
// holds Refine, RefineNJW, RefineFixed and whether cross-validation
// chooses the reference), with their shared caches.
type pairOpts struct {
	name            string
	inner           NOASSC
	useCL           bool // Alg. 9 (MCL-NOA-SSC) rather than Alg. 8
	screen, resolve bool
	ref             ResolveReference
	refine          refineKnobs
	hops            int             // VoteHops; 0 means VoteHopsDefault
	prior           *cscapPrior     // see MLNOASSC.prior; nil: none
	refs            *referenceCache // see MLNOASSC.refs; nil: none
}

// pairNOASSC is Alg. 8 (o.useCL false) and Alg. 9 (o.useCL true), with
// the constraints of p screened first when o.screen is set (screenPairs),
// or else resolved when o.resolve is set and they contradict each other
// (resolvePairs, with reference partition o.ref), and then refined when
// the resolve acted (pairRefine). When o.refine.cv is set and the resolve
// will act, refineCV first chooses the refinement's λ and space, and the
// resolve's reference with them when o.refine.refCV is set, so that the
// method is fitted once, with the reference chosen. Its fits share work
// through one resolveShare, which starts with o.prior (CSCAP{}'s work on
// the graph, when made for p.Graph) when given, and takes its reference
// partitions from o.refs (shared with other methods) when given; the
// resolve's votes read the node similarity of o.hops.
func pairNOASSC(ctx context.Context, p *Problem, s *Settings, o pairOpts) (*Result, error) {
	if err := o.ref.check(o.name); err != nil {
		return nil, err
	}
	if o.hops == 0 {
		o.hops = VoteHopsDefault
	}
	if o.hops < 1 || o.hops > 2 {
		return nil, fmt.Errorf("%w: %s: VoteHops %d outside [1, 2]", ErrInvalid, o.name, o.hops)
	}
	// The folds and the final fit share CSCAP's prior and the vote's
	// similarity (each fold shares its vote too; see refineCV).
	sh := &resolveShare{prior: &priorMemo{}, sim: &simMemo{}, hops: o.hops, refs: o.refs}
	if def := (CSCAP{}); o.prior != nil && o.prior.g == p.Graph && o.prior.diagonal == def.Diagonal && o.prior.shift == def.Shift {
		sh.prior = &priorMemo{done: true, m: CSCAP{prior: o.prior}}
	}
	var njw *mat.Dense // NJW's embedding, computed at most once
	var cvWarnings []string
	var rep *RefineReport
	if o.refine.cv && o.resolve && !o.screen && p.Constraints != nil && !consistentPairs(p.Constraints) {
		refs := refineReferences(o.ref, o.refine.refCV, p.Graph.N())
		cand, x, r, w, err := refineCV(ctx, o, p, s, refs, refineCVFolds, sh)
		if err != nil {
			return nil, cancelledIn(o.name, "refinement cross-validation", err)
		}
		o.ref, o.refine, njw, rep, cvWarnings = cand.ref, cand.knobs, x, r, w
	}
	fit, err := pairNOASSCFit(ctx, p, s, o, sh)
	if err != nil {
		return nil, err
	}
	res, warnings := fit.res, fit.warnings
	if !fit.resolved {
		res.Warnings = append(warnings, res.Warnings...)
		return res, nil
	}
	warnings = append(warnings, cvWarnings...)
	if rep != nil {
		res.Report = rep
	}
	if lambda, on := refineLambda(o.refine.lambda); on {
		w, err := pairRefine(ctx, o.name, o.ref, fit.ref, o.refine.njw, njw, lambda, p, s, res)
		if err != nil {
			return nil, cancelledIn(o.name, "refinement", err)
		}
		warnings = append(warnings, w...)
	}
	res.Warnings = append(warnings, res.Warnings...)
	return res, nil
}

// pairFit is what pairNOASSCFit returns: the partition of NOA-SSC before
// any refinement, with the warnings so far (res.Warnings are NOA-SSC's
// own), the resolve's reference partition (nil when it made none), and
// whether the resolve acted.
type pairFit struct {
	res      *Result
	ref      *Result
	resolved bool
	warnings []string
}

// pairNOASSCFit is pairNOASSC up to NOA-SSC: the screen or the resolve,
// the closure, the cut of the group graph and NOA-SSC, without the
// refinement (o.refine and o.hops are not read: the votes' similarity is
// sh's). sh, when not nil, is work shared with other fits of the problem
// (see resolvePairs).
func pairNOASSCFit(ctx context.Context, p *Problem, s *Settings, o pairOpts, sh *resolveShare) (*pairFit, error) {
	name := o.name
	if err := o.ref.check(name); err != nil {
		return nil, err
	}
	fit := &pairFit{}
	if (o.screen || o.resolve) && p.Constraints != nil {
		var kept []constraint.Pair
		var w []string
		var err error
		stage := "resolve of contradictory constraints"
		if o.screen {
			stage = "screen of the constraints"
			kept, w, err = screenPairs(ctx, name, knobName(name), p.Graph, p.Constraints.Pairs)
		} else {
			kept, fit.ref, fit.resolved, w, err = resolvePairs(ctx, name, resolveKnob(name), o.ref, sh, p, s, p.Constraints.Pairs)
		}
		if err != nil {
			return nil, cancelledIn(name, stage, err)
		}
		fit.warnings = append(fit.warnings, w...)
		q := *p
		q.Constraints = &constraint.Set{N: p.Constraints.N, Pairs: kept}
		p = &q
	}
	pairs, _, err := supervisionPairsContext(ctx, name, p, s, closurePairs)
	if err != nil {
		return nil, err
	}
	if len(pairs) == 0 {
		return nil, noSupervision("%s needs pairwise constraints or labels: %s", name, noPairText(p))
	}
	set := &constraint.Set{N: p.Graph.N(), Pairs: pairs}
	g := p.Graph
	n, k := g.N(), p.K
	comp, m := constraint.Closure(set)
	if m < k {
		return nil, fmt.Errorf("%w: %s: the must-link closure leaves %d groups, fewer than k = %d", ErrInvalid, name, m, k)
	}
	fit.warnings = append(fit.warnings, note(fmt.Sprintf("%s: must-link closure: %s for %s", name, wording.Count(m, "group", "groups"), wording.Count(n, "node", "nodes"))))
	q := make([]int, m) // cluster of each group
	if m == k {
		for f := range q {
			q[f] = f
		}
	} else {
		wm, w, err := componentGraph(g, set, comp, m, o.useCL, resolveKnob(name))
		if err != nil {
			return nil, wrapMethod(name, err)
		}
		fit.warnings = append(fit.warnings, w...)
		// The cut's k-means draws from its own seed so that it does not
		// share a random stream with NOA-SSC's k-means. The cut is the
		// exact Ncut of the group graph (seed 000 Alg. 8, lines 6–8), never regularized:
		// W^m is built here, not given, and its group sizes make its
		// degrees heterogeneous by construction.
		cut, err := Run(ctx, ShiMalik{}, &Problem{Graph: wm, K: k, Regularize: exactLaplacian}, s.derive(streamPairNcut))
		if errors.Is(err, graph.ErrIsolated) {
			// Run's advice for an isolated node is ncut's ("leave the
			// regularization on"), which the user cannot follow here:
			// the group graph is built, and never regularized. Name a
			// node of the isolated group instead.
			node, group := -1, -1
			for f := 0; f < m && group < 0; f++ {
				if wm.Degree(f) == 0 {
					group = f
				}
			}
			for i := 0; i < n && group >= 0; i++ {
				if comp[i] == group {
					node = i
					break
				}
			}
			return nil, wrapMethod(name, fmt.Errorf("normalized cut of the group graph: %w: %w: node %d (with its must-link group) has no edge to the other groups, and the exact normalized cut of the group graph (thesis Alg. 8, never regularized) cannot place it: add self loops %s, drop the node, use a denser graph, or a method that regularizes (njw, ncut, cscap, ccsr)", ErrInvalid, graph.ErrIsolated, node, s.selfLoops()))
		}
		if err != nil {
			return nil, wrapMethod(name, fmt.Errorf("normalized cut of the group graph: %w", err))
		}
		copy(q, cut.Labels)
	}
	labels := make(constraint.Labels, n)
	for i, f := range comp {
		labels[i] = q[f]
	}
	if fit.res, err = o.inner.cluster(ctx, &Problem{Graph: g, K: k, Labels: labels}, s, name); err != nil {
		return nil, cancelledIn(name, "NOA-SSC on the closure's labels", err)
	}
	return fit, nil
}

// knobName is the Screen knob of the method named name, for warnings.
func knobName(name string) string {
	if name == "ml-noa-ssc" {
		return "MLNOASSC.Screen"
	}
	return "MCLNOASSC.Screen"
}

// componentGraph returns W^m = PᵀWP for the closure comp (m groups): an
// edge {i,j} of W adds W_ij to W^m_{comp i, comp j}, and twice W_ij to the
// self loop of a group containing both (both orientations of the symmetric
// matrix), so the degree of group f is vol(f). With useCL, the entries
// between groups joined by a cannot-link are dropped (seed 000 Alg. 9).
func componentGraph(g *graph.Graph, set *constraint.Set, comp []int, m int, useCL bool, knob string) (*graph.Graph, []string, error) {
	var warnings []string
	cut := map[[2]int]bool{}
	if useCL {
		for _, ab := range constraint.ComponentCannotLinks(set, comp) {
			cut[ab] = true
		}
		inside := 0
		for _, pr := range set.Pairs {
			if pr.Kind == constraint.CannotLink && comp[pr.I] == comp[pr.J] {
				inside++
			}
		}
		if inside > 0 {
			warnings = append(warnings, fmt.Sprintf("%s nodes of one must-link group (contradictions: some constraints are wrong); ignored; %s = false resolves them first", wording.Count(inside, "cannot-link joins", "cannot-links join"), knob))
		}
	}
	acc := map[[2]int]float64{}
	for _, e := range g.Edges() {
		a, b := comp[e.I], comp[e.J]
		if a > b {
			a, b = b, a
		}
		if a != b && cut[[2]int{a, b}] {
			continue
		}
		w := e.W
		if a == b && e.I != e.J {
			w *= 2
		}
		acc[[2]int{a, b}] += w
	}
	edges := make([]graph.Edge, 0, len(acc))
	for ab, w := range acc {
		edges = append(edges, graph.Edge{I: ab[0], J: ab[1], W: w})
	}
	// Sort for a deterministic CSR build (map order is random).
	sortEdges(edges)
	deg := make([]float64, m)
	for _, e := range edges {
		deg[e.I] += e.W
		if e.I != e.J {
			deg[e.J] += e.W
		}
	}
	mean := g.Volume() / float64(g.N())
	isolated := 0
	for f, d := range deg {
		if d == 0 {
			edges = append(edges, graph.Edge{I: f, J: f, W: 1e-12 * mean})
			isolated++
		}
	}
	if isolated > 0 && useCL {
		warnings = append(warnings, fmt.Sprintf("%s lost every link to cannot-links (or had none); each keeps a self loop of 1e-12 × the mean degree", wording.Count(isolated, "group", "groups")))
	}
	wm, err := graph.FromEdges(m, edges)
	return wm, warnings, err
}

// sortEdges orders edges by (I, J).
func sortEdges(e []graph.Edge) {
	slices.SortFunc(e, func(a, b graph.Edge) int {
		if a.I != b.I {
			return a.I - b.I
		}
		return a.J - b.J
	})
}

// refineKnobOwner is the type holding the Refine knob of the method named
// name, for warnings.
func refineKnobOwner(name string) string {
	if name == "ml-noa-ssc" {
		return "MLNOASSC"
	}
	return "MCLNOASSC"
}

// refineByCV reports whether the refinement is chosen by refineCV: by
// default (RefineCVDefault), unless the knobs fix it (RefineFixed, or
// Refine or RefineNJW set).
func refineByCV(refine float64, njw, fixed bool) bool {
	return RefineCVDefault && !fixed && refine == 0 && !njw
}

// refineKnobs are the refinement's knobs of ML- and MCL-NOA-SSC: Refine,
// RefineNJW, whether refineCV chooses (RefineCVDefault unless
// RefineFixed), and whether it chooses the resolve's reference too
// (referenceByCV).
type refineKnobs struct {
	lambda float64
	njw    bool
	cv     bool
	refCV  bool
}

// referenceByCV reports whether the refinement's cross-validation
// chooses the resolve's reference too: by default (ReferenceCVDefault),
// unless the knobs fix it (ReferenceFixed, or Reference set).
func referenceByCV(ref ResolveReference, fixed bool) bool {
	return ReferenceCVDefault && !fixed && ref == ReferenceCSCAP
}

// refineKnobsOf gathers the refinement's knobs of ML- or MCL-NOA-SSC.
func refineKnobsOf(refine float64, njw, fixed, refCV bool) refineKnobs {
	return refineKnobs{lambda: refine, njw: njw, cv: refineByCV(refine, njw, fixed), refCV: refCV}
}

// pairRefine applies the refinement (refinePairs) with weight lambda to
// res, the partition of ML- or MCL-NOA-SSC after a resolve, with every
// constraint of given: in the embedding of the resolve's reference
// partition refRes (made with ref) when it has one and njw is off, else
// in NJW's (refineEmbedding; njwX when not nil, which must be it). It
// sets res.Labels and res.Objective (0: the distortion was of the labels
// before the moves) and returns the warnings.
func pairRefine(ctx context.Context, name string, ref ResolveReference, refRes *Result, njw bool, njwX *mat.Dense, lambda float64, given *Problem, s *Settings, res *Result) ([]string, error) {
	x, space, warnings, err := refineSpace(ctx, ref, refRes, njw, njwX, given, s)
	if err != nil {
		return nil, fmt.Errorf("cluster: %s: refinement: %w", name, err)
	}
	out, sweeps, moves, err := refinePairs(ctx, x, res.Labels, given.K, given.Constraints.Pairs, lambda)
	if err != nil {
		return nil, err
	}
	// The refinement is the documented default, so what it did is a note,
	// unless it stopped at its sweep cap.
	stopped, mark := "", note
	if sweeps == refineMaxSweeps {
		stopped, mark = fmt.Sprintf(" (stopped at %d sweeps)", refineMaxSweeps), func(s string) string { return s }
	}
	warnings = append(warnings, mark(fmt.Sprintf("%s: refinement in %s with every given constraint as a penalty of weight %g moved %s in %s%s (%s.Refine = −1 turns it off)", name, space, lambda, wording.Count(moves, "node", "nodes"), wording.Count(sweeps, "sweep", "sweeps"), stopped, refineKnobOwner(name))))
	res.Labels = out
	res.Objective = 0
	return warnings, nil
}

// refineSpace returns the rows the refinement measures distances in, and
// their name: the embedding of the reference partition refRes (made with
// ref) when it has one and njw is off, else NJW's embedding of the graph
// (njwX when not nil, else refineEmbedding's, with its warnings).
func refineSpace(ctx context.Context, ref ResolveReference, refRes *Result, njw bool, njwX *mat.Dense, p *Problem, s *Settings) (*mat.Dense, string, []string, error) {
	if refRes != nil && refRes.Embedding != nil && !njw {
		return refRes.Embedding, fmt.Sprintf("the reference partition's (%s) embedding", ref), nil, nil
	}
	const space = "NJW's embedding of the graph"
	if njwX != nil {
		return njwX, space, nil, nil
	}
	x, w, err := refineEmbedding(ctx, p, s)
	return x, space, w, err
}
