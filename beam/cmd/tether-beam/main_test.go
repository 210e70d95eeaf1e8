package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/memfs"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	tetherbeam "github.com/tether-sc/tether/beam"
	"github.com/tether-sc/tether/beam/internal/fakegcs"
	"github.com/tether-sc/tether/beam/internal/privatetmp"
)

// TestMain runs the tests on Prism, with TMPDIR pointing to a folder of
// their own, removed afterwards: each pipeline run in loopback mode leaves
// an empty beamloopbackworker-N file there (privatetmp).
//
// With TETHER_BEAM_TEST_MAIN=1 the test binary is tether-beam itself (its
// main, with the arguments given), for the tests that run it in a child
// process.
func TestMain(m *testing.M) {
	if os.Getenv("TETHER_BEAM_TEST_MAIN") == "1" {
		main()
		return
	}
	os.Exit(privatetmp.Run(func() int { return ptest.MainRetWithDefault(m, "prism") }))
}

// TestRunExitCodes: a batch that runs gives 0 and its results, and the
// output folder holds only the labels and results.jsonl; a manifest that
// fails its check gives 1 and the reason; a cancelled context (an
// interrupt) gives 130 and "interrupted", not the runner's message, and
// leaves neither results.jsonl nor a temporary file, even when writers
// were stopped mid-way without their cleanup (workers that were writing
// when the process exited: os.Exit runs no deferred call; results.jsonl's
// and labels temporaries were left behind).
func TestRunExitCodes(t *testing.T) {
	dir := t.TempDir()
	manifest := oneJobManifest(t, dir)
	empty := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(empty, []byte("# nothing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		interrupt bool // the context is cancelled once the manifest has passed its check
		manifest  string
		partial   bool // temporary results and labels files are in the folder before the run
		code      int
		stderr    string
		files     []string // the output folder's files afterwards; nil: no folder
	}{
		{"runs", false, manifest, false, 0, "", []string{"a.labels", "results.jsonl"}},
		{"empty manifest", false, empty, false, 1, "no jobs", nil},
		{"interrupted", true, manifest, false, 130, "tether-beam: interrupted", []string{}},
		{"interrupted during the write", true, manifest, true, 130, "tether-beam: interrupted", []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			if tc.partial {
				if err := os.MkdirAll(out, 0o755); err != nil {
					t.Fatal(err)
				}
				// What atomicfile and Files name their temporaries.
				for _, name := range []string{".results.jsonl.tmp", ".a.labels.tmp2718281", ".b.labels.tmp"} {
					if err := os.WriteFile(filepath.Join(out, name), []byte(`{"id":"a",`), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.interrupt {
				// After the check, which a cancelled context stops
				// before the pipeline and the output folder.
				checked = cancel
				defer func() { checked = func() {} }()
			}
			var stderr bytes.Buffer
			code := run(ctx, tc.manifest, out, "", &stderr)
			if code != tc.code || !strings.Contains(stderr.String(), tc.stderr) || tc.stderr == "" && stderr.Len() > 0 {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr.String(), tc.code, tc.stderr)
			}
			ents, err := os.ReadDir(out)
			files := []string{}
			for _, e := range ents {
				files = append(files, e.Name())
			}
			if tc.files == nil && !os.IsNotExist(err) || tc.files != nil && !slices.Equal(files, tc.files) {
				t.Fatalf("output folder holds %q (%v), want %q", files, err, tc.files)
			}
			if tc.code == 0 {
				b, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
				if err != nil || strings.Contains(string(b), `"error"`) {
					t.Errorf("results %q (%v), want one job without error", b, err)
				}
			}
		})
	}
}

// TestRunMemfs: manifest, default root (the manifest's folder), a job's
// graph file and -out on a file system with a scheme (memfs://, shared
// with loopback Prism's in-process workers): the run gives 0 and writes
// the labels and results.jsonl there, and no local folder named after
// -out ("memfs:/cli/out" was what filepath.Join and os.MkdirAll made of
// it).
func TestRunMemfs(t *testing.T) {
	t.Chdir(t.TempDir())
	memfs.Write("memfs://cli/data/g.txt", []byte("0 1 1\n1 2 1\n2 0 1\n3 4 1\n4 5 1\n5 3 1\n2 3 0.1\n"))
	memfs.Write("memfs://cli/m.jsonl", []byte(`{"id":"g","graph":"data/g.txt","k":2,"method":"njw","seed":1}`+"\n"+
		`{"id":"missing","graph":"data/nope.txt","k":2}`+"\n"))
	var stderr bytes.Buffer
	if code := run(context.Background(), "memfs://cli/m.jsonl", "memfs://cli/out", "", &stderr); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	var f tetherbeam.Files
	labels, err := f.ReadFile(context.Background(), "memfs://cli/out/g.labels")
	if err != nil || string(labels) != "0\n0\n0\n1\n1\n1\n" {
		t.Errorf("labels %q (%v)", labels, err)
	}
	res, err := f.ReadFile(context.Background(), "memfs://cli/out/results.jsonl")
	if err != nil || !strings.Contains(string(res), `"id":"g","method":"njw","n":6`) || !strings.Contains(string(res), `"error":"job missing: graph memfs://cli/data/nope.txt: file does not exist"`) {
		t.Errorf("results %q (%v)", res, err)
	}
	if ents, _ := os.ReadDir("."); len(ents) != 0 {
		t.Errorf("the run made local files: %v", ents)
	}
}

// TestRunGCS: as TestRunMemfs, on gs:// paths, Beam's gcs file system
// (registered by main's import) talking to a fake GCS server in process
// (fakegcs): the manifest is checked and read from the bucket, the job's
// graph file too, the labels and results.jsonl are written there, read
// back from the server itself, and no other object (no temporary one) and
// no local file is left.
func TestRunGCS(t *testing.T) {
	t.Chdir(t.TempDir())
	srv := fakegcs.Start(t, "cli")
	srv.Put("cli", "data/g.txt", []byte("0 1 1\n1 2 1\n2 0 1\n3 4 1\n4 5 1\n5 3 1\n2 3 0.1\n"))
	srv.Put("cli", "m.jsonl", []byte(`{"id":"g","graph":"data/g.txt","k":2,"method":"njw","seed":1}`+"\n"+
		`{"id":"missing","graph":"data/nope.txt","k":2}`+"\n"))
	var stderr bytes.Buffer
	if code := run(context.Background(), "gs://cli/m.jsonl", "gs://cli/out", "", &stderr); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	labels, err := srv.Content("cli", "out/g.labels")
	if err != nil || string(labels) != "0\n0\n0\n1\n1\n1\n" {
		t.Errorf("labels %q (%v)", labels, err)
	}
	res, err := srv.Content("cli", "out/results.jsonl")
	if err != nil || !strings.Contains(string(res), `"id":"g","method":"njw","n":6`) || !strings.Contains(string(res), `"error":"job missing: graph gs://cli/data/nope.txt: storage: object doesn't exist"`) {
		t.Errorf("results %q (%v)", res, err)
	}
	if got, want := srv.Objects(t, "cli", "out/"), []string{"out/g.labels", "out/results.jsonl"}; !slices.Equal(got, want) {
		t.Errorf("gs://cli/out holds %q, want %q", got, want)
	}
	if ents, _ := os.ReadDir("."); len(ents) != 0 {
		t.Errorf("the run made local files: %v", ents)
	}
}

// oneJobManifest writes dir/m.jsonl, a manifest of one small job (NJW on
// 60 moons points), and returns its path.
func oneJobManifest(t *testing.T, dir string) string {
	t.Helper()
	manifest := filepath.Join(dir, "m.jsonl")
	if err := os.WriteFile(manifest, []byte(`{"id":"a","gen":"moons","gen_params":{"n":"60"},"k":2,"method":"njw","seed":1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return manifest
}

// TestRunLeavesNoTempFile: a run leaves nothing in the temporary folder
// (TMPDIR), whether its pipeline completes, is interrupted or never
// starts: Beam's loopback mode made an empty beamloopbackworker-N file
// there at each pipeline run and left it.
func TestRunLeavesNoTempFile(t *testing.T) {
	dir := t.TempDir()
	manifest := oneJobManifest(t, dir)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name     string
		ctx      context.Context
		manifest string
		code     int
	}{
		{"runs", context.Background(), manifest, 0},
		{"interrupted", cancelled, manifest, 130},
		{"missing manifest", context.Background(), filepath.Join(dir, "nope.jsonl"), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			var stderr bytes.Buffer
			if code := run(tc.ctx, tc.manifest, filepath.Join(t.TempDir(), "out"), "", &stderr); code != tc.code {
				t.Fatalf("exit %d, stderr %q; want %d", code, stderr.String(), tc.code)
			}
			if got := os.Getenv("TMPDIR"); got != tmp {
				t.Fatalf("TMPDIR = %q after the run, want %q", got, tmp)
			}
			ents, err := os.ReadDir(tmp)
			if err != nil {
				t.Fatal(err)
			}
			if len(ents) > 0 {
				var left []string
				for _, e := range ents {
					left = append(left, e.Name())
				}
				t.Fatalf("the run left %q in TMPDIR", left)
			}
		})
	}
}

// TestPipelineError: a pipeline error whose text holds
// tetherbeam.ErrNoJobs's (the runner wraps the DoFn's error in its own
// page of text) becomes one line that names the manifest and wraps
// ErrNoJobs; any other error is left as it is.
func TestPipelineError(t *testing.T) {
	other := errors.New("bundle failed: job a: staging its labels: disk full")
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"no job line", fmt.Errorf("bundle inst007 stage-008 failed: process bundle failed:\n\tcaused by:\nmanifest /x/m.jsonl: %s: nothing was written", tetherbeam.ErrNoJobs.Error()),
			"manifest m.jsonl: the pipeline read no job line: nothing was written (was the manifest emptied or replaced during the run?)"},
		{"other", other, other.Error()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := pipelineError(tc.err, "m.jsonl")
			if err.Error() != tc.want {
				t.Fatalf("error %q, want %q", err, tc.want)
			}
			if tc.name == "no job line" && !errors.Is(err, tetherbeam.ErrNoJobs) {
				t.Errorf("error %v does not wrap ErrNoJobs", err)
			}
		})
	}
}

// TestRunManifestGlob: a manifest glob whose folder part matches several
// folders (-manifest 'd?/m.jsonl') runs the jobs of each file on the files
// beside it when -root is not given; with -root, every job's relative
// paths start from it. The default root was job.Dir of the glob, the
// literal folder "d?", where no job found its graph.
func TestRunManifestGlob(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const g = "0 1 1\n1 2 1\n2 0 1\n3 4 1\n4 5 1\n5 3 1\n2 3 0.1\n"
	write("d1/g.txt", g)
	write("d1/m.jsonl", `{"id":"one","graph":"g.txt","k":2,"method":"njw","seed":1}`+"\n")
	write("d2/g.txt", g)
	write("d2/m.jsonl", `{"id":"two","graph":"g.txt","k":2,"method":"njw","seed":1}`+"\n")
	write("e1/m.jsonl", `{"id":"three","graph":"d1/g.txt","k":2,"method":"njw","seed":1}`+"\n")
	write("e2/m.jsonl", `{"id":"four","graph":"d2/g.txt","k":2,"method":"njw","seed":1}`+"\n")
	for _, tc := range []struct {
		name, manifest, root string
		ids                  []string // the jobs, each without error
	}{
		{"no -root", filepath.Join(dir, "d?", "m.jsonl"), "", []string{"one", "two"}},
		{"-root", filepath.Join(dir, "e*", "m.jsonl"), dir, []string{"four", "three"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			var stderr bytes.Buffer
			if code := run(context.Background(), tc.manifest, out, tc.root, &stderr); code != 0 {
				t.Fatalf("exit %d, stderr %q", code, stderr.String())
			}
			b, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				var r struct{ ID, Error string }
				if err := json.Unmarshal([]byte(line), &r); err != nil {
					t.Fatal(err)
				}
				if r.Error != "" {
					t.Errorf("job %s: %s", r.ID, r.Error)
				}
				ids = append(ids, r.ID)
			}
			slices.Sort(ids)
			if !slices.Equal(ids, tc.ids) {
				t.Errorf("results of jobs %q, want %q", ids, tc.ids)
			}
		})
	}
}

// TestRunRefusesOverwrite: tether-beam -out . on a manifest whose job
// reads its partial labels from sbm.labels, the file the run writes for
// job sbm, exits 1 with the manifest line and both paths, before the
// pipeline: the file is left as it was, whether the job would succeed
// (its labels replaced the input) or fail (the commit removed them).
func TestRunRefusesOverwrite(t *testing.T) {
	for _, tc := range []struct{ name, line string }{
		{"job succeeds", `{"id":"sbm","graph":"sbm.txt","labels":"sbm.labels","method":"labelprop"}`},
		{"job fails", `{"id":"sbm","graph":"nope.txt","labels":"sbm.labels","method":"labelprop"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			files := map[string]string{
				"sbm.txt":    "0 1 1\n1 2 1\n2 0 1\n3 4 1\n4 5 1\n5 3 1\n2 3 0.1\n",
				"sbm.labels": "0\n-1\n-1\n1\n-1\n-1\n",
				"m.jsonl":    tc.line + "\n",
			}
			for name, content := range files {
				if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var stderr bytes.Buffer
			code := run(context.Background(), "m.jsonl", ".", "", &stderr)
			want := "tether-beam: m.jsonl:1: job sbm: the run would write over an input file: its labels sbm.labels (" + filepath.Join(dir, "sbm.labels") + ") is the labels file " + filepath.Join(dir, "sbm.labels")
			if code != 1 || !strings.HasPrefix(stderr.String(), want) {
				t.Fatalf("exit %d, stderr %q; want 1 and %q", code, stderr.String(), want)
			}
			for name, content := range files {
				if b, err := os.ReadFile(name); err != nil || string(b) != content {
					t.Errorf("%s holds %q (%v), want it as it was", name, b, err)
				}
			}
			if ents, _ := os.ReadDir("."); len(ents) != len(files) {
				t.Errorf("the folder holds %d files, want %d", len(ents), len(files))
			}
		})
	}
}

// TestRunRecoversKilledCommit: a run into a folder where a killed
// process cut a commit short — its temporary results file there, a's new
// labels put in place with a's earlier ones set aside, b's earlier ones
// set aside (b failed) — undoes that commit before its pipeline starts
// (tetherbeam.RemovePartial), on a local folder and on gs:// (a fake GCS
// server): interrupted, it leaves the folder as the run before the cut
// one left it; completed, its own output, b's earlier labels (b is not in
// its manifest) and no temporary file. A recovery that fails (a folder
// where a.labels goes) stops the run before the pipeline, exit 1, with an
// error naming the files, and the set-aside labels are kept. The
// set-aside labels were removed as temporaries: an interrupted run left
// a's labels of the cut run and no b.labels beside an earlier
// results.jsonl listing both as succeeded.
func TestRunRecoversKilledCommit(t *testing.T) {
	dir := t.TempDir()
	manifest := oneJobManifest(t, dir)
	const earlier = `{"id":"a","method":"njw"}` + "\n" + `{"id":"b","method":"njw"}` + "\n"
	cut := map[string]string{
		"results.jsonl":      earlier,
		".results.jsonl.tmp": `{"id":"a","method":"njw"}` + "\n" + `{"id":"b","method":"njw","error":"x"}` + "\n",
		"a.labels":           "new a\n", ".a.labels.tmp.old": "old a\n",
		".b.labels.tmp.old": "old b\n",
	}
	earlierRun := map[string]string{"results.jsonl": earlier, "a.labels": "old a\n", "b.labels": "old b\n"}
	for _, kind := range []string{"local", "gs"} {
		for _, tc := range []struct {
			name      string
			interrupt bool
			blocked   bool // a.labels is a folder, which the recovery cannot replace (local only)
			code      int
			stderr    string
		}{
			{"interrupted", true, false, 130, "tether-beam: interrupted"},
			{"runs", false, false, 0, ""},
			{"recovery fails", false, true, 1, "putting the earlier labels OUT/.a.labels.tmp.old back to OUT/a.labels"},
		} {
			if tc.blocked && kind != "local" {
				continue
			}
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				var (
					out      string
					contents func() map[string]string
				)
				if kind == "local" {
					out = filepath.Join(t.TempDir(), "out")
					if err := os.MkdirAll(out, 0o755); err != nil {
						t.Fatal(err)
					}
					for name, content := range cut {
						if err := os.WriteFile(filepath.Join(out, name), []byte(content), 0o644); err != nil {
							t.Fatal(err)
						}
					}
					if tc.blocked {
						if err := os.Remove(filepath.Join(out, "a.labels")); err != nil {
							t.Fatal(err)
						}
						if err := os.MkdirAll(filepath.Join(out, "a.labels", "sub"), 0o755); err != nil {
							t.Fatal(err)
						}
					}
					contents = func() map[string]string {
						m := map[string]string{}
						ents, _ := os.ReadDir(out)
						for _, e := range ents {
							if !e.IsDir() {
								b, _ := os.ReadFile(filepath.Join(out, e.Name()))
								m[e.Name()] = string(b)
							}
						}
						return m
					}
				} else {
					t.Chdir(t.TempDir())
					srv := fakegcs.Start(t, "cli")
					out = "gs://cli/out"
					for name, content := range cut {
						srv.Put("cli", "out/"+name, []byte(content))
					}
					contents = func() map[string]string {
						m := map[string]string{}
						for _, o := range srv.Objects(t, "cli", "out/") {
							b, _ := srv.Content("cli", o)
							m[strings.TrimPrefix(o, "out/")] = string(b)
						}
						return m
					}
				}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if tc.interrupt {
					checked = cancel
					defer func() { checked = func() {} }()
				}
				var stderr bytes.Buffer
				code := run(ctx, manifest, out, "", &stderr)
				want := strings.ReplaceAll(tc.stderr, "OUT", out)
				if code != tc.code || !strings.Contains(stderr.String(), want) || want == "" && stderr.Len() > 0 {
					t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr.String(), tc.code, want)
				}
				got := contents()
				switch {
				case tc.blocked:
					if got[".a.labels.tmp.old"] != "old a\n" || got[".results.jsonl.tmp"] != cut[".results.jsonl.tmp"] || got["results.jsonl"] != earlier {
						t.Fatalf("the folder holds %q, want the set-aside labels, the temporary and the earlier results kept", got)
					}
				case tc.code == 0:
					if len(got) != 3 || got["b.labels"] != "old b\n" || !strings.HasPrefix(got["results.jsonl"], `{"id":"a"`) || strings.Count(got["results.jsonl"], "\n") != 1 ||
						got["a.labels"] == "" || strings.Contains(got["a.labels"], "a") {
						t.Fatalf("the folder holds %q, want the run's a.labels and results.jsonl and b's earlier labels", got)
					}
				default:
					if !maps.Equal(got, earlierRun) {
						t.Fatalf("the folder holds %q, want the earlier run's %q", got, earlierRun)
					}
				}
			})
		}
	}
}
