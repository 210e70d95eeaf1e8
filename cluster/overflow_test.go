package cluster

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/kmeans"
	"github.com/tether-sc/tether/metrics"
)

// Finite, valid inputs whose weights are near 1e±300 overflow inside the
// methods; each such failure must wrap ErrNumerical (the CLI and the
// server report it as a numerical failure, not as the caller's error or an
// unclassified internal one) and name the method and what overflowed.
// Every case failed before with a clear message that wrapped neither
// ErrNumerical nor ErrInvalid (or, for csp's underflow and fast-ge2's
// scale, with ErrInvalid and the wrong advice). The methods are called
// directly: Run scales the weights of the methods that do not depend on
// their scale (rescaled), and some of these graphs then cluster
// (TestRunRescalesExtremeWeights).
func TestOverflowWrapsErrNumerical(t *testing.T) {
	// The graphs: 4-cycles with weights 1e300 and 1e-300 mixed (heavy), all
	// 1e-300 (tiny). Graphs whose degrees overflow to +Inf (two
	// 1.7e308/1e308 triangles) reached bethe ("r = +Inf from the
	// degrees"), sscka ("the degree of node 0 overflows") and csp ("the
	// volume Σd_i overflowed"); graph.FromEdges now refuses them
	// (TestGraphRefusesOverflowingDegrees).
	heavy := []graph.Edge{{I: 0, J: 1, W: 1e300}, {I: 1, J: 2, W: 1}, {I: 2, J: 3, W: 1e-300}, {I: 0, J: 3, W: 1}}
	tiny := []graph.Edge{{I: 0, J: 1, W: 1e-300}, {I: 1, J: 2, W: 1e-300}, {I: 2, J: 3, W: 1e-300}, {I: 0, J: 3, W: 1e-300}}
	// Two triangles of weight w joined by a unit edge.
	triangles := func(w float64) []graph.Edge {
		return []graph.Edge{{I: 0, J: 1, W: w}, {I: 1, J: 2, W: w}, {I: 0, J: 2, W: w}, {I: 3, J: 4, W: w}, {I: 4, J: 5, W: w}, {I: 3, J: 5, W: w}, {I: 2, J: 3, W: 1}}
	}
	mixed := []graph.Edge{{I: 0, J: 1, W: 1e300}, {I: 1, J: 2, W: 1e-300}, {I: 0, J: 2, W: 1e300}, {I: 3, J: 4, W: 1e-300}, {I: 4, J: 5, W: 1e300}, {I: 3, J: 5, W: 1}, {I: 2, J: 3, W: 1}}
	for _, tc := range []struct {
		name   string
		method Method
		edges  []graph.Edge
		w      float64 // weight of the two constraints (0: 1)
		want   string  // what overflowed, in the message
	}{
		{"bethe H(r)", BetheHessian{}, heavy, 0, "bethe: H(r) = (r²−1)I − rA + D"},
		{"sscka kernel", SSCKA{Objective: RatioAssociation}, heavy, 1e300, "sscka: smallest eigenvalue of the kernel"},
		{"sscka shift", SSCKA{Objective: RatioAssociation}, mixed, 0, "sscka: the kernel's diagonal shift at node 0 is +Inf"},
		// The kernel is finite and its shift too, but the kernel k-means
		// objective overflows (kmeans.ErrNonFinite); sscka returned the
		// partition with Objective −Inf as a success.
		{"sscka kernel k-means", SSCKA{Objective: RatioAssociation}, triangles(1e307), 0, "sscka: kernel k-means: kmeans: non-finite distortion"},
		{"sscka ncut kernel k-means", SSCKA{Objective: NormalizedCut}, triangles(1e150), 1e150, "sscka: kernel k-means: kmeans: non-finite distortion"},
		{"csp α", CSP{}, heavy, 1e300, "csp: α = AlphaFraction·λ_max(Q̄)·vol"},
		{"csp Q̄ underflow", CSP{}, heavy, 1e-300, "csp: λ_max(Q̄) = 0 for 2 pairs"},
		{"cscap Woodbury", CSCAP{}, heavy, 0, "cscap: solving I + UᵀWU"},
		// cscap on the tiny 4-cycle failed here ("normalized cut of the
		// propagated affinity") until graph.SqrtProduct kept √(d_i d_j)
		// from underflowing: it now clusters it as at weight 1.
		{"fast-ge2 pair", FastGE2{}, heavy, 1e300, "fast-ge2: pair 1 (0,1): its weight"},
		{"fast-ge2 scale", FastGE2{}, tiny, 0, "fast-ge2: the constraint scale 1/(d_min d_max)"},
		{"fast-ge2-bh operator", FastGE2BH{}, heavy, 0, "cluster: fast-ge2-bh: numerical failure: eigensolver"},
		{"fast-ge2-bh pair", FastGE2BH{}, heavy, 1e300, "fast-ge2-bh: pair 1 (0,1): its weight"},
		// Constraint weights of 1e308 overflow CCSR's iterate of M, whose
		// projection onto the PSD cone then cannot be decomposed: ccsr
		// panicked ("symmetric eigendecomposition failed"; review 92,
		// tether serve answering 500 "internal error").
		{"ccsr projection", CCSR{}, triangles(1), 1e308, "ccsr: the eigendecomposition of a 5×5 iterate of M failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			for _, e := range tc.edges {
				n = max(n, e.I+1, e.J+1)
			}
			g, err := graph.FromEdges(n, tc.edges)
			if err != nil {
				t.Fatal(err)
			}
			p := &Problem{Graph: g, K: 2}
			if tc.method.Uses().Supervision&Pairs != 0 {
				p.Constraints = &constraint.Set{N: n, Pairs: []constraint.Pair{
					{I: 0, J: n - 1, Kind: constraint.CannotLink, Weight: tc.w},
					{I: 0, J: 1, Kind: constraint.MustLink, Weight: tc.w},
				}}
				if tc.name == "fast-ge2-bh operator" {
					// A second cannot-link (1, n−2): fast-ge2-bh needs
					// k + 1 nodes with a cannot-link (FastGE2) to reach
					// the eigensolver, where the operator overflows.
					p.Constraints.Pairs = append(p.Constraints.Pairs, constraint.Pair{I: 1, J: n - 2, Kind: constraint.CannotLink, Weight: tc.w})
				}
			}
			_, err = tc.method.Partition(context.Background(), p, &Settings{Seed: 1})
			if !errors.Is(err, ErrNumerical) || errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v, want one wrapping ErrNumerical (and not ErrInvalid)", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to say %q", err, tc.want)
			}
		})
	}
}

// Run scales by a power of two the weights of a method whose partition
// does not depend on their scale (Uses.WeightScale empty) when the largest
// is outside [2⁻⁶⁰, 2⁶⁰] (rescaled): sscka and csp, which fail on these
// graphs when called directly (TestOverflowWrapsErrNumerical), then find
// the two triangles, with a note. (Degrees that overflow, 1.7e308
// triangles, no longer reach Run: graph.FromEdges refuses them,
// TestGraphRefusesOverflowingDegrees.) Weights spanning more than float64's normal
// range (1e300 beside 1e-300) are left as they are, and the method's
// own error stands; so are those of a method that declares WeightScale.
func TestRunRescalesExtremeWeights(t *testing.T) {
	triangles := func(w float64) []graph.Edge {
		return []graph.Edge{{I: 0, J: 1, W: w}, {I: 1, J: 2, W: w}, {I: 0, J: 2, W: w}, {I: 3, J: 4, W: w}, {I: 4, J: 5, W: w}, {I: 3, J: 5, W: w}, {I: 2, J: 3, W: w * 1e-3}}
	}
	mixed := []graph.Edge{{I: 0, J: 1, W: 1e300}, {I: 1, J: 2, W: 1e-300}, {I: 0, J: 2, W: 1e300}, {I: 3, J: 4, W: 1e-300}, {I: 4, J: 5, W: 1e300}, {I: 3, J: 5, W: 1}, {I: 2, J: 3, W: 1}}
	for _, tc := range []struct {
		name   string
		method Method
		edges  []graph.Edge
		note   string // "": fails with ErrNumerical
	}{
		{"sscka 1e307", SSCKA{Objective: RatioAssociation}, triangles(1e307), "multiplied by 2^-1020"},
		{"sscka ncut 1e150", SSCKA{Objective: NormalizedCut}, triangles(1e150), "multiplied by 2^-499"},
		{"sscka ncut 1e-200", SSCKA{Objective: NormalizedCut}, triangles(1e-200), "multiplied by 2^664"},
		{"sscka range too wide", SSCKA{Objective: RatioAssociation}, mixed, ""},
		{"bethe declares WeightScale", BetheHessian{}, triangles(1e300), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := graph.FromEdges(6, tc.edges)
			if err != nil {
				t.Fatal(err)
			}
			p := &Problem{Graph: g, K: 2}
			if tc.method.Uses().Supervision&Pairs != 0 {
				p.Constraints = &constraint.Set{N: 6, Pairs: []constraint.Pair{{I: 0, J: 5, Kind: constraint.CannotLink}, {I: 0, J: 1, Kind: constraint.MustLink}}}
			}
			res, err := Run(context.Background(), tc.method, p, &Settings{Seed: 1})
			if tc.note == "" {
				if !errors.Is(err, ErrNumerical) {
					t.Fatalf("error %v, want one wrapping ErrNumerical", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			l := res.Labels
			if l[0] != l[1] || l[1] != l[2] || l[3] != l[4] || l[4] != l[5] || l[0] == l[3] {
				t.Errorf("labels %v, want the two triangles", l)
			}
			if notes := strings.Join(res.Notes, "\n"); !strings.Contains(notes, tc.method.Name()+": the edge weights (largest ") || !strings.Contains(notes, tc.note) {
				t.Errorf("notes %q lack %q", res.Notes, tc.note)
			}
		})
	}
}

// Finite feature rows whose covariance overflows (two groups at 0 and
// −1e300) are a numerical failure of cpca and clpp, which say so; they
// reported "every feature is constant" (ErrInvalid), the wrong diagnosis,
// because the overflowed covariance has NaN eigenvalues.
func TestFeatureCovarianceOverflowIsNumerical(t *testing.T) {
	g, err := graph.FromEdges(8, pathEdges(8))
	if err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(8, 2, nil)
	for i := 0; i < 8; i++ {
		x.Set(i, 0, -1e300*float64(i/4))
		x.Set(i, 1, 0.1*float64(i%3))
	}
	cons := &constraint.Set{N: 8, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}, {I: 0, J: 7, Kind: constraint.CannotLink}}}
	for _, m := range []Method{CPCA{}, CLPP{}} {
		t.Run(m.Name(), func(t *testing.T) {
			_, err := Run(context.Background(), m, &Problem{Graph: g, K: 2, Features: x, Constraints: cons}, &Settings{Seed: 1})
			if !errors.Is(err, ErrNumerical) || errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v, want one wrapping ErrNumerical (and not ErrInvalid)", err)
			}
			if want := m.Name() + ": the covariance of the feature rows overflows"; !strings.Contains(err.Error(), want) {
				t.Errorf("error %q, want it to say %q", err, want)
			}
		})
	}
}

// runKMeans reports k-means rows whose distortion overflows
// (kmeans.ErrNonFinite) as ErrNumerical, as it does non-finite rows.
func TestRunKMeansOverflowIsNumerical(t *testing.T) {
	x := mat.NewDense(4, 1, []float64{-1e200, 1e200, 1.5e200, -1.5e200})
	res, err := runKMeans(context.Background(), x, 2, &Settings{Seed: 1}, 2, nil)
	if !errors.Is(err, ErrNumerical) || !errors.Is(err, kmeans.ErrNonFinite) {
		if res != nil {
			t.Fatalf("distortion %v, labels %v, error %v; want ErrNumerical", res.Distortion, res.Labels, err)
		}
		t.Fatalf("error %v, want one wrapping ErrNumerical and kmeans.ErrNonFinite", err)
	}
}

// TestScaleInvariantAtExtremes: NJW and CSCAP give the same partition when
// every weight is multiplied by 1e-200 or 1e200 (L_sym is invariant under
// W → cW; graph.SqrtProduct keeps √(d_i d_j) in range). Before, NJW's
// L_sym became the identity at 1e200 (Ncut 0.98 instead of 0.03, no
// warning), failed at 1e-200, and CSCAP failed on weights near 1e-300.
func TestScaleInvariantAtExtremes(t *testing.T) {
	base := bridgedCliques(t, 6, 0.05).Edges()
	cons := &constraint.Set{N: 12, Pairs: []constraint.Pair{{I: 1, J: 2, Kind: constraint.MustLink}, {I: 1, J: 8, Kind: constraint.CannotLink}}}
	for _, m := range []Method{NJW{}, CSCAP{}} {
		var want []int
		for _, c := range []float64{1, 1e200, 1e-200, 1e-300} {
			edges := make([]graph.Edge, len(base))
			for k, e := range base {
				edges[k] = graph.Edge{I: e.I, J: e.J, W: c * e.W}
			}
			g, err := graph.FromEdges(12, edges)
			if err != nil {
				t.Fatal(err)
			}
			p := &Problem{Graph: g, K: 2}
			if m.Uses().Supervision&Pairs != 0 {
				p.Constraints = cons
			}
			res, err := Run(context.Background(), m, p, &Settings{Seed: 1})
			if err != nil {
				t.Fatalf("%s, weights × %g: %v", m.Name(), c, err)
			}
			if want == nil {
				want = res.Labels
			} else if !samePartition(res.Labels, want) {
				t.Errorf("%s, weights × %g: %v, at weight 1 %v", m.Name(), c, res.Labels, want)
			}
		}
	}
}

// A τ of Problem.Regularize given as a number is on the weights' scale,
// so Run scales it with the graph (rescaled): NJW on the graph times
// 2⁻⁶¹ with τ = 10·2⁻⁵⁹, which Run scales by 2⁶⁰ together, gives the
// partition of the graph at scale 1 with τ = 40, the same problem times
// 2⁶¹; with τ left as given it gave that of a graph barely regularized.
func TestRunRescalesRegularizationTau(t *testing.T) {
	g, _, err := synth.SBM(300, 2, 9, 3, rand.NewPCG(3, 3))
	if err != nil {
		t.Fatal(err)
	}
	run := func(g *graph.Graph, tau float64) []int {
		t.Helper()
		res, err := Run(context.Background(), NJW{}, &Problem{Graph: g, K: 2, Regularize: graph.Regularization{Mode: graph.RegOn, Tau: tau}}, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		return res.Labels
	}
	want := run(g, 40)
	got := run(g.ScaledPow2(-61), 10*0x1p-59)
	if ari, _ := metrics.ARI(want, got); ari != 1 {
		t.Errorf("ARI %v against the partition at scale 1 with τ = 40, want 1", ari)
	}
	if ari, _ := metrics.ARI(want, run(g, 1e-12)); ari == 1 {
		t.Error("τ = 40 and τ ≈ 0 give the same partition: the test cannot tell whether τ was scaled")
	}
}

// Finite weights whose degrees or volume overflow float64 (two triangles
// of 1.7e308 and 1e308; one edge of 1e308, whose two degrees sum beyond
// the range) are refused when the graph is built, with an error wrapping
// graph.ErrInvalid that names the node and says the weights are too
// large: Run, which scaled the weights of scale-invariant methods
// (rescaled) and let the others fail on +Inf degrees, never sees them
// (review 130: L_sym became the identity, a Cholesky factor all NaN).
func TestGraphRefusesOverflowingDegrees(t *testing.T) {
	huge := []graph.Edge{{I: 0, J: 1, W: 1.7e308}, {I: 1, J: 2, W: 1.7e308}, {I: 0, J: 2, W: 1e308}, {I: 3, J: 4, W: 1e308}, {I: 4, J: 5, W: 1e308}, {I: 3, J: 5, W: 1e308}, {I: 2, J: 3, W: 1e300}}
	for _, tc := range []struct {
		name  string
		n     int
		edges []graph.Edge
		want  string
	}{
		{"degree", 6, huge, "the weights of node 0 sum beyond float64's range"},
		{"volume", 2, []graph.Edge{{I: 0, J: 1, W: 1e308}}, "the degrees sum beyond float64's range"},
	} {
		_, err := graph.FromEdges(tc.n, tc.edges)
		if !errors.Is(err, graph.ErrInvalid) {
			t.Fatalf("%s: error %v, want one wrapping graph.ErrInvalid", tc.name, err)
		}
		for _, want := range []string{tc.want, "the weights are too large", "normalize them"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %q lacks %q", tc.name, err, want)
			}
		}
	}
}
