package cluster

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/eigen"
)

// coBlocks returns an r×c nonnegative matrix with k diagonal blocks of
// weight about 3 and background noise of about 0.3, about a third of
// the background entries zero, and no empty row or column.
func coBlocks(r, c, k int, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 17))
	a := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if i*k/r == j*k/c {
				a.Set(i, j, 2+2*rnd.Float64())
			} else if rnd.Float64() < 0.65 {
				a.Set(i, j, 0.6*rnd.Float64())
			}
		}
	}
	return a
}

// dhillon computes Dhillon's co-clustering embedding independently: the
// dense SVD of Aₙ = D₁^{-1/2} A D₂^{-1/2} (gonum), Z = [D₁^{-1/2}U; D₂^{-1/2}V]
// with singular vectors 2…ℓ+1, and σ₂…σ_{ℓ+1}.
func dhillon(t *testing.T, a *mat.Dense, ell int) (*mat.Dense, []float64) {
	t.Helper()
	r, c := a.Dims()
	d1, d2 := make([]float64, r), make([]float64, c)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			d1[i] += a.At(i, j)
			d2[j] += a.At(i, j)
		}
	}
	an := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			an.Set(i, j, a.At(i, j)/math.Sqrt(d1[i]*d2[j]))
		}
	}
	var svd mat.SVD
	if !svd.Factorize(an, mat.SVDThin) {
		t.Fatal("SVD failed")
	}
	var u, v mat.Dense
	svd.UTo(&u)
	svd.VTo(&v)
	sv := svd.Values(nil)
	if math.Abs(sv[0]-1) > 1e-12 {
		t.Fatalf("σ₁ = %v, want 1", sv[0])
	}
	z := mat.NewDense(r+c, ell, nil)
	for l := 0; l < ell; l++ {
		for i := 0; i < r; i++ {
			z.Set(i, l, u.At(i, l+1)/math.Sqrt(d1[i]))
		}
		for j := 0; j < c; j++ {
			z.Set(r+j, l, v.At(j, l+1)/math.Sqrt(d2[j]))
		}
	}
	return z, sv[1 : ell+1]
}

// sameUpToSign reports the largest difference between the columns of x and
// ±y.
func sameUpToSign(x, y *mat.Dense) float64 {
	n, m := x.Dims()
	worst := 0.0
	for l := 0; l < m; l++ {
		dp, dm := 0.0, 0.0
		for i := 0; i < n; i++ {
			dp = math.Max(dp, math.Abs(x.At(i, l)-y.At(i, l)))
			dm = math.Max(dm, math.Abs(x.At(i, l)+y.At(i, l)))
		}
		worst = math.Max(worst, math.Min(dp, dm))
	}
	return worst
}

func toSparse(a *mat.Dense) *dataset.Sparse {
	r, c := a.Dims()
	s := &dataset.Sparse{Rows: r, Cols: c, Ptr: make([]int, r+1)}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if v := a.At(i, j); v != 0 {
				s.Idx = append(s.Idx, int32(j))
				s.Val = append(s.Val, v)
			}
		}
		s.Ptr[i+1] = len(s.Idx)
	}
	return s
}

// Without constraints the embedding, the singular values and the
// partition equal Dhillon's SVD formulation computed with gonum's dense
// SVD, with k-means run on the independent Z with the same seed; for the
// dense and the Lanczos solver, and for dense and sparse input.
func TestCoClusterEqualsDhillonSVD(t *testing.T) {
	for _, tc := range []struct {
		r, c, k, ell int
		solver       eigen.Solver
		sparse       bool
	}{
		{9, 14, 2, 1, nil, false},
		{12, 10, 3, 2, nil, false},
		{16, 21, 4, 2, eigen.Lanczos{}, false},
		{16, 21, 4, 3, nil, true},
		{30, 25, 3, 0, eigen.Lanczos{}, true},
	} {
		a := coBlocks(tc.r, tc.c, tc.k, uint64(tc.r*tc.c))
		var in mat.Matrix = a
		if tc.sparse {
			in = toSparse(a)
		}
		s := &Settings{Seed: 7, Eigen: tc.solver, EigenSettings: &eigen.Settings{Tol: 1e-12}}
		res, err := Run(context.Background(), CoCluster{Vectors: tc.ell}, &Problem{Bipartite: in, K: tc.k}, s)
		if err != nil {
			t.Fatalf("%+v: %v", tc, err)
		}
		ell := tc.ell
		if ell == 0 {
			ell = int(math.Ceil(math.Log2(float64(tc.k))))
		}
		z, sv := dhillon(t, a, ell)
		if d := sameUpToSign(res.Embedding, z); d > 1e-8 {
			t.Errorf("%dx%d k=%d ℓ=%d: embedding differs from Dhillon's Z by %g", tc.r, tc.c, tc.k, ell, d)
		}
		for l, v := range sv {
			if math.Abs(res.Eigenvalues[l]-v) > 1e-10 {
				t.Errorf("%dx%d: eigenvalue %d = %v, σ_%d = %v", tc.r, tc.c, l, res.Eigenvalues[l], l+2, v)
			}
		}
		// k-means with the same seed on the independent Z: the signs of Z's
		// columns do not change k-means++ or Lloyd, so the labels agree.
		want, err := partition(context.Background(), z, tc.k, s.derive(streamCoCluster), 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		if a := ariOf(want.Labels, res.Labels); a < 1-1e-12 {
			t.Errorf("%dx%d k=%d: partition differs from k-means on Dhillon's Z (ARI %v)", tc.r, tc.c, tc.k, a)
		}
		if len(res.Labels) != tc.r+tc.c {
			t.Errorf("%d labels, want rows + cols = %d", len(res.Labels), tc.r+tc.c)
		}
		// The blocks are found: rows and columns of block b share a label.
		truth := make([]int, tc.r+tc.c)
		for i := 0; i < tc.r; i++ {
			truth[i] = i * tc.k / tc.r
		}
		for j := 0; j < tc.c; j++ {
			truth[tc.r+j] = j * tc.k / tc.c
		}
		if a := ariOf(truth, res.Labels); a < 1-1e-12 {
			t.Errorf("%dx%d k=%d: ARI %v against the blocks", tc.r, tc.c, tc.k, a)
		}
	}
}

// ariOf is the adjusted Rand index of two labelings (1 when they are the
// same partition).
func ariOf(a, b []int) float64 {
	m := map[[2]int]int{}
	ra, rb := map[int]int{}, map[int]int{}
	for i := range a {
		m[[2]int{a[i], b[i]}]++
		ra[a[i]]++
		rb[b[i]]++
	}
	c2 := func(x int) float64 { return float64(x) * float64(x-1) / 2 }
	var s, sa, sb float64
	for _, v := range m {
		s += c2(v)
	}
	for _, v := range ra {
		sa += c2(v)
	}
	for _, v := range rb {
		sb += c2(v)
	}
	e := sa * sb / c2(len(a))
	if sa+sb == 2*e {
		return 1
	}
	return (s - e) / ((sa+sb)/2 - e)
}

// coAmbiguous is two blocks of 4 documents on 5 words each, and document 8
// which uses both vocabularies, slightly more the first.
func coAmbiguous() *mat.Dense {
	a := coBlocks(8, 10, 2, 3)
	b := mat.NewDense(9, 10, nil)
	b.Slice(0, 8, 0, 10).(*mat.Dense).Copy(a)
	for j := 0; j < 10; j++ {
		v := 1.0
		if j < 5 {
			v = 1.3
		}
		b.Set(8, j, v)
	}
	return b
}

// Constraints on documents move the ambiguous document 8: unconstrained it
// joins the first block; a must-link to document 4 and a cannot-link to
// document 0 move it to the second; must-links alone (Pairs = must-link)
// as well, with the cannot-link ignored and warned about.
func TestCoClusterConstraintsMoveDocuments(t *testing.T) {
	a := coAmbiguous()
	ctx := context.Background()
	s := &Settings{Seed: 3}
	free, err := Run(ctx, CoCluster{}, &Problem{Bipartite: a, K: 2}, s)
	if err != nil {
		t.Fatal(err)
	}
	if free.Labels[8] != free.Labels[0] || free.Labels[8] == free.Labels[4] {
		t.Fatalf("unconstrained: document 8 in %d, documents 0 and 4 in %d and %d; want it with 0", free.Labels[8], free.Labels[0], free.Labels[4])
	}
	cons := &constraint.Set{N: 19, Pairs: []constraint.Pair{{I: 8, J: 4, Kind: constraint.MustLink}, {I: 8, J: 0, Kind: constraint.CannotLink}}}
	for _, m := range []CoCluster{{}, {Gamma: 0.5}, {Pairs: CoMustLink}} {
		res, err := Run(ctx, m, &Problem{Bipartite: a, K: 2, Constraints: cons}, s)
		if err != nil {
			t.Fatal(err)
		}
		if res.Labels[8] != res.Labels[4] || res.Labels[8] == res.Labels[0] {
			t.Errorf("%+v: document 8 in %d, documents 0 and 4 in %d and %d; want it with 4", m, res.Labels[8], res.Labels[0], res.Labels[4])
		}
		// The rest of the co-clustering is unchanged: documents and words
		// of each block together.
		for i := 0; i < 18; i++ {
			if i == 8 {
				continue
			}
			if (res.Labels[i] == res.Labels[0]) != (free.Labels[i] == free.Labels[0]) {
				t.Errorf("%+v: node %d changed side", m, i)
			}
		}
		warned := strings.Contains(strings.Join(res.Warnings, "\n"), "ignores the 1 cannot-link")
		if warned != (m.Pairs == CoMustLink) {
			t.Errorf("%+v: warnings %q", m, res.Warnings)
		}
	}
	// A cannot-link alone also moves it (must-link mode cannot).
	cl := &constraint.Set{N: 19, Pairs: []constraint.Pair{{I: 8, J: 0, Kind: constraint.CannotLink}, {I: 8, J: 1, Kind: constraint.CannotLink}}}
	res, err := Run(ctx, CoCluster{}, &Problem{Bipartite: a, K: 2, Constraints: cl}, s)
	if err != nil {
		t.Fatal(err)
	}
	if res.Labels[8] == res.Labels[0] {
		t.Errorf("cannot-links to documents 0 and 1 left document 8 with them")
	}
	// Partial labels work as pairs.
	labels := make(constraint.Labels, 19)
	for i := range labels {
		labels[i] = constraint.Unlabeled
	}
	labels[0], labels[4], labels[8] = 0, 1, 1
	res, err = Run(ctx, CoCluster{}, &Problem{Bipartite: a, K: 2, Labels: labels}, s)
	if err != nil {
		t.Fatal(err)
	}
	if res.Labels[8] != res.Labels[4] {
		t.Errorf("labels: document 8 not with document 4")
	}
}

func TestCoClusterBadInput(t *testing.T) {
	ctx := context.Background()
	good := coBlocks(6, 8, 2, 1)
	neg := mat.DenseCopyOf(good)
	neg.Set(2, 3, -0.5)
	emptyRow := mat.DenseCopyOf(good)
	emptyRow.SetRow(4, make([]float64, 8))
	emptyCol := mat.DenseCopyOf(good)
	emptyCol.SetCol(5, make([]float64, 6))
	negSparse := toSparse(good)
	negSparse.Val[3] = -1
	for _, tc := range []struct {
		name string
		m    mat.Matrix
		k    int
		cc   CoCluster
		want string
	}{
		{"negative", neg, 2, CoCluster{}, "entry (2, 3) = -0.5"},
		{"negative sparse", negSparse, 2, CoCluster{}, "= -1, want finite"},
		{"NaN", func() *mat.Dense { m := mat.DenseCopyOf(good); m.Set(0, 0, math.NaN()); return m }(), 2, CoCluster{}, "NaN"},
		{"empty row", emptyRow, 2, CoCluster{}, "row 4 has degree 0"},
		{"empty column", emptyCol, 2, CoCluster{}, "column 5 has degree 0"},
		{"all zero", mat.NewDense(3, 4, nil), 2, CoCluster{}, "all zero"},
		{"too many vectors", good, 2, CoCluster{Vectors: 6}, "ℓ = 6"},
		{"gamma", good, 2, CoCluster{Gamma: -1}, "Gamma = -1"},
		{"mode", good, 2, CoCluster{Pairs: 7}, "unknown pairs mode"},
	} {
		_, err := Run(ctx, tc.cc, &Problem{Bipartite: tc.m, K: tc.k}, nil)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want ErrInvalid with %q", tc.name, err, tc.want)
		}
		if strings.Contains(err.Error(), "overflowed") {
			t.Errorf("%s: error %v speaks of an overflow", tc.name, err)
		}
		// Partition's own checks, without Run's.
		if tc.name == "negative" || tc.name == "negative sparse" {
			if _, err := (CoCluster{}).Partition(ctx, &Problem{Bipartite: tc.m, K: 2}, &Settings{}); !errors.Is(err, ErrInvalid) {
				t.Errorf("%s: Partition error %v", tc.name, err)
			}
		}
	}
	if _, err := Run(ctx, CoCluster{}, &Problem{K: 2}, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("no matrix: %v", err)
	}
	res, err := Run(ctx, CoCluster{}, &Problem{Bipartite: good, K: 1}, nil)
	if err != nil || len(res.Labels) != 14 || res.K != 1 {
		t.Errorf("k = 1: %v, %+v", err, res)
	}
}

func TestCoClusterDeterministic(t *testing.T) {
	a := toSparse(coBlocks(40, 60, 3, 5))
	labels := make(constraint.Labels, 100)
	for i := range labels {
		labels[i] = constraint.Unlabeled
	}
	labels[0], labels[15], labels[30] = 0, 1, 2
	p := &Problem{Bipartite: a, K: 3, Labels: labels}
	var first *Result
	for run := 0; run < 2; run++ {
		res, err := Run(context.Background(), CoCluster{}, p, &Settings{Seed: 11, Eigen: eigen.Lanczos{}})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = res
			continue
		}
		if !mat.Equal(first.Embedding, res.Embedding) {
			t.Error("same seed gave different embeddings")
		}
		for i := range res.Labels {
			if res.Labels[i] != first.Labels[i] {
				t.Fatalf("same seed gave different labels at node %d", i)
			}
		}
	}
}

// The operator equals P(S − γQ)P − shift·qqᵀ formed densely, with
// −ρQ = D^{-1/2}(C − D̄_C)D^{-1/2} entry by entry.
func TestCoClusterOperatorDense(t *testing.T) {
	a := coBlocks(5, 7, 2, 9)
	b, err := newBipartite(a)
	if err != nil {
		t.Fatal(err)
	}
	pairs := []constraint.Pair{{I: 0, J: 3, Kind: constraint.MustLink, Weight: 2}, {I: 1, J: 4, Kind: constraint.CannotLink}, {I: 2, J: 6, Kind: constraint.MustLink}}
	op := b.operator(pairs, 0.7, CoSigned)
	n := 12
	deg := make([]float64, n)
	for a := range deg {
		deg[a] = b.degree(a)
	}
	m := mat.NewDense(n, n, nil)
	for i := 0; i < 5; i++ {
		for j := 0; j < 7; j++ {
			v := a.At(i, j) / math.Sqrt(deg[i]*deg[5+j])
			m.Set(i, 5+j, v)
			m.Set(5+j, i, v)
		}
	}
	c := mat.NewDense(n, n, nil)
	for _, p := range pairs {
		v := p.W() / math.Sqrt(deg[p.I]*deg[p.J])
		if p.Kind == constraint.CannotLink {
			v = -v
		}
		c.Set(p.I, p.J, v)
		c.Set(p.J, p.I, v)
	}
	// The diagonal of −D^{-1/2}D̄_C D^{-1/2}: −Σ_b |c_ab|/d_a.
	dc := make([]float64, n)
	for _, p := range pairs {
		dc[p.I] += p.W() / deg[p.I]
		dc[p.J] += p.W() / deg[p.J]
	}
	rho := 0.0
	for i := 0; i < n; i++ {
		c.Set(i, i, -dc[i])
		s := 0.0
		for j := 0; j < n; j++ {
			s += math.Abs(c.At(i, j))
		}
		rho = math.Max(rho, s)
	}
	c.Scale(0.7/rho, c)
	m.Add(m, c)
	q, proj := coTrivialProjector(deg)
	var want mat.Dense
	want.Product(proj, m, proj)
	var qq mat.Dense
	qq.Outer(-(2 + 0.7), q, q)
	want.Add(&want, &qq)
	x := mat.NewDense(n, 3, nil)
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < n; i++ {
		for j := 0; j < 3; j++ {
			x.Set(i, j, rnd.NormFloat64())
		}
	}
	got := mat.NewDense(n, 3, nil)
	op.MulTo(got, x)
	var wx mat.Dense
	wx.Mul(&want, x)
	if !mat.EqualApprox(got, &wx, 1e-12) {
		t.Errorf("operator differs from the dense P(S − γQ)P − shift·qqᵀ")
	}
}

// A row or column whose finite entries sum past the largest float64 has
// an infinite degree: that is an overflow, reported with ErrNumerical and
// the advice to rescale, not ErrInvalid's "drop empty rows" (which the
// error said before). 1e308 + 1e308 = +Inf in float64.
func TestCoClusterDegreeOverflow(t *testing.T) {
	bigRow := coBlocks(6, 8, 2, 1) // rows 0–2 × columns 0–3 and rows 3–5 × columns 4–7
	bigRow.Set(1, 0, 1e308)
	bigRow.Set(1, 1, 1e308)
	bigCol := coBlocks(6, 8, 2, 1)
	bigCol.Set(0, 2, 1e308)
	bigCol.Set(2, 2, 1e308)
	for _, tc := range []struct {
		name string
		m    mat.Matrix
		want string
	}{
		{"row", bigRow, "row 1's degree (the sum of its entries) overflowed to +Inf"},
		{"row sparse", toSparse(bigRow), "row 1's degree (the sum of its entries) overflowed to +Inf"},
		{"column", bigCol, "column 2's degree (the sum of its entries) overflowed to +Inf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(context.Background(), CoCluster{}, &Problem{Bipartite: tc.m, K: 2}, nil)
			if !errors.Is(err, ErrNumerical) || errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v, want one wrapping ErrNumerical, not ErrInvalid", err)
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.want) || !strings.Contains(msg, "divide the matrix by its largest entry") || strings.Contains(msg, "drop empty") {
				t.Errorf("error %q, want %q and the advice to rescale", msg, tc.want)
			}
		})
	}
}

// eq36 computes the constrained embedding of seed 001 eq. 3.6
// independently of the operator: with W = [0 A; Aᵀ 0], D = diag(W1),
// L = D − W, and L_C = D̄_C − C the Laplacian of the constraint graph
// (c_ab = +w for a must-link, −w for a cannot-link, D̄_C = diag(Σ_b |c_ab|)),
// it forms N = D^{-1/2}(L + δL_C)D^{-1/2} densely with δ = γ/ρ, ρ the
// largest absolute row sum of D^{-1/2}L_C D^{-1/2}, restricts it to the
// complement of q = D^{1/2}1/‖D^{1/2}1‖ (xᵀD1 = 0) by P N P + 10·qqᵀ, and
// returns Z = √2·D^{-1/2}Y for its ℓ smallest eigenvectors Y (gonum's
// mat.EigenSym), their eigenvalues μ, and μ_{ℓ+1}.
func eq36(t *testing.T, a *mat.Dense, pairs []constraint.Pair, gamma float64, ell int) (*mat.Dense, []float64, float64) {
	t.Helper()
	r, c := a.Dims()
	n := r + c
	w := mat.NewSymDense(n, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			w.SetSym(i, r+j, a.At(i, j))
		}
	}
	deg := make([]float64, n)
	for u := 0; u < n; u++ {
		for v := 0; v < n; v++ {
			deg[u] += w.At(u, v)
		}
	}
	lap := mat.NewSymDense(n, nil) // L = D − W
	for u := 0; u < n; u++ {
		for v := u; v < n; v++ {
			x := -w.At(u, v)
			if u == v {
				x += deg[u]
			}
			lap.SetSym(u, v, x)
		}
	}
	lc := mat.NewSymDense(n, nil) // L_C = D̄_C − C
	for _, p := range pairs {
		c := p.W()
		if p.Kind == constraint.CannotLink {
			c = -c
		}
		lc.SetSym(p.I, p.J, lc.At(p.I, p.J)-c)
		lc.SetSym(p.I, p.I, lc.At(p.I, p.I)+math.Abs(c))
		lc.SetSym(p.J, p.J, lc.At(p.J, p.J)+math.Abs(c))
	}
	norm := func(m *mat.SymDense) *mat.SymDense { // D^{-1/2} m D^{-1/2}
		out := mat.NewSymDense(n, nil)
		for u := 0; u < n; u++ {
			for v := u; v < n; v++ {
				out.SetSym(u, v, m.At(u, v)/math.Sqrt(deg[u]*deg[v]))
			}
		}
		return out
	}
	nl, nc := norm(lap), norm(lc)
	rho := 0.0
	for u := 0; u < n; u++ {
		s := 0.0
		for v := 0; v < n; v++ {
			s += math.Abs(nc.At(u, v))
		}
		rho = math.Max(rho, s)
	}
	h := mat.NewSymDense(n, nil)
	h.AddSym(nl, h)
	if rho > 0 {
		// CoCluster's doc: Q = D^{-1/2}L_C D^{-1/2}/ρ has 0 ⪯ Q ⪯ I.
		nc.ScaleSym(1/rho, nc)
		var qe mat.EigenSym
		if !qe.Factorize(nc, false) {
			t.Fatal("EigenSym of Q failed")
		}
		if v := qe.Values(nil); v[0] < -1e-12 || v[n-1] > 1+1e-12 {
			t.Errorf("eigenvalues of Q in [%g, %g], want within [0, 1]", v[0], v[n-1])
		}
		nc.ScaleSym(gamma, nc)
		h.AddSym(h, nc)
	}
	q, proj := coTrivialProjector(deg)
	var phq mat.Dense
	phq.Product(proj, h, proj)
	var big mat.Dense
	big.Outer(10, q, q)
	phq.Add(&phq, &big)
	hp := mat.NewSymDense(n, nil)
	for u := 0; u < n; u++ {
		for v := u; v < n; v++ {
			hp.SetSym(u, v, (phq.At(u, v)+phq.At(v, u))/2)
		}
	}
	var es mat.EigenSym
	if !es.Factorize(hp, true) {
		t.Fatal("EigenSym failed")
	}
	mu := es.Values(nil) // ascending
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	z := mat.NewDense(n, ell, nil)
	for l := 0; l < ell; l++ {
		for u := 0; u < n; u++ {
			z.Set(u, l, math.Sqrt(2/deg[u])*vecs.At(u, l))
		}
	}
	return z, mu[:ell], mu[ell]
}

// CoCluster follows seed 001 eq. 3.6, min xᵀLx + δ·xᵀL_C x with L_C the
// Laplacian of the must-link graph (Pairs = must-link; signed for
// cannot-links otherwise), in the normalized form of its unconstrained
// case: the embedding, eigenvalues (1 − μ) and labels equal those of the
// dense eq. 3.6 matrix built by eq36 from the formula, for the dense and
// the Lanczos solver. The operator before the fix (S + γD^{-1/2}CD^{-1/2}/ρ
// without the −D̄_C term, ρ of C alone) fails every case: |cos| 0.82–0.999
// at γ ≤ 0.7, 0.013 at γ = 2.
func TestCoClusterEq36Dense(t *testing.T) {
	ml := func(i, j int, w float64) constraint.Pair {
		return constraint.Pair{I: i, J: j, Kind: constraint.MustLink, Weight: w}
	}
	cl := func(i, j int) constraint.Pair { return constraint.Pair{I: i, J: j, Kind: constraint.CannotLink} }
	// Must-links across the blocks of 30×40 (rows 0–14 and 15–29 for k =
	// 2), within them, from a row to a column, and one cannot-link.
	pairs := []constraint.Pair{ml(2, 20, 1), ml(3, 17, 2), ml(4, 5, 1), ml(20, 21, 1), ml(7, 30+35, 0.5), ml(9, 25, 1), cl(0, 1)}
	for _, tc := range []struct {
		name  string
		k     int
		mode  CoPairs
		gamma float64
		eig   eigen.Solver
	}{
		{"must-link k=2 dense", 2, CoMustLink, 0.3, nil},
		{"must-link k=2 γ=2 lanczos", 2, CoMustLink, 2, eigen.Lanczos{}},
		{"must-link k=3 dense", 3, CoMustLink, 0.7, nil},
		{"signed k=2 dense", 2, CoSigned, 0.5, nil},
		{"signed k=3 lanczos", 3, CoSigned, 0.5, eigen.Lanczos{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := coBlocks(30, 40, tc.k, 31)
			cons := &constraint.Set{N: 70, Pairs: pairs}
			s := &Settings{Seed: 5, Eigen: tc.eig, EigenSettings: &eigen.Settings{Tol: 1e-12}}
			res, err := Run(context.Background(), CoCluster{Gamma: tc.gamma, Pairs: tc.mode}, &Problem{Bipartite: a, K: tc.k, Constraints: cons}, s)
			if err != nil {
				t.Fatal(err)
			}
			used := pairs
			if tc.mode == CoMustLink {
				used = pairs[:len(pairs)-1]
			}
			ell := res.Embedding.RawMatrix().Cols
			z, mu, next := eq36(t, a, used, tc.gamma, ell)
			for l, m := range append(mu[1:], next) {
				if gap := m - mu[l]; gap < 1e-3 {
					t.Fatalf("eigengap μ_%d − μ_%d = %g too small to compare vectors", l+2, l+1, gap)
				}
			}
			for l := 0; l < ell; l++ {
				if got, want := res.Eigenvalues[l], 1-mu[l]; math.Abs(got-want) > 1e-10 {
					t.Errorf("eigenvalue %d = %.12f, want 1 − μ = %.12f", l, got, want)
				}
				// |cos| of the columns in the D-inner product, which is the
				// Euclidean one of Y = D^{1/2}Z/√2.
				var dot, nx, ny float64
				for u := 0; u < 70; u++ {
					d := 0.0
					if u < 30 {
						d = mat.Sum(a.RowView(u))
					} else {
						d = mat.Sum(a.ColView(u - 30))
					}
					x, y := res.Embedding.At(u, l), z.At(u, l)
					dot += d * x * y
					nx += d * x * x
					ny += d * y * y
				}
				if c := math.Abs(dot) / math.Sqrt(nx*ny); c < 1-1e-9 {
					t.Errorf("vector %d: |cos| = %.12f with the dense eq. 3.6 vector, want ≥ 1 − 1e-9", l, c)
				}
			}
			want, err := partition(context.Background(), z, tc.k, s.derive(streamCoCluster), 10, nil)
			if err != nil {
				t.Fatal(err)
			}
			if x := ariOf(want.Labels, res.Labels); x < 1-1e-12 {
				t.Errorf("labels differ from k-means on the dense eq. 3.6 embedding (ARI %v)", x)
			}
		})
	}
}

// coTrivialProjector returns the trivial vector q = D^{1/2}1/‖D^{1/2}1‖ of
// the degrees deg and the projector I − qqᵀ onto its complement, dense:
// the references of the operator tests.
func coTrivialProjector(deg []float64) (*mat.VecDense, *mat.Dense) {
	n := len(deg)
	q := mat.NewVecDense(n, nil)
	vol := 0.0
	for _, d := range deg {
		vol += d
	}
	for u := range deg {
		q.SetVec(u, math.Sqrt(deg[u]/vol))
	}
	proj := mat.NewDense(n, n, nil)
	proj.Outer(-1, q, q)
	for u := 0; u < n; u++ {
		proj.Set(u, u, proj.At(u, u)+1)
	}
	return q, proj
}

// TestCoClusterDefaults checks the resolved pairs mode and γ of every
// combination, and that a default run is the explicit one it resolves to:
// signed pairs with γ = 0.3 at k = 2, must-links only with γ = 0.1 at
// k ≥ 3, which says so in its own warning, not the explicit mode's.
func TestCoClusterDefaults(t *testing.T) {
	for _, tc := range []struct {
		c     CoCluster
		k     int
		mode  CoPairs
		gamma float64
	}{
		{CoCluster{}, 2, CoSigned, 0.3},
		{CoCluster{}, 3, CoMustLink, 0.1},
		{CoCluster{}, 5, CoMustLink, 0.1},
		{CoCluster{Gamma: 2}, 3, CoMustLink, 2},
		{CoCluster{Pairs: CoSigned}, 3, CoSigned, 0.3},
		{CoCluster{Pairs: CoMustLink}, 2, CoMustLink, 0.3},
		{CoCluster{Pairs: CoMustLink}, 4, CoMustLink, 0.1},
		{CoCluster{Pairs: CoSigned, Gamma: 0.05}, 2, CoSigned, 0.05},
	} {
		mode, gamma := CoClusterDefaults(tc.c, tc.k)
		if mode != tc.mode || gamma != tc.gamma {
			t.Errorf("CoClusterDefaults(%+v, %d) = %v, %g; want %v, %g", tc.c, tc.k, mode, gamma, tc.mode, tc.gamma)
		}
	}
	ml := func(i, j int) constraint.Pair { return constraint.Pair{I: i, J: j, Kind: constraint.MustLink} }
	cl := func(i, j int) constraint.Pair { return constraint.Pair{I: i, J: j, Kind: constraint.CannotLink} }
	pairs := []constraint.Pair{ml(2, 20), ml(3, 17), ml(4, 5), cl(0, 1), cl(0, 25)}
	for _, tc := range []struct {
		k        int
		explicit CoCluster
		note     bool
	}{
		{2, CoCluster{Pairs: CoSigned, Gamma: 0.3}, false},
		{3, CoCluster{Pairs: CoMustLink, Gamma: 0.1}, true},
	} {
		a := coBlocks(30, 40, tc.k, 31)
		p := &Problem{Bipartite: a, K: tc.k, Constraints: &constraint.Set{N: 70, Pairs: pairs}}
		def, err := Run(context.Background(), CoCluster{}, p, &Settings{Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		exp, err := Run(context.Background(), tc.explicit, p, &Settings{Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(def.Labels, exp.Labels) || !mat.Equal(def.Embedding, exp.Embedding) {
			t.Errorf("k = %d: the default run differs from %+v", tc.k, tc.explicit)
		}
		warnings := strings.Join(def.Warnings, "\n")
		if got := strings.Contains(warnings, "the 2 cannot-links are left out"); got != tc.note {
			t.Errorf("k = %d: warnings %q, want the left-out warning: %v", tc.k, def.Warnings, tc.note)
		}
		if strings.Contains(warnings, "Pairs = must-link ignores") {
			t.Errorf("k = %d: the default warns as an explicit must-link mode: %q", tc.k, def.Warnings)
		}
	}
}
