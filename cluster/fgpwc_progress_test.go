package cluster

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tether-sc/tether/progress"
)

// FGPWC reports the preparation of its objective on the pairs (stage
// fgpwc-pairs: 10⁷ pairs took seconds without a word before the first
// iteration), up to its end, and then every iteration of the descent
// (every 10th left a descent of 9 one-second iterations at 0/9).
func TestFGPWCPairsProgress(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 9))
	x, truth := fgpwcBlobs(rnd, 150, 2, 3, 3)
	g := fgpwcKNNGraph(t, x, 10)
	set := fgpwcOracle(rnd, truth, 200) // ≥ fgpwcRestartRatio·M² = 40: the scaled restart runs
	for _, tc := range []struct {
		name  string
		f     FGPWC
		steps []string
	}{
		{"scaled restart", FGPWC{M: 2, Optimizer: LBFGS, MaxIter: 20, ScaledRestart: true, SigmaML: fgpwcSigmaML, SigmaCL: fgpwcSigmaCL},
			[]string{"differences of the embedding over the 200 pairs", "median constrained distance at X₀ (scaled restart)"}},
		{"scaled start, halving", FGPWC{M: 2, Optimizer: StepHalving, MaxIter: 20, ScaleStart: true, SigmaML: fgpwcSigmaML, SigmaCL: fgpwcSigmaCL},
			[]string{"differences of the embedding over the 200 pairs", "median constrained distance at X₀ (scaled start)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var l eventLog
			res, err := Run(context.Background(), tc.f, &Problem{Graph: g, K: 3, Constraints: set}, &Settings{Seed: 1, Recorder: &l})
			if err != nil {
				t.Fatal(err)
			}
			msgs := l.checkFractions(t, "fgpwc-pairs")
			for _, s := range tc.steps {
				if !hasStep(msgs, s) {
					t.Errorf("no step %q in %q", s, msgs)
				}
			}
			// One event per iteration recorded (gonum's L-BFGS does not
			// record the last, nor are the restart's reported).
			var es []progress.Event
			for _, e := range l.Events("fgpwc") {
				if e.Total > 0 { // not the embedding's note
					es = append(es, e)
				}
			}
			if res.Iterations > 2 && len(es) < 3 {
				t.Errorf("%d fgpwc events for %d iterations, want one each", len(es), res.Iterations)
			}
			for i := 1; i < len(es); i++ {
				if es[i].Done != es[i-1].Done+1 {
					t.Errorf("fgpwc events at iterations %d then %d, want one each", es[i-1].Done, es[i].Done)
				}
			}
		})
	}
}
