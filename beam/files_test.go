package tetherbeam

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/memfs"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/tether-sc/tether/job"
)

// memFiles lists the memfs files under prefix, sorted.
func memFiles(t *testing.T, prefix string) []string {
	t.Helper()
	fs, err := filesystem.New(context.Background(), prefix)
	if err != nil {
		t.Fatal(err)
	}
	all, err := fs.List(context.Background(), "memfs://*")
	if err != nil {
		t.Fatal(err)
	}
	// memfs's glob stops at '/': list everything by hand.
	all = all[:0]
	for _, pat := range []string{"*", "*/*", "*/*/*", "*/*/*/*"} {
		got, err := fs.List(context.Background(), "memfs://"+pat)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, got...)
	}
	var out []string
	for _, f := range all {
		if strings.HasPrefix(f, prefix) {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// readMem returns the content of a file with a scheme, read through
// Files, or nil and an error.
func readMem(name string) ([]byte, error) {
	return (&Files{}).ReadFile(context.Background(), name)
}

// batchFiles are the files of the jobs of batchManifest.
var batchFiles = map[string]string{
	"data/d.csv": "x,y,label\n0,0,a\n0.1,0,a\n0,0.1,a\n0.1,0.1,a\n0.05,0.05,a\n5,5,b\n5.1,5,b\n5,5.1,b\n5.1,5.1,b\n5.05,5.05,b\n",
	"data/g.txt": "0 1 1\n1 2 1\n2 0 1\n0 3 1\n3 4 1\n4 5 1\n5 3 1\n2 5 0.1\n",
	"side/c.txt": "0,5,ml\n1,6,cl\n",
	"side/l.txt": "0,0\n5,1\n",
	"gc.txt":     "0,3,cl\n",
	"gl.txt":     "0\n-1\n-1\n1\n-1\n-1\n",
}

// batchManifest has jobs reading every kind of file, one generated job,
// and jobs whose files are missing.
const batchManifest = `# jobs on files
{"id":"table","input":"data/d.csv","knn":3,"k":2,"constraints":"side/c.txt","labels":"side/l.txt","method":"fgpwc","seed":1}
{"id":"table-njw","input":"data/d.csv","k":2,"method":"njw","seed":1}
{"id":"graph","graph":"data/g.txt","k":2,"constraints":"gc.txt","method":"fgpwc","seed":2}
{"id":"graph-labels","graph":"data/g.txt","k":2,"labels":"gl.txt","method":"labelprop"}
{"id":"gen","gen":"moons","gen_params":{"n":"80"},"k":2,"method":"njw","seed":3}
{"id":"missing-input","input":"nope.csv","k":2}
{"id":"missing-constraints","input":"data/d.csv","k":2,"constraints":"nope.txt"}
`

// results reads a results file's lines by id, without timings and with
// root replaced by ROOT.
func results(t *testing.T, content []byte, root string) map[string]map[string]any {
	t.Helper()
	got := map[string]map[string]any{}
	sc := bufio.NewScanner(bytes.NewReader(content))
	for sc.Scan() {
		v := comparable(t, strings.ReplaceAll(sc.Text(), root, "ROOT"))
		id, _ := v["id"].(string)
		if _, dup := got[id]; dup {
			t.Fatalf("two results for job %q", id)
		}
		got[id] = v
	}
	return got
}

// store is a file system with a scheme that checkBatchEqualsLocal runs a
// batch on.
type store struct {
	dir     string                       // the batch's folder there ("memfs://batch-eq")
	put     func(name string, b []byte)  // puts a file there, not through Files
	files   func(prefix string) []string // its files under prefix, sorted, not through Files
	missing string                       // what its errors say of a missing file
}

// TestBatchMemfsEqualsLocal: checkBatchEqualsLocal on memfs:// (Beam's
// in-memory file system, shared with the in-process workers of loopback
// Prism).
func TestBatchMemfsEqualsLocal(t *testing.T) {
	checkBatchEqualsLocal(t, store{
		dir:     "memfs://batch-eq",
		put:     memfs.Write,
		files:   func(prefix string) []string { return memFiles(t, prefix) },
		missing: "file does not exist",
	})
}

// checkBatchEqualsLocal runs batchManifest on Prism twice, on local files
// and on st: manifest, data, graph, constraints and partial labels files,
// the default root (the manifest's folder) and the output folder all on
// st. The labels files are equal byte for byte, the result lines apart
// from timings and the files' folder (warnings name the file); a missing
// file fails its job alone, with an error naming the job, the field and
// the path; the labels an earlier run left for a job that now fails are
// removed (and removing a labels file that is not there, for the other
// failing job, is no error); no temporary file is left.
func checkBatchEqualsLocal(t *testing.T, st store) {
	t.Helper()
	dir := t.TempDir()
	mem := st.dir
	for name, c := range batchFiles {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		st.put(mem+"/"+name, []byte(c))
	}
	if err := os.WriteFile(filepath.Join(dir, "jobs.jsonl"), []byte(batchManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	st.put(mem+"/jobs.jsonl", []byte(batchManifest))
	// An earlier run's labels of a job that now fails: removed.
	st.put(mem+"/out/missing-input.labels", []byte("0\n"))

	run := func(manifest, out string) {
		t.Helper()
		p, s := beam.NewPipelineWithRoot()
		Batch(s, manifest, job.Dir(manifest), out)
		if err := ptest.Run(p); err != nil {
			t.Fatalf("pipeline on %s: %v", manifest, err)
		}
	}
	localOut := filepath.Join(dir, "out")
	if err := os.MkdirAll(localOut, 0o755); err != nil {
		t.Fatal(err)
	}
	run(filepath.Join(dir, "jobs.jsonl"), localOut)
	run(mem+"/jobs.jsonl", mem+"/out")

	lb, err := os.ReadFile(filepath.Join(localOut, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	mb, err := readMem(mem + "/out/" + ResultsFile)
	if err != nil {
		t.Fatalf("results on %s: %v", mem, err)
	}
	want, got := results(t, lb, dir), results(t, mb, mem)
	if len(got) != 7 {
		t.Fatalf("%d results on %s, want 7:\n%s", len(got), mem, mb)
	}
	for id, w := range want {
		if g := got[id]; id != "missing-input" && id != "missing-constraints" && !reflect.DeepEqual(g, w) {
			t.Errorf("job %s:\n %s %v\n local %v", id, mem, g, w)
		}
	}
	for id, sub := range map[string]string{
		"missing-input":       "job missing-input: input ROOT/nope.csv: " + st.missing,
		"missing-constraints": "job missing-constraints: constraints ROOT/nope.txt: " + st.missing,
	} {
		if e, _ := got[id]["error"].(string); !strings.Contains(e, sub) {
			t.Errorf("job %s: error %q, want it to contain %q", id, e, sub)
		}
		if e, _ := want[id]["error"].(string); e == "" {
			t.Errorf("job %s did not fail on local files", id)
		}
	}
	var wantFiles []string
	for id := range want {
		l, err := os.ReadFile(job.LabelsPath(localOut, id))
		if _, failed := want[id]["error"]; failed {
			if err == nil {
				t.Errorf("failed job %s wrote local labels", id)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		name := job.LabelsPath(mem+"/out", id)
		wantFiles = append(wantFiles, name)
		m, err := readMem(name)
		if err != nil || !bytes.Equal(m, l) {
			t.Errorf("job %s: labels on %s %q (%v), local %q", id, mem, m, err, l)
		}
	}
	wantFiles = append(wantFiles, mem+"/out/"+ResultsFile)
	sort.Strings(wantFiles)
	if files := st.files(mem + "/out/"); !reflect.DeepEqual(files, wantFiles) {
		t.Errorf("%s/out holds %q, want %q", mem, files, wantFiles)
	}
}

// TestWriteResultsMemfs: on a file system with a scheme (memfs), the
// results file is replaced whole or not at all, and a write that does not
// complete (cancelled before or during it, or the stream broken) leaves
// the earlier file and no temporary object; RemovePartial removes one a
// killed writer left.
func TestWriteResultsMemfs(t *testing.T) {
	for _, tc := range writeResultsCases {
		t.Run(tc.name, func(t *testing.T) {
			out := "memfs://results-" + strings.ReplaceAll(tc.name, " ", "-")
			path := job.Join(out, ResultsFile)
			memfs.Write(path, []byte("old\n"))
			runWriteResults(t, path, tc)
			want := "old\n"
			if tc.completes() {
				want = writeResultsLines
			}
			if b, err := readMem(path); string(b) != want {
				t.Fatalf("results %q (%v), want %q", b, err, want)
			}
			if files := memFiles(t, out+"/"); !reflect.DeepEqual(files, []string{path}) {
				t.Fatalf("memfs holds %q, want only %s", files, path)
			}
		})
	}
	// A temporary results object a killed writer left.
	tmp := "memfs://results-killed/." + ResultsFile + ".tmp"
	memfs.Write(tmp, []byte(`{"id":`))
	memfs.Write("memfs://results-killed/"+ResultsFile, []byte("old\n"))
	if err := RemovePartial(context.Background(), "memfs://results-killed"); err != nil {
		t.Fatal(err)
	}
	if files := memFiles(t, "memfs://results-killed/"); !reflect.DeepEqual(files, []string{"memfs://results-killed/" + ResultsFile}) {
		t.Fatalf("after RemovePartial: %q", files)
	}
}

// TestFiles: Files on memfs reads, writes atomically (a failed or
// cancelled write leaves the earlier file and no temporary one), and
// removes, a missing file being no error.
func TestFiles(t *testing.T) {
	ctx := context.Background()
	f := &Files{}
	defer f.Close()
	const name = "memfs://files/a.labels"
	write := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	if err := f.WriteFile(ctx, name, write("1\n")); err != nil {
		t.Fatal(err)
	}
	if b, err := f.ReadFile(ctx, name); err != nil || string(b) != "1\n" {
		t.Fatalf("read %q, %v", b, err)
	}
	full := errors.New("disk full")
	if err := f.WriteFile(ctx, name, func(w io.Writer) error { io.WriteString(w, "2\n"); return full }); !errors.Is(err, full) || !strings.Contains(err.Error(), name) {
		t.Fatalf("failed write: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	if err := f.WriteFile(cancelled, name, func(w io.Writer) error { cancel(); _, err := io.WriteString(w, "3\n"); return err }); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled write: %v", err)
	}
	if b, _ := f.ReadFile(ctx, name); string(b) != "1\n" {
		t.Fatalf("after failed writes: %q", b)
	}
	if files := memFiles(t, "memfs://files/"); !reflect.DeepEqual(files, []string{name}) {
		t.Fatalf("memfs holds %q", files)
	}
	if _, err := f.ReadFile(ctx, "memfs://files/nope"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	for range 2 { // the second time, the file is missing
		if err := f.Remove(ctx, name); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.ReadFile(ctx, "nosuch://x"); err == nil || !strings.Contains(err.Error(), `"nosuch" not registered`) {
		t.Fatalf("unregistered scheme: %v", err)
	}
}
