package cluster

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"strings"
	"testing"
)

// TestMethodsDocumentObjective: Result.Objective is "documented in each
// method's Result paragraph", so the documentation of every registered
// method's type says what its Objective holds (review 86: thirteen did
// not, and HBisection's was 0 unsaid). The type's doc comment is read
// from the package's source.
func TestMethodsDocumentObjective(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range entries {
		if name := e.Name(); strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/tether-sc/tether/cluster")
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{}
	for _, ty := range p.Types {
		docs[ty.Name] = ty.Doc
	}
	for _, info := range Methods() {
		name := reflect.Indirect(reflect.ValueOf(info.New())).Type().Name()
		d, ok := docs[name]
		if !ok {
			t.Errorf("%s: no documentation of type %s found", info.Name, name)
			continue
		}
		if !strings.Contains(d, "Objective") && !strings.Contains(d, "objective") {
			t.Errorf("%s (%s): the documentation does not say what Result.Objective holds", info.Name, name)
		}
	}
}
