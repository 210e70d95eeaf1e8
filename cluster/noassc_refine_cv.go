package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/internal/parallel"
)

// RefineCVDefault says whether ML- and MCL-NOA-SSC choose their
// refinement by cross-validation on the constraints by default
// (RefineFixed, or setting Refine or RefineNJW, fixes the refinement
// instead). It was decided by round 3 of docs/results/noisy-dev, fixed
// before its columns ran: on generated data only, cross-validation
// against the fixed λ = RefineDefault, by the criterion of the earlier
// rounds (worst mean loss of MCL-NOA-SSC over nine sets at 5/n with 10%
// flipped, then the mean), the pick becoming the default. It picked
// cross-validation: worst loss 0.309 for both, mean 0.091 against 0.137,
// at 4.4 times the seconds of those cells.
const RefineCVDefault = true

// ReferenceCVDefault says whether the refinement's cross-validation
// chooses the resolve's reference partition too, CSCAP's or FAST-GE's,
// by default (ReferenceFixed, or setting Reference, fixes
// it). It was decided by round 4 of docs/results/noisy-dev, fixed before
// its columns ran: on generated data only, against round 3's pick
// (CSCAP's reference), by the criterion of the earlier rounds, the pick
// becoming the default. It picked the choice of reference: worst loss
// 0.172 against 0.309, mean 0.062 against 0.091, at 1.9 times the
// seconds of those cells.
const ReferenceCVDefault = true

// RefineReport is ML- and MCL-NOA-SSC's account of the cross-validation
// that chose their refinement (Result.Report, when it ran; see MLNOASSC).
type RefineReport struct {
	// Incumbent is the default refinement ("λ=2"), Chosen the one
	// used, Challenger the best other; each "off", "λ=…" or "λ=… (NJW)".
	Incumbent  string `json:"incumbent"`
	Chosen     string `json:"chosen"`
	Challenger string `json:"challenger"`
	// Reference is the resolve's reference partition of the chosen
	// candidate ("cscap", "fast-ge" or "none"). By default (ReferenceCVDefault) the
	// candidates of the references other than the knob's are named with
	// their reference ("fast-ge: λ=2").
	Reference string `json:"reference"`
	// B counts the held-out pairs the challenger satisfies and the
	// incumbent does not, C the reverse (McNemar's test, z > 1.645).
	B int `json:"b"`
	C int `json:"c"`
	// HeldOut is the number of held-out pairs over the folds that ran,
	// FoldsFailed the folds left out.
	HeldOut     int `json:"held_out"`
	FoldsFailed int `json:"folds_failed"`
	// Candidates are every setting with its held-out pairs satisfied, the
	// incumbent first.
	Candidates []RefineScore `json:"candidates"`
}

// RefineScore is one candidate of RefineReport.
type RefineScore struct {
	Setting   string `json:"setting"`
	Satisfied int    `json:"satisfied"`
}

// refineCVFolds is the number of folds of refineCV.
const refineCVFolds = 5

// refineCVRestarts bounds the k-means restarts of each fold's fit in
// refineCV (as in FGPWC's and auto's cross-validation); the final fit
// uses Settings as given.
const refineCVRestarts = 5

// refineCVZ is the threshold of McNemar's paired test with which refineCV
// replaces the refinement set by the knobs (the incumbent) by the best
// other candidate: 1.645, the one-sided 5% point of the normal
// distribution. It was chosen on sets 0–2 of docs/results/noisy-dev among
// {no test, 1, 1.645, 2, 3}: without a test (or with 1) the worst dev set
// lost more than with the incumbent alone; 2 and 3 kept less of the
// gain.
const refineCVZ = 1.645

// refineCandidates returns the settings refineCV chooses among, in the
// order that breaks ties: no refinement, then the grids of
// docs/results/noisy-dev's two rounds (the reference partition's
// embedding with λ ∈ {2, 4, 8}, NJW's with λ ∈ {4, 8, 16}).
func refineCandidates() []refineKnobs {
	return []refineKnobs{
		{lambda: -1},
		{lambda: 2}, {lambda: 4}, {lambda: 8},
		{lambda: 4, njw: true}, {lambda: 8, njw: true}, {lambda: 16, njw: true},
	}
}

// RefineCVSettings names the candidates a cross-validation with the
// default knobs compares (the incumbent, λ = RefineDefault in CSCAP's
// reference partition's embedding, then the other refinements with
// CSCAP's reference, then, by default (ReferenceCVDefault), every
// refinement with FAST-GE's), as RefineReport names them, in the order
// of RefineReport.Candidates.
func RefineCVSettings() []string {
	var names []string
	for _, c := range refineCVCandidates(refineReferences(ReferenceCSCAP, ReferenceCVDefault, 0), refineKnobs{}) {
		names = append(names, c.name(ReferenceCSCAP))
	}
	return names
}

// refineCVCandidates returns refineCV's candidates for the references
// refs and the incumbent refinement: the incumbent with refs[0] first,
// then refineCandidates with each reference in turn, each listed once.
func refineCVCandidates(refs []ResolveReference, incumbent refineKnobs) []refineCand {
	cands := []refineCand{{refs[0], incumbent.canonical()}}
	for _, r := range refs {
		for _, c := range refineCandidates() {
			if c := (refineCand{r, c.canonical()}); c != cands[0] {
				cands = append(cands, c)
			}
		}
	}
	return cands
}

// canonical returns c with λ resolved (0 → RefineDefault), the space
// cleared when the refinement is off, and cv cleared, so that equal
// settings compare equal.
func (c refineKnobs) canonical() refineKnobs {
	lambda, on := refineLambda(c.lambda)
	if !on {
		return refineKnobs{lambda: -1}
	}
	return refineKnobs{lambda: lambda, njw: c.njw}
}

// String names a refinement setting: "off", "λ=2" or "λ=8 (NJW)".
func (c refineKnobs) String() string {
	c = c.canonical()
	switch {
	case c.lambda < 0:
		return "off"
	case c.njw:
		return fmt.Sprintf("λ=%g (NJW)", c.lambda)
	}
	return fmt.Sprintf("λ=%g", c.lambda)
}

// refineCand is one candidate of refineCV: the resolve's reference
// partition and the refinement.
type refineCand struct {
	ref   ResolveReference
	knobs refineKnobs
}

// name names c in a report whose first reference is base: the
// refinement's name ("λ=2") when c uses base, else prefixed by its
// reference ("fast-ge: λ=2").
func (c refineCand) name(base ResolveReference) string {
	if c.ref == base {
		return c.knobs.String()
	}
	return c.ref.String() + ": " + c.knobs.String()
}

// refineReferences returns the references refineCV compares for a
// problem of n nodes whose resolve uses ref: ref alone unless choose is
// set (referenceByCV) and the resolve computes a reference at that size (n
// ≤ resolveReferenceMaxN); then ref first, followed by those of CSCAP
// and FAST-GE that are not ref.
func refineReferences(ref ResolveReference, choose bool, n int) []ResolveReference {
	refs := []ResolveReference{ref}
	if !choose || n > resolveReferenceMaxN {
		return refs
	}
	for _, r := range []ResolveReference{ReferenceCSCAP, ReferenceFastGE} {
		if r != ref {
			refs = append(refs, r)
		}
	}
	return refs
}

// refineCV chooses the refinement of ML- or MCL-NOA-SSC (refinePairs) for
// the problem p by cross-validation on its constraints (ours, beyond the
// sources; issue 17 asks for "soft constraint weights learned by
// constraint cross-validation"), and, when refs holds more than one
// reference (by default; see ReferenceFixed and refineReferences), the resolve's reference
// partition with it. The incumbent is the refinement o.refine with refs[0]
// (pairNOASSC gives the default, λ = RefineDefault in the reference
// partition's embedding, with the knob's reference: refineCV runs only
// when the knobs leave the refinement unset); the challengers are
// refineCandidates with each reference of refs, in that order.
//
// Folds. The pairs are split into folds folds stratified by kind
// (fgpwcFolds, with its own stream of s). On each fold's training pairs
// the method runs up to NOA-SSC once per reference (pairNOASSCFit: the
// resolve, the closure, the cut and NOA-SSC, with at most
// refineCVRestarts k-means restarts); every candidate with that reference
// then refines that partition with the training pairs, in its space: the
// embedding of the fold's reference partition (the resolve's, or, when
// the training pairs are consistent and the resolve made none, the
// reference method run on them), or NJW's embedding of the graph
// (computed once for all folds and the final refinement). The folds run
// in parallel (GOMAXPROCS at a time), their outcomes read in fold order,
// so the choice is the same as one fold after another.
//
// Score and choice. A candidate's score is the number of held-out pairs
// its partitions satisfy, over all folds. A wrong constraint is as likely
// to be held out as a right one, so with a share ε < ½ of the pairs
// wrong the expected fraction satisfied is (1 − ε)·a + ε·(1 − a) for a
// partition that agrees with the classes on a share a of the pairs:
// increasing in a, so noisy held-out pairs still rank partitions. The
// best challenger (highest score, ties to the earlier) replaces the
// incumbent only when McNemar's paired test finds it better: with b the
// held-out pairs it satisfies and the incumbent does not, and c the
// reverse, when b − c > refineCVZ·√(b + c) (as auto's test; see Auto).
//
// A fold whose fit fails with ErrInvalid for any reference (for example
// a closure with fewer than k groups) is left out, with a warning; with
// no fold left the incumbent stays. It returns the candidate chosen,
// NJW's embedding when it computed it, the account of the choice
// (RefineReport), and a warning giving every candidate's score.
//
// Cost: folds·len(refs) runs of pairNOASSCFit on (folds − 1)/folds of the
// pairs (each with the vote, reference and contraction when its training
// pairs contradict each other, or a reference alone when they do not),
// one NJW embedding, and 7·folds·len(refs) refinements (O(n·k² + pairs·k)
// per sweep).
func refineCV(ctx context.Context, o pairOpts, p *Problem, s *Settings, refs []ResolveReference, folds int, sh *resolveShare) (refineCand, *mat.Dense, *RefineReport, []string, error) {
	name := o.name
	cands := refineCVCandidates(refs, o.refine)
	var njw *mat.Dense
	var warnings []string
	if !refineNoneNJW(cands) {
		var err error
		if njw, warnings, err = refineEmbedding(ctx, p, s); err != nil {
			return refineCand{}, nil, nil, nil, fmt.Errorf("cluster: %s: refinement cross-validation: %w", name, err)
		}
	}
	sf := *s
	if sf.Restarts == 0 || sf.Restarts > refineCVRestarts {
		sf.Restarts = refineCVRestarts
	}
	pairs := p.Constraints.Pairs
	fold := fgpwcFolds(pairs, folds, s.derive(streamPairRefineCV).Seed)
	score := make([]int, len(cands))
	b := make([]int, len(cands)) // held-out pairs the candidate satisfies and the incumbent does not
	c := make([]int, len(cands)) // the reverse
	heldOut, failed := 0, 0
	// The folds run in parallel. What they share is built first (CSCAP's
	// prior, the vote's similarity; the reference cache is safe for
	// concurrent use), each fold has its own vote memo, and the outcomes
	// are read in fold order: the same result as one fold after another.
	if err := sh.prepareShared(ctx, refs, p.Graph, len(pairs)); err != nil {
		return refineCand{}, nil, nil, nil, err
	}
	type outcome struct {
		test []constraint.Pair
		sat  [][]bool
		err  error
	}
	out := make([]outcome, folds)
	err := parallel.For(ctx, folds, 0, func(f int) error {
		var train, test []constraint.Pair
		for t, pr := range pairs {
			if fold[t] == f {
				test = append(test, pr)
			} else {
				train = append(train, pr)
			}
		}
		if len(test) == 0 {
			return nil
		}
		q := *p
		q.Constraints = &constraint.Set{N: p.Constraints.N, Pairs: train}
		// The folds' references share CSCAP's work on the graph alone
		// (its prior; the same partitions, as in Auto), and each fold's
		// resolves share its vote.
		sat, err := refineCVFold(ctx, &q, &sf, o, refs, sh.forFold(), cands, njw, test)
		out[f] = outcome{test: test, sat: sat, err: err}
		return nil
	})
	if err != nil {
		return refineCand{}, nil, nil, nil, err
	}
	for f, o := range out {
		if len(o.test) == 0 {
			continue
		}
		switch err := o.err; {
		case err != nil && ctx.Err() != nil:
			return refineCand{}, nil, nil, nil, ctx.Err()
		case err != nil && errors.Is(err, ErrInvalid):
			failed++
			continue
		case err != nil:
			return refineCand{}, nil, nil, nil, fmt.Errorf("cluster: %s: refinement cross-validation, fold %d: %w", name, f+1, err)
		}
		sat := o.sat
		heldOut += len(o.test)
		for ci := range cands {
			for t, ok := range sat[ci] {
				if ok {
					score[ci]++
				}
				if ok && !sat[0][t] {
					b[ci]++
				}
				if !ok && sat[0][t] {
					c[ci]++
				}
			}
		}
	}
	best, pick := refineCVPick(score, b, c)
	if failed > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: refinement cross-validation: %d of %d folds failed and were left out", name, failed, folds))
	}
	base := refs[0]
	rep := &RefineReport{Incumbent: cands[0].name(base), Chosen: cands[pick].name(base), Challenger: cands[best].name(base),
		Reference: cands[pick].ref.String(), B: b[best], C: c[best], HeldOut: heldOut, FoldsFailed: failed}
	var sb strings.Builder
	for ci, cand := range cands {
		if ci > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, "%s %d", cand.name(base), score[ci])
		rep.Candidates = append(rep.Candidates, RefineScore{Setting: cand.name(base), Satisfied: score[ci]})
	}
	what := "refinement"
	if len(refs) > 1 {
		what = "reference and refinement"
	}
	warnings = append(warnings, note(fmt.Sprintf("%s: %s chosen by %d-fold cross-validation on the constraints: %s (incumbent %s; best challenger %s, b = %d, c = %d against it; held-out pairs satisfied of %d: %s)",
		name, what, folds, cands[pick].name(base), cands[0].name(base), cands[best].name(base), b[best], c[best], heldOut, sb.String())))
	return cands[pick], njw, rep, warnings, nil
}

// refineCVPick applies refineCV's choice to the scores of the candidates
// (index 0 the incumbent) and their McNemar counts b and c against it: the
// best challenger is the one with the highest score (ties to the lower
// index), and it is picked when b − c > refineCVZ·√(b + c), else the
// incumbent (0). With no challenger, best and pick are 0.
func refineCVPick(score, b, c []int) (best, pick int) {
	if len(score) < 2 {
		return 0, 0
	}
	best = 1
	for ci := 2; ci < len(score); ci++ {
		if score[ci] > score[best] {
			best = ci
		}
	}
	if float64(b[best]-c[best]) > refineCVZ*math.Sqrt(float64(b[best]+c[best])) {
		return best, best
	}
	return best, 0
}

// refineCVFold fits one fold of refineCV on the training pairs of q,
// once per reference of refs (sharing sh, the fold's), and returns, per
// candidate, whether its refined partition satisfies each held-out pair
// of test.
func refineCVFold(ctx context.Context, q *Problem, s *Settings, o pairOpts, refs []ResolveReference, sh *resolveShare, cands []refineCand, njw *mat.Dense, test []constraint.Pair) ([][]bool, error) {
	sat := make([][]bool, len(cands))
	for _, ref := range refs {
		fo := o
		fo.screen, fo.resolve, fo.ref = false, true, ref
		fit, err := pairNOASSCFit(ctx, q, s, fo, sh)
		if err != nil {
			return nil, err
		}
		if fit.ref == nil && !refineAllNJW(cands) {
			if fit.ref, err = refineCVReference(ctx, ref, sh, q, s); err != nil {
				return nil, err
			}
		}
		for ci, cand := range cands {
			if cand.ref != ref {
				continue
			}
			lab := fit.res.Labels
			if cand.knobs.lambda >= 0 {
				x, _, _, err := refineSpace(ctx, ref, fit.ref, cand.knobs.njw, njw, q, s)
				if err != nil {
					return nil, err
				}
				if lab, _, _, err = refinePairs(ctx, x, lab, q.K, q.Constraints.Pairs, cand.knobs.lambda); err != nil {
					return nil, err
				}
			}
			sat[ci] = make([]bool, len(test))
			for t, pr := range test {
				sat[ci][t] = (lab[pr.I] == lab[pr.J]) == (pr.Kind == constraint.MustLink)
			}
		}
	}
	return sat, nil
}

// refineAllNJW reports whether every candidate that refines does so in
// NJW's embedding (no fold then needs a reference partition).
func refineAllNJW(cands []refineCand) bool {
	for _, c := range cands {
		if c.knobs.lambda >= 0 && !c.knobs.njw {
			return false
		}
	}
	return true
}

// refineNoneNJW reports whether no candidate refines in NJW's embedding.
func refineNoneNJW(cands []refineCand) bool {
	for _, c := range cands {
		if c.knobs.lambda >= 0 && c.knobs.njw {
			return false
		}
	}
	return true
}

// refineCVReference is the reference partition a fold of refineCV
// refines in when its training pairs are consistent (the resolve then
// made none): ref run on them as the resolve would (referencePartition,
// with the work shared in sh, as in resolvePairs), or nil when the
// resolve would not run one (ReferenceNone, or more than
// resolveReferenceMaxN nodes; the candidates then use NJW's embedding).
// A failure of the reference is not an error: the fold then uses NJW's
// embedding, as the final refinement does when the resolve's reference
// failed.
func refineCVReference(ctx context.Context, ref ResolveReference, sh *resolveShare, q *Problem, s *Settings) (*Result, error) {
	rm, err := sh.referenceMethod(ctx, ref, q.Graph)
	if err != nil {
		return nil, err
	}
	if rm == nil || q.Graph.N() > resolveReferenceMaxN {
		return nil, nil
	}
	res, err := sh.referencePartition(ctx, ref, rm, q, q.Constraints, s)
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, nil
	}
	return res, nil
}
