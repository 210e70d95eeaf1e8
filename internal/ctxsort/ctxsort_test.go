package ctxsort

import (
	"cmp"
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tether-sc/tether/internal/testctx"
)

type item struct {
	key uint64
	pos int
}

func keyOf(e item) uint64 { return e.key }

// sortCases returns the lengths of the sort tests (every length up to
// three times the insertion threshold, and long slices) and their kinds
// of keys, key(i, m) for element i of m, drawn from rnd: a few values,
// below 2²², full 64-bit, sorted, reversed, one high digit.
func sortCases(rnd *rand.Rand) ([]int, map[string]func(i, m int) uint64) {
	var lengths []int
	for m := 0; m <= 3*small; m++ {
		lengths = append(lengths, m)
	}
	lengths = append(lengths, 1000, PollEvery+17, 3*PollEvery+1, 300000)
	kinds := map[string]func(i, m int) uint64{
		"few":      func(int, int) uint64 { return rnd.Uint64N(5) },
		"narrow":   func(int, int) uint64 { return rnd.Uint64N(1 << 22) },
		"wide":     func(int, int) uint64 { return rnd.Uint64() },
		"sorted":   func(i, _ int) uint64 { return uint64(i / 3) },
		"reversed": func(i, m int) uint64 { return uint64((m - i) / 3) },
		"high":     func(int, int) uint64 { return rnd.Uint64N(4) << 60 },
	}
	return lengths, kinds
}

// ByKey gives slices.SortStableFunc's order, equal keys in their order,
// on the lengths and keys of sortCases, and ends its ticks at 1, never
// going back.
func TestByKeyMatchesStableSort(t *testing.T) {
	lengths, kinds := sortCases(rand.New(rand.NewPCG(1, 2)))
	for _, m := range lengths {
		for kind, key := range kinds {
			s := make([]item, m)
			for i := range s {
				s[i] = item{key(i, m), i}
			}
			want := slices.Clone(s)
			slices.SortStableFunc(want, func(a, b item) int { return cmp.Compare(a.key, b.key) })
			last := -1.0
			err := ByKey(context.Background(), s, keyOf, func(f float64) {
				if f < last || f > 1 {
					t.Fatalf("m = %d, %s: tick %g after %g", m, kind, f, last)
				}
				last = f
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(s, want) {
				t.Fatalf("m = %d, %s: not the stable order", m, kind)
			}
			if last != 1 {
				t.Fatalf("m = %d, %s: last tick %g, want 1", m, kind, last)
			}
		}
	}
}

// A cancelled context stops ByKey at its next check: context.Canceled
// before the start with no key read, and at the next check after the
// n-th, PollEvery elements later.
func TestByKeyCancel(t *testing.T) {
	const m = 1 << 20
	rnd := rand.New(rand.NewPCG(3, 4))
	s := make([]item, m)
	for i := range s {
		s[i] = item{rnd.Uint64(), i}
	}
	count := func(n *int) func(item) uint64 {
		return func(e item) uint64 { *n++; return e.key }
	}
	full := 0
	if err := ByKey(context.Background(), slices.Clone(s), count(&full), nil); err != nil {
		t.Fatal(err)
	}
	for _, checks := range []int{0, 1, 40} {
		calls := 0
		err := ByKey(testctx.CancelAfter(checks), slices.Clone(s), count(&calls), nil)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("after %d checks: err = %v, want context.Canceled", checks, err)
		}
		// The first check is before the start, the next ones at the
		// elements 0, PollEvery, 2·PollEvery… of the count of the digits.
		want := 0
		if checks > 0 {
			want = (checks-1)*PollEvery + 1
		}
		if calls != want {
			t.Errorf("after %d checks: %d keys read, want %d (of %d for the whole sort)", checks, calls, want, full)
		}
	}
}

// InPlace with a tie that increases along s (the position) gives
// ByKey's order, slices.SortStableFunc's, on the lengths and keys of
// sortCases and on keys all equal; with a tie of a few values, the order of
// (key, tie) that slices.SortStableFunc gives. Its ticks end at 1, never
// going back.
func TestInPlaceMatchesStableSort(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	lengths, kinds := sortCases(rnd)
	kinds["equal"] = func(int, int) uint64 { return 7 }
	posOf := func(e item) uint64 { return uint64(e.pos) }
	for _, m := range lengths {
		for kind, key := range kinds {
			for _, tie := range []string{"position", "few"} {
				s := make([]item, m)
				ties := make([]uint64, m)
				for i := range s {
					s[i] = item{key(i, m), i}
					ties[i] = rnd.Uint64N(3) << 40
				}
				tieOf := posOf
				if tie == "few" {
					tieOf = func(e item) uint64 { return ties[e.pos] }
				}
				want := slices.Clone(s)
				slices.SortStableFunc(want, func(a, b item) int {
					return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(tieOf(a), tieOf(b)))
				})
				last := -1.0
				err := InPlace(context.Background(), s, keyOf, tieOf, func(f float64) {
					if f < last || f > 1 {
						t.Fatalf("m = %d, %s, tie %s: tick %g after %g", m, kind, tie, f, last)
					}
					last = f
				})
				if err != nil {
					t.Fatal(err)
				}
				if tie == "position" && !slices.Equal(s, want) {
					t.Fatalf("m = %d, %s: not the stable order", m, kind)
				}
				if tie == "few" {
					// Equal (key, tie) in any order: the same multiset
					// of elements in (key, tie) order.
					for i := range s {
						if s[i].key != want[i].key || tieOf(s[i]) != tieOf(want[i]) {
							t.Fatalf("m = %d, %s, tie few: element %d is (%d, %d), want (%d, %d)", m, kind, i, s[i].key, tieOf(s[i]), want[i].key, tieOf(want[i]))
						}
					}
					seen := make([]bool, m)
					for _, e := range s {
						if seen[e.pos] {
							t.Fatalf("m = %d, %s, tie few: element %d twice", m, kind, e.pos)
						}
						seen[e.pos] = true
					}
				}
				if last != 1 {
					t.Fatalf("m = %d, %s, tie %s: last tick %g, want 1", m, kind, tie, last)
				}
			}
		}
	}
}

// A cancelled context stops InPlace at its next check, PollEvery
// elements read or moved after the one before (the first before the
// start, no key read), and leaves s holding each of its elements once.
func TestInPlaceCancel(t *testing.T) {
	const m = 1 << 20
	rnd := rand.New(rand.NewPCG(7, 8))
	s := make([]item, m)
	for i := range s {
		s[i] = item{rnd.Uint64(), i}
	}
	posOf := func(e item) uint64 { return uint64(e.pos) }
	calls := 0
	counted := func(e item) uint64 { calls++; return e.key }
	full := slices.Clone(s)
	if err := InPlace(context.Background(), full, counted, posOf, nil); err != nil {
		t.Fatal(err)
	}
	fullCalls := calls
	for _, checks := range []int{0, 1, 2, 40, 100} {
		calls = 0
		c := slices.Clone(s)
		err := InPlace(testctx.CancelAfter(checks), c, counted, posOf, nil)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("after %d checks: err = %v, want context.Canceled", checks, err)
		}
		if checks == 0 && calls != 0 {
			t.Errorf("cancelled before the start: %d keys read", calls)
		}
		// Check k > 1 comes after (k − 1)·PollEvery elements read or
		// moved, each read or move one call of key, or, in the
		// insertion sorts, an element inserted, a few comparisons of
		// two calls each on random keys.
		if checks > 0 && (calls < (checks-1)*PollEvery || calls > 2*checks*PollEvery || calls >= fullCalls) {
			t.Errorf("after %d checks: %d keys read (of %d for the whole sort)", checks, calls, fullCalls)
		}
		seen := make([]bool, m)
		for _, e := range c {
			if seen[e.pos] {
				t.Fatalf("after %d checks: element %d twice", checks, e.pos)
			}
			seen[e.pos] = true
		}
	}
}
