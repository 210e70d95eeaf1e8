package graph

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/internal/testpanic"
)

// TestNilInputs: the constructors that return an error refuse a nil graph,
// a nil matrix or nil data with one, instead of a nil dereference, and
// NewMultigrid refuses a graph without nodes (the zero Graph) instead of
// panicking in gonum.
func TestNilInputs(t *testing.T) {
	ctx := context.Background()
	var zero Graph
	for _, c := range []struct {
		name     string
		f        func() error
		sentinel error // nil: any error
		want     string
	}{
		{"NewLaplacian", func() error { _, err := NewLaplacian(nil, Symmetric); return err }, ErrInvalid, "NewLaplacian: the graph is nil"},
		{"NewNormalizedAdjacency", func() error { _, err := NewNormalizedAdjacency(nil); return err }, ErrInvalid, "NewLaplacian: the graph is nil"},
		{"NewRegularizedLaplacian", func() error { _, err := NewRegularizedLaplacian(nil, Symmetric, 1, true); return err }, ErrInvalid, "NewRegularizedLaplacian: the graph is nil"},
		{"NewBetheHessian", func() error { _, err := NewBetheHessian(nil, 2); return err }, ErrInvalid, "NewBetheHessian: the graph is nil"},
		{"NewMultigrid", func() error { _, err := NewMultigrid(ctx, nil, 1); return err }, ErrInvalid, "NewMultigrid: the graph is nil"},
		{"NewMultigrid zero graph", func() error { _, err := NewMultigrid(ctx, &zero, 1); return err }, ErrInvalid, "NewMultigrid: the graph has no nodes"},
		{"AnalyzeCholesky", func() error { _, err := AnalyzeCholesky(ctx, nil, 0); return err }, ErrInvalid, "AnalyzeCholesky: the graph is nil"},
		{"NewCholeskyInverse", func() error { _, err := NewCholeskyInverse(ctx, nil, Unnormalized, 1); return err }, ErrInvalid, "AnalyzeCholesky: the graph is nil"},
		{"Factor", func() error {
			s, err := AnalyzeCholesky(ctx, &zero, 0)
			if err != nil {
				return err
			}
			_, err = s.Factor(ctx, nil, Unnormalized, 1)
			return err
		}, ErrInvalid, "CholeskySymbolic.Factor: the graph is nil"},
		{"FromDense", func() error { _, err := FromDense(nil); return err }, ErrInvalid, "FromDense: the matrix is nil"},
		// The entry points that take data (a *mat.Dense) refuse a nil or
		// empty matrix, and SampleRecall nil neighbour lists, with an
		// ErrInvalid: SampleRecall read x.Dims() and nb.N() first and
		// panicked.
		{"KNN", func() error { _, err := KNN(ctx, nil, 1); return err }, ErrInvalid, "no data points"},
		{"KNN empty", func() error { _, err := KNN(ctx, &mat.Dense{}, 1); return err }, ErrInvalid, "no data points"},
		{"ApproxKNN", func() error { _, err := ApproxKNN(ctx, nil, 1, nil); return err }, ErrInvalid, "no data points"},
		{"Build", func() error { _, err := Build(ctx, nil, DefaultSpec()); return err }, ErrInvalid, "no data points"},
		{"BuildRecorded", func() error { _, err := BuildRecorded(ctx, nil, DefaultSpec(), nil); return err }, ErrInvalid, "no data points"},
		{"BuildNeighbors", func() error { _, _, err := BuildNeighbors(ctx, nil, DefaultSpec(), nil); return err }, ErrInvalid, "no data points"},
		{"SampleRecall", func() error { _, _, err := SampleRecall(ctx, nil, &Neighbors{K: 1}, 0, 0); return err }, ErrInvalid, "no data points"},
		{"SampleRecall empty", func() error { _, _, err := SampleRecall(ctx, &mat.Dense{}, &Neighbors{K: 1}, 0, 0); return err }, ErrInvalid, "no data points"},
		{"SampleRecall nil lists", func() error {
			_, _, err := SampleRecall(ctx, mat.NewDense(3, 1, []float64{0, 1, 2}), nil, 0, 0)
			return err
		}, ErrInvalid, "SampleRecall: the neighbour lists are nil"},
		{"SampleRecall NaN", func() error {
			_, _, err := SampleRecall(ctx, mat.NewDense(2, 1, []float64{0, math.NaN()}), &Neighbors{K: 1, Index: []int32{1, 0}, Dist2: []float64{1, 1}}, 0, 0)
			return err
		}, ErrInvalid, "data entry (row 1, column 0) is NaN"},
		{"SampleRecall list count", func() error {
			_, _, err := SampleRecall(ctx, mat.NewDense(3, 1, []float64{0, 1, 2}), &Neighbors{K: 1, Index: []int32{1, 0}, Dist2: []float64{1, 1}}, 0, 0)
			return err
		}, ErrInvalid, "2 neighbour lists for 3 points"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if msg := testpanic.Message(func() { err = c.f() }); msg != "" {
				t.Fatalf("panic: %s", msg)
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || (c.sentinel != nil && !errors.Is(err, c.sentinel)) {
				t.Errorf("error %v, want one containing %q (wrapping %v)", err, c.want, c.sentinel)
			}
		})
	}
}

// TestZeroGraph: the zero Graph is the graph without nodes, for every
// method that does not take a node.
func TestZeroGraph(t *testing.T) {
	var g Graph
	if g.N() != 0 || g.NNZ() != 0 || g.Volume() != 0 || g.MaxDegree() != 0 || len(g.Degrees()) != 0 || len(g.Edges()) != 0 || len(g.Isolated()) != 0 {
		t.Errorf("zero Graph: N %d, NNZ %d, volume %v, max degree %v, %d degrees, %d edges, %d isolated; want all 0",
			g.N(), g.NNZ(), g.Volume(), g.MaxDegree(), len(g.Degrees()), len(g.Edges()), len(g.Isolated()))
	}
	if comp, count := g.Components(); len(comp) != 0 || count != 0 {
		t.Errorf("Components = %v, %d; want none", comp, count)
	}
	for _, kind := range []LaplacianKind{Unnormalized, Symmetric, RandomWalk} {
		l, err := NewLaplacian(&g, kind)
		if err != nil || l.Dim() != 0 {
			t.Errorf("NewLaplacian(zero, %v): %v", kind, err)
		}
	}
	if h, err := g.WithSelfLoops(1); err != nil || h.N() != 0 {
		t.Errorf("WithSelfLoops: %v", err)
	}
}
