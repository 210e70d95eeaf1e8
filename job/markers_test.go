package job

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/dataset"
)

// TestRunMissingMarkers: a job's missing and missing_markers reach the
// table reader as tether cluster's -missing and -missing-markers do: R's
// NA, refused without them with a hint naming the job's fields, is a
// missing value with them, imputed (or its row dropped) as ? is, with the
// same labels and the imputed cells counted in a note.
func TestRunMissingMarkers(t *testing.T) {
	rows := func(miss string) string {
		return "f1,f2,label\n0,0,a\n0.1,0.2,a\n0.2," + miss + ",a\n0.1,0.1,a\n5,5,b\n5.1," + miss + ",b\n5.2,5.1,b\n5,5.2,b\n"
	}
	dir := writeFiles(t, map[string]string{"q.csv": rows("?"), "na.csv": rows("NA"), "null.csv": rows("NULL")})
	run := func(s Spec) *Result {
		s.ID, s.K, s.Seed, s.Method, s.KNN = "a", 2, 1, "njw", 2
		return Run(context.Background(), s, dir)
	}
	want := run(Spec{Input: "q.csv", Missing: dataset.MissingImpute})
	if want.Error != "" {
		t.Fatal(want.Error)
	}
	for _, c := range []struct {
		name string
		spec Spec
		err  string // "" for want's labels
		note string // in a note or warning
		n    int
	}{
		{"NA without markers", Spec{Input: "na.csv", Missing: dataset.MissingImpute},
			`"NA" looks like a missing value, which is written ? or left empty: write it so, or list it among the markers of missing values (job: "missing_markers": ["NA"]; library: Options.MissingMarkers), and it is imputed as the other missing values are`, "", 0},
		{"NA without markers, rejecting", Spec{Input: "na.csv"},
			`then impute it or drop its row (job: "missing": "impute" or "missing": "drop"; library: Options.Missing = MissingImpute or MissingDrop)`, "", 0},
		{"NULL beside the markers", Spec{Input: "null.csv", Missing: dataset.MissingImpute, MissingMarkers: []string{"NA"}},
			`"NULL" looks like a missing value, which the markers of missing values do not list: list it (job: "missing_markers": ["NA", "NULL"]; library: Options.MissingMarkers)`, "", 0},
		{"NA listed, rejecting", Spec{Input: "na.csv", MissingMarkers: []string{"NA"}},
			`value "NA": missing value: impute it (its column's mean or most frequent value) or drop its row (job: "missing": "impute" or "missing": "drop";`, "", 0},
		{"NA listed, imputed", Spec{Input: "na.csv", Missing: dataset.MissingImpute, MissingMarkers: []string{"NA"}}, "",
			`imputed 2 missing values in 2 rows and 1 column: a numeric column's by the mean of its other values, a categorical column's by its most frequent value (job: "missing": "impute"; library: Options.Missing = MissingImpute)`, 8},
		{"NA listed with ? and empty", Spec{Input: "na.csv", Missing: dataset.MissingImpute, MissingMarkers: []string{"NA", "?", ""}}, "", "imputed 2 missing values", 8},
		{"NA listed, dropped", Spec{Input: "na.csv", Missing: dataset.MissingDrop, MissingMarkers: []string{"NA"}}, "",
			`dropped 2 of 8 rows with missing values (job: "missing": "drop"; library: Options.Missing = MissingDrop): lines 4, 7`, 6},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := run(c.spec)
			if c.err != "" {
				if !strings.Contains(res.Error, c.err) {
					t.Fatalf("error %q, want one with %q", res.Error, c.err)
				}
				return
			}
			if res.Error != "" {
				t.Fatal(res.Error)
			}
			if msgs := slices.Concat(res.Warnings, res.Notes); !slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, c.note) }) {
				t.Errorf("warnings and notes %q, want one with %q", msgs, c.note)
			}
			if res.N != c.n {
				t.Errorf("n = %d, want %d", res.N, c.n)
			}
			if c.n == want.N && !slices.Equal(res.Labels, want.Labels) {
				t.Errorf("labels %v, want those of the file with ?, %v", res.Labels, want.Labels)
			}
		})
	}
}
