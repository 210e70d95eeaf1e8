package server

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/input"
)

// weighted is two triangles of weight 250 joined by an edge of weight 20,
// the graph of the job's TestRunNormalizeWeightsAndSelfLoops.
const weighted = "0 1 250\n1 2 250\n0 2 250\n3 4 250\n4 5 250\n3 5 250\n2 3 20\n"

// hasText reports whether some message of list contains s.
func hasText(list []string, s string) bool {
	return slices.ContainsFunc(list, func(m string) bool { return strings.Contains(m, s) })
}

// slWarningsOf returns the warnings of sl clustering the data of the
// session at base (the path /api/sessions/{id}) into 2 with the pairs of
// the job's test: a cannot-link across the triangles of weighted, a
// must-link within one.
func slWarningsOf(t *testing.T, s *Server, base string) []string {
	t.Helper()
	callJSON(t, s, "PUT", base+"/constraints", constraintsBody{Pairs: []pairJSON{{I: 0, J: 5, Kind: "cl"}, {I: 1, J: 2, Kind: "ml"}}}, nil, http.StatusOK)
	var reply ClusterReply
	callJSON(t, s, "POST", base+"/cluster", ClusterRequest{Method: "sl", K: 2, Seed: 1}, &reply, http.StatusOK)
	return reply.Warnings
}

// TestDataNormalizeWeightsAndSelfLoops: the options normalize_weights
// and self_loops of an upload, of a file under -data and of generated
// data act on the session's graph as tether cluster's -normalize-weights
// and -self-loops (input.Data.AdjustWeights, with the same note, naming
// normalize_weights): sl on weights up to 250 warns about their scale
// without the first, naming the remedy as serve's users reach it, and
// not with it; self_loops adds one stored entry per node; a saved
// session loads with them again. Bad values and the server's initial
// data (whose weights are tether serve's flags') are refused (400).
// Uploads used to have no such options: the warning's remedy, tether
// cluster -normalize-weights, was out of reach of serve's users.
func TestDataNormalizeWeightsAndSelfLoops(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "g.edges"), []byte(weighted), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newTest(t, Config{DataRoot: root})
	var created sessionInfo
	callJSON(t, s, "POST", "/api/sessions", nil, &created, http.StatusCreated)
	base := "/api/sessions/" + created.ID
	const warned = "sl: the largest edge weight is 250"
	const noted = "normalize_weights: every weight divided by the largest edge weight, 250"
	const remedy = "load the data again with the option normalize_weights"
	// sl clusters the session's data with the job test's pairs: its
	// warnings.
	slWarnings := func(t *testing.T) []string {
		t.Helper()
		return slWarningsOf(t, s, base)
	}
	// graphOf returns the session's graph: its largest weight between
	// distinct nodes and its stored entries.
	graphOf := func(t *testing.T) (float64, int) {
		t.Helper()
		ss, _ := s.sessions.get(created.ID)
		g := ss.data.Graph
		wmax := 0.0
		for i := range g.N() {
			idx, w := g.Row(i)
			for k, j := range idx {
				if int(j) != i {
					wmax = max(wmax, w[k])
				}
			}
		}
		return wmax, g.NNZ()
	}
	for _, c := range []struct {
		name        string
		query, json string // an upload of weighted with this query, or a JSON request
		normalized  bool
		loops       bool // self_loops 1
	}{
		{"upload", "name=g.edges", "", false, false},
		{"upload normalize_weights", "name=g.edges&normalize_weights=true", "", true, false},
		{"upload self_loops", "name=g.edges&normalize_weights=1&self_loops=1", "", true, true},
		{"file", "", `{"file":"g.edges"}`, false, false},
		{"file normalize_weights", "", `{"file":"g.edges","options":{"normalize_weights":true,"self_loops":1}}`, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, b := postData(t, s, base+"/data", c.json, c.query, weighted)
			if code != http.StatusOK {
				t.Fatalf("status %d: %s", code, b)
			}
			var info sessionInfo
			if err := json.Unmarshal(b, &info); err != nil {
				t.Fatal(err)
			}
			if hasText(info.Notes, noted) != c.normalized {
				t.Errorf("notes %q: the note %q is there %v, want %v", info.Notes, noted, !c.normalized, c.normalized)
			}
			wmax, nnz := graphOf(t)
			wantMax, wantNNZ := 250.0, 14 // 7 edges, stored twice
			if c.normalized {
				wantMax = 1
			}
			if c.loops {
				wantNNZ += 6
			}
			if wmax != wantMax || nnz != wantNNZ {
				t.Errorf("largest weight %v, %d stored entries; want %v, %d", wmax, nnz, wantMax, wantNNZ)
			}
			w := slWarnings(t)
			if hasText(w, warned) == c.normalized {
				t.Errorf("warnings %q: the weight-scale warning is there %v, want %v", w, c.normalized, !c.normalized)
			}
			if !c.normalized && (!hasText(w, remedy) || hasText(w, "tether cluster -normalize-weights")) {
				t.Errorf("warnings %q: want the remedy %q, not tether cluster's flag", w, remedy)
			}
		})
	}
	t.Run("saved session", func(t *testing.T) {
		postData(t, s, base+"/data", "", "name=g.edges&normalize_weights=true&self_loops=1", weighted)
		code, saved := call(t, s, "GET", base+"/save", "", nil)
		if code != http.StatusOK {
			t.Fatalf("save: status %d: %s", code, saved)
		}
		postData(t, s, base+"/data", "", "name=g.edges", weighted)
		var info sessionInfo
		callJSON(t, s, "POST", base+"/load", json.RawMessage(saved), &info, http.StatusOK)
		if wmax, nnz := graphOf(t); !hasText(info.Notes, noted) || wmax != 1 || nnz != 20 {
			t.Errorf("loaded: notes %q, largest weight %v, %d stored entries; want the note, 1 and 20", info.Notes, wmax, nnz)
		}
	})
	t.Run("generated", func(t *testing.T) {
		code, b := postData(t, s, base+"/data", `{"generate":{"name":"sbm","seed":1,"params":{"n":40}},"options":{"normalize_weights":true,"self_loops":0.5}}`, "", "")
		if code != http.StatusOK {
			t.Fatalf("status %d: %s", code, b)
		}
		ss, _ := s.sessions.get(created.ID)
		if w := ss.data.Graph.Weight(0, 0); w != 0.5 {
			t.Errorf("self loop of node 0: %v, want 0.5", w)
		}
	})
	for _, c := range []struct {
		name, query, json, want string
	}{
		{"negative self_loops", "name=g.edges&self_loops=-1", "", "self_loops = -1, want a weight in [0, 1e+12]"},
		{"huge self_loops", "", `{"file":"g.edges","options":{"self_loops":1e13}}`, "self_loops = 1e+13, want a weight in [0, 1e+12]"},
		{"NaN self_loops", "name=g.edges&self_loops=NaN", "", "self_loops = NaN"},
		{"self_loops not a number", "name=g.edges&self_loops=much", "", `self_loops="much" is not a number`},
		{"normalize_weights not a boolean", "name=g.edges&normalize_weights=maybe", "", `normalize_weights="maybe" is not a boolean`},
		{"repeated", "name=g.edges&self_loops=1&self_loops=2", "", "query parameter self_loops given 2 times"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, b := postData(t, s, base+"/data", c.json, c.query, weighted)
			var e errorReply
			if err := json.Unmarshal(b, &e); code != http.StatusBadRequest || err != nil || !strings.Contains(e.Error, c.want) {
				t.Errorf("status %d, %s; want 400 containing %q", code, b, c.want)
			}
		})
	}
}

// TestInitialDataWeights: the server's initial data take tether serve's
// -normalize-weights and -self-loops: the options normalize_weights and
// self_loops are refused with them (a saved session's source is checked
// as a request is), and the weight-scale warning names tether serve's
// flag as its remedy, not tether cluster's.
func TestInitialDataWeights(t *testing.T) {
	ctx := context.Background()
	initial, err := input.ReadGraph(ctx, []byte(weighted), "g.edges", dataset.GraphOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := newTest(t, Config{Initial: initial, InitialSource: Source{Initial: true}})
	var created sessionInfo
	callJSON(t, s, "POST", "/api/sessions", nil, &created, http.StatusCreated)
	base := "/api/sessions/" + created.ID
	if w := slWarningsOf(t, s, base); !hasText(w, "(restart tether serve with -normalize-weights; library: graph.Graph.Normalized)") || hasText(w, "tether cluster") {
		t.Errorf("warnings %q: want the remedy of tether serve's flag", w)
	}
	for opt, flag := range map[string]string{`"normalize_weights":true`: "-normalize-weights", `"self_loops":1`: "-self-loops"} {
		load := `{"tether_session":1,"source":{"initial":true,"options":{` + opt + `}}}`
		code, b := call(t, s, "POST", base+"/load", "application/json", []byte(load))
		if want := "does not apply to the server's initial data: their weights are those of tether serve's flags (" + flag + ")"; code != http.StatusBadRequest || !strings.Contains(string(b), want) {
			t.Errorf("load %s: status %d, %s; want 400 containing %q", opt, code, b, want)
		}
	}
}

// TestUploadScaleWarning: a feature table uploaded with a column of
// values like 1e-200 beside columns of order 1, which the distances
// ignore, loads with a warning naming the column and serve's remedy, the
// option scale minmax; uploaded with scale=minmax, without it
// (input.Data.ScaleWarning gives the rule).
func TestUploadScaleWarning(t *testing.T) {
	s := newTest(t, Config{})
	var created sessionInfo
	callJSON(t, s, "POST", "/api/sessions", nil, &created, http.StatusCreated)
	const table = "x,y,tiny\n0,0,0\n0.1,0,1e-200\n0,0.1,2e-200\n0.1,0.1,0\n5,5,1e-200\n5.1,5,0\n5,5.1,3e-200\n5.1,5.1,0\n"
	const want = `t.csv: column "tiny" varies by 3e-200, less than 2⁻²⁶ times the 5.1 of column "x" (max − min)`
	const remedy = "; the option scale minmax (docs/api.md) scales every column onto [0, 1]"
	for _, c := range []struct {
		query  string
		warned bool
	}{{"name=t.csv", true}, {"name=t.csv&scale=minmax", false}} {
		t.Run(c.query, func(t *testing.T) {
			code, b := postData(t, s, "/api/sessions/"+created.ID+"/data", "", c.query, table)
			var info sessionInfo
			if err := json.Unmarshal(b, &info); code != http.StatusOK || err != nil {
				t.Fatalf("status %d, %v: %s", code, err, b)
			}
			warned := slices.ContainsFunc(info.Warnings, func(w string) bool { return strings.HasPrefix(w, want) && strings.HasSuffix(w, remedy) })
			if warned != c.warned {
				t.Errorf("warnings %q: the warning %q is there %v, want %v", info.Warnings, want, warned, c.warned)
			}
		})
	}
}

// TestSavedSessionKeepsScale: a feature table uploaded with the options
// scale, normalize_weights and self_loops (the page's "scale" box,
// "normalize weights" box and "self loops" field) is saved with them,
// and a saved session loads with them again: its columns scaled onto
// [0, 1] (no warning on the column of 1e-200), its weights divided by
// the largest (the note) and its self loops added.
func TestSavedSessionKeepsScale(t *testing.T) {
	s := newTest(t, Config{})
	var created sessionInfo
	callJSON(t, s, "POST", "/api/sessions", nil, &created, http.StatusCreated)
	base := "/api/sessions/" + created.ID
	const table = "x,y,tiny\n0,0,0\n0.1,0,1e-200\n0,0.1,2e-200\n0.1,0.1,0\n5,5,1e-200\n5.1,5,0\n5,5.1,3e-200\n5.1,5.1,0\n"
	const tiny, noted = `column "tiny" varies by`, "normalize_weights: every weight divided by the largest edge weight"
	if code, b := postData(t, s, base+"/data", "", "name=t.csv&scale=minmax&normalize_weights=true&self_loops=0.5", table); code != http.StatusOK {
		t.Fatalf("upload: status %d: %s", code, b)
	}
	code, saved := call(t, s, "GET", base+"/save", "", nil)
	if code != http.StatusOK {
		t.Fatalf("save: status %d: %s", code, saved)
	}
	var doc savedSession
	if err := json.Unmarshal(saved, &doc); err != nil {
		t.Fatal(err)
	}
	if o := doc.Source.Options; o.Scale != "minmax" || !o.NormalizeWeights || o.SelfLoops != 0.5 {
		t.Errorf("saved options %+v: want scale minmax, normalize_weights and self_loops 0.5", o)
	}
	// Other data in between, then the saved session.
	if code, b := postData(t, s, base+"/data", "", "name=t.csv", table); code != http.StatusOK {
		t.Fatalf("upload: status %d: %s", code, b)
	}
	var info sessionInfo
	callJSON(t, s, "POST", base+"/load", json.RawMessage(saved), &info, http.StatusOK)
	ss, _ := s.sessions.get(created.ID)
	d := ss.data
	if hasText(info.Warnings, tiny) || !hasText(info.Notes, noted) {
		t.Errorf("loaded: warnings %q, notes %q: want no warning on the tiny column, the note %q", info.Warnings, info.Notes, noted)
	}
	for j := range 3 {
		lo, hi := d.X.At(0, j), d.X.At(0, j)
		for i := range d.X.RawMatrix().Rows {
			lo, hi = min(lo, d.X.At(i, j)), max(hi, d.X.At(i, j))
		}
		if lo != 0 || hi != 1 {
			t.Errorf("loaded: column %d spans [%g, %g], want [0, 1] (minmax)", j, lo, hi)
		}
	}
	if w := d.Graph.Weight(0, 0); w != 0.5 {
		t.Errorf("loaded: self loop of node 0 weighs %g, want 0.5", w)
	}
}
