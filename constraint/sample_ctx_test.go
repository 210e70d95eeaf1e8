package constraint

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/tether-sc/tether/internal/testctx"
)

// t0 is a live context for tests.
func t0() context.Context { return context.Background() }

// TestSamplersContext: every context-aware generator, given a context
// cancelled before the call or one that cancels at its third check (so
// inside its drawing loop, which checks every 4096 draws), returns an error
// wrapping context.Canceled and no result on a large input (10⁶ nodes or
// pairs), and with a live context draws what the plain function draws
// (without -short).
func TestSamplersContext(t *testing.T) {
	const n = 1_000_000
	truth := make([]int, n)
	for i := range truth {
		truth[i] = i % 10
	}
	few := make(Labels, n) // 2000 labelled nodes: 2·10⁶ pairs
	for i := range few {
		few[i] = Unlabeled
		if i < 2000 {
			few[i] = i % 3
		}
	}
	type gen func(ctx context.Context) (any, error)
	for _, tc := range []struct {
		name  string
		ctx   gen
		plain func() (any, error)
	}{
		{"BernoulliPairs",
			func(ctx context.Context) (any, error) { return BernoulliPairsContext(ctx, truth, 1.0/n, pcg(1)) },
			func() (any, error) { return BernoulliPairs(truth, 1.0/n, pcg(1)) }},
		{"BernoulliPairs p=1",
			func(ctx context.Context) (any, error) { return BernoulliPairsContext(ctx, truth[:3000], 1, pcg(1)) },
			func() (any, error) { return BernoulliPairs(truth[:3000], 1, pcg(1)) }},
		{"UniformPairs",
			func(ctx context.Context) (any, error) { return UniformPairsContext(ctx, truth, n, pcg(2)) },
			func() (any, error) { return UniformPairs(truth, n, pcg(2)) }},
		{"UniformPairs selection",
			func(ctx context.Context) (any, error) {
				return UniformPairsContext(ctx, truth[:2000], 1_000_000, pcg(2))
			},
			func() (any, error) { return UniformPairs(truth[:2000], 1_000_000, pcg(2)) }},
		{"FractionPairs",
			func(ctx context.Context) (any, error) { return FractionPairsContext(ctx, truth, 2e-6, pcg(3)) },
			func() (any, error) { return FractionPairs(truth, 2e-6, pcg(3)) }},
		{"SampleFromLabels",
			func(ctx context.Context) (any, error) { return SampleFromLabelsContext(ctx, few, 0.5, pcg(4)) },
			func() (any, error) { return SampleFromLabels(few, 0.5, pcg(4)) }},
		{"FromLabels",
			func(ctx context.Context) (any, error) { return FromLabelsContext(ctx, few) },
			func() (any, error) { return FromLabels(few), nil }},
		{"FractionLabels",
			func(ctx context.Context) (any, error) { return FractionLabelsContext(ctx, truth, 0.5, pcg(5)) },
			func() (any, error) { return FractionLabels(truth, 0.5, pcg(5)) }},
		{"StratifiedLabels",
			func(ctx context.Context) (any, error) { return StratifiedLabels(ctx, truth, 0.5, pcg(6)) },
			func() (any, error) {
				sets, err := LabelSets(truth, 0.5, pcg(6))
				if err != nil {
					return nil, err
				}
				return SetsToLabels(n, sets)
			}},
		{"MustLinksUniformity",
			func(ctx context.Context) (any, error) {
				return MustLinksUniformityContext(ctx, truth, 20000, 0.5, pcg(7))
			},
			func() (any, error) { return MustLinksUniformity(truth, 20000, 0.5, pcg(7)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cancelled, cancel := context.WithCancel(context.Background())
			cancel()
			for _, c := range []struct {
				what string
				ctx  context.Context
			}{{"cancelled before", cancelled}, {"cancelled at the third check", testctx.CancelAfter(2)}} {
				got, err := tc.ctx(c.ctx)
				if !errors.Is(err, context.Canceled) {
					t.Errorf("%s: err = %v, want context.Canceled", c.what, err)
				}
				if !reflect.ValueOf(got).IsNil() {
					t.Errorf("%s: a result with the error", c.what)
				}
			}
			if testing.Short() {
				return // the live comparison draws 10⁶ pairs per case: seconds
			}
			got, err := tc.ctx(context.Background())
			want, wantErr := tc.plain()
			if err != nil || wantErr != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("live context: differs from the plain call (%v, %v)", err, wantErr)
			}
		})
	}
}
