package powerlaw

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/tether-sc/tether/internal/parallel"
	"github.com/tether-sc/tether/internal/safelog"
	"github.com/tether-sc/tether/progress"
)

// Options configure Fit. The zero value fits a continuous law with x_min
// chosen by KS minimization.
type Options struct {
	// Discrete fits the discrete law x^{−α}/ζ(α, x_min) to integer data
	// with DiscreteMLE and KSDiscrete; otherwise the continuous law of
	// thesis eq. 5.1.2 with MLE (eq. 5.1.3) and KS.
	Discrete bool
	// Xmin, if positive, fixes x_min: the fit uses the values ≥ Xmin. If
	// Xmin is 0, x_min is the candidate minimizing the KS distance between
	// the tail and the law fitted to it (Clauset et al. 2009, §3.3).
	Xmin float64
	// MinTail is the fewest values a candidate x_min must leave in the
	// tail. If MinTail is 0, 10 are required. Negative values of MinTail,
	// MaxCandidates and Workers are errors.
	MinTail int
	// MaxCandidates caps the candidate x_min values: the distinct values
	// that leave at least MinTail values, and at least two distinct ones,
	// in the tail; when there are more, MaxCandidates of them evenly spaced
	// in rank (the smallest always included). If MaxCandidates is 0, 100
	// are used.
	MaxCandidates int
	// Workers is the number of goroutines scanning candidates (0: GOMAXPROCS).
	// The result does not depend on it.
	Workers int
	// Recorder, if not nil, receives the progress of the choice of x_min
	// (Xmin = 0): Event{Stage: "powerlaw-xmin", Done: candidates fitted,
	// Total: candidates}, once per candidate, O(n) work each (seconds
	// in all for 10⁶ values). The fits of GoodnessOfFit's synthetic data
	// sets do not report (see Bootstrap.Recorder).
	Recorder progress.Recorder
}

// Result is a fitted power law.
type Result struct {
	// Alpha is the maximum-likelihood exponent of the tail, StdErr its
	// standard error (see MLE and DiscreteMLE).
	Alpha, StdErr float64
	// Xmin is the lower bound used (given or selected).
	Xmin float64
	// KS is the Kolmogorov–Smirnov distance between the tail and the
	// fitted law.
	KS float64
	// N is the number of values, NTail the number ≥ Xmin used by the fit.
	N, NTail int
	// Discrete records Options.Discrete.
	Discrete bool
	// Candidates is the number of x_min values tried (1 when Xmin was given).
	Candidates int
}

// checkData validates every value: finite, > 0, an integer ≥ 1 when
// discrete.
func checkData(x []float64, discrete bool) error {
	if len(x) == 0 {
		return fmt.Errorf("%w: no data", ErrInvalid)
	}
	for i, v := range x {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return fmt.Errorf("%w: x[%d] = %v is not finite", ErrInvalid, i, v)
		case !(v > 0):
			return fmt.Errorf("%w: x[%d] = %v is not positive", ErrInvalid, i, v)
		case discrete && v != math.Trunc(v):
			return fmt.Errorf("%w: x[%d] = %v is not an integer (discrete law)", ErrInvalid, i, v)
		}
	}
	return nil
}

// Fit fits a power law to the tail of x: with Options.Xmin given, to the
// values ≥ Xmin; otherwise x_min is chosen among the candidates (see
// Options) as the one whose tail is closest, in KS distance, to the law
// fitted to that tail by maximum likelihood (Clauset et al. 2009, §3.3).
// opt == nil means the zero Options.
//
// Errors wrap ErrInvalid: empty x; a value that is not finite, not
// positive, or (discrete) not an integer, named by index; an invalid Xmin;
// no value ≥ Xmin; no candidate x_min (too few distinct values); an
// infinite exponent (every tail value equal to x_min); with Xmin given, a
// KS distance that is not a finite number (a candidate x_min whose
// distance is not is skipped, as one whose exponent is infinite).
//
// Cost: a sort, O(n) with the radix sort; then per candidate O(1) for the
// continuous MLE (suffix sums of ln x) or ~100 ζ evaluations for the
// discrete one, and O(tail) for its KS distance — at most
// MaxCandidates·n, spread over Workers goroutines.
func Fit(x []float64, opt *Options) (*Result, error) {
	return fit(context.Background(), x, opt)
}

func fit(ctx context.Context, x []float64, opt *Options) (*Result, error) {
	var o Options
	if opt != nil {
		o = *opt
	}
	if err := checkData(x, o.Discrete); err != nil {
		return nil, err
	}
	switch {
	case o.MinTail < 0:
		return nil, fmt.Errorf("%w: MinTail = %d, want ≥ 0 (0: 10)", ErrInvalid, o.MinTail)
	case o.MaxCandidates < 0:
		return nil, fmt.Errorf("%w: MaxCandidates = %d, want ≥ 0 (0: 100)", ErrInvalid, o.MaxCandidates)
	case o.Workers < 0:
		return nil, fmt.Errorf("%w: Workers = %d, want ≥ 0 (0: GOMAXPROCS)", ErrInvalid, o.Workers)
	}
	if o.Xmin != 0 {
		if err := checkXmin(o.Xmin, o.Discrete); err != nil {
			return nil, err
		}
	}
	minTail := o.MinTail
	if minTail <= 0 {
		minTail = 10
	}
	maxCand := o.MaxCandidates
	if maxCand <= 0 {
		maxCand = 100
	}
	y := sortedCopy(x)
	n := len(y)
	// suffix[i] = Σ_{j≥i} ln y_j.
	suffix := make([]float64, n+1)
	for i := n - 1; i >= 0; i-- {
		suffix[i] = suffix[i+1] + safelog.Log(y[i])
	}
	fitAt := func(i int, xmin float64) (*Result, error) {
		m := n - i
		r := &Result{Xmin: xmin, N: n, NTail: m, Discrete: o.Discrete}
		var err error
		if o.Discrete {
			r.Alpha, r.StdErr, err = discreteMLEFromMean(m, suffix[i]/float64(m), xmin)
		} else {
			r.Alpha, r.StdErr, err = mleFromSum(m, suffix[i]-float64(m)*safelog.Log(xmin))
		}
		if err != nil {
			return nil, err
		}
		if o.Discrete {
			r.KS = ksDiscreteSorted(y[i:], r.Alpha, xmin)
		} else {
			r.KS = ksSorted(y[i:], r.Alpha, xmin)
		}
		if r.KS, err = checkFinite("KS distance", r.KS, r.Alpha, xmin); err != nil {
			return nil, err
		}
		return r, nil
	}
	if o.Xmin != 0 {
		i := sort.SearchFloat64s(y, o.Xmin)
		if i == n {
			return nil, fmt.Errorf("%w: no value ≥ x_min = %v (largest %v)", ErrInvalid, o.Xmin, y[n-1])
		}
		r, err := fitAt(i, o.Xmin)
		if err != nil {
			return nil, err
		}
		r.Candidates = 1
		return r, nil
	}
	// Candidate start indices: first occurrence of each distinct value with
	// a tail of ≥ minTail values holding ≥ 2 distinct ones.
	var starts []int
	for i := 0; i < n; i++ {
		if (i == 0 || y[i] != y[i-1]) && n-i >= minTail && y[i] != y[n-1] {
			starts = append(starts, i)
		}
	}
	if len(starts) == 0 {
		return nil, fmt.Errorf("%w: no candidate x_min: %d values, need a tail of at least %d values with two distinct ones", ErrInvalid, n, minTail)
	}
	if len(starts) > maxCand {
		picked := make([]int, maxCand)
		for c := range picked {
			picked[c] = starts[c*(len(starts)-1)/max(maxCand-1, 1)]
		}
		starts = picked
	}
	results := make([]*Result, len(starts))
	cnt := newCounter(o.Recorder, "powerlaw-xmin", "KS distance of each candidate x_min", len(starts))
	err := parallel.For(ctx, len(starts), o.Workers, func(c int) error {
		i := starts[c]
		r, err := fitAt(i, y[i])
		if err == nil {
			results[c] = r
		}
		cnt.add()
		return nil
	})
	if err != nil {
		return nil, err
	}
	var best *Result
	for _, r := range results {
		if r != nil && (best == nil || r.KS < best.KS) {
			best = r
		}
	}
	if best == nil {
		return nil, fmt.Errorf("%w: no candidate x_min gives a finite exponent", ErrInvalid)
	}
	best.Candidates = len(starts)
	return best, nil
}
