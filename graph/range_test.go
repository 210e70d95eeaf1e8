package graph

import (
	"context"
	"errors"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestBuildOverflow: features like 1e200 made squared distances +Inf and
// ended in eigensolver internals ("Deflate columns are not orthonormal");
// Build now refuses them naming the row and value.
func TestBuildOverflow(t *testing.T) {
	x := randData(12, 3, 0, 1)
	x.Set(4, 2, 1e200)
	for _, s := range []Spec{
		{},
		{Kind: Full, Sigma: Sigma{Rule: SigmaMedian}},
		{Kind: Epsilon, Eps: 1},
		{Kind: MutualKNN, K: 3, Affinity: Binary},
	} {
		t.Run(s.String(), func(t *testing.T) {
			_, err := Build(context.Background(), x, s)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("err = %v, want ErrInvalid", err)
			}
			for _, p := range []string{"row 4", "column 2 is 1e+200", "dataset.Options.Scale = ScaleMinMax or ScaleZScore"} {
				if !strings.Contains(err.Error(), p) {
					t.Errorf("error %q lacks %q", err, p)
				}
			}
		})
	}
	// Cosine works on unit rows: no overflow.
	if _, err := Build(context.Background(), x, Spec{Affinity: Cosine}); err != nil {
		t.Fatal(err)
	}
	// 1e150 is still safe: 4·3·(1e150)² < MaxFloat64.
	x.Set(4, 2, 1e150)
	if _, err := Build(context.Background(), x, Spec{Affinity: Binary}); err != nil {
		t.Fatal(err)
	}
}

// TestBuildUnderflow: -sigma 1e-300 used to leave every node without
// edges, reported later as an isolated node; Build names the node, its
// nearest neighbour's distance and σ.
func TestBuildUnderflow(t *testing.T) {
	// Points 0, 1, 2, …, 9 on a line: every nearest distance is 1.
	x := mat.NewDense(10, 1, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	for _, s := range []Spec{
		{K: 3, Sigma: Sigma{Rule: SigmaFixed, Value: 1e-300}},
		{Kind: SklearnKNN, K: 3, Sigma: Sigma{Rule: SigmaFixed, Value: 1e-300}},
		{Kind: Full, Sigma: Sigma{Rule: SigmaFixed, Value: 0.01}},
		{Kind: Epsilon, Eps: 1.5, Sigma: Sigma{Rule: SigmaFixed, Value: 0.01}},
	} {
		t.Run(s.String(), func(t *testing.T) {
			_, err := Build(context.Background(), x, s)
			if !errors.Is(err, ErrDegenerateScale) {
				t.Fatalf("err = %v, want ErrDegenerateScale", err)
			}
			for _, p := range []string{"node 0 (and 9 other nodes)", "node 1 at distance 1", "underflows", "σ = " + strings.TrimPrefix(s.Sigma.String(), "0"), "Spec.Sigma = Sigma{Rule: SigmaMedian}"} {
				if !strings.Contains(err.Error(), strings.Replace(p, "σ = .01", "σ = 0.01", 1)) {
					t.Errorf("error %q lacks %q", err, p)
				}
			}
		})
	}
	// A mutual k-NN graph is checked against the mutual neighbours: with σ
	// = 1e-300 every node of x has one and lost it (it gave 10 isolated
	// nodes, exit 0; review 114). A node without a mutual neighbour is
	// isolated legitimately: 5's nearest, 0.25, has a nearer one, 0.1.
	if _, err := Build(context.Background(), x, Spec{Kind: MutualKNN, K: 3, Sigma: Sigma{Rule: SigmaFixed, Value: 1e-300}}); !errors.Is(err, ErrDegenerateScale) || !strings.Contains(err.Error(), "node 0 (and 9 other nodes) has no edge left") {
		t.Errorf("mutual k-NN, σ = 1e-300: err = %v, want ErrDegenerateScale naming node 0", err)
	}
	lone := mat.NewDense(4, 1, []float64{0, 0.1, 0.25, 5})
	g, err := Build(context.Background(), lone, Spec{Kind: MutualKNN, K: 1, Sigma: Sigma{Rule: SigmaFixed, Value: 1}})
	if err != nil || g.Degree(3) != 0 || g.Degree(2) != 0 || g.Degree(0) == 0 {
		t.Errorf("mutual 1-NN of 0, 0.1, 0.25, 5: err %v, degrees %v %v %v %v, want nodes 2 and 3 alone", err, g.Degree(0), g.Degree(1), g.Degree(2), g.Degree(3))
	}
	// With σ the median distance already, the remedy is not the median
	// (review 115): an outlier pair 60 apart, each other's nearest, among
	// 10 close points.
	pair := mat.NewDense(12, 1, []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 100, 160})
	_, err = Build(context.Background(), pair, Spec{Kind: MutualKNN, K: 1, Sigma: Sigma{Rule: SigmaMedian}})
	if !errors.Is(err, ErrDegenerateScale) || !strings.Contains(err.Error(), "use a larger σ: a fixed value larger than the median distance") || strings.Contains(err.Error(), "SigmaMedian") {
		t.Errorf("median σ: err = %v", err)
	}
	// Only one far node: named alone.
	y := mat.NewDense(6, 1, []float64{0, 0.1, 0.2, 0.3, 0.4, 50})
	_, err = Build(context.Background(), y, Spec{Kind: Full, Sigma: Sigma{Rule: SigmaFixed, Value: 0.5}})
	if !errors.Is(err, ErrDegenerateScale) || !strings.Contains(err.Error(), "node 5 has no edge left") || !strings.Contains(err.Error(), "node 4 at distance 49.6") {
		t.Fatalf("err = %v", err)
	}
}

// TestBuildTinySigmaDuplicates: with σ = 1e-300, 1/(2σ²) overflows and a
// duplicate point's weight was exp(−0·∞) = NaN; it is exp(0) = 1.
func TestBuildTinySigmaDuplicates(t *testing.T) {
	x := mat.NewDense(4, 1, []float64{0, 0, 5, 5})
	g, err := Build(context.Background(), x, Spec{Kind: MutualKNN, K: 1, Sigma: Sigma{Rule: SigmaFixed, Value: 1e-300}})
	if err != nil {
		t.Fatal(err)
	}
	if w := g.Weight(0, 1); w != 1 {
		t.Fatalf("W[0,1] = %v, want 1", w)
	}
}
