package cluster

import (
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/enum"
)

// This file holds FGPWC's choice of the Laplacian of the embedding
// (FGPWC.Laplacian), beyond the paper. Seed 003 §3 (Alg. 1, lines 2–4)
// embeds the graph with the eigenvectors of L_sym = I − D^{-1/2}WD^{-1/2}
// and starts at X₀ = (VᵀL_symV)^{-1/2}. Spectral Learning (Kamvar, Klein
// and Manning 2003; SPEC §7; seed 000 §4.1.1) uses the unnormalized
// L = D − W. Neither is better everywhere (docs/results/fgpwc-notes.md),
// so FGPWCAutoLaplacian picks one per problem by cross-validation on the
// constraints alone (fgpwc_cv.go).
//
// The unnormalized embedding. V holds the eigenvectors of L = D − W for
// the m smallest non-trivial eigenvalues (the direction 1/√n·1 is dropped
// as u_1 is for L_sym), row-normalized if asked, X₀ = (VᵀLV)^{-1/2}; the
// descent, F of seed 003 eq. (1) and the k-means step are unchanged.
//
// The automatic m of D − W. The analogue of L_sym's rule, the count of
// eigenvalues of L below MThreshold·d̄ (d̄ = vol(G)/n, the mean degree: L's
// spectrum scales with W; on a d-regular graph L = d·L_sym and the rule
// gives L_sym's m), is what Embed uses, having no K. When K is known,
// Partition takes Spectral Learning's own dimension, m = Problem.K: the
// small eigenvalues of D − W belong to weakly attached nodes (an absolute
// cut, not a normalized one), so the threshold count is large and its
// extra directions are noise. This choice was made on the reproduction
// table, with the ground truth, as the default iteration cap was.

// FGPWCLaplacian selects the Laplacian whose eigenvectors FGPWC embeds the
// graph with (FGPWC.Laplacian).
type FGPWCLaplacian int

const (
	// FGPWCSymmetric is the paper's L_sym = I − D^{-1/2}WD^{-1/2} (seed 003
	// §3); the zero value.
	FGPWCSymmetric FGPWCLaplacian = iota
	// FGPWCUnnormalized is L = D − W, the Laplacian of Spectral Learning
	// (Kamvar et al. 2003; SPEC §7). Beyond the paper; see fgpwc_laplacian.go
	// for the automatic m.
	FGPWCUnnormalized
	// FGPWCAutoLaplacian picks FGPWCSymmetric or FGPWCUnnormalized by
	// cross-validation on the constraints alone (beyond the paper; see
	// FGPWC.Laplacian).
	FGPWCAutoLaplacian
)

// fgpwcLaplacianNames are the names of the FGPWCLaplacian values, in order.
var fgpwcLaplacianNames = []string{"sym", "unnormalized", "auto"}

// String returns "sym", "unnormalized" or "auto".
func (v FGPWCLaplacian) String() string { return enum.String("FGPWCLaplacian", fgpwcLaplacianNames, v) }

// MarshalText returns the name of v.
func (v FGPWCLaplacian) MarshalText() ([]byte, error) {
	return enum.Marshal("Laplacian", fgpwcLaplacianNames, v)
}

// UnmarshalText sets v from its name (sym, unnormalized or auto, any case), so that it works
// as a command-line value (tether cluster -set Laplacian=…) and in JSON.
func (v *FGPWCLaplacian) UnmarshalText(b []byte) error {
	return parseEnum(v, "Laplacian", fgpwcLaplacianNames, b)
}

// graphKind is the graph package's kind of a concrete Laplacian.
func (v FGPWCLaplacian) graphKind() graph.LaplacianKind {
	if v == FGPWCUnnormalized {
		return graph.Unnormalized
	}
	return graph.Symmetric
}

// symbol is the Laplacian's name in messages.
func (v FGPWCLaplacian) symbol() string {
	if v == FGPWCUnnormalized {
		return "L = D − W"
	}
	return "L_sym"
}

// fgpwcLaplacianMul returns L·v for an n×m block v: L_sym·v (fgpwcLsymMul,
// which avoids the scaled copy of W that graph.Laplacian keeps) or
// (D − W)·v by graph.Laplacian, which applies W's own weights. Cost
// O(nnz·m).
func fgpwcLaplacianMul(g *graph.Graph, kind FGPWCLaplacian, v *mat.Dense) *mat.Dense {
	if kind != FGPWCUnnormalized {
		return fgpwcLsymMul(g, v)
	}
	n, m := v.Dims()
	lv := mat.NewDense(n, m, nil)
	// The unnormalized Laplacian is defined for every graph: no error.
	l, _ := graph.NewLaplacian(g, graph.Unnormalized)
	l.MulTo(lv, v)
	return lv
}

// fgpwcTrivialVector is the trivial null vector of the Laplacian, which
// the embedding drops: D^{1/2}1/‖·‖ for L_sym, 1/√n for D − W.
func fgpwcTrivialVector(deg []float64, kind FGPWCLaplacian) []float64 {
	z := make([]float64, len(deg))
	for i, d := range deg {
		if kind == FGPWCUnnormalized {
			z[i] = 1
		} else {
			z[i] = math.Sqrt(d)
		}
	}
	floats.Scale(1/floats.Norm(z, 2), z)
	return z
}

// fgpwcDefaultMThreshold is the eigenvalue threshold of the automatic m for the
// Laplacian kind of graph g: MThreshold for L_sym, MThreshold·vol(G)/n for
// D − W (see the file comment).
func fgpwcMThreshold(g *graph.Graph, kind FGPWCLaplacian, threshold float64) float64 {
	if kind != FGPWCUnnormalized {
		return threshold
	}
	return threshold * floats.Sum(g.Degrees()) / float64(g.N())
}

// fgpwcLsymMul returns L_sym·v = v − D^{-1/2}·W·D^{-1/2}·v for an n×m
// block v. Degrees are positive (isolated nodes are refused before). Cost
// O(nnz·m), two n×m temporaries.
func fgpwcLsymMul(g *graph.Graph, v *mat.Dense) *mat.Dense {
	n, m := v.Dims()
	deg := g.Degrees()
	scaled := mat.NewDense(n, m, nil)
	for i := 0; i < n; i++ {
		floats.ScaleTo(scaled.RawRowView(i), 1/math.Sqrt(deg[i]), v.RawRowView(i))
	}
	wv := mat.NewDense(n, m, nil)
	g.MulTo(wv, scaled)
	for i := 0; i < n; i++ {
		row := wv.RawRowView(i)
		floats.Scale(-1/math.Sqrt(deg[i]), row)
		floats.Add(row, v.RawRowView(i))
	}
	return wv
}
