// Package ctxsort sorts large slices with a context checked as it goes:
// slices.SortStableFunc and slices.SortFunc are one call each, which no
// cancellation interrupts, and take seconds on millions of elements (3 s
// for the 3·10⁶ entries of an edge list on the 2-core machine). ByKey is
// a stable radix sort on a uint64 key that checks its context every
// PollEvery elements and can report the fraction of its work done.
package ctxsort

import (
	"cmp"
	"context"
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
