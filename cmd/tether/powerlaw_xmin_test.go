package main

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tether-sc/tether/powerlaw"
)

// writeValues writes x one per line to a file in a test directory.
func writeValues(t *testing.T, name string, x []float64) string {
	t.Helper()
	var b strings.Builder
	for _, v := range x {
		b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		b.WriteByte('\n')
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPowerlawFitXminBudget: -xmin-budget bounds the full scan of the
// candidate x_min values. With the default, 300 values are all tried
// ("over all N candidates", N the number of distinct values leaving 10 in
// the tail: 291 here); with -xmin-budget 1 the search is coarse to fine
// and the output says how many of how many were tried. -xmin-budget 0 is
// a usage error. Before, the flag did not exist and at most 100 candidates
// spaced in rank were tried, whatever the data.
func TestPowerlawFitXminBudget(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	x := make([]float64, 300)
	for i := range x {
		x[i] = math.Pow(1-r.Float64(), -1/1.5) // α = 2.5, distinct
	}
	in := writeValues(t, "v.txt", x)
	js, _, err := run(t, "powerlaw", "fit", "-input", in, "-json")
	var rep plFitReport
	if err != nil || json.Unmarshal([]byte(js), &rep) != nil || rep.Candidates != 291 || rep.Eligible != 291 {
		t.Errorf("default budget: %s (%v), want 291 of 291 candidates", js, err)
	}
	txt, _, err := run(t, "powerlaw", "fit", "-input", in)
	if err != nil || !strings.Contains(txt, "selected by KS minimization over all 291 candidates") {
		t.Errorf("default budget, text:\n%s(%v)", txt, err)
	}
	txt, _, err = run(t, "powerlaw", "fit", "-input", in, "-xmin-budget", "1")
	if err != nil || !strings.Contains(txt, "of 291 candidates, coarse to fine; a larger -xmin-budget tries them all") {
		t.Errorf("-xmin-budget 1, text:\n%s(%v)", txt, err)
	}
	if _, _, err := run(t, "powerlaw", "fit", "-input", in, "-xmin-budget", "0"); err == nil || !strings.Contains(err.Error(), "-xmin-budget 0: want ≥ 1") {
		t.Errorf("-xmin-budget 0: %v", err)
	}
}

// TestPowerlawFitNotes: the notes and hints of tether powerlaw fit (QA
// pass of the power-law chapter), each absent before:
//   - every value an integer without -discrete: a note suggesting it
//     (Clauset et al. 2009 §3), not with -discrete, -quiet or a fraction;
//   - no candidate x_min: the error suggests -xmin VALUE, and says "1
//     value", not "1 values";
//   - a decimal comma ("1,5"): the error says the separator is a point;
//   - the ± of α is labelled a standard error;
//   - a comment after a value is an error (the help says whole-line
//     comments only).
func TestPowerlawFitNotes(t *testing.T) {
	ints := writeValues(t, "ints.txt", []float64{1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233})
	fracs := writeValues(t, "fracs.txt", []float64{1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233.5})
	one := writeValues(t, "one.txt", []float64{5})
	dir := t.TempDir()
	comma := filepath.Join(dir, "comma.txt")
	os.WriteFile(comma, []byte("1,5\n3\n"), 0o644)
	trailing := filepath.Join(dir, "trailing.txt")
	os.WriteFile(trailing, []byte("3 # a comment\n4\n"), 0o644)
	const note = "note: every value is an integer: -discrete fits the discrete power law"
	out, errOut, err := run(t, "powerlaw", "fit", "-input", ints)
	if err != nil || !strings.Contains(errOut, note) || !strings.Contains(errOut, "§3") {
		t.Errorf("integers: stderr %q (%v), want the -discrete note", errOut, err)
	}
	if !strings.Contains(out, "± ") || !strings.Contains(out, "(standard error)") {
		t.Errorf("± not labelled a standard error:\n%s", out)
	}
	for _, args := range [][]string{{"-input", ints, "-discrete"}, {"-input", ints, "-quiet"}, {"-input", fracs}} {
		if _, errOut, err := run(t, append([]string{"powerlaw", "fit"}, args...)...); err != nil || strings.Contains(errOut, note) {
			t.Errorf("%v: stderr %q (%v), want no -discrete note", args, errOut, err)
		}
	}
	for _, tc := range []struct {
		name string
		args []string
		want []string
		not  string
	}{
		{"no candidate", []string{"-input", one}, []string{"no candidate x_min: 1 value,", "give -xmin VALUE"}, "1 values"},
		{"decimal comma", []string{"-input", comma}, []string{`value "1,5"`, "the decimal separator is a point"}, ""},
		{"trailing comment", []string{"-input", trailing}, []string{`value "3 # a comment"`}, "decimal separator"},
	} {
		_, _, err := run(t, append([]string{"powerlaw", "fit"}, tc.args...)...)
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %v, want %q", tc.name, err, w)
			}
		}
		if err != nil && tc.not != "" && strings.Contains(err.Error(), tc.not) {
			t.Errorf("%s: error %v contains %q", tc.name, err, tc.not)
		}
	}
	help, _, _ := run(t, "powerlaw", "fit", "-h")
	if !strings.Contains(help, "whole-line '#' or '%' comments — not a\ncomment after a value") {
		t.Errorf("help does not say whole-line comments only:\n%s", help)
	}
}

// TestPowerlawWeakVerdict: the bootstrap verdict is marked weak when the
// tail is short (12 values < weakTail = 50), in the text and in the JSON,
// and not for 400 power-law values; weakVerdict marks a share of unfitted
// synthetic sets above 10%, with their number. Before, the verdict of 12
// values ("ruled out", p = 0) was given without a word.
func TestPowerlawWeakVerdict(t *testing.T) {
	short := writeValues(t, "short.txt", []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2.5})
	out, _, err := run(t, "powerlaw", "fit", "-input", short, "-bootstrap", "20")
	if err != nil || !strings.Contains(out, "the verdict is weak: the tail holds only 12 values") {
		t.Errorf("short tail:\n%s(%v)", out, err)
	}
	r := rand.New(rand.NewPCG(8, 8))
	x := make([]float64, 400)
	for i := range x {
		x[i] = math.Pow(1-r.Float64(), -1/1.5)
	}
	long := writeValues(t, "long.txt", x)
	js, _, err := run(t, "powerlaw", "fit", "-input", long, "-xmin", "1", "-bootstrap", "20", "-json")
	var rep plFitReport
	if err != nil || json.Unmarshal([]byte(js), &rep) != nil || rep.Weak != "" {
		t.Errorf("400 values: %s (%v), want no weak verdict", js, err)
	}
	for _, tc := range []struct {
		unfitted, reps, tail int
		want                 string
	}{
		{0, 100, 50, ""},
		{10, 100, 50, ""},
		{11, 100, 50, "11 of 100 synthetic sets (11%) could not be fitted"},
		{11, 100, 49, "(11%) could not be fitted and count as exceeding, which raises p; the tail holds only 49 values"},
		{0, 100, 1, "the tail holds only 1 value:"},
	} {
		g := &powerlaw.GOF{Fit: &powerlaw.Result{NTail: tc.tail}, Reps: tc.reps, Unfitted: tc.unfitted}
		if got := weakVerdict(g); (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("weakVerdict(%d unfitted of %d, tail %d) = %q, want %q", tc.unfitted, tc.reps, tc.tail, got, tc.want)
		}
	}
}
