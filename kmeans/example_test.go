package kmeans_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/kmeans"
)

func ExampleCluster() {
	// Two groups of three points on a line.
	x := mat.NewDense(6, 1, []float64{0, 1, 2, 10, 11, 12})
	res, err := kmeans.Cluster(context.Background(), x, kmeans.Settings{K: 2, Src: rand.NewPCG(1, 1)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("same cluster 0,1,2:", res.Labels[0] == res.Labels[1] && res.Labels[1] == res.Labels[2])
	fmt.Println("split 2|3:", res.Labels[2] != res.Labels[3])
	// Each group contributes 1 + 0 + 1 around its mean.
	fmt.Printf("distortion %.6f\n", res.Distortion)
	// Output:
	// same cluster 0,1,2: true
	// split 2|3: true
	// distortion 4.000000
}

func ExampleCluster_select() {
	// Three equally spaced groups and k = 2: merging the left pair or the
	// right pair gives the same distortion. Select keeps a restart that
	// satisfies the must-link (0, 3), as FGPWC keeps the restart violating
	// the fewest constraints.
	x := mat.NewDense(9, 1, []float64{0, 1, 2, 10, 11, 12, 20, 21, 22})
	violations := func(labels []int) float64 {
		if labels[0] != labels[3] {
			return 1
		}
		return 0
	}
	res, err := kmeans.Cluster(context.Background(), x, kmeans.Settings{K: 2, Restarts: 20, Select: violations})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("violations:", res.Scores[res.Restart])
	fmt.Println("0 and 3 together, 6 apart:", res.Labels[0] == res.Labels[3] && res.Labels[0] != res.Labels[6])
	// Output:
	// violations: 0
	// 0 and 3 together, 6 apart: true
}

func ExampleSeed() {
	// k-means++ never picks a point that coincides with a chosen centre
	// while another point is still at positive distance.
	x := mat.NewDense(4, 1, []float64{0, 0, 0, 5})
	idx, err := kmeans.Seed(x, 2, rand.NewPCG(4, 2))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("one of the two centres is point 3:", idx[0] == 3 || idx[1] == 3)
	// Output:
	// one of the two centres is point 3: true
}

// twoTriangles is {0,1,2} and {3,4,5}, each a triangle of weight-1 edges,
// joined by the edge 2–3 of weight 0.1.
func twoTriangles() *graph.Graph {
	g, _ := graph.FromEdges(6, []graph.Edge{
		{I: 0, J: 1, W: 1}, {I: 0, J: 2, W: 1}, {I: 1, J: 2, W: 1},
		{I: 3, J: 4, W: 1}, {I: 3, J: 5, W: 1}, {I: 4, J: 5, W: 1},
		{I: 2, J: 3, W: 0.1},
	})
	return g
}

func ExampleKernelCluster() {
	g := twoTriangles()
	kern, w, err := kmeans.NormalizedCut(g, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Start from a partition with node 2 misplaced.
	res, err := kmeans.KernelCluster(context.Background(), kern, w, kmeans.Settings{K: 2, Init: []int{0, 0, 1, 1, 1, 1}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Labels)
	// With σ = 0 the objective is Ncut − k: cut = 0.1, vol = 6.1 per side.
	fmt.Printf("objective %.6f = Ncut − 2 with Ncut = 2·0.1/6.1 = %.6f\n", res.Distortion, 2*0.1/6.1)
	// Output:
	// [0 0 0 1 1 1]
	// objective -1.967213 = Ncut − 2 with Ncut = 2·0.1/6.1 = 0.032787
}

func ExampleObjective() {
	g := twoTriangles()
	kern, w, err := kmeans.RatioCut(g, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	// With σ = 0 and no self loops the objective is −Σ d_i + ratio cut.
	obj, err := kmeans.Objective(kern, w, []int{0, 0, 0, 1, 1, 1}, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.6f = −12.2 + 0.1/3 + 0.1/3\n", obj)
	// Output:
	// -12.133333 = −12.2 + 0.1/3 + 0.1/3
}

func ExampleNormalizedCutShift() {
	g := twoTriangles()
	fmt.Printf("ratio association σ ≥ %.2f\n", kmeans.RatioAssociationShift(g))
	fmt.Printf("ratio cut σ ≥ %.2f\n", kmeans.RatioCutShift(g))
	fmt.Printf("normalized cut σ ≥ %.2f\n", kmeans.NormalizedCutShift(g))
	// Output:
	// ratio association σ ≥ 2.10
	// ratio cut σ ≥ 4.20
	// normalized cut σ ≥ 1.00
}

func ExampleNewDenseKernel() {
	// The linear kernel XXᵀ: kernel k-means then equals Lloyd's k-means.
	x := mat.NewDense(4, 1, []float64{0, 1, 10, 11})
	var gram mat.SymDense
	gram.SymOuterK(1, x)
	kern, err := kmeans.NewDenseKernel(&gram)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := kmeans.KernelCluster(context.Background(), kern, nil, kmeans.Settings{K: 2, Init: []int{0, 1, 1, 1}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Labels)
	fmt.Printf("%.6f\n", res.Distortion) // 0.25·4
	// Output:
	// [0 0 1 1]
	// 1.000000
}
