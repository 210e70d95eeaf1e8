package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
)

func TestMain(m *testing.M) {
	ptest.MainWithDefault(m, "prism")
}

// TestRunExitCodes: a batch that runs gives 0 and its results, and the
// output folder holds only the labels and results.jsonl; a manifest that
// fails its check gives 1 and the reason; a cancelled context (an
// interrupt) gives 130 and "interrupted", not the runner's message, and
// leaves neither results.jsonl nor its temporary file, even when the
// writer was stopped mid-way without its cleanup (a worker that was
// writing when the process exited: os.Exit runs no deferred call; the
// temporary file was left behind).
func TestRunExitCodes(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "m.jsonl")
	if err := os.WriteFile(manifest, []byte(`{"id":"a","gen":"moons","gen_params":{"n":"60"},"k":2,"method":"njw","seed":1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.jsonl")
	if err := os.WriteFile(empty, []byte("# nothing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name     string
		ctx      context.Context
		manifest string
		partial  bool // a temporary results file is in the folder before the run
		code     int
		stderr   string
		files    []string // the output folder's files afterwards; nil: no folder
	}{
		{"runs", context.Background(), manifest, false, 0, "", []string{"a.labels", "results.jsonl"}},
		{"empty manifest", context.Background(), empty, false, 1, "no jobs", nil},
		{"interrupted", cancelled, manifest, false, 130, "tether-beam: interrupted", []string{}},
		{"interrupted during the write", cancelled, manifest, true, 130, "tether-beam: interrupted", []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			if tc.partial {
				if err := os.MkdirAll(out, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(out, ".results.jsonl.tmp"), []byte(`{"id":"a",`), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var stderr bytes.Buffer
			code := run(tc.ctx, tc.manifest, out, "", &stderr)
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
