package cluster

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// TestWeightScale checks Uses.WeightScale against the methods: on a
// 300-node SBM graph (c_in 9, c_out 3) with must-links and cannot-links
// (6/n of the pairs) or 10% of the nodes labelled, and for the methods that
// read feature rows with the graph (clpp) the rows of weightScaleFeatures,
//   - every graph method without WeightScale gives the same partition
//     with the weights times 2⁻¹⁰ and times 10³ (an exact scale and a
//     rounded one: the methods are invariant, not only in exact
//     arithmetic), and times 10⁻²⁰⁰ and 10²⁰⁰, which Run scales back
//     (rescaled: cosc, labelprop, plmeans and sscka failed or changed
//     their partition there before), with a note, and no warning about
//     the scale;
//     and, for the methods of pairs, with 200 pairs of which 20% are
//     flipped (contradictory) too;
//   - every method with WeightScale changes its partition, or refuses
//     the graph, with the weights times 10⁴, or else times 2⁻¹⁰ (cscap),
//     or else times 2⁻¹⁰ with the contradictory pairs (ml- and
//     mcl-noa-ssc, whose resolve weighs them against the graph), so the
//     declaration is needed; it warns at 10⁻⁸ (weights far below 1) when
//     it runs, not at 2⁻¹⁰; it warns at 10⁴ when it runs, naming the
//     largest weight (ml- and mcl-noa-ssc, ScaleOnContradiction, with
//     the contradictory pairs only), and never at scale 1.
func TestWeightScale(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	g, truth, pairs, labels := sbmSupervised(t)
	// 200 pairs, 20% flipped: they contradict each other.
	clean200, err := constraint.UniformPairs(truth, 200, rand.NewPCG(6, 6))
	if err != nil {
		t.Fatal(err)
	}
	noisy, _, err := constraint.FlipPairs(clean200, 0.2, rand.NewPCG(7, 7))
	if err != nil {
		t.Fatal(err)
	}
	const warned = "reads the weights as similarities in [0, 1]"
	// Feature rows for the methods that take a graph on them (clpp):
	// weightScaleFeatures.
	features := weightScaleFeatures(truth)
	for _, info := range Methods() {
		m := info.New()
		u := m.Uses()
		if u.Input != 0 && u.Input&GraphInput == 0 || u.Input&BipartiteInput != 0 || info.Name == "auto" {
			continue // no graph, or its candidates' (auto)
		}
		t.Run(info.Name, func(t *testing.T) {
			t.Parallel() // no clock read; g, the pairs and labels are read only
			runWith := func(scale float64, set *constraint.Set) (*Result, error) {
				p := &Problem{Graph: weightsTimes(t, g, scale), K: 2}
				if u.Input&FeatureInput != 0 {
					p.Features = features
				}
				switch {
				case u.Supervision&Pairs != 0:
					p.Constraints = set
				case u.Supervision&LabelSet != 0:
					p.Labels = labels
				}
				return Run(context.Background(), m, p, &Settings{Seed: 1})
			}
			run := func(scale float64) (*Result, error) { return runWith(scale, pairs) }
			ref, err := run(1)
			if err != nil {
				t.Fatal(err)
			}
			if w := strings.Join(ref.Warnings, "\n"); strings.Contains(w, warned) {
				t.Errorf("scale 1: warned about the scale: %s", w)
			}
			if u.WeightScale == "" {
				for _, scale := range []float64{1.0 / 1024, 1e3, 1e-200, 1e200} {
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
					note := strings.Contains(strings.Join(res.Notes, "\n"), info.Name+": the edge weights (largest ")
					if extreme := scale < 1e-100 || scale > 1e100; note != extreme {
						t.Errorf("scale %g: note about rescaling %v, want %v (notes %q)", scale, note, extreme, res.Notes)
					}
				}
				if u.Supervision&Pairs == 0 {
					return
				}
				// Contradictory pairs too (those the method refuses
				// aside: cosc).
				ref, err := runWith(1, noisy)
				if err != nil {
					t.Logf("contradictory pairs: %v", err)
					return
				}
				for _, scale := range []float64{1.0 / 1024, 1e3} {
					res, err := runWith(scale, noisy)
					if err != nil {
						t.Fatalf("contradictory pairs, scale %g: %v", scale, err)
					}
					if ari, _ := metrics.ARI(ref.Labels, res.Labels); ari < 1-1e-12 {
						t.Errorf("contradictory pairs, scale %g: ARI %.4f against the partition at scale 1, want 1 (invariant; else declare Uses.WeightScale)", scale, ari)
					}
				}
				return
			}
			evidence := ""
			res, err := run(1e4)
			switch {
			case err != nil:
				evidence = "refuses at 1e4: " + err.Error()
			default:
				if ari, _ := metrics.ARI(ref.Labels, res.Labels); ari < 0.99 {
					evidence = "changes at 1e4"
				}
				w := strings.Join(res.Warnings, "\n")
				if u.ScaleOnContradiction {
					// Consistent pairs: scale-free, no warning; the
					// contradictory ones warn.
					if strings.Contains(w, warned) {
						t.Errorf("scale 1e4, consistent pairs: warned about the scale: %s", w)
					}
					if noisyRes, err := runWith(1e4, noisy); err == nil {
						w = strings.Join(noisyRes.Warnings, "\n")
					}
				}
				if !strings.Contains(w, info.Name+": the largest edge weight is 1e+04 (nodes ") || !strings.Contains(w, warned) || !strings.Contains(w, u.WeightScale) {
					t.Errorf("scale 1e4: warnings %q lack the one about the scale", w)
				}
			}
			// Far below 1 it warns too (or refuses), and not at 2⁻¹⁰
			// (ml- and mcl-noa-ssc: with contradictory pairs).
			tinySet := pairs
			if u.ScaleOnContradiction {
				tinySet = noisy
			}
			if tiny, err := runWith(1e-8, tinySet); err == nil {
				if w := strings.Join(tiny.Warnings, "\n"); !strings.Contains(w, info.Name+": the largest edge weight is 1e-08 (nodes ") || !strings.Contains(w, "far below 1") {
					t.Errorf("scale 1e-8: warnings %q lack the one about the scale", w)
				}
			}
			if small, err := run(1.0 / 1024); err == nil && strings.Contains(strings.Join(small.Warnings, "\n"), "far below 1") {
				t.Errorf("scale 2⁻¹⁰: warned about tiny weights: %q", small.Warnings)
			}
			if evidence == "" {
				if small, err := run(1.0 / 1024); err != nil {
					evidence = "refuses at 2⁻¹⁰: " + err.Error()
				} else if ari, _ := metrics.ARI(ref.Labels, small.Labels); ari < 0.99 {
					evidence = "changes at 2⁻¹⁰"
				}
			}
			if evidence == "" && u.Supervision&Pairs != 0 {
				// ml- and mcl-noa-ssc: only when they resolve
				// contradictory pairs.
				a, errA := runWith(1, noisy)
				b, errB := runWith(1.0/1024, noisy)
				if errA == nil && errB == nil {
					if ari, _ := metrics.ARI(a.Labels, b.Labels); ari < 0.99 {
						evidence = "changes at 2⁻¹⁰ with contradictory pairs"
					}
				}
			}
			if evidence == "" {
				t.Errorf("the same partition at scales 1e4 and 2⁻¹⁰ as at 1: Uses.WeightScale has no evidence")
			}
			t.Log(evidence)
		})
	}
}

// sbmSupervised returns an SBM graph of 300 nodes in 2 blocks (c_in 9,
// c_out 3), its blocks, pairs drawn with probability 6/300 and 10% of the
// nodes labelled, all seeded.
func sbmSupervised(t *testing.T) (*graph.Graph, []int, *constraint.Set, constraint.Labels) {
	t.Helper()
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
	return g, truth, pairs, labels
}

// weightScaleFeatures returns 5-D feature rows for the nodes of blocks
// truth: coordinate 0 is the block (±0.6) plus unit Gaussian noise,
// coordinates 1–4 Gaussian noise of standard deviations 3, 1, 0.1 and
// 0.1, seeded, so that the 95%-variance rule of cpca and clpp keeps fewer
// than 5 dimensions and the constraints can move the projection.
func weightScaleFeatures(truth []int) *mat.Dense {
	rng := rand.New(rand.NewPCG(8, 8))
	sd := []float64{1, 3, 1, 0.1, 0.1}
	x := mat.NewDense(len(truth), len(sd), nil)
	for i, c := range truth {
		for j, s := range sd {
			v := s * rng.NormFloat64()
			if j == 0 {
				v += 1.2*float64(c) - 0.6
			}
			x.Set(i, j, v)
		}
	}
	return x
}
