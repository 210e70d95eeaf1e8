package graph

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSqrtProduct: √(a·b) as written wherever a·b is a normal float64 (the
// same bits as the plain expression), and √a·√b, finite and positive,
// where the product would overflow or underflow.
func TestSqrtProduct(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		a, b := math.Exp(rnd.Float64()*300-150), math.Exp(rnd.Float64()*300-150)
		if got, want := SqrtProduct(a, b), math.Sqrt(a*b); got != want {
			t.Fatalf("SqrtProduct(%v, %v) = %v, want %v bit for bit", a, b, got, want)
		}
	}
	for _, c := range []struct{ a, b, want float64 }{
		{1e200, 1e200, 1e200},
		{1e300, 4e300, 2e300},
		{1e-200, 1e-200, 1e-200},
		{1e-300, 4e-300, 2e-300},
		{1e-170, 1e170, 1},
	} {
		got := SqrtProduct(c.a, c.b)
		if math.Abs(got-c.want) > 1e-14*c.want {
			t.Errorf("SqrtProduct(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestLaplacianScaleInvariant: L_sym and its regularized form are
// invariant under W → cW (the regularized τ scaled with W), and are
// computed so from c = 1e-200 to 1e200. Before, √(d_i d_j) overflowed at
// 1e200 (every entry 0: L_sym = I, a wrong embedding without a warning)
// and underflowed at 1e-200 (non-finite entries).
func TestLaplacianScaleInvariant(t *testing.T) {
	const n = 60
	var edges []Edge
	rnd := rand.New(rand.NewPCG(3, 4))
	for i := range n {
		edges = append(edges, Edge{I: i, J: (i + 1) % n, W: 1 + rnd.Float64()})
		edges = append(edges, Edge{I: i, J: (i + 7) % n, W: rnd.Float64()})
	}
	x := mat.NewDense(n, 2, nil)
	for i := range n {
		x.Set(i, 0, rnd.NormFloat64())
		x.Set(i, 1, rnd.NormFloat64())
	}
	apply := func(c float64, regularized bool) *mat.Dense {
		scaled := make([]Edge, len(edges))
		for k, e := range edges {
			scaled[k] = Edge{I: e.I, J: e.J, W: c * e.W}
		}
		g, err := FromEdges(n, scaled)
		if err != nil {
			t.Fatalf("c = %g: %v", c, err)
		}
		var l *Laplacian
		if regularized {
			l, err = NewRegularizedLaplacian(g, Symmetric, 0.5*c, false)
		} else {
			l, err = NewLaplacian(g, Symmetric)
		}
		if err != nil {
			t.Fatalf("c = %g: %v", c, err)
		}
		y := mat.NewDense(n, 2, nil)
		l.MulTo(y, x)
		return y
	}
	for _, reg := range []bool{false, true} {
		want := apply(1, reg)
		for _, c := range []float64{1e200, 1e-200, 1e300, 1e-300} {
			if got := apply(c, reg); !mat.EqualApprox(got, want, 1e-12) {
				t.Errorf("regularized %v, c = %g: L·x differs from c = 1's", reg, c)
			}
		}
	}
}

// scaleData returns n random points in d dimensions (standard normal, in
// three shifted groups so that the neighbourhoods are not all alike),
// multiplied by s.
func scaleData(n, d int, s float64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(52, uint64(d)))
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for c := range d {
			x.Set(i, c, (rnd.NormFloat64()+float64(3*(i%3)))*s)
		}
	}
	return x
}

// TestFeatureScale: every entry point of the package that computes
// squared distances from features (KNN, ApproxKNN, SampleRecall and Build
// with every kind, search and σ rule) refuses features of scale 1e-170,
// whose squared distances underflow (ErrInvalid, naming the value and
// advising to scale the features), and at scale 1e-100 gives the graph of
// scale 1 up to the scale: the same neighbours and, with σ and ε scaled
// alike, RBF weights equal within 1e-12. Before, KNN at 1e-170 returned
// the neighbours in index order with distances 0, Full RBF graphs had every
// weight 1, and local scaling claimed duplicates; ApproxKNN at 1e-100
// ranked by float32 coordinates that had all rounded to 0.
func TestFeatureScale(t *testing.T) {
	ctx := context.Background()
	const wTol = 1e-12 // on weights in [0, 1]
	type out struct {
		nb *Neighbors
		g  *Graph
		r  float64 // SampleRecall
	}
	build := func(s Spec) func(x *mat.Dense, sc float64) (out, error) {
		return func(x *mat.Dense, sc float64) (out, error) {
			s := s
			s.Eps *= sc
			if s.Sigma.Rule == SigmaFixed && s.Affinity == RBF {
				s.Sigma.Value *= sc
			}
			g, nb, err := BuildNeighbors(ctx, x, s, nil)
			return out{nb: nb, g: g}, err
		}
	}
	fixed := Sigma{Rule: SigmaFixed, Value: 1.5}
	cases := []struct {
		name string
		n, d int
		run  func(x *mat.Dense, sc float64) (out, error)
	}{
		{"KNN kd-tree", 300, 2, func(x *mat.Dense, _ float64) (out, error) {
			nb, err := KNN(ctx, x, 7)
			return out{nb: nb}, err
		}},
		{"KNN brute force", 150, 20, func(x *mat.Dense, _ float64) (out, error) {
			nb, err := KNN(ctx, x, 7)
			return out{nb: nb}, err
		}},
		{"ApproxKNN", 3000, 2, func(x *mat.Dense, _ float64) (out, error) {
			nb, err := ApproxKNN(ctx, x, 10, &ApproxOptions{Seed: 1})
			return out{nb: nb}, err
		}},
		{"SampleRecall", 300, 2, func(x *mat.Dense, _ float64) (out, error) {
			nb := &Neighbors{K: 2, Index: make([]int32, 600), Dist2: make([]float64, 600)}
			for i := range 300 {
				nb.Index[2*i], nb.Index[2*i+1] = int32((i+1)%300), int32((i+2)%300)
			}
			r, _, err := SampleRecall(ctx, x, nb, 50, 3)
			return out{r: r}, err
		}},
		{"Build symmetric binary", 300, 2, build(Spec{Kind: SymmetricKNN, K: 5, Affinity: Binary})},
		{"Build symmetric local", 300, 2, build(Spec{Kind: SymmetricKNN, K: 5})},
		{"Build symmetric approx local", 300, 2, build(Spec{Kind: SymmetricKNN, K: 5, Search: SearchApprox, Seed: 4})},
		{"Build mutual median", 300, 2, build(Spec{Kind: MutualKNN, K: 6, Sigma: Sigma{Rule: SigmaMedian}})},
		{"Build sklearn fixed", 300, 2, build(Spec{Kind: SklearnKNN, K: 6, Sigma: fixed})},
		{"Build symmetric 20-D mean-variance", 150, 20, build(Spec{Kind: SymmetricKNN, K: 6, Sigma: Sigma{Rule: SigmaMeanVariance}})},
		{"Build full fixed", 120, 2, build(Spec{Kind: Full, Sigma: fixed})},
		{"Build full local", 120, 2, build(Spec{Kind: Full, Sigma: Sigma{Rule: SigmaLocal, K: 4}})},
		{"Build full median", 120, 2, build(Spec{Kind: Full, Sigma: Sigma{Rule: SigmaMedian}})},
		{"Build full mean-variance", 120, 2, build(Spec{Kind: Full, Sigma: Sigma{Rule: SigmaMeanVariance}})},
		{"Build full 20-D fixed", 120, 20, build(Spec{Kind: Full, Sigma: Sigma{Rule: SigmaFixed, Value: 6}})},
		{"Build full binary", 120, 2, build(Spec{Kind: Full, Affinity: Binary})},
		{"Build eps fixed", 200, 2, build(Spec{Kind: Epsilon, Eps: 0.8, Sigma: fixed})},
		{"Build eps local", 200, 2, build(Spec{Kind: Epsilon, Eps: 0.8, Sigma: Sigma{Rule: SigmaLocal, K: 3}})},
		{"Build eps 20-D median", 120, 20, build(Spec{Kind: Epsilon, Eps: 6, Sigma: Sigma{Rule: SigmaMedian}})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, err := c.run(scaleData(c.n, c.d, 1), 1)
			if err != nil {
				t.Fatalf("scale 1: %v", err)
			}
			_, err = c.run(scaleData(c.n, c.d, 1e-170), 1e-170)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "scale the features") || !strings.Contains(err.Error(), "underflow") {
				t.Errorf("scale 1e-170: error %v, want ErrInvalid saying the squared distances underflow and to scale the features", err)
			}
			const sc = 1e-100
			got, err := c.run(scaleData(c.n, c.d, sc), sc)
			if err != nil {
				t.Fatalf("scale %g: %v", sc, err)
			}
			if got.r != want.r {
				t.Errorf("scale %g: recall %v, want %v", sc, got.r, want.r)
			}
			if (got.nb == nil) != (want.nb == nil) {
				t.Fatalf("scale %g: neighbour lists %v, want %v", sc, got.nb != nil, want.nb != nil)
			}
			if want.nb != nil && !slices.Equal(got.nb.Index, want.nb.Index) {
				t.Errorf("scale %g: the neighbours differ from scale 1's", sc)
			}
			if want.g == nil {
				return
			}
			if got.g.N() != want.g.N() {
				t.Fatalf("scale %g: %d nodes, want %d", sc, got.g.N(), want.g.N())
			}
			for i := range want.g.N() {
				gi, gw := got.g.Row(i)
				wi, ww := want.g.Row(i)
				if !slices.Equal(gi, wi) {
					t.Fatalf("scale %g: row %d has neighbours %v, want %v", sc, i, gi, wi)
				}
				for k := range gw {
					if math.Abs(gw[k]-ww[k]) > wTol {
						t.Fatalf("scale %g: weight (%d,%d) = %v, want %v within %g", sc, i, gi[k], gw[k], ww[k], wTol)
					}
				}
			}
		})
	}
}

// TestFeatureScaleIdentical: identical points are accepted at any scale
// (their squared distances are exactly 0), and the tiny-scale check does
// not refuse features of 2⁻⁴⁵⁹, the documented bound.
func TestFeatureScaleIdentical(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name    string
		rows    [][]float64
		wantErr bool
	}{
		{"identical at 1e-170", [][]float64{{1e-170, -2e-170}, {1e-170, -2e-170}, {1e-170, -2e-170}}, false},
		{"all zero", [][]float64{{0, 0}, {0, 0}, {0, 0}}, false},
		{"at the bound", [][]float64{{0x1p-459, 0}, {0, 0x1p-460}, {0, 0}}, false},
		{"just below the bound", [][]float64{{0x1p-460, 0}, {0, 0x1p-460}, {0, 0}}, true},
		{"subnormal", [][]float64{{5e-324, 0}, {0, 0}, {0, 0}}, true},
	} {
		x := mat.NewDense(len(c.rows), 2, nil)
		for i, r := range c.rows {
			x.SetRow(i, r)
		}
		_, err := KNN(ctx, x, 1)
		if (err != nil) != c.wantErr || (err != nil && !errors.Is(err, ErrInvalid)) {
			t.Errorf("%s: KNN error %v, want error %v (ErrInvalid)", c.name, err, c.wantErr)
		}
	}
}

// TestZeroDistanceMessage: when every candidate distance is 0 although the
// points are distinct (a feature of 1e-200 beside one of scale 1: the
// squared differences underflow), the local-scaling and median errors say
// that squared distances underflow, not that the points are duplicates;
// with real duplicates they still say so.
func TestZeroDistanceMessage(t *testing.T) {
	ctx := context.Background()
	tiny := mat.NewDense(6, 2, []float64{0, 0, 0, 1e-200, 0, 2e-200, 1, 0, 1, 1e-200, 1, 2e-200})
	dup := mat.NewDense(6, 2, []float64{0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0})
	for _, c := range []struct {
		name string
		x    *mat.Dense
		s    Spec
		want string
	}{
		{"local, distinct", tiny, Spec{Kind: SymmetricKNN, K: 2, Sigma: Sigma{Rule: SigmaLocal, K: 2}}, "underflow to 0"},
		{"local, full, distinct", tiny, Spec{Kind: Full, Sigma: Sigma{Rule: SigmaLocal, K: 2}}, "underflow to 0"},
		{"median, distinct", tiny, Spec{Kind: SymmetricKNN, K: 2, Sigma: Sigma{Rule: SigmaMedian}}, "underflow to 0"},
		{"median, eps, distinct", tiny, Spec{Kind: Epsilon, Eps: 0.5, Sigma: Sigma{Rule: SigmaMedian}}, "underflow to 0"},
		{"local, duplicates", dup, Spec{Kind: SymmetricKNN, K: 2, Sigma: Sigma{Rule: SigmaLocal, K: 2}}, "at least 2 duplicates"},
		{"median, duplicates", dup, Spec{Kind: SymmetricKNN, K: 2, Sigma: Sigma{Rule: SigmaMedian}}, "(identical points)"},
	} {
		_, err := Build(ctx, c.x, c.s)
		if !errors.Is(err, ErrDegenerateScale) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want ErrDegenerateScale saying %q", c.name, err, c.want)
		}
	}
}

// TestMeanVarianceSigmaScale: MeanVarianceSigma(2ᵏ·x) = 2ᵏ·MeanVarianceSigma(x)
// bit for bit from k = −1000 to 1000 (the plain formula gave 0 or +Inf at
// the ends), and x·1e-170 gives 1e-170·σ(x) within 1e-14 relative.
func TestMeanVarianceSigmaScale(t *testing.T) {
	x := scaleData(40, 3, 1)
	data := x.RawMatrix().Data
	want := MeanVarianceSigma(data, 40, 3)
	for _, k := range []int{-1000, -600, -1, 0, 1, 600, 1000} {
		y := make([]float64, len(data))
		for i, v := range data {
			y[i] = math.Ldexp(v, k)
		}
		if got := MeanVarianceSigma(y, 40, 3); got != math.Ldexp(want, k) {
			t.Errorf("k = %d: σ = %v, want %v bit for bit", k, got, math.Ldexp(want, k))
		}
	}
	y := make([]float64, len(data))
	for i, v := range data {
		y[i] = v * 1e-170
	}
	if got := MeanVarianceSigma(y, 40, 3); math.Abs(got-1e-170*want) > 1e-14*1e-170*want {
		t.Errorf("scale 1e-170: σ = %v, want %v within 1e-14 relative", got, 1e-170*want)
	}
}
