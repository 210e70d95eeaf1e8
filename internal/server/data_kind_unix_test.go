//go:build unix

package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadRootedNotRegular: a file under the -data root that is not a
// regular file is refused with what it is: "is a directory" for a
// directory (before: "is not a regular file (d---------)"), a named pipe
// for a FIFO.
func TestReadRootedNotRegular(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "dir.csv"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "fifo.csv"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		rel, want string
	}{
		{"dir.csv", `file "dir.csv" is a directory, not a regular file`},
		{".", `file "." is a directory, not a regular file`},
		{"fifo.csv", `file "fifo.csv" is a named pipe (FIFO), not a regular file`},
	} {
		_, err := readRooted(context.Background(), root, tc.rel, 1<<20)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "---") {
			t.Errorf("%s: error %v, want one saying %q", tc.rel, err, tc.want)
		}
	}
}
