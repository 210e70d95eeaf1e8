package cluster

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestCancelledMethodsNameThemselves: cpca, clpp, plmeans, cscap and ccsr,
// cancelled at any poll of ctx after Run's own (poll 1, which gives the
// bare context.Canceled before the method runs), return an error that
// wraps context.Canceled and names the method and the stage where it
// stopped: "cluster: <method>: <stage>: … context canceled", with a stage
// between the two. They returned the bare ctx.Err() (or "cluster: kmeans:
// …", "cluster: eigensolver: …") from some of their steps before. Run
// passes the method's error on (tidy only folds a repeated "cluster: "),
// so this is the error of Partition too. Deterministic: the context flips
// at its k-th Err call (pollCtx), and every k from 2 to the polls of an
// uncancelled run is tried, so that every step that polls is reached
// (TestCancelNamesStage tries three points of the other methods' runs).
// n = 120 keeps each case under 100 polls and the test under a second.
func TestCancelledMethodsNameThemselves(t *testing.T) {
	const n = 120
	for _, tc := range []struct {
		name string
		m    Method
	}{
		{"cpca", CPCA{}},
		{"clpp", CLPP{}},
		{"plmeans", PLMeans{}},
		// Ten sweeps here, against one for the graph kernel.
		{"plmeans/features", PLMeans{Kernel: PLFeatures}},
		{"cscap", CSCAP{}},
		// All the pairs propagated at once, not must-links then the
		// cannot-link correction.
		{"cscap/joint", CSCAP{Joint: true}},
		{"ccsr", CCSR{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := cancelProblem(t, n, tc.m.Uses())
			s := &Settings{Seed: 1}
			ctx := newPollCtx(0)
			if _, err := Run(ctx, tc.m, p, s); err != nil {
				t.Fatalf("uncancelled run: %v", err)
			}
			polls := ctx.calls.Load()
			if polls < 2 {
				t.Fatalf("%d polls of ctx in an uncancelled run: the method never polls", polls)
			}
			t.Logf("%d polls", polls)
			prefix := "cluster: " + tc.m.Name() + ": "
			for k := int64(2); k <= polls; k++ {
				res, err := Run(newPollCtx(k), tc.m, p, s)
				if res != nil || !errors.Is(err, context.Canceled) {
					t.Fatalf("cancelled at poll %d of %d: result %v, error %v; want no result and an error wrapping context.Canceled", k, polls, res != nil, err)
				}
				msg := err.Error()
				stage, ok := strings.CutPrefix(msg, prefix)
				if !ok || stage == context.Canceled.Error() {
					t.Errorf("cancelled at poll %d of %d: error %q; want %q, then the stage, then %q", k, polls, msg, prefix, context.Canceled.Error())
				}
			}
		})
	}
}
