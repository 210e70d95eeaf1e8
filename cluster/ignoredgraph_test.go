package cluster

import (
	"context"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
)

// TestRegisteredFeatureMethodsWarnAboutTheGraph: every registered method
// that reads feature rows alone (Uses.Input has FeatureInput and not
// GraphInput: cpca, cvqe) warns, through Run, that it ignores a graph
// given beside them (they ignored it without a word); clpp, which reads
// both, does not.
func TestRegisteredFeatureMethodsWarnAboutTheGraph(t *testing.T) {
	const n = 20
	g := pathGraph(t, n)
	x := mat.NewDense(n, 2, nil)
	for i := range n {
		x.Set(i, 0, float64(i/10)*5+0.1*float64(i%10))
		x.Set(i, 1, float64(i%3))
	}
	cons := &constraint.Set{N: n, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}, {I: 0, J: 19, Kind: constraint.CannotLink}}}
	found := 0
	for _, info := range Methods() {
		in := info.New().Uses().Input
		if in&FeatureInput == 0 {
			continue
		}
		t.Run(info.Name, func(t *testing.T) {
			res, err := Run(context.Background(), info.New(), &Problem{Graph: g, K: 2, Features: x, Constraints: cons}, &Settings{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			want := info.Name + ": graph ignored: " + info.Name + " uses features"
			got := false
			for _, w := range res.Warnings {
				got = got || strings.HasPrefix(w, want)
			}
			if reads := in&GraphInput != 0; got == reads {
				t.Errorf("warnings %q: a warning %q is %v, want %v (the method reads the graph: %v)", res.Warnings, want, got, !reads, reads)
			}
		})
		if in&GraphInput == 0 {
			found++
		}
	}
	if found < 2 {
		t.Errorf("%d methods of feature rows alone, want cpca and cvqe at least", found)
	}
}
