package job

import (
	"context"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// jsonFields returns the JSON names of the fields of the struct type t,
// by their json tags, walking into struct and pointer-to-struct fields
// ("sample", then "sample.pairs"); fields tagged "-" are left out.
func jsonFields(t reflect.Type, prefix string) []string {
	var out []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, prefix+name)
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct {
			out = append(out, jsonFields(ft, prefix+name+".")...)
		}
	}
	return out
}

// readDoc returns docs/jobs.md.
func readDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../docs/jobs.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDocsListEveryField: every JSON field of a Spec (sample's too) has a
// row of its own in a table of docs/jobs.md ("| `name` | type | …"), as
// does every JSON field of a Result, so that a field added to either is
// documented for the users of manifests and results.jsonl.
func TestDocsListEveryField(t *testing.T) {
	doc := readDoc(t)
	for _, c := range []struct {
		what string
		typ  reflect.Type
	}{{"Spec", reflect.TypeFor[Spec]()}, {"Result", reflect.TypeFor[Result]()}} {
		fields := jsonFields(c.typ, "")
		if len(fields) < 10 {
			t.Fatalf("%s: only %d fields found: %v", c.what, len(fields), fields)
		}
		for _, f := range fields {
			if !strings.Contains(doc, "\n| `"+f+"` | ") {
				t.Errorf("docs/jobs.md has no row for the %s field %q", c.what, f)
			}
		}
	}
}

// TestDocsExampleManifest: the example manifest of docs/jobs.md (the
// ```jsonl block) reads as a manifest, every job valid (ReadManifest,
// ParseSpec), and runs: every job succeeds, on data it generates. The
// job lines of the ```json block parse too.
func TestDocsExampleManifest(t *testing.T) {
	doc := readDoc(t)
	m := regexp.MustCompile("(?s)```jsonl\n(.*?)```").FindStringSubmatch(doc)
	if m == nil {
		t.Fatal("docs/jobs.md has no ```jsonl example")
	}
	specs, err := ReadManifest(strings.NewReader(m[1]), "docs/jobs.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(specs) < 3 {
		t.Fatalf("%d jobs in the example", len(specs))
	}
	for _, s := range specs {
		res := Run(context.Background(), s, t.TempDir())
		if res.Error != "" || len(res.Labels) == 0 {
			t.Errorf("job %s: %q", s.ID, res.Error)
		}
	}
	for _, blk := range regexp.MustCompile("(?s)```json\n(.*?)```").FindAllStringSubmatch(doc, -1) {
		for _, line := range strings.Split(strings.TrimSpace(blk[1]), "\n") {
			if _, err := ParseSpec([]byte(line)); err != nil {
				t.Errorf("%s: %v", line, err)
			}
		}
	}
}
