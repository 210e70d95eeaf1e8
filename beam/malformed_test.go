package tetherbeam

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tether-sc/tether/job"
)

// TestMalformedLinePlace: the result of a manifest line that is not a
// job names its file and line (counted by hand on the manifest written
// here), in the error (file:line:column) and in the fields manifest and
// line, as CheckBatch's warning does; the fields are absent from the
// result of a valid line. Run without a pipeline: runJobFn alone.
func TestMalformedLinePlace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.jsonl")
	lines := []string{
		"# jobs",
		`{"id":"a","gen":"moons","gen_params":{"n":"30"},"k":2}`,
		``,
		`{"id":"b","gen":"moons","k":"2"}`,
		`  {"id":"c","gen":"moons",}`,
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\r\n")+"\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	warnings, err := CheckManifest(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		id, err string
		line    int
	}{
		{"a", "", 0},
		{"b", path + `:4:29: job: bad spec: field "k": want an integer, got a string`, 4},
		{"", path + `:5:27: job: bad spec: unexpected '}': want a field name in double quotes`, 5},
	}
	if len(warnings) != 2 || !strings.HasPrefix(warnings[0], want[1].err) || !strings.HasPrefix(warnings[1], want[2].err) {
		t.Errorf("warnings %q, want %q and %q", warnings, want[1].err, want[2].err)
	}
	f := &runJobFn{Root: dir}
	defer f.Teardown()
	var got []map[string]any
	for _, l := range lines {
		err := f.ProcessElement(context.Background(), path, l, func(js string) {
			var v map[string]any
			if err := json.Unmarshal([]byte(js), &v); err != nil {
				t.Fatal(err)
			}
			got = append(got, v)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d results, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g["id"] != w.id {
			t.Errorf("result %d: id %v, want %q", i, g["id"], w.id)
		}
		if w.line == 0 {
			if _, ok := g["manifest"]; ok || g["line"] != nil || g["error"] != nil {
				t.Errorf("job %s: %v, want no error, manifest or line", w.id, g)
			}
			continue
		}
		if e, _ := g["error"].(string); !strings.Contains(e, w.err) {
			t.Errorf("result %d: error %q, want it to contain %q", i, e, w.err)
		}
		if g["manifest"] != path || g["line"] != float64(w.line) {
			t.Errorf("result %d: manifest %v, line %v; want %s, %d", i, g["manifest"], g["line"], path, w.line)
		}
	}
	// A line no longer in its file (changed during the run): the file
	// is named, the line number is not.
	var res job.Result
	if err := f.ProcessElement(context.Background(), path, `{"id":"gone"`, func(js string) { json.Unmarshal([]byte(js), &res) }); err != nil {
		t.Fatal(err)
	}
	if res.Manifest != path || res.Line != 0 || !strings.Contains(res.Error, path+": job: bad spec") {
		t.Errorf("line not found: %+v", res)
	}
}
