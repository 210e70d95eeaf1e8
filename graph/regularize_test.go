package graph

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestRegularizedLaplacianDense checks the operators against the matrices
// of their definitions built densely here, entry by entry:
// D_τ = diag(d + τ), W_τ = W (+ τ/n everywhere when complete),
// L_sym,τ = I − D_τ^{-1/2} W_τ D_τ^{-1/2}, L_rw,τ = I − D_τ^{-1} W_τ.
// The graphs include an isolated node (randGraph without self loops, plus
// one extra node), which the unregularized operators refuse.
func TestRegularizedLaplacianDense(t *testing.T) {
	for _, n := range []int{2, 3, 5, 10, 40} {
		g0, _ := randGraph(t, n, 0.3, false, uint64(n)+11)
		// One more node, isolated.
		g, err := FromEdges(n+1, g0.Edges())
		if err != nil {
			t.Fatal(err)
		}
		a := g.Dense()
		m := n + 1
		for _, kind := range []LaplacianKind{Symmetric, RandomWalk} {
			for _, complete := range []bool{false, true} {
				for _, tau := range []float64{0.25, 3} {
					l, err := NewRegularizedLaplacian(g, kind, tau, complete)
					if err != nil {
						t.Fatal(err)
					}
					got := Dense(l)
					d := make([]float64, m)
					wt := mat.NewDense(m, m, nil)
					for i := 0; i < m; i++ {
						for j := 0; j < m; j++ {
							w := a.At(i, j)
							if complete {
								w += tau / float64(m)
							}
							wt.Set(i, j, w)
							d[i] += a.At(i, j)
						}
						d[i] += tau
					}
					for i := 0; i < m; i++ {
						for j := 0; j < m; j++ {
							want := -wt.At(i, j) / d[i]
							if kind == Symmetric {
								want = -wt.At(i, j) / math.Sqrt(d[i]*d[j])
							}
							if i == j {
								want++
							}
							if diff := math.Abs(got.At(i, j) - want); diff > 1e-13 {
								t.Fatalf("n=%d %v τ=%v complete=%v: L[%d,%d] = %v, want %v", m, kind, tau, complete, i, j, got.At(i, j), want)
							}
						}
					}
					if complete && kind == Symmetric {
						// Closed form: W_τ1 = D_τ1, so D_τ^{1/2}1 is a null vector.
						x := mat.NewDense(m, 1, nil)
						for i := range d {
							x.Set(i, 0, math.Sqrt(d[i]))
						}
						y := mat.NewDense(m, 1, nil)
						l.MulTo(y, x)
						if nrm := mat.Norm(y, 2); nrm > 1e-12*math.Sqrt(float64(m)) {
							t.Errorf("n=%d: ‖L_sym,τ D_τ^{1/2}1‖ = %g, want 0", m, nrm)
						}
					}
					if got := l.Degrees(); math.Abs(got[m-1]-tau) > 0 {
						t.Errorf("isolated node's regularized degree %v, want τ = %v", got[m-1], tau)
					}
				}
			}
		}
	}
}

func TestRegularizedLaplacianErrors(t *testing.T) {
	g, _ := connectedGraph(t, 5, 3)
	for _, tc := range []struct {
		name string
		kind LaplacianKind
		tau  float64
	}{
		{"negative", Symmetric, -1},
		{"nan", Symmetric, math.NaN()},
		{"inf", RandomWalk, math.Inf(1)},
		{"unnormalized", Unnormalized, 1},
	} {
		if _, err := NewRegularizedLaplacian(g, tc.kind, tc.tau, false); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: err = %v, want ErrInvalid", tc.name, err)
		}
	}
	// τ = 0 is the plain operator: isolated nodes are still refused.
	iso, err := FromEdges(3, []Edge{{0, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewRegularizedLaplacian(iso, Symmetric, 0, false); !errors.Is(err, ErrIsolated) {
		t.Errorf("τ = 0 with an isolated node: err = %v, want ErrIsolated", err)
	}
}

func TestParseRegularization(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Regularization
		str  string
		bad  bool
	}{
		{in: "auto", want: Regularization{}, str: "auto"},
		{in: "", want: Regularization{}, str: "auto"},
		{in: "none", want: Regularization{Mode: RegNone}, str: "none"},
		{in: "0", want: Regularization{Mode: RegNone}, str: "none"},
		{in: "mean", want: Regularization{Mode: RegOn}, str: "mean"},
		{in: "2.5", want: Regularization{Mode: RegOn, Tau: 2.5}, str: "2.5"},
		{in: "mean+complete", want: Regularization{Mode: RegOn, Complete: true}, str: "mean+complete"},
		{in: "Auto+Complete", want: Regularization{Complete: true}, str: "auto+complete"},
		{in: " MEAN\t", want: Regularization{Mode: RegOn}, str: "mean"},
		{in: ".5", want: Regularization{Mode: RegOn, Tau: 0.5}, str: "0.5"},
		{in: "1E-3+complete", want: Regularization{Mode: RegOn, Tau: 1e-3, Complete: true}, str: "0.001+complete"},
		{in: "+complete", want: Regularization{Complete: true}, str: "auto+complete"},
		{in: "1e-400", want: Regularization{Mode: RegNone}, str: "none"}, // rounds to 0
		{in: "-1", bad: true},
		{in: "-0", bad: true},
		{in: "+2", bad: true},
		{in: "off", bad: true},
		{in: "0x1p-2", bad: true},
		{in: "1_000", bad: true},
		{in: "1e", bad: true},
		{in: ".", bad: true},
		{in: "1e400", bad: true},
		// τ is bounded as -self-loops is, at 10¹² (MaxTau).
		{in: "1e12", want: Regularization{Mode: RegOn, Tau: 1e12}, str: "1e+12"},
		{in: "1e12+complete", want: Regularization{Mode: RegOn, Tau: 1e12, Complete: true}, str: "1e+12+complete"},
		{in: "1000000000000.5", bad: true},
		{in: "1e13", bad: true},
		{in: "1e308+complete", bad: true},
		{in: "none+complete", bad: true},
		{in: "0+complete", bad: true},
		{in: "NaN", bad: true},
		{in: "inf", bad: true},
		{in: "lots", bad: true},
	} {
		got, err := ParseRegularization(tc.in)
		if tc.bad {
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("%q: err = %v, want ErrInvalid", tc.in, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: got %+v, %v; want %+v", tc.in, got, err, tc.want)
			continue
		}
		if s := got.String(); s != tc.str {
			t.Errorf("%q: String() = %q, want %q", tc.in, s, tc.str)
		}
		if err := got.Validate(); err != nil {
			t.Errorf("%q: Validate: %v", tc.in, err)
		}
	}
}

// TestTauBounded: a τ above MaxTau = 10¹² (the bound of -self-loops) is
// refused by ParseRegularization and Validate with an error naming the
// value and the bound; τ = 10¹² itself passes. A τ of 10³⁰⁸ with
// +complete gave an eigensolver's Deflate error, one of 10³⁰⁰ meaningless
// labels (review of tether serve).
func TestTauBounded(t *testing.T) {
	for _, tc := range []struct {
		in      string
		tau     float64
		message string // in the error; "" for none
	}{
		{"1e12", 1e12, ""},
		{"1e300", 1e300, "τ = 1e+300 is above the largest τ, 1e+12"},
		{"1e308+complete", 1e308, "τ = 1e+308 is above the largest τ, 1e+12"},
		{"1000000000001", 1000000000001, "τ = 1.000000000001e+12 is above the largest τ, 1e+12"},
	} {
		_, err := ParseRegularization(tc.in)
		r := Regularization{Mode: RegOn, Tau: tc.tau}
		verr := r.Validate()
		if tc.message == "" {
			if err != nil || verr != nil {
				t.Errorf("%q: Parse: %v, Validate: %v; want neither", tc.in, err, verr)
			}
			continue
		}
		for what, e := range map[string]error{"ParseRegularization": err, "Validate": verr} {
			if !errors.Is(e, ErrInvalid) || !strings.Contains(e.Error(), tc.message) {
				t.Errorf("%q: %s: %v; want ErrInvalid saying %q", tc.in, what, e, tc.message)
			}
		}
	}
}

// TestTauFor checks the auto rule on graphs whose statistics are known in
// closed form: a cycle (all degrees 2, CV 0), a star on 20 nodes (degrees
// 19 and nineteen 1s, CV computed below by hand), two disjoint edges (2
// components of 2 nodes) and the cycle plus a disjoint edge (a component of
// 2 nodes among 22: below n/(4k) = 2.75 for k = 2).
func TestTauFor(t *testing.T) {
	var cycle, star []Edge
	for i := 0; i < 20; i++ {
		cycle = append(cycle, Edge{i, (i + 1) % 20, 1})
		if i > 0 {
			star = append(star, Edge{0, i, 1})
		}
	}
	gc, _ := FromEdges(20, cycle)
	gs, _ := FromEdges(20, star)
	gd, _ := FromEdges(4, []Edge{{0, 1, 1}, {2, 3, 1}})
	gt, _ := FromEdges(22, append(cycle, Edge{20, 21, 1}))
	// A triangle plus an isolated node: one component of 1 node, not
	// below n/(4k) = 0.5 for k = 2, but L_sym is undefined there.
	gi, _ := FromEdges(4, []Edge{{0, 1, 1}, {1, 2, 1}, {0, 2, 1}})
	// One node: isolated without a self loop (L_sym undefined, like any
	// isolated node), not with one.
	g1, _ := FromEdges(1, nil)
	g1l, _ := FromEdges(1, []Edge{{0, 0, 2}})
	// Star: mean = 38/20 = 1.9; variance = (17.1² + 19·0.9²)/20 = 15.39.
	wantCV := math.Sqrt(15.39) / 1.9
	if cv := DegreeCV(gs); math.Abs(cv-wantCV) > 1e-12 {
		t.Errorf("star CV = %v, want %v", cv, wantCV)
	}
	// The same star with weights 10³⁰⁶: the plain sums of squares overflow
	// (the CV printed +Inf), the coefficient of variation is unchanged.
	var heavy []Edge
	for _, e := range star {
		heavy = append(heavy, Edge{e.I, e.J, 1e306})
	}
	gh, err := FromEdges(20, heavy)
	if err != nil {
		t.Fatal(err)
	}
	if plain := degreeCV(gh); !math.IsInf(plain, 0) && !math.IsNaN(plain) {
		t.Errorf("the plain sums do not overflow (%v): the case is not reached", plain)
	}
	if cv := DegreeCV(gh); math.Abs(cv-wantCV) > 1e-12 {
		t.Errorf("star CV with weights 1e306 = %v, want %v", cv, wantCV)
	}
	for _, tc := range []struct {
		name string
		g    *Graph
		k    int
		r    Regularization
		want float64
	}{
		{"cycle auto", gc, 2, Regularization{}, 0},
		{"star auto", gs, 2, Regularization{}, 1.9},
		{"disjoint auto k=1", gd, 1, Regularization{}, 1},
		{"disjoint auto k=2", gd, 2, Regularization{}, 0},
		{"disjoint auto k=0", gd, 0, Regularization{}, 1},
		{"cycle+edge auto k=2", gt, 2, Regularization{}, 42.0 / 22},
		{"cycle+edge auto k=1", gt, 1, Regularization{}, 42.0 / 22},
		{"cycle+edge none", gt, 2, Regularization{Mode: RegNone}, 0},
		{"triangle+isolated auto k=2", gi, 2, Regularization{}, 1.5},
		{"one isolated node auto k=1", g1, 1, Regularization{}, 1},
		{"one node with a loop auto k=1", g1l, 1, Regularization{}, 0},
		{"cycle on", gc, 2, Regularization{Mode: RegOn}, 2},
		{"cycle on τ", gc, 2, Regularization{Mode: RegOn, Tau: 0.5}, 0.5},
		{"star none", gs, 2, Regularization{Mode: RegNone}, 0},
	} {
		if got := tc.r.TauFor(tc.g, tc.k); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: τ = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestBetheRNonBacktracking checks r = √(Σd²/Σd − 1) on graphs with closed
// forms: a d-regular graph gives √(d − 1) (the non-backtracking matrix of
// a d-regular graph has spectral radius d − 1 exactly), the star K_{1,m}
// gives √((m − 1)/2) (Σd² = m² + m, Σd = 2m), and graphs whose estimate
// does not exceed the largest weight fall back to 1.01 times it.
func TestBetheRNonBacktracking(t *testing.T) {
	var cycle, k5, star []Edge
	for i := 0; i < 12; i++ {
		cycle = append(cycle, Edge{i, (i + 1) % 12, 1})
	}
	for i := 0; i < 5; i++ {
		for j := i + 1; j < 5; j++ {
			k5 = append(k5, Edge{i, j, 1})
		}
	}
	for i := 1; i <= 9; i++ {
		star = append(star, Edge{0, i, 1})
	}
	gc, _ := FromEdges(12, cycle)
	gk, _ := FromEdges(5, k5)
	gs, _ := FromEdges(10, star)
	gm, _ := FromEdges(4, []Edge{{0, 1, 1}, {2, 3, 1}})
	empty, _ := FromEdges(3, nil)
	for _, tc := range []struct {
		name string
		g    *Graph
		want float64
	}{
		{"cycle (2-regular: ρ = 1, at the weight)", gc, 1.01},
		{"K5 (4-regular)", gk, math.Sqrt(3)},
		{"star K_{1,9}", gs, 2},
		{"matching", gm, 1.01},
		{"empty", empty, 1},
	} {
		if got := BetheRNonBacktracking(tc.g); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: r = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestNeedsRegularizationReasons: the reason NeedsRegularization gives
// counts its nodes, components and clusters in the singular for one ("1
// isolated nodes" was printed by tether cluster; review 86). The graphs
// are written out so that each reason is the first that applies.
func TestNeedsRegularizationReasons(t *testing.T) {
	edges := func(pairs ...[2]int) []Edge {
		var out []Edge
		for _, p := range pairs {
			out = append(out, Edge{I: p[0], J: p[1], W: 1})
		}
		return out
	}
	for _, c := range []struct {
		name string
		n, k int
		e    []Edge
		want string
	}{
		{"one isolated node", 4, 2, edges([2]int{0, 1}, [2]int{1, 2}), "1 isolated node (the plain L_sym is undefined)"},
		{"two isolated nodes", 4, 2, edges([2]int{0, 1}), "2 isolated nodes (the plain L_sym is undefined)"},
		{"two components for one cluster", 4, 1, edges([2]int{0, 1}, [2]int{2, 3}), "2 connected components for 1 cluster"},
		{"three components for two clusters", 6, 2, edges([2]int{0, 1}, [2]int{2, 3}, [2]int{4, 5}), "3 connected components for 2 clusters"},
		// A node whose only edge is its self loop is a component of one
		// node that is not isolated: 1 < n/(4k) = 12/8.
		{"component of one node", 12, 2, edges([2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}, [2]int{3, 4}, [2]int{4, 5}, [2]int{5, 6}, [2]int{6, 7}, [2]int{7, 8}, [2]int{8, 9}, [2]int{9, 10}, [2]int{11, 11}),
			"a connected component of 1 node, below n/(4k) = 1.5"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := FromEdges(c.n, c.e)
			if err != nil {
				t.Fatal(err)
			}
			if ok, why := NeedsRegularization(g, c.k); !ok || why != c.want {
				t.Errorf("NeedsRegularization = %v, %q; want true, %q", ok, why, c.want)
			}
		})
	}
}
