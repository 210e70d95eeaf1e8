package input

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/graph"
)

// spellings are tether's (the zero value), a job's and the web app's, as
// job.Spelling and internal/server give them (their own tests check
// theirs through job.Run and an upload).
var spellings = map[string]dataset.Spelling{
	"cli": {},
	"job": {Front: "job", Style: dataset.StyleJSON, Label: "label", KNN: "knn"},
	"web": {Front: "serve", Style: dataset.StyleOption, Label: "label", ID: "id", Missing: "missing"},
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
// that read the table spells the option.
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
		s := Supervision{Labels: filepath.Join(dir, "p.txt"), Constraints: filepath.Join(dir, "c.txt")}
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
