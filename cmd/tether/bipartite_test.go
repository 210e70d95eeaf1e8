package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// bipartiteFiles writes a 6-document × 6-term count matrix in the Classic3
// triplet format: documents 0–2 use terms 0–2, documents 3–5 terms 3–5,
// document 2 also term 3 and document 1 term 1 once more (summed); with document names and classes, and term names.
func bipartiteFiles(t *testing.T) (mat, docs, terms string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("6 6 20\n")
	n := 0
	for d := 0; d < 6; d++ {
		for j := 0; j < 3; j++ {
			term := j + 3*(d/3)
			b.WriteString(strings.Join([]string{itoa(d + 1), itoa(term + 1), itoa(2 + (d+j)%2)}, " ") + "\n")
			n++
		}
	}
	b.WriteString("3 4 1\n1 1 1\n")
	n += 2
	if n != 20 {
		t.Fatalf("%d triplets", n)
	}
	mat = writeTemp(t, "docbyterm.txt", b.String())
	docs = writeTemp(t, "documents.txt", "med.1 med\nmed.2 med\nmed.3 med\ncran.1 cran\ncran.2 cran\ncran.3 cran\n")
	terms = writeTemp(t, "terms.txt", "cell\nblood\ntumor\nwing\nflow\nmach\n")
	return
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestClusterBipartite(t *testing.T) {
	mat, docs, terms := bipartiteFiles(t)
	labels := filepath.Join(t.TempDir(), "labels.csv")
	out, _, err := run(t, "cluster", "-bipartite", mat, "-row-names", docs, "-col-names", terms, "-method", "cocluster", "-k", "2", "-o", labels, "-quiet")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"12 nodes, 19 edges", "cocluster, k = 2", "ARI", "1.0000", "6 nodes without a reference label"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	b, err := os.ReadFile(labels)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n")[1:] {
		name, c, _ := strings.Cut(line, ",")
		got[name] = c
	}
	if len(got) != 12 || got["med.1"] != got["tumor"] || got["cran.2"] != got["wing"] || got["med.1"] == got["cran.1"] {
		t.Errorf("labels %v", got)
	}
	// Constraints number the documents from 0: cannot-link documents 2 and
	// 0 and 1, must-link 2 and 3, weighted by γ = 3 (γ = 2 is too weak
	// for the penalty of seed 001 eq. 3.6 here), move document 2 (med.3)
	// to the cran side.
	cons := writeTemp(t, "cons.csv", "2,0,cl\n2,3,ml\n2,1,cl\n")
	out, _, err = run(t, "cluster", "-bipartite", mat, "-row-names", docs, "-method", "cocluster", "-set", "Gamma=3", "-k", "2", "-constraints", cons, "-o", labels, "-quiet")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "violated  0 of 1 must-link, 0 of 2 cannot-links") {
		t.Errorf("constraints not satisfied:\n%s", out)
	}
	// -tfidf=false uses the counts; a graph method clusters the bipartite
	// graph, which the user asked for: no warning that it ignores the
	// matrix (it used to get one).
	out, _, err = run(t, "cluster", "-bipartite", mat, "-tfidf=false", "-method", "njw", "-k", "2", "-o", labels, "-quiet")
	if err != nil || strings.Contains(out, "ignores the bipartite matrix") || !strings.Contains(strings.Join(strings.Fields(out), " "), "sizes 6 6") {
		t.Errorf("njw on -bipartite: %v\n%s", err, out)
	}
}

func TestClusterBipartiteErrors(t *testing.T) {
	mat, docs, terms := bipartiteFiles(t)
	bad := writeTemp(t, "bad.txt", "2 2 2\n1 1 1\n1 x 1\n")
	empty := writeTemp(t, "empty.txt", "3 2 2\n1 1 1\n3 2 1\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-bipartite", bad}, "bad.txt:3: column \"x\" outside 1…2"},
		{[]string{"-bipartite", empty}, "empty.txt: row 2 has no positive entry"}, // it said "row 1 has degree 0"
		{[]string{"-bipartite", mat, "-row-names", terms + "x"}, "no such file"},
		{[]string{"-bipartite", mat, "-row-names", writeTemp(t, "d.txt", "a\nb\n")}, "d.txt: 2 names, the matrix has 6"},
		{[]string{"-bipartite", mat, "-row-names", writeTemp(t, "d2.txt", "a x\nb\n")}, "d2.txt:2: 1 field, want \"name\" or \"name class\" as on line 1"},
		{[]string{"-bipartite", mat, "-col-names", docs}, "documents.txt:1: 2 fields, want one name"},
		{[]string{"-gen", "moons", "-row-names", docs}, "-row-names is an option of the document-by-term matrix of -bipartite and does not apply to -gen moons (it generates points)"},
		{[]string{"-gen", "moons", "-n", "50"}, "-method cocluster co-clusters a matrix: give a document-by-term file with -bipartite"},
		{[]string{"-bipartite", mat, "-gen", "moons"}, "give exactly one of"},
	} {
		args := append([]string{"cluster", "-method", "cocluster", "-k", "2", "-quiet", "-o", filepath.Join(t.TempDir(), "l")}, tc.args...)
		_, _, err := run(t, args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.args, err, tc.want)
		}
	}
	// -drop-empty drops the empty document 2 (and nothing else), naming
	// the nodes kept.
	names := writeTemp(t, "n.txt", "a\nb\nc\n")
	labels := filepath.Join(t.TempDir(), "l.csv")
	_, errOut, err := run(t, "cluster", "-bipartite", empty, "-row-names", names, "-drop-empty", "-method", "cocluster", "-k", "1", "-o", labels)
	if err != nil || !strings.Contains(errOut, "dropped 1 empty row and 0 empty columns") {
		t.Fatalf("-drop-empty: %v\n%s", err, errOut)
	}
	if b, _ := os.ReadFile(labels); !strings.Contains(string(b), "a,0\nc,0\ncol0,0\ncol1,0\n") {
		t.Errorf("labels:\n%s", b)
	}
}

// FuzzReadNameFile checks the reader of -row-names and -col-names: no
// panic, and on success exactly n non-empty names, with a class for each
// when classes are read and there are any.
func FuzzReadNameFile(f *testing.F) {
	for _, s := range []string{"a\nb\nc\n", "a x\nb y\nc x\n", "a\r\nb\rc", "", "\n\n\n", "a x\nb\nc x\n", "a b c\n"} {
		f.Add(s, 3, true)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, s string, n int, classes bool) {
		if n < 0 || n > 100 {
			return
		}
		p := filepath.Join(dir, "names.txt")
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		names, cls, err := readNameFile(context.Background(), p, n, classes)
		if err != nil {
			if !strings.Contains(err.Error(), p) {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if len(names) != n {
			t.Fatalf("%d names, want %d", len(names), n)
		}
		for _, nm := range names {
			if nm == "" {
				t.Fatal("empty name")
			}
		}
		if cls != nil && (!classes || len(cls) != n) {
			t.Fatalf("%d classes for %d names (classes %v)", len(cls), n, classes)
		}
	})
}

// TestBipartiteEmptyRowsAndColumns: for cocluster, a row or column of the
// matrix without a positive entry is an error naming it as the file
// numbers it (1-based) and -drop-empty, before the method runs (cocluster
// said "column 2 has degree 0" for the file's column 3, and "drop empty
// columns" without the flag); one that tf–idf emptied says so and names
// -tfidf=false. A graph method of the bipartite graph takes such a matrix.
// Repeated entries are summed with a warning, as repeated edges are.
func TestBipartiteEmptyRowsAndColumns(t *testing.T) {
	noCol3 := writeTemp(t, "bp_c3.txt", "3 4 4\n1 1 2\n1 2 1\n2 4 4\n3 4 1\n")
	// Term 4 is in every document: tf–idf weighs it 0, which empties
	// document 2 (term 4 alone).
	tfidf := writeTemp(t, "bp_tf.txt", "3 4 6\n1 1 2\n1 4 1\n2 4 4\n3 4 1\n3 3 1\n3 2 1\n")
	for _, c := range []struct {
		args []string
		want string // "" for success
	}{
		{[]string{"-bipartite", noCol3}, noCol3 + ": column 3 has no positive entry (1 empty column in all): cocluster needs one in every row and column; -drop-empty drops the empty ones, renumbering the nodes kept"},
		{[]string{"-bipartite", noCol3, "-drop-empty"}, ""},
		{[]string{"-bipartite", tfidf}, tfidf + ": row 2 and column 4 have no positive entry (1 empty row and 1 empty column in all): cocluster needs one in every row and column; -drop-empty drops the empty ones, renumbering the nodes kept (the terms of row 2 all occur in every row, and column 4 occurs in every row, which tf–idf weighs 0: -tfidf=false keeps the counts)"},
		{[]string{"-bipartite", tfidf, "-tfidf=false"}, ""},
	} {
		_, _, err := run(t, append([]string{"cluster", "-method", "cocluster", "-k", "2", "-quiet", "-o", filepath.Join(t.TempDir(), "l")}, c.args...)...)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.args, err)
		case c.want != "" && (err == nil || err.Error() != c.want):
			t.Errorf("%q: error %v\nwant %s", c.args, err, c.want)
		}
	}
	if _, _, err := run(t, "cluster", "-bipartite", noCol3, "-method", "njw", "-k", "2", "-quiet", "-o", filepath.Join(t.TempDir(), "l")); err != nil {
		t.Errorf("njw on the bipartite graph: %v", err)
	}
	dup := writeTemp(t, "bp_dup.txt", "3 4 5\n1 1 2\n1 2 1\n2 3 4\n3 4 1\n1 2 1\n")
	_, stderr, err := run(t, "cluster", "-bipartite", dup, "-method", "cocluster", "-k", "2", "-quiet", "-o", filepath.Join(t.TempDir(), "l"))
	if want := "tether cluster: warning: " + dup + ":6: 1 entry repeats the row and column of an earlier one (the first: row 1, column 2, also on line 3); the values of each (row, column) are summed"; err != nil || !strings.Contains(stderr, want) {
		t.Errorf("repeated entry: %v, stderr %q lacks %q", err, stderr, want)
	}
}
