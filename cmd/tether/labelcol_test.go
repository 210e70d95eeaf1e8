package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// A column that may hold the classes, used as a feature, gets one
// message: a categorical column with as many categories as -k a warning
// that also says how it was encoded (the reader's note on it is left
// out), a numeric one with -k integer values a warning; other columns keep
// the reader's note, and a table whose class column was found gets none.
func TestClassLikeColumnMessages(t *testing.T) {
	colours := []string{"red", "green", "blue", "cyan"}
	table := func(header string, row func(i int) string) string {
		var b strings.Builder
		b.WriteString(header + "\n")
		for i := 0; i < 60; i++ {
			fmt.Fprintf(&b, "%g,%g,%s\n", float64(i%7)+0.1*float64(i%3), float64(i%5)*0.3, row(i))
		}
		return b.String()
	}
	headerless := func(row func(i int) string) string {
		var b strings.Builder
		for i := 0; i < 60; i++ {
			b.WriteString(row(i) + "\n")
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, data   string
		want, absent []string
	}{
		{"3 colours, k = 3", table("x,y,colour", func(i int) string { return colours[i%3] }),
			[]string{`warning: COLS: column "colour" has 3 categories, as many as -k, one-hot encoded into 3 features: if it holds the classes, say -label colour; -drop colour leaves it out`},
			[]string{`note: COLS: column "colour": 3 categories one-hot encoded`}},
		{"4 colours, k = 3", table("x,y,colour", func(i int) string { return colours[i%4] }),
			[]string{`note: COLS: column "colour": 4 categories one-hot encoded into 4 features (-drop colour leaves it out)`},
			[]string{"as many as -k"}},
		{"3 integer codes, k = 3", table("x,y,code", func(i int) string { return fmt.Sprint(i%3 + 1) }),
			[]string{`warning: COLS: column "code" takes 3 distinct values, as many as -k: if it holds the classes, say -label code (it is used as a feature)`},
			nil},
		{"class column found", table("x,colour,label", func(i int) string { return fmt.Sprint(i % 3) }),
			nil, []string{"as many as -k"}},
		// A file without a header names its columns by number, as -label
		// and -drop take them there ("-label col3" was refused: the file
		// has no header; review 86).
		{"headerless, 3 colours in the middle", headerless(func(i int) string { return fmt.Sprintf("%g,%s,%g", float64(i%7)+0.5, colours[i%3], float64(i%5)*0.3) }),
			[]string{`warning: COLS: column 2 has 3 categories, as many as -k, one-hot encoded into 3 features: if it holds the classes, say -label 2; -drop 2 leaves it out`},
			[]string{`note: COLS: column 2: 3 categories one-hot encoded`, "col2"}},
		{"headerless, 3 integer codes", headerless(func(i int) string { return fmt.Sprintf("%g,%d,%g", float64(i%7)+0.5, i%3, float64(i%5)*0.3) }),
			[]string{`warning: COLS: column 2 takes 3 distinct values, as many as -k: if it holds the classes, say -label 2 (it is used as a feature)`},
			[]string{"col2"}},
		// The reader's warning on the last column of a file without a
		// header says it all: no second warning, no note.
		{"headerless, 3 species last", headerless(func(i int) string { return fmt.Sprintf("%g,%g,%s", float64(i%7)+0.5, float64(i%5)*0.3, colours[i%3]) }),
			[]string{`warning: COLS: column 3 (the last) of a file without a header holds text in 3 categories over 60 rows, as a class column does: it is one-hot encoded into 3 features, which hand the classes to the clustering if it holds them (tether: -label last reads it as the reference labels; library: Options.LabelColumn "last"); -drop 3 leaves it out`},
			[]string{"as many as -k", "note: COLS: column 3", "col3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := writeTemp(t, "cols.csv", tc.data)
			_, stderr, err := run(t, "cluster", "-input", file, "-k", "3", "-method", "njw", "-o", "-")
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			for _, w := range tc.want {
				if w = strings.ReplaceAll(w, "COLS", file); !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			for _, a := range tc.absent {
				if a = strings.ReplaceAll(a, "COLS", file); strings.Contains(stderr, a) {
					t.Errorf("stderr has %q:\n%s", a, stderr)
				}
			}
		})
	}
}

// TestScaleWarningFlags: tether cluster -input warns about a feature
// column of values like 1e-200 beside columns of order 1, which the
// distances ignore, naming the column and -scale minmax; with -scale
// minmax, and for columns of scales 1 and 1000, it does not
// (input.Data.ScaleWarning gives the rule).
func TestScaleWarningFlags(t *testing.T) {
	var tiny, ordinary strings.Builder
	tiny.WriteString("x,y,tiny\n")
	ordinary.WriteString("x,y\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&tiny, "%d,%g,%ge-200\n", i%2*5, float64(i%7)*0.1, float64(i%4))
		fmt.Fprintf(&ordinary, "%d,%g\n", i%2*5, float64(i%7)*100)
	}
	const warning = `column "tiny" varies by 3e-200, less than 2⁻²⁶ times the 5 of column "x" (max − min)`
	for _, tc := range []struct {
		name, data string
		flags      []string
		warned     bool
	}{
		{"tiny column", tiny.String(), nil, true},
		{"tiny column, -scale minmax", tiny.String(), []string{"-scale", "minmax"}, false},
		{"scales 1 and 1000", ordinary.String(), nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := writeTemp(t, "t.csv", tc.data)
			args := append([]string{"cluster", "-input", file, "-k", "2", "-method", "njw", "-o", "-"}, tc.flags...)
			_, stderr, err := run(t, args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			want := "tether cluster: warning: " + file + ": " + warning
			if got := strings.Contains(stderr, want) && strings.Contains(stderr, "; -scale minmax scales every column onto [0, 1]"); got != tc.warned {
				t.Errorf("the warning %q (with -scale minmax) is there %v, want %v:\n%s", want, got, tc.warned, stderr)
			}
			if !tc.warned && strings.Contains(stderr, "2⁻²⁶") {
				t.Errorf("stderr warns about scales:\n%s", stderr)
			}
		})
	}
}

// TestContinuousLabelColumnWarning: cluster -label naming a continuous
// column warns, naming it, before the figures against it (30 distinct
// floats were read as 30 classes without a word).
func TestContinuousLabelColumnWarning(t *testing.T) {
	data := filepath.Join(t.TempDir(), "f.csv")
	if _, _, err := run(t, "gen", "blobs", "-n", "30", "-k", "3", "-o", data); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := run(t, "cluster", "-input", data, "-k", "3", "-label", "x1", "-quiet", "-o", filepath.Join(t.TempDir(), "l"))
	want := `tether cluster: warning: ` + data + `: column "x1", the label column, holds 30 distinct values for 30 rows (a different value on every row): it looks like a continuous feature or an identifier, not classes`
	if err != nil || !strings.Contains(stderr, want) {
		t.Errorf("err %v, stderr %q lacks %q", err, stderr, want)
	}
}

// TestIntegerIDColumnWarning: a column named like an identifier holding
// a different integer on every row, in no order (customer numbers), is
// read as a feature as before, but tether cluster and tether labels now
// warn of it, naming -id and -drop (review 118: cluster on such a table
// gave ARI 0.004 on shuffled rows, 0.74 with -id customer_id, without a
// word); with -id naming it, there is nothing to warn of.
func TestIntegerIDColumnWarning(t *testing.T) {
	var b strings.Builder
	b.WriteString("customer_id,x,y,label\n")
	for i := 0; i < 30; i++ {
		c := i % 3
		fmt.Fprintf(&b, "%d,%g,%g,c%d\n", (i*7919+104729)%99991, float64(10*c)+0.1*float64(i%4), float64(5*c)+0.2*float64(i%3), c)
	}
	data := writeTemp(t, "cust.csv", b.String())
	const warning = `: column "customer_id" is named like an identifier and holds a different integer on each of its 30 rows (`
	const remedy = `): it is read as a feature, though an identifier's values say nothing of the rows; name the rows by it (tether: -id customer_id; library: Options.IDColumn) or leave it out (tether: -drop customer_id; library: Options.Drop)`
	for _, tc := range []struct {
		name   string
		args   []string
		prefix string // "" for no warning
	}{
		{"cluster", []string{"cluster", "-input", data, "-k", "3", "-quiet", "-o", filepath.Join(t.TempDir(), "p.csv")}, "tether cluster: warning: "},
		{"labels", []string{"labels", "-input", data, "-quiet", "-o", filepath.Join(t.TempDir(), "l.csv")}, "tether labels: warning: "},
		{"cluster -id", []string{"cluster", "-input", data, "-id", "customer_id", "-k", "3", "-quiet", "-o", filepath.Join(t.TempDir(), "p.csv")}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, err := run(t, tc.args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			if tc.prefix == "" {
				if strings.Contains(stderr, "named like an identifier") {
					t.Errorf("stderr warns of the ID column:\n%s", stderr)
				}
				return
			}
			if !strings.Contains(stderr, tc.prefix+data+warning) || !strings.Contains(stderr, remedy) {
				t.Errorf("stderr lacks %q … %q:\n%s", tc.prefix+data+warning, remedy, stderr)
			}
		})
	}
}
