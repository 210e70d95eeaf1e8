package job

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestReadmeResultFields: the README's sentence on a job's result line
// names the fields a result line has, by the JSON names of Result, and
// does not claim they are cluster -json's (whose names differ: edges,
// figures.ARI); the names of cluster -json it gives are set apart. It
// said "ARI, NMI, violations … as in `cluster -json`".
func TestReadmeResultFields(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i := strings.Index(readme, "Each job writes `ID.labels` and one result line")
	if i < 0 {
		t.Fatal("README: no sentence on the result line")
	}
	para := readme[i:]
	para = para[:strings.Index(para, "\n\n")]
	if strings.Contains(para, "as in `cluster -json`") {
		t.Errorf("README says a job's result fields are cluster -json's:\n%s", para)
	}
	own, _, _ := strings.Cut(para, "They are not")
	fields := jsonFields(reflect.TypeFor[Result](), "")
	names := regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(own, -1)
	if len(names) < 8 {
		t.Fatalf("README names %d result fields:\n%s", len(names), own)
	}
	for _, m := range names {
		if !slices.Contains(fields, m[1]) {
			t.Errorf("README names a result field %q that a result line has not (fields: %v)", m[1], fields)
		}
	}
}
