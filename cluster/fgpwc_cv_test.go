package cluster

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/progress"
)

func TestFGPWCGrid(t *testing.T) {
	// Seed 003 §5.1: σ_m in [0.01, 1], σ_c in [0.01, 2], 10 values each;
	// the pairs with σ_m ≤ σ_c (§3) are, counting by hand for each σ_m the
	// σ_c values 0.01, 0.2311, 0.4522, 0.6733, 0.8944, 1.1156, 1.3367,
	// 1.5578, 1.7789, 2 that are ≥ it: 10+9+9+8+8+7+7+6+6+5 = 75.
	ml, cl := fgpwcGridML(), fgpwcGridCL()
	if len(ml) != 10 || len(cl) != 10 || ml[0] != 0.01 || ml[9] != 1 || cl[0] != 0.01 || cl[9] != 2 {
		t.Fatalf("grids %v %v", ml, cl)
	}
	if math.Abs(ml[1]-0.12) > 1e-15 || math.Abs(cl[1]-(0.01+1.99/9)) > 1e-15 {
		t.Errorf("grid steps: %v, %v", ml[1], cl[1])
	}
	g, err := fgpwcGrid(ml, cl)
	if err != nil || len(g) != 75 {
		t.Errorf("%d grid points (err %v), want 75", len(g), err)
	}
	for _, bad := range [][2][]float64{{{0}, {1}}, {{1}, {math.NaN()}}, {{2}, {1}}} {
		if _, err := fgpwcGrid(bad[0], bad[1]); err == nil {
			t.Errorf("grid %v × %v: no error", bad[0], bad[1])
		}
	}
}

func TestFGPWCFolds(t *testing.T) {
	// Stratified folds: every pair in exactly one fold; per fold the
	// must-link and cannot-link counts differ by at most 1 from the
	// balanced split; same seed, same folds.
	rnd := rand.New(rand.NewPCG(1, 1))
	truth := make([]int, 60)
	for i := range truth {
		truth[i] = i % 3
	}
	set := fgpwcOracle(rnd, truth, 53)
	nml, ncl := set.Count()
	for _, folds := range []int{2, 3, 5, 53} {
		fold := fgpwcFolds(set.Pairs, folds, 7)
		if !slices.Equal(fold, fgpwcFolds(set.Pairs, folds, 7)) {
			t.Errorf("folds=%d: not deterministic", folds)
		}
		ml := make([]int, folds)
		cl := make([]int, folds)
		for i, f := range fold {
			if f < 0 || f >= folds {
				t.Fatalf("pair %d in fold %d", i, f)
			}
			if set.Pairs[i].Kind == constraint.MustLink {
				ml[f]++
			} else {
				cl[f]++
			}
		}
		for f := 0; f < folds; f++ {
			if ml[f] < nml/folds || ml[f] > nml/folds+1 || ml[f]+cl[f] < len(fold)/folds || ml[f]+cl[f] > len(fold)/folds+1 {
				t.Errorf("folds=%d: fold %d has %d ML, %d CL (totals %d, %d)", folds, f, ml[f], cl[f], nml, ncl)
			}
		}
	}
}

func TestFGPWCTune(t *testing.T) {
	if testing.Short() {
		t.Skip("75 clusterings")
	}
	// The paper's protocol with ARI against the implied labelling as the
	// score. Checks: one point per grid pair (75), the winner has the
	// highest score and its Result scores that, ties go to grid order.
	p, _, side := fgpwcMoonsProblem(t, 150, 60, 4)
	f := FGPWC{M: 15, RowNormalize: true, MaxIter: 200}
	calls := 0
	tun, err := f.Tune(context.Background(), p, &Settings{Seed: 3, Restarts: 5}, nil, nil, func(r *Result) float64 {
		calls++
		return fgpwcARI(t, side, r.Labels)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(tun.Points) != 75 || calls != 75 {
		t.Fatalf("%d points, %d score calls, want 75", len(tun.Points), calls)
	}
	best := slices.IndexFunc(tun.Points, func(pt FGPWCTunePoint) bool {
		return slices.ContainsFunc(tun.Points, func(q FGPWCTunePoint) bool { return q.Score > pt.Score }) == false
	})
	if bp := tun.Points[best]; bp.SigmaML != tun.SigmaML || bp.SigmaCL != tun.SigmaCL {
		t.Errorf("winner (%g, %g), first best point (%g, %g)", tun.SigmaML, tun.SigmaCL, bp.SigmaML, bp.SigmaCL)
	}
	if got := fgpwcARI(t, side, tun.Result.Labels); got != tun.Points[best].Score {
		t.Errorf("winner's result has ARI %v, its score is %v", got, tun.Points[best].Score)
	}
	for _, pt := range tun.Points {
		if pt.SigmaML > pt.SigmaCL {
			t.Errorf("point with σ_m = %g > σ_c = %g", pt.SigmaML, pt.SigmaCL)
		}
	}
	t.Logf("best ARI %.3f at σ_m = %.2f, σ_c = %.2f", tun.Points[best].Score, tun.SigmaML, tun.SigmaCL)
}

func TestFGPWCCrossValidate(t *testing.T) {
	// Every constraint is held out exactly once, so for every grid point
	// −Score (held-out violated weight) lies in [0, Σ w_k]; the winner has
	// the highest Score, ties by the lowest Fit; the run is deterministic.
	rnd := rand.New(rand.NewPCG(5, 5))
	x, truth := fgpwcBlobs(rnd, 120, 2, 3, 6)
	g := fgpwcKNNGraph(t, x, 10)
	set := fgpwcOracle(rnd, truth, 40)
	for i := range set.Pairs {
		set.Pairs[i].Weight = 0.5 + rnd.Float64()
	}
	total := 0.0
	for _, q := range set.Pairs {
		total += q.W()
	}
	p := &Problem{Graph: g, K: 3, Constraints: set}
	f := FGPWC{M: 6, RowNormalize: true, MaxIter: 100}
	ml, cl := []float64{0.05, 0.3}, []float64{0.3, 1.5}
	cv, err := f.CrossValidate(context.Background(), p, &Settings{Seed: 2, Restarts: 4}, ml, cl)
	if err != nil {
		t.Fatal(err)
	}
	if cv.Folds != 5 || len(cv.Points) != 4 || cv.Result != nil {
		t.Fatalf("folds %d, %d points, result %v; want 5, 4, nil", cv.Folds, len(cv.Points), cv.Result)
	}
	for _, pt := range cv.Points {
		if -pt.Score < 0 || -pt.Score > total+1e-9 || pt.Fit < 0 {
			t.Errorf("point %+v: held-out weight outside [0, %g]", pt, total)
		}
		w := cv.Points[slices.IndexFunc(cv.Points, func(q FGPWCTunePoint) bool { return q.SigmaML == cv.SigmaML && q.SigmaCL == cv.SigmaCL })]
		if pt.Score > w.Score || (pt.Score == w.Score && pt.Fit < w.Fit) {
			t.Errorf("point %+v beats the winner %+v", pt, w)
		}
	}
	again, err := f.CrossValidate(context.Background(), p, &Settings{Seed: 2, Restarts: 4}, ml, cl)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(cv.Points, again.Points) {
		t.Errorf("not deterministic:\n%v\n%v", cv.Points, again.Points)
	}
	t.Run("too few constraints", func(t *testing.T) {
		one := &Problem{Graph: g, K: 3, Constraints: &constraint.Set{N: 120, Pairs: set.Pairs[:1]}}
		cv, err := f.CrossValidate(context.Background(), one, nil, ml, cl)
		if err != nil || cv.Folds != 0 || cv.SigmaML != fgpwcSigmaML || cv.SigmaCL != fgpwcSigmaCL {
			t.Errorf("got %+v, %v; want defaults and 0 folds", cv, err)
		}
	})
}

func TestFGPWCAutoTune(t *testing.T) {
	if testing.Short() {
		t.Skip("375 clusterings")
	}
	// AutoTune on the contradicting moons: the chosen σ's must still follow
	// the constraints (ARI vs side ≥ 0.8) and say what they chose.
	p, _, side := fgpwcMoonsProblem(t, 150, 60, 2)
	f := FGPWC{M: 15, RowNormalize: true, MaxIter: 200, AutoTune: true}
	res, err := Run(context.Background(), f, p, &Settings{Seed: 1, Restarts: 5})
	if err != nil {
		t.Fatal(err)
	}
	a := fgpwcARI(t, side, res.Labels)
	t.Logf("ARI vs side %.3f; warnings %q", a, res.Warnings)
	if a < 0.8 {
		t.Errorf("ARI vs side = %.3f, want ≥ 0.8", a)
	}
	if !slices.ContainsFunc(res.Notes, func(w string) bool { return strings.HasPrefix(w, "fgpwc: cross-validation chose σ_m") }) {
		t.Errorf("no note of the chosen σ's: %q", res.Notes)
	}
}

// TestFGPWCAutoTuneReport: with AutoTune, Result.Report is an
// *FGPWCReport holding the widths the descent used, exactly: they are
// those CrossValidate chooses on the same problem and seed, the note
// prints them to three digits, and FGPWC with those widths fixed (no
// AutoTune) gives the same labels and objective, to the last bit (the
// same descent and k-means). Without AutoTune the report is nil. The
// widths used to be in the note's text only, so that tether serve could
// not give the similarity strategy its σ_m after an AutoTune run. On these
// data the widths chosen are not the defaults (σ_m = 0.89 with L_sym, 0.56
// with D − W, against 0.15), so the comparison with the fixed run tells
// the widths apart.
func TestFGPWCAutoTuneReport(t *testing.T) {
	p, _, _ := fgpwcMoonsProblem(t, 80, 20, 4)
	set := &Settings{Seed: 3, Restarts: 2}
	for _, lap := range []FGPWCLaplacian{FGPWCSymmetric, FGPWCUnnormalized} {
		t.Run(lap.String(), func(t *testing.T) {
			f := FGPWC{M: 6, RowNormalize: true, MaxIter: 20, Laplacian: lap}
			plain, err := Run(context.Background(), f, p, set)
			if err != nil {
				t.Fatal(err)
			}
			if plain.Report != nil {
				t.Errorf("without AutoTune: Report %+v, want nil", plain.Report)
			}
			tuned := f
			tuned.AutoTune = true
			res, err := Run(context.Background(), tuned, p, set)
			if err != nil {
				t.Fatal(err)
			}
			rep, ok := res.Report.(*FGPWCReport)
			if !ok {
				t.Fatalf("Report %T, want *FGPWCReport", res.Report)
			}
			cv, err := f.CrossValidate(context.Background(), p, set, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if rep.SigmaML != cv.SigmaML || rep.SigmaCL != cv.SigmaCL {
				t.Errorf("report σ_m = %v, σ_c = %v; CrossValidate chose %v, %v", rep.SigmaML, rep.SigmaCL, cv.SigmaML, cv.SigmaCL)
			}
			note := fmt.Sprintf("fgpwc: cross-validation chose σ_m = %.3g, σ_c = %.3g", rep.SigmaML, rep.SigmaCL)
			if !slices.Contains(res.Notes, note) {
				t.Errorf("notes %q lack %q", res.Notes, note)
			}
			fixed := f
			fixed.SigmaML, fixed.SigmaCL = rep.SigmaML, rep.SigmaCL
			again, err := Run(context.Background(), fixed, p, set)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(again.Labels, res.Labels) || again.Objective != res.Objective {
				t.Errorf("σ fixed at the report's: objective %v, labels %v; AutoTune: %v, %v", again.Objective, again.Labels, res.Objective, res.Labels)
			}
		})
	}
}

// The paper's grids (seed 003 §5.1): [0.01, 1] and [0.01, 2] "uniformly
// split", read as 10 evenly spaced values with both ends.
func TestFGPWCGrids(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  []float64
		hi   float64
	}{{"σ_m", fgpwcGridML(), 1}, {"σ_c", fgpwcGridCL(), 2}} {
		if len(tc.got) != 10 {
			t.Fatalf("%s: %d values", tc.name, len(tc.got))
		}
		for i, v := range tc.got {
			want := 0.01 + float64(i)*(tc.hi-0.01)/9
			if math.Abs(v-want) > 1e-15 {
				t.Errorf("%s[%d] = %v, want %v", tc.name, i, v, want)
			}
		}
	}
}

// Cross-validation reports one progress event per fit (it takes seconds
// on the reproduction's datasets and used to be silent).
func TestFGPWCCrossValidationProgress(t *testing.T) {
	p, _, _ := fgpwcMoonsProblem(t, 200, 60, 3)
	var mu sync.Mutex
	var last progress.Event
	count := 0
	rec := progress.Func(func(e progress.Event) {
		if e.Stage != "fgpwc-cv" {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		count++
		if e.Done > last.Done {
			last = e
		}
	})
	f := NewFGPWC()
	f.IterCV = true
	if _, err := Run(context.Background(), f, p, &Settings{Seed: 1, Recorder: rec}); err != nil {
		t.Fatal(err)
	}
	if count == 0 || last.Done != last.Total || count != last.Total {
		t.Errorf("%d cross-validation events, last %+v", count, last)
	}
}

// TestFGPWCHeldOutCaps checks the one-descent-per-fold cross-validation of
// the iteration cap against the direct computation, one descent per cap
// and fold (heldOut with one configuration per cap): the held-out
// violated weights must be identical, for both optimizers, with the
// scaled restart (m = 2: 80 training pairs ≥ 10·m², so it runs) and
// with Imprint.
func TestFGPWCHeldOutCaps(t *testing.T) {
	rnd := rand.New(rand.NewPCG(8, 8))
	x, truth := fgpwcBlobs(rnd, 150, 2, 3, 3)
	g := fgpwcKNNGraph(t, x, 10)
	set := fgpwcOracle(rnd, truth, 120)
	p := &Problem{Graph: g, K: 3, Constraints: set}
	s := &Settings{Seed: 4, Restarts: 3}
	for _, c := range []struct {
		name string
		f    FGPWC
	}{
		{"lbfgs", FGPWC{M: 3, RowNormalize: true, Optimizer: LBFGS, MaxIter: 9}},
		{"lbfgs restart", FGPWC{M: 2, RowNormalize: true, Optimizer: LBFGS, MaxIter: 9, ScaledRestart: true}},
		{"halving", FGPWC{M: 4, MaxIter: 40}},
		{"lbfgs imprint", FGPWC{M: 2, Optimizer: LBFGS, MaxIter: 10, Imprint: true, ScaledRestart: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := c.f.withDefaults()
			if err != nil {
				t.Fatal(err)
			}
			prep, err := cfg.prepare(context.Background(), p, s)
			if err != nil {
				t.Fatal(err)
			}
			caps := fgpwcIterCandidates(cfg.MaxIter)
			got, err := prep.heldOutCaps(context.Background(), 3, s, cfg, caps, 3)
			if err != nil {
				t.Fatal(err)
			}
			cfgs := make([]FGPWC, len(caps))
			for i, m := range caps {
				cfgs[i] = cfg
				cfgs[i].MaxIter = m
			}
			want, err := prep.heldOut(context.Background(), 3, s, cfgs, 3)
			if err != nil {
				t.Fatal(err)
			}
			for i := range caps {
				if got[i] != want[i] {
					t.Errorf("cap %d: one descent gives %v, a descent per cap %v", caps[i], got[i], want[i])
				}
			}
			t.Logf("caps %v: held-out violated weight %v", caps, got)
		})
	}
}

func TestFGPWCAutoMaxM(t *testing.T) {
	// FGPWC.MaxM = 0: 200, or under cross-validation
	// ⌊√(2·10⁷ / min(u, K))⌋; the expected values are worked by hand.
	chain := func(k int) []constraint.Pair { // k pairs on k+1 nodes
		out := make([]constraint.Pair, k)
		for i := range out {
			out[i] = constraint.Pair{I: i, J: i + 1, Kind: constraint.MustLink}
		}
		return out
	}
	star := func(k int) []constraint.Pair { // k pairs on k+1 nodes, one hub
		out := make([]constraint.Pair, k)
		for i := range out {
			out[i] = constraint.Pair{I: 0, J: i + 1, Kind: constraint.CannotLink}
		}
		return out
	}
	ring := func(n, d int) []constraint.Pair { // n·d pairs on n nodes
		var out []constraint.Pair
		for s := 1; s <= d; s++ {
			for i := 0; i < n; i++ {
				j := (i + s) % n
				out = append(out, constraint.Pair{I: min(i, j), J: max(i, j), Kind: constraint.MustLink})
			}
		}
		return out
	}
	cv := FGPWC{IterCV: true}
	for _, c := range []struct {
		name  string
		cfg   FGPWC
		pairs []constraint.Pair
		want  int
	}{
		{"no cross-validation", FGPWC{}, chain(3000), 200},
		{"IterCV, no pairs", cv, nil, 200},
		// min(u, K) = 500: √40000 = 200.
		{"IterCV, 500 pairs", cv, chain(500), 200},
		// min(u, K) = 501 (u = 502): √39920.2 = 199.8.
		{"IterCV, 501 pairs", cv, chain(501), 199},
		// 15 000 pairs on 3000 nodes (BenchmarkFGPWCAuto3000's shape):
		// √(2e7/3000) = 81.6.
		{"IterCV, 15000 pairs on 3000 nodes", cv, ring(3000, 5), 81},
		// K = 2000 < u = 2001: √(2e7/2000) = 100.
		{"AutoTune, 2000 pairs", FGPWC{AutoTune: true}, star(2000), 100},
		// √(2e7/80000) = √250 = 15.8.
		{"Laplacian auto, 80000 pairs", FGPWC{Laplacian: FGPWCAutoLaplacian}, chain(80000), 15},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got, err := fgpwcAutoMaxM(context.Background(), c.cfg, c.pairs); err != nil || got != c.want {
				t.Errorf("cap %d, %v; want %d", got, err, c.want)
			}
		})
	}
}

func TestFGPWCAutoMaxMPaths(t *testing.T) {
	// End to end. With the protocol of seed 003 §5.1 (K ≈ n/2 pairs) the
	// cross-validated automatic FGPWC is unchanged by the cap: MaxM = 0
	// gives exactly the result of MaxM = 200, the cap before it existed.
	// An explicit MaxM below the automatic count bounds m.
	ctx := context.Background()
	p, _, _ := fgpwcMoonsProblem(t, 300, 150, 4)
	auto := *NewFGPWC()
	auto.Imprint, auto.IterCV, auto.Laplacian = true, true, FGPWCAutoLaplacian
	old := auto
	old.MaxM = 200
	a, err := Run(ctx, auto, p, &Settings{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(ctx, old, p, &Settings{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Labels, b.Labels) || a.Objective != b.Objective || len(a.Eigenvalues) != len(b.Eigenvalues) || !slices.Equal(a.Warnings, b.Warnings) || !slices.Equal(a.Notes, b.Notes) {
		t.Errorf("MaxM = 0 and MaxM = 200 differ: m %d and %d, F %v and %v", len(a.Eigenvalues), len(b.Eigenvalues), a.Objective, b.Objective)
	}
	sym := *NewFGPWC()
	sym.IterCV = true
	for _, c := range []int{3, 7} {
		sym.MaxM = c
		res, err := Run(ctx, sym, p, &Settings{Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Eigenvalues) != c {
			t.Errorf("MaxM = %d: m = %d", c, len(res.Eigenvalues))
		}
	}
}
