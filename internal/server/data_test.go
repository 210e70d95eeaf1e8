package server

import (
	"context"
	"errors"
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
