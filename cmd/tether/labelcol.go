package main

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/dataset"
)

// classLikeColumns returns a warning for each column of x (named by
// features) that looks like class labels used as a feature: a categorical
// column with k levels, or (k ≥ 2) a numeric column with exactly k
// distinct values, all integers when ints is set (the values were not
// rescaled).
func classLikeColumns(file string, x *mat.Dense, features []string, k int, ints bool) []string {
	if k < 2 || x == nil {
		return nil
	}
	n, p := x.Dims()
	if n < 2*k {
		return nil
	}
	var out []string
	levels := map[string]int{}
	var order []string
	for j := 0; j < p && j < len(features); j++ {
		f := features[j]
		if c := dataset.FeatureColumn(f); c != f {
			if levels[c] == 0 {
				order = append(order, c)
			}
			levels[c]++
			continue
		}
		distinct := map[float64]bool{}
		integral := true
		for i := 0; i < n && len(distinct) <= k; i++ {
			v := x.At(i, j)
			distinct[v] = true
			if v != math.Trunc(v) {
				integral = false
			}
		}
		if len(distinct) == k && (integral || !ints) {
			out = append(out, fmt.Sprintf("%s: column %q takes %d distinct values, as many as -k: if it holds the classes, say -label %s (it is used as a feature)", file, f, k, f))
		}
	}
	for _, c := range order {
		if levels[c] == k {
			out = append(out, fmt.Sprintf("%s: column %q has %d categories, as many as -k: if it holds the classes, say -label %s (it is used as a feature)", file, c, k, c))
		}
	}
	return out
}
