package cluster

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/kmeans"
)

// TestSSCKAKernelMatchesDense checks, for the three objectives, that the
// sparse kernel (graph kernel + penalty term) has the cluster sums of the
// dense matrix K = σI + W + Ω, σI − L + Ω, σD⁻¹ + D⁻¹(W + Ω)D⁻¹ (thesis
// eq. 4.2.7–4.2.8, Table 4.3) built here entry by entry, and that the
// automatic shift is the smallest one making K positive semidefinite.
func TestSSCKAKernelMatchesDense(t *testing.T) {
	g := pwRandomGraph(t, 11, 15, 8)
	n := 11
	pairs := []constraint.Pair{
		{I: 0, J: 4, Kind: constraint.MustLink},
		{I: 2, J: 9, Kind: constraint.CannotLink},
		{I: 1, J: 2, Kind: constraint.CannotLink, Weight: 3},
	}
	const pen = 1.7
	om := mat.NewDense(n, n, nil)
	for _, q := range pairs {
		v := pen * q.W()
		if q.Kind == constraint.CannotLink {
			v = -v
		}
		om.Set(q.I, q.J, om.At(q.I, q.J)+v)
		om.Set(q.J, q.I, om.At(q.J, q.I)+v)
	}
	d := g.Degrees()
	w := g.Dense()
	for _, obj := range []KernelObjective{RatioAssociation, RatioCut, NormalizedCut} {
		// base B with K = σ·diag + B, and the congruence for PSD.
		base := mat.NewDense(n, n, nil)
		base.Add(w, om)
		if obj == RatioCut {
			for i := 0; i < n; i++ {
				base.Set(i, i, base.At(i, i)-d[i])
			}
		}
		psd := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				v := base.At(i, j)
				if obj == NormalizedCut {
					v /= math.Sqrt(d[i] * d[j])
				}
				psd.SetSym(i, j, v)
			}
		}
		var es mat.EigenSym
		es.Factorize(psd, false)
		sigma := math.Max(0, -es.Values(nil)[0])
		kd := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				v := base.At(i, j)
				if i == j {
					if obj == NormalizedCut {
						v += sigma * d[i] // σD⁻¹ = D⁻¹(σD)D⁻¹
					} else {
						v += sigma
					}
				}
				if obj == NormalizedCut {
					v /= d[i] * d[j]
				}
				kd.SetSym(i, j, v)
			}
		}
		dense, err := kmeans.NewDenseKernel(kd)
		if err != nil {
			t.Fatal(err)
		}
		sparse, weights := ssckaKernelForTest(t, g, pairs, obj, pen)
		labels := []int{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1}
		var wts []float64
		if obj == NormalizedCut {
			wts = d
		}
		if weights != nil && obj != NormalizedCut {
			t.Errorf("%v: unexpected weights", obj)
		}
		got, want := mat.NewDense(n, 3, nil), mat.NewDense(n, 3, nil)
		sparse.ClusterSumsTo(got, labels, wts)
		dense.ClusterSumsTo(want, labels, wts)
		// SSCKA adds a relative margin of 1e-9 to σ.
		if e := pwMaxAbsDiff(got, want); e > 1e-7 {
			t.Errorf("%v: cluster sums differ by %g", obj, e)
		}
		// The shifted kernel is PSD and the shift is tight (λ_min ≈ 0).
		var ek mat.EigenSym
		ek.Factorize(kd, false)
		if lmin := ek.Values(nil)[0]; lmin < -1e-9 {
			t.Errorf("%v: shifted kernel has λ_min = %g", obj, lmin)
		}
	}
}

// ssckaKernelForTest rebuilds the kernel SSCKA.Cluster uses.
func ssckaKernelForTest(t *testing.T, g *graph.Graph, pairs []constraint.Pair, obj KernelObjective, pen float64) (kmeans.Kernel, []float64) {
	t.Helper()
	kern, weights, _, _, err := ssckaKernelW(context.Background(), g, pairs, obj, pen, 0, (&Settings{}).orDefault())
	if err != nil {
		t.Fatal(err)
	}
	return kern, weights
}

// TestSSCKAConstraintsHelp: with many constraints (thesis Fig. 4.6: SSC:KA
// needs many) on overlapping blobs, the ARI rises above the unconstrained
// kernel k-means one.
func TestSSCKAConstraintsHelp(t *testing.T) {
	g, truth := pwBlobGraph(t, 120, 3, 3, 21)
	labels, err := constraint.FractionLabels(truth, 0.5, rand.NewPCG(4, 4))
	if err != nil {
		t.Fatal(err)
	}
	run := func(s *constraint.Set) float64 {
		res, err := Run(context.Background(), SSCKA{}, &Problem{Graph: g, K: 3, Constraints: s}, &Settings{Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		ml, cl := constraint.Violations(constraint.FromLabels(labels), res.Labels)
		return float64(ml + cl)
	}
	free, con := run(nil), run(constraint.FromLabels(labels))
	if !(con < free) {
		t.Errorf("violations with constraints %v, without %v", con, free)
	}
}
