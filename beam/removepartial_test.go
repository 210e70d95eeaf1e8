package tetherbeam

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/memfs"
)

// TestRemovePartial: on a local folder, memfs:// and gs:// (a fake GCS
// server), RemovePartial removes from the output folder the temporary
// files killed writers left — results.jsonl's, the labels temporaries
// of Files (".ID.labels.tmp") and of a local write (atomicfile's
// ".ID.labels.tmpDIGITS") — and nothing else: results.jsonl, the labels
// files, other files, a name without the leading dot, a temporary in a
// subfolder. A second call, with nothing left, and a missing folder are no
// error. A folder with a scheme whose name has a glob character is
// refused, with an error naming it, once results.jsonl's temporary is
// removed; a local one is read whatever its name.
func TestRemovePartial(t *testing.T) {
	left := []string{".results.jsonl.tmp", ".a.labels.tmp", ".b-2.labels.tmp", ".c.labels.tmp4129377", // removed
		"results.jsonl", "a.labels", "a.labels.tmp", "notes.txt", "sub/.x.labels.tmp"} // kept
	kept := []string{"a.labels", "a.labels.tmp", "notes.txt", "results.jsonl", "sub/.x.labels.tmp"}
	for _, tc := range []struct {
		name     string
		folder   string   // the output folder, under the kind's base
		put      []string // files in it before
		want     []string // files in it after
		storeErr string   // on memfs and gs, RemovePartial's error contains it ("": none)
	}{
		{"killed writers", "out", left, kept, ""},
		{"nothing to remove", "clean", []string{"results.jsonl", "a.labels"}, []string{"a.labels", "results.jsonl"}, ""},
		{"missing folder", "none", nil, nil, ""},
		{"glob character in the folder's name", "out[1]", left,
			[]string{".a.labels.tmp", ".b-2.labels.tmp", ".c.labels.tmp4129377", "a.labels", "a.labels.tmp", "notes.txt", "results.jsonl", "sub/.x.labels.tmp"},
			"listing the temporary labels files of BASE/out[1]: the folder's name has a glob character"},
	} {
		for _, kind := range []string{"local", "memfs", "gs"} {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				var (
					base  string
					put   func(name string)
					files func(prefix string) []string
				)
				switch kind {
				case "local":
					base = t.TempDir()
					put = func(name string) {
						if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
							t.Fatal(err)
						}
						if err := os.WriteFile(name, []byte("x"), 0o644); err != nil {
							t.Fatal(err)
						}
					}
					files = func(prefix string) []string {
						var got []string
						filepath.WalkDir(prefix, func(p string, d fs.DirEntry, err error) error {
							if err == nil && !d.IsDir() {
								got = append(got, p)
							}
							return nil
						})
						sort.Strings(got)
						return got
					}
				case "memfs":
					base = "memfs://remove-partial-" + strings.ReplaceAll(tc.name, " ", "-")
					put = func(name string) { memfs.Write(name, []byte("x")) }
					files = func(prefix string) []string { return memFiles(t, prefix) }
				case "gs":
					st, _ := gcsStore(t, "remove-partial", "")
					base = strings.TrimSuffix(st.dir, "/")
					put = func(name string) { st.put(name, []byte("x")) }
					files = st.files
				}
				out := base + "/" + tc.folder
				for _, name := range tc.put {
					put(out + "/" + name)
				}
				wantErr := ""
				if kind != "local" {
					wantErr = strings.ReplaceAll(tc.storeErr, "BASE", base)
				}
				want := tc.want
				if wantErr == "" && tc.storeErr != "" {
					want = kept // a local folder is read whatever its name
				}
				for call := 1; call <= 2; call++ {
					err := RemovePartial(context.Background(), out)
					if wantErr == "" && err != nil || wantErr != "" && (err == nil || !strings.Contains(err.Error(), wantErr)) {
						t.Fatalf("call %d: error %v, want %q", call, err, wantErr)
					}
					var got []string
					for _, f := range files(out + "/") {
						got = append(got, strings.TrimPrefix(f, out+"/"))
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("call %d: the folder holds %q, want %q", call, got, want)
					}
				}
			})
		}
	}
}
