package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
)

func TestMain(m *testing.M) {
	ptest.MainWithDefault(m, "prism")
}

// TestRunExitCodes: a batch that runs gives 0 and its results; a manifest
// that fails its check gives 1 and the reason; a cancelled context (an
// interrupt) gives 130 and "interrupted", not the runner's message.
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
		code     int
		stderr   string
	}{
		{"runs", context.Background(), manifest, 0, ""},
		{"empty manifest", context.Background(), empty, 1, "no jobs"},
		{"interrupted", cancelled, manifest, 130, "tether-beam: interrupted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			var stderr bytes.Buffer
			code := run(tc.ctx, tc.manifest, out, "", &stderr)
			if code != tc.code || !strings.Contains(stderr.String(), tc.stderr) || tc.stderr == "" && stderr.Len() > 0 {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr.String(), tc.code, tc.stderr)
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
