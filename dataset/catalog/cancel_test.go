package catalog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tether-sc/tether/internal/testctx"
	"github.com/tether-sc/tether/internal/textline"
)

// fakeRoot writes, under a temporary folder, small files in the layout of
// the datasets folder for one entry of each loader: a feature table
// (iris), the promoters rewrite, WebKB (table and citations) and Classic3
// (documents, triplets, cosine k-NN graph). The promoters file has more
// than textline.PollLines rows, so that its own loop must poll more than once.
func fakeRoot(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write := func(name, text string) {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, "%d.1,3.%d,1.4,0.2,Iris-%c\n", 4+i%3, i%10, 'a'+i%3)
	}
	write("iris/iris.csv", b.String())

	b.Reset()
	for i := range textline.PollLines + 10 {
		seq := strings.Repeat("acgt", 15)[:56] + string("acgt"[i%4])
		fmt.Fprintf(&b, "%c,P%d,\t\t%s\n", "+-"[i%2], i, seq)
	}
	write("promoters/promoters.data", b.String())

	b.Reset()
	var cites strings.Builder
	for i := range 12 {
		fmt.Fprintf(&b, "http://u/%d", i)
		for j := range 4 {
			fmt.Fprintf(&b, "\t%d", (i+j)%2)
		}
		fmt.Fprintf(&b, "\t%s\n", []string{"course", "faculty", "student"}[i%3])
		fmt.Fprintf(&cites, "http://u/%d http://u/%d\n", i, (i+1)%12)
	}
	write("webkb/cornell.content", b.String())
	write("webkb/cornell.cites", cites.String())

	b.Reset()
	var docs strings.Builder
	const nDocs, nTerms = 24, 6
	fmt.Fprintf(&b, "%d %d %d\n", nDocs, nTerms, 2*nDocs)
	for d := range nDocs {
		// Class 0 documents are dropped, as CACM's are.
		fmt.Fprintf(&docs, "doc.%d %d\n", d, d%4)
		fmt.Fprintf(&b, "%d %d 1\n%d %d 2\n", d+1, d%3+1, d+1, 4+d%2)
	}
	write("classic3/docbyterm.txt", b.String())
	write("classic3/documents.txt", docs.String())
	return dir
}

// LoadContext gives what Load gives, and polls its context throughout:
// cancelled at its c-th check, for every c up to the number of checks of
// a full load, it returns an error wrapping context.Canceled that names
// the dataset; the promoters loader checks at least once per textline.PollLines
// rows. Load used to read every file and build Classic3's graph without a
// context.
func TestLoadContextCancelledAnywhere(t *testing.T) {
	root := fakeRoot(t)
	for _, tc := range []struct {
		name      string
		minChecks int
	}{
		{"iris", 1},
		{"promoters", 2},
		{"webkb-cornell", 2},
		{"classic3", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, err := Load(tc.name, root, nil)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			for c := 0; ; c++ {
				got, err := LoadContext(testctx.CancelAfter(c), tc.name, root, nil)
				if err == nil {
					if c < tc.minChecks {
						t.Fatalf("LoadContext checks its context %d times, want at least %d", c, tc.minChecks)
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("LoadContext gives %+v, Load %+v", got, want)
					}
					t.Logf("%d checks", c)
					return
				}
				if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "catalog: "+tc.name+": ") {
					t.Fatalf("cancel at check %d: err = %v, want context.Canceled naming %s", c, err, tc.name)
				}
			}
		})
	}
}

// The loaders without a fake file above (a GML graph, an edge list with a
// labels file) stop at once on a cancelled context too, and unknown names
// are refused before the context is looked at.
func TestLoadContextCancelled(t *testing.T) {
	if _, err := LoadContext(testctx.CancelAfter(0), "no-such-set", t.TempDir(), nil); !errors.Is(err, ErrUnknown) {
		t.Errorf("unknown name: err = %v, want ErrUnknown", err)
	}
	needData(t)
	for _, name := range []string{"karate", "wiki"} {
		if _, err := LoadContext(testctx.CancelAfter(0), name, root, nil); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err = %v, want context.Canceled", name, err)
		}
		if _, err := LoadContext(testctx.CancelAfter(1), name, root, nil); !errors.Is(err, context.Canceled) {
			t.Errorf("%s, cancelled after the first check: err = %v, want context.Canceled", name, err)
		}
	}
}
