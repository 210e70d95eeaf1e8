package cluster

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// TestCSCLaplacianMatchesDefinition builds L̄_cSC of seed 002 eq. 35–44
// entry by entry and compares it with the operator.
func TestCSCLaplacianMatchesDefinition(t *testing.T) {
	g := pwRandomGraph(t, 9, 10, 4)
	pairs := []constraint.Pair{
		{I: 0, J: 5, Kind: constraint.MustLink},
		{I: 0, J: 1, Kind: constraint.CannotLink}, // on an edge of the path: W and Q overlap
		{I: 3, J: 8, Kind: constraint.CannotLink, Weight: 2},
	}
	for _, gamma := range []float64{0.5, 0.2, 1} {
		n := 9
		wc := mat.NewDense(n, n, nil)
		wc.Scale(gamma, g.Dense())
		for _, q := range pairs {
			v := (1 - gamma) * q.W()
			if q.Kind == constraint.CannotLink {
				v = -v
			}
			wc.Set(q.I, q.J, wc.At(q.I, q.J)+v)
			wc.Set(q.J, q.I, wc.At(q.J, q.I)+v)
		}
		want := mat.NewDense(n, n, nil)
		dbar := make([]float64, n)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				dbar[i] += math.Abs(wc.At(i, j))
			}
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				v := -wc.At(i, j)
				if i == j {
					v += dbar[i]
				}
				want.Set(i, j, v/math.Sqrt(dbar[i]*dbar[j]))
			}
		}
		op, err := newCSCLaplacian(g, pairs, gamma)
		if err != nil {
			t.Fatal(err)
		}
		if d := pwMaxAbsDiff(graph.Dense(op), want); d > 1e-13 {
			t.Errorf("γ = %v: max |Δ| = %g", gamma, d)
		}
		// Signed Laplacians are positive semidefinite (Kunegis et al.).
		ws := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				ws.SetSym(i, j, want.At(i, j))
			}
		}
		var es mat.EigenSym
		es.Factorize(ws, false)
		if l := es.Values(nil)[0]; l < -1e-12 {
			t.Errorf("γ = %v: λ_min = %g < 0", gamma, l)
		}
	}
}

// TestCSCConstraintsHelp: on blobs that overlap, cannot-links and
// must-links from 30% labels raise the ARI of cSC above its unconstrained
// value (γ = 1, where Q has no weight). Measured 0.756 against 0.714.
func TestCSCConstraintsHelp(t *testing.T) {
	g, truth := pwBlobGraph(t, 150, 3, 3, 21)
	labels, err := constraint.FractionLabels(truth, 0.3, rand.NewPCG(4, 4))
	if err != nil {
		t.Fatal(err)
	}
	set := constraint.FromLabels(labels)
	ari := func(m CSC, s *constraint.Set) float64 {
		res, err := Run(context.Background(), m, &Problem{Graph: g, K: 3, Constraints: s}, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		a, _ := metrics.ARI(truth, res.Labels)
		return a
	}
	free, con := ari(CSC{Gamma: 1}, set), ari(CSC{}, set)
	if !(con > free+0.03) {
		t.Errorf("ARI with constraints %.3f, without %.3f", con, free)
	}
}

// cscUnbalanced returns two overlapping Gaussian classes in the plane of
// n0 and n1 points (centres 1.5 apart, unit spread) on a full RBF graph of
// width σ = 0.3, weak next to the constraints as hepatitis' graph is
// (seed 002 §6.1), and the classes.
func cscUnbalanced(t *testing.T, n0, n1 int) (*graph.Graph, []int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	n := n0 + n1
	truth := make([]int, n)
	x := make([][2]float64, n)
	for i := range x {
		c := 0.0
		if i >= n0 {
			truth[i], c = 1, 1.5
		}
		x[i] = [2]float64{c + rng.NormFloat64(), rng.NormFloat64()}
	}
	const s2 = 2 * 0.3 * 0.3
	w := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			dx, dy := x[i][0]-x[j][0], x[i][1]-x[j][1]
			w.SetSym(i, j, math.Exp(-(dx*dx+dy*dy)/s2))
		}
	}
	g, err := graph.FromDense(w)
	if err != nil {
		t.Fatal(err)
	}
	return g, truth
}

// TestCSCUnbalancedTwoWay is the hepatitis failure on synthetic data: 12
// against 60 points, constraints on a growing fraction of the pairs. The
// sign of the lowest non-trivial eigenvector (seed 002 §5, lines 237–240)
// improves with the rate, as seed 002 Fig. 1 reports, and is exact at 20%;
// k-means on the two lowest eigenvectors (KMeansTwoWay, the behaviour
// before) cuts the large class instead. Mean accuracy over 5 constraint
// sets, measured: sign 0.889, 0.944, 1.000; k-means 0.636, 0.664, 0.586.
func TestCSCUnbalancedTwoWay(t *testing.T) {
	g, truth := cscUnbalanced(t, 12, 60)
	mean := func(m CSC, rate float64) float64 {
		var sum float64
		for rep := uint64(0); rep < 5; rep++ {
			set, err := constraint.FractionPairs(truth, rate, rand.NewPCG(rep, 3))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Run(context.Background(), m, &Problem{Graph: g, K: 2, Constraints: set}, &Settings{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			a, err := metrics.Accuracy(truth, res.Labels)
			if err != nil {
				t.Fatal(err)
			}
			sum += a
		}
		return sum / 5
	}
	cases := []struct {
		rate     float64
		min      float64 // for CSC{}
		kmeanMax float64 // for KMeansTwoWay
	}{
		{0.02, 0.85, 0.7},
		{0.05, 0.9, 0.7},
		{0.2, 0.999, 0.7},
	}
	prev := 0.0
	for _, c := range cases {
		got := mean(CSC{}, c.rate)
		if got < c.min || got < prev {
			t.Errorf("rate %g: accuracy %.3f, want ≥ %.3f and ≥ %.3f at the lower rate", c.rate, got, c.min, prev)
		}
		prev = got
		if km := mean(CSC{KMeansTwoWay: true}, c.rate); km > c.kmeanMax {
			t.Errorf("rate %g: k-means on (z₁, z₂) has accuracy %.3f, expected the failure (≤ %.2f) this test documents", c.rate, km, c.kmeanMax)
		}
	}
}

// TestCSCTwoWayVector checks which eigenvector K = 2 uses against a dense
// decomposition of L̄_cSC: the lowest one when there is a cannot-link, the
// second when W_cSC ≥ 0 (the first is then D̄^{1/2}1, eigenvalue 0).
func TestCSCTwoWayVector(t *testing.T) {
	g := pwRandomGraph(t, 30, 60, 5)
	ml := []constraint.Pair{{I: 0, J: 7, Kind: constraint.MustLink}, {I: 3, J: 20, Kind: constraint.MustLink}}
	// Cannot-links strong enough that z₁ has both signs.
	cl := append([]constraint.Pair(nil), ml...)
	for i := 0; i < 10; i++ {
		cl = append(cl, constraint.Pair{I: i, J: 29 - i, Kind: constraint.CannotLink, Weight: 5})
	}
	cases := []struct {
		name  string
		pairs []constraint.Pair
		col   int // eigenvector of the dense decomposition
	}{
		{"no constraint", nil, 1},
		{"must-links only", ml, 1},
		{"with cannot-links", cl, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			set := &constraint.Set{N: 30, Pairs: c.pairs}
			res, err := Run(context.Background(), CSC{}, &Problem{Graph: g, K: 2, Constraints: set}, &Settings{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			op, err := newCSCLaplacian(g, c.pairs, 0.5)
			if err != nil {
				t.Fatal(err)
			}
			d := graph.Dense(op)
			l := mat.NewSymDense(30, nil)
			for i := 0; i < 30; i++ {
				for j := i; j < 30; j++ {
					l.SetSym(i, j, (d.At(i, j)+d.At(j, i))/2)
				}
			}
			var es mat.EigenSym
			if !es.Factorize(l, true) {
				t.Fatal("EigenSym failed")
			}
			vals := es.Values(nil)
			var v mat.Dense
			es.VectorsTo(&v)
			// The dense solver of Cluster and EigenSym agree to rounding
			// (eigenvalues of a normalized Laplacian, ≤ 2).
			if got := res.Eigenvalues[0]; math.Abs(got-vals[c.col]) > 1e-10 {
				t.Errorf("eigenvalue %v, dense λ_%d = %v", got, c.col+1, vals[c.col])
			}
			if vals[1]-vals[0] < 1e-3 || vals[2]-vals[1] < 1e-3 {
				t.Fatalf("eigenvalues %v too close to tell the vectors apart", vals[:3])
			}
			// Same sign pattern up to a global flip.
			agree := 0
			for i := 0; i < 30; i++ {
				if (v.At(i, c.col) > 0) == (res.Labels[i] == 1) {
					agree++
				}
			}
			if agree != 30 && agree != 0 {
				t.Errorf("labels %v disagree with sign(z_%d) on %d of 30 nodes", res.Labels, c.col+1, min(agree, 30-agree))
			}
		})
	}
}

// TestCSCTwoWayOneSign: a single weak cannot-link between two cliques
// joined by one edge leaves the lowest eigenvector of one sign (it is close
// to D̄^{1/2}1); the next one separates the cliques.
func TestCSCTwoWayOneSign(t *testing.T) {
	var es []graph.Edge
	truth := make([]int, 12)
	for c := 0; c < 2; c++ {
		for i := 0; i < 6; i++ {
			truth[6*c+i] = c
			for j := i + 1; j < 6; j++ {
				es = append(es, graph.Edge{I: 6*c + i, J: 6*c + j, W: 1})
			}
		}
	}
	es = append(es, graph.Edge{I: 5, J: 6, W: 0.5})
	g, err := graph.FromEdges(12, es)
	if err != nil {
		t.Fatal(err)
	}
	set := &constraint.Set{N: 12, Pairs: []constraint.Pair{{I: 0, J: 11, Kind: constraint.CannotLink, Weight: 1e-3}}}
	res, err := Run(context.Background(), CSC{}, &Problem{Graph: g, K: 2, Constraints: set}, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if ari, _ := metrics.ARI(truth, res.Labels); ari != 1 {
		t.Errorf("labels %v, want the two cliques", res.Labels)
	}
	if len(res.Warnings) == 0 || !strings.Contains(res.Warnings[len(res.Warnings)-1], "close to the trivial") {
		t.Errorf("warnings %q, want the note on the near-trivial vector", res.Warnings)
	}
}

// On sparse two-block graphs with weak cannot-links the lowest eigenvector
// of L̄_cSC is nearly the trivial D̄^{1/2}1 with a few stray entries; its
// sign used to split off one node (ARI 0, 17–19 of 20 cannot-links
// violated on seeds 6–8 below). The two-way split now skips such a vector,
// as seed 002's rule (the sign of z₂) does, and agrees with k-means.
func TestCSCTwoWaySkipsNearTrivialVector(t *testing.T) {
	for seed := uint64(1); seed <= 8; seed++ {
		g, truth, err := synth.SBM(200, 2, 12, 2, rand.NewPCG(seed, 1))
		if err != nil {
			t.Fatal(err)
		}
		rnd := rand.New(rand.NewPCG(seed, 2))
		set := &constraint.Set{N: 200}
		for len(set.Pairs) < 20 {
			i, j := rnd.IntN(200), rnd.IntN(200)
			if truth[i] != truth[j] {
				set.Pairs = append(set.Pairs, constraint.Pair{I: i, J: j, Kind: constraint.CannotLink})
			}
		}
		res, err := Run(context.Background(), CSC{}, &Problem{Graph: g, K: 2, Constraints: set}, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		ari, _ := metrics.ARI(truth, res.Labels)
		_, cl := constraint.Violations(set, res.Labels)
		// k-means on two eigenvectors reaches 0.86–0.96 on these graphs.
		if ari < 0.8 || cl > 2 {
			t.Errorf("seed %d: ARI %.3f with %d of 20 cannot-links violated", seed, ari, cl)
		}
	}
}

// TestCSCZeroSignedDegreeMessage: a node whose edges and cannot-links
// cancel in W_cSC (γW_ij = (1−γ)w) has signed degree 0; the error said it
// had "no edge and no constraint", which misleads. It must say they cancel
// (and still wrap graph.ErrIsolated); a truly bare node keeps the old text.
func TestCSCZeroSignedDegreeMessage(t *testing.T) {
	complete := func(n int) *graph.Graph {
		var e []graph.Edge
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				e = append(e, graph.Edge{I: i, J: j, W: 1})
			}
		}
		g, err := graph.FromEdges(n, e)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	allCL := func(n int) *constraint.Set {
		s := &constraint.Set{N: n}
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				s.Pairs = append(s.Pairs, constraint.Pair{I: i, J: j, Kind: constraint.CannotLink})
			}
		}
		return s
	}
	for _, c := range []struct {
		name string
		g    *graph.Graph
		cons *constraint.Set
		want string
	}{
		{"n=2 edge and cannot-link", complete(2), allCL(2), "node 0 has signed degree 0: its edges γW_ij and its constraints ±(1−γ)w cancel (γ = 0.5)"},
		{"complete n=6 all cannot-links", complete(6), allCL(6), "node 0 has signed degree 0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Run(context.Background(), CSC{}, &Problem{Graph: c.g, K: 2, Constraints: c.cons}, nil)
			if !errors.Is(err, graph.ErrIsolated) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one wrapping graph.ErrIsolated mentioning %q", err, c.want)
			}
		})
	}
	bare, err := graph.FromEdges(3, []graph.Edge{{I: 0, J: 1, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := newCSCLaplacian(bare, nil, 0.5); err == nil || !strings.Contains(err.Error(), "node 2 has no edge and no constraint") {
		t.Errorf("bare node: error %v", err)
	}
}
