package cluster

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/metrics"
)

// weightScaleExceptions are the graph methods whose partition depends on
// the scale of the weights in a way Uses.WeightScale does not cover, as
// their docs say: cscap below 1 (ε is a variance on W's scale), opplc
// refuses weights above 1.
var weightScaleExceptions = map[string]bool{"cscap": true, "opplc": true}

// TestWeightScale checks Uses.WeightScale against the methods: on a
// 300-node SBM graph (c_in 9, c_out 3) with must-links and cannot-links
// (6/n of the pairs) or 10% of the nodes labelled,
//   - every graph method without WeightScale (the exceptions aside) gives
//     the same partition with the weights times 2⁻¹⁰ and times 10³ (an
//     exact scale and a rounded one: the methods are invariant, not only
//     in exact arithmetic) and no warning about the scale;
//   - every method with WeightScale changes its partition with the weights
//     times 10⁴ (so the declaration is needed), warns there, naming the
//     largest weight, and not at scale 1.
func TestWeightScale(t *testing.T) {
	g, truth, err := synth.SBM(300, 2, 9, 3, rand.NewPCG(3, 3))
	if err != nil {
		t.Fatal(err)
	}
	pairs, err := constraint.SampleFromLabels(constraint.Labels(truth), 6.0/300, rand.NewPCG(4, 4))
	if err != nil {
		t.Fatal(err)
	}
	labels, err := constraint.FractionLabels(truth, 0.1, rand.NewPCG(5, 5))
	if err != nil {
		t.Fatal(err)
	}
	const warned = "reads the weights as similarities in [0, 1]"
	for _, info := range Methods() {
		m := info.New()
		u := m.Uses()
		if u.Input&(FeatureInput|BipartiteInput) != 0 || info.Name == "auto" {
			continue // no graph, or its candidates' (auto)
		}
		t.Run(info.Name, func(t *testing.T) {
			run := func(scale float64) (*Result, error) {
				p := &Problem{Graph: weightsTimes(t, g, scale), K: 2}
				switch {
				case u.Supervision&Pairs != 0:
					p.Constraints = pairs
				case u.Supervision&LabelSet != 0:
					p.Labels = labels
				}
				return Run(context.Background(), m, p, &Settings{Seed: 1})
			}
			ref, err := run(1)
			if err != nil {
				t.Fatal(err)
			}
			if w := strings.Join(ref.Warnings, "\n"); strings.Contains(w, warned) {
				t.Errorf("scale 1: warned about the scale: %s", w)
			}
			if weightScaleExceptions[info.Name] {
				return
			}
			if u.WeightScale == "" {
				for _, scale := range []float64{1.0 / 1024, 1e3} {
					res, err := run(scale)
					if err != nil {
						t.Fatalf("scale %g: %v", scale, err)
					}
					if ari, _ := metrics.ARI(ref.Labels, res.Labels); ari < 1-1e-12 {
						t.Errorf("scale %g: ARI %.4f against the partition at scale 1, want 1 (invariant; else declare Uses.WeightScale)", scale, ari)
					}
					if w := strings.Join(res.Warnings, "\n"); strings.Contains(w, warned) {
						t.Errorf("scale %g: warned about the scale: %s", scale, w)
					}
				}
				return
			}
			res, err := run(1e4)
			if err != nil {
				t.Fatalf("scale 1e4: %v", err)
			}
			if ari, _ := metrics.ARI(ref.Labels, res.Labels); ari > 0.99 {
				t.Errorf("scale 1e4: ARI %.4f against the partition at scale 1: invariant here, so Uses.WeightScale has no evidence", ari)
			}
			w := strings.Join(res.Warnings, "\n")
			if !strings.Contains(w, info.Name+": the largest edge weight is 1e+04 (nodes ") || !strings.Contains(w, warned) || !strings.Contains(w, u.WeightScale) {
				t.Errorf("scale 1e4: warnings %q lack the one about the scale", res.Warnings)
			}
		})
	}
}
