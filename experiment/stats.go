package experiment

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// meanStdDev returns the mean and the sample standard deviation (n − 1 in
// the denominator) of xs, by stat.MeanStdDev, with the conventions of the
// tables: NaN and NaN for no values, the value and 0 for one.
func meanStdDev(xs []float64) (mean, sd float64) {
	switch len(xs) {
	case 0:
		return math.NaN(), math.NaN()
	case 1:
		return xs[0], 0
	}
	return stat.MeanStdDev(xs, nil)
}
