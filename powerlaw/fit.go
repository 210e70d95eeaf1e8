package powerlaw

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync/atomic"

	"github.com/tether-sc/tether/internal/parallel"
	"github.com/tether-sc/tether/internal/safelog"
	"github.com/tether-sc/tether/internal/wording"
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
	// the tail and the law fitted to it (Clauset et al. 2009, §3.3): see
	// Fit for which candidates are tried.
	Xmin float64
	// MinTail is the fewest values a candidate x_min must leave in the
	// tail. If MinTail is 0, 10 are required. Negative values of MinTail,
	// MaxCandidates, ScanBudget and Workers are errors.
	MinTail int
	// ScanBudget is the most work, counted as the sum of the tail sizes
	// of the candidates, for which Fit tries every candidate x_min (every
	// distinct value leaving at least MinTail values, and at least two
	// distinct ones, in the tail); above it Fit searches coarse to fine
	// (see Fit). If ScanBudget is 0, DefaultScanBudget is used.
	ScanBudget int64
	// MaxCandidates is the number of coarse candidates of each kind of the
	// coarse-to-fine search (see Fit), at least 20 (smaller values are
	// taken as 20). If MaxCandidates is 0, 100 are used.
	MaxCandidates int
	// Workers is the number of goroutines scanning candidates (0: GOMAXPROCS).
	// The result does not depend on it.
	Workers int
	// Recorder, if not nil, receives the progress of the choice of x_min
	// (Xmin = 0): Event{Stage: "powerlaw-xmin", Done: candidates fitted,
	// Total: candidates} for each batch of candidates — one batch, every
	// candidate, when the full scan fits ScanBudget, otherwise one per
	// step of the coarse-to-fine search, each starting again at Done = 0 —
	// at most once per thousandth of the batch. The fits of
	// GoodnessOfFit's synthetic data sets do not report (see
	// Bootstrap.Recorder).
	Recorder progress.Recorder
}

// DefaultScanBudget is the default Options.ScanBudget: 5·10⁷ tail values
// summed over the candidates, a full scan of every distinct value up to
// about 10⁴ distinct values (a tenth of a second or so on one core).
const DefaultScanBudget = 50_000_000

// ErrNoCandidate is wrapped, with ErrInvalid, by the error of Fit and
// GoodnessOfFit when x_min is to be chosen (Options.Xmin = 0) and no value
// leaves MinTail values, two of them distinct, in the tail.
var ErrNoCandidate = errors.New("no candidate x_min")

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
	// Candidates is the number of x_min values tried (1 when Xmin was
	// given), Eligible the number of candidates (Xmin = 0): every distinct
	// value leaving at least MinTail values, two of them distinct, in the
	// tail. Every candidate was tried when Candidates == Eligible.
	Candidates, Eligible int
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
// values ≥ Xmin; otherwise x_min is the candidate tried — among the
// distinct values leaving at least MinTail values, two of them distinct,
// in the tail — whose tail is closest, in KS distance, to the law fitted
// to that tail by maximum likelihood (Clauset et al. 2009, §3.3). opt ==
// nil means the zero Options.
//
// Which candidates are tried: every one when the sum of their tail sizes,
// the work of a full scan, is at most ScanBudget; then the result is the
// KS minimum over all distinct values, as Clauset et al. prescribe.
// Otherwise a coarse-to-fine search: MaxCandidates candidates spaced
// evenly in rank and MaxCandidates spaced evenly in ln x (a tail of 1% of
// the values has few ranks but a wide range of values), the smallest and
// largest included; then, around each of the 3 best of the first kind and
// the 3 best of the second, every candidate strictly between its coarse
// neighbours (ranges merged where they overlap), searched the same way
// (all of them when their work is at most ScanBudget or they are no more
// than MaxCandidates, coarse to fine again otherwise). ScanBudget also
// bounds the refinement: after the first coarse pass, the steps (most
// promising range first) together fit at most ScanBudget more work (tail
// sizes summed over the candidates tried), and a step that would exceed it
// is skipped — at 10⁶ values the refinement reaches only the cheap ranges
// (short tails) with the default. The search can miss
// a narrow KS minimum far from the best coarse candidates, which the full
// scan cannot: Result.Candidates < Result.Eligible says it was used. Ties
// go to the smaller x_min.
//
// Errors wrap ErrInvalid: empty x; a value that is not finite, not
// positive, or (discrete) not an integer, named by index; an invalid Xmin;
// no value ≥ Xmin; no candidate x_min (too few distinct values); an
// infinite exponent (every tail value equal to x_min); with Xmin given, a
// KS distance that is not a finite number (a candidate x_min whose
// distance is not is skipped, as one whose exponent is infinite).
//
// Cost: a sort, O(n) with the radix sort, and n logarithms; then per
// candidate O(1) for the continuous MLE (suffix sums of ln x) or ~100 ζ
// evaluations for the discrete one, and O(tail) for its KS distance
// (during the scans of every candidate of a range the continuous KS stops
// as soon as it exceeds the smallest distance found so far, the range's
// coarse candidates fitted first to make it small: about 6 times faster
// on the QA data). The full scan costs at most ScanBudget, the
// coarse-to-fine search its first pass (at most 2·MaxCandidates·n, about
// MaxCandidates·n/2 on most data) plus ScanBudget. Spread over Workers
// goroutines.
func Fit(x []float64, opt *Options) (*Result, error) {
	return fit(context.Background(), x, opt)
}

// FitContext is Fit stopping when ctx is cancelled, between candidates
// x_min, with ctx's error.
func FitContext(ctx context.Context, x []float64, opt *Options) (*Result, error) {
	return fit(ctx, x, opt)
}

// fitter holds the sorted data of one Fit and the candidates tried.
type fitter struct {
	o        Options
	y, ly    []float64 // sorted values and their logarithms
	suffix   []float64 // suffix[i] = Σ_{j≥i} ln y_j
	starts   []int     // candidate start indices into y
	work     []int64   // work[c] = Σ_{c' ≥ c} (n − starts[c'])
	res      []*Result // res[c]: the fit at starts[c], nil if not tried, unfitted or pruned
	tried    []bool
	ntried   int
	minTail  int
	maxCand  int
	budget   int64
	spent    int64         // work of the candidates tried: the sum of their tail sizes
	limit    int64         // the most work of the refinement steps (see search)
	bestBits atomic.Uint64 // smallest KS found so far (float64 bits), for pruning
}

// fitAt fits the tail y[i:] with lower bound xmin. With prune, the
// continuous KS distance stops as soon as it exceeds the best distance
// found so far, and the result is nil (the candidate cannot be the
// minimum).
func (f *fitter) fitAt(i int, xmin float64, prune bool) (*Result, error) {
	y, n := f.y, len(f.y)
	m := n - i
	r := &Result{Xmin: xmin, N: n, NTail: m, Discrete: f.o.Discrete}
	if !(y[n-1] > xmin) {
		return nil, errInfinite(m)
	}
	var err error
	if f.o.Discrete {
		r.Alpha, r.StdErr, err = discreteMLEFromMean(m, f.suffix[i]/float64(m), xmin)
	} else {
		r.Alpha, r.StdErr, err = mleFromSum(m, f.suffix[i]-float64(m)*safelog.Log(xmin))
	}
	if err != nil {
		return nil, err
	}
	switch {
	case f.o.Discrete:
		r.KS = ksDiscreteSorted(y[i:], r.Alpha, xmin)
	case xmin == y[i]:
		bound := math.Inf(1)
		if prune {
			bound = math.Float64frombits(f.bestBits.Load())
		}
		var full bool
		if r.KS, full = ksSortedLog(f.ly[i:], r.Alpha, bound); !full {
			return nil, nil
		}
	default:
		r.KS = ksSorted(y[i:], r.Alpha, xmin)
	}
	if r.KS, err = checkFinite("KS distance", r.KS, r.Alpha, xmin); err != nil {
		return nil, err
	}
	return r, nil
}

// ksSortedLog is ksSorted from the logarithms ly of ascending data whose
// first value is x_min. It stops when the distance exceeds bound,
// returning false.
func ksSortedLog(ly []float64, alpha, bound float64) (float64, bool) {
	n := float64(len(ly))
	d, l0 := 0.0, ly[0]
	for i, v := range ly {
		f := -math.Expm1((1 - alpha) * (v - l0))
		d = max(d, float64(i+1)/n-f, f-float64(i)/n)
		if d > bound {
			return d, false
		}
	}
	return d, true
}

// lowerBest lowers the best distance found so far to ks.
func (f *fitter) lowerBest(ks float64) {
	for {
		old := f.bestBits.Load()
		if !(ks < math.Float64frombits(old)) || f.bestBits.CompareAndSwap(old, math.Float64bits(ks)) {
			return
		}
	}
}

// untried returns the candidates of cs not tried yet.
func (f *fitter) untried(cs []int) []int {
	var todo []int
	for _, c := range cs {
		if !f.tried[c] {
			todo = append(todo, c)
		}
	}
	return todo
}

// eval fits the candidates cs (indices into starts) not tried yet, in
// parallel, counting them on cnt; with prune, as the scan of a range
// whose every candidate is tried (see fitAt).
func (f *fitter) eval(ctx context.Context, cs []int, prune bool, cnt *counter) error {
	todo := f.untried(cs)
	for _, c := range todo {
		f.tried[c] = true
	}
	f.ntried += len(todo)
	return parallel.For(ctx, len(todo), f.o.Workers, func(k int) error {
		c := todo[k]
		i := f.starts[c]
		if r, err := f.fitAt(i, f.y[i], prune); err == nil && r != nil {
			f.res[c] = r
			f.lowerBest(r.KS)
		}
		cnt.add()
		return nil
	})
}

// scanAll fits every candidate lo ≤ c < hi not tried yet: the coarse
// candidates first, in full, when the range is large, so that their best
// distance lets the KS of the others stop early (pruning).
func (f *fitter) scanAll(ctx context.Context, lo, hi int) error {
	cs := make([]int, 0, hi-lo)
	for c := lo; c < hi; c++ {
		cs = append(cs, c)
	}
	f.spent += f.tailWork(cs)
	cnt := newCounter(f.o.Recorder, "powerlaw-xmin", "KS distance of each candidate x_min", len(f.untried(cs)))
	if hi-lo > 2*f.maxCand {
		picks, _ := f.coarse(lo, hi)
		if err := f.eval(ctx, picks, false, cnt); err != nil {
			return err
		}
	}
	return f.eval(ctx, cs, true, cnt)
}

// rangeWork is the work of a scan of the candidates lo ≤ c < hi.
func (f *fitter) rangeWork(lo, hi int) int64 {
	w := f.work[lo]
	if hi < len(f.work) {
		w -= f.work[hi]
	}
	return w
}

// tailWork is the work of fitting the candidates cs not tried yet: the
// sum of their tail sizes.
func (f *fitter) tailWork(cs []int) int64 {
	var w int64
	for _, c := range f.untried(cs) {
		w += int64(len(f.y) - f.starts[c])
	}
	return w
}

// search finds the best candidates among lo ≤ c < hi: all of them, or
// coarse to fine (see Fit). top marks the first call, whose full scan
// (when within budget) or first coarse pass is always done; the later
// steps are done only while the work spent stays within f.limit.
func (f *fitter) search(ctx context.Context, lo, hi int, top bool) error {
	full := f.rangeWork(lo, hi)
	switch {
	case top && full <= f.budget:
		return f.scanAll(ctx, lo, hi)
	case !top && (hi-lo <= f.maxCand || full <= f.budget) && f.spent+full <= f.limit:
		return f.scanAll(ctx, lo, hi)
	case hi-lo <= f.maxCand:
		return nil // not affordable: the range stays as the coarse pass left it
	}
	picks, isLog := f.coarse(lo, hi)
	w := f.tailWork(picks)
	if !top && f.spent+w > f.limit {
		return nil
	}
	cnt := newCounter(f.o.Recorder, "powerlaw-xmin", "KS distance of the coarse candidates x_min", len(f.untried(picks)))
	if err := f.eval(ctx, picks, false, cnt); err != nil {
		return err
	}
	f.spent += w
	if top {
		f.limit = f.spent + f.budget
	}
	// The 3 best coarse candidates spaced in rank and the 3 best spaced
	// in ln x (ties: the smaller x_min), and the ranges between their
	// neighbours, merged where they overlap. The best in ln x are kept
	// apart: a tail of 1% of the values holds few rank-spaced candidates,
	// and its KS minimum can be narrow.
	var chosen []int
	for _, logKind := range []bool{false, true} {
		var order []int
		for k, c := range picks {
			if f.res[c] != nil && (!logKind || isLog[k]) {
				order = append(order, k)
			}
		}
		sort.SliceStable(order, func(a, b int) bool { return f.res[picks[order[a]]].KS < f.res[picks[order[b]]].KS })
		chosen = append(chosen, order[:min(3, len(order))]...)
	}
	type span struct {
		lo, hi int
		ks     float64 // the best distance of a chosen candidate in it
	}
	var spans []span
	for _, k := range chosen {
		s := span{lo, hi, f.res[picks[k]].KS}
		if k > 0 {
			s.lo = picks[k-1] + 1
		}
		if k+1 < len(picks) {
			s.hi = picks[k+1]
		}
		spans = append(spans, s)
	}
	sort.Slice(spans, func(a, b int) bool { return spans[a].lo < spans[b].lo })
	var merged []span
	for _, s := range spans {
		if l := len(merged) - 1; l >= 0 && s.lo <= merged[l].hi {
			merged[l].hi = max(merged[l].hi, s.hi)
			merged[l].ks = min(merged[l].ks, s.ks)
			continue
		}
		merged = append(merged, s)
	}
	// The most promising range first: it gets the budget when not all fit.
	sort.SliceStable(merged, func(a, b int) bool { return merged[a].ks < merged[b].ks })
	for _, s := range merged {
		if s.hi-s.lo >= hi-lo {
			// Not narrower (never with ≥ 20 coarse candidates of each
			// kind): scan it all, if affordable, rather than loop.
			if f.spent+f.rangeWork(s.lo, s.hi) <= f.limit {
				if err := f.scanAll(ctx, s.lo, s.hi); err != nil {
					return err
				}
			}
			continue
		}
		if err := f.search(ctx, s.lo, s.hi, false); err != nil {
			return err
		}
	}
	return nil
}

// coarse returns the coarse candidates of lo ≤ c < hi, ascending:
// maxCand spaced evenly in rank and maxCand spaced evenly in ln x (the
// first candidate at or above each of maxCand evenly spaced logarithms),
// lo and hi−1 included; isLog[k] is true for the latter.
func (f *fitter) coarse(lo, hi int) (picks []int, isLog []bool) {
	m := f.maxCand
	logPick := map[int]bool{}
	for j := range m {
		picks = append(picks, lo+j*(hi-1-lo)/(m-1))
	}
	l0, l1 := f.ly[f.starts[lo]], f.ly[f.starts[hi-1]]
	for j := range m {
		t := l0 + float64(j)*(l1-l0)/float64(m-1)
		c := min(hi-1, lo+sort.Search(hi-lo, func(k int) bool { return f.ly[f.starts[lo+k]] >= t }))
		picks = append(picks, c)
		logPick[c] = true
	}
	slices.Sort(picks)
	picks = slices.Compact(picks)
	isLog = make([]bool, len(picks))
	for k, c := range picks {
		isLog[k] = logPick[c]
	}
	return picks, isLog
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
	case o.ScanBudget < 0:
		return nil, fmt.Errorf("%w: ScanBudget = %d, want ≥ 0 (0: %d)", ErrInvalid, o.ScanBudget, DefaultScanBudget)
	case o.Workers < 0:
		return nil, fmt.Errorf("%w: Workers = %d, want ≥ 0 (0: GOMAXPROCS)", ErrInvalid, o.Workers)
	}
	if o.Xmin != 0 {
		if err := checkXmin(o.Xmin, o.Discrete); err != nil {
			return nil, err
		}
	}
	f := &fitter{o: o, minTail: o.MinTail, maxCand: o.MaxCandidates, budget: o.ScanBudget}
	if f.minTail <= 0 {
		f.minTail = 10
	}
	if f.maxCand <= 0 {
		f.maxCand = 100
	}
	f.maxCand = max(f.maxCand, 20)
	if f.budget <= 0 {
		f.budget = DefaultScanBudget
	}
	f.y = sortedCopy(x)
	y := f.y
	n := len(y)
	f.ly = make([]float64, n)
	f.suffix = make([]float64, n+1)
	for i := n - 1; i >= 0; i-- {
		f.ly[i] = safelog.Log(y[i])
		f.suffix[i] = f.suffix[i+1] + f.ly[i]
	}
	if o.Xmin != 0 {
		i := sort.SearchFloat64s(y, o.Xmin)
		if i == n {
			return nil, fmt.Errorf("%w: no value ≥ x_min = %v (largest %v)", ErrInvalid, o.Xmin, y[n-1])
		}
		r, err := f.fitAt(i, o.Xmin, false)
		if err != nil {
			return nil, err
		}
		r.Candidates, r.Eligible = 1, 1
		return r, nil
	}
	// Candidate start indices: first occurrence of each distinct value with
	// a tail of ≥ minTail values holding ≥ 2 distinct ones.
	for i := 0; i < n; i++ {
		if (i == 0 || y[i] != y[i-1]) && n-i >= f.minTail && y[i] != y[n-1] {
			f.starts = append(f.starts, i)
		}
	}
	nc := len(f.starts)
	if nc == 0 {
		return nil, fmt.Errorf("%w: %w: %s, need a tail of at least %s with two distinct ones",
			ErrInvalid, ErrNoCandidate, wording.Count(n, "value", "values"), wording.Count(f.minTail, "value", "values"))
	}
	f.work = make([]int64, nc)
	for c := nc - 1; c >= 0; c-- {
		f.work[c] = int64(n - f.starts[c])
		if c+1 < nc {
			f.work[c] += f.work[c+1]
		}
	}
	f.res, f.tried = make([]*Result, nc), make([]bool, nc)
	f.bestBits.Store(math.Float64bits(math.Inf(1)))
	if err := f.search(ctx, 0, nc, true); err != nil {
		return nil, err
	}
	var best *Result
	for _, r := range f.res {
		if r != nil && (best == nil || r.KS < best.KS) {
			best = r
		}
	}
	if best == nil {
		return nil, fmt.Errorf("%w: no candidate x_min gives a finite exponent", ErrInvalid)
	}
	best.Candidates, best.Eligible = f.ntried, nc
	return best, nil
}
