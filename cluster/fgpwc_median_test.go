package cluster

import (
	"context"
	"errors"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/internal/testctx"
)

// medianDist2 gives the median of eval's distances sorted by
// sort.Float64s, bit for bit, in the pair form and the node form, with
// more pairs than one block of fgpwcPairPoll; it checks its context
// between the blocks, the distances and in the sort (10⁷ pairs took
// about 1 s without a check): cancelled at any check it returns
// context.Canceled, and it checks at least once per fgpwcPairPoll pairs
// of its pass over them. The fractions it reports never go back and end
// at 1.
func TestFGPWCMedianDist2(t *testing.T) {
	const k = 2*fgpwcPairPoll + 3
	for _, c := range []struct {
		name string
		n    int
	}{{"node form", 3000}, {"pair form", 3 * k}} {
		rnd := rand.New(rand.NewPCG(uint64(c.n), 5))
		v, pairs, x := randomFGPWCProblem(rnd, c.n, 5, k, 0.5, false)
		o := newFGPWCObjective(v, pairs, 0.15, 1.5, 0)
		if node := c.n < k; (o.e == nil) != node {
			t.Fatalf("%s: node form %v", c.name, o.e == nil)
		}
		// The median as medianDist2 computed it with eval and a sort.
		o.eval(x)
		d := make([]float64, k)
		for i := range d {
			row := o.y.RawRowView(i)
			d[i] = floats.Dot(row, row)
		}
		sort.Float64s(d)
		want := d[k/2]
		last := -1.0
		got, err := o.medianDist2(context.Background(), x, func(f float64) {
			if f < last || f > 1 {
				t.Fatalf("%s: fraction %g after %g", c.name, f, last)
			}
			last = f
		})
		if err != nil || got != want || last != 1 {
			t.Fatalf("%s: median %v, %v (last fraction %g), want %v", c.name, got, err, last, want)
		}
		for checks := 0; ; checks++ {
			got, err := o.medianDist2(testctx.CancelAfter(checks), x, nil)
			if err == nil {
				if per := (k + fgpwcPairPoll - 1) / fgpwcPairPoll; checks < 2*per {
					t.Fatalf("%s: %d checks for %d pairs, want at least %d", c.name, checks, k, 2*per)
				}
				if got != want {
					t.Fatalf("%s: median %v after %d checks, want %v", c.name, got, checks, want)
				}
				break
			}
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("%s: cancelled at check %d: err = %v, want context.Canceled", c.name, checks, err)
			}
		}
	}
	var o fgpwcObjective
	x := mat.NewDense(1, 1, []float64{1})
	if got, err := o.medianDist2(context.Background(), x, nil); got != 0 || err != nil {
		t.Errorf("no pairs: %v, %v; want 0", got, err)
	}
}

// fgpwcCountNodes counts the distinct nodes of the pairs, as many as
// fgpwcPairNodesContext lists, checking its context at least once per
// fgpwcPairPoll pairs of its two passes (the map of the nodes that
// fgpwcAutoMaxM built took 5 s for 10⁷ pairs without a check): cancelled
// at any check it returns context.Canceled, and so does fgpwcAutoMaxM.
func TestFGPWCCountNodes(t *testing.T) {
	const k = 2*fgpwcPairPoll + 3
	_, pairs, _ := randomFGPWCProblem(rand.New(rand.NewPCG(4, 4)), 100000, 1, k, 1, false)
	nodes, _ := fgpwcPairNodesContext(pairs, nil)
	for checks := 0; ; checks++ {
		u, err := fgpwcCountNodes(testctx.CancelAfter(checks), pairs)
		if err == nil {
			if per := (k + fgpwcPairPoll - 1) / fgpwcPairPoll; checks < 2*per {
				t.Fatalf("%d checks for %d pairs, want at least %d", checks, k, 2*per)
			}
			if u != len(nodes) {
				t.Fatalf("%d nodes, want %d", u, len(nodes))
			}
			break
		}
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled at check %d: err = %v, want context.Canceled", checks, err)
		}
	}
	if _, err := fgpwcAutoMaxM(testctx.CancelAfter(0), FGPWC{IterCV: true}, pairs); !errors.Is(err, context.Canceled) {
		t.Errorf("fgpwcAutoMaxM: err = %v, want context.Canceled", err)
	}
}
