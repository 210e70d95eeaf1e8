package server

import (
	"bytes"
	"context"
	"errors"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// errAfter is a context whose Err is nil for its first calls and
// context.Canceled after them.
type errAfter struct {
	context.Context
	left int
}

func (c *errAfter) Err() error {
	if c.left == 0 {
		return context.Canceled
	}
	c.left--
	return nil
}

// TestReadRootedPollsContext checks that a file under the -data root is
// read only while the request's context lasts: the read stops at the
// first check after the cancellation, with the context's error naming the
// file (it was read to the end, up to the upload limit, whatever the
// request's fate).
func TestReadRootedPollsContext(t *testing.T) {
	root := t.TempDir()
	content := strings.Repeat("0.5,0.25\n", 1<<17) // 1.1 MB, many reads
	if err := os.WriteFile(filepath.Join(root, "big.csv"), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := readRooted(context.Background(), root, "big.csv", 64<<20)
	if err != nil || string(b) != content {
		t.Fatalf("uncancelled: %d bytes, %v; want the %d bytes of the file", len(b), err, len(content))
	}
	for _, left := range []int{0, 1, 3} {
		ctx := &errAfter{Context: context.Background(), left: left}
		b, err := readRooted(ctx, root, "big.csv", 64<<20)
		if !errors.Is(err, context.Canceled) || errors.Is(err, errBadInput) || !strings.Contains(err.Error(), "big.csv") || b != nil {
			t.Errorf("cancelled after %d reads: %d bytes, error %v; want none and context.Canceled naming big.csv, not bad input", left, len(b), err)
		}
	}
}

// TestDataRootUnavailable: when the -data folder is gone, a request for a
// file under it gets a 500 saying the folder is unavailable, without its
// path, which the server's log has instead (the reply named the absolute
// root: "opening the -data root: open /tmp/x: no such file or
// directory"; review 116). A missing file in a root that exists is named
// relative to the root.
func TestDataRootUnavailable(t *testing.T) {
	root := filepath.Join(t.TempDir(), "x")
	if err := os.Mkdir(root, 0o700); err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	s := newTest(t, Config{DataRoot: root, Log: log.New(&logged, "", 0)})
	var info sessionInfo
	callJSON(t, s, "POST", "/api/sessions", nil, &info, http.StatusCreated)
	load := func() (int, string) {
		code, b := call(t, s, "POST", "/api/sessions/"+info.ID+"/data", "application/json", []byte(`{"file":"blobs.csv"}`))
		return code, string(b)
	}
	if code, b := load(); code != http.StatusBadRequest || strings.Contains(b, root) || !strings.Contains(b, "blobs.csv") {
		t.Errorf("a missing file: status %d, %s; want 400 naming blobs.csv, not the root %s", code, b, root)
	}
	if err := os.Remove(root); err != nil {
		t.Fatal(err)
	}
	code, b := load()
	if code != http.StatusInternalServerError || strings.Contains(b, root) || !strings.Contains(b, "-data folder is unavailable") {
		t.Errorf("the root removed: status %d, %s; want 500 saying the -data folder is unavailable, without its path %s", code, b, root)
	}
	if !strings.Contains(logged.String(), root) {
		t.Errorf("the server's log %q does not name the root %s", logged.String(), root)
	}
}
