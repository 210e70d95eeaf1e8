package main

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/progress"
)

// view2D is a 2-D picture of the data for -plot: the coordinates and the
// names of the two axes.
type view2D struct {
	x            *mat.Dense // n×2
	xname, yname string
	what         string // what the plot shows, for the title
}

// dataView returns a 2-D view of the clustered data, independent of the
// method: 2-D features as they are; other features projected on their two
// principal components (the axes say how much variance each keeps); a
// graph without features laid out by the eigenvectors 2 and 3 of its
// normalized cut (u = D^{-1/2}v for the eigenvectors v of L_sym, the
// spectral layout). A method's own embedding is not used: NJW's rows are
// normalized to unit length, so they collapse to k dots. rec (nil: none)
// receives the progress of the layout, its stages named "plot eigen" and
// "plot kmeans" so as not to be read as the clustering's (the layout of a
// graph of 2·10⁵ nodes took 4 s without a word).
// Cost: O(n·d²) for PCA, a partial eigendecomposition for the layout.
func dataView(ctx context.Context, x *mat.Dense, g *graph.Graph, rec progress.Recorder) (*view2D, error) {
	if x != nil {
		n, d := x.Dims()
		switch {
		case d == 2:
			return &view2D{x: x, xname: "x₁", yname: "x₂", what: "features"}, nil
		case d > 2 && n >= 2:
			var pc stat.PC
			if !pc.PrincipalComponents(x, nil) {
				return nil, fmt.Errorf("-plot: principal components of the %d×%d features did not converge", n, d)
			}
			var vecs mat.Dense
			pc.VectorsTo(&vecs)
			vars := pc.VarsTo(nil)
			total := 0.0
			for _, v := range vars {
				total += v
			}
			// Centre, then project on the two leading directions.
			centred := mat.DenseCopyOf(x)
			for j := 0; j < d; j++ {
				m := stat.Mean(mat.Col(nil, j, x), nil)
				for i := 0; i < n; i++ {
					centred.Set(i, j, centred.At(i, j)-m)
				}
			}
			var proj mat.Dense
			proj.Mul(centred, vecs.Slice(0, d, 0, 2))
			share := func(j int) float64 {
				if total == 0 {
					return 0
				}
				return 100 * vars[j] / total
			}
			return &view2D{x: &proj, what: "principal components of the features",
				xname: fmt.Sprintf("PC1 (%.0f%% of the variance)", share(0)),
				yname: fmt.Sprintf("PC2 (%.0f%% of the variance)", share(1))}, nil
		}
	}
	if g == nil || g.N() < 3 {
		return nil, fmt.Errorf("-plot: nothing to draw in 2-D (no features of dimension ≥ 2 and no graph of 3 nodes or more)")
	}
	s := &cluster.Settings{Seed: 1, Restarts: 1}
	if rec != nil {
		s.Recorder = progress.Func(func(e progress.Event) {
			e.Stage = "plot " + e.Stage
			rec.Record(e)
		})
	}
	res, err := cluster.Run(ctx, cluster.ShiMalik{}, &cluster.Problem{Graph: g, K: 3}, s)
	if err != nil {
		return nil, fmt.Errorf("-plot: spectral layout: %w", err)
	}
	n, _ := res.Embedding.Dims()
	return &view2D{x: mat.DenseCopyOf(res.Embedding.Slice(0, n, 1, 3)), xname: "u₂ (spectral layout)", yname: "u₃", what: "spectral layout of the graph"}, nil
}
