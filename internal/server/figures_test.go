package server

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/internal/testctx"
	"github.com/tether-sc/tether/metrics"
)

// A reply's figures are computed under the request's context:
// uncancelled, they are the ARI and NMI of the known items (metrics.ARI,
// metrics.NMI); cancelled before or during the pass over the items, the
// request stops with context.Canceled naming the step, where
// metrics.Evaluate ran to the end whatever became of the request (AMI's
// expected mutual information alone took 1.4 s at 2·10⁶ items). A
// reference with no known label gives no figures and no error.
func TestReplyFiguresUseTheRequestContext(t *testing.T) {
	// Enough items for the pass over them to check the context three
	// times (metrics checks it every 2¹⁶ items).
	const n = 3<<16 + 5
	rnd := rand.New(rand.NewPCG(5, 5))
	truth, pred := make([]int, n), make([]int, n)
	for i := range truth {
		truth[i] = rnd.IntN(3)
		pred[i] = (truth[i] + rnd.IntN(2)) % 3
		if i%11 == 0 {
			truth[i] = constraint.Unlabeled
		}
	}
	figs, err := replyFigures(context.Background(), truth, pred)
	if err != nil {
		t.Fatal(err)
	}
	// Against metrics.ARI and metrics.NMI on the known items, computed
	// apart from replyFigures' contingency table.
	var kt, kp []int
	for i, l := range truth {
		if l != constraint.Unlabeled {
			kt, kp = append(kt, l), append(kp, pred[i])
		}
	}
	ari, err := metrics.ARI(kt, kp)
	if err != nil {
		t.Fatal(err)
	}
	nmi, err := metrics.NMI(kt, kp, metrics.Arithmetic)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]float64{"ARI": ari, "NMI": nmi} {
		if got, ok := figs[name]; !ok || math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %v (%v), want %v (metrics.ARI, metrics.NMI on the known items)", name, got, ok, want)
		}
	}
	for _, c := range []struct {
		name   string
		checks int // checks of the context before it is cancelled
	}{{"before", 0}, {"inside the pass over the items", 1}} {
		figs, err := replyFigures(testctx.CancelAfter(c.checks), truth, pred)
		if !errors.Is(err, context.Canceled) || figs != nil {
			t.Errorf("cancelled %s: %v, %v; want no figures and context.Canceled", c.name, figs, err)
		}
		if c.checks > 0 && (err == nil || !strings.Contains(err.Error(), "figures: stopped while computing the contingency table")) {
			t.Errorf("cancelled %s: %v, want it stopped in the pass over the items", c.name, err)
		}
	}
	unknown := make([]int, n)
	for i := range unknown {
		unknown[i] = constraint.Unlabeled
	}
	if figs, err := replyFigures(context.Background(), unknown, pred); err != nil || figs != nil {
		t.Errorf("no known reference label: %v, %v; want no figures and no error", figs, err)
	}
	if figs, err := replyFigures(testctx.CancelAfter(0), nil, pred); err != nil || figs != nil {
		t.Errorf("no reference: %v, %v; want no figures and no error", figs, err)
	}
}

// TestReplyFiguresOnlyShown: a reply's figures are the two it shows (the
// page and docs/api.md: ARI and NMI), and computing them does not
// compute the others: with 1000 reference classes and 1000 clusters on
// 4000 items, a context that ends at its third check lets replyFigures
// finish (one check in the pass over the items, one after the table),
// where metrics.EvaluateContext, which replyFigures called, went on to
// AMI's expected mutual information (checked every 2¹⁶ terms) and was
// stopped there; uncancelled it took 0.5 s there, for the alignments of
// accuracy and CEAF (O(k³)) too, against 0.3 ms for the table.
func TestReplyFiguresOnlyShown(t *testing.T) {
	const k, n = 1000, 4000
	truth, pred := make([]int, n), make([]int, n)
	for i := range truth {
		truth[i], pred[i] = i%k, (i/4)%k
	}
	figs, err := replyFigures(testctx.CancelAfter(2), truth, pred)
	if err != nil {
		t.Fatalf("with two checks of the context: %v; want the figures (ARI and NMI need no more)", err)
	}
	if len(figs) != 2 {
		t.Errorf("figures %v, want ARI and NMI only", figs)
	}
	ari, _ := metrics.ARI(truth, pred)
	nmi, _ := metrics.NMI(truth, pred, metrics.Arithmetic)
	if figs["ARI"] != ari || figs["NMI"] != nmi {
		t.Errorf("figures %v, want ARI %v and NMI %v", figs, ari, nmi)
	}
}
