package server

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tether-sc/tether/internal/inputkind"
)

// TestReadOptionsApply: a reader option that does not apply to the kind of
// file loaded is refused with a 400 naming the option and the kind, as
// tether cluster refuses -delim with -graph-file (the feature table's
// options were ignored for a graph file, gml_label and symmetrize for a
// feature table, and every option for generated data); so are unknown and
// repeated query parameters of an upload (ignored, or all values but one).
func TestReadOptionsApply(t *testing.T) {
	root := t.TempDir()
	// A ring of 6 nodes, and 6 points in two groups.
	const ring = "0 1\n1 2\n2 3\n3 4\n4 5\n5 0\n"
	const pts = "x,y\n0,0\n0,1\n1,0\n5,5\n5,6\n6,5\n"
	// R's NA among the numbers (write.csv's missing value).
	const na = "x,y\n0,0\n0,NA\n1,0\n5,5\n5,NA\n6,5\n"
	for name, content := range map[string]string{"g.edges": ring, "pts.csv": pts, "na.csv": na} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := newTest(t, Config{DataRoot: root})
	id := newSession(t, s, 100)
	data := "/api/sessions/" + id + "/data"
	const tableOpt = "is an option of a feature table and does not apply to "
	const graphOpt = "is an option of a graph file and does not apply to "
	for _, c := range []struct {
		name  string
		query string // an upload with this query, or
		json  string // a JSON request
		body  string
		want  string // "" for a success
	}{
		// The feature table's options with a graph file.
		{"label, graph", "name=g.edges&label=last", "", ring, "option label " + tableOpt + "g.edges, a graph file (by its extension): gml_label names the GML node attribute holding the labels"},
		{"id, graph", "name=g.edges&id=first", "", ring, "option id " + tableOpt + "g.edges, a graph file (by its extension)"},
		{"delim, graph", "name=g.edges&delim=%3B", "", ring, "option delim " + tableOpt + "g.edges, a graph file (by its extension)"},
		{"header, graph", "name=g.edges&header=no", "", ring, "option header " + tableOpt + "g.edges"},
		{"scale, graph", "name=g.edges&scale=zscore", "", ring, "option scale " + tableOpt + "g.edges"},
		{"missing, graph", "name=g.edges&missing=drop", "", ring, "option missing " + tableOpt + "g.edges"},
		{"missing_markers, graph", "name=g.edges&missing_markers=NA", "", ring, "option missing_markers " + tableOpt + "g.edges"},
		{"file, missing_markers, graph", "", `{"file":"g.edges","options":{"missing_markers":["NA"]}}`, "", "option missing_markers " + tableOpt + "g.edges"},
		{"generate, missing_markers", "", `{"generate":{"name":"moons","params":{"n":100}},"options":{"missing_markers":["NA"]}}`, "", "option missing_markers is an option of a file and does not apply to generated data"},
		// The markers reach the reader: NA is refused without them, a
		// number among them is refused, with them NA is a missing value.
		{"NA without missing_markers", "name=na.csv&missing=impute", "", na, `"NA" looks like a missing value, which is written ? or left empty: write it so, or list it among the markers of missing values (serve: option missing_markers NA; library: Options.MissingMarkers)`},
		{"file, NA without missing_markers", "", `{"file":"na.csv","options":{"missing":"impute"}}`, "", `(serve: option missing_markers NA; library: Options.MissingMarkers)`},
		{"missing_markers, a number", "name=na.csv&missing=impute&missing_markers=NA,-1", "", na, `missing_markers: marker "-1" is a number: every field -1, in every column, would be read as missing`},
		{"file, missing_markers, a number", "", `{"file":"na.csv","options":{"missing":"impute","missing_markers":["NA","0"]}}`, "", `missing_markers: marker "0" is a number`},
		{"missing_markers, NA listed, rejecting", "name=na.csv&missing_markers=NA", "", na, `value "NA": missing value: impute it (its column's mean or most frequent value) or drop its row (serve: option missing impute or option missing drop;`},
		{"missing_markers, NULL listed", "name=na.csv&missing=impute&missing_markers=NULL", "", na, `"NA" looks like a missing value, which the markers of missing values do not list: list it (serve: option missing_markers NULL,NA; library: Options.MissingMarkers)`},
		{"header, kind graph", "name=g.txt&kind=graph&header=yes", "", ring, "option header " + tableOpt + "g.txt, a graph file (kind graph)"},
		{"file, scale, graph", "", `{"file":"g.edges","options":{"scale":"zscore"}}`, "", "option scale " + tableOpt + "g.edges, a graph file (by its extension)"},
		// The graph file's options with a feature table.
		{"gml_label, table", "name=pts.csv&gml_label=club", "", pts, "option gml_label " + graphOpt + "pts.csv, a feature table (by its extension): give kind graph to read it as a graph"},
		{"symmetrize, table", "name=pts.csv&symmetrize=true", "", pts, "option symmetrize " + graphOpt + "pts.csv, a feature table (by its extension): give kind graph"},
		{"symmetrize, kind features", "name=pts.txt&kind=features&symmetrize=1", "", pts, "option symmetrize " + graphOpt + "pts.txt, a feature table (kind features)"},
		{"file, gml_label, table", "", `{"file":"pts.csv","options":{"gml_label":"club"}}`, "", "option gml_label " + graphOpt + "pts.csv, a feature table (by its extension)"},
		// An ARFF file is a feature table whose fields and names its
		// format fixes: the reader refuses delim and header.
		{"delim, arff", "name=x.arff&delim=%3B", "", "@relation r\n@attribute a numeric\n@data\n1\n2\n3\n", `x.arff: invalid input: Options.Delimiter ";" does not apply to an ARFF file`},
		// Options with generated data.
		{"generate, label", "", `{"generate":{"name":"moons","params":{"n":100}},"options":{"label":"last"}}`, "", "option label is an option of a file and does not apply to generated data"},
		{"generate, kind and symmetrize", "", `{"generate":{"name":"moons","params":{"n":100}},"options":{"kind":"graph","symmetrize":true}}`, "", "options kind, symmetrize are options of a file and do not apply to generated data"},
		// The query of an upload.
		{"misspelt option", "name=pts.csv&lable=last", "", pts, `unknown query parameter "lable" (the options are name, kind, label, id, delim, header, scale, missing, missing_markers, gml_label, symmetrize, normalize_weights, self_loops)`},
		{"repeated option", "name=pts.csv&scale=zscore&scale=none", "", pts, "query parameter scale given 2 times"},
		// The options of the kind read are accepted; symmetrize=false is
		// the default, which applies to every file.
		{"graph options, graph", "name=g.edges&symmetrize=true", "", ring, ""},
		{"table options, table", "name=pts.csv&delim=,&header=yes&scale=zscore&missing=reject&id=&label=none", "", pts, ""},
		{"symmetrize false, table", "name=pts.csv&symmetrize=false", "", pts, ""},
		{"file, graph options", "", `{"file":"g.edges","options":{"symmetrize":true}}`, "", ""},
		{"file, table options", "", `{"file":"pts.csv","options":{"header":"yes","delim":","}}`, "", ""},
		{"missing_markers, NA listed", "name=na.csv&missing=impute&missing_markers=NA", "", na, ""},
		{"missing_markers, NA listed with ? and empty", "name=na.csv&missing=impute&missing_markers=NA,?,", "", na, ""},
		{"file, missing_markers, NA listed", "", `{"file":"na.csv","options":{"missing":"impute","missing_markers":["NA"]}}`, "", ""},
		{"generate, no options", "", `{"generate":{"name":"moons","params":{"n":100}},"options":{}}`, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, b := postData(t, s, data, c.json, c.query, c.body)
			if c.want == "" {
				if code != http.StatusOK {
					t.Fatalf("status %d, want 200: %s", code, b)
				}
				return
			}
			var e errorReply
			if err := json.Unmarshal(b, &e); code != http.StatusBadRequest || err != nil || !strings.Contains(e.Error, c.want) {
				t.Errorf("status %d, error %s; want 400 containing %q", code, b, c.want)
			}
		})
	}
	// Every option applies to one of the two kinds of file, as the flag
	// of tether cluster of the same meaning does (inputkind), and the
	// JSON field of each is the option's name.
	fields := map[string]bool{}
	rt := reflect.TypeFor[ReadOptions]()
	for i := range rt.NumField() {
		fields[strings.Split(rt.Field(i).Tag.Get("json"), ",")[0]] = true
	}
	for _, r := range readOptions {
		k, ok := inputkind.Of(r.flag)
		if !ok || (k&inputkind.Table != 0) == (k&inputkind.GraphFile != 0) {
			t.Errorf("option %s (-%s): kinds %b, want a feature table's or a graph file's", r.name, r.flag, k)
		}
		if !fields[r.name] {
			t.Errorf("option %s: no such JSON field of ReadOptions", r.name)
		}
		delete(fields, r.name)
	}
	delete(fields, "name") // they apply to every file
	delete(fields, "kind")
	// The weight options apply to every kind of data, as the flags of
	// the same meaning do.
	for _, r := range weightOptions {
		if k, _ := inputkind.Of(r.flag); k != inputkind.Data {
			t.Errorf("option %s (-%s): kinds %b, want every kind of data", r.name, r.flag, k)
		}
		if !fields[r.name] {
			t.Errorf("option %s: no such JSON field of ReadOptions", r.name)
		}
		delete(fields, r.name)
	}
	for f := range fields {
		t.Errorf("ReadOptions.%s: not in readOptions: say which kind of file it applies to", f)
	}
	// A saved session's source is checked as a request is.
	load := `{"tether_session":1,"source":{"generate":{"name":"moons","params":{"n":100}},"options":{"delim":";"}}}`
	code, b := call(t, s, "POST", "/api/sessions/"+id+"/load", "application/json", []byte(load))
	if want := "option delim is an option of a file and does not apply to generated data"; code != http.StatusBadRequest || !strings.Contains(string(b), want) {
		t.Errorf("load: status %d, %s; want 400 containing %q", code, b, want)
	}
}

// postData posts to the data endpoint path a JSON request when js is not
// empty, else an upload of body with the query parameters query, and
// returns the status and the reply.
func postData(t *testing.T, s *Server, path, js, query, body string) (int, []byte) {
	t.Helper()
	if js != "" {
		return call(t, s, "POST", path, "application/json", []byte(js))
	}
	return call(t, s, "POST", path+"?"+query, "application/octet-stream", []byte(body))
}
