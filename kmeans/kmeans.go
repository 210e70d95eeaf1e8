package kmeans

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/internal/parallel"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/progress"
)

// ErrInvalid is wrapped by every error reporting invalid input: k out of
// range, empty data, NaN or infinite entries, bad weights or settings.
var ErrInvalid = errors.New("kmeans: invalid input")

// ErrNonFinite is wrapped by the error of Cluster when the distortion of
// finite points and weights overflows (points spread beyond about 1e154,
// whose squared distances exceed the float64 range, or weights whose sum
// does), and by that of KernelCluster when the objective of a finite
// kernel and weights does: no partition is returned with an infinite or
// NaN distortion.
var ErrNonFinite = errors.New("kmeans: non-finite distortion")

// Defaults used when the corresponding Settings field is zero.
const (
	DefaultRestarts = 10
	DefaultMaxIter  = 300
	DefaultTol      = 1e-9
	// DefaultSeed seeds rand.NewPCG(DefaultSeed, DefaultSeed) when
	// Settings.Src is nil.
	DefaultSeed uint64 = 0x7e7e_5eed
)

// MaxRestarts is the largest Settings.Restarts: a result keeps one
// distortion per restart, so a larger count is refused before anything
// is allocated rather than exhausting memory.
const MaxRestarts = 1 << 20

// UpdateRule selects how vector k-means moves its centres.
type UpdateRule int

const (
	// Chatel is the update of thesis Alg. 4 line 9 (seed 000):
	// μ_i ← (Σ_{x∈A_i} w_x x + w̄ μ_i)/(Σ_{x∈A_i} w_x + w̄), where w̄ is the
	// mean point weight (1 for uniform weights, which gives the printed
	// (Σ x + μ_i)/(|A_i| + 1)). Its fixed points are the cluster means.
	Chatel UpdateRule = iota
	// Lloyd is the plain (weighted) mean μ_i ← Σ_{x∈A_i} w_x x / Σ_{x∈A_i} w_x.
	Lloyd
)

// String returns the name of the rule.
func (u UpdateRule) String() string {
	switch u {
	case Chatel:
		return "chatel"
	case Lloyd:
		return "lloyd"
	}
	return fmt.Sprintf("UpdateRule(%d)", int(u))
}

// Settings control Cluster and KernelCluster. The zero value of every field
// but K means the documented default; Settings are never modified (but Src,
// a stateful generator, is advanced).
type Settings struct {
	// K is the number of clusters, 1 ≤ K ≤ n. Required.
	K int
	// Restarts is the number of independent seeded runs; the best is kept
	// (see Select). If Restarts is 0, DefaultRestarts (10) are used; more
	// than MaxRestarts is an error. It is ignored, and one run is made,
	// when Init or Centers is set.
	Restarts int
	// MaxIter caps the iterations of each run. If MaxIter is 0,
	// DefaultMaxIter (300) is used.
	MaxIter int
	// Tol is the stopping tolerance: a run stops when the distortion (kernel
	// objective) J_t of iteration t satisfies |J_{t−1} − J_t| ≤ Tol·|J_{t−1}|.
	// If Tol is 0, DefaultTol (1e-9) is used. Lloyd and kernel runs also
	// stop as soon as the partition does not change (their fixed point);
	// Chatel runs do not, since their centres still move toward the means.
	Tol float64
	// Src is the source of randomness. If Src is nil,
	// rand.NewPCG(DefaultSeed, DefaultSeed) is used. Two values are drawn
	// from Src per restart, before any restart starts, to seed that
	// restart's own generator.
	Src rand.Source
	// Update is the centre update of vector k-means; the zero value is
	// Chatel (thesis Alg. 4). KernelCluster ignores it (Alg. 10 uses the
	// plain weighted mean in feature space).
	Update UpdateRule
	// Weights are the point weights w_i, all finite and > 0. Nil means
	// uniform weights 1 (thesis Alg. 4). With weights the distortion is
	// Σ_i w_i ‖x_i − μ_{c(i)}‖² and k-means++ draws with probability ∝ w·D².
	// KernelCluster takes its weights as an argument and ignores this field.
	Weights []float64
	// Init, if not nil, is the initial partition (labels in 0…K−1, every
	// cluster non-empty): vector k-means starts from its cluster means and
	// kernel k-means from the partition itself. One run is made.
	Init []int
	// Centers, if not nil, are the K×d initial centres of vector k-means.
	// One run is made. Init and Centers cannot both be set.
	Centers *mat.Dense
	// Select, if not nil, scores the partition of each restart; the restart
	// with the lowest score wins, ties broken by the lower distortion and
	// then the lower restart index. A NaN score counts as +Inf. Select must
	// not modify or retain labels; it is never called concurrently, but in
	// no particular order. If Select is nil the lowest distortion wins.
	Select func(labels []int) float64
	// Workers is the number of goroutines. If Workers is 0, GOMAXPROCS is
	// used. Results do not depend on it.
	Workers int
	// Recorder, if not nil, receives an Event{Stage: "kmeans"} after each
	// restart.
	Recorder progress.Recorder
}

// Result is the partition of the winning restart with diagnostics.
type Result struct {
	// Labels[i] is the cluster of point i, in 0…K−1. Every cluster is
	// non-empty.
	Labels []int
	// Centers holds the K final centres as rows (vector k-means only; nil
	// for kernel k-means). With the Chatel rule they approach the cluster
	// means geometrically and equal them at convergence up to Tol.
	Centers *mat.Dense
	// Distortion is Σ_i w_i ‖x_i − μ_{c(i)}‖² for Labels and Centers, or the
	// weighted kernel k-means objective for kernel k-means.
	Distortion float64
	// Iterations is the number of iterations of the winning restart.
	Iterations int
	// Converged reports whether the winning restart met the Tol criterion
	// (or, for kernel k-means, reached an unchanged partition) before
	// MaxIter.
	Converged bool
	// Restart is the index of the winning restart.
	Restart int
	// Distortions[r] is the final distortion (objective) of restart r.
	Distortions []float64
	// Scores[r] is Select's score of restart r; nil when Select is nil.
	Scores []float64
	// Trace[t] is the distortion (objective) after iteration t+1 of the
	// winning restart. It never increases (up to rounding) for vector
	// k-means, and for kernel k-means with a positive semidefinite kernel.
	// Its last value is Distortion except when kernel k-means stopped on a
	// 2-cycle and kept the partition before the last.
	Trace []float64
	// Reseeds counts the empty clusters refilled in the winning restart
	// (see the package documentation).
	Reseeds int
}

// config is Settings with defaults applied.
type config struct {
	k, restarts, maxIter, workers int
	tol                           float64
	src                           rand.Source
	sel                           func([]int) float64
	rec                           progress.Recorder
	// objExp: the restarts' objectives are 2^−objExp times the caller's
	// (Cluster works on data scaled by a power of two); progress messages
	// report Ldexp(objective, objExp).
	objExp int
}

func (s *Settings) config(n int) (config, error) {
	c := config{k: s.K, restarts: s.Restarts, maxIter: s.MaxIter, tol: s.Tol,
		src: s.Src, sel: s.Select, rec: s.Recorder, workers: s.Workers}
	if n == 0 {
		return c, fmt.Errorf("%w: no points", ErrInvalid)
	}
	if c.k < 1 || c.k > n {
		return c, fmt.Errorf("%w: k = %d, want 1 ≤ k ≤ n = %d", ErrInvalid, c.k, n)
	}
	switch {
	case c.restarts < 0:
		return c, fmt.Errorf("%w: Restarts = %d is negative", ErrInvalid, c.restarts)
	case c.restarts > MaxRestarts:
		return c, fmt.Errorf("%w: Restarts = %d exceeds MaxRestarts = %d", ErrInvalid, c.restarts, MaxRestarts)
	case c.maxIter < 0:
		return c, fmt.Errorf("%w: MaxIter = %d is negative", ErrInvalid, c.maxIter)
	case c.tol < 0 || math.IsNaN(c.tol) || math.IsInf(c.tol, 0):
		return c, fmt.Errorf("%w: Tol = %v, want a finite value ≥ 0", ErrInvalid, c.tol)
	case c.workers < 0:
		return c, fmt.Errorf("%w: Workers = %d is negative", ErrInvalid, c.workers)
	}
	if c.restarts == 0 {
		c.restarts = DefaultRestarts
	}
	if c.maxIter == 0 {
		c.maxIter = DefaultMaxIter
	}
	if c.tol == 0 {
		c.tol = DefaultTol
	}
	if c.src == nil {
		c.src = rand.NewPCG(DefaultSeed, DefaultSeed)
	}
	if c.workers == 0 {
		c.workers = runtime.GOMAXPROCS(0)
	}
	if s.Init != nil {
		if err := checkLabels(s.Init, n, c.k); err != nil {
			return c, err
		}
		c.restarts = 1
	}
	return c, nil
}

// checkLabels validates an initial partition.
func checkLabels(labels []int, n, k int) error {
	if len(labels) != n {
		return fmt.Errorf("%w: Init has %d labels for %d points", ErrInvalid, len(labels), n)
	}
	seen := make([]bool, k)
	for i, l := range labels {
		if l < 0 || l >= k {
			return fmt.Errorf("%w: Init[%d] = %d outside [0,%d)", ErrInvalid, i, l, k)
		}
		seen[l] = true
	}
	for c, ok := range seen {
		if !ok {
			return fmt.Errorf("%w: Init leaves cluster %d empty", ErrInvalid, c)
		}
	}
	return nil
}

// checkFinite reports the first NaN or infinite entry of an n×d matrix.
func checkFinite(raw blas64.General, n, d int) error {
	for i := 0; i < n; i++ {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+d] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: entry (row %d, col %d) is %v", ErrInvalid, i, j, v)
			}
		}
	}
	return nil
}

// checkWeights validates point weights (nil is valid).
func checkWeights(w []float64, n int) error {
	if w == nil {
		return nil
	}
	if len(w) != n {
		return fmt.Errorf("%w: %d weights for %d points", ErrInvalid, len(w), n)
	}
	for i, v := range w {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: weight %d is %v, want a finite value > 0", ErrInvalid, i, v)
		}
	}
	return nil
}

// Cluster partitions the rows of x into s.K clusters with k-means (thesis
// Alg. 4, seed 000 §2.3): s.Restarts runs, each seeded by k-means++ and
// iterated until the distortion is stable; the run with the lowest Select
// score (or distortion) is returned.
//
// Scale. When the largest |entry| of x and Centers is outside [2⁻⁴⁰⁰,
// 2⁴⁰⁰], where squared distances would lose digits, underflow or
// overflow, Cluster works on x·2⁻ᵉ (and Settings.Centers·2⁻ᵉ), e its binary
// exponent (math.Frexp), so that it lies in [½, 1): multiplying by a power
// of two is exact, and the algorithm has no absolute constant, so the labels,
// iterations, reseeds and the winning restart are the same, bit for bit,
// for x and 2ᵏ·x whenever both are exactly representable, from points of
// 1e-300 (whose squared distances would underflow to 0) up to points whose
// distortion, in x's own units, stays below the largest float64 (about
// 1.8e308): Result.Centers are scaled back by 2ᵉ and Distortion,
// Distortions and Trace by 2²ᵉ, so below about 1e-154 they underflow to 0
// or a subnormal value, which does not affect the partition, and when the
// distortion of the run kept overflows (points spread over about 1e154 or
// more: {0, s, 10s, 11s} with s = 1e200 has distortion 2·10⁴⁰⁰) Cluster
// returns an error wrapping ErrNonFinite instead of a Result, though the
// labels it found are those of the scaled points (TestClusterScaleRange).
// The scaled copy costs n·d floats, for such data only.
//
// It returns an error wrapping ErrInvalid when x is nil or empty, an entry
// of x is NaN or infinite (naming its row and column), K is outside [1, n],
// or a setting is invalid, an error wrapping ErrNonFinite when the
// distortion of the finite points overflows (the points spread beyond
// about 1e154, or the weights are near the float64 range), and an error
// wrapping ctx.Err() when ctx is cancelled (checked before every block of
// 2048 points of the seeding's and the iterations' passes).
//
// Cost: O(n·k·d) time per iteration at worst and O(n + k·d) memory per
// concurrent restart, plus n·d floats once for the scaled copy of
// out-of-range data; the
// assignment step of a lone run uses up to Workers goroutines. The
// assignment skips every point whose nearest centre provably
// did not change (triangle-inequality bounds after Hamerly, "Making k-means
// even faster", SDM 2010), so that an iteration in which few points move
// costs O(n·d + k²·d); the results are exactly those of the plain
// assignment.
func Cluster(ctx context.Context, x *mat.Dense, s Settings) (*Result, error) {
	if x == nil || x.IsEmpty() {
		return nil, fmt.Errorf("%w: no points", ErrInvalid)
	}
	n, d := x.Dims()
	cfg, err := s.config(n)
	if err != nil {
		return nil, err
	}
	raw := x.RawMatrix()
	if err := checkFinite(raw, n, d); err != nil {
		return nil, err
	}
	if err := checkWeights(s.Weights, n); err != nil {
		return nil, err
	}
	if s.Update != Chatel && s.Update != Lloyd {
		return nil, fmt.Errorf("%w: unknown update rule %d", ErrInvalid, int(s.Update))
	}
	p := &vproblem{x: raw.Data, stride: raw.Stride, n: n, d: d, k: cfg.k, w: s.Weights,
		wbar: 1, update: s.Update, maxIter: cfg.maxIter, tol: cfg.tol}
	if p.w != nil {
		var sum float64
		for _, v := range p.w {
			sum += v
		}
		p.wbar = sum / float64(n)
	}
	amax := maxAbs(raw, n, d)
	var init []float64
	switch {
	case s.Init != nil && s.Centers != nil:
		return nil, fmt.Errorf("%w: both Init and Centers are set", ErrInvalid)
	case s.Centers != nil:
		r, c := s.Centers.Dims()
		if r != cfg.k || c != d {
			return nil, fmt.Errorf("%w: Centers is %d×%d, want k×d = %d×%d", ErrInvalid, r, c, cfg.k, d)
		}
		init = make([]float64, 0, cfg.k*d)
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				v := s.Centers.At(i, j)
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, fmt.Errorf("%w: Centers entry (row %d, col %d) is %v", ErrInvalid, i, j, v)
				}
				init = append(init, v)
				amax = max(amax, math.Abs(v))
			}
		}
		cfg.restarts = 1
	}
	// Work on x·2⁻ᵉ (see Scale above).
	e := p.scale(amax)
	cfg.objExp = 2 * e
	for i, v := range init {
		init[i] = math.Ldexp(v, -e)
	}
	if s.Init != nil {
		init = p.means(s.Init)
	}
	res, err := runRestarts(ctx, cfg, func(ctx context.Context, rnd *rand.Rand, inner int) (*outcome, error) {
		centers := make([]float64, cfg.k*d)
		if init != nil {
			copy(centers, init)
		} else {
			idx, err := p.seed(ctx, rnd, inner)
			if err != nil {
				return nil, err
			}
			for c, i := range idx {
				copy(centers[c*d:(c+1)*d], p.row(i))
			}
		}
		return p.run(ctx, centers, s.Init, inner)
	})
	if err != nil {
		return nil, err
	}
	v := res.Distortion
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil, fmt.Errorf("%w: distortion %v: the weights are out of floating-point range; rescale them", ErrNonFinite, v)
	}
	if w := math.Ldexp(v, 2*e); math.IsInf(w, 0) {
		return nil, fmt.Errorf("%w: distortion %g·2^%d overflows float64 (largest |x| = %g): the points (or the weights) are out of floating-point range; rescale them", ErrNonFinite, v, 2*e, amax)
	}
	res.unscale(e)
	return res, nil
}

// maxAbs returns the largest |entry| of the n×d matrix raw. Cost O(n·d).
func maxAbs(raw blas64.General, n, d int) float64 {
	var m float64
	for i := 0; i < n; i++ {
		for _, v := range raw.Data[i*raw.Stride : i*raw.Stride+d] {
			m = max(m, math.Abs(v))
		}
	}
	return m
}

// scale replaces p's points by a compact copy scaled by 2⁻ᵉ, e the binary
// exponent of amax (math.Frexp: amax·2⁻ᵉ ∈ [½, 1)), and returns e, when
// amax is outside [2⁻⁴⁰⁰, 2⁴⁰⁰]; it leaves p as it is, and returns 0,
// otherwise (ordinary data: no copy) and when amax = 0. The scaling
// is exact unless an entry is so far below amax (by about 2⁻¹⁰²²) that it
// becomes subnormal, where it could not matter to any squared distance
// involving the larger entries. Cost O(n·d) time and memory.
func (p *vproblem) scale(amax float64) int {
	if amax == 0 || (amax >= 0x1p-400 && amax <= 0x1p400) {
		return 0
	}
	_, e := math.Frexp(amax)
	xs := make([]float64, p.n*p.d)
	for i := 0; i < p.n; i++ {
		for t, v := range p.row(i) {
			xs[i*p.d+t] = math.Ldexp(v, -e)
		}
	}
	p.x, p.stride = xs, p.d
	return e
}

// unscale maps a result of points scaled by 2⁻ᵉ back to the caller's
// scale: centres by 2ᵉ, distortions by 2²ᵉ. Cost O(k·d + restarts +
// iterations).
func (r *Result) unscale(e int) {
	if e == 0 {
		return
	}
	if r.Centers != nil {
		raw := r.Centers.RawMatrix()
		for i := range raw.Data {
			raw.Data[i] = math.Ldexp(raw.Data[i], e)
		}
	}
	r.Distortion = math.Ldexp(r.Distortion, 2*e)
	for i, v := range r.Distortions {
		r.Distortions[i] = math.Ldexp(v, 2*e)
	}
	for i, v := range r.Trace {
		r.Trace[i] = math.Ldexp(v, 2*e)
	}
}

// outcome is the result of one restart.
type outcome struct {
	labels    []int
	centers   []float64
	value     float64
	iters     int
	converged bool
	trace     []float64
	reseeds   int
	skipped   int // point assignments skipped by the bounds (vector k-means)
}

// runRestarts runs cfg.restarts restarts of run on up to cfg.workers
// goroutines and keeps the best. Each restart gets a generator seeded from
// cfg.src before any restart starts, so the result does not depend on the
// scheduling. inner is the number of goroutines a restart may use itself.
func runRestarts(ctx context.Context, cfg config, run func(ctx context.Context, rnd *rand.Rand, inner int) (*outcome, error)) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("kmeans: %w", err)
	}
	parent := ctx
	nr := cfg.restarts
	seeds := make([][2]uint64, nr)
	master := rand.New(cfg.src)
	for i := range seeds {
		seeds[i] = [2]uint64{master.Uint64(), master.Uint64()}
	}
	outer := min(cfg.workers, nr)
	inner := max(1, cfg.workers/outer)

	res := &Result{Distortions: make([]float64, nr), Restart: -1}
	if cfg.sel != nil {
		res.Scores = make([]float64, nr)
	}
	var (
		mu       sync.Mutex // guards the fields below and res
		best     *outcome
		bestSc   float64
		firstErr error
		done     int
	)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	err := parallel.For(ctx, nr, outer, func(r int) error {
		rnd := rand.New(rand.NewPCG(seeds[r][0], seeds[r][1]))
		o, err := run(ctx, rnd, inner)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			// Recorded before cancel, so the restarts the cancellation
			// stops cannot report their context error first.
			if firstErr == nil {
				firstErr = err
			}
			cancel()
			return err
		}
		sc := o.value
		if cfg.sel != nil {
			sc = cfg.sel(o.labels)
			if math.IsNaN(sc) {
				sc = math.Inf(1)
			}
			res.Scores[r] = sc
		}
		res.Distortions[r] = o.value
		// better is a total order (ties go to the lower restart), so the
		// winner does not depend on the order the restarts finish in.
		if best == nil || better(sc, o.value, r, bestSc, best.value, res.Restart) {
			best, bestSc, res.Restart = o, sc, r
		}
		done++
		progress.Send(cfg.rec, progress.Event{Stage: "kmeans", Done: done, Total: nr,
			Message: fmt.Sprintf("restart %d: objective %.6g in %s", r, math.Ldexp(o.value, cfg.objExp), wording.Count(o.iters, "iteration", "iterations"))})
		return nil
	})
	if firstErr != nil {
		return nil, fmt.Errorf("kmeans: %w", firstErr)
	}
	if err != nil {
		// Some restarts were never started: the caller cancelled.
		if perr := parent.Err(); perr != nil {
			err = perr
		}
		return nil, fmt.Errorf("kmeans: %w", err)
	}
	res.Labels = best.labels
	res.Distortion = best.value
	res.Iterations = best.iters
	res.Converged = best.converged
	res.Trace = best.trace
	res.Reseeds = best.reseeds
	if best.centers != nil {
		res.Centers = mat.NewDense(cfg.k, len(best.centers)/cfg.k, best.centers)
	}
	return res, nil
}

// better reports whether (score, value, restart) beats the current best in
// the lexicographic order used to pick the winning restart.
func better(sc, v float64, r int, bsc, bv float64, br int) bool {
	if sc != bsc {
		return sc < bsc
	}
	if v != bv {
		return v < bv
	}
	return r < br
}
