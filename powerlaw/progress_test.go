package powerlaw

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tether-sc/tether/progress"
)

// stageLog is a progress.Log with the checks of these tests.
type stageLog struct{ progress.Log }

// check checks stage's events: they start at 0, Done never decreases,
// Total is total throughout and the last is total, with at most max
// events.
func (l *stageLog) check(t *testing.T, stage string, total, max int) {
	t.Helper()
	es := l.Events(stage)
	if len(es) < 2 || len(es) > max {
		t.Fatalf("%s: %d events, want 2…%d", stage, len(es), max)
	}
	if es[0].Done != 0 {
		t.Errorf("%s: first event %d/%d, want 0", stage, es[0].Done, es[0].Total)
	}
	for i, e := range es {
		if e.Total != total {
			t.Errorf("%s event %d: Total %d, want %d", stage, i, e.Total, total)
		}
		if i > 0 && e.Done < es[i-1].Done {
			t.Errorf("%s event %d: Done %d after %d", stage, i, e.Done, es[i-1].Done)
		}
	}
	if last := es[len(es)-1]; last.Done != total {
		t.Errorf("%s: last event %d/%d, want %d", stage, last.Done, last.Total, total)
	}
}

// The bootstrap reports its replicates (10⁵–10⁶ of them ran for minutes
// without a word from tether powerlaw fit -bootstrap), at most once per
// thousandth, and the fit of the data its candidate x_min values; the fits
// of the synthetic sets do not report theirs.
func TestGoodnessOfFitProgress(t *testing.T) {
	s, err := NewSampler(2.5, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 7))
	x := make([]float64, 300)
	for i := range x {
		x[i] = s.Draw(r)
	}
	var l stageLog
	const reps = 2500
	g, err := GoodnessOfFit(context.Background(), x, &Options{Recorder: &l}, Bootstrap{Reps: reps, Seed: 1, Recorder: &l})
	if err != nil {
		t.Fatal(err)
	}
	l.check(t, "powerlaw-bootstrap", reps, 1002)
	l.check(t, "powerlaw-xmin", g.Fit.Candidates, g.Fit.Candidates+1)

	var fl stageLog
	f, err := Fit(x, &Options{Recorder: &fl})
	if err != nil {
		t.Fatal(err)
	}
	fl.check(t, "powerlaw-xmin", f.Candidates, f.Candidates+1)
	if st := fl.Stages(); len(st) != 1 {
		t.Errorf("Fit reported stages %v, want powerlaw-xmin only", st)
	}
}
