package powerlaw

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFitBadOptions: negative MinTail, MaxCandidates or Workers and a nil
// source for Sample are errors wrapping ErrInvalid naming the argument.
// Before, Fit took a negative MinTail or MaxCandidates as the default (10,
// 100), GoodnessOfFit failed on negative Workers with an error wrapping
// nothing, and Sample with a nil source panicked.
func TestFitBadOptions(t *testing.T) {
	x := make([]float64, 30)
	for i := range x {
		x[i] = 1 + float64(i*i)
	}
	for _, tc := range []struct {
		name string
		opt  Options
		want string
	}{
		{"MinTail", Options{MinTail: -1}, "MinTail = -1"},
		{"MaxCandidates", Options{MaxCandidates: -5}, "MaxCandidates = -5"},
		{"Workers", Options{Workers: -2}, "Workers = -2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Fit(x, &tc.opt); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Fit: error %v, want ErrInvalid naming %q", err, tc.want)
			}
			if _, err := GoodnessOfFit(context.Background(), x, &tc.opt, Bootstrap{Reps: 2}); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("GoodnessOfFit: error %v, want ErrInvalid naming %q", err, tc.want)
			}
		})
	}
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		_, err = Sample(3, 2.5, 1, false, nil)
	}()
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "nil random source") {
		t.Errorf("Sample with a nil source: %v", err)
	}
}

func TestFitSelectsXmin(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 0))
	// Continuous: 20000 power-law values above 1 (α = 2.5) and 5000 uniform
	// on (0.2, 1): the KS scan should put x_min at or above 1, where the
	// power law holds (above it the KS distance only fluctuates, so a
	// somewhat larger x_min is as good: Clauset et al. 2009 Fig. 5), not in
	// the uniform body.
	x, _ := Sample(20000, 2.5, 1, false, rand.NewPCG(12, 1))
	for range 5000 {
		x = append(x, 0.2+0.8*r.Float64())
	}
	res, err := Fit(x, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Xmin < 0.97 || res.Xmin > 3 || math.Abs(res.Alpha-2.5) > 0.1 {
		t.Errorf("continuous: x_min = %v, α = %v; want x_min in [0.97, 3] and α ≈ 2.5", res.Xmin, res.Alpha)
	}
	// Discrete: ζ-distributed values ≥ 5 (α = 2.5) and 3000 uniform on 1…4.
	xd, _ := Sample(10000, 2.5, 5, true, rand.NewPCG(12, 2))
	for range 3000 {
		xd = append(xd, float64(1+r.IntN(4)))
	}
	res, err = Fit(xd, &Options{Discrete: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Xmin < 5 || res.Xmin > 15 || math.Abs(res.Alpha-2.5) > 0.15 {
		t.Errorf("discrete: x_min = %v, α = %v; want x_min in 5…15 and α ≈ 2.5", res.Xmin, res.Alpha)
	}
	// With the search coarse to fine (25000 distinct values: 3·10⁸ > the
	// default ScanBudget), not every candidate is tried, and the result is
	// independent of the number of workers.
	a, _ := Fit(x, &Options{MaxCandidates: 17, Workers: 1})
	b, _ := Fit(x, &Options{MaxCandidates: 17, Workers: 3})
	if *a != *b || a.Candidates >= a.Eligible {
		t.Errorf("workers changed the fit: %+v vs %+v", a, b)
	}
}

func TestFitFixedXmin(t *testing.T) {
	x := []float64{0.5, 1, math.E, math.E * math.E}
	res, err := Fit(x, &Options{Xmin: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Tail {1, e, e²}: α̂ = 2 (as in TestMLEHandComputed).
	if res.NTail != 3 || res.N != 4 || math.Abs(res.Alpha-2) > 1e-15 {
		t.Errorf("fit %+v, want α = 2 on 3 of 4 values", res)
	}
	if ks, _ := KS(x[1:], 2, 1); ks != res.KS {
		t.Errorf("KS %v, want %v", res.KS, ks)
	}
}

func TestGoodnessOfFit(t *testing.T) {
	if testing.Short() {
		t.Skip("bootstrap")
	}
	ctx := context.Background()
	// A power law passes (p > 0.1), an exponential sample fails (p ≤ 0.1);
	// Clauset et al.'s threshold. 200 replicates: p to about ±0.035.
	x, _ := Sample(500, 2.5, 1, false, rand.NewPCG(13, 0))
	g, err := GoodnessOfFit(ctx, x, &Options{Xmin: 1}, Bootstrap{Reps: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if g.P <= 0.1 {
		t.Errorf("power-law data: p = %v", g.P)
	}
	r := rand.New(rand.NewPCG(13, 1))
	e := make([]float64, 500)
	for i := range e {
		e[i] = 1 + r.ExpFloat64()
	}
	ge, err := GoodnessOfFit(ctx, e, &Options{Xmin: 1}, Bootstrap{Reps: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if ge.P > 0.1 {
		t.Errorf("exponential data: p = %v", ge.P)
	}
	// Same seed, same p whatever the workers; x_min selected per replicate.
	a, _ := GoodnessOfFit(ctx, x, nil, Bootstrap{Reps: 20, Seed: 5, Workers: 1})
	b, _ := GoodnessOfFit(ctx, x, nil, Bootstrap{Reps: 20, Seed: 5, Workers: 4})
	if a.Exceed != b.Exceed || a.P != b.P {
		t.Errorf("p = %v with 1 worker, %v with 4", a.P, b.P)
	}
	// Cancellation.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := GoodnessOfFit(cctx, x, nil, Bootstrap{Reps: 20}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
	// Replicates out of range: 1<<60 panicked making its bookkeeping.
	for _, reps := range []int{min(1<<60, math.MaxInt), -1, MaxReps + 1} {
		want := fmt.Sprintf("%d bootstrap replicates, want 0 (the default, 1000) to 1000000", reps)
		if _, err := GoodnessOfFit(ctx, x, nil, Bootstrap{Reps: reps}); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), want) {
			t.Errorf("Reps = %d: err = %v, want ErrInvalid naming %q", reps, err, want)
		}
	}
}

// TestGoodnessOfFitHeavyTail: with α̂ close to 1 the fitted law draws
// values beyond the largest float64. Those are drawn again, so that no
// synthetic set fails to fit: before, each such set counted as exceeding
// the observed KS distance, which pushed p towards "plausible" (about 30%
// of the replicates here). The p-value is checked against the bootstrap
// recomputed by hand with the same streams, the law conditioned on finite
// values.
func TestGoodnessOfFitHeavyTail(t *testing.T) {
	if testing.Short() {
		t.Skip("bootstrap")
	}
	const n, reps, seed = 500, 40, 3
	s, err := NewSampler(1.011, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	// finiteDraws draws n values of s, drawing +Inf again.
	finiteDraws := func(r *rand.Rand) (x []float64, inf int) {
		x = make([]float64, n)
		for i := range x {
			for x[i] = s.Draw(r); math.IsInf(x[i], 1); x[i] = s.Draw(r) {
				inf++
			}
		}
		return x, inf
	}
	x, _ := finiteDraws(rand.New(rand.NewPCG(17, 0)))
	opt := &Options{Xmin: 1}
	g, err := GoodnessOfFit(context.Background(), x, opt, Bootstrap{Reps: reps, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	if g.Fit.Alpha > 1.02 {
		t.Fatalf("α̂ = %v: the data are not heavy enough for this test", g.Fit.Alpha)
	}
	// By hand: every value ≥ x_min = 1, so every synthetic value is drawn
	// from the fitted law (no body, no coin per value).
	fs, err := NewSampler(g.Fit.Alpha, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	s = fs
	exceed, redrawn := 0, 0
	for rep := 0; rep < reps; rep++ {
		syn, inf := finiteDraws(rand.New(rand.NewPCG(seed, uint64(rep))))
		redrawn += inf
		f, err := Fit(syn, &Options{Xmin: 1, Workers: 1})
		if err != nil {
			t.Fatalf("replicate %d: %v", rep, err)
		}
		if f.KS >= g.Fit.KS {
			exceed++
		}
	}
	if g.Unfitted != 0 || g.Exceed != exceed || g.Redrawn != redrawn || g.P != float64(exceed)/reps {
		t.Errorf("unfitted %d, exceed %d (by hand %d), redrawn %d (by hand %d), p %v", g.Unfitted, g.Exceed, exceed, g.Redrawn, redrawn, g.P)
	}
	if redrawn == 0 {
		t.Errorf("no value was drawn again: the test does not reach the case it is for")
	}
}
