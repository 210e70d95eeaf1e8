package powerlaw

import (
	"fmt"
	"math"
	"slices"
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
// w ≤ 0, points = 1 or negative, fewer than two non-empty bins. Cost O(n + b log b) for b non-empty
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
			fit.add(math.Log(xmin+float64(j)*w), math.Log(float64(c)))
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
			fit.add(math.Log(xmin+j*w), math.Log(float64(sparse[j])))
		}
	}
	return fit.exponent()
}

// LogBinFit returns the exponent −slope of the least-squares line through
// the log–log plot of the histogram of x in logarithmic bins
// [x_min·b^j, x_min·b^{j+1}), densities count/width at the geometric centres
// (see above). Errors wrap ErrInvalid: empty x, values not finite or below
// xmin, b ≤ 1, fewer than two non-empty bins. Cost O(n): one logarithm and
// two powers per value, none for b = 2 (the binary exponent).
func LogBinFit(x []float64, xmin, b float64) (float64, error) {
	if err := checkTail(x, xmin, false); err != nil {
		return 0, err
	}
	if !(b > 1) || math.IsInf(b, 1) {
		return 0, fmt.Errorf("%w: log-bin base %v, want a finite value > 1", ErrInvalid, b)
	}
	lb := math.Log(b)
	var counts []int
	for _, v := range x {
		var j int
		if b == 2 {
			// ⌊log₂(v/x_min)⌋ exactly, without a logarithm: v/x_min =
			// f·2^e with f ∈ [½, 1).
			_, e := math.Frexp(v / xmin)
			j = e - 1
		} else {
			// The logarithm's rounding can put a value on an edge
			// x_min·b^j in the bin below (log 1000/log 10 =
			// 2.9999999999999996): correct j against the edges, computed
			// as the widths below are.
			j = int(math.Log(v/xmin) / lb)
			for j > 0 && v < xmin*math.Pow(b, float64(j)) {
				j--
			}
			for v >= xmin*math.Pow(b, float64(j+1)) {
				j++
			}
		}
		for j >= len(counts) {
			counts = append(counts, 0)
		}
		counts[j]++
	}
	var fit lsq
	lx := math.Log(xmin)
	for j, c := range counts {
		if c == 0 {
			continue
		}
		// width x_min·b^j(b−1), centre x_min·b^{j+½}.
		width := xmin * math.Pow(b, float64(j)) * (b - 1)
		fit.add(lx+(float64(j)+0.5)*lb, math.Log(float64(c)/width))
	}
	return fit.exponent()
}

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
	if a == 0 {
		a = 0 // a flat histogram has exponent 0, not −0
	}
	return a, nil
}
