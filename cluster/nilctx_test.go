package cluster

import (
	"context"
	"errors"
	"slices"
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
	// The nil context comes before the method reads the problem or the
	// Settings (partitionArgs; TestPartitionNilArguments checks the rest).
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

// TestPartitionNilArguments: the Partition method of every registered
// method returns an error wrapping ErrInvalid that names a nil Problem, and
// a nil Problem.Graph when the method clusters a graph, instead of
// panicking; a method that does not read the graph is not refused for
// its absence. A nil *Settings means the defaults, as in Run: the
// partition is the one of &Settings{}. The methods come from the
// registry, so that one added without the check (partitionArgs) fails.
func TestPartitionNilArguments(t *testing.T) {
	base := badInputBase(t)
	ctx := context.Background()
	for _, info := range Methods() {
		m := info.New()
		u := m.Uses()
		p := badInputFor(base, u)
		noGraph := *p
		noGraph.Graph = nil
		in := u.Input
		if in == 0 {
			in = GraphInput
		}
		prefix := "cluster: invalid problem: " + info.Name + ": "
		for _, tc := range []struct {
			name string
			p    *Problem
			s    *Settings
			want string // the error's prefix; "" for a result
		}{
			{"nil Problem", nil, &Settings{}, prefix + "no problem (nil *Problem)"},
			{"nil Problem and Settings", nil, nil, prefix + "no problem (nil *Problem)"},
			{"nil Graph", &noGraph, &Settings{}, map[bool]string{true: prefix + "no graph (nil Problem.Graph)"}[in&GraphInput != 0]},
			{"nil Settings", p, nil, ""},
			{"Settings out of range", p, &Settings{Restarts: -1}, "cluster: invalid problem: " + info.Name + ": Settings.Restarts = -1"},
		} {
			t.Run(info.Name+"/"+tc.name, func(t *testing.T) {
				var (
					res *Result
					err error
				)
				if msg := testpanic.Message(func() { res, err = m.Partition(ctx, tc.p, tc.s) }); msg != "" {
					t.Fatalf("panic: %s", msg)
				}
				switch {
				case tc.want != "":
					if !errors.Is(err, ErrInvalid) || !strings.HasPrefix(err.Error(), tc.want) {
						t.Fatalf("error %v, want one wrapping ErrInvalid beginning %q", err, tc.want)
					}
				case tc.s == nil:
					if err != nil {
						t.Fatal(err)
					}
					def, err := m.Partition(ctx, tc.p, &Settings{})
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(res.Labels, def.Labels) {
						t.Fatalf("labels %v with nil Settings, %v with &Settings{}", res.Labels, def.Labels)
					}
				}
			})
		}
	}
}
