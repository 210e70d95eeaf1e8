package cluster

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// lpFeatures returns n random rows of d features with unequal spreads (so
// that the eigenvalues of the tests are distinct).
func lpFeatures(n, d int, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 11))
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, float64(j+1)*rnd.NormFloat64()+0.5*float64(j))
		}
	}
	return x
}

// lpPairs returns count distinct random pairs, the first ml of them
// must-links, the rest cannot-links.
func lpPairs(n, count, ml int, seed uint64) *constraint.Set {
	rnd := rand.New(rand.NewPCG(seed, 12))
	seen := map[[2]int]bool{}
	set := &constraint.Set{N: n}
	for len(set.Pairs) < count {
		i, j := rnd.IntN(n), rnd.IntN(n)
		if i == j || seen[[2]int{min(i, j), max(i, j)}] {
			continue
		}
		seen[[2]int{min(i, j), max(i, j)}] = true
		kind := constraint.CannotLink
		if len(set.Pairs) < ml {
			kind = constraint.MustLink
		}
		set.Pairs = append(set.Pairs, constraint.Pair{I: i, J: j, Kind: kind})
	}
	return set
}

// lpLaplacian returns D − W of the dense symmetric w (row sums, signs kept).
func lpLaplacian(w *mat.Dense) *mat.Dense {
	n, _ := w.Dims()
	l := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		var d float64
		for j := 0; j < n; j++ {
			d += w.At(i, j)
			l.Set(i, j, -w.At(i, j))
		}
		l.Set(i, i, l.At(i, i)+d)
	}
	return l
}

// lpCentred returns x minus its w-weighted mean (w nil: uniform).
func lpCentred(x *mat.Dense, w []float64) *mat.Dense {
	n, d := x.Dims()
	out := mat.DenseCopyOf(x)
	for j := 0; j < d; j++ {
		var s, tot float64
		for i := 0; i < n; i++ {
			wi := 1.0
			if w != nil {
				wi = w[i]
			}
			s += wi * x.At(i, j)
			tot += wi
		}
		for i := 0; i < n; i++ {
			out.Set(i, j, x.At(i, j)-s/tot)
		}
	}
	return out
}

// lpSameColumns reports the largest difference between the columns of got
// and want, each column compared up to sign after removing its mean,
// relative to the column's norm.
func lpSameColumns(got, want *mat.Dense) float64 {
	n, m := want.Dims()
	worst := 0.0
	for c := 0; c < m; c++ {
		g := mat.Col(nil, c, lpCentred(got, nil))
		w := mat.Col(nil, c, lpCentred(want, nil))
		var plus, minus, norm float64
		for i := 0; i < n; i++ {
			plus += (g[i] - w[i]) * (g[i] - w[i])
			minus += (g[i] + w[i]) * (g[i] + w[i])
			norm += w[i] * w[i]
		}
		worst = math.Max(worst, math.Sqrt(math.Min(plus, minus)/norm))
	}
	return worst
}

// cpcaDense is S = XᵀL̃X of seed 002 eq. 11–14 from the n×n weights of eq.
// 11, for distinct pairs (the test's independent computation).
func cpcaDense(x *mat.Dense, set *constraint.Set) *mat.SymDense {
	n, d := x.Dims()
	w := mat.NewDense(n, n, nil)
	var nc, nm float64
	if set != nil {
		for _, q := range set.Pairs {
			if q.Kind == constraint.MustLink {
				nm++
			} else {
				nc++
			}
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			w.Set(i, j, 1/float64(n*n))
		}
	}
	if set != nil {
		for _, q := range set.Pairs {
			v := 1 / nc
			if q.Kind == constraint.MustLink {
				v = -1 / nm
			}
			w.Set(q.I, q.J, w.At(q.I, q.J)+v)
			w.Set(q.J, q.I, w.At(q.J, q.I)+v)
		}
	}
	var t, s mat.Dense
	t.Mul(lpLaplacian(w), x)
	s.Mul(x.T(), &t)
	out := mat.NewSymDense(d, nil)
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			out.SetSym(i, j, (s.At(i, j)+s.At(j, i))/2)
		}
	}
	return out
}

// TestCPCAMatchesDenseEigenproblem: the cPCA directions and eigenvalues
// equal those of a dense eigendecomposition (gonum mat.EigenSym) of
// XᵀL̃X built from the n×n weights of eq. 11; without constraints the
// eigenvalues are the PCA variances s²/n of an SVD of the centred data.
func TestCPCAMatchesDenseEigenproblem(t *testing.T) {
	for _, tc := range []struct {
		name      string
		n, d, dim int
		pairs, ml int
		tol       float64
	}{
		{"no constraints", 25, 4, 3, 0, 0, 1e-10},
		{"must-links only", 25, 4, 2, 12, 12, 1e-10},
		{"cannot-links only", 30, 5, 3, 10, 0, 1e-10},
		{"both", 40, 6, 4, 30, 14, 1e-10},
		{"all directions", 20, 3, 3, 15, 5, 1e-10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := lpFeatures(tc.n, tc.d, uint64(tc.n*tc.d))
			var set *constraint.Set
			if tc.pairs > 0 {
				set = lpPairs(tc.n, tc.pairs, tc.ml, uint64(tc.pairs))
			}
			res, err := Run(context.Background(), CPCA{Dim: tc.dim}, &Problem{Features: x, K: 2, Constraints: set}, &Settings{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			var e mat.EigenSym
			if !e.Factorize(cpcaDense(x, set), true) {
				t.Fatal("EigenSym failed")
			}
			vals := e.Values(nil)
			var vecs mat.Dense
			e.VectorsTo(&vecs)
			want := mat.NewDense(tc.d, tc.dim, nil)
			for c := 0; c < tc.dim; c++ {
				col := tc.d - 1 - c
				if math.Abs(res.Eigenvalues[c]-vals[col]) > tc.tol*math.Abs(vals[tc.d-1]) {
					t.Errorf("eigenvalue %d = %v, dense %v", c, res.Eigenvalues[c], vals[col])
				}
				for j := 0; j < tc.d; j++ {
					want.Set(j, c, vecs.At(j, col))
				}
			}
			var y mat.Dense
			y.Mul(x, want)
			if diff := lpSameColumns(res.Embedding, &y); diff > 1e-8 {
				t.Errorf("projection differs from X·a of the dense eigenvectors by %.3g", diff)
			}
			if set == nil {
				// PCA: an SVD of the centred data, Xc = UΣVᵀ.
				var svd mat.SVD
				xc := lpCentred(x, nil)
				if !svd.Factorize(xc, mat.SVDThin) {
					t.Fatal("SVD failed")
				}
				sv := svd.Values(nil)
				var v mat.Dense
				svd.VTo(&v)
				for c := 0; c < tc.dim; c++ {
					if got, w := res.Eigenvalues[c], sv[c]*sv[c]/float64(tc.n); math.Abs(got-w) > 1e-10*w {
						t.Errorf("PCA variance %d = %v, SVD %v", c, got, w)
					}
				}
				var pc mat.Dense
				pc.Mul(xc, v.Slice(0, tc.d, 0, tc.dim))
				if diff := lpSameColumns(res.Embedding, &pc); diff > 1e-8 {
					t.Errorf("projection differs from the principal components by %.3g", diff)
				}
			}
		})
	}
}

// TestCPCAVarianceDimension: with Dim 0 the projection keeps the fewest
// principal components whose variance s_i²/n (SVD in the test) reaches
// 95% (or Variance) of the total.
func TestCPCAVarianceDimension(t *testing.T) {
	x := lpFeatures(50, 6, 3)
	var svd mat.SVD
	if !svd.Factorize(lpCentred(x, nil), mat.SVDNone) {
		t.Fatal("SVD failed")
	}
	sv := svd.Values(nil)
	var total float64
	for _, s := range sv {
		total += s * s
	}
	for _, share := range []float64{0, 0.5, 0.8, 0.95, 0.99, 1} {
		want, cum := 0, 0.0
		for want < len(sv) && cum < (map[bool]float64{true: 0.95, false: share}[share == 0]-1e-12)*total {
			cum += sv[want] * sv[want]
			want++
		}
		for _, m := range []Method{CPCA{Variance: share}, CLPP{Variance: share}} {
			g := lpGraph(t, x)
			res, err := Run(context.Background(), m, &Problem{Features: x, Graph: g, K: 2}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, got := res.Embedding.Dims(); got != want {
				t.Errorf("%s Variance %v: dimension %d, want %d (variances %v)", m.Name(), share, got, want, sv)
			}
		}
	}
}

func lpGraph(t testing.TB, x *mat.Dense) *graph.Graph {
	t.Helper()
	g, err := graph.Build(context.Background(), x, graph.Spec{Kind: graph.SymmetricKNN, K: 5, Affinity: graph.RBF, Sigma: graph.Sigma{Rule: graph.SigmaMedian}})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// clppDense solves seed 002 eq. 22 densely: W̃ = W + Q (eq. 21, ±w at
// (i, j) and (j, i): eq. 20–21's weighting of the constraints, twice eq.
// 19's; see CLPP) as an n×n matrix, A = XᵀL̃X with L̃ = D̃ − W̃,
// B = X_cᵀD̄X_c with D̄ = diag(|W̃|1) and X_c centred at the D̄-weighted
// mean, and the eigenpairs of the
// nonsymmetric B⁻¹A by gonum's general mat.Eigen (not the Cholesky route
// of CLPP), each direction scaled to aᵀBa = 1; increasing λ.
func clppDense(t *testing.T, x *mat.Dense, g *graph.Graph, set *constraint.Set) ([]float64, *mat.Dense, *mat.Dense, *mat.Dense, *mat.Dense) {
	n, d := x.Dims()
	w := mat.DenseCopyOf(g.Dense())
	if set != nil {
		for _, q := range set.Pairs {
			v := 1.0
			if q.Kind == constraint.CannotLink {
				v = -1
			}
			w.Set(q.I, q.J, w.At(q.I, q.J)+v)
			w.Set(q.J, q.I, w.At(q.J, q.I)+v)
		}
	}
	sd := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			sd[i] += math.Abs(w.At(i, j))
		}
	}
	var t1, a, b mat.Dense
	t1.Mul(lpLaplacian(w), x)
	a.Mul(x.T(), &t1)
	xc := lpCentred(x, sd)
	dx := mat.DenseCopyOf(xc)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			dx.Set(i, j, sd[i]*xc.At(i, j))
		}
	}
	b.Mul(xc.T(), dx)
	var bia mat.Dense
	if err := bia.Solve(&b, &a); err != nil {
		t.Fatal(err)
	}
	var e mat.Eigen
	if !e.Factorize(&bia, mat.EigenRight) {
		t.Fatal("Eigen failed")
	}
	cv := e.Values(nil)
	var vecs mat.CDense
	e.VectorsTo(&vecs)
	order := make([]int, d)
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool { return real(cv[order[i]]) < real(cv[order[j]]) })
	vals := make([]float64, d)
	dirs := mat.NewDense(d, d, nil)
	for c, k := range order {
		if math.Abs(imag(cv[k])) > 1e-9*math.Abs(real(cv[k])) {
			t.Fatalf("complex eigenvalue %v", cv[k])
		}
		vals[c] = real(cv[k])
		col := mat.NewVecDense(d, nil)
		for j := 0; j < d; j++ {
			col.SetVec(j, real(vecs.At(j, k)))
		}
		s := 1 / math.Sqrt(mat.Inner(col, &b, col))
		for j := 0; j < d; j++ {
			dirs.Set(j, c, s*col.AtVec(j))
		}
	}
	return vals, dirs, xc, &a, &b
}

// TestCLPPMatchesDenseEigenproblem: the cLPP eigenvalues and projections
// equal those of the dense generalized eigenproblem of eq. 21–22 solved
// through mat.Eigen of B⁻¹A; without constraints this is LPP (eq. 18).
// Each direction satisfies Aa = λBa and aᵀBa = 1.
func TestCLPPMatchesDenseEigenproblem(t *testing.T) {
	for _, tc := range []struct {
		name      string
		n, d, dim int
		pairs, ml int
		tol       float64
	}{
		{"no constraints: LPP", 30, 4, 3, 0, 0, 1e-8},
		{"must-links only", 30, 4, 2, 15, 15, 1e-8},
		{"cannot-links only", 35, 5, 3, 12, 0, 1e-8},
		{"both, negative degrees", 40, 5, 5, 120, 20, 1e-8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := lpFeatures(tc.n, tc.d, uint64(tc.n+tc.d))
			g := lpGraph(t, x)
			var set *constraint.Set
			if tc.pairs > 0 {
				set = lpPairs(tc.n, tc.pairs, tc.ml, uint64(tc.pairs+1))
			}
			res, err := Run(context.Background(), CLPP{Dim: tc.dim}, &Problem{Features: x, Graph: g, K: 2, Constraints: set}, &Settings{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			vals, dirs, xc, a, b := clppDense(t, x, g, set)
			scale := math.Max(math.Abs(vals[0]), math.Abs(vals[tc.d-1]))
			for c := 0; c < tc.dim; c++ {
				if math.Abs(res.Eigenvalues[c]-vals[c]) > tc.tol*scale {
					t.Errorf("eigenvalue %d = %v, dense %v", c, res.Eigenvalues[c], vals[c])
				}
				// Residual of the dense direction: the test's own solve is right.
				av := mat.NewVecDense(tc.d, nil)
				bv := mat.NewVecDense(tc.d, nil)
				col := dirs.ColView(c)
				av.MulVec(a, col)
				bv.MulVec(b, col)
				bv.ScaleVec(vals[c], bv)
				av.SubVec(av, bv)
				if r := mat.Norm(av, 2); r > 1e-8*scale*mat.Norm(b, 2) {
					t.Errorf("direction %d: ‖Aa − λBa‖ = %.3g", c, r)
				}
			}
			var y mat.Dense
			y.Mul(xc, dirs.Slice(0, tc.d, 0, tc.dim))
			if diff := lpSameColumns(res.Embedding, &y); diff > 1e-6 {
				t.Errorf("projection differs from X·a of the dense generalized eigenvectors by %.3g", diff)
			}
			// B-orthonormal projections: YᵀD̄Y = I, i.e. the embedding's
			// columns are the dense ones including their scale.
			var gram mat.Dense
			gram.Mul(res.Embedding.T(), res.Embedding)
			var wantGram mat.Dense
			wantGram.Mul(y.T(), &y)
			for i := 0; i < tc.dim; i++ {
				if g, w := gram.At(i, i), wantGram.At(i, i); math.Abs(g-w) > 1e-6*w {
					t.Errorf("column %d: squared norm %v, dense %v", i, g, w)
				}
			}
		})
	}
}

// lpToy is four points (±3, ±1): class = the sign of the second feature,
// the first having the larger spread (variances 9 and 1).
func lpToy() (*mat.Dense, []int) {
	return mat.NewDense(4, 2, []float64{-3, -1, 3, -1, -3, 1, 3, 1}), []int{0, 0, 1, 1}
}

// TestLinProjToyConstraintsMoveTheProjection: on lpToy, must-links along
// the first axis ((−3,−1)–(3,−1) and (−3,1)–(3,1)) remove it. By hand:
//   - cPCA: S = diag(9, 1) − diag(36, 0) (+ diag(0, 4) with the cannot-link
//     (−3,−1)–(−3,1)), eigenvalues 5 (second axis) and −27; PCA keeps the
//     first axis (9) and splits the classes wrongly.
//   - cLPP on the complete graph of weight 1: J(a) = 216a₁² + 16a₂²,
//     D̄ = 4I, B = diag(144, 16): λ = 1 on the second axis, 1.5 on the
//     first (J is aᵀXᵀL̃Xa, half of eq. 20's sum over ordered pairs).
//   - cLPP with must-links of weight 1/2, eq. 19's weighting (the
//     constraints once against J_LPP's ordered pairs; CLPP's doc): J(a) =
//     180a₁² + 16a₂², D̄ = 3.5I, B = diag(126, 14): λ = 8/7 and 10/7.
func TestLinProjToyConstraintsMoveTheProjection(t *testing.T) {
	x, truth := lpToy()
	ml := []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}, {I: 2, J: 3, Kind: constraint.MustLink}}
	cl := constraint.Pair{I: 0, J: 2, Kind: constraint.CannotLink}
	half := []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink, Weight: 0.5}, {I: 2, J: 3, Kind: constraint.MustLink, Weight: 0.5}}
	complete, err := graph.FromEdges(4, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 0, J: 2, W: 1}, {I: 0, J: 3, W: 1}, {I: 1, J: 2, W: 1}, {I: 1, J: 3, W: 1}, {I: 2, J: 3, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		m       Method
		pairs   []constraint.Pair
		vals    []float64
		axis    int // the feature the first projected column follows
		classes int // 1: the partition is the classes, −1: it is not, 0: not checked
	}{
		{"pca", CPCA{Dim: 1}, nil, []float64{9}, 0, -1},
		{"cpca must-links", CPCA{Dim: 2}, ml, []float64{1, -27}, 1, 0},
		{"cpca must-links, one direction", CPCA{Dim: 1}, ml, []float64{1}, 1, 1},
		{"cpca must- and cannot-links", CPCA{Dim: 1}, append(append([]constraint.Pair(nil), ml...), cl), []float64{5}, 1, 1},
		{"clpp must-links", CLPP{Dim: 2}, ml, []float64{1, 1.5}, 1, 0},
		{"clpp must-links, one direction", CLPP{Dim: 1}, ml, []float64{1}, 1, 1},
		{"clpp must-links of weight 1/2 (eq. 19)", CLPP{Dim: 2}, half, []float64{8.0 / 7, 10.0 / 7}, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &Problem{Features: x, Graph: complete, K: 2}
			if tc.pairs != nil {
				p.Constraints = &constraint.Set{N: 4, Pairs: tc.pairs}
			}
			res, err := Run(context.Background(), tc.m, p, &Settings{Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range tc.vals {
				if math.Abs(res.Eigenvalues[i]-v) > 1e-12*math.Max(1, math.Abs(v)) {
					t.Errorf("eigenvalues %v, want %v", res.Eigenvalues, tc.vals)
				}
			}
			// The first column is proportional to feature axis (centred).
			y := mat.NewDense(4, 1, nil)
			for i := 0; i < 4; i++ {
				y.Set(i, 0, x.At(i, tc.axis))
			}
			if diff := lpSameDirection(res.Embedding.ColView(0), y.ColView(0)); diff > 1e-12 {
				t.Errorf("first projection not along feature %d: %v", tc.axis, mat.Formatted(res.Embedding))
			}
			agree := res.Labels[0] == res.Labels[1] && res.Labels[2] == res.Labels[3] && res.Labels[0] != res.Labels[2]
			if tc.classes != 0 && agree != (tc.classes > 0) {
				t.Errorf("labels %v, truth %v: partition equal to the classes = %v, want %v", res.Labels, truth, agree, tc.classes)
			}
		})
	}
}

// lpSameDirection is 1 − |cos| between u − mean(u) and v − mean(v).
func lpSameDirection(u, v mat.Vector) float64 {
	n := u.Len()
	var mu, mv float64
	for i := 0; i < n; i++ {
		mu += u.AtVec(i) / float64(n)
		mv += v.AtVec(i) / float64(n)
	}
	var uv, uu, vv float64
	for i := 0; i < n; i++ {
		a, b := u.AtVec(i)-mu, v.AtVec(i)-mv
		uv += a * b
		uu += a * a
		vv += b * b
	}
	return 1 - math.Abs(uv)/math.Sqrt(uu*vv)
}

func TestLinProjDeterministic(t *testing.T) {
	x := lpFeatures(80, 5, 7)
	g := lpGraph(t, x)
	set := lpPairs(80, 60, 25, 8)
	for _, m := range []Method{CPCA{}, CLPP{}} {
		var first *Result
		for rep := 0; rep < 2; rep++ {
			res, err := Run(context.Background(), m, &Problem{Features: x, Graph: g, K: 3, Constraints: set}, &Settings{Seed: 42})
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = res
				continue
			}
			for i := range res.Labels {
				if res.Labels[i] != first.Labels[i] {
					t.Fatalf("%s: same seed gave different labels at node %d", m.Name(), i)
				}
			}
			if !mat.Equal(res.Embedding, first.Embedding) || res.Objective != first.Objective {
				t.Errorf("%s: same seed gave a different embedding or objective", m.Name())
			}
		}
	}
}

func TestLinProjBadInput(t *testing.T) {
	x := lpFeatures(20, 3, 1)
	g := lpGraph(t, x)
	constant := mat.NewDense(20, 3, nil)
	for i := 0; i < 20; i++ {
		constant.SetRow(i, []float64{1, 2, 3})
	}
	for _, tc := range []struct {
		name string
		m    Method
		p    *Problem
		want string
	}{
		{"cpca graph only", CPCA{}, &Problem{Graph: g, K: 2}, "Features is nil"},
		{"clpp graph only", CLPP{}, &Problem{Graph: g, K: 2}, "Features is nil"},
		{"clpp features only", CLPP{}, &Problem{Features: x, K: 2}, "no graph"},
		{"cpca constant features", CPCA{}, &Problem{Features: constant, K: 2}, "every feature is constant"},
		{"clpp constant features", CLPP{}, &Problem{Features: constant, Graph: g, K: 2}, "every feature is constant"},
		{"cpca d = 0", CPCA{}, &Problem{Features: &mat.Dense{}, K: 2}, "no nodes"},
		{"clpp d = 0", CLPP{}, &Problem{Features: &mat.Dense{}, Graph: g, K: 2}, "0 feature rows"},
		{"cpca Dim above d", CPCA{Dim: 4}, &Problem{Features: x, K: 2}, "Dim = 4 exceeds the 3 features"},
		{"clpp Dim above d", CLPP{Dim: 9}, &Problem{Features: x, Graph: g, K: 2}, "Dim = 9 exceeds"},
		{"cpca Variance above 1", CPCA{Variance: 1.5}, &Problem{Features: x, K: 2}, "Variance = 1.5"},
		{"clpp negative Dim", CLPP{Dim: -1}, &Problem{Features: x, Graph: g, K: 2}, "Dim = -1"},
		{"cpca NaN feature", CPCA{}, &Problem{Features: mat.NewDense(2, 1, []float64{1, math.NaN()}), K: 2}, "want a finite value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(context.Background(), tc.m, tc.p, nil)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrInvalid with %q", err, tc.want)
			}
		})
	}
	// Partition called directly (bypassing Run) on a 0-column matrix.
	for _, m := range []Method{CPCA{}, CLPP{}} {
		if _, err := m.Partition(context.Background(), &Problem{Features: &mat.Dense{}, Graph: g, K: 2}, &Settings{}); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: 0×0 features: %v", m.Name(), err)
		}
	}
}

// Partial labels are used as their pairs, like the other pairwise methods.
func TestLinProjLabelsArePairs(t *testing.T) {
	x := lpFeatures(30, 4, 5)
	g := lpGraph(t, x)
	labels := make(constraint.Labels, 30)
	for i := range labels {
		labels[i] = constraint.Unlabeled
	}
	labels[0], labels[1], labels[2], labels[3] = 0, 0, 1, 1
	for _, m := range []Method{CPCA{Dim: 2}, CLPP{Dim: 2}} {
		a, err := Run(context.Background(), m, &Problem{Features: x, Graph: g, K: 2, Labels: labels}, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Run(context.Background(), m, &Problem{Features: x, Graph: g, K: 2, Constraints: constraint.FromLabels(labels)}, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(a.Embedding, b.Embedding) {
			t.Errorf("%s: labels and their pairs give different projections", m.Name())
		}
	}
}

// TestCPCAFullRankWarns: when cPCA keeps all d dimensions (2-D moons,
// where the 95% rule needs both, or Dim = d) its projection is a rotation,
// and the partition is the same with no pairs, 60 correct pairs or the
// same pairs all flipped (up to the clusters' numbering); the Result warns so when pairs are given, and
// not when m < d (Dim = 1). cLPP's full-rank projection whitens by XᵀD̄X,
// which the constraints enter, so its partition can move (an elongated
// cloud whose heavy pairs sit on a strip: ARI < 0.5 against no pairs),
// and it gives no such warning.
func TestCPCAFullRankWarns(t *testing.T) {
	ctx := context.Background()
	x, truth, err := synth.Moons(200, 0.12, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	good, err := constraint.UniformPairs(truth, 60, rand.NewPCG(5, 6))
	if err != nil {
		t.Fatal(err)
	}
	bad, _, err := constraint.FlipPairs(good, 1, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	const warned = "cpca: the projection keeps all d = 2 dimensions"
	for _, m := range []CPCA{{}, {Dim: 2}} {
		var ref []int
		for _, set := range []*constraint.Set{nil, good, bad} {
			res, err := Run(ctx, m, &Problem{K: 2, Features: x, Constraints: set}, &Settings{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if _, c := res.Embedding.Dims(); c != 2 {
				t.Fatalf("%+v: m = %d, want 2 (fixture changed)", m, c)
			}
			if ref == nil {
				ref = res.Labels
			} else if ari, _ := metrics.ARI(ref, res.Labels); ari < 1-1e-12 {
				t.Errorf("%+v: the pairs changed the partition of a full-rank projection (ARI %.4f)", m, ari)
			}
			if got := strings.Contains(strings.Join(res.Warnings, "\n"), warned); got != (set != nil) {
				t.Errorf("%+v, pairs %v: full-rank warning %v, want %v (%q)", m, set != nil, got, set != nil, res.Warnings)
			}
		}
	}
	res, err := Run(ctx, CPCA{Dim: 1}, &Problem{K: 2, Features: x, Constraints: good}, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(res.Warnings, "\n"); strings.Contains(w, "keeps all d") {
		t.Errorf("Dim = 1: full-rank warning %q", w)
	}

	// cLPP: an elongated cloud; heavy pairs among the nodes of the strip
	// |x₁| < 0.7, must-linked on the same side of x₂ = 0.
	rng := rand.New(rand.NewPCG(1, 2))
	n := 200
	xe := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		xe.Set(i, 0, 2*rng.NormFloat64())
		xe.Set(i, 1, 1.6*rng.NormFloat64())
	}
	g, err := graph.Build(ctx, xe, graph.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	var strip []int
	for i := 0; i < n; i++ {
		if math.Abs(xe.At(i, 0)) < 0.7 {
			strip = append(strip, i)
		}
	}
	var pairs []constraint.Pair
	for a, i := range strip {
		for _, j := range strip[a+1:] {
			kind := constraint.MustLink
			if (xe.At(i, 1) > 0) != (xe.At(j, 1) > 0) {
				kind = constraint.CannotLink
			}
			pairs = append(pairs, constraint.Pair{I: i, J: j, Kind: kind, Weight: 5})
		}
	}
	var labels [2][]int
	for t2, set := range []*constraint.Set{nil, {N: n, Pairs: pairs}} {
		res, err := Run(ctx, CLPP{}, &Problem{Graph: g, K: 2, Features: xe, Constraints: set}, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if _, c := res.Embedding.Dims(); c != 2 {
			t.Fatalf("clpp: m = %d, want 2 (fixture changed)", c)
		}
		if w := strings.Join(res.Warnings, "\n"); strings.Contains(w, "keeps all d") {
			t.Errorf("clpp: full-rank warning %q", w)
		}
		labels[t2] = res.Labels
	}
	if ari, _ := metrics.ARI(labels[0], labels[1]); ari > 0.5 {
		t.Errorf("clpp: ARI %.3f between no pairs and the strip's pairs: the full-rank cLPP no longer moves (then warn for it too)", ari)
	}
}
