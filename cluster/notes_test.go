package cluster

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// TestNotesAndWarnings runs representative problems and checks that each
// message lands in the list Result documents: the documented choices a
// method made in Notes, the conditions that may change the result in
// Warnings, never in both, and never with the internal note mark.
func TestNotesAndWarnings(t *testing.T) {
	cliques, truth := autoTwoCliques(t)
	// Every must-link and cannot-link among 6 nodes of each clique: enough
	// held-out pairs for auto's folds.
	var many []constraint.Pair
	for i := 0; i < 20; i += 3 {
		for j := i + 3; j < 20; j += 3 {
			kind := constraint.CannotLink
			if truth[i] == truth[j] {
				kind = constraint.MustLink
			}
			many = append(many, constraint.Pair{I: i, J: j, Kind: kind})
		}
	}
	one := &constraint.Set{N: 20, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}}}
	// Two must-links and a cannot-link between them: MCL-NOA-SSC's
	// closure, without contradictions.
	closure := &constraint.Set{N: 20, Pairs: []constraint.Pair{
		{I: 0, J: 1, Kind: constraint.MustLink}, {I: 10, J: 11, Kind: constraint.MustLink}, {I: 1, J: 11, Kind: constraint.CannotLink}}}
	tiny, _ := bigPlusTiny(t, 40, 3, 2, 3, 0.3, 0.02, 1)
	for _, tc := range []struct {
		name string
		m    Method
		p    *Problem
		note string // a substring of a note, or ""
		warn string // a substring of a warning, or ""
	}{
		{"auto's cross-validated choice", Auto{}, &Problem{Graph: cliques, K: 2, Constraints: &constraint.Set{N: 20, Pairs: many}}, "auto: chose ", ""},
		{"auto without enough supervision", Auto{}, &Problem{Graph: cliques, K: 2, Constraints: one}, "", "auto: chose njw: too little supervision"},
		{"constraints an unsupervised method ignores", NJW{}, &Problem{Graph: cliques, K: 2, Constraints: one}, "", "njw ignores the 1 pairwise constraint"},
		{"k estimated when K = 0", BetheHessian{}, &Problem{Graph: cliques}, "estimated from the negative eigenvalues of H(r)", ""},
		{"regularization asked for", NJW{}, &Problem{Graph: cliques, K: 2, Regularize: graph.Regularization{Mode: graph.RegOn}}, "L_sym regularized", ""},
		{"regularization the graph needed (the default rule's choice)", NJW{}, &Problem{Graph: tiny, K: 2}, "L_sym regularized", ""},
		{"must-link closure", MCLNOASSC{}, &Problem{Graph: cliques, K: 2, Constraints: closure}, "must-link closure: 18 groups for 20 nodes", ""},
		{"nodes attached, not clustered", SpectralLearning{}, &Problem{Graph: tiny, K: 2, Constraints: &constraint.Set{N: tiny.N(), Pairs: one.Pairs}}, "", "attached"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Run(context.Background(), tc.m, tc.p, &Settings{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			has := func(list []string, s string) bool {
				return slices.ContainsFunc(list, func(m string) bool { return strings.Contains(m, s) })
			}
			if tc.note != "" && (!has(res.Notes, tc.note) || has(res.Warnings, tc.note)) {
				t.Errorf("want a note %q, not a warning: notes %q, warnings %q", tc.note, res.Notes, res.Warnings)
			}
			if tc.warn != "" && (!has(res.Warnings, tc.warn) || has(res.Notes, tc.warn)) {
				t.Errorf("want a warning %q, not a note: warnings %q, notes %q", tc.warn, res.Warnings, res.Notes)
			}
			marked := func(list []string) bool {
				return slices.ContainsFunc(list, func(m string) bool { return strings.HasPrefix(m, noteMark) })
			}
			if marked(res.Warnings) || marked(res.Notes) {
				t.Errorf("a message keeps the note mark: warnings %q, notes %q", res.Warnings, res.Notes)
			}
		})
	}
}

// TestMoveNotes checks that finish's split keeps the order of each list,
// appends to the notes already there, and leaves the array of the
// method's list alone (it may be cached state).
func TestMoveNotes(t *testing.T) {
	list := []string{"w1", note("n1"), "w2", note("n2")}
	orig := slices.Clone(list)
	res := &Result{Warnings: list, Notes: []string{"n0"}}
	moveNotes(res)
	if want := []string{"w1", "w2"}; !slices.Equal(res.Warnings, want) {
		t.Errorf("warnings %q, want %q", res.Warnings, want)
	}
	if want := []string{"n0", "n1", "n2"}; !slices.Equal(res.Notes, want) {
		t.Errorf("notes %q, want %q", res.Notes, want)
	}
	if !slices.Equal(list, orig) {
		t.Errorf("the method's list changed: %q", list)
	}
	res = &Result{Warnings: []string{"w"}}
	moveNotes(res)
	if !slices.Equal(res.Warnings, []string{"w"}) || res.Notes != nil {
		t.Errorf("without notes: warnings %q, notes %q", res.Warnings, res.Notes)
	}
}

// TestNoWarningLooksLikeANote checks that no message of the package's
// source begins with the note mark except through note(): a string literal
// beginning "note: " would be moved to Result.Notes by finish whatever it
// says.
func TestNoWarningLooksLikeANote(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	literal := regexp.MustCompile("[\"`]" + regexp.QuoteMeta(noteMark))
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			code, _, _ := strings.Cut(line, "//")
			if literal.MatchString(code) && !strings.HasPrefix(code, "const noteMark") {
				t.Errorf("%s:%d: a string literal begins with the note mark %q: %s", f, i+1, noteMark, strings.TrimSpace(line))
			}
		}
	}
}

// TestKOneWarnsViolatedCannotLinks: with k = 1, Run's one-cluster answer
// says that it violates every cannot-link (it was silent: a caller reading
// only Warnings missed it); with must-links alone there is nothing to say.
func TestKOneWarnsViolatedCannotLinks(t *testing.T) {
	g, err := graph.FromEdges(4, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 1}, {I: 2, J: 3, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		pairs []constraint.Pair
		want  string
	}{
		{[]constraint.Pair{{I: 0, J: 3, Kind: constraint.CannotLink}, {I: 0, J: 2, Kind: constraint.CannotLink}, {I: 1, J: 2, Kind: constraint.MustLink}}, "fgpwc: k = 1 puts every node in one cluster: all 2 cannot-links are violated"},
		{[]constraint.Pair{{I: 0, J: 3, Kind: constraint.CannotLink}}, "fgpwc: k = 1 puts every node in one cluster: the cannot-link is violated"},
		{[]constraint.Pair{{I: 1, J: 2, Kind: constraint.MustLink}}, ""},
	} {
		res, err := Run(context.Background(), NewFGPWC(), &Problem{Graph: g, K: 1, Constraints: &constraint.Set{N: 4, Pairs: c.pairs}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(res.Warnings, "\n"); c.want == "" && got != "" || c.want != "" && !slices.Contains(res.Warnings, c.want) {
			t.Errorf("warnings %q, want %q", res.Warnings, c.want)
		}
	}
}
