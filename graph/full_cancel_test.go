package graph

import (
	"context"
	"errors"
	"testing"

	"github.com/tether-sc/tether/internal/testctx"
	"github.com/tether-sc/tether/internal/testmem"
)

// TestFullBuildCancelledBeforeStorage: a Full graph built with a context
// cancelled already returns context.Canceled before it allocates and
// fills its n(n−1) entries. The pass that writes the column indices did
// not poll its context (0.72 s at n = 10⁴, 2.7 s at 2·10⁴ after a
// cancellation): here, on 2000 points, the build allocated the 48 MB of
// entries (12 bytes each) and wrote them before the first check. The
// bound, a third of that storage, is far above the O(n·d) the checks
// before it allocate, so the test reads no clock.
func TestFullBuildCancelledBeforeStorage(t *testing.T) {
	const n = 2000
	x := uniformSquare(n, 7)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, aff := range []Affinity{RBF, Binary, Cosine} {
		spec := Spec{Kind: Full, Affinity: aff, Sigma: Sigma{Rule: SigmaMedian}}
		var g *Graph
		var err error
		got := testmem.Allocated(func() { g, err = Build(ctx, x, spec) })
		if !errors.Is(err, context.Canceled) || g != nil {
			t.Fatalf("%v: graph %v, err = %v; want no graph and context.Canceled", aff, g != nil, err)
		}
		storage := uint64(12 * n * (n - 1))
		if got > storage/3 {
			t.Errorf("%v: Build allocated %d bytes after the cancellation, want below %d (a third of the %d bytes of entries)", aff, got, storage/3, storage)
		}
	}
}

// TestFullBuildCancelledAnywhere cancels the build of a small Full graph
// at its c-th context check for every c up to the checks of a whole run
// (testctx.CancelAfter): each run returns context.Canceled and no graph
// or, once c passes the checks made, the whole graph (n(n−1) entries),
// never a partial one or another error, for the sequential passes polled
// per row (the column indices, Binary's weights) as for the others.
func TestFullBuildCancelledAnywhere(t *testing.T) {
	const n = 300
	x := uniformSquare(n, 8)
	for _, aff := range []Affinity{RBF, Binary} {
		spec := Spec{Kind: Full, Affinity: aff, Sigma: Sigma{Rule: SigmaMedian}}
		for c := 0; ; c++ {
			g, err := Build(testctx.CancelAfter(c), x, spec)
			if err == nil {
				if g.N() != n || g.NNZ() != n*(n-1) {
					t.Fatalf("%v, cancelled at check %d: %d nodes and %d entries, want %d and %d", aff, c, g.N(), g.NNZ(), n, n*(n-1))
				}
				if c == 0 {
					t.Fatalf("%v: Build never checks its context", aff)
				}
				break
			}
			if !errors.Is(err, context.Canceled) || g != nil {
				t.Fatalf("%v, cancelled at check %d: graph %v, err = %v; want no graph and context.Canceled", aff, c, g != nil, err)
			}
			if c > 10000 {
				t.Fatalf("%v: more than 10⁴ context checks on %d rows", aff, n)
			}
		}
	}
}
