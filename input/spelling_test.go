package input

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/graph"
)

// spellings are tether's command line's (cmd/tether's cliSpelling), a
// job's and the web app's, as job.Spelling and internal/server give them
// (their own tests check theirs through job.Run and an upload). The zero
// value, a library user's, names the Go options only.
// cliSpelling is the spelling of tether's command line.
var cliSpelling = dataset.Spelling{Front: "tether", CommandLine: true}

var spellings = map[string]dataset.Spelling{
	"cli": cliSpelling,
	"job": {Front: "job", Style: dataset.StyleJSON, Label: "label", KNN: "knn", Constraints: "constraints", PartialLabels: "labels"},
	"web": {Front: "serve", Style: dataset.StyleOption, Label: "label", ID: "id", Missing: "missing",
		Delim: "delim", Header: "header", Symmetrize: "symmetrize", GMLLabel: "gml_label",
		NodeLimit: "this server's limit", Outputs: "the labels export"},
}

// TestSpelledReadMessages checks the notes of ReadTable that suggest an
// option, and FitSpec's warning, as each front end spells the options:
// tether's wording is unchanged, the others name no flag.
func TestSpelledReadMessages(t *testing.T) {
	const (
		classes = "x,z,label,class\n0,0,a,1\n0,1,a,2\n5,5,b,3\n5,6,b,4\n"
		names   = "name,x\nann,0\nbob,1\ncid,5\ndan,6\n"
	)
	for _, c := range []struct {
		name, content string
		want          map[string]string
	}{
		{"class column", classes, map[string]string{
			"cli": `"label" is the reference labels, not a feature (tether: -label none makes it a feature; library: Options.LabelColumn "none"); "class" stays a feature (tether: -label class takes it instead)`,
			"job": `"label" is the reference labels, not a feature (job: "label": "none" makes it a feature; library: Options.LabelColumn "none"); "class" stays a feature (job: "label": "class" takes it instead)`,
			"web": `"label" is the reference labels, not a feature (serve: option label none makes it a feature; library: Options.LabelColumn "none"); "class" stays a feature (serve: option label class takes it instead)`,
		}},
		{"names column", names, map[string]string{
			"cli": `column "name" has a different text on every row: read as the names of the rows, not a feature (-id name says so; -categorical 1 one-hot encodes it)`,
			"job": `column "name" has a different text on every row: read as the names of the rows, not a feature (library: Options.Categorical one-hot encodes it)`,
			"web": `column "name" has a different text on every row: read as the names of the rows, not a feature (option id name says so; library: Options.Categorical one-hot encodes it)`,
		}},
	} {
		for front, sp := range spellings {
			t.Run(c.name+"/"+front, func(t *testing.T) {
				d, err := ReadTable(context.Background(), []byte(c.content), "t.csv", dataset.Options{Spelling: sp})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.ContainsFunc(d.Notes, func(n string) bool { return strings.Contains(n, c.want[front]) }) {
					t.Errorf("notes %q, want one with %q", d.Notes, c.want[front])
				}
			})
		}
	}
	fit := map[string]string{
		"cli": "t has only 6 rows: the graph was built with K = 5 neighbours (-knn 5; the default is 10) and σ_i the distance to the 5th nearest other row (-sigma local:5; the default is local:7)",
		"job": `t has only 6 rows: the graph was built with K = 5 neighbours ("knn": 5; the default is 10) and σ_i the distance to the 5th nearest other row (the default is local:7)`,
		"web": "t has only 6 rows: the graph was built with K = 5 neighbours (the default is 10) and σ_i the distance to the 5th nearest other row (the default is local:7)",
	}
	for front, sp := range spellings {
		if _, got := FitSpec(graph.DefaultSpec(), "t", 6, false, false, sp); got != fit[front] {
			t.Errorf("%s: FitSpec's warning %q, want %q", front, got, fit[front])
		}
	}
}

// TestSpelledDroppedSideRows checks Supervision.AddTo's warnings on
// labels and pairs of rows that -missing drop dropped, as the front end
// that reads the table and adds the supervision spells the option
// (Supervision.Spelling).
func TestSpelledDroppedSideRows(t *testing.T) {
	ctx := context.Background()
	dir := tempFiles(t, map[string]string{"p.txt": "0,0\n3,1\n5,1\n", "c.txt": "0,2,ml\n1,2,cl\n"})
	by := map[string]string{
		"cli": " (-missing drop)",
		"job": " (library: Options.Missing = MissingDrop)",
		"web": " (option missing drop)",
	}
	for front, sp := range spellings {
		d, err := ReadTable(ctx, []byte(droppedTable), "m.csv", dataset.Options{Missing: dataset.MissingDrop, Spelling: sp})
		if err != nil {
			t.Fatal(err)
		}
		g, err := graph.FromEdges(4, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 1}, {I: 2, J: 3, W: 1}})
		if err != nil {
			t.Fatal(err)
		}
		s := Supervision{Labels: filepath.Join(dir, "p.txt"), Constraints: filepath.Join(dir, "c.txt"), Spelling: sp}
		a, err := s.AddTo(ctx, &cluster.Problem{Graph: g, K: 2}, d)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{
			filepath.Join(dir, "p.txt") + ": 1 label on rows dropped for missing values" + by[front] + ": not used",
			filepath.Join(dir, "c.txt") + ": 1 pair on rows dropped for missing values" + by[front] + ": not used",
		}
		if !slices.Equal(a.Warnings, want) {
			t.Errorf("%s: warnings %q, want %q", front, a.Warnings, want)
		}
	}
}

// TestSpelledRowNumbersNote checks the note on the rows of a table with
// dropped rows, named by their row numbers, as each front end names its
// outputs and side files: tether cluster -o and tether labels, and
// -truth, -constraints and -partial-labels (the wording the command
// line's tests pin); a job's labels, which list the rows kept by line,
// and its fields constraints and labels; the web app's labels export.
func TestSpelledRowNumbersNote(t *testing.T) {
	const head = "m.csv: the 4 rows kept are named by their 0-based row numbers among the file's 6 data rows (0…5, with gaps): "
	want := map[string]string{
		"cli": head + "tether cluster -o and tether labels write those numbers, and node numbers in -truth, -constraints and -partial-labels files mean the same rows",
		"job": head + `the labels written for the nodes list the rows kept, in this order, and node numbers in "constraints" and "labels" files mean the same rows`,
		"web": head + "the labels export writes those numbers",
	}
	for front, sp := range spellings {
		d, err := ReadTable(context.Background(), []byte(droppedTable), "m.csv", dataset.Options{Missing: dataset.MissingDrop, Spelling: sp})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(d.Notes, want[front]) {
			t.Errorf("%s: notes %q, want %q", front, d.Notes, want[front])
		}
	}
}

// TestReadCatalogSpelled reads a catalog data set whose reading drops
// rows (hepatitis: Missing = MissingDrop) with each front end's
// spelling: the dropped-rows warning and the note on the rows' numbers
// name the front end's options, and ReadCatalogContext, with the zero
// spelling, a library user's, names the Go options only.
func TestReadCatalogSpelled(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "hepatitis"), 0o755); err != nil {
		t.Fatal(err)
	}
	rows := "DIE_LIVE,AGE,ALBUMIN\n2,30,4.0\n2,50,?\n1,78,3.5\n2,31,4.1\n1,34,?\n1,60,2.9\n"
	if err := os.WriteFile(filepath.Join(root, "hepatitis", "hepatitis.data"), []byte(rows), 0o600); err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{
		"cli": {"(tether: -missing drop; library: Options.Missing = MissingDrop)", "tether cluster -o and tether labels write those numbers"},
		"job": {"(library: Options.Missing = MissingDrop)", `node numbers in "constraints" and "labels" files mean the same rows`},
		"web": {"(serve: option missing drop; library: Options.Missing = MissingDrop)", "the labels export writes those numbers"},
	}
	for front, sp := range spellings {
		d, err := ReadCatalogSpelled(context.Background(), "hepatitis", root, sp)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "dropped 2 of 6 rows with missing values "+want[front][0]) || len(d.Notes) != 1 || !strings.Contains(d.Notes[0], want[front][1]) {
			t.Errorf("%s: warnings %q, notes %q: want %q", front, d.Warnings, d.Notes, want[front])
		}
	}
	d, err := ReadCatalogContext(context.Background(), "hepatitis", root)
	if err != nil {
		t.Fatal(err)
	}
	if lib := "(library: Options.Missing = MissingDrop)"; len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], lib) || strings.Contains(d.Warnings[0], "tether") {
		t.Errorf("ReadCatalogContext: warnings %q, want the library's %q", d.Warnings, lib)
	}
}

// TestSpelledLabelsFileAsConstraints: a labels file given as the
// constraints (review 95: tether cluster -constraints moons.truth said
// "give the kind: node,label,ml") is named as one, with the front end's
// options for labels: tether's -partial-labels and -truth, a job's
// "labels", none for the web app (which reads no constraint file).
func TestSpelledLabelsFileAsConstraints(t *testing.T) {
	g := twoTriangles(t)
	dir := tempFiles(t, map[string]string{"t.csv": "node,label\n0,0\n1,0\n2,0\n3,1\n4,1\n5,1\n"})
	const labelsFile = `t.csv:1: want i,j,kind[,weight], got 2 fields "node,label": this is a labels file (node,label lines: each node's class), not pairwise constraints`
	want := map[string]string{
		"cli": labelsFile + "; give it as -partial-labels (the known classes of some nodes) or -truth (the reference labels)",
		"job": labelsFile + `; give it as "labels" (the known classes of some nodes)`,
		"web": labelsFile,
	}
	for front, sp := range spellings {
		t.Run(front, func(t *testing.T) {
			p := &cluster.Problem{Graph: g, K: 2}
			_, err := Supervision{Constraints: filepath.Join(dir, "t.csv"), Spelling: sp}.AddTo(context.Background(), p, &Data{Name: "g", Graph: g})
			if err == nil || !strings.HasSuffix(err.Error(), want[front]) {
				t.Errorf("err %v, want it to end with %q", err, want[front])
			}
			if !errors.Is(err, constraint.ErrLabelsFile) {
				t.Errorf("err %v does not wrap constraint.ErrLabelsFile", err)
			}
		})
	}
}
