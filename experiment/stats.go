package experiment

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// meanStdDev returns the mean and the sample standard deviation (n − 1 in
// the denominator) of xs, by stat.MeanStdDev, with the conventions of the
// tables: NaN and NaN for no values, the value and 0 for one.
//
// The weights are all 1 rather than nil on purpose: with nil weights gonum
// sums with an unrolled SIMD loop whose last bit can differ from a sum in
// order, which flips decimal ties such as the hepatitis accuracy
// 663/800 = 0.82875 of seed002-rate. Unit weights sum in order, as the
// tables were computed, so they regenerate identically. (fgpwc-table1 was
// computed with nil weights and keeps them, see fgpwcCollect.)
func meanStdDev(xs []float64) (mean, sd float64) {
	switch len(xs) {
	case 0:
		return math.NaN(), math.NaN()
	case 1:
		return xs[0], 0
	}
	ones := make([]float64, len(xs))
	for i := range ones {
		ones[i] = 1
	}
	return stat.MeanStdDev(xs, ones)
}
