package testmem

import (
	"runtime"
	"testing"
)

// TestAllocated: a 1 MiB allocation counts at least 1 MiB, and not ten
// times that; nothing allocated counts little.
func TestAllocated(t *testing.T) {
	const size = 1 << 20
	var b []byte
	got := Allocated(func() { b = make([]byte, size) })
	runtime.KeepAlive(b)
	if got < size || got > 10*size {
		t.Errorf("Allocated(1 MiB) = %d bytes, want in [%d, %d]", got, size, 10*size)
	}
	if got := Allocated(func() {}); got > 64<<10 {
		t.Errorf("Allocated(nothing) = %d bytes, want at most 64 KiB", got)
	}
}
