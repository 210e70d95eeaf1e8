package constraint

import (
	"context"
	"errors"
	"math"
	"testing"
)

// TestKeepConsistentTooManyNodes: the conflict pass holds nodes as int32,
// so a set of 2³¹ nodes or more is refused with ErrInvalid before any
// O(n) allocation; before, int32(i) went negative and the pass panicked,
// or wrapped past 2³² and merged the wrong nodes (review 159). Where int
// has 32 bits no set is that large.
func TestKeepConsistentTooManyNodes(t *testing.T) {
	if math.MaxInt == math.MaxInt32 {
		t.Skip("int has 32 bits: no set has 2³¹ nodes")
	}
	big := int64(math.MaxInt32) + 1
	n := int(big)
	s := &Set{N: n, Pairs: []Pair{{I: 0, J: n - 1, Kind: MustLink}, {I: 1, J: n - 1, Kind: CannotLink}}}
	err := keepConsistent(context.Background(), s, []float64{0, 0}, make([]bool, 2))
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("keepConsistent on %d nodes: %v, want ErrInvalid", n, err)
	}
}
