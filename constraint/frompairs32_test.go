package constraint

import (
	"context"
	"errors"
	"math"
	"testing"
)

// TestFromLabelsTooManyPairsFor32Bit: where int has 32 bits, the pairs of
// a few ten thousand labelled nodes are more than a slice holds, and
// FromLabelsContext returns an ErrInvalid error instead of panicking in
// make (L(L−1) overflowed int from 46 341 labelled nodes, and the bytes
// of the slice passed the address space before that). The smallest such
// L is found from the bound's definition, computed independently here.
// With 64-bit ints the case needs some 7.6·10⁸ labelled nodes and is
// skipped; it runs under GOARCH=386 (go test -exec qemu-i386).
func TestFromLabelsTooManyPairsFor32Bit(t *testing.T) {
	if math.MaxInt > math.MaxInt32 {
		t.Skip("int has 64 bits: the case needs 7.6·10⁸ labelled nodes")
	}
	// A Pair is 16 to 28 bytes: the bound is within 2× of 2³¹/24.
	size := int64(maxSlicePairs)
	if want := int64(math.MaxInt32) / 24; size < want/2 || size > want*2 {
		t.Fatalf("maxSlicePairs = %d, far from 2³¹/(bytes of a Pair) ≈ %d", size, want)
	}
	big := int(math.Sqrt(float64(2*size))) + 2
	l := make(Labels, big)
	for i := range l {
		l[i] = i % 3
	}
	s, err := FromLabelsContext(context.Background(), l)
	if !errors.Is(err, ErrInvalid) || s != nil {
		t.Fatalf("FromLabelsContext on %d labelled nodes: set %v, %v; want ErrInvalid and no set", big, s != nil, err)
	}
}
