package cluster

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
)

// TestErrKnob: the errors that refuse a knob's value, out of its range
// or ruled out by the problem or the other knobs, wrap ErrKnob besides
// ErrInvalid, with their text unchanged; the other errors of invalid
// problems (data, supervision, k) do not. A command line tells its
// user's -set mistakes from bad data by it (tether's exit status 2).
func TestErrKnob(t *testing.T) {
	g, _ := roMoons(t, 30, 1)
	pairs := &constraint.Set{N: 30, Pairs: []constraint.Pair{{I: 0, J: 2, Kind: constraint.MustLink}, {I: 0, J: 1, Kind: constraint.CannotLink}}}
	clOnly := &constraint.Set{N: 30, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.CannotLink}}}
	x := lpFeatures(30, 3, 1)
	opplcZero := NewOPPLC()
	opplcZero.Theta = 0
	fg := NewFGPWC()
	fg.M = 30
	for _, tc := range []struct {
		name string
		m    Method
		p    *Problem
		knob bool   // wraps ErrKnob
		want string // in the error
	}{
		{"fgpwc M = n", fg, &Problem{Graph: g, K: 2, Constraints: pairs}, true, "fgpwc: M = 30, want M ≤ n − 1 = 29"},
		{"ccsr M = n", CCSR{M: 30}, &Problem{Graph: g, K: 2, Constraints: pairs}, true, "ccsr: M = 30, want 1 ≤ M < n = 30"},
		{"opplc θ = 0 with α = 0", opplcZero, &Problem{Graph: g, K: 0, Constraints: pairs}, true, "opplc: α = 0 ≤ −θ = 0"},
		{"plmeans α ≤ −θ", PLMeans{Alpha: -0.5, Theta: 0.2}, &Problem{Graph: g, K: 0}, true, "α = -0.5, want a finite α > −θ = -0.2"},
		{"cpca Dim above d", CPCA{Dim: 4}, &Problem{Features: x, K: 2, Constraints: pairs}, true, "Dim = 4 exceeds the 3 features"},
		{"range tag", CCSR{Tol: 2}, &Problem{Graph: g, K: 2, Constraints: pairs}, true, "Tol"},
		{"auto Folds 1", Auto{Folds: 1}, &Problem{Graph: g, K: 2, Constraints: pairs}, true, "Folds"},
		// Not knobs: supervision, data, k.
		{"ccsr no must-link", CCSR{}, &Problem{Graph: g, K: 2, Constraints: clOnly}, false, "no must-link"},
		{"ccsr no pairs", CCSR{}, &Problem{Graph: g, K: 2}, false, "ccsr"},
		{"k above n", NJW{}, &Problem{Graph: g, K: 31}, false, "k = 31"},
		{"constraints on other n", NJW{}, &Problem{Graph: g, K: 2, Constraints: &constraint.Set{N: 10}}, false, "constraints are on 10 nodes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(context.Background(), tc.m, tc.p, &Settings{Seed: 1})
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v, want one wrapping ErrInvalid", err)
			}
			if errors.Is(err, ErrKnob) != tc.knob {
				t.Errorf("errors.Is(%q, ErrKnob) = %v, want %v", err, !tc.knob, tc.knob)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q lacks %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "knob out of range") {
				t.Errorf("error %q shows ErrKnob's text", err)
			}
		})
	}
}

// TestKnobRangeMessage: a knob outside its range is named with its own
// value, an integer knob as an integer, by Run and SetKnobs alike.
// Before, MaxIter = 99999999 read "MaxIter = 9.9999999e+07".
func TestKnobRangeMessage(t *testing.T) {
	g, _ := roMoons(t, 30, 1)
	pairs := &constraint.Set{N: 30, Pairs: []constraint.Pair{{I: 0, J: 2, Kind: constraint.MustLink}, {I: 0, J: 1, Kind: constraint.CannotLink}}}
	fg := NewFGPWC()
	fg.MaxIter = 99999999
	for _, tc := range []struct {
		name string
		m    Method // run as it is
		set  string // or "" ; else the -set text applied to a default method
		want string
	}{
		{"int, Run", fg, "", "fgpwc: MaxIter = 99999999 is outside its range [0, 1e7]"},
		{"int, SetKnobs", nil, "MaxIter=99999999", "fgpwc: MaxIter = 99999999 is outside its range [0, 1e7]"},
		{"int 1e6+1", CCSR{M: 1000001}, "", "ccsr: M = 1000001 is outside its range [0, 1e6]"},
		{"float", CCSR{Tol: 2.5}, "", "ccsr: Tol = 2.5 is outside its range 0 | [1e-15, 1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.set != "" {
				_, err = SetKnobs(NewFGPWC(), []string{tc.set})
			} else {
				_, err = Run(context.Background(), tc.m, &Problem{Graph: g, K: 2, Constraints: pairs}, nil)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}
