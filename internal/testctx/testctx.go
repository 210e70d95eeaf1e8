// Package testctx holds contexts for tests of cancellation: a context that
// reports cancellation after a given number of checks, so that a test can
// prove that a long loop polls its context, deterministically and without
// timing.
package testctx

import (
	"context"
	"errors"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tether-sc/tether/progress"
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

// StopsMidRead runs read on an Endless input of line that cancels read's
// context after 1 MiB, and fails t unless read returns an error wrapping
// context.Canceled whose message names name, having taken at most another
// MiB after the cancellation. The watchdog of one minute is not a speed
// check: a reader that ignores its context never returns.
func StopsMidRead(t testing.TB, line, name string, read func(ctx context.Context, r io.Reader) error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const limit = 1 << 20
	src := &Endless{Line: line, After: limit, Cancel: cancel}
	done := make(chan error, 1)
	go func() { done <- read(ctx, src) }()
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		t.Fatal("the reader did not return")
	}
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), name) {
		t.Fatalf("err = %v, want context.Canceled naming %q", err, name)
	}
	if src.AfterCancel > limit {
		t.Errorf("read %d bytes after the cancellation", src.AfterCancel)
	}
}

// StepCanceller is a progress.Recorder (it has Record) for tests of
// cancellation inside one step of a stage that names its steps in
// Event.Message: it calls cancel at the first event of the step Step that
// reports progress beyond the step's first event, and keeps the steps seen
// in order. Safe for concurrent use.
type StepCanceller struct {
	Step   string
	Cancel func()

	mu    sync.Mutex
	seen  []string
	start int
}

// Record notes the event's step and cancels as described on StepCanceller.
func (c *StepCanceller) Record(e progress.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.seen) == 0 || c.seen[len(c.seen)-1] != e.Message {
		c.seen = append(c.seen, e.Message)
		c.start = e.Done
	} else if e.Message == c.Step && e.Done > c.start {
		c.Cancel()
	}
}

// Seen returns the steps seen, in order.
func (c *StepCanceller) Seen() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.seen)
}
