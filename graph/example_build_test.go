package graph_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/graph"
)

func ExampleKNN() {
	// Five points on a line.
	x := mat.NewDense(5, 1, []float64{0, 1, 3, 6, 10})
	nb, err := graph.KNN(context.Background(), x, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; i < nb.N(); i++ {
		idx, d2 := nb.Row(i)
		fmt.Println(i, idx, d2)
	}
	// Output:
	// 0 [1 2] [1 9]
	// 1 [0 2] [1 4]
	// 2 [1 0] [4 9]
	// 3 [2 4] [9 16]
	// 4 [3 2] [16 49]
}

func ExampleBuild() {
	x := mat.NewDense(4, 1, []float64{0, 1, 3, 6})
	// Symmetric 1-NN graph with RBF weights, σ = 1.
	s := graph.Spec{Kind: graph.SymmetricKNN, K: 1, Sigma: graph.Sigma{Rule: graph.SigmaFixed, Value: 1}}
	g, err := graph.Build(context.Background(), x, s)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range g.Edges() {
		fmt.Printf("%d–%d %.4f\n", e.I, e.J, e.W)
	}
	// Output:
	// 0–1 0.6065
	// 1–2 0.1353
	// 2–3 0.0111
}

func ExampleBuild_sklearn() {
	// scikit-learn's affinity="nearest_neighbors" with n_neighbors=2:
	// ½(C + Cᵀ), C including self.
	x := mat.NewDense(4, 1, []float64{0, 1, 3, 6})
	g, _ := graph.Build(context.Background(), x, graph.Spec{Kind: graph.SklearnKNN, K: 2, Affinity: graph.Binary})
	fmt.Println(mat.Formatted(g.Dense()))
	// Output:
	// ⎡  1    1    0    0⎤
	// ⎢  1    1  0.5    0⎥
	// ⎢  0  0.5    1  0.5⎥
	// ⎣  0    0  0.5    1⎦
}

func ExampleDefaultSpec() {
	fmt.Println(graph.DefaultSpec())
	// Output:
	// knn k=10 rbf sigma=local
}

func ExampleSigma_UnmarshalText() {
	var s graph.Sigma
	for _, v := range []string{"0.5", "local:9", "meanvar", "-2"} {
		if err := s.UnmarshalText([]byte(v)); err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s: rule %d value %g k %d\n", s, s.Rule, s.Value, s.K)
	}
	// Output:
	// 0.5: rule 3 value 0.5 k 0
	// local:9: rule 0 value 0 k 9
	// meanvar: rule 2 value 0 k 0
	// graph: σ = -2 must be positive and finite
}

func ExampleGraph_Stats() {
	g, _ := graph.FromEdges(5, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 0.5}, {I: 3, J: 3, W: 1}})
	st := g.Stats()
	fmt.Println(st)
	fmt.Println("isolated:", st.Isolated)
	// Output:
	// n=5 edges=2 self-loops=1 components=3 (largest 3) isolated=1 degree min/mean/max 0/0.8/1.5
	// isolated: [4]
}

func ExampleMeanVarianceSigma() {
	// Columns (0,1,3,6) and (0,0,0,0): variances 7 and 0, mean 3.5.
	data := []float64{0, 0, 1, 0, 3, 0, 6, 0}
	fmt.Printf("%.6f\n", graph.MeanVarianceSigma(data, 4, 2))
	// Output:
	// 1.870829
}
