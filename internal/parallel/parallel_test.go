package parallel

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

var (
	lengths    = []int{0, 1, 2, 3, 5, 10, 70, 1000}
	workerList = []int{1, 2, 8}
)

func TestForVisitsEachIndexOnce(t *testing.T) {
	for _, n := range lengths {
		for _, w := range append(workerList, 0, -1) {
			t.Run(fmt.Sprintf("n=%d/workers=%d", n, w), func(t *testing.T) {
				seen := make([]atomic.Int32, n)
				err := For(context.Background(), n, w, func(i int) error {
					seen[i].Add(1)
					return nil
				})
				if err != nil {
					t.Fatalf("For: %v", err)
				}
				for i := range seen {
					if c := seen[i].Load(); c != 1 {
						t.Fatalf("index %d visited %d times", i, c)
					}
				}
			})
		}
	}
}

func TestForStatePerGoroutine(t *testing.T) {
	for _, n := range lengths {
		for _, w := range workerList {
			t.Run(fmt.Sprintf("n=%d/workers=%d", n, w), func(t *testing.T) {
				type state struct{ owner *atomic.Int32 }
				var states atomic.Int32
				seen := make([]atomic.Int32, n)
				err := ForState(context.Background(), n, w, func() *state {
					states.Add(1)
					return &state{owner: new(atomic.Int32)}
				}, func(s *state, i int) error {
					// No two goroutines share a state: the owner count
					// of the state never exceeds one.
					if s.owner.Add(1) != 1 {
						return fmt.Errorf("state shared at index %d", i)
					}
					defer s.owner.Add(-1)
					seen[i].Add(1)
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				for i := range seen {
					if c := seen[i].Load(); c != 1 {
						t.Fatalf("index %d visited %d times", i, c)
					}
				}
				if got, most := int(states.Load()), Workers(w, n); got > most || (n > 0 && got < 1) || (n == 0 && got != 0) {
					t.Errorf("%d states made, want 1…%d (0 for n = 0)", got, most)
				}
			})
		}
	}
}

func TestForSerialRunsInline(t *testing.T) {
	// With one worker the indices run in order on the calling goroutine:
	// a panic is the caller's own (no re-wrapping).
	var order []int
	For(context.Background(), 5, 1, func(i int) error {
		order = append(order, i)
		return nil
	})
	if fmt.Sprint(order) != "[0 1 2 3 4]" {
		t.Errorf("order %v", order)
	}
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("recovered %v, want boom", r)
		}
	}()
	For(context.Background(), 3, 1, func(i int) error { panic("boom") })
}

func TestForFirstError(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 10, 70, 1000} {
		for _, w := range workerList {
			t.Run(fmt.Sprintf("n=%d/workers=%d", n, w), func(t *testing.T) {
				bad := min(3, n-1)
				errBad := errors.New("bad index")
				var failed atomic.Bool
				release := make(chan struct{})
				var maxStarted atomic.Int64
				maxStarted.Store(-1)
				err := For(context.Background(), n, w, func(i int) error {
					for {
						m := maxStarted.Load()
						if int64(i) <= m || maxStarted.CompareAndSwap(m, int64(i)) {
							break
						}
					}
					switch {
					case i == bad:
						failed.Store(true)
						// Let For record the error before the other
						// workers come back for more indices.
						time.AfterFunc(20*time.Millisecond, func() { close(release) })
						return errBad
					case i > bad:
						<-release
					}
					return nil
				})
				if !errors.Is(err, errBad) {
					t.Fatalf("err = %v, want %v", err, errBad)
				}
				// Indices are handed out in order and none after the error:
				// only those the other workers already held can have started.
				if limit := int64(bad + Workers(w, n) - 1); maxStarted.Load() > limit {
					t.Errorf("index %d started, want none after %d", maxStarted.Load(), limit)
				}
				if !failed.Load() {
					t.Error("the failing index never ran")
				}
			})
		}
	}
}

func TestForCancelled(t *testing.T) {
	for _, w := range workerList {
		t.Run(fmt.Sprintf("workers=%d/before", w), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			var calls atomic.Int32
			err := For(ctx, 1000, w, func(int) error { calls.Add(1); return nil })
			if !errors.Is(err, context.Canceled) || calls.Load() != 0 {
				t.Errorf("err = %v after %d calls, want context.Canceled after none", err, calls.Load())
			}
		})
		t.Run(fmt.Sprintf("workers=%d/during", w), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var calls atomic.Int32
			const n = 1_000_000
			start := time.Now()
			err := For(ctx, n, w, func(i int) error {
				if calls.Add(1) == 10 {
					cancel()
				}
				time.Sleep(time.Microsecond)
				return nil
			})
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
			// Each worker finishes at most the index it holds.
			if c := calls.Load(); c > int32(10+Workers(w, n)) {
				t.Errorf("%d calls after cancelling at the 10th", c)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v after cancellation", d)
			}
		})
	}
}

func TestForPanic(t *testing.T) {
	errBoom := errors.New("boom")
	defer func() {
		r := recover()
		err, ok := r.(error)
		if !ok || !errors.Is(err, errBoom) || !strings.Contains(err.Error(), "goroutine stack") {
			t.Errorf("recovered %v, want an error wrapping %v with the worker's stack", r, errBoom)
		}
	}()
	For(context.Background(), 100, 4, func(i int) error {
		if i == 50 {
			panic(errBoom)
		}
		return nil
	})
	t.Error("For returned after a panic")
}

func TestForCollectsResults(t *testing.T) {
	// The use For is made for: n independent jobs, results into a slice,
	// a reduction in index order afterwards.
	for _, w := range workerList {
		res := make([]float64, 70)
		if err := For(context.Background(), len(res), w, func(i int) error {
			res[i] = 1 / float64(i+1)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		var s float64
		for _, v := range res {
			s += v
		}
		var want float64
		for i := range 70 {
			want += 1 / float64(i+1)
		}
		if s != want {
			t.Errorf("workers=%d: sum %v, want %v exactly", w, s, want)
		}
	}
}

func TestRangeCoversEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 7, 100, 12345} {
		for _, cost := range []int{0, MinWork, 10 * MinWork} {
			seen := make([]atomic.Int32, n)
			Range(n, cost, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					seen[i].Add(1)
				}
			})
			for i := range seen {
				if c := seen[i].Load(); c != 1 {
					t.Fatalf("n=%d cost=%d: index %d visited %d times", n, cost, i, c)
				}
			}
		}
	}
}

func TestWorkers(t *testing.T) {
	for _, c := range []struct{ workers, n, want int }{
		{1, 10, 1}, {4, 10, 4}, {8, 3, 3}, {8, 0, 1}, {3, 1, 1},
	} {
		if got := Workers(c.workers, c.n); got != c.want {
			t.Errorf("Workers(%d, %d) = %d, want %d", c.workers, c.n, got, c.want)
		}
	}
}
