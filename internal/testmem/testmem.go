// Package testmem measures what a piece of code allocates, for tests that
// bound memory (a reader's bytes per input byte, a refused request's
// allocation, a method's peak heap against its estimate): one helper
// instead of a MemStats delta or a sampler written in each.
package testmem

import (
	"runtime"
	"time"
)

// Allocated runs f and returns the bytes allocated meanwhile
// (runtime.MemStats.TotalAlloc after f minus before it), after a
// collection, so that what f frees does not lower the count: the count is
// of the whole process, so goroutines running beside f add theirs. Cost
// that of f plus two runtime.ReadMemStats (each stops the world briefly)
// and a runtime.GC.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// PeakHeap runs f and returns the largest growth of the heap
// (runtime.MemStats.HeapAlloc, which counts garbage until the collector
// runs) over its size before f, after a collection, sampled every
// millisecond by a goroutine while f runs, and once more when f returns
// (so what f still holds then is counted). It is a sampled lower bound of
// the true peak: a peak that lasts less than the interval between two
// samples (a short f, a block allocated and freed at once) can be missed,
// so one call on a run of a few milliseconds can report far less than the
// peak; a test should only compare it as "at most" something (an
// estimate that must cover the peak), or repeat it and take the maximum,
// or use Allocated (TotalAlloc: deterministic, an upper bound of the
// peak growth) for the other direction. Like Allocated, it counts the
// whole process. Cost: that of f, a runtime.GC, and one
// runtime.ReadMemStats (which stops the world briefly) a millisecond
// beside it and one after it.
func PeakHeap(f func()) uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	done := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		var top uint64
		var s runtime.MemStats
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				runtime.ReadMemStats(&s)
				peak <- max(top, s.HeapAlloc-min(base, s.HeapAlloc))
				return
			case <-tick.C:
				runtime.ReadMemStats(&s)
				top = max(top, s.HeapAlloc-min(base, s.HeapAlloc))
			}
		}
	}()
	f()
	close(done)
	return <-peak
}
