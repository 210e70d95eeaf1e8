// Package testmem measures what a piece of code allocates, for tests that
// bound memory (a reader's bytes per input byte, a refused request's
// allocation): one helper instead of a MemStats delta written in each.
package testmem

import "runtime"

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
