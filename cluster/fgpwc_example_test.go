package cluster_test

import (
	"context"
	"fmt"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// threeCliques returns three 4-cliques A = {0…3}, B = {4…7}, C = {8…11}
// joined in a ring by bridges of weight 0.1.
func threeCliques() *graph.Graph {
	var edges []graph.Edge
	for c := 0; c < 3; c++ {
		for i := 0; i < 4; i++ {
			for j := i + 1; j < 4; j++ {
				edges = append(edges, graph.Edge{I: 4*c + i, J: 4*c + j, W: 1})
			}
		}
		edges = append(edges, graph.Edge{I: 4 * c, J: (4*c + 5) % 12, W: 0.1})
	}
	g, err := graph.FromEdges(12, edges)
	if err != nil {
		panic(err)
	}
	return g
}

// Two clusters among three equal cliques: the graph alone cannot tell which
// two cliques belong together; one must-link and one cannot-link decide it.
func ExampleFGPWC() {
	for _, pairs := range [][]constraint.Pair{
		{{I: 1, J: 6, Kind: constraint.MustLink}, {I: 5, J: 10, Kind: constraint.CannotLink}}, // A–B together, C apart
		{{I: 6, J: 9, Kind: constraint.MustLink}, {I: 2, J: 5, Kind: constraint.CannotLink}},  // B–C together, A apart
	} {
		p := &cluster.Problem{Graph: threeCliques(), K: 2, Constraints: &constraint.Set{N: 12, Pairs: pairs}}
		// The paper's step-halving descent (the zero value) run to
		// convergence: two constraints against a symmetric graph need the
		// full descent, not the early stop of NewFGPWC (see fgpwcMaxIter).
		f := cluster.FGPWC{M: 4, RowNormalize: true, MaxIter: 1000, FTol: -1}
		res, err := cluster.Run(context.Background(), f, p, &cluster.Settings{Seed: 1})
		if err != nil {
			fmt.Println(err)
			return
		}
		ml, cl := constraint.Violations(p.Constraints, res.Labels)
		fmt.Println(res.Labels, "violated:", ml+cl)
	}
	// Output:
	// [0 0 0 0 0 0 0 0 1 1 1 1] violated: 0
	// [0 0 0 0 1 1 1 1 1 1 1 1] violated: 0
}

// The paper's "tuning" protocol scores each grid point against the ground
// truth (here with metrics.ARI); ties go to the first point of the grid.
func ExampleFGPWC_Tune() {
	truth := []int{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1}
	p := &cluster.Problem{Graph: threeCliques(), K: 2, Constraints: &constraint.Set{N: 12, Pairs: []constraint.Pair{
		{I: 1, J: 6, Kind: constraint.MustLink}, {I: 5, J: 10, Kind: constraint.CannotLink},
	}}}
	f := cluster.FGPWC{M: 4, RowNormalize: true, MaxIter: 1000, FTol: -1}
	tun, err := f.Tune(context.Background(), p, &cluster.Settings{Seed: 1, Restarts: 5}, nil, nil, func(r *cluster.Result) float64 {
		a, _ := metrics.ARI(truth, r.Labels)
		return a
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	best, _ := metrics.ARI(truth, tun.Result.Labels)
	fmt.Printf("%d grid points; best σ_m = %.2f, σ_c = %.2f, ARI %.2f\n", len(tun.Points), tun.SigmaML, tun.SigmaCL, best)
	// Output:
	// 75 grid points; best σ_m = 0.01, σ_c = 1.12, ARI 1.00
}

// Cross-validation chooses σ_m and σ_c from the constraints alone.
func ExampleFGPWC_CrossValidate() {
	var pairs []constraint.Pair
	for i := 0; i < 4; i++ {
		pairs = append(pairs,
			constraint.Pair{I: i, J: 4 + i, Kind: constraint.MustLink},       // A–B
			constraint.Pair{I: 4 + i, J: 8 + i, Kind: constraint.CannotLink}, // B–C
		)
	}
	p := &cluster.Problem{Graph: threeCliques(), K: 2, Constraints: &constraint.Set{N: 12, Pairs: pairs}}
	f := cluster.FGPWC{M: 4, RowNormalize: true, TuneFolds: 4, MaxIter: 1000, FTol: -1}
	cv, err := f.CrossValidate(context.Background(), p, &cluster.Settings{Seed: 1, Restarts: 5}, []float64{0.05, 0.15}, []float64{0.5, 1.5})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, pt := range cv.Points {
		fmt.Printf("σ_m = %.2f, σ_c = %.2f: held-out violations %.0f, misfit %.3f\n", pt.SigmaML, pt.SigmaCL, 0-pt.Score, pt.Fit)
	}
	fmt.Printf("%d folds; chosen σ_m = %.2f, σ_c = %.2f\n", cv.Folds, cv.SigmaML, cv.SigmaCL)
	// Output:
	// σ_m = 0.05, σ_c = 0.50: held-out violations 0, misfit 4.748
	// σ_m = 0.05, σ_c = 1.50: held-out violations 0, misfit 4.405
	// σ_m = 0.15, σ_c = 0.50: held-out violations 0, misfit 2.139
	// σ_m = 0.15, σ_c = 1.50: held-out violations 1, misfit 3.389
	// 4 folds; chosen σ_m = 0.15, σ_c = 0.50
}

// Embed computes the graph-only part once; every constraint set then costs
// only the descent and k-means.
func ExampleFGPWC_Embed() {
	g := threeCliques()
	f := cluster.FGPWC{M: 4, RowNormalize: true, MaxIter: 1000, FTol: -1}
	basis, err := f.Embed(context.Background(), g, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("m =", basis.M())
	f.Basis = basis
	for _, pairs := range [][]constraint.Pair{
		{{I: 1, J: 6, Kind: constraint.MustLink}, {I: 5, J: 10, Kind: constraint.CannotLink}},
		{{I: 6, J: 9, Kind: constraint.MustLink}, {I: 2, J: 5, Kind: constraint.CannotLink}},
	} {
		p := &cluster.Problem{Graph: g, K: 2, Constraints: &constraint.Set{N: 12, Pairs: pairs}}
		res, err := cluster.Run(context.Background(), f, p, &cluster.Settings{Seed: 1})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(res.Labels)
	}
	// Output:
	// m = 4
	// [0 0 0 0 0 0 0 0 1 1 1 1]
	// [0 0 0 0 1 1 1 1 1 1 1 1]
}
