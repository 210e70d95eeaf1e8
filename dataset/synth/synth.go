package synth

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/graph"
)

// ErrInvalid is wrapped by the errors reporting invalid generator
// parameters (sizes, noise levels, probabilities), including a finite
// noise so large that a generated coordinate overflows float64: the point
// generators never return a non-finite value.
var ErrInvalid = errors.New("synth: invalid parameter")

// ParamError is an error about generator parameters that names them by
// their Params names ("n", "k", "dim", "noise", "factor", "cin", "cout",
// "gamma"): those whose values together are at fault (k and n for k > n).
// Its message is Err's, which wraps ErrInvalid; a caller that knows which
// parameters a person gave can name those (tether's jobs name the
// gen_params entries at fault), without reading the message.
type ParamError struct {
	Params []string
	Err    error
}

func (e *ParamError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *ParamError) Unwrap() error { return e.Err }

// paramError returns a *ParamError naming params, with the message of
// fmt.Errorf(format, args...).
func paramError(params []string, format string, args ...any) error {
	return &ParamError{Params: params, Err: fmt.Errorf(format, args...)}
}

// DefaultSeed seeds the generators when src is nil: rand.NewPCG(DefaultSeed,
// DefaultSeed).
const DefaultSeed = 1

func newRand(src rand.Source) *rand.Rand {
	if src == nil {
		src = rand.NewPCG(DefaultSeed, DefaultSeed)
	}
	return rand.New(src)
}

// MaxValues bounds the size of every generated data set, so that absurd
// sizes (usually a typo in a flag) are refused with an error wrapping
// ErrInvalid before anything is allocated, instead of panicking in
// makeslice or exhausting memory: point generators allow n·dim ≤ MaxValues
// feature values (dim = 2 except for Blobs); SBM allows n ≤ MaxValues nodes
// and an expected number of adjacency entries 2·E[m] ≤ MaxValues. 2^28
// float64 values take 2 GiB.
const MaxValues = 1 << 28

func checkPoints(name string, n, dim int, noise float64) error {
	if n < 1 {
		return paramError([]string{"n"}, "%w: %s: n = %d, want ≥ 1", ErrInvalid, name, n)
	}
	if dim >= 1 && n > MaxValues/dim {
		return paramError([]string{"n", "dim"}, "%w: %s: n = %d points of dimension %d exceed MaxValues = %d values", ErrInvalid, name, n, dim, MaxValues)
	}
	if !(noise >= 0) || math.IsInf(noise, 0) {
		return paramError([]string{"noise"}, "%w: %s: noise = %v, want a finite value ≥ 0", ErrInvalid, name, noise)
	}
	return nil
}

// checkOutput returns an error wrapping ErrInvalid, naming the generator
// name, its noise and the first value that is not finite (feature x1, x2,
// … as tether gen names the columns, of a 0-based point), when x holds
// one: a finite noise so large that noise·z, z ~ N(0, 1), overflows
// float64 (noise ≈ 1e308) makes ±Inf coordinates, which tether's readers
// refuse. The generators check their output rather than bound the noise,
// since the overflow depends on the largest z drawn. ctx is checked as the
// points are drawn (pollPoints); a cancelled ctx gives ctx.Err(). Cost
// O(n·dim).
func checkOutput(ctx context.Context, name string, noise float64, x *mat.Dense) error {
	n, dim := x.Dims()
	every := pollPoints(dim)
	for i := 0; i < n; i++ {
		if i%every == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		for j, v := range x.RawRowView(i) {
			if math.IsInf(v, 0) || math.IsNaN(v) {
				return paramError([]string{"noise"}, "%w: %s: noise = %v makes x%d of point %d %v (beyond the float64 range); want a smaller noise", ErrInvalid, name, noise, j+1, i, v)
			}
		}
	}
	return nil
}

// pollValues is how many feature values the point generators draw (or
// check, checkOutput) between two checks of their context: 2¹⁶ values
// take about a millisecond.
const pollValues = 1 << 16

// pollPoints returns how many points of dimension dim make pollValues
// values (at least 1): the point generators check their context before
// points 0, every, 2·every, … of each pass.
func pollPoints(dim int) int {
	return max(1, pollValues/max(dim, 1))
}

// split returns the sizes of k balanced groups of n items: n/k each, the
// first n mod k groups one more.
func split(n, k int) []int {
	s := make([]int, k)
	for b := range s {
		s[b] = n / k
		if b < n%k {
			s[b]++
		}
	}
	return s
}

// linspace returns the m-th of m points spread over [a, b] (endpoint
// included when closed), as numpy.linspace.
func linspace(a, b float64, i, m int, closed bool) float64 {
	if m == 1 {
		return a
	}
	d := m
	if closed {
		d = m - 1
	}
	return a + (b-a)*float64(i)/float64(d)
}

// Moons returns the two interleaving half circles of scikit-learn's
// make_moons: ⌊n/2⌋ points (cos t, sin t) with label 0 and the other ⌈n/2⌉
// points (1 − cos t, 1/2 − sin t) with label 1, t evenly spaced over [0, π]
// (both ends included), each coordinate then perturbed by independent
// N(0, noise²) noise. Rows come in that order (label 0 first). A nil src
// means rand.NewPCG(DefaultSeed, DefaultSeed).
//
// The thesis (seed 000 §2.2) and the FGPWC paper (seed 003, Table 1: 900
// points) use this data set without giving its generator; this is the
// common scikit-learn definition. Moons is MoonsContext with
// context.Background().
func Moons(n int, noise float64, src rand.Source) (*mat.Dense, []int, error) {
	return MoonsContext(context.Background(), n, noise, src)
}

// MoonsContext is Moons checking ctx before every pollValues/2 points it
// draws and checks (pollPoints), so that a large set can be interrupted:
// it then returns ctx.Err(). The same src gives the same points as Moons.
func MoonsContext(ctx context.Context, n int, noise float64, src rand.Source) (*mat.Dense, []int, error) {
	if err := checkPoints("Moons", n, 2, noise); err != nil {
		return nil, nil, err
	}
	rng := newRand(src)
	x := mat.NewDense(n, 2, nil)
	labels := make([]int, n)
	nOut := n / 2
	nIn := n - nOut
	every := pollPoints(2)
	for i := 0; i < n; i++ {
		if i%every == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
		var a, b float64
		if i < nOut {
			t := linspace(0, math.Pi, i, nOut, true)
			a, b = math.Cos(t), math.Sin(t)
		} else {
			t := linspace(0, math.Pi, i-nOut, nIn, true)
			a, b = 1-math.Cos(t), 0.5-math.Sin(t)
			labels[i] = 1
		}
		x.Set(i, 0, a+noise*rng.NormFloat64())
		x.Set(i, 1, b+noise*rng.NormFloat64())
	}
	if err := checkOutput(ctx, "Moons", noise, x); err != nil {
		return nil, nil, err
	}
	return x, labels, nil
}

// Circles returns two concentric circles as scikit-learn's make_circles:
// ⌊n/2⌋ points on the unit circle (label 0) and ⌈n/2⌉ on the circle of
// radius factor (label 1), angles evenly spaced over [0, 2π) (end excluded),
// plus N(0, noise²) noise on each coordinate. 0 < factor < 1. A nil src means
// rand.NewPCG(DefaultSeed, DefaultSeed). Circles is CirclesContext with
// context.Background().
func Circles(n int, noise, factor float64, src rand.Source) (*mat.Dense, []int, error) {
	return CirclesContext(context.Background(), n, noise, factor, src)
}

// CirclesContext is Circles checking ctx before every pollValues/2 points
// it draws and checks (pollPoints), so that a large set can be
// interrupted: it then returns ctx.Err(). The same src gives the same
// points as Circles.
func CirclesContext(ctx context.Context, n int, noise, factor float64, src rand.Source) (*mat.Dense, []int, error) {
	if err := checkPoints("Circles", n, 2, noise); err != nil {
		return nil, nil, err
	}
	if !(factor > 0 && factor < 1) {
		return nil, nil, paramError([]string{"factor"}, "%w: Circles: factor = %v, want 0 < factor < 1", ErrInvalid, factor)
	}
	rng := newRand(src)
	x := mat.NewDense(n, 2, nil)
	labels := make([]int, n)
	nOut := n / 2
	nIn := n - nOut
	every := pollPoints(2)
	for i := 0; i < n; i++ {
		if i%every == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
		r, t := 1.0, 0.0
		if i < nOut {
			t = linspace(0, 2*math.Pi, i, nOut, false)
		} else {
			r, t = factor, linspace(0, 2*math.Pi, i-nOut, nIn, false)
			labels[i] = 1
		}
		x.Set(i, 0, r*math.Cos(t)+noise*rng.NormFloat64())
		x.Set(i, 1, r*math.Sin(t)+noise*rng.NormFloat64())
	}
	if err := checkOutput(ctx, "Circles", noise, x); err != nil {
		return nil, nil, err
	}
	return x, labels, nil
}

// InterlacedCircles returns k interlaced unit circles, a chain of rings:
// circle c has centre (c, 0), so each circle passes through the centres of
// its neighbours and crosses them. The n points are split into k balanced
// groups (see Blobs); group c has label c and angles evenly spaced over
// [0, 2π) (end excluded), plus N(0, noise²) noise per coordinate. A nil src
// means rand.NewPCG(DefaultSeed, DefaultSeed).
//
// The thesis and the FGPWC paper use an "interlaced circles" data set with
// 900 points and 3 classes (seed 003, Table 1) without defining it; this
// chain is our definition, chosen so that the classes cross and RBF graphs
// cannot separate them by density alone. InterlacedCircles is
// InterlacedCirclesContext with context.Background().
func InterlacedCircles(n, k int, noise float64, src rand.Source) (*mat.Dense, []int, error) {
	return InterlacedCirclesContext(context.Background(), n, k, noise, src)
}

// InterlacedCirclesContext is InterlacedCircles checking ctx before every
// pollValues/2 points it draws and checks (pollPoints), so that a large
// set can be interrupted: it then returns ctx.Err(). The same src gives
// the same points as InterlacedCircles.
func InterlacedCirclesContext(ctx context.Context, n, k int, noise float64, src rand.Source) (*mat.Dense, []int, error) {
	if err := checkPoints("InterlacedCircles", n, 2, noise); err != nil {
		return nil, nil, err
	}
	if k < 1 || k > n {
		return nil, nil, paramError([]string{"k", "n"}, "%w: InterlacedCircles: k = %d, want 1 ≤ k ≤ n = %d", ErrInvalid, k, n)
	}
	rng := newRand(src)
	x := mat.NewDense(n, 2, nil)
	labels := make([]int, n)
	i := 0
	every := pollPoints(2)
	for c, m := range split(n, k) {
		for q := 0; q < m; q++ {
			if i%every == 0 {
				if err := ctx.Err(); err != nil {
					return nil, nil, err
				}
			}
			t := linspace(0, 2*math.Pi, q, m, false)
			x.Set(i, 0, float64(c)+math.Cos(t)+noise*rng.NormFloat64())
			x.Set(i, 1, math.Sin(t)+noise*rng.NormFloat64())
			labels[i] = c
			i++
		}
	}
	if err := checkOutput(ctx, "InterlacedCircles", noise, x); err != nil {
		return nil, nil, err
	}
	return x, labels, nil
}

// XOR returns the exclusive-or problem: four Gaussian clouds with
// covariance noise²·I centred at (1,1), (−1,−1) (label 0) and (1,−1),
// (−1,1) (label 1), so the label is 1 exactly when the signs of the centre's
// coordinates differ. The n points are split into four balanced groups in
// that order (the first n mod 4 groups get one more). A nil src means
// rand.NewPCG(DefaultSeed, DefaultSeed). XOR is XORContext with
// context.Background().
func XOR(n int, noise float64, src rand.Source) (*mat.Dense, []int, error) {
	return XORContext(context.Background(), n, noise, src)
}

// XORContext is XOR checking ctx before every pollValues/2 points it draws
// and checks (pollPoints), so that a large set can be interrupted: it then
// returns ctx.Err(). The same src gives the same points as XOR.
func XORContext(ctx context.Context, n int, noise float64, src rand.Source) (*mat.Dense, []int, error) {
	if err := checkPoints("XOR", n, 2, noise); err != nil {
		return nil, nil, err
	}
	rng := newRand(src)
	centres := [4][2]float64{{1, 1}, {-1, -1}, {1, -1}, {-1, 1}}
	x := mat.NewDense(n, 2, nil)
	labels := make([]int, n)
	i := 0
	every := pollPoints(2)
	for c, m := range split(n, 4) {
		for q := 0; q < m; q++ {
			if i%every == 0 {
				if err := ctx.Err(); err != nil {
					return nil, nil, err
				}
			}
			x.Set(i, 0, centres[c][0]+noise*rng.NormFloat64())
			x.Set(i, 1, centres[c][1]+noise*rng.NormFloat64())
			labels[i] = c / 2
			i++
		}
	}
	if err := checkOutput(ctx, "XOR", noise, x); err != nil {
		return nil, nil, err
	}
	return x, labels, nil
}

// BlobBox is the half-width of the box the Blobs centres are drawn from.
const BlobBox = 10

// Blobs returns k isotropic Gaussian clusters in dim dimensions. The
// centres are drawn first, independently and uniformly in
// [−BlobBox, BlobBox]^dim (scikit-learn's make_blobs default box); then
// the n points are split into k balanced groups (n/k each, the first n mod k
// one more), and point i of group c is centre_c + std·z with z ~ N(0, I).
// Rows come grouped by label. A nil src means rand.NewPCG(DefaultSeed,
// DefaultSeed). Blobs is BlobsContext with context.Background().
func Blobs(n, k, dim int, std float64, src rand.Source) (*mat.Dense, []int, error) {
	return BlobsContext(context.Background(), n, k, dim, std, src)
}

// BlobsContext is Blobs checking ctx before every pollValues/dim points
// (at least every point) it draws and checks (pollPoints), so that a
// large set can be interrupted: it then returns ctx.Err(). The same src
// gives the same points as Blobs.
func BlobsContext(ctx context.Context, n, k, dim int, std float64, src rand.Source) (*mat.Dense, []int, error) {
	if dim < 1 {
		return nil, nil, paramError([]string{"dim"}, "%w: Blobs: dim = %d, want ≥ 1", ErrInvalid, dim)
	}
	if err := checkPoints("Blobs", n, dim, std); err != nil {
		return nil, nil, err
	}
	if k < 1 || k > n {
		return nil, nil, paramError([]string{"k", "n"}, "%w: Blobs: k = %d, want 1 ≤ k ≤ n = %d", ErrInvalid, k, n)
	}
	rng := newRand(src)
	centres := make([]float64, k*dim)
	for t := range centres {
		centres[t] = BlobBox * (2*rng.Float64() - 1)
	}
	x := mat.NewDense(n, dim, nil)
	labels := make([]int, n)
	i := 0
	every := pollPoints(dim)
	for c, m := range split(n, k) {
		for q := 0; q < m; q++ {
			if i%every == 0 {
				if err := ctx.Err(); err != nil {
					return nil, nil, err
				}
			}
			for d := 0; d < dim; d++ {
				x.Set(i, d, centres[c*dim+d]+std*rng.NormFloat64())
			}
			labels[i] = c
			i++
		}
	}
	if err := checkOutput(ctx, "Blobs", std, x); err != nil {
		return nil, nil, err
	}
	return x, labels, nil
}

// SBM samples the sparse stochastic block model of seed 004 §3.1 (eq. 3.1):
// n nodes in k balanced blocks of consecutive nodes (⌊n/k⌋ nodes each, the
// first n mod k blocks one more; labels[i] is the block of node i), and each
// pair {i,j}, i ≠ j, is an edge
// of weight 1 independently with probability p_in = c_in/n inside a block
// and p_out = c_out/n across blocks. There are no self loops. 0 ≤ c_in,
// c_out ≤ n.
//
// The expected degree is about (c_in + (k−1)c_out)/k. Sampling skips
// geometrically between edges (Batagelj & Brandes 2005), so it costs
// O(n + k² + m) time for m edges and never visits the n² pairs. A nil src
// means rand.NewPCG(DefaultSeed, DefaultSeed).
//
// n ≤ MaxValues, and the expected number of adjacency entries,
// 2·E[m] ≈ n·(c_in + (k−1)c_out)/k, must not exceed MaxValues either: larger
// requests are refused before anything is allocated. SBM is SBMContext with
// context.Background().
func SBM(n, k int, cin, cout float64, src rand.Source) (*graph.Graph, []int, error) {
	return SBMContext(context.Background(), n, k, cin, cout, src)
}

// ctxEvery is how many sampling steps SBMContext takes between two checks
// of its context.
const ctxEvery = 1 << 12

// SBMContext is SBM, checking ctx every 4096 sampling steps (edges or
// block pairs), before building the graph and while building it
// (graph.FromEdgesContext), so that a large graph can be interrupted; it
// then returns ctx.Err() (wrapped by graph when cancelled in the build:
// errors.Is finds it).
func SBMContext(ctx context.Context, n, k int, cin, cout float64, src rand.Source) (*graph.Graph, []int, error) {
	if n < 1 || k < 1 || k > n {
		return nil, nil, paramError([]string{"n", "k"}, "%w: SBM: n = %d, k = %d, want 1 ≤ k ≤ n", ErrInvalid, n, k)
	}
	if n > MaxValues {
		return nil, nil, paramError([]string{"n"}, "%w: SBM: n = %d nodes exceed MaxValues = %d", ErrInvalid, n, MaxValues)
	}
	for _, c := range []float64{cin, cout} {
		if !(c >= 0 && c <= float64(n)) {
			return nil, nil, paramError([]string{"cin", "cout", "n"}, "%w: SBM: c_in = %v, c_out = %v, want 0 ≤ c ≤ n = %d", ErrInvalid, cin, cout, n)
		}
	}
	// Each node has about (c_in + (k−1)c_out)/k neighbours in expectation.
	if entries := float64(n) * (cin + float64(k-1)*cout) / float64(k); entries > MaxValues {
		return nil, nil, paramError([]string{"n", "k", "cin", "cout"}, "%w: SBM: about %.3g expected adjacency entries (n = %d, c_in = %v, c_out = %v) exceed MaxValues = %d", ErrInvalid, entries, n, cin, cout, MaxValues)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	rng := newRand(src)
	sizes := split(n, k)
	start := make([]int, k+1)
	labels := make([]int, n)
	for b, s := range sizes {
		start[b+1] = start[b] + s
		for i := start[b]; i < start[b+1]; i++ {
			labels[i] = b
		}
	}
	pin, pout := cin/float64(n), cout/float64(n)
	// Reserve the expected edge count plus a margin, so appends rarely copy.
	var want float64
	for a, s := range sizes {
		want += pin * float64(s) * float64(s-1) / 2
		want += pout * float64(s) * float64(n-start[a+1])
	}
	edges := make([]graph.Edge, 0, int(want+5*math.Sqrt(want)+16))
	// skip returns the number of failures before the next success of a
	// Bernoulli(p) sequence, as a float (it can exceed any int).
	skip := func(p float64) float64 {
		if p >= 1 {
			return 0
		}
		return math.Floor(math.Log1p(-rng.Float64()) / math.Log1p(-p))
	}
	// tick counts sampling steps and reports ctx.Err() every ctxEvery.
	steps := 0
	tick := func() error {
		steps++
		if steps%ctxEvery == 0 {
			return ctx.Err()
		}
		return nil
	}
	for a := 0; a < k; a++ {
		// Pairs inside block a, enumerated as (v, w) with w < v.
		if s := sizes[a]; pin > 0 && s > 1 {
			v, w := 1, -1
			for v < s {
				if err := tick(); err != nil {
					return nil, nil, err
				}
				d := skip(pin)
				if d > float64(s)*float64(s) {
					break
				}
				w += 1 + int(d)
				for w >= v && v < s {
					w -= v
					v++
				}
				if v < s {
					edges = append(edges, graph.Edge{I: start[a] + v, J: start[a] + w, W: 1})
				}
			}
		}
		if pout <= 0 {
			continue
		}
		for b := a + 1; b < k; b++ {
			total := float64(sizes[a]) * float64(sizes[b])
			sb := sizes[b]
			idx := -1
			for {
				if err := tick(); err != nil {
					return nil, nil, err
				}
				d := skip(pout)
				if float64(idx)+1+d >= total {
					break
				}
				idx += 1 + int(d)
				edges = append(edges, graph.Edge{I: start[a] + idx/sb, J: start[b] + idx%sb, W: 1})
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	g, err := graph.FromEdgesContext(ctx, n, edges)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return nil, nil, ctx.Err()
		}
		return nil, nil, fmt.Errorf("synth: SBM: %w", err)
	}
	return g, labels, nil
}

// Threshold returns k·√c with c = (c_in + c_out)/2, the detectability
// threshold of the sparse SBM: no algorithm beats chance unless
// c_in − c_out > k·√c (seed 004 §3.1, Theorem 3.1.1 for k = 2, eq. 3.2, and
// Conjecture 3.1.2, eq. 3.3; SPEC §3). We follow seed 004 and SPEC, which
// define c as the mean of c_in and c_out; Decelle et al. use the mean degree
// (c_in + (k−1)c_out)/k, which is the same number when k = 2.
func Threshold(k int, cin, cout float64) float64 {
	return float64(k) * math.Sqrt((cin+cout)/2)
}

// Detectable reports whether c_in − c_out > Threshold(k, c_in, c_out).
func Detectable(k int, cin, cout float64) bool {
	return cin-cout > Threshold(k, cin, cout)
}
