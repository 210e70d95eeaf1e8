package server

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/graph"
)

// TestRepliesSeparateNotes checks that the data reply and the cluster
// reply carry the documented choices in "notes" and the conditions in
// "warnings": an uploaded table's names column is a note and its small
// size a warning; auto's cross-validated choice is a note.
func TestRepliesSeparateNotes(t *testing.T) {
	s := newTest(t, Config{})
	var info sessionInfo
	callJSON(t, s, "POST", "/api/sessions", nil, &info, http.StatusCreated)
	base := "/api/sessions/" + info.ID
	code, b := call(t, s, "POST", base+"/data?name=pts.csv", "text/csv", []byte("name,x,y\nann,0,0\nbob,0,1\ncid,1,0\ndan,5,5\neve,5,6\nfay,6,5\n"))
	if code != http.StatusOK {
		t.Fatalf("upload: %d %s", code, b)
	}
	callJSON(t, s, "GET", base, nil, &info, http.StatusOK)
	has := func(list []string, sub string) bool {
		return slices.ContainsFunc(list, func(m string) bool { return strings.Contains(m, sub) })
	}
	const names, small = `column "name" has a different text on every row`, "pts.csv has only 6 rows"
	if !has(info.Notes, names) || has(info.Warnings, names) || !has(info.Warnings, small) || has(info.Notes, small) {
		t.Errorf("notes %q, warnings %q: want the names column a note, the small table a warning", info.Notes, info.Warnings)
	}

	id := newSession(t, s, 120)
	var pairs []map[string]any
	for i := 0; i < 24; i++ {
		// Nodes 4i and 4i + 2: must-links alone never contradict each
		// other, whatever the classes of their ends.
		pairs = append(pairs, map[string]any{"i": 4 * i, "j": 4*i + 2, "kind": "ml"})
	}
	callJSON(t, s, "PUT", "/api/sessions/"+id+"/constraints", map[string]any{"pairs": pairs}, nil, http.StatusOK)
	var reply ClusterReply
	callJSON(t, s, "POST", "/api/sessions/"+id+"/cluster", map[string]any{"method": "auto", "k": 2, "seed": 1}, &reply, http.StatusOK)
	if !has(reply.Notes, "auto: chose ") || has(reply.Warnings, "auto: chose ") {
		t.Errorf("auto: notes %q, warnings %q: want its choice among the notes", reply.Notes, reply.Warnings)
	}
}

// TestInitialDataMessages checks that the warnings and notes of the
// server's own data (tether serve -input, Config.Initial), which tether
// serve prints on standard error when it loads them, are in the reply of
// session creation, which the page shows at start, and of GET
// /api/sessions/{id}: the small table a warning, its names column a note.
func TestInitialDataMessages(t *testing.T) {
	initial, err := readData(context.Background(), []byte("name,x,y\nann,0,0\nbob,0,1\ncid,1,0\ndan,5,5\neve,5,6\nfay,6,5\n"), ReadOptions{Name: "pts.csv"}, graph.DefaultSpec(), 200000, 1000000, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(initial.Warnings) == 0 || len(initial.Notes) == 0 {
		t.Fatalf("warnings %q, notes %q: want both, or the test shows nothing", initial.Warnings, initial.Notes)
	}
	s := newTest(t, Config{Initial: initial, InitialSource: Source{Initial: true}})
	var created, got sessionInfo
	callJSON(t, s, "POST", "/api/sessions", nil, &created, http.StatusCreated)
	callJSON(t, s, "GET", "/api/sessions/"+created.ID, nil, &got, http.StatusOK)
	for what, info := range map[string]sessionInfo{"POST /api/sessions": created, "GET /api/sessions/{id}": got} {
		if info.N != 6 || !slices.Equal(info.Warnings, initial.Warnings) || !slices.Equal(info.Notes, initial.Notes) {
			t.Errorf("%s: n = %d, warnings %q, notes %q; want 6 nodes, warnings %q, notes %q", what, info.N, info.Warnings, info.Notes, initial.Warnings, initial.Notes)
		}
	}
}

// TestUploadSpelledMessages: the notes and warnings of reading an
// uploaded table name the options as the upload spells them (spelling:
// the options label, id and missing) and never tether cluster's flags,
// which the page has not; the graph's -knn and -sigma, the operator's,
// are not suggested to the uploader.
func TestUploadSpelledMessages(t *testing.T) {
	s := newTest(t, Config{})
	const small = "has only 6 rows: the graph was built with K = 5 neighbours (the default is 10) and σ_i the distance to the 5th nearest other row (the default is local:7)"
	for _, c := range []struct {
		query, content, msg string
	}{
		{"name=classes.csv", "x,z,label,class\n0,0,a,1\n0,1,a,2\n1,0,a,3\n5,5,b,4\n5,6,b,5\n6,5,b,6\n",
			`column "label" is the reference labels, not a feature (serve: option label none makes it a feature; library: Options.LabelColumn "none"); "class" stays a feature (serve: option label class takes it instead)`},
		{"name=names.csv", "name,x,y\nann,0,0\nbob,0,1\ncid,1,0\ndan,5,5\neve,5,6\nfay,6,5\n",
			`column "name" has a different text on every row: read as the names of the rows, not a feature (option id name says so; library: Options.Categorical one-hot encodes it)`},
		{"name=color.csv", "x,y,color\n0,0,red\n0,1,red\n1,0,blue\n5,5,blue\n5,6,red\n6,5,blue\n",
			`column "color": 2 categories one-hot encoded into 2 features (deleting the column from the file leaves it out)`},
		{"name=gaps.csv&missing=drop", "x,y\n0,0\n0,1\n1,0\n?,3\n5,5\n5,6\n6,5\n",
			"dropped 1 of 7 rows with missing values (serve: option missing drop; library: Options.Missing = MissingDrop): line 5"},
	} {
		t.Run(c.query, func(t *testing.T) {
			var info sessionInfo
			callJSON(t, s, "POST", "/api/sessions", nil, &info, http.StatusCreated)
			base := "/api/sessions/" + info.ID
			if code, b := call(t, s, "POST", base+"/data?"+c.query, "text/csv", []byte(c.content)); code != http.StatusOK {
				t.Fatalf("upload: %d %s", code, b)
			}
			callJSON(t, s, "GET", base, nil, &info, http.StatusOK)
			msgs := slices.Concat(info.Notes, info.Warnings)
			for _, want := range []string{c.msg, small} {
				if !slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, want) }) {
					t.Errorf("notes and warnings %q, want one with %q", msgs, want)
				}
			}
			for _, m := range msgs {
				if strings.Contains(m, "tether: -") || strings.Contains(m, "(-") || strings.Contains(m, "; -") {
					t.Errorf("%q names tether's flags", m)
				}
			}
		})
	}
}
