package graph

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/internal/enum"
)

// Affinity selects how an edge's weight is computed from its two points.
type Affinity int

const (
	// RBF is the Gaussian kernel W_ij = exp(−‖x_i − x_j‖²/(2σ²)) (thesis
	// §2.1.2, seed 002 eq. 15), or exp(−‖x_i − x_j‖²/(σ_iσ_j)) under local
	// scaling. Weights that underflow to 0 drop the edge.
	RBF Affinity = iota
	// Cosine is the cosine similarity x_i·x_j/(‖x_i‖‖x_j‖), clipped below
	// at 0 so that weights stay non-negative (negative similarities drop the
	// edge). A zero row has similarity 0 with every point. Neighbourhoods
	// (k-NN, ε) are then computed on the rows scaled to unit length, where
	// ‖u_i − u_j‖² = 2 − 2cos, so they rank pairs by cosine similarity
	// (FGPWC paper §5.1: cosine similarity followed by k-NN sparsification).
	Cosine
	// Binary gives every edge weight 1 (connectivity graph).
	Binary
)

var affinityNames = []string{"rbf", "cosine", "binary"}

// String returns "rbf", "cosine" or "binary".
func (a Affinity) String() string { return enum.String("Affinity", affinityNames, a) }

// MarshalText returns the name String returns, or an error for an unknown
// affinity.
func (a Affinity) MarshalText() ([]byte, error) { return enum.Marshal("affinity", affinityNames, a) }

// UnmarshalText sets a from a name String returns, in any case.
func (a *Affinity) UnmarshalText(text []byte) error {
	return unmarshalEnum(a, "affinity", affinityNames, text)
}

// SigmaRule selects how the RBF scale σ is chosen.
type SigmaRule int

const (
	// SigmaLocal is the local scaling of Zelnik-Manor & Perona (2004), used
	// by seed 002 §6.2: σ_i is the distance from x_i to its Sigma.K-th
	// nearest neighbour (self excluded) and W_ij = exp(−‖x_i − x_j‖²/(σ_iσ_j)).
	// A point with σ_i = 0 (at least Sigma.K duplicates) gets the median of
	// the positive σ_j instead.
	SigmaLocal SigmaRule = iota
	// SigmaMedian is the median heuristic: σ is the median of the Euclidean
	// lengths of the candidate edges, which are all n(n−1)/2 pairs for a
	// Full graph, the n·K directed pairs (i, j ∈ N_K(i)) for the k-NN kinds
	// and the pairs within Eps for an ε-graph. An even count averages the two
	// middle lengths. If the median is 0 (more than half the pairs are
	// duplicates) the median of the positive lengths is used.
	SigmaMedian
	// SigmaMeanVariance sets σ² to the mean over features of the feature
	// variances (seed 002 §6.1: "a scale parameter σ² equal to the average of
	// the variances of database features"). Variances use the n−1
	// denominator (MATLAB's var, numpy's var(ddof=1)).
	SigmaMeanVariance
	// SigmaFixed uses Sigma.Value.
	SigmaFixed
)

// Sigma is the RBF scale rule. The zero value is local scaling with the 7th
// neighbour, the choice of Zelnik-Manor & Perona. It is ignored for the
// Cosine and Binary affinities.
type Sigma struct {
	Rule SigmaRule
	// Value is σ for SigmaFixed; it must be positive and finite.
	Value float64
	// K is the neighbour rank of SigmaLocal. If K is 0, 7 is used.
	K int
}

// DefaultLocalK is the neighbour rank of local scaling when Sigma.K is 0.
const DefaultLocalK = 7

// String returns the form UnmarshalText reads: "local" or "local:K",
// "median", "meanvar", or the fixed value.
func (s Sigma) String() string {
	switch s.Rule {
	case SigmaLocal:
		if s.K == 0 || s.K == DefaultLocalK {
			return "local"
		}
		return "local:" + strconv.Itoa(s.K)
	case SigmaMedian:
		return "median"
	case SigmaMeanVariance:
		return "meanvar"
	case SigmaFixed:
		return strconv.FormatFloat(s.Value, 'g', -1, 64)
	}
	return fmt.Sprintf("SigmaRule(%d)", int(s.Rule))
}

// MarshalText returns the text String returns, or an error for an unknown
// rule.
func (s Sigma) MarshalText() ([]byte, error) {
	if s.Rule < SigmaLocal || s.Rule > SigmaFixed {
		return nil, fmt.Errorf("graph: invalid σ rule %d", int(s.Rule))
	}
	return []byte(s.String()), nil
}

// UnmarshalText sets s from "local", "local:K", "median", "meanvar" (any
// case) or a positive number.
func (s *Sigma) UnmarshalText(text []byte) error {
	v := string(text)
	switch lv := strings.ToLower(strings.TrimSpace(v)); {
	case lv == "local":
		*s = Sigma{Rule: SigmaLocal}
	case strings.HasPrefix(lv, "local:"):
		k, err := strconv.Atoi(lv[len("local:"):])
		if err != nil || k < 1 {
			return fmt.Errorf("graph: bad local-scaling neighbour count in %q (want local:K with K ≥ 1)", v)
		}
		*s = Sigma{Rule: SigmaLocal, K: k}
	case lv == "median":
		*s = Sigma{Rule: SigmaMedian}
	case lv == "meanvar":
		*s = Sigma{Rule: SigmaMeanVariance}
	default:
		f, err := strconv.ParseFloat(lv, 64)
		if err != nil {
			return fmt.Errorf("graph: σ %q is neither local[:K], median, meanvar nor a number", v)
		}
		if !(f > 0) || math.IsInf(f, 0) {
			return fmt.Errorf("graph: σ = %v must be positive and finite", f)
		}
		*s = Sigma{Rule: SigmaFixed, Value: f}
	}
	return nil
}

func (s Sigma) localK() int {
	if s.K == 0 {
		return DefaultLocalK
	}
	return s.K
}

// ErrDegenerateScale is wrapped by Build's errors when a data-driven σ is 0:
// the points (or all candidate pairs) are identical.
var ErrDegenerateScale = errors.New("graph: degenerate RBF scale")

// MeanVarianceSigma returns σ = √(mean_c var(x_{·c})) for the n×d row-major
// data (seed 002 §6.1), with the n−1 variance denominator. For n ≤ 1 or
// d = 0 it returns 0. Each column c is scaled by 2^−e_c, e_c the exponent
// of its largest |x| (math.Frexp), before its squares are summed, and the
// variances are added relative to the largest scale: the powers of two are
// exact, so σ(2ᵏ·x) = 2ᵏ·σ(x) bit for bit, the result equals the plain
// formula's wherever that one neither overflows nor underflows, and it is
// 0 only when every column is constant (the plain squares of features of
// 1e-170 underflow to 0, those of 1e200 overflow). Cost O(nd). It panics
// if n or d is negative or len(data) ≠ n·d.
func MeanVarianceSigma(data []float64, n, d int) float64 {
	if n < 0 || d < 0 {
		panic(fmt.Sprintf("graph: MeanVarianceSigma: negative dimension n = %d, d = %d", n, d))
	}
	if (d > 0 && n > math.MaxInt/d) || len(data) != n*d {
		panic(fmt.Sprintf("graph: MeanVarianceSigma: len(data) = %d, want n·d with n = %d, d = %d", len(data), n, d))
	}
	if n < 2 || d == 0 {
		return 0
	}
	// The variance of column c is v[c]·4^e[c], v[c] that of the scaled
	// column (at most 1, and n/(n−1) at worst).
	v := make([]float64, d)
	e := make([]int, d)
	top := math.MinInt
	for c := 0; c < d; c++ {
		var amax float64
		for i := 0; i < n; i++ {
			amax = max(amax, math.Abs(data[i*d+c]))
		}
		if amax == 0 {
			continue // constant 0: variance 0
		}
		_, e[c] = math.Frexp(amax)
		var mean float64
		for i := 0; i < n; i++ {
			mean += math.Ldexp(data[i*d+c], -e[c])
		}
		mean /= float64(n)
		var ss float64
		for i := 0; i < n; i++ {
			t := math.Ldexp(data[i*d+c], -e[c]) - mean
			ss += t * t
		}
		v[c] = ss / float64(n-1)
		if v[c] > 0 {
			top = max(top, e[c])
		}
	}
	if top == math.MinInt {
		return 0
	}
	var total float64
	for c := 0; c < d; c++ {
		if v[c] > 0 {
			total += math.Ldexp(v[c], 2*(e[c]-top))
		}
	}
	return math.Ldexp(math.Sqrt(total/float64(d)), top)
}

// medianLength returns the median of √d2 over the given squared lengths,
// falling back to the positive ones when the median is 0. It reorders d2.
// It returns 0 only when every length is 0 (or there are none). ctx is
// checked before the selection, in its partitions of at least
// cancelValues values, every cancelValues values of the fallback's scan
// and at the end (tens of millions of lengths take seconds); a
// cancellation returns its error, wrapped.
func medianLength(ctx context.Context, d2 []float64) (float64, error) {
	if len(d2) == 0 {
		return 0, nil
	}
	m, err := medianSqrt(ctx, d2)
	if err != nil || m > 0 {
		return m, err
	}
	pos := d2[:0]
	for t, v := range d2 {
		if t%cancelValues == 0 && ctx.Err() != nil {
			return 0, buildCancelled(ctx.Err())
		}
		if v > 0 {
			pos = append(pos, v)
		}
	}
	if len(pos) == 0 {
		return 0, nil
	}
	return medianSqrt(ctx, pos)
}

// cancelValues is how many values the sequential passes over squared
// lengths (the median rule's selection and scans) process between checks
// of their context: about a millisecond.
const cancelValues = 1 << 20

// buildCancelled wraps the error of a cancelled context as graph
// construction's passes do.
func buildCancelled(err error) error {
	return fmt.Errorf("graph: graph construction cancelled: %w", err)
}

// medianSqrt is the median of √v over v (reordered), the mean of the two
// middle values for an even count. ctx is checked as medianLength says.
func medianSqrt(ctx context.Context, v []float64) (float64, error) {
	n := len(v)
	hi, err := selectFloatContext(ctx, v, n/2)
	if err != nil {
		return 0, err
	}
	if n%2 == 1 {
		return math.Sqrt(hi), nil
	}
	// The lower middle is the largest value of the first half.
	lo := v[0]
	for _, x := range v[:n/2] {
		lo = max(lo, x)
	}
	if err := ctx.Err(); err != nil {
		return 0, buildCancelled(err)
	}
	return (math.Sqrt(lo) + math.Sqrt(hi)) / 2, nil
}

// selectFloat reorders v so that v[k] is the k-th smallest value, with no
// larger value before it, and returns it.
func selectFloat(v []float64, k int) float64 {
	x, _ := selectFloatContext(context.Background(), v, k)
	return x
}

// selectFloatContext is selectFloat checking ctx before
// each partition of at least cancelValues values: the first of 3·10⁷
// lengths takes a few tenths of a second. The values are reordered as
// selectFloat reorders them. A cancellation returns its error, wrapped.
func selectFloatContext(ctx context.Context, v []float64, k int) (float64, error) {
	lo, hi := 0, len(v)-1
	for hi > lo {
		if hi-lo >= cancelValues && ctx.Err() != nil {
			return 0, buildCancelled(ctx.Err())
		}
		mid := lo + (hi-lo)/2
		if v[mid] < v[lo] {
			v[mid], v[lo] = v[lo], v[mid]
		}
		if v[hi] < v[lo] {
			v[hi], v[lo] = v[lo], v[hi]
		}
		if v[hi] < v[mid] {
			v[hi], v[mid] = v[mid], v[hi]
		}
		pivot := v[mid]
		i, j := lo, hi
		for i <= j {
			for v[i] < pivot {
				i++
			}
			for v[j] > pivot {
				j--
			}
			if i <= j {
				v[i], v[j] = v[j], v[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return v[k], nil
		}
	}
	return v[k], nil
}

// fixZeroScales replaces σ_i = 0 by the median of the positive σ_j. It
// returns false when all are 0.
func fixZeroScales(sig []float64) bool {
	var pos []float64
	for _, s := range sig {
		if s > 0 {
			pos = append(pos, s)
		}
	}
	if len(pos) == 0 {
		return false
	}
	if len(pos) == len(sig) {
		return true
	}
	sort.Float64s(pos)
	m := pos[len(pos)/2]
	if len(pos)%2 == 0 {
		m = (pos[len(pos)/2-1] + m) / 2
	}
	for i, s := range sig {
		if s == 0 {
			sig[i] = m
		}
	}
	return true
}

// weighter turns a squared distance (or, for Cosine, a pair) into a weight.
type weighter struct {
	aff   Affinity
	inv2s float64 // 1/(2σ²) for a global σ; with d2Exp ≠ 0, 1/(2(σ·2⁻ᵉ)²)
	// d2Exp is 0, or −2e when σ² is outside float64's normal range (σ
	// = f·2ᵉ, f ∈ [½, 1)): the squared distances are then scaled by 2^d2Exp
	// before the product with inv2s (setSigma).
	d2Exp int
	sigma float64   // the global σ, for messages
	local []float64 // σ_i under local scaling, else nil
	unit  []float64 // unit-length rows for Cosine
	dim   int
}

// weight returns W_ij for points i ≠ j at squared distance d2. The result is
// symmetric in (i, j) bit for bit.
func (w *weighter) weight(i, j int, d2 float64) float64 {
	switch w.aff {
	case Binary:
		return 1
	case Cosine:
		a := w.unit[i*w.dim : (i+1)*w.dim]
		b := w.unit[j*w.dim : (j+1)*w.dim]
		var s float64
		for c, v := range a {
			s += v * b[c]
		}
		return min(max(s, 0), 1)
	}
	if w.local != nil {
		if d2 == 0 {
			return 1
		}
		return math.Exp(-d2 / (w.local[i] * w.local[j]))
	}
	if d2 == 0 {
		return 1 // not exp(−0·∞) = NaN when 1/(2σ²) overflows
	}
	if w.d2Exp != 0 {
		return math.Exp(-math.Ldexp(d2, w.d2Exp) * w.inv2s)
	}
	return math.Exp(-d2 * w.inv2s)
}

// setSigma sets the global σ of w. When σ² is a normal float64 (2⁻¹⁰²² ≤
// σ² ≤ 2¹⁰²¹), a weight is exp(−d²·inv2s) with inv2s = 1/(2σ²), as it
// always was. Outside, 2σ² overflows (σ above about 9.5e153, which the
// median of distances between points accepted by checkScale can reach:
// 1/(2σ²) was 0 and every weight exactly 1), or its inverse is subnormal
// or infinite, or σ² loses digits below 2⁻¹⁰²²: σ = f·2ᵉ, f ∈ [½, 1), is
// then scaled by the exact power of two, inv2s = 1/(2f²), and a weight is
// exp(−(d²·2⁻²ᵉ)·inv2s), the same value in exact arithmetic (d²·2⁻²ᵉ is
// exact unless it underflows, where the weight is 1, or overflows, where
// it is 0).
func (w *weighter) setSigma(sigma float64) {
	w.sigma = sigma
	w.d2Exp = 0
	if sq := sigma * sigma; sq >= 0x1p-1022 && sq <= 0x1p1021 {
		w.inv2s = 1 / (2 * sq)
		return
	}
	f, e := math.Frexp(sigma)
	w.inv2s = 1 / (2 * f * f)
	w.d2Exp = -2 * e
}

// selfWeight is the weight of a self loop {i,i}: the affinity of a point
// with itself (1, or 0 for the zero row under Cosine).
func (w *weighter) selfWeight(i int) float64 {
	if w.aff == Cosine {
		return w.weight(i, i, 0)
	}
	return 1
}

// unitRows returns the rows of data scaled to unit Euclidean length (zero
// rows stay zero). Each row is first divided by its largest magnitude so
// that the sum of squares neither overflows nor underflows.
func unitRows(data []float64, n, d int) []float64 {
	u := make([]float64, n*d)
	for i := 0; i < n; i++ {
		row := data[i*d : (i+1)*d]
		var m float64
		for _, v := range row {
			m = max(m, math.Abs(v))
		}
		if m == 0 {
			continue
		}
		out := u[i*d : (i+1)*d]
		var s float64
		for c, v := range row {
			out[c] = v / m
			s += out[c] * out[c]
		}
		inv := 1 / math.Sqrt(s)
		for c := range out {
			out[c] *= inv
		}
	}
	return u
}
