package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/input"
)

// TestKindOf: with kind "" (the page's "auto") the extension decides
// when it names a format, else the content: an edge list of numbered
// nodes without a header is a graph, anything else a feature table. A
// .txt edge list (tether gen dcsbm -o dc.txt) was read as a table of
// three-dimensional points, one per edge.
func TestKindOf(t *testing.T) {
	const (
		ext     = "by its extension"
		content = "by its content"
	)
	for _, c := range []struct {
		name, kind, file, content string
		want, how                 string
	}{
		// Edge lists by their content.
		{"edge list with comment", "", "dc.txt", "# 4 nodes, undirected, 0-based: i j weight\n0 1 1\n1 2 1\n2 3 0.5\n", "graph", byContent},
		{"edge list without comment", "", "dc.txt", "0 1 1\n1 2 1\n2 3 0.5\n", "graph", byContent},
		{"two columns", "", "g.txt", "0 1\n1 2\n2 3\n", "graph", byContent},
		{"1-based", "", "g.txt", "1 2\n2 3\n3 1\n", "graph", byContent},
		{"tabs, blank lines, % comments", "", "g.txt", "% edges\n\n0\t1\t2\n\n1\t2\t1e-3\n", "graph", byContent},
		{"commas", "", "g.txt", "0,1,1\n1,2,1\n", "graph", byContent},
		{".dat", "", "g.dat", "0 1\n1 2\n", "graph", byContent},
		{"no extension", "", "edges", "0 1\n1 2\n", "graph", byContent},
		{"no name", "", "", "0 1\n1 2\n", "graph", byContent},
		// Tables by their content.
		{"CSV-like table with header", "", "pts.txt", "x,y,label\n0.5,1.25,0\n3,4,1\n", "features", content},
		{"integer table with header", "", "pts.txt", "a b c\n1 2 3\n4 5 6\n", "features", content},
		{"decimal first column", "", "pts.txt", "0.5 1 2\n1 2 3\n", "features", content},
		{"four columns", "", "pts.txt", "0 1 2 3\n1 2 3 4\n", "features", content},
		{"one column", "", "pts.txt", "0\n1\n", "features", content},
		{"negative integer", "", "pts.txt", "0 1\n-1 2\n", "features", content},
		{"word third column", "", "pts.txt", "0 1 a\n1 2 b\n", "features", content},
		{"named nodes", "", "pts.txt", "a b\nb c\n", "features", content},
		{"empty file", "", "e.txt", "", "features", content},
		{"comments only", "", "e.txt", "# nothing\n", "features", content},
		// The extension decides before the content.
		{".csv edge list", "", "e.csv", "0,1\n1,2\n", "features", ext},
		{".tsv edge list", "", "e.tsv", "0\t1\n1\t2\n", "features", ext},
		{".edges table", "", "g.edges", "a b\nb c\n", "graph", ext},
		{".MTX", "", "g.MTX", "x", "graph", ext},
		// So does the kind.
		{"kind features", "features", "dc.txt", "0 1 1\n1 2 1\n", "features", "kind features"},
		{"kind graph", "graph", "pts.csv", "x,y\n1,2\n", "graph", "kind graph"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := ReadOptions{Name: c.file, Kind: c.kind}
			kind, how, err := o.kindOf(context.Background(), []byte(c.content), "f")
			if err != nil || kind != c.want || how != c.how {
				t.Errorf("kindOf(%q) = %q, %q, %v; want %q, %q", c.content, kind, how, err, c.want, c.how)
			}
		})
	}
	if _, _, err := (ReadOptions{Kind: "tree"}).kindOf(context.Background(), nil, "f"); err == nil || !strings.Contains(err.Error(), `kind "tree"`) {
		t.Errorf("kind tree: error %v, want one naming it", err)
	}
}

// TestEdgeListUpload: the .txt edge list tether gen dcsbm writes (a
// comment line, then "i j w") loads as its graph, uploaded and by file,
// with a note saying how it was read; without the comment line too (it
// loaded as one 3-D point per edge, and with it failed with the table
// reader's "1 fields, want 3" and no hint). Read as a table (kind
// features) it fails with a hint to give kind graph; a table option is
// refused with a hint to give kind features.
func TestEdgeListUpload(t *testing.T) {
	g, p, err := input.GenParams("dcsbm", map[string]string{"n": "200"})
	if err != nil {
		t.Fatal(err)
	}
	gen, err := input.Generate(context.Background(), g, p, 1)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := dataset.WriteEdgeList(&buf, gen.Graph); err != nil {
		t.Fatal(err)
	}
	dc := buf.String()
	comment, rest, _ := strings.Cut(dc, "\n")
	if !strings.HasPrefix(comment, "#") {
		t.Fatalf("first line %q, want tether gen's comment", comment)
	}
	n, edges := gen.Graph.N(), gen.Graph.Stats().Edges
	if first, _, _ := strings.Cut(rest, "\n"); len(strings.Fields(first)) != 3 {
		t.Fatalf("first edge %q, want i j w", first)
	}
	root := t.TempDir()
	for name, content := range map[string]string{"dc.txt": dc, "bare.txt": rest} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := newTest(t, Config{DataRoot: root})
	var info sessionInfo
	callJSON(t, s, "POST", "/api/sessions", nil, &info, http.StatusCreated)
	data := "/api/sessions/" + info.ID + "/data"
	for _, c := range []struct {
		name, query, json, body string
	}{
		{"upload", "name=dc.txt", "", dc},
		{"upload without comment", "name=bare.txt", "", rest},
		{"file", "", `{"file":"dc.txt"}`, ""},
		{"file without comment", "", `{"file":"bare.txt"}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, b := postData(t, s, data, c.json, c.query, c.body)
			var got sessionInfo
			if err := json.Unmarshal(b, &got); code != http.StatusOK || err != nil {
				t.Fatalf("status %d: %s", code, b)
			}
			if got.N != n || got.Edges != edges {
				t.Errorf("n = %d, %d edges; want the graph's %d nodes and %d edges", got.N, got.Edges, n, edges)
			}
			if note := strings.Join(got.Notes, "\n"); !strings.Contains(note, "read as a graph by its content, an edge list") || !strings.Contains(note, "kind features reads it as a feature table") {
				t.Errorf("notes %q, want one saying it was read as an edge list", got.Notes)
			}
		})
	}
	for _, c := range []struct {
		name, query, body, want string
	}{
		{"kind features", "name=dc.txt&kind=features", dc, "dc.txt was read as a feature table (kind features), but its lines look like an edge list: give kind graph to read it as a graph"},
		{"table option", "name=dc.txt&label=last", dc, "option label is an option of a feature table and does not apply to dc.txt, a graph file (by its content, an edge list): give kind features to read it as a feature table"},
		{"bad weight", "name=w.txt", "0 1 1\n1 2 -1\n", "w.txt was read as a graph (by its content, an edge list): kind features reads it as a feature table"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, b := call(t, s, "POST", data+"?"+c.query, "application/octet-stream", []byte(c.body))
			var e errorReply
			if err := json.Unmarshal(b, &e); code != http.StatusBadRequest || err != nil || !strings.Contains(e.Error, c.want) {
				t.Errorf("status %d, %s; want 400 containing %q", code, b, c.want)
			}
		})
	}
	// A table stays one, without the note.
	code, b := call(t, s, "POST", data+"?name=pts.txt", "application/octet-stream", []byte("x y\n0 0\n0 1\n1 0\n5 5\n5 6\n6 5\n"))
	var got sessionInfo
	if err := json.Unmarshal(b, &got); code != http.StatusOK || err != nil || got.N != 6 || strings.Contains(strings.Join(got.Notes, "\n"), "edge list") {
		t.Errorf("table pts.txt: status %d: %s; want 6 points, no edge-list note", code, b)
	}
}
