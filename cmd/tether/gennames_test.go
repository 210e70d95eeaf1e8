package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// pairsAgree checks that every pair of text, a constraints file (comments,
// a header i,j,kind or name_i,name_j,kind, nodes by name or index as
// the keys of truth), has the kind that truth, the class of each node
// computed by the test, gives its two nodes: ml when they share a class,
// cl otherwise. It returns the pairs, as "x,y,kind" with the nodes as
// written, in file order.
func pairsAgree(t *testing.T, text string, truth map[string]string) []string {
	t.Helper()
	r := csv.NewReader(strings.NewReader(text))
	r.Comment = '#'
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("%v in\n%s", err, text)
	}
	var pairs []string
	for _, f := range recs {
		if f[0] == "i" || f[0] == "name_i" {
			continue
		}
		ci, ok1 := truth[f[0]]
		cj, ok2 := truth[f[1]]
		if !ok1 || !ok2 {
			t.Errorf("pair %q names a node without a class in the truth %v", f, truth)
			continue
		}
		want := "cl"
		if ci == cj {
			want = "ml"
		}
		if f[2] != want {
			t.Errorf("pair %q joins classes %s and %s: want %s", f, ci, cj, want)
		}
		pairs = append(pairs, strings.Join(f, ","))
	}
	return pairs
}

// TestConstraintsGenNamedReference: a reference that names its nodes
// gives the output keyed by those names (review: an "id,label" file whose
// integers are pandas' index out of order was written by line position,
// "0,2,ml" where node 0 is b and node 2 is a). The expected files are
// written by hand: pid.csv's nodes by index are 0 = b, 1 = a, 2 = a, and
// the pairs are drawn in the order (0,1), (0,2), (1,2) of its lines.
func TestConstraintsGenNamedReference(t *testing.T) {
	dir := t.TempDir()
	pid := evalWriteTemp(t, dir, "pid.csv", "id,label\n2,a\n0,b\n1,a\n")
	pnode := evalWriteTemp(t, dir, "pnode.csv", "node,label\n2,a\n0,b\n1,a\n")
	// Names with a comma, a quote and a leading '#', quoted as CSV.
	awkward := evalWriteTemp(t, dir, "awkward.csv", "name,label\n\"Smith, J\",x\n\"say \"\"hi\"\"\",y\n\"#c\",x\n")
	for k, tc := range []struct {
		name string
		args []string
		want string // the file written
		err  string // a usage error
	}{
		{name: "pairs by name", args: []string{"-truth", pid, "-protocol", "pairs-frac", "-rate", "1"},
			want: "name_i,name_j,kind\n2,0,cl\n2,1,ml\n0,1,cl\n"},
		{name: "labels by name", args: []string{"-truth", pid, "-protocol", "labels-frac", "-rate", "1"},
			want: "name,label\n2,0\n0,1\n1,0\n"},
		{name: "awkward names", args: []string{"-truth", awkward, "-protocol", "pairs-frac", "-rate", "1"},
			want: "name_i,name_j,kind\n\"Smith, J\",\"say \"\"hi\"\"\",cl\n\"Smith, J\",\"#c\",ml\n\"say \"\"hi\"\"\",\"#c\",cl\n"},
		// A reference by index is written by index, as before.
		{name: "numbered reference", args: []string{"-truth", pnode, "-protocol", "pairs-frac", "-rate", "1"},
			want: "# base=0\n0,1,cl\n0,2,cl\n1,2,ml\n"},
		{name: "numbered reference, -base 1", args: []string{"-truth", pnode, "-protocol", "pairs-frac", "-rate", "1", "-base", "1"},
			want: "# base=1\n1,2,cl\n1,3,cl\n2,3,ml\n"},
		// -base numbers indices: refused with names, 0 included.
		{name: "-base with names", args: []string{"-truth", pid, "-protocol", "pairs-frac", "-base", "0"},
			err: "-base 0: " + pid + " names its nodes, and the output names them too"},
		{name: "-base 1 with names, labels", args: []string{"-truth", awkward, "-protocol", "labels-frac", "-base", "1"},
			err: "-base 1: " + awkward + " names its nodes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, "out"+strconv.Itoa(k)+".csv")
			_, stderr, err := runConstraintsCLI(t, append([]string{"gen", "-o", out}, tc.args...)...)
			if tc.err != "" {
				if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want a usage error with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			if got := readFile(t, out); got != tc.want {
				t.Errorf("wrote\n%s\nwant\n%s", got, tc.want)
			}
		})
	}

	// The pairs by name, read back. By name (pid.csv's classes): every
	// kind agrees.
	cons := filepath.Join(dir, "pid_c.csv")
	if _, stderr, err := runConstraintsCLI(t, "gen", "-truth", pid, "-protocol", "pairs-frac", "-rate", "1", "-o", cons); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	byName := map[string]string{"2": "a", "0": "b", "1": "a"}
	if got := pairsAgree(t, readFile(t, cons), byName); len(got) != 3 {
		t.Errorf("%d pairs, want 3", len(got))
	}
	// constraints check without names reads the integer names as indices
	// (pandas' index: node k is row k), and -o writes the pairs by index,
	// which agree with the truth of those rows; with the names of a data
	// file whose rows are ids 1, 2, 0, it maps them onto its rows, and -o
	// writes them back by name (constraint.File.ByName), which agree with
	// the truth of those names.
	names := evalWriteTemp(t, dir, "names.txt", "1\n2\n0\n")
	for _, tc := range []struct {
		name  string
		args  []string
		truth map[string]string
	}{
		{"by index", nil, map[string]string{"0": "b", "1": "a", "2": "a"}},
		{"by the data's names", []string{"-names", names}, byName},
	} {
		t.Run("check "+tc.name, func(t *testing.T) {
			args := append(append([]string{"check"}, tc.args...), "-o", "-", cons)
			stdout, stderr, err := runConstraintsCLI(t, args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			if got := pairsAgree(t, stdout, tc.truth); len(got) != 3 {
				t.Errorf("%d pairs read back, want 3:\n%s", len(got), stdout)
			}
		})
	}
	// tether cluster reads them by the data's ids (-id), or as row
	// numbers for a table without ids in the index's order: under
	// -conflicts reject, the default, a pair that contradicts the partial
	// labels (the data's classes, by row, written here) is refused.
	withIDs := evalWriteTemp(t, dir, "ids.csv", "id,x,y\n1,0.1,0.2\n2,0.3,0.1\n0,10.2,9.9\n")
	withIDsLabels := evalWriteTemp(t, dir, "ids.labels", "node,label\n0,a\n1,a\n2,b\n")
	noIDs := evalWriteTemp(t, dir, "rows.csv", "x,y\n10.2,9.9\n0.1,0.2\n0.3,0.1\n")
	noIDsLabels := evalWriteTemp(t, dir, "rows.labels", "node,label\n0,b\n1,a\n2,a\n")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"cluster -id", []string{"-input", withIDs, "-id", "id", "-partial-labels", withIDsLabels}},
		{"cluster by row", []string{"-input", noIDs, "-partial-labels", noIDsLabels}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"cluster", "-k", "2", "-method", "fgpwc", "-constraints", cons, "-quiet", "-o", filepath.Join(dir, "pred.csv")}, tc.args...)
			if _, stderr, err := run(t, args...); err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
		})
	}
}

// TestConstraintsGenDroppedRows: the reference tether labels writes after
// -missing drop names the rows kept by their row numbers (0, 4, 5, …);
// constraints gen keys its output by them, and tether cluster -missing
// drop reads them as the file's rows (review: gen numbered the nodes
// 0…8 in file order, which cluster read as rows, so that pairs fell on
// dropped rows and others contradicted the truth, silently). The table's
// 12 rows alternate classes a (even rows) and b (odd rows); rows 1–3 have
// no label.
func TestConstraintsGenDroppedRows(t *testing.T) {
	dir := t.TempDir()
	var table strings.Builder
	table.WriteString("x,y,label\n")
	truth := map[string]string{} // the file's rows kept → class
	var kept []int
	for i := range 12 {
		c, off := "a", 0.0
		if i%2 == 1 {
			c, off = "b", 10
		}
		lab := c
		if i >= 1 && i <= 3 {
			lab = "?"
		} else {
			truth[strconv.Itoa(i)] = c
			kept = append(kept, i)
		}
		fmt.Fprintf(&table, "%.2f,%.2f,%s\n", off+0.1*float64(i), off+0.07*float64(i), lab)
	}
	data := evalWriteTemp(t, dir, "md.csv", table.String())
	ref := filepath.Join(dir, "md_truth.csv")
	if _, stderr, err := run(t, "labels", "-input", data, "-missing", "drop", "-o", ref); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if got, want := readFile(t, ref), "name,label\n0,a\n4,a\n5,b\n6,a\n7,b\n8,a\n9,b\n10,a\n11,b\n"; got != want {
		t.Fatalf("tether labels wrote\n%s\nwant\n%s", got, want)
	}

	// All 36 pairs of the 9 rows kept, each named by its rows.
	cons := filepath.Join(dir, "md_c.csv")
	if _, stderr, err := runConstraintsCLI(t, "gen", "-truth", ref, "-protocol", "pairs-frac", "-rate", "1", "-o", cons); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var want []string
	for a, r := range kept {
		for _, s := range kept[a+1:] {
			kind := "cl"
			if r%2 == s%2 {
				kind = "ml"
			}
			want = append(want, fmt.Sprintf("%d,%d,%s", r, s, kind))
		}
	}
	text := readFile(t, cons)
	if !strings.HasPrefix(text, "name_i,name_j,kind\n") {
		t.Errorf("gen wrote\n%s\nwant the header name_i,name_j,kind first", text)
	}
	got := pairsAgree(t, text, truth)
	if !sameSet(got, want) {
		t.Errorf("gen wrote the pairs %v\nwant %v", got, want)
	}
	// constraints check reads them as indices: the file's rows.
	stdout, stderr, err := runConstraintsCLI(t, "check", "-o", "-", cons)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if got := pairsAgree(t, stdout, truth); !sameSet(got, want) {
		t.Errorf("check -o wrote the pairs %v\nwant %v", got, want)
	}
	// tether cluster -missing drop reads them as the file's rows: under
	// -conflicts reject none contradicts the classes of the partial
	// labels (by row, written here), and none falls on a dropped row.
	var partial strings.Builder
	partial.WriteString("node,label\n")
	for _, r := range kept {
		fmt.Fprintf(&partial, "%d,%s\n", r, truth[strconv.Itoa(r)])
	}
	labelsFile := evalWriteTemp(t, dir, "md.labels", partial.String())
	_, stderr, err = run(t, "cluster", "-input", data, "-missing", "drop", "-k", "2", "-method", "fgpwc", "-constraints", cons, "-partial-labels", labelsFile, "-quiet", "-o", filepath.Join(dir, "md.pred"))
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if strings.Contains(stderr, "on rows dropped") {
		t.Errorf("cluster left pairs or labels out:\n%s", stderr)
	}

	// The labels protocol: name,label lines, read as the file's rows.
	labOut := filepath.Join(dir, "md_l.csv")
	if _, stderr, err := runConstraintsCLI(t, "gen", "-truth", ref, "-protocol", "labels-frac", "-rate", "1", "-o", labOut); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if got, want := readFile(t, labOut), "name,label\n0,0\n4,0\n5,1\n6,0\n7,1\n8,0\n9,1\n10,0\n11,1\n"; got != want {
		t.Errorf("gen wrote\n%s\nwant\n%s", got, want)
	}
	nl, err := readNodeLabels(context.Background(), labOut, 12, nil) // as cluster reads it: 12 rows, no names
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, -1, -1, -1, 0, 1, 0, 1, 0, 1, 0, 1}; !slices.Equal(nl.Labels, want) {
		t.Errorf("read back %v, want %v", nl.Labels, want)
	}
	_, stderr, err = run(t, "cluster", "-input", data, "-missing", "drop", "-k", "2", "-method", "fgpwc", "-partial-labels", labOut, "-quiet", "-o", filepath.Join(dir, "md.pred"))
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if strings.Contains(stderr, "on rows dropped") {
		t.Errorf("cluster left labels out:\n%s", stderr)
	}
}

// sameSet reports whether a and b hold the same strings, in any order.
func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestNamedConstraintsWithoutIDsNote: a constraint file keyed by names
// (constraints gen of a reference written with -id) given to cluster
// with data read without -id is read by row number, which is right for
// row numbers but not for the values of an id column: a note says which
// was done and how to match by name (review 112: the pairs were applied
// to other rows without a word). With -id there is no note.
func TestNamedConstraintsWithoutIDsNote(t *testing.T) {
	dir := t.TempDir()
	data := evalWriteTemp(t, dir, "d.csv", "id,x,y,label\n3,0.1,0.2,a\n0,10,10,b\n2,0.2,0.1,a\n1,10.1,9.9,b\n")
	cons := evalWriteTemp(t, dir, "c.csv", "name_i,name_j,kind\n3,0,cl\n3,2,ml\n")
	note := cons + ":1 keys its nodes by name, and the data names none: its names, integers, were read as 0-based row numbers; if they are the values of an id column of the data instead, give that column (-id COLUMN) to match them by name"
	for _, tc := range []struct {
		args []string
		note bool
	}{
		{[]string{"-label", "label"}, true},
		{[]string{"-label", "label", "-id", "id"}, false},
	} {
		args := append([]string{"cluster", "-input", data, "-constraints", cons, "-k", "2", "-method", "sl", "-o", filepath.Join(dir, "out.csv")}, tc.args...)
		_, stderr, err := run(t, args...)
		if err != nil {
			t.Fatalf("%v: %v\n%s", tc.args, err, stderr)
		}
		if got := strings.Contains(stderr, note); got != tc.note {
			t.Errorf("%v: the note given %v, want %v:\n%s", tc.args, got, tc.note, stderr)
		}
	}
	// A graph's integer nodes are its node numbers: no note (review 113:
	// it advised -id, which a graph file refuses).
	edges := evalWriteTemp(t, dir, "e.txt", "0 2 1\n2 3 1\n1 0 0.1\n1 3 1\n")
	_, stderr, err := run(t, "cluster", "-graph-file", edges, "-constraints", cons, "-k", "2", "-method", "sl", "-o", filepath.Join(dir, "out.csv"))
	if err != nil || strings.Contains(stderr, "keys its nodes by name") {
		t.Errorf("graph: %v\n%s", err, stderr)
	}
}
