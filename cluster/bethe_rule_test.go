package cluster

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// TestBetheRuleEstimatesK checks the k estimate of both rules on DC-SBM
// graphs well above the detectability threshold (c = 10, c_out = 0.1·c_in,
// k ≤ 4: c_in − c_out ≥ 2.5 k√c), plain (γ = 0) and heterogeneous
// (γ = 2.5); docs/results/kestimate has the full grid. It also checks
// that each rule's r is the one documented.
func TestBetheRuleEstimatesK(t *testing.T) {
	for _, tc := range []struct {
		k     int
		gamma float64
	}{{2, 0}, {4, 0}, {2, 2.5}, {4, 2.5}} {
		cin := float64(tc.k) * 10 / (1 + float64(tc.k-1)*0.1)
		g, _, _, err := synth.DCSBM(1500, tc.k, cin, 0.1*cin, tc.gamma, rand.NewPCG(uint64(tc.k), 11))
		if err != nil {
			t.Fatal(err)
		}
		for _, rule := range []BetheRule{BetheRuleMean, BetheRuleNB} {
			res, err := Run(context.Background(), BetheHessian{Rule: rule}, &Problem{Graph: g}, &Settings{Seed: 1, Restarts: 1})
			if err != nil {
				t.Fatal(err)
			}
			if res.K != tc.k {
				t.Errorf("k=%d γ=%g rule %v: estimated k = %d", tc.k, tc.gamma, rule, res.K)
			}
		}
		if got, want := BetheRuleNB.R(g), graph.BetheRNonBacktracking(g); got != want {
			t.Errorf("nb: r = %v, want %v", got, want)
		}
		if got, want := BetheRuleMean.R(g), graph.BetheR(g); got != want {
			t.Errorf("mean: r = %v, want %v", got, want)
		}
	}
	var r BetheRule
	if err := r.UnmarshalText([]byte("NB")); err != nil || r != BetheRuleNB {
		t.Errorf("UnmarshalText(NB) = %v, %v", r, err)
	}
	if err := r.UnmarshalText([]byte("median")); !errors.Is(err, ErrInvalid) {
		t.Errorf("UnmarshalText(median): err = %v, want ErrInvalid", err)
	}
	g, _ := plantedCliques(t, []int{5, 5}, 1)
	if _, err := Run(context.Background(), BetheHessian{Rule: 7}, &Problem{Graph: g, K: 2}, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("Rule 7: err = %v, want ErrInvalid", err)
	}
}

// TestBetheZetaRoots checks that the ζ_p of BetheRuleZeta are roots of
// λ_p(H(r)): on each side of ζ_p (±0.5%, beyond the search's 10⁻³
// bracket) the p-th smallest eigenvalue of the dense H(r), decomposed here
// with gonum's EigenSym independently of the method's solver, changes sign.
func TestBetheZetaRoots(t *testing.T) {
	cin := 2 * 8 / 1.1
	g, truth, _, err := synth.DCSBM(160, 2, cin, 0.1*cin, 2.5, rand.NewPCG(3, 3))
	if err != nil {
		t.Fatal(err)
	}
	rmax := graph.BetheRNonBacktracking(g)
	_, zeta, unconverged, err := betheZetaEmbedding(context.Background(), g, 2, rmax, &Settings{Seed: 1})
	if err != nil || unconverged != "" {
		t.Fatal(err, unconverged)
	}
	lambda := func(r float64, p int) float64 {
		h, err := graph.NewBetheHessian(g, r)
		if err != nil {
			t.Fatal(err)
		}
		return sortedEigenvalues(t, graph.Dense(h))[p]
	}
	for p, z := range zeta {
		if z >= rmax {
			continue
		}
		if z*0.995 > 1.001 {
			if below := lambda(z*0.995, p); below < -1e-9 {
				t.Errorf("p=%d: λ_p(H(%.4g)) = %g below ζ_p = %.4g, want ≥ 0", p, z*0.995, below, z)
			}
		}
		above := lambda(z*1.005, p)
		if above > 1e-9 {
			t.Errorf("p=%d: λ_p(H(%.4g)) = %g above ζ_p, want < 0", p, z*1.005, above)
		}
	}
	if !(zeta[0] <= zeta[1]) {
		t.Errorf("ζ = %v, want ordered", zeta)
	}
	res, err := Run(context.Background(), BetheHessian{Rule: BetheRuleZeta}, &Problem{Graph: g, K: 2}, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	ari, _ := metrics.ARI(truth, res.Labels)
	// c = 8, c_out/c_in = 0.1: far above the threshold; the degree-corrected
	// embedding recovers most of the split.
	if ari < 0.6 {
		t.Errorf("zeta ARI %.3f, want ≥ 0.6", ari)
	}
}

// TestBetheZetaBeatsMeanOnHeterogeneousGraphs checks Dall'Amico, Couillet
// & Tremblay's (2019) claim on one seeded DC-SBM graph with power-law
// degrees (n = 1000, k = 3, c = 5, γ = 2.5): the eigenvectors of H(ζ_p)
// cluster better than those of H(√c). On this graph ARI 0.606 against 0.450
// in our run; the test asks for a margin of 0.05.
func TestBetheZetaBeatsMeanOnHeterogeneousGraphs(t *testing.T) {
	if testing.Short() {
		t.Skip("about a second")
	}
	cin := 3 * 5 / 1.2
	g, truth, _, err := synth.DCSBM(1000, 3, cin, 0.1*cin, 2.5, rand.NewPCG(1, 3))
	if err != nil {
		t.Fatal(err)
	}
	ari := map[BetheRule]float64{}
	for _, rule := range []BetheRule{BetheRuleMean, BetheRuleZeta} {
		res, err := Run(context.Background(), BetheHessian{Rule: rule}, &Problem{Graph: g, K: 3}, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		ari[rule], _ = metrics.ARI(truth, res.Labels)
	}
	if ari[BetheRuleZeta] < ari[BetheRuleMean]+0.05 {
		t.Errorf("ARI zeta %.3f, mean %.3f: want zeta ahead by 0.05", ari[BetheRuleZeta], ari[BetheRuleMean])
	}
	t.Logf("ARI zeta %.3f, mean %.3f", ari[BetheRuleZeta], ari[BetheRuleMean])
}

// sortedEigenvalues returns the eigenvalues of the symmetric dense matrix
// a, ascending.
func sortedEigenvalues(t *testing.T, a *mat.Dense) []float64 {
	t.Helper()
	n, _ := a.Dims()
	s := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			s.SetSym(i, j, a.At(i, j))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(s, false) {
		t.Fatal("EigenSym failed")
	}
	return es.Values(nil)
}

// TestBetheZetaUnconvergedWarns: eigensolves of the ζ_p search that do
// not converge (here capped at 3 Lanczos restarts on a 1500-node graph)
// are used as they are, and Result.Warnings says so; 10 of 31 such solves
// left no trace (review 117), while Result.Warnings is documented to
// include an eigensolver that did not converge. With the default budget
// every solve converges and there is no such warning.
func TestBetheZetaUnconvergedWarns(t *testing.T) {
	g, _, err := synth.SBM(1500, 3, 30, 6, rand.NewPCG(3, 3))
	if err != nil {
		t.Fatal(err)
	}
	p := &Problem{Graph: g, K: 3}
	for _, tc := range []struct {
		maxIter int
		want    bool
	}{{3, true}, {0, false}} {
		s := &Settings{Seed: 1}
		if tc.maxIter > 0 {
			s.EigenSettings = &eigen.Settings{MaxIter: tc.maxIter}
		}
		res, err := Run(context.Background(), BetheHessian{Rule: BetheRuleZeta}, p, s)
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, w := range res.Warnings {
			got = got || strings.Contains(w, "eigensolves of the search for ζ_p (Rule zeta) did not converge")
		}
		if got != tc.want {
			t.Errorf("MaxIter %d: warning %v, want %v (warnings %q)", tc.maxIter, got, tc.want, res.Warnings)
		}
	}
}
