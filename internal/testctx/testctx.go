// Package testctx holds contexts for tests of cancellation: a context that
// reports cancellation after a given number of checks, so that a test can
// prove that a long loop polls its context, deterministically and without
// timing.
package testctx

import (
	"context"
	"sync"
	"sync/atomic"
)

// CancelAfter returns a context whose Err returns nil for the first n calls
// and context.Canceled from call n + 1 on; its Done channel is closed at
// that call. It never cancels by itself otherwise, so a loop that does not
// call Err (or watch Done) runs to the end: a test can count how much work
// was done after the n-th check.
func CancelAfter(n int) context.Context {
	c := &countdown{Context: context.Background(), done: make(chan struct{})}
	c.left.Store(int64(n))
	return c
}

type countdown struct {
	context.Context
	left atomic.Int64
	once sync.Once
	done chan struct{}
}

func (c *countdown) Err() error {
	if c.left.Add(-1) < 0 {
		c.once.Do(func() { close(c.done) })
		return context.Canceled
	}
	return nil
}

func (c *countdown) Done() <-chan struct{} { return c.done }

// Endless is an io.Reader that repeats Line forever, as a pipe whose
// writer never stops would, and calls Cancel (once) when it has given
// After bytes; Read counts the bytes given before and after that call, so
// that a test can check that a reader stops soon after a cancellation
// mid-read, without timing. A reader that does not poll its context never
// returns: run it with a watchdog.
type Endless struct {
	Line   string
	After  int
	Cancel func()
	// Given is the number of bytes given; AfterCancel those given after
	// Cancel was called.
	Given, AfterCancel int
	cancelled          bool
}

func (e *Endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k := e.Given % len(e.Line)
		c := copy(p[n:], e.Line[k:])
		n += c
		e.Given += c
		if e.cancelled {
			e.AfterCancel += c
		}
	}
	if !e.cancelled && e.Given >= e.After {
		e.cancelled = true
		e.Cancel()
	}
	return n, nil
}
