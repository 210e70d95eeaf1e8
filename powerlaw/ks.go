package powerlaw

import (
	"math"
	"slices"

	"github.com/tether-sc/tether/internal/safelog"
)

// KS returns the Kolmogorov–Smirnov distance D = max_x |P_emp(x) − P_α(x)|
// (thesis §5.1.2) between the empirical CDF of x and the continuous power
// law of eq. 5.1.2 with exponent alpha and lower bound xmin. x is not
// modified. Errors wrap ErrInvalid: α ≤ 1, empty x, values not finite or
// below xmin, a distance that is not a finite number (never expected:
// the CDF is computed without overflow).
//
// Method: D = max_i max((i+1)/n − u_(i), u_(i) − i/n) over the order
// statistics of u_i = F(x_i), without sorting: the u_i are counted into
// n/256 buckets of equal width, whose smallest and largest members' terms
// are exact from the counts; a bucket is sorted only when the bound on its
// interior terms exceeds the D found so far, which the bound's slack of
// about 256/n, against D ≈ 1/√n, makes rare. Cost O(n) time (one logarithm
// and one exponential per value) unless many buckets need sorting,
// O(n log n) at worst; n float64s of scratch. Below 2¹⁴ values the
// values are simply sorted.
func KS(x []float64, alpha, xmin float64) (float64, error) {
	if err := checkLaw(alpha, xmin); err != nil {
		return 0, err
	}
	if err := checkTail(x, xmin, false); err != nil {
		return 0, err
	}
	return checkFinite("KS distance", ksUnsorted(x, alpha, xmin), alpha, xmin)
}

// KSDiscrete is KS for the discrete law p(x) = x^{−α}/ζ(α, x_min) on
// integer data: D = max over integers x ≥ x_min of |P_emp(x) − P(X ≤ x)|,
// checked at every observed value and just before the next one (both CDFs
// are step functions). Errors as for KS, and for non-integers. Cost: the
// sort, plus O(d) evaluations of ζ for d distinct values (runs of close
// values are stepped by subtraction instead).
func KSDiscrete(x []float64, alpha, xmin float64) (float64, error) {
	if err := checkLaw(alpha, xmin); err != nil {
		return 0, err
	}
	if err := checkTail(x, xmin, true); err != nil {
		return 0, err
	}
	return checkFinite("KS distance", ksDiscreteSorted(sortedCopy(x), alpha, xmin), alpha, xmin)
}

// ksSorted is KS on ascending data y ≥ xmin.
func ksSorted(y []float64, alpha, xmin float64) float64 {
	n := float64(len(y))
	d := 0.0
	lx := safelog.Log(xmin)
	for i, v := range y {
		f := -math.Expm1((1 - alpha) * (safelog.Log(v) - lx))
		d = max(d, float64(i+1)/n-f, f-float64(i)/n)
	}
	return d
}

// ksUnsorted is KS without sorting x (see KS).
func ksUnsorted(x []float64, alpha, xmin float64) float64 {
	n := len(x)
	if n < 1<<14 {
		return ksSorted(sortedCopy(x), alpha, xmin)
	}
	type bucket struct {
		lo, hi float64
		c, r   int // count, and rank of the first member; r < 0 marks a bucket to sort
	}
	m := n / ksBucketSize
	bs := make([]bucket, m)
	u := make([]float64, n)
	lx := safelog.Log(xmin)
	mf := float64(m)
	for i, v := range x {
		f := -math.Expm1((1 - alpha) * (safelog.Log(v) - lx))
		u[i] = f
		b := &bs[min(int(f*mf), m-1)]
		if b.c == 0 {
			b.lo, b.hi = f, f
		} else {
			b.lo, b.hi = min(b.lo, f), max(b.hi, f)
		}
		b.c++
	}
	// The smallest value of a bucket has rank r (0-based, r values in the
	// buckets before), the largest rank r+c−1: their terms are exact.
	nf := float64(n)
	d, r := 0.0, 0
	for k := range bs {
		b := &bs[k]
		b.r = r
		if b.c == 0 {
			continue
		}
		rc := r + b.c
		d = max(d, float64(r+1)/nf-b.lo, b.lo-float64(r)/nf, float64(rc)/nf-b.hi, b.hi-float64(rc-1)/nf)
		r = rc
	}
	// An interior value (rank r+j, 0 < j < c−1) has terms at most
	// (r+c−1)/n − lo and hi − (r+1)/n: only buckets where these bounds
	// exceed d need sorting.
	flagged := map[int][]float64{}
	for k := range bs {
		b := &bs[k]
		if b.c > 2 && (float64(b.r+b.c-1)/nf-b.lo > d || b.hi-float64(b.r+1)/nf > d) {
			flagged[k] = nil
			b.r = -1 - b.r
		}
	}
	if len(flagged) == 0 {
		return d
	}
	for _, f := range u {
		k := min(int(f*mf), m-1)
		if bs[k].r < 0 {
			flagged[k] = append(flagged[k], f)
		}
	}
	for k, v := range flagged {
		slices.Sort(v)
		r := -1 - bs[k].r
		for j, f := range v {
			d = max(d, float64(r+j+1)/nf-f, f-float64(r+j)/nf)
		}
	}
	return d
}

// ksBucketSize is the mean number of values per bucket of ksUnsorted: the
// buckets' table (32 bytes each) stays in cache, and the bound's slack
// ksBucketSize/n stays far below the typical D ≈ 1/√n up to n ≈ 10⁹.
const ksBucketSize = 256

// survivalWalker evaluates S(x) = ζ(α, x)/ζ(α, x_min) at increasing
// integers, stepping by subtraction of the pmf over short gaps and calling
// ζ afresh over long ones.
type survivalWalker struct {
	alpha, logZmin float64
	x, s           float64 // last point and S there
}

func newSurvivalWalker(alpha, xmin float64) *survivalWalker {
	return &survivalWalker{alpha: alpha, logZmin: logZeta(alpha, xmin), x: xmin, s: 1}
}

func (w *survivalWalker) at(x float64) float64 {
	if x-w.x > 32 {
		w.x, w.s = x, math.Exp(logZeta(w.alpha, x)-w.logZmin)
		return w.s
	}
	for w.x < x {
		w.s -= math.Exp(-w.alpha*safelog.Log(w.x) - w.logZmin)
		w.x++
	}
	return max(w.s, 0)
}

// ksDiscreteSorted is KSDiscrete on ascending integer data y ≥ xmin.
func ksDiscreteSorted(y []float64, alpha, xmin float64) float64 {
	n := float64(len(y))
	w := newSurvivalWalker(alpha, xmin)
	d := 0.0
	// Integers below the first observed value: empirical CDF 0, model
	// P(X ≤ y₀−1) = 1 − S(y₀).
	if y[0] > xmin {
		d = 1 - w.at(y[0])
	}
	for i := 0; i < len(y); {
		v := y[i]
		j := i + 1
		for j < len(y) && y[j] == v {
			j++
		}
		emp := float64(j) / n
		// At v: P(X ≤ v) = 1 − S(v+1).
		d = max(d, math.Abs(emp-(1-w.at(v+1))))
		if j < len(y) && y[j] > v+1 {
			// Just before the next value: P(X ≤ y_j − 1) = 1 − S(y_j).
			d = max(d, math.Abs(emp-(1-w.at(y[j]))))
		}
		i = j
	}
	return d
}

// sortedCopy returns x sorted ascending; every value must be ≥ 0 and
// finite (the bit patterns of non-negative float64s sort as integers, which
// the radix sort uses).
func sortedCopy(x []float64) []float64 {
	y := slices.Clone(x)
	if len(y) < 1<<14 {
		slices.Sort(y)
		return y
	}
	radixSortPositive(y)
	return y
}

// radixSortPositive sorts non-negative finite float64s in place by an LSD
// radix sort on their bits, 11 bits per pass, skipping passes whose digit is
// the same for every value. O(n) time, n extra float64s.
func radixSortPositive(y []float64) {
	const bits, buckets = 11, 1 << 11
	keys := make([]uint64, len(y))
	for i, v := range y {
		keys[i] = math.Float64bits(v)
	}
	tmp := make([]uint64, len(y))
	var count [buckets]int
	for shift := uint(0); shift < 64; shift += bits {
		count = [buckets]int{}
		for _, k := range keys {
			count[(k>>shift)&(buckets-1)]++
		}
		if count[(keys[0]>>shift)&(buckets-1)] == len(keys) {
			continue
		}
		pos := 0
		for b := range count {
			c := count[b]
			count[b] = pos
			pos += c
		}
		for _, k := range keys {
			b := (k >> shift) & (buckets - 1)
			tmp[count[b]] = k
			count[b]++
		}
		keys, tmp = tmp, keys
	}
	for i, k := range keys {
		y[i] = math.Float64frombits(k)
	}
}
