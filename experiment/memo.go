package experiment

import (
	"context"
	"fmt"
	"sync"
)

// memo builds a value once per key and hands the same value to every
// caller, for the life of the memo: the cells of one dataset share its
// graph. It is safe for concurrent use; callers asking for a key being
// built wait for it. Errors are kept like values (a build is not retried).
//
// If keep is positive, only the keep most recently added keys are kept:
// adding another forgets the oldest, so the dense graphs of large data sets
// do not pile up (callers still holding it keep using it). The zero memo
// keeps every key.
//
// Each Experiment value owns its memos, so nothing is shared between runs
// through package state.
type memo[K comparable, V any] struct {
	keep int

	mu    sync.Mutex
	order []K // keys in the order they were added, when keep > 0
	m     map[K]*memoEntry[V]
}

type memoEntry[V any] struct {
	once sync.Once
	v    V
	err  error
}

// get returns the value of key, calling build(ctx) to make it if no caller
// has yet. The ctx of the first caller is the one build sees.
func (c *memo[K, V]) get(ctx context.Context, key K, build func(ctx context.Context) (V, error)) (V, error) {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[K]*memoEntry[V]{}
	}
	e, ok := c.m[key]
	if !ok {
		e = &memoEntry[V]{}
		c.m[key] = e
		if c.keep > 0 {
			c.order = append(c.order, key)
			if len(c.order) > c.keep {
				delete(c.m, c.order[0])
				c.order = c.order[1:]
			}
		}
	}
	c.mu.Unlock()
	e.once.Do(func() {
		defer func() {
			// A panicking build would leave the entry empty but done.
			if r := recover(); r != nil {
				e.err = fmt.Errorf("panic: %v", r)
			}
		}()
		e.v, e.err = build(ctx)
	})
	return e.v, e.err
}
