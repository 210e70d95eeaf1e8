package job

import (
	"context"
	"errors"
	"testing"

	"github.com/tether-sc/tether/cluster"
)

// TestSampleCancelled: the draws of a job's sample stop with the job's
// context: a context cancelled before the call gives an error wrapping
// context.Canceled and no side information, for 10⁶ pairs of 10⁶ nodes
// and for labels of half of them.
func TestSampleCancelled(t *testing.T) {
	const n = 1_000_000
	truth := make([]int, n)
	for i := range truth {
		truth[i] = i % 7
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, sm := range []Sample{{Pairs: n, Seed: 1}, {LabelFraction: 0.5, Seed: 1}} {
		var p cluster.Problem
		err := sample(ctx, &Spec{ID: "j", Sample: &sm}, truth, &p)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%+v: err = %v, want context.Canceled", sm, err)
		}
		if p.Constraints != nil || p.Labels != nil {
			t.Errorf("%+v: side information drawn after the cancellation", sm)
		}
	}
}
