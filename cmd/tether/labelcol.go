package main

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/dataset"
)

// classLikeColumns returns a warning for each column of x (named by
// features) that looks like class labels used as a feature: a categorical
// column with k levels, or (k ≥ 2) a numeric column with exactly k
// distinct values, all integers when ints is set (the values were not
// rescaled). It also returns the categorical columns warned about, whose
// warning says how they were encoded, so that the reader's note on their
// encoding can be left out (withoutEncodingNotes). Cost O(n·p).
func classLikeColumns(file string, x *mat.Dense, features []string, k int, ints bool) (out, categorical []string) {
	if k < 2 || x == nil {
		return nil, nil
	}
	n, p := x.Dims()
	if n < 2*k {
		return nil, nil
	}
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
			out = append(out, fmt.Sprintf("%s: column %q has %d categories, as many as -k, one-hot encoded into %d features: if it holds the classes, say -label %s; -drop %s leaves it out", file, c, k, k, c, c))
			categorical = append(categorical, c)
		}
	}
	return out, categorical
}

// withoutEncodingNotes returns notes without the reader's note on the
// one-hot encoding of each column of cols alone ("file: column "c": 3
// categories one-hot encoded into 3 features …"), which classLikeColumns'
// warning on the column repeats; a note listing several columns is kept.
// Cost O(len(notes)·len(cols)).
func withoutEncodingNotes(notes []string, file string, cols []string) []string {
	if len(cols) == 0 {
		return notes
	}
	var out []string
	for _, note := range notes {
		drop := false
		for _, c := range cols {
			if strings.HasPrefix(note, fmt.Sprintf("%s: column %q: ", file, c)) && strings.Contains(note, " one-hot encoded into ") {
				drop = true
				break
			}
		}
		if !drop {
			out = append(out, note)
		}
	}
	return out
}
