package eigen_test

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
)

// tidy maps tiny values (|v| < 5e-9, such as a computed zero eigenvalue
// of −1e-15) to 0 so that they print as 0.00000000.
func tidy(v float64) float64 {
	if math.Abs(v) < 5e-9 {
		return 0
	}
	return v
}

// path returns the path graph on n nodes.
func path(n int) *graph.Graph {
	var edges []graph.Edge
	for i := 0; i+1 < n; i++ {
		edges = append(edges, graph.Edge{I: i, J: i + 1, W: 1})
	}
	g, err := graph.FromEdges(n, edges)
	if err != nil {
		panic(err)
	}
	return g
}

// The three smallest eigenvalues of the Laplacian of the path on 100 nodes
// are 2 − 2cos(πj/100), j = 0, 1, 2.
func ExampleLanczos() {
	l, _ := graph.NewLaplacian(path(100), graph.Unnormalized)
	res, err := eigen.Lanczos{}.Solve(context.Background(), eigen.Problem{A: l, K: 3, Which: eigen.Smallest}, nil)
	if err != nil {
		panic(err)
	}
	for _, v := range res.Values {
		fmt.Printf("%.8f\n", tidy(v))
	}
	// Output:
	// 0.00000000
	// 0.00098688
	// 0.00394654
}

// Shi–Malik's generalized problem L u = λ D u (thesis Alg. 2) on the path
// with 100 nodes: its eigenvalues are those of L_sym, 1 − cos(πj/99)
// (Chung, Spectral Graph Theory, §1.5).
func ExampleLOBPCG() {
	g := path(100)
	l, _ := graph.NewLaplacian(g, graph.Unnormalized)
	p := eigen.Problem{A: l, B: graph.NewDegreeMatrix(g), K: 3}
	res, err := eigen.LOBPCG{}.Solve(context.Background(), p, nil)
	if err != nil {
		panic(err)
	}
	for _, v := range res.Values {
		fmt.Printf("%.8f\n", tidy(v))
	}
	// Output:
	// 0.00000000
	// 0.00050346
	// 0.00201332
}

// The largest eigenvalues of the complete graph K_5's Laplacian: 5, 5, 5, 5.
func ExampleDense() {
	var edges []graph.Edge
	for i := 0; i < 5; i++ {
		for j := i + 1; j < 5; j++ {
			edges = append(edges, graph.Edge{I: i, J: j, W: 1})
		}
	}
	g, _ := graph.FromEdges(5, edges)
	l, _ := graph.NewLaplacian(g, graph.Unnormalized)
	res, err := eigen.Dense{}.Solve(context.Background(), eigen.Problem{A: l, K: 2, Which: eigen.Largest}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.6f\n", res.Values)
	// Output:
	// [5.000000 5.000000]
}

// A dense symmetric matrix as an operator: [[2 1] [1 2]] has eigenvalues 3
// and 1, with eigenvectors (1, 1)/√2 and (1, −1)/√2.
func ExampleNewMatrix() {
	a := eigen.NewMatrix(mat.NewSymDense(2, []float64{2, 1, 1, 2}))
	res, err := eigen.Dense{}.Solve(context.Background(), eigen.Problem{A: a, K: 1, Which: eigen.Largest}, nil)
	if err != nil {
		panic(err)
	}
	v := res.Vectors.At(0, 0) * res.Vectors.At(1, 0) // sign-independent
	fmt.Printf("λ = %.6f, v₀v₁ = %.6f\n", res.Values[0], v)
	// Output:
	// λ = 3.000000, v₀v₁ = 0.500000
}

// The Laplacian of the cycle on 100 nodes has the eigenvalues
// 2 − 2cos(2πj/100), each twice except 0: a block of two vectors
// resolves the pairs at once.
func ExampleBlockLanczos() {
	var edges []graph.Edge
	for i := 0; i < 100; i++ {
		edges = append(edges, graph.Edge{I: i, J: (i + 1) % 100, W: 1})
	}
	g, err := graph.FromEdges(100, edges)
	if err != nil {
		panic(err)
	}
	l, _ := graph.NewLaplacian(g, graph.Unnormalized)
	res, err := eigen.BlockLanczos{BlockSize: 2}.Solve(context.Background(), eigen.Problem{A: l, K: 5}, nil)
	if err != nil {
		panic(err)
	}
	for _, v := range res.Values {
		fmt.Printf("%.8f\n", tidy(v))
	}
	// Output:
	// 0.00000000
	// 0.00394654
	// 0.00394654
	// 0.01577060
	// 0.01577060
}
