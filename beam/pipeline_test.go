package tetherbeam

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/memfs"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/tether-sc/tether/beam/internal/privatetmp"
	"github.com/tether-sc/tether/job"

	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
)

// TestMain runs the tests on Prism, with TMPDIR pointing to a folder of
// their own, removed afterwards: each pipeline run in loopback mode leaves
// an empty beamloopbackworker-N file there (privatetmp).
func TestMain(m *testing.M) {
	os.Exit(privatetmp.Run(func() int { return ptest.MainRetWithDefault(m, "prism") }))
}

// manifest writes a manifest of 24 small jobs (generators × methods ×
// seeds, some with sampled side information) plus two failing ones into
// dir and returns its path and the specs.
func manifest(t *testing.T, dir string) (string, []job.Spec) {
	var specs []job.Spec
	gens := []struct {
		name string
		k    int
		p    map[string]string
	}{
		{"moons", 2, map[string]string{"n": "120"}},
		{"circles", 2, map[string]string{"n": "120"}},
		{"blobs", 3, map[string]string{"n": "150", "k": "3"}},
		{"sbm", 2, map[string]string{"n": "120", "k": "2", "cin": "20", "cout": "2"}},
	}
	methods := []struct {
		name   string
		sample *job.Sample
	}{
		{"njw", nil},
		{"fgpwc", &job.Sample{Pairs: 40, Seed: 7}},
		{"labelprop", &job.Sample{LabelFraction: 0.1, Seed: 3}},
	}
	for _, g := range gens {
		for _, m := range methods {
			for seed := uint64(1); seed <= 2; seed++ {
				specs = append(specs, job.Spec{
					ID: fmt.Sprintf("%s-%s-%d", g.name, m.name, seed), Gen: g.name, GenParams: g.p, GenSeed: seed,
					Method: m.name, K: g.k, Seed: seed, Sample: m.sample,
				})
			}
		}
	}
	specs = append(specs,
		job.Spec{ID: "missing-file", Input: "nope.csv", K: 2},
		job.Spec{ID: "bad-method", Gen: "moons", K: 2, Method: "kmeanz"})
	var b strings.Builder
	b.WriteString("# tether-beam test manifest\n\n")
	for _, s := range specs {
		js, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(js)
		b.WriteByte('\n')
	}
	b.WriteString(`{"id":"malformed","gen":"moons"` + "\n")
	path := filepath.Join(dir, "jobs.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, specs
}

// comparable drops the timings, which differ from run to run.
func comparable(t *testing.T, line string) map[string]any {
	var v map[string]any
	if err := json.Unmarshal([]byte(line), &v); err != nil {
		t.Fatalf("result line %q: %v", line, err)
	}
	delete(v, "seconds")
	delete(v, "graph_seconds")
	return v
}

// TestBatchEqualsSequential runs the manifest on Prism and checks every
// result line and labels file against job.RunAll run in this process.
func TestBatchEqualsSequential(t *testing.T) {
	dir := t.TempDir()
	path, specs := manifest(t, dir)
	out := filepath.Join(dir, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	p, s := beam.NewPipelineWithRoot()
	Batch(s, path, dir, out)
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline: %v", err)
	}

	got := map[string]map[string]any{}
	f, err := os.Open(filepath.Join(out, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		v := comparable(t, sc.Text())
		id, _ := v["id"].(string)
		if _, dup := got[id]; dup {
			t.Fatalf("two results for job %q", id)
		}
		got[id] = v
	}
	if len(got) != len(specs)+1 {
		t.Fatalf("%d results for %d manifest lines", len(got), len(specs)+1)
	}
	if e, _ := got[""]["error"].(string); !strings.Contains(e, "manifest line") {
		t.Errorf("malformed line: error %q", e)
	}
	// The malformed line is the last: a comment, a blank line, the specs.
	if m, ln := got[""]["manifest"], got[""]["line"]; m != path || ln != float64(len(specs)+3) {
		t.Errorf("malformed line: manifest %v, line %v; want %s, %d", m, ln, path, len(specs)+3)
	}

	want := job.RunAll(context.Background(), specs, dir)
	ok := 0
	for _, w := range want {
		js, err := w.JSON()
		if err != nil {
			t.Fatal(err)
		}
		if g := got[w.ID]; !reflect.DeepEqual(g, comparable(t, js)) {
			t.Errorf("job %s: pipeline %v, sequential %v", w.ID, g, comparable(t, js))
		}
		lp := job.LabelsPath(out, w.ID)
		data, err := os.ReadFile(lp)
		if w.Error != "" {
			if err == nil {
				t.Errorf("failed job %s wrote %s", w.ID, lp)
			}
			continue
		}
		if err != nil {
			t.Fatalf("job %s: %v", w.ID, err)
		}
		var b strings.Builder
		if err := w.WriteLabels(&b); err != nil {
			t.Fatal(err)
		}
		if string(data) != b.String() {
			t.Errorf("job %s: labels file differs from the sequential run", w.ID)
		}
		ok++
	}
	if ok != 24 {
		t.Errorf("%d jobs succeeded, want 24", ok)
	}
	var failed []string
	for id, v := range got {
		if _, bad := v["error"]; bad {
			failed = append(failed, id)
		}
	}
	sort.Strings(failed)
	if !reflect.DeepEqual(failed, []string{"", "bad-method", "missing-file"}) {
		t.Errorf("failed jobs %v", failed)
	}
}

// TestCheckManifest: what no single job can see is checked before the
// pipeline starts, and the error names the file (and lines).
func TestCheckManifest(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := write("good.jsonl", "\ufeff# jobs\r\n{\"id\":\"a\",\"gen\":\"moons\",\"k\":2}\r\n{\"id\":\"b\",\"gen\":\"moons\",\"k\":2\n")
	write("other.jsonl", "\n{\"id\":\"a\",\"gen\":\"circles\",\"k\":2}\n")
	cases := []struct {
		name, manifest, want string // want "" means no error
		warn                 string // a warning that must be given ("" none)
	}{
		{"jobs and a malformed line", good, "", "good.jsonl:3:30: job: bad spec: the line ends inside a JSON value: a '}', ']' or '\"' is missing (the job fails; the other jobs run)"},
		{"missing file", filepath.Join(dir, "nope.jsonl"), "nope.jsonl: no such file", ""},
		{"glob matching nothing", filepath.Join(dir, "*.json"), "*.json: no such file", ""},
		{"empty", write("empty.jsonl", ""), "empty.jsonl: no jobs", ""},
		{"comments only", write("comments.jsonl", "# a\n\n  \n"), "comments.jsonl: no jobs", ""},
		{"repeated id", write("dup.jsonl", "{\"id\":\"x\",\"gen\":\"moons\",\"k\":2}\n\n{\"id\":\"x\",\"gen\":\"circles\",\"k\":2}\n"), `dup.jsonl:3: job: bad spec: id "x" already used on line 1`, ""},
		{"repeated id across a glob", filepath.Join(dir, "[go]*.jsonl"), `other.jsonl:2: job: bad spec: id "a" already used on ` + good + ":2", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			warnings, err := CheckManifest(context.Background(), tc.manifest)
			switch {
			case tc.want == "" && err != nil:
				t.Fatal(err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
			if got := strings.Join(warnings, "\n"); tc.warn != "" && !strings.HasSuffix(got, tc.warn) || tc.warn == "" && got != "" {
				t.Errorf("warnings %q, want one ending %q", got, tc.warn)
			}
		})
	}
}

// TestWriteResultsAtomic: the results file is replaced whole or not at
// all; a cancelled write leaves the earlier file as it was and no
// temporary file.
func TestWriteResultsAtomic(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name string
		ctx  context.Context
		want string
	}{
		{"written", context.Background(), "{\"id\":\"a\"}\n{\"id\":\"b\"}\n"},
		{"cancelled", cancelled, "old\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, ResultsFile)
			if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			lines := []string{`{"id":"a"}`, `{"id":"b"}`}
			next := func(s *string) bool {
				if len(lines) == 0 {
					return false
				}
				*s, lines = lines[0], lines[1:]
				return true
			}
			err := (&writeResultsFn{Filename: path}).ProcessElement(tc.ctx, 0, next)
			if (err != nil) != (tc.ctx.Err() != nil) {
				t.Fatalf("error %v with ctx error %v", err, tc.ctx.Err())
			}
			b, _ := os.ReadFile(path)
			if string(b) != tc.want {
				t.Fatalf("results file %q, want %q", b, tc.want)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 1 {
				t.Fatalf("folder holds %d files, want only %s", len(ents), ResultsFile)
			}
		})
	}
}

// TestWriteResultsInterrupted: a write of the results file that does not
// complete — the context cancelled before it or between two lines, or the
// runner's stream broken mid-way (Beam's iterators panic then, "broken
// stream", and the harness recovers the panic) — leaves neither the
// results file nor its temporary file; a completed one leaves the results
// file alone. The broken stream used to leave .results.jsonl.tmp behind:
// the cleanup ran only when an error was returned.
func TestWriteResultsInterrupted(t *testing.T) {
	for _, tc := range writeResultsCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, ResultsFile)
			runWriteResults(t, path, tc)
			var names []string
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				names = append(names, e.Name())
			}
			want := []string(nil)
			if tc.completes() {
				want = []string{ResultsFile}
			}
			if !reflect.DeepEqual(names, want) {
				t.Fatalf("folder holds %q, want %q", names, want)
			}
			if tc.completes() {
				if b, _ := os.ReadFile(path); string(b) != writeResultsLines {
					t.Errorf("results file %q", b)
				}
			}
		})
	}
}

// writeResultsCase is one way a results write ends: cancelled before
// yielding line cancelAt, or broken (the iterator panics with
// errBrokenStream) instead of yielding line breakAt; −1 for never.
type writeResultsCase struct {
	name              string
	cancelAt, breakAt int
}

// completes reports whether the write runs to its end.
func (tc writeResultsCase) completes() bool { return tc.cancelAt < 0 && tc.breakAt < 0 }

var writeResultsCases = []writeResultsCase{
	{"completed", -1, -1},
	{"cancelled before the write", 0, -1},
	{"cancelled during the write", 1, -1},
	{"cancelled after the last line", 2, -1},
	{"stream broken during the write", -1, 1},
}

// writeResultsLines is what runWriteResults writes when it completes.
const writeResultsLines = "{\"id\":\"a\"}\n{\"id\":\"b\"}\n"

var errBrokenStream = errors.New("broken stream")

// runWriteResults writes the two lines of writeResultsLines to path with
// writeResultsFn, ending as tc says, and checks that ProcessElement
// returned ctx's error when cancelled, nil otherwise, and let the
// iterator's panic through when the stream broke.
func runWriteResults(t *testing.T, path string, tc writeResultsCase) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lines := []string{`{"id":"a"}`, `{"id":"b"}`}
	next := resultLines(lines, tc, cancel)
	var err error
	var recovered any
	func() {
		defer func() { recovered = recover() }()
		err = (&writeResultsFn{Filename: path}).ProcessElement(ctx, 0, next)
	}()
	if tc.breakAt >= 0 {
		if recovered != errBrokenStream {
			t.Fatalf("panic %v, want the iterator's %v", recovered, errBrokenStream)
		}
	} else if recovered != nil {
		t.Fatalf("panic %v", recovered)
	}
	if tc.cancelAt >= 0 && !errors.Is(err, context.Canceled) || tc.cancelAt < 0 && err != nil {
		t.Fatalf("error %v", err)
	}
}

// resultLines returns an iterator over lines, as Beam's over a group,
// that ends as tc says: cancel called before line tc.cancelAt is given
// (at once when it is 0), and a panic of errBrokenStream at line
// tc.breakAt.
func resultLines(lines []string, tc writeResultsCase, cancel context.CancelFunc) func(*string) bool {
	i := 0
	next := func(s *string) bool {
		defer func() { i++ }()
		if i == tc.cancelAt {
			cancel()
		}
		if i == tc.breakAt {
			panic(errBrokenStream)
		}
		if i >= len(lines) {
			return false
		}
		*s = lines[i]
		return true
	}
	if tc.cancelAt == 0 {
		cancel()
	}
	return next
}

// TestCheckManifestCancelled: a check whose context is cancelled while it
// reads a regular file (whose reads never wait, so nothing else notices)
// stops with an error wrapping ctx's that names the manifest, never a
// pass: the scan used to read on to the end and return no error (18 s on
// a 186 MB manifest after Ctrl-C). The manifest is local or on memfs://,
// whose reads ignore ctx too.
func TestCheckManifestCancelled(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "{\"id\":\"j%d\",\"gen\":\"moons\",\"k\":2}\n", i)
	}
	local := filepath.Join(t.TempDir(), "big.jsonl")
	if err := os.WriteFile(local, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	mem := "memfs://check-cancelled/big.jsonl"
	memfs.Write(mem, []byte(b.String()))
	for _, manifest := range []string{local, mem} {
		t.Run(cmp.Or(job.Scheme(manifest), "local"), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			warnings, err := CheckManifest(ctx, manifest)
			if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), manifest) {
				t.Fatalf("error %v (warnings %q), want one wrapping %v naming %s", err, warnings, context.Canceled, manifest)
			}
		})
	}
}

// TestCheckManifestRefusesCompressed: a manifest file whose name ends in
// .gz — alone, with an id used twice, or among the files of a glob — is
// refused before any file is read, with an error wrapping ErrCompressed
// that names it. The check read its raw bytes (a "bad spec" warning on
// every line, a repeated id unseen) while Beam's text reader decompressed
// it and ran only the jobs of its first bytes.
func TestCheckManifestRefusesCompressed(t *testing.T) {
	dir := t.TempDir()
	gz := func(name, content string) string {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(content))
		zw.Close()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	const a, a2 = `{"id":"a","gen":"moons","k":2}` + "\n", `{"id":"a","gen":"circles","k":2}` + "\n"
	plain := filepath.Join(dir, "m.jsonl")
	if err := os.WriteFile(plain, []byte(`{"id":"b","gen":"moons","k":2}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, manifest, names string
	}{
		{"gzip", gz("one.jsonl.gz", a), "one.jsonl.gz"},
		{"gzip with an id used twice", gz("dup.jsonl.gz", a+a2), "dup.jsonl.gz"},
		{"a glob naming a gzip file", filepath.Join(dir, "m.jsonl*"), "m.jsonl.gz"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.names == "m.jsonl.gz" {
				gz("m.jsonl.gz", a)
			}
			warnings, err := CheckManifest(context.Background(), tc.manifest)
			if !errors.Is(err, ErrCompressed) || !strings.Contains(err.Error(), filepath.Join(dir, tc.names)) || !strings.Contains(err.Error(), "decompress it") {
				t.Fatalf("error %v (warnings %q), want one wrapping %v naming %s", err, warnings, ErrCompressed, tc.names)
			}
		})
	}
}

// TestCheckBatchOverwrite: a run whose output folder holds a file a job
// reads — its own or another job's labels file (ID.labels, which the run
// replaces, or removes when the job fails), results.jsonl, a labels
// temporary that RemovePartial removes — is refused before it starts,
// with an error wrapping ErrOverwrite that names the manifest line, the
// field and both paths, however the paths are spelled (relative to the
// manifest's folder or to root, through "..", on a file system with a
// scheme). tether-beam -out . deleted the partial labels sbm.labels of
// a job {"id":"sbm","labels":"sbm.labels"} that failed, and a job that
// succeeded replaced them; tether cluster refuses the same.
func TestCheckBatchOverwrite(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mem := func(name, content string) string {
		p := "memfs://check-overwrite/" + name
		memfs.Write(p, []byte(content))
		return p
	}
	for _, tc := range []struct {
		name, manifest, root, out string
		want                      []string // in the error; none: no error
	}{
		{"own labels file", write("own.jsonl", `{"id":"sbm","graph":"g.txt","labels":"sbm.labels","method":"labelprop"}`+"\n"), "", dir,
			[]string{"own.jsonl:1: job sbm", "its labels sbm.labels (" + filepath.Join(dir, "sbm.labels") + ")", "the labels file " + filepath.Join(dir, "sbm.labels") + " that the run writes for this job"}},
		{"another job's labels file", write("other.jsonl", `{"id":"a","graph":"g.txt","constraints":"b.labels","k":2}`+"\n"+`{"id":"b","graph":"g.txt","k":2}`+"\n"), "", dir,
			[]string{"other.jsonl:1: job a", "its constraints b.labels", "the labels file " + filepath.Join(dir, "b.labels") + " that the run writes for job b (" + filepath.Join(dir, "other.jsonl") + ":2)"}},
		{"truth is another job's labels file", write("truth.jsonl", `{"id":"a","graph":"g.txt","truth":"b.labels","k":2}`+"\n"+`{"id":"b","graph":"g.txt","k":2}`+"\n"), "", dir,
			[]string{"truth.jsonl:1: job a", "its truth b.labels", "the labels file " + filepath.Join(dir, "b.labels") + " that the run writes for job b"}},
		{"a failing job's labels file", write("fail.jsonl", `{"id":"a","graph":"g.txt","labels":"b.labels","k":2}`+"\n"+`{"id":"b","k":2}`+"\n"), "", dir,
			[]string{"fail.jsonl:1: job a", "its labels b.labels", "for job b", "or removes if the job fails"}},
		{"results file", write("results.jsonl.m", `{"id":"a","graph":"out/results.jsonl","k":2}`+"\n"), "", filepath.Join(dir, "out"),
			[]string{"results.jsonl.m:1: job a", "its graph out/results.jsonl (" + filepath.Join(dir, "out", ResultsFile) + ") is the results file"}},
		{"spelled otherwise", write("sub/spelled.jsonl", `{"id":"sbm","graph":"../g.txt","labels":"./x/../../sbm.labels"}`+"\n"), "", filepath.Join(dir, "y", ".."),
			[]string{"spelled.jsonl:1: job sbm", "its labels ./x/../../sbm.labels (" + filepath.Join(dir, "sbm.labels") + ")"}},
		{"from root", write("sub/root.jsonl", `{"id":"c","input":"d.csv","k":2}`+"\n"), filepath.Join(dir, "out"), filepath.Join(dir, "out", ".", "out2", ".."),
			nil},
		{"from root, labels of the job", write("sub/root2.jsonl", `{"id":"d","input":"d.labels","k":2}`+"\n"), filepath.Join(dir, "out"), filepath.Join(dir, "out", "."),
			[]string{"root2.jsonl:1: job d", "its input d.labels (" + filepath.Join(dir, "out", "d.labels") + ")"}},
		{"a labels temporary", write("tmp.jsonl", `{"id":"a","graph":"g.txt","constraints":"out/.b.labels.tmp","k":2}`+"\n"), "", filepath.Join(dir, "out"),
			[]string{"tmp.jsonl:1: job a", "its constraints out/.b.labels.tmp", "a temporary file of the run's output"}},
		{"results temporary", write("rtmp.jsonl", `{"id":"a","graph":".results.jsonl.tmp","k":2}`+"\n"), "", dir,
			[]string{"rtmp.jsonl:1: job a", "a temporary file of the run's output"}},
		{"a temporary in a subfolder", write("subtmp.jsonl", `{"id":"a","graph":"out/sub/.b.labels.tmp","k":2}`+"\n"), "", filepath.Join(dir, "out"), nil},
		{"other folder", write("fine.jsonl", `{"id":"sbm","graph":"g.txt","labels":"sbm.labels"}`+"\n"), "", filepath.Join(dir, "out"), nil},
		{"no output folder", filepath.Join(dir, "own.jsonl"), "", "", nil},
		{"memfs", mem("m.jsonl", `{"id":"sbm","graph":"g.txt","labels":"sbm.labels"}`+"\n"), "", "memfs://check-overwrite",
			[]string{"memfs://check-overwrite/m.jsonl:1: job sbm", "its labels sbm.labels (memfs://check-overwrite/sbm.labels)"}},
		{"memfs, an URL spelled otherwise", mem("u.jsonl", `{"id":"a","graph":"memfs://check-overwrite//x/../b.labels","k":2}`+"\n"+`{"id":"b","gen":"moons","k":2}`+"\n"), "", "memfs://check-overwrite/",
			[]string{"u.jsonl:1: job a", "(memfs://check-overwrite/b.labels) is the labels file memfs://check-overwrite/b.labels that the run writes for job b"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := CheckBatch(context.Background(), tc.manifest, tc.root, tc.out)
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrOverwrite) {
				t.Fatalf("error %v, want one wrapping %v", err, ErrOverwrite)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}
