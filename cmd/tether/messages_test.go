package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestClusterNotesAndWarnings runs tether cluster on representative
// inputs and checks where each message lands: a note is printed as
// "tether cluster: note: …" on standard error (not with -quiet), as a
// "note" line of the text summary and in the "notes" array of -json; a
// warning likewise as "warning", always, and in "warnings".
func TestClusterNotesAndWarnings(t *testing.T) {
	dir := t.TempDir()
	moons := filepath.Join(dir, "moons.csv")
	if _, _, err := run(t, "gen", "moons", "-n", "120", "-seed", "3", "-o", moons); err != nil {
		t.Fatal(err)
	}
	truth, cons := filepath.Join(dir, "moons.truth"), filepath.Join(dir, "cons.csv")
	if _, stderr, err := run(t, "labels", "-input", moons, "-o", truth); err != nil {
		t.Fatalf("labels: %v\n%s", err, stderr)
	}
	if _, stderr, err := run(t, "constraints", "gen", "-truth", truth, "-protocol", "pairs-frac", "-rate", "0.01", "-seed", "2", "-o", cons); err != nil {
		t.Fatalf("constraints gen: %v\n%s", err, stderr)
	}
	small := evalWriteTemp(t, dir, "small.csv", "x,y,label\n0,0,a\n0,1,a\n1,0,a\n5,5,b\n5,6,b\n6,5,b\n")
	// Two triangles and node 6 isolated: njw regularizes L_sym by default.
	isolated := evalWriteTemp(t, dir, "g.txt", "0 1 1\n1 2 1\n0 2 1\n3 4 1\n4 5 1\n3 5 1\n2 3 0.1\n6 6 0\n")
	labels := filepath.Join(dir, "l.csv")
	const (
		labelColumn = `column "label" is the reference labels, not a feature`
		smallTable  = "small.csv has only 6 rows: the graph was built with K = 5 neighbours"
	)
	for _, tc := range []struct {
		name  string
		args  []string
		notes []string // substrings of notes
		warns []string // substrings of warnings
		quiet bool     // -quiet: the notes are in -json only
	}{
		{"label column recognised", []string{"-input", moons, "-k", "2"}, []string{labelColumn}, nil, false},
		{"input too small for the defaults", []string{"-input", small, "-k", "2"}, []string{labelColumn}, []string{smallTable}, false},
		{"-quiet keeps warnings, not notes", []string{"-input", small, "-k", "2", "-quiet"}, []string{labelColumn}, []string{smallTable}, true},
		{"auto's cross-validated choice", []string{"-input", moons, "-k", "2", "-constraints", cons}, []string{labelColumn, "auto: chose "}, nil, false},
		// The default regularization is the documented behaviour of
		// -regularize auto (a warning before); the zero embedding row of
		// the isolated node stays a warning.
		{"default regularization", []string{"-graph-file", isolated, "-k", "2"}, []string{"L_sym regularized (d + τ)"}, []string{"1 node of 7 has a zero embedding row"}, false},
		{"constraints an unsupervised method ignores", []string{"-input", moons, "-k", "2", "-method", "njw", "-constraints", cons}, []string{labelColumn}, []string{"njw ignores the"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"cluster", "-o", labels}, tc.args...)
			// The text summary goes to standard output (the labels to a
			// file); -json puts the summary there as one document.
			text, stderr, err := run(t, args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			jsonOut, _, err := run(t, append(args, "-json")...)
			if err != nil {
				t.Fatal(err)
			}
			var doc struct{ Warnings, Notes []string }
			if err := json.Unmarshal([]byte(jsonOut), &doc); err != nil {
				t.Fatalf("-json: %v\n%s", err, jsonOut)
			}
			all := stderr + text
			for _, c := range []struct {
				label, other string
				want         []string
				list, not    []string
			}{
				{"note", "warning", tc.notes, doc.Notes, doc.Warnings},
				{"warning", "note", tc.warns, doc.Warnings, doc.Notes},
			} {
				for _, w := range c.want {
					// "tether cluster: note: …" on stderr, or "note  …" in
					// the text summary (the method's messages).
					re := regexp.MustCompile(`(?m)^(tether cluster: ` + c.label + `: .*|` + c.label + ` +.*)` + regexp.QuoteMeta(w))
					if quiet := tc.quiet && c.label == "note"; re.MatchString(all) == quiet {
						t.Errorf("-quiet %v: %s %q in the output %v:\n%s", tc.quiet, c.label, w, !quiet, all)
					}
					wrong := regexp.MustCompile(`(?m)^(tether cluster: ` + c.other + `: .*|` + c.other + ` +.*)` + regexp.QuoteMeta(w))
					if wrong.MatchString(all) {
						t.Errorf("%q is a %s, printed as a %s:\n%s", w, c.label, c.other, all)
					}
					has := func(list []string) bool {
						return slices.ContainsFunc(list, func(m string) bool { return strings.Contains(m, w) })
					}
					if !has(c.list) || has(c.not) {
						t.Errorf("-json: %q not among the %ss (notes %q, warnings %q)", w, c.label, doc.Notes, doc.Warnings)
					}
				}
			}
			if tc.quiet && strings.Contains(stderr, "note:") {
				t.Errorf("-quiet printed notes:\n%s", stderr)
			}
		})
	}
}

// TestClusterResultMessagesOnStderr: the clustering's own messages
// (cluster.Result.Warnings and Notes; here NJW ignoring the pairs of
// -constraints) are printed once on standard error, as the input's are,
// and listed in the summary too: the summary on standard output, the
// -json document, and, when the labels go to standard output and the
// summary to standard error, there once only. The input's note is not
// printed twice.
func TestClusterResultMessagesOnStderr(t *testing.T) {
	dir := t.TempDir()
	moons := filepath.Join(dir, "moons.csv")
	if _, _, err := run(t, "gen", "moons", "-n", "120", "-seed", "3", "-o", moons); err != nil {
		t.Fatal(err)
	}
	// Two must-links and a cannot-link (nodes 0…59 are one moon).
	cons := evalWriteTemp(t, dir, "cons.csv", "0,1,ml\n2,3,ml\n0,100,cl\n")
	labels := filepath.Join(dir, "l.csv")
	const (
		warn      = "tether cluster: warning: njw ignores the 3 pairwise constraints"
		summary   = "warning     njw ignores the 3 pairwise constraints"
		inputNote = `tether cluster: note: ` // the label column's, once
	)
	base := []string{"cluster", "-input", moons, "-k", "2", "-method", "njw", "-constraints", cons}
	for _, tc := range []struct {
		name          string
		args          []string
		stdout        string // in standard output, once ("" for none)
		stderrSummary bool   // the summary is on standard error
		wantInputNote int    // "tether cluster: note:" lines
	}{
		{"summary on stdout", []string{"-o", labels}, summary, false, 1},
		{"-quiet keeps the warning", []string{"-o", labels, "-quiet"}, summary, false, 0},
		{"-json", []string{"-o", labels, "-json"}, `"njw ignores the 3 pairwise constraints`, false, 1},
		{"labels on stdout, summary on stderr", []string{"-o", "-"}, "", true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, err := run(t, append(base, tc.args...)...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			if n := strings.Count(stderr, warn); n != 1 {
				t.Errorf("standard error has %d lines %q, want 1:\n%s", n, warn, stderr)
			}
			if n := strings.Count(stderr, "njw ignores"); n != 1 {
				t.Errorf("standard error holds the warning %d times, want once:\n%s", n, stderr)
			}
			if n := strings.Count(stderr, inputNote); n != tc.wantInputNote {
				t.Errorf("standard error has %d notes, want %d (the label column's):\n%s", n, tc.wantInputNote, stderr)
			}
			if tc.stdout != "" && strings.Count(stdout, tc.stdout) != 1 {
				t.Errorf("standard output lacks %q once:\n%s", tc.stdout, stdout)
			}
			if tc.stderrSummary && !strings.Contains(stderr, "Ncut") {
				t.Errorf("the summary is not on standard error:\n%s", stderr)
			}
		})
	}
}
