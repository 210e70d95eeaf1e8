//go:build linux

package testctx

import (
	"path/filepath"
	"syscall"
	"testing"
)

// Mkfifo makes a FIFO named "fifo" in a fresh folder of t's and returns
// its path; the test is skipped where mkfifo(2) fails.
func Mkfifo(t testing.TB) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	return p
}
