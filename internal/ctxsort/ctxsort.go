// Package ctxsort sorts large slices with a context checked as it goes:
// slices.SortStableFunc and slices.SortFunc are one call each, which no
// cancellation interrupts, and take seconds on millions of elements (3 s
// for the 3·10⁶ entries of an edge list on the 2-core machine). ByKey is
// a stable radix sort on a uint64 key that checks its context every
// PollEvery elements and can report the fraction of its work done, with a
// copy of the slice; InPlace sorts by a key and a tie-breaker without
// one, checking and reporting alike.
package ctxsort

import (
	"cmp"
	"context"
	"math/bits"
	"slices"
)

// PollEvery is the number of elements ByKey handles between two checks
// of its context: well under a millisecond.
const PollEvery = 1 << 15

// Digits of the radix sort: digitBits bits each, six of them covering
// the 64 bits of a key.
const (
	digitBits = 11
	numDigits = (64 + digitBits - 1) / digitBits
	buckets   = 1 << digitBits
)

// small is the length up to which ByKey sorts by insertion.
const small = 64

// ByKey sorts s by increasing key(e), keeping the elements of equal keys
// in their order: the order of slices.SortStableFunc with cmp.Compare on
// the keys. It checks ctx before it starts and every PollEvery elements,
// and tells t (nil: none) the fraction of its work done, from 0 to 1,
// where it checks; it returns ctx.Err() when ctx is cancelled, and s then
// holds an unspecified arrangement of its elements, some possibly
// repeated and others lost: the caller must drop it. It is a least
// significant digit radix sort, 11 bits a pass, that skips the digits
// every key shares (keys below 2⁴⁴ take at most four passes). Cost
// O(m·p) for m elements and p passes, calling key 1 + p times an
// element, and a copy of s.
func ByKey[S ~[]E, E any](ctx context.Context, s S, key func(E) uint64, t func(f float64)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m := len(s)
	if m <= small {
		slices.SortStableFunc(s, func(a, b E) int { return cmp.Compare(key(a), key(b)) })
		if t != nil {
			t(1)
		}
		return nil
	}
	st := &sorter{ctx: ctx, t: t, m: m}
	counts := make([][buckets]int, numDigits)
	for i, e := range s {
		k := key(e)
		for d := range counts {
			counts[d][k>>(d*digitBits)%buckets]++
		}
		if err := st.at(i); err != nil {
			return err
		}
	}
	var digits []int // the digits the keys do not all share
	for d := range counts {
		if !slices.Contains(counts[d][:], m) {
			digits = append(digits, d)
		}
	}
	st.passes = 1 + len(digits)
	src, dst := s, make(S, m)
	for _, d := range digits {
		st.pass++
		off := &counts[d]
		sum := 0
		for b, c := range off {
			off[b] = sum
			sum += c
		}
		shift := d * digitBits
		for i, e := range src {
			b := key(e) >> shift % buckets
			dst[off[b]] = e
			off[b]++
			if err := st.at(i); err != nil {
				return err
			}
		}
		src, dst = dst, src
	}
	if len(digits)%2 == 1 {
		copy(s, src)
	}
	if t != nil {
		t(1)
	}
	return nil
}

// sorter counts the work of one ByKey.
type sorter struct {
	ctx    context.Context
	t      func(float64)
	m      int
	pass   int // the current pass: 0 for the counts, then 1…passes − 1
	passes int // 0 until the counts are done
}

// at checks the context and ticks when element i of the current pass is
// a multiple of PollEvery.
func (st *sorter) at(i int) error {
	if i%PollEvery != 0 {
		return nil
	}
	if st.t != nil && st.passes > 0 {
		st.t((float64(st.pass) + float64(i)/float64(st.m)) / float64(st.passes))
	}
	return st.ctx.Err()
}

// Digits of the in-place sort: flagBits bits each, the buckets of one
// level flagBuckets.
const (
	flagBits    = 8
	flagBuckets = 1 << flagBits
)

// InPlace sorts s by increasing key(e), and elements of equal keys by
// increasing tie(e), in place: beside s it takes a few KiB of stack a
// level of its recursion (at most 18 levels), never a copy of s. Elements
// of equal key and tie end in an unspecified order; when tie increases
// along s (a position, a line number read in order), the order is that
// of ByKey. It checks ctx before it starts and every PollEvery elements
// read or moved, and tells t (nil: none) the fraction of the elements in
// their final place, from 0 to 1, where it checks; it returns ctx.Err()
// when ctx is cancelled, and s then holds its elements, each once, in an
// unspecified order.
//
// It is an American flag sort (McIlroy, Bostic and McIlroy, "Engineering
// radix sort", Computing Systems 6(1), 1993, §2.2): a most significant
// digit radix sort, 8 bits a level, that counts a range's digits, moves
// each element to its bucket by following cycles of swaps, and recurses
// into the buckets, from the 8 bits that end at the highest bit where the
// keys of s differ down to bit 0, then likewise on tie for the ranges of
// equal keys; ranges of at most 64 elements are sorted by insertion, each
// key read once. Cost O(m) a level for m elements, about two calls of key
// or tie an element a level (three at the top of key and of tie, where
// the bits every element shares are found): p levels take O(m·p), with
// p ≤ 9 for key, fewer when ranges fall to 64 elements first (two levels
// for 10⁶ random keys), and as many again for tie on ranges of equal
// keys. On 10⁶ entries of an edge list, as fast as ByKey.
func InPlace[S ~[]E, E any](ctx context.Context, s S, key, tie func(E) uint64, t func(f float64)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	st := &flagSorter[E]{ctx: ctx, t: t, m: len(s), words: [2]func(E) uint64{key, tie}}
	if !st.sort(s, 0, -1) {
		return st.err
	}
	if t != nil {
		t(1)
	}
	return nil
}

// flagSorter is the state of one InPlace.
type flagSorter[E any] struct {
	ctx   context.Context
	t     func(float64)
	words [2]func(E) uint64 // key, then tie
	m     int
	work  int // elements read or moved
	done  int // elements in their final place
	err   error
}

// step counts an element read or moved, checks the context and ticks
// every PollEvery of them, and reports false when the context is
// cancelled (st.err set).
func (st *flagSorter[E]) step() bool {
	st.work++
	if st.work%PollEvery != 0 {
		return true
	}
	if st.t != nil {
		st.t(float64(st.done) / float64(st.m))
	}
	if err := st.ctx.Err(); err != nil {
		st.err = err
		return false
	}
	return true
}

// sort sorts s, whose elements agree on every bit of word phase (0: key,
// 1: tie) from shift + flagBits up and on the whole of the words before
// phase, by the rest; shift < 0 means none of phase is sorted yet. It
// reports false when the context was cancelled.
func (st *flagSorter[E]) sort(s []E, phase, shift int) bool {
	for {
		if len(s) <= small {
			// By insertion, each key read once.
			var keys [small]uint64
			key, tie := st.words[0], st.words[1]
			for i, e := range s {
				keys[i] = key(e)
			}
			for i := 1; i < len(s); i++ {
				e, k := s[i], keys[i]
				j := i
				for ; j > 0 && (keys[j-1] > k || keys[j-1] == k && tie(s[j-1]) > tie(e)); j-- {
					s[j], keys[j] = s[j-1], keys[j-1]
				}
				s[j], keys[j] = e, k
				if !st.step() {
					return false
				}
			}
			st.done += len(s)
			return true
		}
		word := st.words[phase]
		if shift < 0 {
			// The highest digit where the words differ.
			w0 := word(s[0])
			var diff uint64
			for _, e := range s {
				diff |= word(e) ^ w0
				if !st.step() {
					return false
				}
			}
			if diff == 0 {
				if phase == 1 {
					st.done += len(s)
					return true
				}
				phase = 1
				continue
			}
			// The top digit holds the top differing bit and the 7
			// below it (all of them when fewer).
			shift = max(bits.Len64(diff)-flagBits, 0)
		}
		var count [flagBuckets]int
		for _, e := range s {
			count[word(e)>>shift%flagBuckets]++
			if !st.step() {
				return false
			}
		}
		if slices.Contains(count[:], len(s)) {
			// One digit: the next.
			if shift, phase = nextDigit(shift, phase); phase > 1 {
				st.done += len(s)
				return true
			}
			continue
		}
		var next, end [flagBuckets]int
		sum := 0
		for b, c := range count {
			next[b] = sum
			sum += c
			end[b] = sum
		}
		for b := range flagBuckets {
			for next[b] < end[b] {
				// The cycle from next[b]: v is out of s, next[b] its
				// hole, until v's bucket is b.
				v := s[next[b]]
				d := int(word(v) >> shift % flagBuckets)
				for d != b {
					s[next[d]], v = v, s[next[d]]
					next[d]++
					d = int(word(v) >> shift % flagBuckets)
					if !st.step() {
						s[next[b]] = v
						return false
					}
				}
				s[next[b]] = v
				next[b]++
				if !st.step() {
					return false
				}
			}
		}
		shift, phase = nextDigit(shift, phase)
		start := 0
		for b := range flagBuckets {
			r := s[start:end[b]]
			start = end[b]
			switch {
			case len(r) == 0:
			case len(r) == 1 || phase > 1:
				st.done += len(r)
			default:
				if !st.sort(r, phase, shift) {
					return false
				}
			}
		}
		return true
	}
}

// nextDigit returns the digit after the one at shift of word phase: the
// next lower one (bits 0 to 7 when fewer than 8 bits are left: the bits
// above them that it holds are those of the range), else the top of the
// next word (shift −1), phase 2 when there is none.
func nextDigit(shift, phase int) (int, int) {
	if shift > 0 {
		return max(shift-flagBits, 0), phase
	}
	return -1, phase + 1
}
