// Package parallel runs loops over index ranges on several goroutines.
//
// For is the general loop: a dynamic queue hands the indices 0…n−1 out in
// increasing order to a fixed number of goroutines, stops handing them out
// at the first error or when the context is cancelled, and returns that
// error. ForState gives each goroutine its own scratch state. Range splits
// a cheap loop into one contiguous chunk per core when its total cost makes
// that worthwhile.
//
// Determinism is the caller's part: fn(i) must compute the same thing
// whichever goroutine runs it and in whatever order, which holds when it
// writes only to per-index outputs (results[i] = …) and per-goroutine
// scratch state, and reductions over the outputs are done after the loop,
// in index order.
package parallel

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// Workers returns the number of goroutines For uses for n indices when asked
// for workers: GOMAXPROCS when workers ≤ 0, and never more than n.
func Workers(workers, n int) int {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return max(min(workers, n), 1)
}

// For calls fn(i) for every i in [0, n) on Workers(workers, n) goroutines
// and waits for them. Indices are handed out one at a time in increasing
// order, so a goroutine that finishes early takes the next index (a dynamic
// queue: uneven jobs balance themselves). With one worker For runs the loop
// on the calling goroutine, starting no goroutine; otherwise the calling
// goroutine is one of the workers.
//
// For stops handing out indices as soon as fn returns an error or ctx is
// cancelled; calls already under way run to completion (fn should watch ctx
// itself if it is long). It returns the first error fn returned, or
// ctx.Err() when ctx was cancelled before every index was handed out, so a
// nil error means fn(i) ran and returned nil for every i. An index handed
// out after the failure is never started: with one worker no index after
// the failing one is started, with w workers at most the w−1 indices other
// workers had already taken.
//
// A panic in fn stops the loop like an error; For waits for the other
// workers and then panics on the calling goroutine, so that the caller's
// recover (an HTTP handler's, say) still sees it, with an error value that
// prints the original value and the worker's stack and unwraps to the
// original value when that is an error.
//
// Cost: one atomic increment and one ctx.Err per index, plus the goroutine
// starts; give fn at least a few microseconds of work (group cheap indices
// into blocks, or use Range).
func For(ctx context.Context, n, workers int, fn func(i int) error) error {
	return ForState(ctx, n, workers, func() struct{} { return struct{}{} },
		func(_ struct{}, i int) error { return fn(i) })
}

// ForState is For with per-goroutine state: each goroutine calls newState
// once, before the first index it takes (so not at all if it takes none),
// and passes the result to every fn call it makes. Use it for scratch
// buffers; fn must not let the state change what it computes for i.
func ForState[S any](ctx context.Context, n, workers int, newState func() S, fn func(s S, i int) error) error {
	if n < 0 {
		panic(fmt.Sprintf("parallel: negative length %d", n))
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	workers = Workers(workers, n)
	if workers == 1 {
		s := newState()
		for i := range n {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := fn(s, i); err != nil {
				return err
			}
		}
		return nil
	}

	var (
		next    atomic.Int64 // the next index to hand out
		stopped atomic.Bool  // set on the first error, cancellation or panic
		mu      sync.Mutex   // guards first and pv
		first   error
		pv      *panicValue
	)
	fail := func(err error, p *panicValue) {
		mu.Lock()
		if first == nil && pv == nil {
			first, pv = err, p
		}
		mu.Unlock()
		stopped.Store(true)
	}
	work := func() {
		defer func() {
			if r := recover(); r != nil {
				fail(nil, &panicValue{value: r, stack: debug.Stack()})
			}
		}()
		var s S
		started := false
		for !stopped.Load() {
			i := int(next.Add(1) - 1)
			if i >= n {
				return
			}
			if err := ctx.Err(); err != nil {
				fail(err, nil)
				return
			}
			if !started {
				s, started = newState(), true
			}
			if err := fn(s, i); err != nil {
				fail(err, nil)
				return
			}
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	if pv != nil {
		panic(pv)
	}
	return first
}

// panicValue carries a worker's panic to the calling goroutine with the
// worker's stack, which the re-panic would otherwise lose.
type panicValue struct {
	value any
	stack []byte
}

func (p *panicValue) Error() string {
	return fmt.Sprintf("%v\n\ngoroutine stack of the panicking parallel.For worker:\n%s", p.value, p.stack)
}

// Unwrap returns the panic value when it is an error, so errors.Is and
// errors.As see through a recovered panic.
func (p *panicValue) Unwrap() error {
	err, _ := p.value.(error)
	return err
}

// MinWork is the amount of work (in flops or similar units) below which
// Range runs serially: goroutines cost more than they save on small loops.
const MinWork = 1 << 16

// Range calls work on consecutive chunks covering [0, n), one per
// GOMAXPROCS goroutine, and waits for them. When cost (the loop's total
// work) is below MinWork, or n is small, it calls work(0, n) directly. The
// chunks are disjoint, so work may write to per-index outputs freely. Range
// suits cheap, even loops; For suits uneven or cancellable ones.
func Range(n, cost int, work func(lo, hi int)) {
	procs := runtime.GOMAXPROCS(0)
	if procs < 2 || cost < MinWork || n < 2*procs {
		work(0, n)
		return
	}
	chunk := (n + procs - 1) / procs
	chunks := (n + chunk - 1) / chunk
	For(context.Background(), chunks, chunks, func(c int) error {
		work(c*chunk, min((c+1)*chunk, n))
		return nil
	})
}
