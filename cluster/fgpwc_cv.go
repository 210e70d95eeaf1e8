package cluster

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/internal/parallel"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/progress"
)

// This file holds all of FGPWC's cross-validation on the constraints
// alone (beyond the paper, whose "tuning" used the ground truth): the
// folds (fgpwcSplit: stratified by constraint kind, seeded), the held-out
// score (the total weight of the held-out constraints a fit on the other
// folds violates), and the three selections built on them:
//   - σ_m and σ_c on a grid (CrossValidate, FGPWC.AutoTune);
//   - the descent's iteration cap (FGPWC.IterCV). The cap is FGPWC's
//     regularizer (see FGPWC.MaxIter): run longer, the O(m²) free
//     parameters fit the few constraints and the unconstrained pairs get
//     worse; how far the constraints support the descent depends on the
//     data and the embedding. IterCV picks the cap among
//     {0, c/5, c/2, c, 2c} (c = the configured cap); ties go to c, then to
//     the smaller cap. A cap of 0 keeps X₀;
//   - the Laplacian of the embedding (FGPWC.Laplacian = auto): both are
//     prepared and put through the selections asked for, and the one whose
//     selected configuration has the lower held-out score wins (ties:
//     L_sym).

// fgpwcGridML returns the σ_m grid of the paper's "tuning" setting (seed 003
// §5.1): the interval [0.01, 1] "uniformly split in 10 equal-size parts",
// read as 10 evenly spaced values 0.01, 0.12, …, 1 (both ends included).
func fgpwcGridML() []float64 { return linspace(0.01, 1, 10) }

// fgpwcGridCL returns the σ_c grid of seed 003 §5.1: 10 evenly spaced values
// of [0.01, 2], both ends included.
func fgpwcGridCL() []float64 { return linspace(0.01, 2, 10) }

func linspace(a, b float64, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = a + (b-a)*float64(i)/float64(n-1)
	}
	x[n-1] = b
	return x
}

// FGPWCTunePoint is the score of one grid point.
type FGPWCTunePoint struct {
	SigmaML float64
	SigmaCL float64
	// Score is the callback's score (Tune), or minus the total weight of
	// held-out violated constraints over all folds (CrossValidate). Higher
	// is better.
	Score float64
	// Fit is, for CrossValidate, the held-out Gaussian misfit
	// Σ_k w_k (g_k − q_k)² over all folds, evaluated with the default widths
	// σ_m = 0.15, σ_c = 1.5 whatever the grid point, so that it compares
	// grid points on one scale. Lower is better; it breaks ties of Score.
	// Zero for Tune.
	Fit float64
}

// FGPWCTuning is the outcome of a grid search.
type FGPWCTuning struct {
	// SigmaML and SigmaCL are the winning widths.
	SigmaML float64
	SigmaCL float64
	// Result is the winner's clustering (Tune only; nil for CrossValidate).
	Result *Result
	// Points lists every grid point tried, in grid order (σ_m outer, σ_c
	// inner), skipping the pairs with σ_m > σ_c.
	Points []FGPWCTunePoint
	// Folds is the number of cross-validation folds used (0 for Tune).
	Folds    int
	warnings []string
}

// fgpwcGrid lists the (σ_m, σ_c) pairs with σ_m ≤ σ_c: seed 003 §3 requires
// σ_m ≤ σ_c.
func fgpwcGrid(ml, cl []float64) ([][2]float64, error) {
	var grid [][2]float64
	for _, a := range ml {
		for _, b := range cl {
			if !(a > 0) || !(b > 0) || math.IsInf(a, 0) || math.IsInf(b, 0) {
				return nil, fmt.Errorf("%w: fgpwc: grid value σ_m = %v, σ_c = %v, want finite and > 0", ErrInvalid, a, b)
			}
			if a <= b {
				grid = append(grid, [2]float64{a, b})
			}
		}
	}
	if len(grid) == 0 {
		return nil, fmt.Errorf("%w: fgpwc: empty grid (no pair with σ_m ≤ σ_c)", ErrInvalid)
	}
	return grid, nil
}

// Tune is the paper's "tuning" setting (seed 003 §5.1): it clusters p for
// every (σ_m, σ_c) of the grid with σ_m ≤ σ_c (nil grids mean the paper's:
// σ_m ∈ {0.01, 0.12, …, 1} and σ_c ∈ {0.01, …, 2}, 10 evenly spaced values
// each) and keeps the one whose Result has the highest score;
// ties go to the first in grid order. The paper scores with the ARI against
// the ground truth, which makes the protocol an upper bound rather than a
// usable method: see AutoTune and CrossValidate for selection from the
// constraints alone. f's SigmaML, SigmaCL and AutoTune are ignored; its
// other knobs apply.
//
// The embedding and X₀ are computed once; grid points run concurrently
// (GOMAXPROCS at a time), but score is never called concurrently. A NaN
// score counts as −Inf. Errors are those of Run (about ctx, p, f's knobs
// and s).
func (f FGPWC) Tune(ctx context.Context, p *Problem, s *Settings, sigmaML, sigmaCL []float64, score func(*Result) float64) (*FGPWCTuning, error) {
	if err := nilContext(ctx); err != nil {
		return nil, err
	}
	if score == nil {
		return nil, fmt.Errorf("%w: fgpwc: Tune needs a score function", ErrInvalid)
	}
	s = s.orDefault()
	cfg, prep, sigmaML, sigmaCL, err := f.prepareGrid(ctx, p, s, sigmaML, sigmaCL)
	if err != nil {
		return nil, err
	}
	grid, err := fgpwcGrid(sigmaML, sigmaCL)
	if err != nil {
		return nil, err
	}
	out := &FGPWCTuning{Points: make([]FGPWCTunePoint, len(grid))}
	best := -1
	var mu sync.Mutex
	quiet := *s
	quiet.Recorder = nil
	err = parallel.For(ctx, len(grid), 0, func(i int) error {
		c := cfg
		c.SigmaML, c.SigmaCL = grid[i][0], grid[i][1]
		res, err := prep.solve(ctx, prep.pairs, p.K, &quiet, c, restarts(s, fgpwcKMeansRuns), s.Seed)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		sc := score(res)
		if math.IsNaN(sc) {
			sc = math.Inf(-1)
		}
		out.Points[i] = FGPWCTunePoint{SigmaML: c.SigmaML, SigmaCL: c.SigmaCL, Score: sc}
		if best < 0 || sc > out.Points[best].Score || (sc == out.Points[best].Score && i < best) {
			best, out.Result = i, res
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out.SigmaML, out.SigmaCL = grid[best][0], grid[best][1]
	return out, nil
}

// CrossValidate selects σ_m and σ_c from the constraints alone, beyond the
// paper (which tuned with the ground truth). Protocol:
//
//   - The constraints (Problem.Constraints plus those from Labels) are split
//     into F = TuneFolds folds (5 by default, at most the number of
//     constraints), stratified by kind: must-links and cannot-links are
//     shuffled separately (seeded by Settings.Seed) and dealt round-robin.
//   - For every grid point with σ_m ≤ σ_c (nil grids mean the paper's) and
//     every fold, FGPWC is fitted on the other folds: descent from X₀, then
//     k-means with min(Restarts, 5) runs keeping the fewest training
//     violations.
//   - The point's Score is minus the total weight of the held-out
//     constraints its partitions violate; ties are broken by the held-out
//     Gaussian misfit Fit (see FGPWCTunePoint), then by grid order.
//
// The embedding is computed once. Cost: F·|grid| descents and k-means
// calls, run GOMAXPROCS at a time. With fewer than 2 constraints there is
// nothing to validate: the defaults of f are returned, with Folds = 0.
// Errors are those of Run (about ctx, p, f's knobs and s).
func (f FGPWC) CrossValidate(ctx context.Context, p *Problem, s *Settings, sigmaML, sigmaCL []float64) (*FGPWCTuning, error) {
	if err := nilContext(ctx); err != nil {
		return nil, err
	}
	s = s.orDefault()
	cfg, prep, sigmaML, sigmaCL, err := f.prepareGrid(ctx, p, s, sigmaML, sigmaCL)
	if err != nil {
		return nil, err
	}
	return cfg.crossValidate(ctx, prep, p.K, s, sigmaML, sigmaCL)
}

// prepareGrid is the common start of Tune and CrossValidate: f with its
// defaults, the prepared problem, and the grids (the paper's for nil).
func (f FGPWC) prepareGrid(ctx context.Context, p *Problem, s *Settings, sigmaML, sigmaCL []float64) (FGPWC, *fgpwcPrep, []float64, []float64, error) {
	if err := s.validate(f.Name()); err != nil {
		return f, nil, nil, nil, err
	}
	if sigmaML == nil {
		sigmaML = fgpwcGridML()
	}
	if sigmaCL == nil {
		sigmaCL = fgpwcGridCL()
	}
	cfg, err := f.withDefaults()
	if err != nil {
		return cfg, nil, nil, nil, err
	}
	prep, err := cfg.prepare(ctx, p, s)
	return cfg, prep, sigmaML, sigmaCL, err
}

func (f FGPWC) crossValidate(ctx context.Context, prep *fgpwcPrep, k int, s *Settings, sigmaML, sigmaCL []float64) (*FGPWCTuning, error) {
	grid, err := fgpwcGrid(sigmaML, sigmaCL)
	if err != nil {
		return nil, err
	}
	pairs := prep.pairs
	folds := min(f.tuneFolds(), len(pairs))
	if folds < 2 {
		return &FGPWCTuning{SigmaML: f.SigmaML, SigmaCL: f.SigmaCL,
			warnings: []string{fmt.Sprintf("fgpwc: %s: too few to cross-validate σ_m, σ_c; defaults kept", wording.Count(len(pairs), "constraint", "constraints"))}}, nil
	}
	train, test := fgpwcSplit(pairs, folds, s.Seed)
	viol := make([]float64, len(grid)*folds)
	fit := make([]float64, len(grid)*folds)
	quiet := *s
	quiet.Recorder = nil
	cvRestarts := min(restarts(s, fgpwcKMeansRuns), 5)
	done := cvProgress(s.Recorder, "fgpwc σ cross-validation", len(grid)*folds)
	err = parallel.For(ctx, len(grid)*folds, 0, func(t int) error {
		defer done()
		gi, fi := t/folds, t%folds
		c := f
		c.SigmaML, c.SigmaCL = grid[gi][0], grid[gi][1]
		res, d, err := prep.fit(ctx, train[fi], k, &quiet, c, cvRestarts, s.Seed)
		if err != nil {
			return err
		}
		viol[t] = violationWeight(test[fi], res.Labels)
		// The held-out fit uses the basis the fold was fitted on (with
		// Imprint, the graph with the training constraints only).
		b, err := prep.basisFor(ctx, train[fi])
		if err != nil {
			return err
		}
		o, err := newFGPWCObjectiveContext(ctx, b.v, test[fi], fgpwcSigmaML, fgpwcSigmaCL, 0, s.MaxBlockBytes, nil)
		if err != nil {
			return err
		}
		fit[t], err = o.evalContext(ctx, d.x)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := &FGPWCTuning{Points: make([]FGPWCTunePoint, len(grid)), Folds: folds}
	best := 0
	for gi := range grid {
		pt := FGPWCTunePoint{SigmaML: grid[gi][0], SigmaCL: grid[gi][1]}
		for fi := 0; fi < folds; fi++ {
			pt.Score -= viol[gi*folds+fi]
			pt.Fit += fit[gi*folds+fi]
		}
		out.Points[gi] = pt
		b := out.Points[best]
		if pt.Score > b.Score || (pt.Score == b.Score && pt.Fit < b.Fit) {
			best = gi
		}
	}
	out.SigmaML, out.SigmaCL = grid[best][0], grid[best][1]
	return out, nil
}

// fgpwcSplit returns, for each of folds stratified folds (fgpwcFolds), the
// pairs outside the fold (train) and inside it (test), in pair order.
func fgpwcSplit(pairs []constraint.Pair, folds int, seed uint64) (train, test [][]constraint.Pair) {
	fold := fgpwcFolds(pairs, folds, seed)
	train = make([][]constraint.Pair, folds)
	test = make([][]constraint.Pair, folds)
	for i, q := range pairs {
		for f := 0; f < folds; f++ {
			if fold[i] == f {
				test[f] = append(test[f], q)
			} else {
				train[f] = append(train[f], q)
			}
		}
	}
	return train, test
}

// fgpwcFolds assigns each pair to one of folds folds, stratified by kind:
// must-links and cannot-links are shuffled separately and dealt
// round-robin, the cannot-links continuing where the must-links stopped.
func fgpwcFolds(pairs []constraint.Pair, folds int, seed uint64) []int {
	rnd := rand.New(streamSrc(seed, streamFolds))
	var ml, cl []int
	for i, q := range pairs {
		if q.Kind == constraint.MustLink {
			ml = append(ml, i)
		} else {
			cl = append(cl, i)
		}
	}
	fold := make([]int, len(pairs))
	next := 0
	for _, idx := range [][]int{ml, cl} {
		rnd.Shuffle(len(idx), func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
		for _, i := range idx {
			fold[i] = next
			next = (next + 1) % folds
		}
	}
	return fold
}

// cvProgress returns a function to call when one of total fits is done: it
// sends a progress event (Stage "fgpwc-cv") to rec, if not nil. Safe for
// concurrent use.
func cvProgress(rec progress.Recorder, what string, total int) func() {
	var n atomic.Int64
	return func() {
		if rec == nil {
			return
		}
		d := int(n.Add(1))
		rec.Record(progress.Event{Stage: "fgpwc-cv", Done: d, Total: total, Message: fmt.Sprintf("%s: fit %d of %d", what, d, total)})
	}
}

// fgpwcIterCandidates returns the caps IterCV tries for a configured cap
// c: {0, c/5, c/2, c, 2c} (integer division), ascending, without repeats.
func fgpwcIterCandidates(c int) []int {
	out := []int{0, c / 5, c / 2, c, 2 * c}
	slices.Sort(out)
	return slices.Compact(out)
}

// fgpwcIterChoice is the outcome of IterCV.
type fgpwcIterChoice struct {
	maxIter int
	score   float64 // the winner's held-out violated weight; NaN if not validated
	mean    float64 // the mean over the candidates; NaN if not validated
	warning string
}

// iterCV picks the descent's iteration cap by cross-validation on the
// constraints (FGPWC.IterCV): the constraints are split into stratified
// folds (fgpwcFolds, seeded by Settings.Seed), FGPWC is fitted on the other
// folds for every candidate cap (k-means with min(Restarts, 5) runs keeping
// the fewest training violations), and the cap with the smallest total
// held-out violated weight wins; ties go to the configured cap, then to
// the smaller one. With fewer than 2 constraints the configured cap is
// kept. Cost: folds × candidates descents and k-means calls (GOMAXPROCS at
// a time), plus one embedding per fold with Imprint.
func (prep *fgpwcPrep) iterCV(ctx context.Context, k int, s *Settings, cfg FGPWC) (fgpwcIterChoice, error) {
	cands := fgpwcIterCandidates(cfg.MaxIter)
	score, err := prep.heldOutCaps(ctx, k, s, cfg, cands, cfg.iterFolds())
	if err != nil {
		return fgpwcIterChoice{}, err
	}
	if score == nil {
		return fgpwcIterChoice{maxIter: cfg.MaxIter, score: math.NaN(), mean: math.NaN(), warning: fmt.Sprintf("fgpwc: %s: too few to cross-validate the iteration cap; MaxIter = %d kept", wording.Count(len(prep.pairs), "constraint", "constraints"), cfg.MaxIter)}, nil
	}
	folds := min(cfg.iterFolds(), len(prep.pairs))
	best := -1
	var parts []string
	mean := 0.0
	for ci, c := range cands {
		mean += score[ci] / float64(len(cands))
		parts = append(parts, fmt.Sprintf("%d: %.4g", c, score[ci]))
		switch {
		case best < 0 || score[ci] < score[best]:
			best = ci
		case score[ci] == score[best] && c == cfg.MaxIter:
			best = ci
		}
	}
	return fgpwcIterChoice{
		maxIter: cands[best],
		score:   score[best],
		mean:    mean,
		warning: note(fmt.Sprintf("fgpwc: cross-validation (%d folds) chose MaxIter = %d (held-out violated weight per cap: %s)", folds, cands[best], strings.Join(parts, ", "))),
	}, nil
}

// heldOut returns, for every configuration of cfgs, the total weight of
// held-out constraints violated over the folds of fgpwcSplit(pairs,
// min(folds, len(pairs)), Settings.Seed) when FGPWC is fitted on the other
// folds (k-means with min(Restarts, 5) runs keeping the fewest training
// violations; with Imprint every fold is re-embedded with its training
// constraints). It returns nil when there are fewer than 2 constraints.
// The fits run GOMAXPROCS at a time.
func (prep *fgpwcPrep) heldOut(ctx context.Context, k int, s *Settings, cfgs []FGPWC, folds int) ([]float64, error) {
	pairs := prep.pairs
	folds = min(folds, len(pairs))
	if folds < 2 {
		return nil, nil
	}
	train, test := fgpwcSplit(pairs, folds, s.Seed)
	quiet := *s
	quiet.Recorder = nil
	cvRestarts := min(restarts(s, fgpwcKMeansRuns), 5)
	viol := make([]float64, len(cfgs)*folds)
	done := cvProgress(s.Recorder, "fgpwc cross-validation", len(cfgs)*folds)
	err := parallel.For(ctx, len(cfgs)*folds, 0, func(t int) error {
		defer done()
		ci, fi := t/folds, t%folds
		res, _, err := prep.fit(ctx, train[fi], k, &quiet, cfgs[ci], cvRestarts, s.Seed)
		if err != nil {
			return err
		}
		viol[t] = violationWeight(test[fi], res.Labels)
		return nil
	})
	if err != nil {
		return nil, err
	}
	score := make([]float64, len(cfgs))
	for t, v := range viol {
		score[t/folds] += v
	}
	return score, nil
}

// heldOutCaps is heldOut for the configurations cfg with MaxIter = each
// of caps (ascending), at the cost of one descent per fold instead of one
// per cap and fold: the descent capped at c is the first c iterations of
// the descent capped at max(caps), so one descent to the largest cap,
// recording its point at every cap (descentStop.snaps), gives every
// candidate's fit exactly. The k-means of every (cap, fold) then run
// GOMAXPROCS at a time. Same scores as heldOut with those cfgs.
func (prep *fgpwcPrep) heldOutCaps(ctx context.Context, k int, s *Settings, cfg FGPWC, caps []int, folds int) ([]float64, error) {
	pairs := prep.pairs
	folds = min(folds, len(pairs))
	if folds < 2 {
		return nil, nil
	}
	train, test := fgpwcSplit(pairs, folds, s.Seed)
	quiet := *s
	quiet.Recorder = nil
	cvRestarts := min(restarts(s, fgpwcKMeansRuns), 5)
	top := cfg
	top.MaxIter = caps[len(caps)-1]
	bases := make([]*FGPWCBasis, folds)
	descents := make([]*descentResult, folds)
	done := cvProgress(s.Recorder, "fgpwc cross-validation", len(caps)*folds)
	err := parallel.For(ctx, folds, 0, func(fi int) error {
		b, err := prep.basisFor(ctx, train[fi])
		if err != nil {
			return err
		}
		d, err := b.descend(ctx, train[fi], nil, top, caps, s.MaxBlockBytes)
		if err != nil {
			return err
		}
		bases[fi], descents[fi] = b, d
		return nil
	})
	if err != nil {
		return nil, err
	}
	viol := make([]float64, len(caps)*folds)
	err = parallel.For(ctx, len(caps)*folds, 0, func(t int) error {
		defer done()
		ci, fi := t/folds, t%folds
		b, x := bases[fi], descents[fi].snapX[ci]
		kk := k
		if kk == 0 {
			kk = fgpwcAutoK(x, cfg.KTol, b.n)
		}
		emb := mat.NewDense(b.n, b.m, nil)
		emb.Mul(b.v, x)
		labels, err := fgpwcKMeans(ctx, emb, kk, train[fi], cvRestarts, s.Seed, &quiet)
		if err != nil {
			return err
		}
		viol[t] = violationWeight(test[fi], labels)
		return nil
	})
	if err != nil {
		return nil, err
	}
	score := make([]float64, len(caps))
	for t, v := range viol {
		score[t/folds] += v
	}
	return score, nil
}

// fgpwcLaplacianCandidate is the outcome of the selection (AutoTune,
// IterCV) for one Laplacian.
type fgpwcLaplacianCandidate struct {
	kind  FGPWCLaplacian
	prep  *fgpwcPrep
	cfg   FGPWC
	score float64 // held-out violated weight; NaN: not validated
}

// prepareKnobs prepares the problem for the concrete Laplacian f.Laplacian
// and runs the selections asked for (AutoTune, then IterCV), returning the
// configuration to solve with and the Laplacian's cross-validation score:
// the mean held-out violated weight over the candidates of the last
// selection (IterCV's caps if IterCV is on, else AutoTune's grid), or
// (heldOut set, neither on) the held-out violated weight of f itself on
// the IterCV folds; NaN when nothing was validated.
func (f FGPWC) prepareKnobs(ctx context.Context, p *Problem, s *Settings, heldOut bool) (*fgpwcPrep, FGPWC, float64, error) {
	prep, err := f.prepare(ctx, p, s)
	if err != nil {
		return nil, f, 0, cancelledIn("fgpwc", "spectral embedding", err)
	}
	score := math.NaN()
	if f.AutoTune {
		cv, err := f.crossValidate(ctx, prep, p.K, s, fgpwcGridML(), fgpwcGridCL())
		if err != nil {
			return nil, f, 0, cancelledIn("fgpwc", "cross-validation of σ_m and σ_c (AutoTune)", err)
		}
		f.SigmaML, f.SigmaCL = cv.SigmaML, cv.SigmaCL
		prep.warnings = append(prep.warnings, cv.warnings...)
		prep.warnings = append(prep.warnings, note(fmt.Sprintf("fgpwc: cross-validation chose σ_m = %.3g, σ_c = %.3g", cv.SigmaML, cv.SigmaCL)))
		if cv.Folds > 0 {
			score = 0
			for _, pt := range cv.Points {
				score -= pt.Score / float64(len(cv.Points))
			}
		}
	}
	if f.IterCV {
		it, err := prep.iterCV(ctx, p.K, s, f)
		if err != nil {
			return nil, f, 0, cancelledIn("fgpwc", "cross-validation of the iteration cap (IterCV)", err)
		}
		f.MaxIter = it.maxIter
		prep.warnings = append(prep.warnings, it.warning)
		score = it.mean
	}
	if heldOut && !f.AutoTune && !f.IterCV {
		sc, err := prep.heldOut(ctx, p.K, s, []FGPWC{f}, f.iterFolds())
		if err != nil {
			return nil, f, 0, cancelledIn("fgpwc", "held-out score of the Laplacian", err)
		}
		score = math.NaN()
		if sc != nil {
			score = sc[0]
		}
	}
	return prep, f, score, nil
}

// chooseLaplacian is FGPWCAutoLaplacian: it runs prepareKnobs for L_sym and
// for D − W (concurrently; each runs its folds in parallel) and
// keeps the one with the smaller score, the mean held-out violated weight
// over the candidates of its selection (the IterCV caps). The mean, not
// the winner's minimum: the minimum of several noisy held-out scores is
// biased low, the more so the more the partitions vary across the
// candidates, which favours the embedding of larger m
// (docs/results/fgpwc-notes.md).
// Ties, and the case where nothing could be validated (fewer than 2
// constraints), go to L_sym, the paper's Laplacian. Both Laplacians see
// the same folds (fgpwcSplit seeded by Settings.Seed).
func (f FGPWC) chooseLaplacian(ctx context.Context, p *Problem, s *Settings) (*fgpwcPrep, FGPWC, error) {
	kinds := []FGPWCLaplacian{FGPWCSymmetric, FGPWCUnnormalized}
	if f.M == 0 && f.MaxM == 0 {
		// The cap of the cross-validated automatic m (FGPWC.MaxM), fixed
		// here while f.Laplacian still says auto.
		pairs, _, err := supervisionPairsContext(ctx, "fgpwc", p, s, allPairs)
		if err != nil {
			return nil, f, err
		}
		if f.MaxM, err = fgpwcAutoMaxM(ctx, f, pairs); err != nil {
			return nil, f, cancelledIn("fgpwc", "count of the pairs' nodes for the cap of m", err)
		}
	}
	cands := make([]fgpwcLaplacianCandidate, len(kinds))
	// Both at once: D − W (m = k) is cheap and would otherwise wait for
	// L_sym; the results do not depend on the order.
	err := parallel.For(ctx, len(kinds), len(kinds), func(i int) error {
		c := f
		c.Laplacian = kinds[i]
		prep, c, score, err := c.prepareKnobs(ctx, p, s, true)
		if err != nil {
			return err
		}
		cands[i] = fgpwcLaplacianCandidate{kind: kinds[i], prep: prep, cfg: c, score: score}
		return nil
	})
	if err != nil {
		return nil, f, cancelledIn("fgpwc", "choice of the Laplacian", err)
	}
	best := 0
	if !math.IsNaN(cands[1].score) && !math.IsNaN(cands[0].score) && cands[1].score < cands[0].score {
		best = 1
	}
	w := note(fmt.Sprintf("fgpwc: cross-validation chose the Laplacian %s (held-out violated weight: L_sym %.4g, D − W %.4g)", cands[best].kind.symbol(), cands[0].score, cands[1].score))
	if math.IsNaN(cands[0].score) || math.IsNaN(cands[1].score) {
		w = "fgpwc: too few constraints to cross-validate the Laplacian; L_sym kept"
	}
	prep := cands[best].prep
	prep.warnings = append(prep.warnings, w)
	return prep, cands[best].cfg, nil
}
