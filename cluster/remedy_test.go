package cluster

import (
	"context"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// TestNormalizeRemedy checks that Settings.NormalizeRemedy ends Run's
// warning about the scale of the weights (sl, which declares
// Uses.WeightScale, on two triangles of weight 250), instead of
// WeightScaleRemedy, the library's, which a nil Settings and an empty
// NormalizeRemedy keep (with Settings.Spelling's option after it:
// TestSpelledRemedies): a front end names its own option there (a job's
// normalize_weights, tether serve's upload option), where it used to
// replace the library's text in the warnings.
func TestNormalizeRemedy(t *testing.T) {
	edges := []graph.Edge{{I: 0, J: 1, W: 250}, {I: 1, J: 2, W: 250}, {I: 0, J: 2, W: 250}, {I: 3, J: 4, W: 250}, {I: 4, J: 5, W: 250}, {I: 3, J: 5, W: 250}, {I: 2, J: 3, W: 20}}
	g, err := graph.FromEdges(6, edges)
	if err != nil {
		t.Fatal(err)
	}
	p := &Problem{Graph: g, K: 2, Constraints: &constraint.Set{N: 6, Pairs: []constraint.Pair{{I: 0, J: 5, Kind: constraint.CannotLink}}}}
	const own = `(the front end's "normalize": true; library: graph.Graph.Normalized)`
	for _, c := range []struct {
		name     string
		s        *Settings
		want     string
		unwanted string
	}{
		{"nil Settings", nil, WeightScaleRemedy, own},
		{"empty NormalizeRemedy", &Settings{Seed: 1}, WeightScaleRemedy, own},
		{"NormalizeRemedy", &Settings{Seed: 1, NormalizeRemedy: own}, own, "tether cluster"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Run(context.Background(), SpectralLearning{}, p, c.s)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, w := range res.Warnings {
				if strings.Contains(w, "sl: the largest edge weight is 250 (nodes ") {
					found = true
					if !strings.HasSuffix(w, "divide the weights by the largest to run it as its source describes "+c.want) || strings.Contains(w, c.unwanted) {
						t.Errorf("warning %q: want it to end with %q, without %q", w, c.want, c.unwanted)
					}
				}
			}
			if !found {
				t.Errorf("warnings %q: none about the weights' scale", res.Warnings)
			}
		})
	}
}
