package graph

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// FuzzSpecText checks the text forms of the -graph, -affinity and -sigma
// flags: no panic, an accepted σ is usable (positive and finite, or a rule
// with K ≥ 1), and every accepted value prints to a text that reads back
// to the same value.
func FuzzSpecText(f *testing.F) {
	for _, s := range []string{"knn", "MKNN", "full", "eps", "sknn", "rbf", "cosine", "binary", "local", "local:3", "LOCAL:0", "median", "meanvar", "0.5", "1e-300", "-1", "NaN", "Inf", "0x1p-3", " 2 ", "local:99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var k Kind
		if err := k.UnmarshalText([]byte(in)); err == nil {
			var k2 Kind
			if err := k2.UnmarshalText([]byte(k.String())); err != nil || k2 != k {
				t.Fatalf("kind %q → %v → %v, %v", in, k, k2, err)
			}
		} else if !strings.HasPrefix(err.Error(), "graph: ") {
			t.Fatalf("error without prefix: %v", err)
		}
		var a Affinity
		if err := a.UnmarshalText([]byte(in)); err == nil {
			var a2 Affinity
			if err := a2.UnmarshalText([]byte(a.String())); err != nil || a2 != a {
				t.Fatalf("affinity %q → %v → %v, %v", in, a, a2, err)
			}
		}
		var s Sigma
		if err := s.UnmarshalText([]byte(in)); err != nil {
			if !strings.HasPrefix(err.Error(), "graph: ") {
				t.Fatalf("error without prefix: %v", err)
			}
			return
		}
		switch s.Rule {
		case SigmaFixed:
			if !(s.Value > 0) || math.IsInf(s.Value, 0) {
				t.Fatalf("σ %q accepted as %v", in, s.Value)
			}
		case SigmaLocal:
			if s.localK() < 1 {
				t.Fatalf("σ %q accepted with K = %d", in, s.localK())
			}
		}
		var s2 Sigma
		if err := s2.UnmarshalText([]byte(s.String())); err != nil || s2.Rule != s.Rule || s2.Value != s.Value || s2.localK() != s.localK() {
			t.Fatalf("σ %q → %v → %v, %v", in, s, s2, err)
		}
	})
}

// FuzzRegularizationText checks ParseRegularization, the -regularize flag's
// reader: no panic, an error wraps ErrInvalid, and an accepted value is
// valid and prints (String) to a text that reads back to the same value.
func FuzzRegularizationText(f *testing.F) {
	for _, s := range []string{"auto", "", "none", "mean", "MEAN+complete", "+complete", "0", "2.5", ".5", "1e-300", "1e-400", "1e400", "-0", "+2", "0x1p-3", "1_0", "0+complete", "none+complete", " 3 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		r, err := ParseRegularization(in)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("%q: error %v does not wrap ErrInvalid", in, err)
			}
			return
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("%q → %+v: Validate: %v", in, r, err)
		}
		r2, err := ParseRegularization(r.String())
		if err != nil || r2 != r {
			t.Fatalf("%q → %+v → %q → %+v, %v", in, r, r.String(), r2, err)
		}
	})
}
