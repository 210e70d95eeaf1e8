package cluster

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/internal/testpanic"
)

// TestNilContext: every exported entry point of the package that takes a
// context returns an error wrapping ErrInvalid that names the nil context,
// instead of panicking (Run(nil, …) panicked in ctx.Err(), and so did the
// Partition method of every registered method). The methods come from the
// registry, so that one added without the check fails here.
func TestNilContext(t *testing.T) {
	var nilCtx context.Context // nil; a variable, as staticcheck flags the literal (SA1012)
	g, _ := roMoons(t, 20, 1)
	cons := &constraint.Set{N: 20, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}, {I: 0, J: 19, Kind: constraint.CannotLink}}}
	p := &Problem{Graph: g, K: 2, Constraints: cons}
	f := NewFGPWC()
	f.M = 3
	st, err := f.NewState(context.Background(), g, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A first call, so that the nil-context call below takes the warm path.
	if _, err := st.Cluster(context.Background(), p, nil, FGPWCWarm{}); err != nil {
		t.Fatal(err)
	}
	if !st.Warm() {
		t.Fatal("the state cannot warm-start after a call")
	}
	x, truth := toyPairs(t, 5, 0.2, 1)
	online := NewOPPLCOnline(3)
	type call struct {
		name string
		call func() error
	}
	calls := []call{
		{"Run", func() error { _, err := Run(nilCtx, NJW{}, p, nil); return err }},
		{"Run, k = 1", func() error { _, err := Run(nilCtx, NJW{}, &Problem{Graph: g, K: 1}, nil); return err }},
		{"FGPWC.Embed", func() error { _, err := f.Embed(nilCtx, g, nil); return err }},
		{"FGPWC.NewState", func() error { _, err := f.NewState(nilCtx, g, nil); return err }},
		{"FGPWC.Tune", func() error {
			_, err := f.Tune(nilCtx, p, nil, []float64{0.5}, []float64{1}, func(*Result) float64 { return 0 })
			return err
		}},
		{"FGPWC.CrossValidate", func() error {
			_, err := f.CrossValidate(nilCtx, p, nil, []float64{0.5}, []float64{1})
			return err
		}},
		{"FGPWCState.Cluster, warm", func() error {
			_, err := st.Cluster(nilCtx, p, nil, FGPWCWarm{Descent: true, KMeans: true})
			return err
		}},
		{"OPPLCOnline.Predict", func() error { _, err := online.Predict(nilCtx, x, nil); return err }},
		{"OPPLCOnline.Learn", func() error { _, err := online.Learn(nilCtx, x, nil, truth); return err }},
	}
	// Partition is documented for problems Run has checked, with non-nil
	// Settings; the nil context comes before the method reads either.
	for _, info := range Methods() {
		m := info.New()
		calls = append(calls, call{info.Name + " Partition", func() error { _, err := m.Partition(nilCtx, p, &Settings{}); return err }})
	}
	for _, tc := range calls {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if msg := testpanic.Message(func() { err = tc.call() }); msg != "" {
				t.Fatalf("panic: %s", msg)
			}
			const want = "cluster: invalid problem: nil context"
			if !errors.Is(err, ErrInvalid) || !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("error %v, want one wrapping ErrInvalid beginning %q", err, want)
			}
		})
	}
}
