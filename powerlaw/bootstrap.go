package powerlaw

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/tether-sc/tether/internal/parallel"
	"github.com/tether-sc/tether/progress"
)

// Bootstrap configures GoodnessOfFit.
type Bootstrap struct {
	// Reps is the number of synthetic data sets, at most MaxReps. If Reps
	// is 0, 1000 are used: the p-value is then accurate to about ±0.016
	// (Clauset et al. recommend 2500 for ±0.01).
	Reps int
	// Seed seeds replicate r with rand.NewPCG(Seed, r): the same Seed gives
	// the same p-value whatever the number of workers.
	Seed uint64
	// Workers is the number of replicates run at once (0: GOMAXPROCS).
	Workers int
	// Recorder, if not nil, receives the progress of the replicates:
	// Event{Stage: "powerlaw-bootstrap", Done: replicates done, Total:
	// Reps (or the default)}, at most once per thousandth of them and for
	// the last. The fit of the data reports through Options.Recorder.
	Recorder progress.Recorder
}

// GOF is the result of GoodnessOfFit.
type GOF struct {
	// Fit is the fit of the data.
	Fit *Result
	// P is the fraction of synthetic data sets whose KS distance to their
	// own fit is at least Fit.KS; Exceed is their number, Reps the total.
	P            float64
	Exceed, Reps int
	// Unfitted counts the synthetic data sets that could not be fitted
	// (for example every tail value equal to x_min); each is counted in
	// Exceed, as a set as far from a power law as one can be.
	Unfitted int
	// Redrawn counts the synthetic tail values that the fitted law drew
	// beyond the largest float64 M (likely when α is close to 1 or x_min
	// close to M) and that were drawn again (see GoodnessOfFit).
	Redrawn int
}

// MaxReps is the largest Bootstrap.Reps: a p-value to about ±0.0005,
// far beyond what the test needs, at a few bytes of bookkeeping each.
const MaxReps = 1_000_000

// maxOverflow is the largest probability that one draw of the fitted law
// exceeds the largest float64 for which GoodnessOfFit still redraws such
// values; beyond it the law cannot be represented and it returns an error.
const maxOverflow = 0.5

// GoodnessOfFit fits x with Fit and returns the p-value of the power-law
// hypothesis by the semi-parametric bootstrap of Clauset et al. (2009,
// §4.1): each synthetic data set has len(x) values, each drawn — with
// probability NTail/N — from the fitted power law above x_min (Sampler),
// otherwise uniformly from the observed values below x_min; it is then fitted
// the same way as x (with x_min selected again when opt.Xmin is 0), and
// its KS distance compared with the observed one. Clauset et al. rule the
// power law out when P ≤ 0.1.
//
// A fitted α close to 1, or an x_min close to the largest float64 M,
// gives a law whose draws can exceed M, P(X > M) = (M/x_min)^{1−α} for
// the continuous law. Such a value is drawn again: the synthetic sets
// follow the law conditioned on being representable, as the observed
// values are (GOF.Redrawn counts them;
// before, the set failed to fit and counted as exceeding, which pushed P
// towards "plausible"). When that probability is above ½, GoodnessOfFit
// returns an error wrapping ErrInvalid instead; for the continuous MLE of
// finite data it is at most 1/e, since α̂ − 1 ≥ 1/ln(M/x_min).
//
// Replicates run in parallel (Bootstrap.Workers) and stop when ctx is
// cancelled, returning ctx's error. Reps below 0 or above MaxReps is an
// error wrapping ErrInvalid; errors of Fit are returned as they are.
// Cost: Reps times the cost of Fit plus len(x) draws.
func GoodnessOfFit(ctx context.Context, x []float64, opt *Options, b Bootstrap) (*GOF, error) {
	var o Options
	if opt != nil {
		o = *opt
	}
	if b.Reps < 0 || b.Reps > MaxReps {
		return nil, fmt.Errorf("%w: %d bootstrap replicates, want 0 (the default, 1000) to %d", ErrInvalid, b.Reps, MaxReps)
	}
	reps := b.Reps
	if reps == 0 {
		reps = 1000
	}
	f, err := fit(ctx, x, &o)
	if err != nil {
		return nil, err
	}
	s, err := NewSampler(f.Alpha, f.Xmin, o.Discrete)
	if err != nil {
		return nil, err
	}
	if pInf := s.OverflowProb(); pInf > maxOverflow {
		return nil, fmt.Errorf("%w: the fitted power law (α = %.6g, x_min = %g) draws a value beyond the largest float64 with probability %.3g: the bootstrap cannot represent it", ErrInvalid, f.Alpha, f.Xmin, pInf)
	}
	var body []float64
	for _, v := range x {
		if v < f.Xmin {
			body = append(body, v)
		}
	}
	sort.Float64s(body) // independent of the input order
	inner := o
	inner.Workers, inner.Recorder = 1, nil
	exceed, unfitted := make([]bool, reps), make([]bool, reps)
	redrawn := make([]int, reps)
	n := len(x)
	pTail := float64(f.NTail) / float64(n)
	cnt := newCounter(b.Recorder, "powerlaw-bootstrap", "synthetic data sets fitted", reps)
	err = parallel.ForState(ctx, reps, b.Workers, func() []float64 { return make([]float64, n) },
		func(syn []float64, rep int) error {
			r := rand.New(rand.NewPCG(b.Seed, uint64(rep)))
			for i := range syn {
				if len(body) == 0 || r.Float64() < pTail {
					v := s.Draw(r)
					for math.IsInf(v, 1) { // at most ½ per draw (checked above)
						redrawn[rep]++
						v = s.Draw(r)
					}
					syn[i] = v
				} else {
					syn[i] = body[r.IntN(len(body))]
				}
			}
			g, err := fit(ctx, syn, &inner)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				// A synthetic set that cannot be fitted (e.g. all tail values
				// equal x_min) is as far from a power law as one can be.
				exceed[rep], unfitted[rep] = true, true
				cnt.add()
				return nil
			}
			exceed[rep] = g.KS >= f.KS
			cnt.add()
			return nil
		})
	if err != nil {
		return nil, err
	}
	out := &GOF{Fit: f, Reps: reps}
	for rep := range exceed {
		if exceed[rep] {
			out.Exceed++
		}
		if unfitted[rep] {
			out.Unfitted++
		}
		out.Redrawn += redrawn[rep]
	}
	out.P = float64(out.Exceed) / float64(reps)
	return out, nil
}
