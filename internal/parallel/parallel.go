// Package parallel splits loops over index ranges across the available
// cores.
package parallel

import (
	"runtime"
	"sync"
)

// MinWork is the amount of work (in flops or similar units) below which
// Range runs serially: goroutines cost more than they save on small loops.
const MinWork = 1 << 16

// Range calls work on consecutive chunks covering [0, n), one per
// GOMAXPROCS goroutine, and waits for them. When work (the loop's total
// cost) is below MinWork, or n is small, it calls work(0, n) directly. The
// chunks are disjoint, so work may write to per-index outputs freely.
func Range(n, cost int, work func(lo, hi int)) {
	procs := runtime.GOMAXPROCS(0)
	if procs < 2 || cost < MinWork || n < 2*procs {
		work(0, n)
		return
	}
	var wg sync.WaitGroup
	chunk := (n + procs - 1) / procs
	for lo := 0; lo < n; lo += chunk {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			work(lo, hi)
		}(lo, min(lo+chunk, n))
	}
	wg.Wait()
}
