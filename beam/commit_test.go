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

	"github.com/tether-sc/tether/job"
)

// TestRunJobStagesLabels: a job of Batch with an output folder writes its
// labels to their staged file (".ID.labels.tmp"), not to ID.labels, and a
// failed job leaves the labels of an earlier run alone: the commit at the
// end of the run puts them in place or removes them (review 95: an
// interrupted tether-beam run left 22 labels files of its own beside the
// results.jsonl of the run before).
func TestRunJobStagesLabels(t *testing.T) {
	for _, kind := range []string{"local", "memfs"} {
		t.Run(kind, func(t *testing.T) {
			st := commitStore(t, kind)
			st.put("bad.labels", "old\n")
			f := &runJobFn{Out: st.out}
			defer f.Teardown()
			var emitted []string
			emit := func(s string) { emitted = append(emitted, s) }
			for _, line := range []string{
				`{"id":"g","gen":"moons","gen_params":{"n":"20"},"k":2,"method":"njw","seed":1}`,
				`{"id":"bad","input":"nope.csv","k":2}`,
			} {
				if err := f.ProcessElement(context.Background(), "m.jsonl", line, emit); err != nil {
					t.Fatal(err)
				}
			}
			if len(emitted) != 2 {
				t.Fatalf("emitted %q, want 2 result lines", emitted)
			}
			if got, want := st.files(), []string{".g.labels.tmp", "bad.labels"}; !reflect.DeepEqual(got, want) {
				t.Fatalf("the folder holds %q, want %q", got, want)
			}
			if b := st.get("bad.labels"); b != "old\n" {
				t.Errorf("bad.labels %q, want the earlier run's", b)
			}
		})
	}
}

// TestCommitLabels: writeResultsFn with an output folder puts the staged
// labels of the jobs that succeeded in place (a replaced, b new), removes
// the labels of a job that now fails (c), leaves other files alone
// (d.labels, of a job not in the manifest) and writes results.jsonl, all
// at its end, on a local folder, memfs:// and gs:// (a fake GCS server);
// cancelled or broken before the end, it changes none of the
// files of the earlier run and leaves the staged labels, which
// RemovePartial then removes, so that the folder is as the earlier run
// left it. A retried commit, whose first attempt moved a's labels in
// place, completes, and removes the earlier labels that attempt set
// aside.
func TestCommitLabels(t *testing.T) {
	lines := []string{`{"id":"a","method":"njw"}`, `{"id":"b","method":"njw"}`, `{"id":"c","method":"njw","error":"input: nope.csv: no such file"}`}
	const newResults = "{\"id\":\"a\",\"method\":\"njw\"}\n{\"id\":\"b\",\"method\":\"njw\"}\n{\"id\":\"c\",\"method\":\"njw\",\"error\":\"input: nope.csv: no such file\"}\n"
	earlier := map[string]string{ResultsFile: "old\n", "a.labels": "old a\n", "c.labels": "old c\n", "d.labels": "old d\n"}
	for _, kind := range []string{"local", "memfs", "gs"} {
		for _, tc := range writeResultsCases {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				st := commitStore(t, kind)
				for name, content := range earlier {
					st.put(name, content)
				}
				st.put(".a.labels.tmp", "new a\n")
				st.put(".b.labels.tmp", "new b\n")
				err := runCommit(t, st, lines, tc)
				if tc.completes() {
					if err != nil {
						t.Fatal(err)
					}
					want := map[string]string{ResultsFile: newResults, "a.labels": "new a\n", "b.labels": "new b\n", "d.labels": "old d\n"}
					if got := st.contents(); !reflect.DeepEqual(got, want) {
						t.Fatalf("the folder holds %q, want %q", got, want)
					}
					return
				}
				want := map[string]string{".a.labels.tmp": "new a\n", ".b.labels.tmp": "new b\n"}
				for name, content := range earlier {
					want[name] = content
				}
				if got := st.contents(); !reflect.DeepEqual(got, want) {
					t.Fatalf("the folder holds %q, want %q (the earlier run's and the staged labels)", got, want)
				}
				if err := RemovePartial(context.Background(), st.out); err != nil {
					t.Fatal(err)
				}
				if got := st.contents(); !reflect.DeepEqual(got, earlier) {
					t.Fatalf("after RemovePartial the folder holds %q, want the earlier run's %q", got, earlier)
				}
			})
		}
		t.Run(kind+"/retried", func(t *testing.T) {
			// A second commit after one that failed once it had moved
			// a's labels (the runner retries the bundle).
			st := commitStore(t, kind)
			st.put(ResultsFile, "old\n")
			st.put("a.labels", "new a\n")          // moved by the first attempt
			st.put(".a.labels.tmp.old", "old a\n") // set aside by it (backupLabels)
			st.put(".b.labels.tmp", "new b\n")
			if err := runCommit(t, st, lines[:2], writeResultsCase{"completed", -1, -1}); err != nil {
				t.Fatal(err)
			}
			want := map[string]string{ResultsFile: newResults[:strings.Index(newResults, `{"id":"c"`)], "a.labels": "new a\n", "b.labels": "new b\n"}
			if got := st.contents(); !reflect.DeepEqual(got, want) {
				t.Fatalf("the folder holds %q, want %q", got, want)
			}
		})
	}
}

// runCommit runs writeResultsFn with the output folder of st on lines,
// ending as tc says (runWriteResults' cases), and returns its error, the
// iterator's panic recovered.
func runCommit(t *testing.T, st *commitFolder, lines []string, tc writeResultsCase) (err error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	next := resultLines(lines, tc, cancel)
	defer func() {
		if r := recover(); r != nil && r != errBrokenStream {
			panic(r)
		}
	}()
	return (&writeResultsFn{Filename: job.Join(st.out, ResultsFile), Out: st.out}).ProcessElement(ctx, 0, next)
}

// commitFolder is an output folder, local or on memfs, with helpers that
// do not go through the code under test.
type commitFolder struct {
	out   string
	put   func(name, content string)
	get   func(name string) string
	files func() []string // base names, sorted
}

// contents returns the folder's files by name.
func (st *commitFolder) contents() map[string]string {
	m := map[string]string{}
	for _, name := range st.files() {
		m[name] = st.get(name)
	}
	return m
}

// commitStore returns an empty output folder of kind "local", "memfs" or
// "gs" (a fake GCS server, gcsStore).
func commitStore(t *testing.T, kind string) *commitFolder {
	t.Helper()
	if kind == "gs" {
		st, srv := gcsStore(t, "tether-commit", "out")
		return &commitFolder{
			out: st.dir,
			put: func(name, content string) { st.put(st.dir+"/"+name, []byte(content)) },
			get: func(name string) string {
				b, _ := srv.Content("tether-commit", "out/"+name)
				return string(b)
			},
			files: func() []string {
				var names []string
				for _, f := range st.files(st.dir + "/") {
					names = append(names, strings.TrimPrefix(f, st.dir+"/"))
				}
				return names
			},
		}
	}
	if kind == "local" {
		out := t.TempDir()
		return &commitFolder{
			out: out,
			put: func(name, content string) {
				if err := os.WriteFile(filepath.Join(out, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			get: func(name string) string {
				b, _ := os.ReadFile(filepath.Join(out, name))
				return string(b)
			},
			files: func() []string {
				var names []string
				filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
					if err == nil && !d.IsDir() {
						names = append(names, filepath.Base(p))
					}
					return nil
				})
				sort.Strings(names)
				return names
			},
		}
	}
	out := "memfs://commit-" + strings.NewReplacer("/", "-", " ", "-").Replace(t.Name())
	return &commitFolder{
		out: out,
		put: func(name, content string) { memfs.Write(out+"/"+name, []byte(content)) },
		get: func(name string) string {
			b, _ := readMem(out + "/" + name)
			return string(b)
		},
		files: func() []string {
			var names []string
			for _, f := range memFiles(t, out+"/") {
				names = append(names, strings.TrimPrefix(f, out+"/"))
			}
			return names
		},
	}
}

// TestCommitRollsBack: a commit that fails part-way — a job's staged
// labels missing after others were put in place, an id used twice (the
// second rename finds its staged file gone), the results file that
// cannot be renamed into place — undoes what it did: the earlier run's
// labels are back in place (those it replaced, and those of a job that
// now fails, which it had removed), the new ones back in their staged
// files, results.jsonl untouched, and RemovePartial then leaves the
// folder as the earlier run left it. The commit used to leave the labels
// it had already moved, beside the old results.
func TestCommitRollsBack(t *testing.T) {
	earlier := map[string]string{ResultsFile: "old\n", "a.labels": "old a\n", "c.labels": "old c\n", "d.labels": "old d\n"}
	a, b, c := `{"id":"a","method":"njw"}`, `{"id":"b","method":"njw"}`, `{"id":"c","method":"njw","error":"input: nope.csv: no such file"}`
	for _, tc := range []struct {
		name  string
		kinds []string
		lines []string
		// results, when set, makes results.jsonl a folder holding
		// this file, which the rename of the results file cannot
		// replace (local folders only).
		results string
		want    string // in the error
	}{
		{"a staged file missing", []string{"local", "memfs", "gs"}, []string{a, c, b}, "", "b.labels in place: its staged file"},
		{"an id used twice", []string{"local", "memfs", "gs"}, []string{a, c, a}, "", `two result lines of id "a"`},
		{"results file not replaceable", []string{"local"}, []string{a, c}, "x", "writing"},
	} {
		for _, kind := range tc.kinds {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				st := commitStore(t, kind)
				before := map[string]string{}
				for name, content := range earlier {
					if name == ResultsFile && tc.results != "" {
						continue
					}
					st.put(name, content)
					before[name] = content
				}
				if tc.results != "" {
					if err := os.MkdirAll(filepath.Join(st.out, ResultsFile), 0o755); err != nil {
						t.Fatal(err)
					}
					st.put(filepath.Join(ResultsFile, tc.results), "kept\n")
				}
				contents := func() map[string]string {
					m := st.contents()
					if tc.results != "" {
						// files() lists the folder's file by its
						// base name, get() reads it beside.
						delete(m, tc.results)
						if b := st.get(filepath.Join(ResultsFile, tc.results)); b != "kept\n" {
							t.Errorf("%s/%s holds %q, want it kept", ResultsFile, tc.results, b)
						}
					}
					return m
				}
				st.put(".a.labels.tmp", "new a\n")
				err := runCommit(t, st, tc.lines, writeResultsCase{"completed", -1, -1})
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("commit error %v, want one containing %q", err, tc.want)
				}
				want := map[string]string{".a.labels.tmp": "new a\n"}
				for name, content := range before {
					want[name] = content
				}
				if got := contents(); !reflect.DeepEqual(got, want) {
					t.Fatalf("after the failed commit the folder holds %q, want the earlier run's and the staged labels %q", got, want)
				}
				if err := RemovePartial(context.Background(), st.out); err != nil {
					t.Fatal(err)
				}
				if got := contents(); !reflect.DeepEqual(got, before) {
					t.Fatalf("after RemovePartial the folder holds %q, want the earlier run's %q", got, before)
				}
			})
		}
	}
}
