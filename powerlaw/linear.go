package powerlaw

import (
	"fmt"
	"math"
	"slices"

	"github.com/tether-sc/tether/internal/safelog"
)

// The graphical estimators of thesis §5.1.2 ("Biased estimators") and
// Table 5.1: a least-squares line through the log–log plot of a histogram,
// α̂ = −slope. The thesis names three, without bin widths: "direct linear
// fit of the log-log plot of the full raw histogram, fit of the first 5
// points of the log-log plot of the raw histogram or linear fit to the
// logarithmically binned histograms". We define them as:
//
//   - raw histogram (LinearFit): bins [x_min + j·w, x_min + (j+1)·w) of
//     width w; a point (ln of the bin's left edge, ln of its count) per
//     non-empty bin (an empty bin has no logarithm). For integer data and
//     w = 1 the bins are the values themselves and the left edge is the
//     value. "Full": every non-empty bin; "first 5 points": the first five
//     non-empty bins.
//   - logarithmic bins (LogBinFit): bins [x_min·b^j, x_min·b^{j+1}); a point
//     (ln x_min·b^{j+½}, ln(count/width)) per non-empty bin (the geometric
//     centre and the density; Newman 2005 uses b = 2).
//
// The slope is ordinary least squares of ln(count) on ln(x), unweighted,
// which is what makes these estimators biased: the sparse tail, where
// counts are 0 or 1, carries as much weight as the well-sampled head.

// LinearFit returns the exponent −slope of the least-squares line through
// the log–log plot of the histogram of x with bins of width w starting at
// xmin (see above). If points > 0 only the first points non-empty bins are
// used (thesis Table 5.1's "Linear 5-points" is points = 5); if points is 0
// all are ("Linear"). The estimate may be ≤ 1: it is not a valid exponent,
// which is part of the point of Table 5.1.
//
// Errors wrap ErrInvalid: empty x, values not finite or below xmin,
// w ≤ 0, w so small that (max x − x_min)/w overflows, points = 1 or
// negative, fewer than two non-empty bins. Cost O(n + b log b) for b non-empty
// bins beyond the first 2²⁰; O(2²⁰) memory at most for the dense part.
func LinearFit(x []float64, xmin, w float64, points int) (float64, error) {
	if err := checkTail(x, xmin, false); err != nil {
		return 0, err
	}
	if !(w > 0) || math.IsInf(w, 1) {
		return 0, fmt.Errorf("%w: bin width %v, want a finite value > 0", ErrInvalid, w)
	}
	if points < 0 || points == 1 {
		return 0, fmt.Errorf("%w: points = %d, want 0 (every non-empty bin) or ≥ 2 (a line needs two points)", ErrInvalid, points)
	}
	if xmax := slices.Max(x); math.IsInf((xmax-xmin)/w, 1) {
		return 0, fmt.Errorf("%w: bin width %v: (max x − x_min)/w = (%v − %v)/%v overflows; want a larger width", ErrInvalid, w, xmax, xmin, w)
	}
	const dense = 1 << 20
	maxIdx := 0
	for _, v := range x {
		if j := (v - xmin) / w; j < dense {
			maxIdx = max(maxIdx, int(j))
		} else {
			maxIdx = dense
		}
	}
	counts := make([]int, min(maxIdx+1, dense))
	var sparse map[float64]int
	for _, v := range x {
		j := math.Floor((v - xmin) / w)
		if j < dense {
			counts[int(j)]++
			continue
		}
		if sparse == nil {
			sparse = map[float64]int{}
		}
		sparse[j]++
	}
	var fit lsq
	for j, c := range counts {
		if c > 0 && (points == 0 || fit.n < points) {
			fit.add(safelog.Log(xmin+float64(j)*w), safelog.Log(float64(c)))
		}
	}
	if len(sparse) > 0 && (points == 0 || fit.n < points) {
		keys := make([]float64, 0, len(sparse))
		for j := range sparse {
			keys = append(keys, j)
		}
		slices.Sort(keys)
		for _, j := range keys {
			if points > 0 && fit.n >= points {
				break
			}
			fit.add(safelog.Log(xmin+j*w), safelog.Log(float64(sparse[j])))
		}
	}
	return fit.exponent()
}

// maxLogBins bounds the number of logarithmic bins LogBinFit lets the
// data span, ⌊log_b(max x/x_min)⌋ + 1: far more than any sample can fill,
// and small enough that a bin index is exact in a float64 and its
// correction against the edges x_min·b^j takes a step or two.
const maxLogBins = 1 << 30

// LogBinFit returns the exponent −slope of the least-squares line through
// the log–log plot of the histogram of x in logarithmic bins
// [x_min·b^j, x_min·b^{j+1}), densities count/width at the geometric centres
// (see above). The logarithm of a density whose width or ratio is not a
// normal float64 (x_min·b^j(b−1) subnormal, count/width overflowing) is
// taken as ln count − ln x_min − j·ln b − ln(b−1). For b ≠ 2 a value v
// for which v/x_min overflows is put in bin ⌊(ln v − ln x_min)/ln b⌋,
// which may miss an edge by the logarithms' rounding (about 10⁻¹³
// relative); every other value is binned against the edges x_min·b^j
// themselves.
//
// Errors wrap ErrInvalid: empty x, values not finite or below xmin,
// b ≤ 1, more than 2³⁰ bins between x_min and the largest value (a base
// too close to 1: the bins cannot all be filled), fewer than two non-empty
// bins. Cost O(n + m log m) for m non-empty bins and O(n) memory: one
// logarithm and two powers per value, none for b = 2 (the binary
// exponent).
func LogBinFit(x []float64, xmin, b float64) (float64, error) {
	if err := checkTail(x, xmin, false); err != nil {
		return 0, err
	}
	if !(b > 1) || math.IsInf(b, 1) {
		return 0, fmt.Errorf("%w: log-bin base %v, want a finite value > 1", ErrInvalid, b)
	}
	lb := safelog.Log(b)
	lx := safelog.Log(xmin)
	xmax := slices.Max(x)
	if span := (safelog.Log(xmax) - lx) / lb; span >= maxLogBins {
		return 0, fmt.Errorf("%w: log-bin base %v gives %.3g bins from x_min = %v to the largest value %v, more than 2³⁰: choose a larger base", ErrInvalid, b, math.Floor(span)+1, xmin, xmax)
	}
	bin := func(v float64) int {
		if b == 2 {
			// ⌊log₂(v/x_min)⌋ exactly, without a logarithm and whatever
			// the ratio's size: v = f_v·2^{e_v}, x_min = f_x·2^{e_x} and
			// f_v/f_x = f·2^e with f ∈ [½, 1).
			fv, ev := math.Frexp(v)
			fx, ex := math.Frexp(xmin)
			_, e := math.Frexp(fv / fx)
			return ev - ex + e - 1
		}
		r := v / xmin
		if math.IsInf(r, 1) {
			// Beyond the float64 range: in logarithms.
			return max(0, int(math.Floor((safelog.Log(v)-lx)/lb)))
		}
		// The logarithm's rounding can put a value on an edge x_min·b^j
		// in the bin below (log 1000/log 10 = 2.9999999999999996):
		// correct j against the edges, computed as the widths below are.
		j := int(safelog.Log(r) / lb)
		for j > 0 && v < xmin*math.Pow(b, float64(j)) {
			j--
		}
		for v >= xmin*math.Pow(b, float64(j+1)) {
			j++
		}
		return j
	}
	// The counts by bin: a slice when the bins spanned are few, a map
	// otherwise (a base close to 1 spans many bins, mostly empty).
	var counts []int
	var sparse map[int]int
	if top := bin(xmax); top < 2*len(x)+64 {
		counts = make([]int, top+1)
	} else {
		sparse = map[int]int{}
	}
	for _, v := range x {
		j := bin(v)
		switch {
		case sparse != nil:
			sparse[j]++
		case j >= len(counts):
			// Only when the largest value was binned in logarithms and
			// a smaller one, on the edge, by its ratio.
			counts = append(counts, make([]int, j+1-len(counts))...)
			fallthrough
		default:
			counts[j]++
		}
	}
	var fit lsq
	add := func(j, c int) {
		// width x_min·b^j(b−1), centre x_min·b^{j+½}.
		width := xmin * math.Pow(b, float64(j)) * (b - 1)
		y := float64(c) / width
		if isNormal(width) && isNormal(y) {
			y = safelog.Log(y)
		} else {
			y = safelog.Log(float64(c)) - lx - float64(j)*lb - safelog.Log(b-1)
		}
		fit.add(lx+(float64(j)+0.5)*lb, y)
	}
	for j, c := range counts {
		if c > 0 {
			add(j, c)
		}
	}
	if sparse != nil {
		keys := make([]int, 0, len(sparse))
		for j := range sparse {
			keys = append(keys, j)
		}
		slices.Sort(keys)
		for _, j := range keys {
			add(j, sparse[j])
		}
	}
	return fit.exponent()
}

// isNormal reports whether v is a positive normal float64: neither
// subnormal (where it lost relative precision) nor zero nor +Inf.
func isNormal(v float64) bool { return v >= 0x1p-1022 && v <= math.MaxFloat64 }

// lsq accumulates a least-squares line (Welford-style centred sums).
type lsq struct {
	n                int
	mx, my, sxx, sxy float64
}

func (f *lsq) add(x, y float64) {
	f.n++
	dx := x - f.mx
	f.mx += dx / float64(f.n)
	f.my += (y - f.my) / float64(f.n)
	f.sxx += dx * (x - f.mx)
	f.sxy += dx * (y - f.my)
}

func (f *lsq) exponent() (float64, error) {
	if f.n < 2 || !(f.sxx > 0) {
		return 0, fmt.Errorf("%w: %d non-empty histogram bin(s), need at least 2 to fit a line", ErrInvalid, f.n)
	}
	a := -f.sxy / f.sxx
	if math.IsNaN(a) || math.IsInf(a, 0) || math.IsInf(f.sxx, 0) {
		return 0, fmt.Errorf("%w: the least-squares slope of the log–log histogram is not finite (Σ(x−x̄)(y−ȳ) = %v, Σ(x−x̄)² = %v)", ErrInvalid, f.sxy, f.sxx)
	}
	if a == 0 {
		a = 0 // a flat histogram has exponent 0, not −0
	}
	return a, nil
}
