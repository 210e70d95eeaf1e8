package cluster

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/tether-sc/tether/constraint"
)

// FGPWCGridML returns the σ_m grid of the paper's "tuning" setting (seed 003
// §5.1): the interval [0.01, 1] "uniformly split in 10 equal-size parts",
// read as 10 evenly spaced values 0.01, 0.12, …, 1 (both ends included).
func FGPWCGridML() []float64 { return linspace(0.01, 1, 10) }

// FGPWCGridCL returns the σ_c grid of seed 003 §5.1: 10 evenly spaced values
// of [0.01, 2], both ends included.
func FGPWCGridCL() []float64 { return linspace(0.01, 2, 10) }

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
	SigmaML, SigmaCL float64
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
	SigmaML, SigmaCL float64
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
// every (σ_m, σ_c) of the grid with σ_m ≤ σ_c (nil grids mean FGPWCGridML
// and FGPWCGridCL) and keeps the one whose Result has the highest score;
// ties go to the first in grid order. The paper scores with the ARI against
// the ground truth, which makes the protocol an upper bound rather than a
// usable method: see AutoTune and CrossValidate for selection from the
// constraints alone. f's SigmaML, SigmaCL and AutoTune are ignored; its
// other knobs apply.
//
// The embedding and X₀ are computed once; grid points run concurrently
// (GOMAXPROCS at a time), but score is never called concurrently. A NaN
// score counts as −Inf. Errors are those of Cluster.
func (f FGPWC) Tune(ctx context.Context, p *Problem, s *Settings, sigmaML, sigmaCL []float64, score func(*Result) float64) (*FGPWCTuning, error) {
	s = s.orDefault()
	if score == nil {
		return nil, fmt.Errorf("%w: fgpwc: Tune needs a score function", ErrInvalid)
	}
	if sigmaML == nil {
		sigmaML = FGPWCGridML()
	}
	if sigmaCL == nil {
		sigmaCL = FGPWCGridCL()
	}
	grid, err := fgpwcGrid(sigmaML, sigmaCL)
	if err != nil {
		return nil, err
	}
	cfg, err := f.config()
	if err != nil {
		return nil, err
	}
	prep, err := f.prepare(ctx, p, s, cfg)
	if err != nil {
		return nil, err
	}
	out := &FGPWCTuning{Points: make([]FGPWCTunePoint, len(grid))}
	best := -1
	var mu sync.Mutex
	quiet := *s
	quiet.Recorder = nil
	err = parallelTasks(ctx, len(grid), func(i int) error {
		c := cfg
		c.sigmaML, c.sigmaCL = grid[i][0], grid[i][1]
		res, err := prep.solve(ctx, prep.pairs, p.K, &quiet, c, restarts(s, fgpwcRestarts(prep.n)), s.Seed)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		sc := score(res)
		if math.IsNaN(sc) {
			sc = math.Inf(-1)
		}
		out.Points[i] = FGPWCTunePoint{SigmaML: c.sigmaML, SigmaCL: c.sigmaCL, Score: sc}
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
func (f FGPWC) CrossValidate(ctx context.Context, p *Problem, s *Settings, sigmaML, sigmaCL []float64) (*FGPWCTuning, error) {
	s = s.orDefault()
	if sigmaML == nil {
		sigmaML = FGPWCGridML()
	}
	if sigmaCL == nil {
		sigmaCL = FGPWCGridCL()
	}
	cfg, err := f.config()
	if err != nil {
		return nil, err
	}
	prep, err := f.prepare(ctx, p, s, cfg)
	if err != nil {
		return nil, err
	}
	return f.crossValidate(ctx, prep, p.K, s, cfg, sigmaML, sigmaCL)
}

func (f FGPWC) crossValidate(ctx context.Context, prep *fgpwcPrep, k int, s *Settings, cfg fgpwcConfig, sigmaML, sigmaCL []float64) (*FGPWCTuning, error) {
	grid, err := fgpwcGrid(sigmaML, sigmaCL)
	if err != nil {
		return nil, err
	}
	pairs := prep.pairs
	folds := min(cfg.folds, len(pairs))
	if folds < 2 {
		return &FGPWCTuning{SigmaML: cfg.sigmaML, SigmaCL: cfg.sigmaCL,
			warnings: []string{fmt.Sprintf("fgpwc: %d constraints: too few to cross-validate σ_m, σ_c; defaults kept", len(pairs))}}, nil
	}
	train, test := fgpwcSplit(pairs, folds, s.Seed)
	viol := make([]float64, len(grid)*folds)
	fit := make([]float64, len(grid)*folds)
	quiet := *s
	quiet.Recorder = nil
	cvRestarts := min(restarts(s, fgpwcRestarts(prep.n)), 5)
	err = parallelTasks(ctx, len(grid)*folds, func(t int) error {
		gi, fi := t/folds, t%folds
		c := cfg
		c.sigmaML, c.sigmaCL = grid[gi][0], grid[gi][1]
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
		o := newFGPWCObjective(b.v, test[fi], FGPWCSigmaML, FGPWCSigmaCL, 0)
		fit[t] = o.eval(d.x)
		return nil
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

// parallelTasks runs task(0…n−1) on GOMAXPROCS goroutines and returns the
// first error (by task index); after an error or cancellation the remaining
// tasks are skipped.
func parallelTasks(ctx context.Context, n int, task func(i int) error) error {
	workers := min(runtime.GOMAXPROCS(0), n)
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if ctx.Err() != nil {
					continue
				}
				if err := task(i); err != nil {
					errs[i] = err
					cancel()
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return ctx.Err()
}
