package graph_test

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
)

// gridGraph returns the 4-neighbour grid graph of r×c nodes, unit weights.
func gridGraph(r, c int) *graph.Graph {
	var edges []graph.Edge
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if j+1 < c {
				edges = append(edges, graph.Edge{I: i*c + j, J: i*c + j + 1, W: 1})
			}
			if i+1 < r {
				edges = append(edges, graph.Edge{I: i*c + j, J: (i+1)*c + j, W: 1})
			}
		}
	}
	g, err := graph.FromEdges(r*c, edges)
	if err != nil {
		panic(err)
	}
	return g
}

func ExampleGraph_Coarsen() {
	g := gridGraph(4, 4)
	c, agg, err := g.Coarsen(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.N(), agg)
	fmt.Printf("volume %.0f = %.0f\n", g.Volume(), c.Volume())
	// Output:
	// 9 [0 0 1 1 2 3 3 4 2 5 6 4 7 5 6 8]
	// volume 48 = 48
}

// The smallest eigenpairs of L_sym of a 60×60 grid by LOBPCG preconditioned
// with a V-cycle, the null vector D^{1/2}1/√vol deflated.
func ExampleNewMultigrid() {
	g := gridGraph(60, 60)
	ctx := context.Background()
	mg, err := graph.NewMultigrid(ctx, g, 1e-5)
	if err != nil {
		fmt.Println(err)
		return
	}
	op, err := graph.NewLaplacian(g, graph.Symmetric)
	if err != nil {
		fmt.Println(err)
		return
	}
	n := g.N()
	z := mat.NewDense(n, 1, nil)
	for i := 0; i < n; i++ {
		z.Set(i, 0, math.Sqrt(g.Degree(i)/g.Volume()))
	}
	res, err := eigen.LOBPCG{T: mg}.Solve(ctx, eigen.Problem{A: op, K: 4, Deflate: z, DeflateValues: []float64{0}}, &eigen.Settings{Tol: 1e-8})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("levels:", mg.Levels())
	for _, v := range res.Values {
		fmt.Printf("%.6f\n", v)
	}
	// Output:
	// levels: 4
	// 0.000000
	// 0.000703
	// 0.000703
	// 0.001417
}
