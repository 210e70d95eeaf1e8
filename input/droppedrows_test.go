package input

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/graph"
)

// droppedTable has 6 data rows, 0-based rows 1 and 3 missing a value:
// -missing drop keeps rows 0, 2, 4, 5 as nodes 0…3.
const droppedTable = "x,y,label\n0.1,0.2,a\n?,0.3,a\n0.2,0.1,a\n0.9,?,b\n0.8,0.9,b\n0.9,0.8,b\n"

// TestDroppedRowsKeepTheirNumbers: after -missing drop, the nodes are
// named by their rows in the file (review 49, finding 3), and truth,
// partial labels and constraints files number the file's rows too, with
// a warning for what falls on a dropped row. The expected values follow
// from droppedTable by hand.
func TestDroppedRowsKeepTheirNumbers(t *testing.T) {
	ctx := context.Background()
	d, err := ReadTable(ctx, []byte(droppedTable), "m.csv", dataset.Options{Missing: dataset.MissingDrop, Spelling: cliSpelling})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"0", "2", "4", "5"}; !reflect.DeepEqual(d.Names, want) {
		t.Fatalf("Names %q, want %q", d.Names, want)
	}
	if want := []int{0, 2, 4, 5}; !reflect.DeepEqual(d.Rows, want) || d.FileRows != 6 {
		t.Fatalf("Rows %v of %d, want %v of 6", d.Rows, d.FileRows, want)
	}
	wantNote := "m.csv: the 4 rows kept are named by their 0-based row numbers among the file's 6 data rows (0…5, with gaps)"
	if !slices.ContainsFunc(d.Notes, func(n string) bool { return strings.HasPrefix(n, wantNote) }) {
		t.Errorf("notes %q, want one beginning %q", d.Notes, wantNote)
	}
	if len(d.Warnings) != 1 || !strings.HasSuffix(d.Warnings[0], "lines 3, 5") {
		t.Errorf("warnings %q, want the dropped lines 3, 5", d.Warnings)
	}

	dir := tempFiles(t, map[string]string{
		"byindex.truth": "node,label\n0,1\n1,1\n2,1\n3,0\n4,0\n5,0\n",
		"oneper.truth":  "1\n1\n1\n0\n0\n0\n",
		"byname.truth":  "name,label\n0,1\n2,1\n4,0\n5,0\n", // as tether labels -missing drop writes it
		"p.txt":         "0,0\n3,1\n5,1\n",
		"c.txt":         "0,2,ml\n4,5,ml\n1,2,cl\n0,4,cl\n",
	})
	for _, file := range []string{"byindex.truth", "oneper.truth", "byname.truth"} {
		dc := *d
		if err := dc.ReadTruth(ctx, filepath.Join(dir, file)); err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		// Rows 0, 2, 4, 5 are labelled 1, 1, 0, 0.
		if want := []int{1, 1, 0, 0}; !reflect.DeepEqual(dc.Truth, want) {
			t.Errorf("%s: truth %v, want %v", file, dc.Truth, want)
		}
	}

	g, err := graph.FromEdges(4, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 1}, {I: 2, J: 3, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	p := &cluster.Problem{Graph: g, K: 2}
	s := Supervision{Labels: filepath.Join(dir, "p.txt"), Constraints: filepath.Join(dir, "c.txt"), Spelling: cliSpelling}
	a, err := s.AddTo(ctx, p, d)
	if err != nil {
		t.Fatal(err)
	}
	// Labels: row 0 → node 0 class 0, row 5 → node 3 class 1; row 3 dropped.
	if want := (constraint.Labels{0, -1, -1, 1}); !reflect.DeepEqual(p.Labels, want) {
		t.Errorf("labels %v, want %v", p.Labels, want)
	}
	// Pairs: ml(0,2) → ml(0,1), ml(4,5) → ml(2,3), cl(0,4) → cl(0,2); cl(1,2) names row 1, dropped.
	want := []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}, {I: 2, J: 3, Kind: constraint.MustLink}, {I: 0, J: 2, Kind: constraint.CannotLink}}
	if p.Constraints == nil || p.Constraints.N != 4 || !reflect.DeepEqual(p.Constraints.Pairs, want) {
		t.Errorf("constraints %+v, want %v on 4 nodes", p.Constraints, want)
	}
	wantWarn := []string{
		filepath.Join(dir, "p.txt") + ": 1 label on rows dropped for missing values (-missing drop): not used",
		filepath.Join(dir, "c.txt") + ": 1 pair on rows dropped for missing values (-missing drop): not used",
	}
	if !reflect.DeepEqual(a.Warnings, wantWarn) {
		t.Errorf("warnings %q, want %q", a.Warnings, wantWarn)
	}
}

// sharedIDTable has 4 data rows, lines 2–5; row 2 (line 4) misses a
// value and is dropped, and its ID, a, repeats that of row 0 (line 2),
// kept: the nodes are rows 0, 1, 3, named a, b, c.
const sharedIDTable = "id,x,y\na,0.1,0.2\nb,0.3,0.4\na,?,0.5\nc,0.8,0.9\n"

// TestDroppedRowSharesAnID: a dropped row whose ID repeats a kept row's.
// Files by index keep numbering the file's rows (they were read as
// numbering the rows kept: row 3 was out of range), with a warning that
// names both rows by their lines; a line keyed by name that names the
// shared ID is an error naming the line and the ID (it labelled the kept
// row, silently), and lines naming other IDs are read. Expected values
// by hand from sharedIDTable.
func TestDroppedRowSharesAnID(t *testing.T) {
	ctx := context.Background()
	d, err := ReadTable(ctx, []byte(sharedIDTable), "s.csv", dataset.Options{Missing: dataset.MissingDrop, IDColumn: "id", Spelling: cliSpelling})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "c"}; !reflect.DeepEqual(d.Names, want) {
		t.Fatalf("Names %q, want %q", d.Names, want)
	}
	wantWarn := `s.csv: the ID "a" of line 4, a row dropped for missing values, repeats that of line 2, a row kept`
	if !slices.ContainsFunc(d.Warnings, func(w string) bool { return strings.HasPrefix(w, wantWarn) }) {
		t.Errorf("warnings %q, want one beginning %q", d.Warnings, wantWarn)
	}
	dir := tempFiles(t, map[string]string{
		"byindex.truth": "node,label\n0,1\n1,1\n2,1\n3,0\n",
		"oneper.truth":  "1\n1\n1\n0\n",
		"byname.truth":  "name,label\nb,1\nc,0\n",
		"shared.truth":  "name,label\nb,1\na,1\nc,0\n",
		"byname.pairs":  "b,c,cl\n",
		"shared.pairs":  "b,c,cl\nc,a,cl\n",
		"shared.labels": "name,label\nb,0\na,1\n",
	})
	for _, tc := range []struct {
		file  string
		truth []int
		err   string
	}{
		// Rows 0, 1, 3 are labelled 1, 1, 0.
		{"byindex.truth", []int{1, 1, 0}, ""},
		{"oneper.truth", []int{1, 1, 0}, ""},
		{"byname.truth", []int{dataset.Unlabeled, 1, 0}, ""},
		{"shared.truth", nil, `shared.truth:3: column 1: value "a": invalid input: node name shared by nodes 0 and 2 of the data (0-based rows), so it cannot say which one it labels (the rows on lines 2 and 4 of s.csv)`},
	} {
		dc := *d
		err := dc.ReadTruth(ctx, filepath.Join(dir, tc.file))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one containing %q", tc.file, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(dc.Truth, tc.truth) {
			t.Errorf("%s: truth %v, %v; want %v", tc.file, dc.Truth, err, tc.truth)
		}
	}
	g, err := graph.FromEdges(3, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	p := &cluster.Problem{Graph: g, K: 2}
	if _, err := (Supervision{Constraints: filepath.Join(dir, "byname.pairs"), Spelling: cliSpelling}).AddTo(ctx, p, d); err != nil {
		t.Fatal(err)
	}
	if want := []constraint.Pair{{I: 1, J: 2, Kind: constraint.CannotLink}}; p.Constraints == nil || !reflect.DeepEqual(p.Constraints.Pairs, want) {
		t.Errorf("constraints %+v, want %v", p.Constraints, want)
	}
	p = &cluster.Problem{Graph: g, K: 2}
	_, err = Supervision{Constraints: filepath.Join(dir, "shared.pairs"), Spelling: cliSpelling}.AddTo(ctx, p, d)
	// The rows by their lines in s.csv, as the warning names them
	// (review 152, 3: it named the 0-based rows 0 and 2).
	if want := `shared.pairs:2: node name "a" is that of the rows on lines 2 and 4 of s.csv, so this line cannot say which one it means`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("shared.pairs: error %v, want one containing %q", err, want)
	}
	p = &cluster.Problem{Graph: g, K: 2}
	_, err = Supervision{Labels: filepath.Join(dir, "shared.labels"), Spelling: cliSpelling}.AddTo(ctx, p, d)
	if want := `shared.labels:3: column 1: value "a": invalid input: node name shared by nodes 0 and 2 of the data (0-based rows), so it cannot say which one it labels (the rows on lines 2 and 4 of s.csv)`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("shared.labels: error %v, want one containing %q", err, want)
	}
}
