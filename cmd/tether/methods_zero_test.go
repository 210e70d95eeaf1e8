package main

import (
	"strings"
	"testing"

	"github.com/tether-sc/tether/cluster"
)

// TestMethodsZeroValueLine: tether methods METHOD says when the Go zero
// value of the method's type is not its DEFAULT column, naming the knobs
// that differ (review 118: cluster.FGPWC{} is the paper's descent without
// row normalization, ARI 0.544 against 0.984 on the tour's data, without a
// word); zeros that mean the default ("0: 0.15") are not listed, and
// methods whose zero value is the default get no line.
func TestMethodsZeroValueLine(t *testing.T) {
	// The facts the line states, from the types themselves.
	if z, d := (cluster.FGPWC{}), cluster.NewFGPWC(); z.RowNormalize == d.RowNormalize || z.ScaledRestart == d.ScaledRestart || z.Optimizer == d.Optimizer {
		t.Fatalf("FGPWC's zero value and NewFGPWC agree on RowNormalize, ScaledRestart or Optimizer: %+v %+v", z, d)
	}
	for _, tc := range []struct{ method, want string }{
		{"fgpwc", "In Go, the zero value cluster.FGPWC{} is not this DEFAULT: RowNormalize false, Optimizer halving, ScaledRestart false; cluster.New(\"fgpwc\") gives the DEFAULT column."},
		{"njw", ""},
		{"auto", ""},
	} {
		out, _, err := run(t, "methods", tc.method)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "In Go, the zero value") {
				got = l
			}
		}
		if got != tc.want {
			t.Errorf("methods %s: %q, want %q", tc.method, got, tc.want)
		}
	}
}
