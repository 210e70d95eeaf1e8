package main

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/dataset"
)

// classLikeColumns returns a warning for each column of x (named by
// features) that looks like class labels used as a feature: a categorical
// column with k levels, or (k ≥ 2) a numeric column with exactly k
// distinct values, all integers when ints is set (the values were not
// rescaled). A table without a header (features col1, col2, …: see
// namedColumns) has its columns named by number, as its reader's
// messages and -label do ("column 5", -label 5), and a categorical
// column on which the reader already warned, that is, one of warned, the
// reader's warnings, names as one-hot encoded (dataset's warning on the
// class-like column of a file without a header), gets no second warning.
// It also returns the categorical columns warned about, as the messages
// name them (`column "c"`, "column 5"), whose warning says how they were
// encoded, so that the reader's note on their encoding can be left out
// (withoutEncodingNotes). Cost O(n·p).
func classLikeColumns(file string, x *mat.Dense, features []string, k int, ints bool, warned []string) (out, categorical []string) {
	if k < 2 || x == nil {
		return nil, nil
	}
	n, p := x.Dims()
	if n < 2*k {
		return nil, nil
	}
	named := namedColumns(features)
	// name returns how the messages and -label name column c.
	name := func(c string) (what, ref string) {
		if !named {
			ref = strings.TrimPrefix(c, "col")
			return "column " + ref, ref
		}
		return fmt.Sprintf("column %q", c), c
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
			what, ref := name(f)
			out = append(out, fmt.Sprintf("%s: %s takes %d distinct values, as many as -k: if it holds the classes, say -label %s (it is used as a feature)", file, what, k, ref))
		}
	}
	for _, c := range order {
		if levels[c] != k {
			continue
		}
		what, ref := name(c)
		if slices.ContainsFunc(warned, func(w string) bool {
			return strings.HasPrefix(w, file+": "+what+" ") && strings.Contains(w, " one-hot encoded into ")
		}) {
			continue
		}
		out = append(out, fmt.Sprintf("%s: %s has %d categories, as many as -k, one-hot encoded into %d features: if it holds the classes, say -label %s; -drop %s leaves it out", file, what, k, k, ref, ref))
		categorical = append(categorical, what)
	}
	return out, categorical
}

// withoutEncodingNotes returns notes without the reader's note on the
// one-hot encoding of each column of cols alone, named as the messages
// name them (`file: column "c": 3 categories one-hot encoded into 3
// features …`, "file: column 5: …"), which classLikeColumns' warning on
// the column repeats; a note listing several columns is kept.
// Cost O(len(notes)·len(cols)).
func withoutEncodingNotes(notes []string, file string, cols []string) []string {
	if len(cols) == 0 {
		return notes
	}
	var out []string
	for _, note := range notes {
		drop := false
		for _, c := range cols {
			if strings.HasPrefix(note, file+": "+c+": ") && strings.Contains(note, " one-hot encoded into ") {
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

// truthNotes returns notes with the two notes on the reference labels of
// the table file merged into one, when -truth (truthFile) replaced the
// labels of its class column: the reader's note `file: column "label" is
// the reference labels, not a feature (…)`, which -truth makes untrue,
// and ReadTruth's "truthFile replaces the reference labels of file: …"
// (at index from on) become `truthFile replaces column "label" of file as
// the reference labels: the partition is compared with truthFile; the
// column is not a feature (…)`, in the place of the second. Both were
// printed, the first contradicting the second. Other notes, and notes
// without that pair, are returned as they are. Cost O(total length).
func truthNotes(notes []string, from int, file, truthFile string) []string {
	replaced := slices.IndexFunc(notes[from:], func(n string) bool {
		return strings.HasPrefix(n, truthFile+" replaces the reference labels of "+file+": ")
	})
	if replaced < 0 {
		return notes
	}
	replaced += from
	column := regexp.MustCompile(`^` + regexp.QuoteMeta(file) + `: column ("(?:[^"\\]|\\.)*") is the reference labels, not a feature (.*)$`)
	for i, n := range notes[:from] {
		m := column.FindStringSubmatch(n)
		if m == nil {
			continue
		}
		out := slices.Clone(notes)
		out[replaced] = fmt.Sprintf("%s replaces column %s of %s as the reference labels: the partition is compared with %s; the column is not a feature %s", truthFile, m[1], file, truthFile, m[2])
		return slices.Delete(out, i, i+1)
	}
	return notes
}
