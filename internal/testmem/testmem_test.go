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

// TestPeakHeap: a 4 MiB block f still holds when it returns counts at
// least 4 MiB (the sample after f cannot miss it) and not more than what
// f allocated (Allocated's TotalAlloc bounds the growth) plus the
// sampler's own; f allocating nothing counts little.
func TestPeakHeap(t *testing.T) {
	const size = 4 << 20
	var b []byte
	got := PeakHeap(func() { b = make([]byte, size) })
	runtime.KeepAlive(b)
	if got < size || got > size+64<<10 {
		t.Errorf("PeakHeap(4 MiB held) = %d bytes, want in [%d, %d]", got, size, size+64<<10)
	}
	if got := PeakHeap(func() {}); got > 64<<10 {
		t.Errorf("PeakHeap(nothing) = %d bytes, want at most 64 KiB", got)
	}
}
