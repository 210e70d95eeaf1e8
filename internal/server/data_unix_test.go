//go:build unix

package server

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestDataRootSpecialFiles checks that a file under the -data root that is
// not a regular file is refused at once: opening a FIFO for reading blocks
// until a writer comes, which held the session's lock and a worker token
// for good (two such requests stopped every computation of the server).
func TestDataRootSpecialFiles(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "fifo.csv"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("fifo.csv", filepath.Join(root, "fifo-link.csv")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "dir.csv"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := newTest(t, Config{DataRoot: root})
	var info sessionInfo
	callJSON(t, s, "POST", "/api/sessions", nil, &info, http.StatusCreated)
	for _, file := range []string{"fifo.csv", "fifo-link.csv", "dir.csv", "."} {
		t.Run(file, func(t *testing.T) {
			type result struct {
				code int
				body []byte
			}
			done := make(chan result, 1)
			go func() {
				code, b := call(t, s, "POST", "/api/sessions/"+info.ID+"/data", "application/json", []byte(`{"file":"`+file+`"}`))
				done <- result{code, b}
			}()
			select {
			case r := <-done:
				var e errorReply
				if r.code != http.StatusBadRequest || json.Unmarshal(r.body, &e) != nil || !strings.Contains(e.Error, "not a regular file") {
					t.Errorf("status %d body %s, want 400 saying not a regular file", r.code, r.body)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("loading %s still hangs after 10 s", file)
			}
		})
	}
}
