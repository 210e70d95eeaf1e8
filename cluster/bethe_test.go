package cluster

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// TestBetheBeatsUnnormalizedOnSparseSBM reproduces the claim of seed 004
// Fig. 6.1 at a few points: on sparse stochastic block model graphs
// (n = 1000, k = 2, c_out = 1) close to the detectability threshold, Bethe
// Hessian clustering recovers the blocks much better than unnormalized
// spectral clustering, whose eigenvectors localize on small components and
// high-degree nodes. NMI is 2I/(H₁+H₂), as in seed 004.
func TestBetheBeatsUnnormalizedOnSparseSBM(t *testing.T) {
	if testing.Short() {
		t.Skip("SBM comparison skipped in short mode")
	}
	const n, k, cout = 1000, 2, 1.0
	for _, cin := range []float64{8, 10} {
		var sumBH, sumUSC float64
		seeds := []uint64{1, 2, 3, 4, 5}
		for _, seed := range seeds {
			g, truth, err := synth.SBM(n, k, cin, cout, rand.NewPCG(seed, 11))
			if err != nil {
				t.Fatal(err)
			}
			p := &Problem{Graph: g, K: k}
			s := &Settings{Seed: seed}
			bh, err := Run(context.Background(), BetheHessian{}, p, s)
			if err != nil {
				t.Fatal(err)
			}
			us, err := Run(context.Background(), Unnormalized{}, p, s)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := metrics.NMI(truth, bh.Labels, metrics.Arithmetic)
			b, _ := metrics.NMI(truth, us.Labels, metrics.Arithmetic)
			sumBH += a
			sumUSC += b
		}
		mBH, mUSC := sumBH/float64(len(seeds)), sumUSC/float64(len(seeds))
		t.Logf("c_in = %v: mean NMI Bethe Hessian %.3f, unnormalized SC %.3f", cin, mBH, mUSC)
		if mBH < mUSC+0.2 || mBH < 0.3 {
			t.Errorf("c_in = %v: mean NMI Bethe Hessian %.3f not clearly above unnormalized SC %.3f", cin, mBH, mUSC)
		}
	}
}

// TestBetheEstimatesK checks the estimate of k from the negative
// eigenvalues of H(r) (Saade et al.) on SBM graphs well above the threshold.
func TestBetheEstimatesK(t *testing.T) {
	for _, k := range []int{2, 3, 4} {
		g, truth, err := synth.SBM(1200, k, 30, 2, rand.NewPCG(uint64(k), 5))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(context.Background(), BetheHessian{}, &Problem{Graph: g}, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if res.K != k {
			t.Errorf("k = %d: estimated %d (eigenvalues %v)", k, res.K, res.Eigenvalues)
			continue
		}
		if v, _ := metrics.NMI(truth, res.Labels, metrics.Arithmetic); v < 0.8 {
			t.Errorf("k = %d: NMI %.3f, want ≥ 0.8", k, v)
		}
	}
}

// A graph of mean degree ≤ 1 (a perfect matching plus a path) used to make
// the default r = 1 divide by zero in the weighted H(r); now r steps above
// the largest weight and the components are found.
func TestBetheSparseDefaultR(t *testing.T) {
	g, err := graph.FromEdges(6, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 2, J: 3, W: 1}, {I: 4, J: 5, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), BetheHessian{}, &Problem{Graph: g, K: 3}, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, pair := range [][2]int{{0, 1}, {2, 3}, {4, 5}} {
		if res.Labels[pair[0]] != res.Labels[pair[1]] {
			t.Errorf("edge %v split: labels %v", pair, res.Labels)
		}
	}
}

// The weighted H(r) reads weights as couplings, so it is not invariant
// under W → cW; far below 1 the graph's part of H(r) is lost to rounding
// and Partition refuses (betheCoupled, ErrNumerical) instead of returning
// an arbitrary partition. On a 600-node SBM graph the partition at weight
// scale 10⁻²² equals that at 10⁻³ (the coupling is 2.4·10⁻¹¹, above the
// bound), and at 10⁻²⁴, 10⁻²⁰⁰ and 10⁻³⁰⁰ Partition refuses (at 10⁻³⁰⁰
// every coupling r·w_ij underflows to 0, which once passed for a graph
// without edges); at 10⁻²⁶ the eigenvectors were noise (ARI −0.0006)
// before the check.
func TestBetheRefusesVanishingCoupling(t *testing.T) {
	g, truth, err := synth.SBM(600, 2, 10, 2, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	scaled := func(c float64) *graph.Graph { return weightsTimes(t, g, c) }
	ref, err := Run(context.Background(), BetheHessian{}, &Problem{Graph: scaled(1e-3), K: 2}, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if ari, _ := metrics.ARI(truth, ref.Labels); ari < 0.5 {
		t.Fatalf("ARI %.3f at scale 1e-3, want ≥ 0.5", ari)
	}
	for _, tc := range []struct {
		scale   float64
		refused bool
	}{{1e-22, false}, {1e-24, true}, {1e-200, true}, {1e-300, true}} {
		res, err := Run(context.Background(), BetheHessian{}, &Problem{Graph: scaled(tc.scale), K: 2}, &Settings{Seed: 1})
		switch {
		case tc.refused && (!errors.Is(err, ErrNumerical) || !strings.Contains(err.Error(), "bethe: the edge weights are too small for the weighted Bethe Hessian")):
			t.Errorf("scale %g: error %v, want ErrNumerical on the vanishing coupling", tc.scale, err)
		case !tc.refused && err != nil:
			t.Errorf("scale %g: %v", tc.scale, err)
		case !tc.refused:
			if ari, _ := metrics.ARI(ref.Labels, res.Labels); ari != 1 {
				t.Errorf("scale %g: ARI %v against the partition at 1e-3, want 1", tc.scale, ari)
			}
		}
	}
}

// An estimate of k = 1 is a warning, not a note: on a graph without
// blocks (c_in = c_out) it says to give k; on a 3-block graph whose
// weights were multiplied by 10 (3 blocks found at weight 1) it says that
// the count depends on the scale of the weights.
func TestBetheWarnsOnOneCluster(t *testing.T) {
	blocks, _, err := synth.SBM(600, 3, 15, 2, rand.NewPCG(3, 1))
	if err != nil {
		t.Fatal(err)
	}
	flat, _, err := synth.SBM(600, 3, 6, 6, rand.NewPCG(3, 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		g     *graph.Graph
		k     int
		want  string // in a warning ("" : no warning on k)
		notes string // in a note
	}{
		{"3 blocks", blocks, 3, "", "k = 3 estimated"},
		{"3 blocks, weights ×10", weightsTimes(t, blocks, 10), 1, "so the count depends on their scale", ""},
		{"no blocks", flat, 1, "sees no community structure; give k", ""},
	} {
		res, err := Run(context.Background(), BetheHessian{}, &Problem{Graph: tc.g}, &Settings{Seed: 1})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if res.K != tc.k {
			t.Errorf("%s: k = %d, want %d", tc.name, res.K, tc.k)
		}
		all := strings.Join(res.Warnings, "\n")
		if tc.want != "" && !strings.Contains(all, "bethe: k = 1 estimated") || !strings.Contains(all, tc.want) {
			t.Errorf("%s: warnings %q, want one with %q", tc.name, res.Warnings, tc.want)
		}
		if tc.notes != "" && !strings.Contains(strings.Join(res.Notes, "\n"), tc.notes) {
			t.Errorf("%s: notes %q, want %q", tc.name, res.Notes, tc.notes)
		}
	}
}

// weightsTimes returns g with every weight multiplied by c.
func weightsTimes(t *testing.T, g *graph.Graph, c float64) *graph.Graph {
	t.Helper()
	es := g.Edges()
	for i := range es {
		es[i].W *= c
	}
	h, err := graph.FromEdges(g.N(), es)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
