package job

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
)

func TestScheme(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"gs://b/x.csv", "gs"},
		{"memfs://x", "memfs"},
		{"s3+x.y-z://b", "s3+x.y-z"},
		{"x.csv", ""},
		{"/abs/x.csv", ""},
		{"://x", ""},
		{"1gs://b", ""},
		{"a/b://c", ""},
		{`C:\data\x.csv`, ""},
		{"gs:/b/x", ""},
		{"", ""},
	} {
		if got := Scheme(tc.path); got != tc.want {
			t.Errorf("Scheme(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

func TestJoin(t *testing.T) {
	for _, tc := range []struct{ root, path, want string }{
		// Local paths: filepath.Join, as Run always resolved them.
		{"dir", "x.csv", "dir/x.csv"},
		{"/data/run", "../x.csv", "/data/x.csv"},
		{"dir/", "sub/./x.csv", "dir/sub/x.csv"},
		{"", "x.csv", "x.csv"},
		{"dir", "", ""},
		{"dir", "/abs/x.csv", "/abs/x.csv"},
		{".", "x.csv", "x.csv"},
		// Roots with a scheme.
		{"gs://b/dir", "x.csv", "gs://b/dir/x.csv"},
		{"gs://b/dir/", "x.csv", "gs://b/dir/x.csv"},
		{"gs://b/dir", "sub/x.csv", "gs://b/dir/sub/x.csv"},
		{"gs://b/dir", "../x.csv", "gs://b/x.csv"},
		{"gs://b", "x.csv", "gs://b/x.csv"},
		{"memfs://", "x.csv", "memfs://x.csv"},
		{"memfs://d", "x.csv", "memfs://d/x.csv"},
		{"gs://b/dir", "../sub/../x.csv", "gs://b/x.csv"},
		{"gs://b/dir", "..", "gs://b"},
		// A relative path cannot climb above the bucket: the ".." above it
		// are kept after it, never replacing it (Run refuses the path).
		{"gs://b/dir", "../../x.csv", "gs://b/../x.csv"},
		{"gs://b", "../x.csv", "gs://b/../x.csv"},
		{"gs://b/dir", "../../c/x.csv", "gs://b/../c/x.csv"},
		{"gs://b/dir", "../..", "gs://b/.."},
		{"gs://b//dir", "../../x.csv", "gs://b/../x.csv"},
		{"memfs://d/dir", "../../x.csv", "memfs://d/../x.csv"},
		{"memfs://", "../x.csv", "memfs://../x.csv"},
		// Kept as is: a path with a scheme, an absolute path.
		{"gs://b/dir", "gs://c/x.csv", "gs://c/x.csv"},
		{"dir", "memfs://x.csv", "memfs://x.csv"},
		{"gs://b/dir", "/abs/x.csv", "/abs/x.csv"},
		{"gs://b/dir", "", ""},
	} {
		if got := Join(tc.root, tc.path); got != tc.want {
			t.Errorf("Join(%q, %q) = %q, want %q", tc.root, tc.path, got, tc.want)
		}
	}
}

func TestDir(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"dir/m.jsonl", "dir"},
		{"m.jsonl", "."},
		{"/m.jsonl", "/"},
		{"dir/*.jsonl", "dir"},
		{"gs://b/dir/m.jsonl", "gs://b/dir"},
		{"gs://b/m.jsonl", "gs://b"},
		{"memfs://m.jsonl", "memfs://"},
		{"memfs://d/m.jsonl", "memfs://d"},
	} {
		if got := Dir(tc.path); got != tc.want {
			t.Errorf("Dir(%q) = %q, want %q", tc.path, got, tc.want)
		}
		// Join(Dir(p), base) is the file beside p.
		if base := tc.path[strings.LastIndex(tc.path, "/")+1:]; !strings.Contains(base, "*") {
			if got := Join(Dir(tc.path), base); got != tc.path && "./"+got != tc.path {
				t.Errorf("Join(Dir(%q), %q) = %q", tc.path, base, got)
			}
		}
	}
	if got := LabelsPath("gs://b/out", "a"); got != "gs://b/out/a.labels" {
		t.Errorf("LabelsPath on a scheme = %q", got)
	}
}

// memFiles is Files in memory, on "mem://" paths; writes can be made to
// fail after some bytes.
type memFiles struct {
	mu        sync.Mutex
	m         map[string][]byte
	failAfter int // a write fails after this many bytes (0: never)
	reads     []string
}

func (f *memFiles) ReadFile(_ context.Context, name string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads = append(f.reads, name)
	b, ok := f.m[name]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return bytes.Clone(b), nil
}

func (f *memFiles) WriteFile(ctx context.Context, name string, write func(io.Writer) error) error {
	var buf bytes.Buffer
	var w io.Writer = &buf
	if f.failAfter > 0 {
		w = &failWriter{&buf, f.failAfter}
	}
	if err := write(w); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.m[name] = buf.Bytes()
	return nil
}

func (f *memFiles) Remove(_ context.Context, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.m[name]; !ok {
		return fmt.Errorf("remove %s: %w", name, fs.ErrNotExist)
	}
	delete(f.m, name)
	return nil
}

type failWriter struct {
	w    io.Writer
	left int
}

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.left {
		return 0, errors.New("disk full")
	}
	w.left -= len(p)
	return w.w.Write(p)
}

// stable is a result line without its timings, with the folder of its
// files (in warnings) replaced by "ROOT".
func stable(t *testing.T, r *Result, root string) map[string]any {
	t.Helper()
	js, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(strings.ReplaceAll(js, root, "ROOT")), &v); err != nil {
		t.Fatal(err)
	}
	delete(v, "seconds")
	delete(v, "graph_seconds")
	return v
}

// TestRunFilesScheme: the same jobs on local files (Run) and on "mem://"
// files (RunFiles) give the same result lines and labels, the files with
// a scheme read through Files and nothing else; a job with such paths but
// no Files, a missing file and a catalog dataset under a root with a
// scheme fail, naming the job, the field and the path.
func TestRunFilesScheme(t *testing.T) {
	dir := t.TempDir()
	content := map[string]string{
		"d.csv":   "x,y,label\n0,0,a\n0.1,0,a\n0,0.1,a\n0.1,0.1,a\n5,5,b\n5.1,5,b\n5,5.1,b\n5.1,5.1,b\n",
		"g.txt":   "0 1 1\n1 2 1\n2 0 1\n3 4 1\n4 5 1\n5 3 1\n2 3 0.1\n",
		"c.txt":   "0,4,ml\n1,5,cl\n",
		"gc.txt":  "0,3,cl\n",
		"l.txt":   "0,0\n4,1\n",
		"gl.txt":  "0\n-1\n-1\n1\n-1\n-1\n",
		"sub/x.c": "0,1,ml\n",
	}
	mem := &memFiles{m: map[string][]byte{}}
	for name, c := range content {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		mem.m["mem://b/"+name] = []byte(c)
	}
	specs := []Spec{
		{ID: "table", Input: "d.csv", KNN: 3, K: 2, Constraints: "c.txt", Labels: "l.txt", Method: "fgpwc", Seed: 1},
		{ID: "table-warn", Input: "d.csv", K: 2, Method: "njw"},
		{ID: "graph", Graph: "g.txt", K: 2, Constraints: "gc.txt", Method: "fgpwc", Seed: 2},
		{ID: "graph-labels", Graph: "g.txt", K: 2, Labels: "gl.txt", Method: "labelprop"},
		{ID: "sub", Input: "d.csv", KNN: 3, K: 2, Constraints: "sub/x.c", Method: "fgpwc"},
	}
	ctx := context.Background()
	for _, s := range specs {
		local := Run(ctx, s, dir)
		if local.Error != "" {
			t.Fatalf("job %s on local files: %s", s.ID, local.Error)
		}
		got := RunFiles(ctx, s, "mem://b", mem)
		if g, w := stable(t, got, "mem://b"), stable(t, local, dir); !reflect.DeepEqual(g, w) {
			t.Errorf("job %s:\n through Files %v\n local        %v", s.ID, g, w)
		}
		if !reflect.DeepEqual(got.Labels, local.Labels) {
			t.Errorf("job %s: labels %v, local %v", s.ID, got.Labels, local.Labels)
		}
	}
	sort.Strings(mem.reads)
	want := []string{"mem://b/c.txt", "mem://b/d.csv", "mem://b/d.csv", "mem://b/d.csv", "mem://b/g.txt", "mem://b/g.txt", "mem://b/gc.txt", "mem://b/gl.txt", "mem://b/l.txt", "mem://b/sub/x.c"}
	if !reflect.DeepEqual(mem.reads, want) {
		t.Errorf("files read %q, want %q", mem.reads, want)
	}

	// A local file beside one with a scheme; an absolute local path under
	// a root with a scheme.
	mixed := Spec{ID: "mixed", Input: filepath.Join(dir, "d.csv"), KNN: 3, K: 2, Constraints: filepath.Join(dir, "c.txt"), Labels: "l.txt", Method: "fgpwc", Seed: 1}
	if got, local := RunFiles(ctx, mixed, "mem://b", mem), Run(ctx, specs[0], dir); !reflect.DeepEqual(got.Labels, local.Labels) || got.Error != "" {
		t.Errorf("mixed paths: %q, labels %v, want %v", got.Error, got.Labels, local.Labels)
	}

	for _, tc := range []struct {
		name  string
		spec  Spec
		root  string
		files Files
		want  string
	}{
		{"no Files", Spec{ID: "a", Input: "d.csv", K: 2}, "mem://b", nil, "job: path with a scheme: job a: input mem://b/d.csv: no Files"},
		{"no Files for a graph", Spec{ID: "a", Graph: "mem://b/g.txt", K: 2}, dir, nil, "job: path with a scheme: job a: graph mem://b/g.txt"},
		{"missing input", Spec{ID: "a", Input: "nope.csv", K: 2}, "mem://b", mem, "job a: input mem://b/nope.csv: file does not exist"},
		{"missing graph", Spec{ID: "a", Graph: "nope.txt", K: 2}, "mem://b", mem, "job a: graph mem://b/nope.txt: file does not exist"},
		{"missing constraints", Spec{ID: "a", Input: "d.csv", K: 2, Constraints: "nope.txt"}, "mem://b", mem, "job a: constraints mem://b/nope.txt: file does not exist"},
		{"missing labels", Spec{ID: "a", Input: "d.csv", K: 2, Labels: "nope.txt"}, "mem://b", mem, "job a: labels mem://b/nope.txt: file does not exist"},
		{"missing local labels beside a scheme", Spec{ID: "a", Input: "d.csv", K: 2, Constraints: "c.txt", Labels: filepath.Join(dir, "nope.txt")}, "mem://b", mem, "job a: labels: open " + filepath.Join(dir, "nope.txt")},
		{"catalog under a scheme root", Spec{ID: "a", Dataset: "iris", K: 3}, "mem://b", mem, "job a: data_root (default"},
		{"catalog data_root with a scheme", Spec{ID: "a", Dataset: "iris", DataRoot: "gs://x/d", K: 3}, dir, mem, "job: path with a scheme: job a: data_root gs://x/d: a catalog dataset is read from a local folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := RunFiles(ctx, tc.spec, tc.root, tc.files)
			if !strings.Contains(res.Error, tc.want) {
				t.Fatalf("error %q, want it to contain %q", res.Error, tc.want)
			}
		})
	}
}

// TestRunFilesAboveBucket: a relative path of any field that climbs above
// the bucket of a root with a scheme is refused, before any file is read,
// with an error wrapping ErrAboveBucket that names the job, the field and
// the path; one that stays in the bucket, and any under a local root, is
// not.
func TestRunFilesAboveBucket(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		spec Spec
		root string
		want string // the error's beginning; "" for none from checkPaths
	}{
		{"input", Spec{ID: "a", Input: "../../x.csv", K: 2}, "gs://b/dir", `job: relative path climbs above the bucket of its root: job a: input ../../x.csv: root gs://b/dir (bucket "b")`},
		{"input, bucket root", Spec{ID: "a", Input: "../c/x.csv", K: 2}, "gs://b", `job: relative path climbs above the bucket of its root: job a: input ../c/x.csv: root gs://b (bucket "b")`},
		{"input, down and up", Spec{ID: "a", Input: "sub/../../../x.csv", K: 2}, "gs://b/dir", "job: relative path climbs above the bucket of its root: job a: input sub/../../../x.csv"},
		{"graph", Spec{ID: "a", Graph: "../../g.txt", K: 2}, "memfs://d/dir", `job: relative path climbs above the bucket of its root: job a: graph ../../g.txt: root memfs://d/dir (bucket "d")`},
		{"graph, memfs top", Spec{ID: "a", Graph: "../g.txt", K: 2}, "memfs://", "job: relative path climbs above the bucket of its root: job a: graph ../g.txt: root memfs:// (its top)"},
		{"constraints", Spec{ID: "a", Input: "d.csv", Constraints: "../../c.txt", K: 2}, "gs://b/dir", "job: relative path climbs above the bucket of its root: job a: constraints ../../c.txt"},
		{"labels", Spec{ID: "a", Input: "d.csv", Labels: "../../../l.txt", K: 2}, "gs://b/dir/sub", "job: relative path climbs above the bucket of its root: job a: labels ../../../l.txt"},
		{"data_root", Spec{ID: "a", Dataset: "iris", DataRoot: "../../d", K: 3}, "gs://b/dir", "job: relative path climbs above the bucket of its root: job a: data_root ../../d"},
		{"in the bucket", Spec{ID: "a", Input: "../x.csv", K: 2}, "gs://b/dir", ""},
		{"local root", Spec{ID: "a", Input: "../../../x.csv", K: 2}, "dir", ""},
		{"path with a scheme", Spec{ID: "a", Input: "gs://c/x.csv", K: 2}, "gs://b/dir", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkPaths(&tc.spec, tc.root)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("checkPaths: %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, ErrAboveBucket) || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("checkPaths: %v, want an error wrapping ErrAboveBucket beginning %q", err, tc.want)
			}
			mem := &memFiles{m: map[string][]byte{}}
			res := RunFiles(ctx, tc.spec, tc.root, mem)
			if res.Error != err.Error() || len(mem.reads) > 0 {
				t.Fatalf("RunFiles: error %q, files read %q; want %q and none", res.Error, mem.reads, err)
			}
		})
	}
}

// TestSaveLabelsFiles: a folder with a scheme is written through Files,
// atomically (a failed write leaves the earlier file), and a failed job
// removes an earlier run's labels; a local folder is not touched through
// Files.
func TestSaveLabelsFiles(t *testing.T) {
	ctx := context.Background()
	mem := &memFiles{m: map[string][]byte{"mem://o/a.labels": []byte("9\n")}}
	if err := SaveLabelsFiles(ctx, mem, "mem://o", &Result{ID: "a", Labels: []int{1, 0}}); err != nil {
		t.Fatal(err)
	}
	if got := string(mem.m["mem://o/a.labels"]); got != "1\n0\n" {
		t.Fatalf("labels %q", got)
	}
	mem.failAfter = 1
	if err := SaveLabelsFiles(ctx, mem, "mem://o", &Result{ID: "a", Labels: []int{0, 1}}); err == nil || !strings.Contains(err.Error(), "job a: labels mem://o/a.labels: disk full") {
		t.Fatalf("failed write: %v", err)
	}
	if got := string(mem.m["mem://o/a.labels"]); got != "1\n0\n" {
		t.Fatalf("labels %q after a failed write", got)
	}
	for _, id := range []string{"a", "a", "../x", ""} { // the second: no earlier labels
		if err := SaveLabelsFiles(ctx, mem, "mem://o", &Result{ID: id, Error: "bad"}); err != nil {
			t.Fatalf("failed job %q: %v", id, err)
		}
	}
	if len(mem.m) != 0 {
		t.Fatalf("files left: %v", mem.m)
	}
	if err := SaveLabelsFiles(ctx, nil, "mem://o", &Result{ID: "a", Labels: []int{0}}); !errors.Is(err, ErrScheme) || !strings.Contains(err.Error(), "job a: labels mem://o/a.labels") {
		t.Fatalf("no Files: %v", err)
	}
	// A local folder: as SaveLabels.
	dir := t.TempDir()
	if err := SaveLabelsFiles(ctx, mem, dir, &Result{ID: "b", Labels: []int{2}}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "b.labels")); err != nil || string(b) != "2\n" {
		t.Fatalf("local labels %q, %v", b, err)
	}
	if len(mem.m) != 0 {
		t.Fatalf("a local write went through Files: %v", mem.m)
	}
}
