package experiment

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
)

// TestSBMLabelsSameAsBefore: sbmLabels, which draws with the run's context
// (constraint.StratifiedLabels), reveals exactly the labels that sbmRun
// drew before it (constraint.LabelSets, then SetsToLabels, with the same
// stream, copied here), for every supervised cell of the seed 004 figures
// (6.1, 6.3 and 6.4–6.6), full and quick, and several base seeds: the
// results pages report numbers computed with those labels.
func TestSBMLabelsSameAsBefore(t *testing.T) {
	if testing.Short() {
		t.Skip("draws about 1800 label sets on SBM graphs of up to 1000 nodes (about 1 s)")
	}
	cells := 0
	for _, seed := range []uint64{0, 1, 7} {
		for _, quick := range []bool{false, true} {
			env := &Env{Quick: quick, Seed: seed}
			cfg := sbmSize(env)
			var figs []sbmFigure
			figs = append(figs, fig61Figures(env)...)
			figs = append(figs, fig63Figures(env)...)
			figs = append(figs, fig646Figures(env)...)
			for _, f := range figs {
				for _, x := range f.xs {
					for g := range f.graphsPer(cfg) {
						cin, cout := f.cin(x)
						_, truth, err := synth.SBM(cfg.n, f.k, cin, cout, rand.NewPCG(env.Seed, sbmGraphSeed(f, x, g)))
						if err != nil {
							t.Fatal(err)
						}
						for _, m := range f.methods {
							if !m.supervised {
								continue
							}
							frac := m.frac
							if f.fracAxis {
								frac = x
							}
							// The draw of sbmRun before sbmLabels.
							sets, err := constraint.LabelSets(truth, frac, rand.NewPCG(env.Seed^0x5eed, sbmGraphSeed(f, x, g)*31+uint64(math.Round(frac*1000))))
							if err != nil {
								t.Fatal(err)
							}
							want, err := constraint.SetsToLabels(cfg.n, sets)
							if err != nil {
								t.Fatal(err)
							}
							got, err := sbmLabels(context.Background(), env, f, x, frac, g, truth)
							if err != nil || !slices.Equal(got, want) {
								t.Fatalf("seed %d, quick %v, %s, x = %v, %s, graph %d: labels differ from before (err %v)", seed, quick, f.name, x, m.key, g, err)
							}
							cells++
						}
					}
				}
			}
		}
	}
	if cells < 1000 {
		t.Errorf("%d supervised cells compared, want the figures' (over 1000)", cells)
	}
	// A cancelled run stops drawing.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f := fig646Figures(&Env{})[0]
	_, truth, err := synth.SBM(1000, f.k, 2, 1, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	if l, err := sbmLabels(ctx, &Env{Seed: 1}, f, 1, 0.5, 0, truth); !errors.Is(err, context.Canceled) || l != nil {
		t.Errorf("cancelled: labels %v, err %v; want none and context.Canceled", l != nil, err)
	}
}
