package cluster

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// denseSupervised builds, from the thesis formulas and independently of
// supervisedOp, the dense matrix
//
//	sign·D^{-1/2}(W + γ Σ_j Y_j)D^{-1/2} + shift·I − deflate·2uuᵀ,
//
// with Y_j = D^{1/2} v_j v_jᵀ D^{1/2} formed entrywise as √d_a v_j(a) v_j(b) √d_b.
func denseSupervised(g *graph.Graph, vs [][]float64, gamma, sign, shift float64, deflate bool) *mat.Dense {
	n := g.N()
	w := g.Dense()
	d := g.Degrees()
	vol := g.Volume()
	m := mat.NewDense(n, n, nil)
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			wy := w.At(a, b)
			for _, v := range vs {
				wy += gamma * math.Sqrt(d[a]) * v[a] * v[b] * math.Sqrt(d[b])
			}
			x := sign * wy / math.Sqrt(d[a]*d[b])
			if a == b {
				x += shift
			}
			if deflate {
				x -= 2 * math.Sqrt(d[a]*d[b]) / vol // 2uuᵀ, u = D^{1/2}1/√vol
			}
			m.Set(a, b, x)
		}
	}
	return m
}

// eq324 returns v of seed 000 eq. 3.2.4 written out in the test from the
// volumes, for the labelled sets a1, a2.
func eq324(g *graph.Graph, a1, a2 []int) []float64 {
	vol := func(s []int) float64 {
		var t float64
		for _, i := range s {
			t += g.Degree(i)
		}
		return t
	}
	v1, v2 := vol(a1), vol(a2)
	v := make([]float64, g.N())
	for _, i := range a1 {
		v[i] = math.Sqrt(g.Degree(i)/(v1+v2)) * math.Sqrt(v2/v1)
	}
	for _, i := range a2 {
		v[i] = -math.Sqrt(g.Degree(i)/(v1+v2)) * math.Sqrt(v1/v2)
	}
	return v
}

func randomBlock(n, p int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 5))
	x := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	return x
}

// TestSupervisedOperatorsMatchDense compares the operators of Alg. 6/7
// (deflated, rank-one) and of eq. 3.2.7 (Mavroeidis k-way) with dense
// matrices built from the thesis formulas, on random blocks.
func TestSupervisedOperatorsMatchDense(t *testing.T) {
	for _, n := range []int{3, 10, 41} {
		g := roRandomGraph(t, n, 0.2, uint64(n))
		na, err := graph.NewNormalizedAdjacency(g)
		if err != nil {
			t.Fatal(err)
		}
		// Labelled sets: class 0 = first third (at least one), class 1 = last node.
		a1 := []int{0}
		for i := 1; i < n/3; i++ {
			a1 = append(a1, i)
		}
		a2 := []int{n - 1}
		const gamma = 1.25
		x := randomBlock(n, 3, uint64(n))
		got := mat.NewDense(n, 3, nil)
		var want mat.Dense

		v := eq324(g, a1, a2)
		deflatedOp(na, sqrtDegreeUnit(g), twoClassVector(g, a1, a2), gamma).MulTo(got, x)
		want.Mul(denseSupervised(g, [][]float64{v}, gamma, 1, 1, true), x)
		if d := maxAbsDiff(got, &want); d > 1e-12 {
			t.Errorf("n=%d: deflated operator differs from dense by %g", n, d)
		}

		// Mavroeidis k-way: I − D^{-1/2}(W + γ Σ_j Y_j)D^{-1/2}, v_j of eq. 3.2.6.
		vj := func(a []int) []float64 {
			var vol float64
			for _, i := range a {
				vol += g.Degree(i)
			}
			v := make([]float64, n)
			for _, i := range a {
				v[i] = math.Sqrt(g.Degree(i) / vol)
			}
			return v
		}
		op := &supervisedOp{na: na, sign: -1, shift: 1, vecs: [][]float64{classVector(g, a1), classVector(g, a2)}, coef: []float64{-gamma, -gamma}}
		op.MulTo(got, x)
		want.Mul(denseSupervised(g, [][]float64{vj(a1), vj(a2)}, gamma, -1, 1, false), x)
		if d := maxAbsDiff(got, &want); d > 1e-12 {
			t.Errorf("n=%d: Mavroeidis k-way operator differs from dense by %g", n, d)
		}
	}
}

// TestSupervisionDegrees checks the degree conditions of seed 000 §3.2–3.3:
// the MAVRO and NOA-SSC vectors (eq. 3.2.4, eq. 3.3.2 with its typos
// resolved) have unit norm and give Y = D^{1/2} v vᵀ D^{1/2} with zero row
// sums, so W + γY has the degrees of W; the k-way vectors of eq. 3.2.6 do
// not (row i of Σ_j Y_j sums to d_i on labelled nodes), as the thesis says.
func TestSupervisionDegrees(t *testing.T) {
	g, truth := roBlobs(t, 120, 4, 0.8, 3)
	labels := roLabels(t, truth, 0.15, 4)
	p := &Problem{Graph: g, K: 4, Labels: labels}
	members, err := labelledClasses("test", p)
	if err != nil {
		t.Fatal(err)
	}
	d := g.Degrees()
	rowSums := func(v []float64) []float64 {
		// (Y 1)_a = Σ_b √d_a v_a v_b √d_b, computed entrywise.
		out := make([]float64, len(v))
		for a := range v {
			for b := range v {
				out[a] += math.Sqrt(d[a]) * v[a] * v[b] * math.Sqrt(d[b])
			}
		}
		return out
	}
	for c := 0; c < 4; c++ {
		v := oneAgainstAll(g, members, c)
		// Independent form of eq. 3.3.2 (resolved): A₁ = ℓ_c, A₂ = ℓ \ ℓ_c.
		var rest []int
		for j, m := range members {
			if j != c {
				rest = append(rest, m...)
			}
		}
		want := eq324(g, members[c], rest)
		for i := range v {
			if math.Abs(v[i]-want[i]) > 1e-15 {
				t.Fatalf("class %d: v[%d] = %v, eq. 3.3.2 gives %v", c, i, v[i], want[i])
			}
		}
		if nrm := math.Sqrt(dotVec(v, v)); math.Abs(nrm-1) > 1e-12 {
			t.Errorf("class %d: ‖v_c‖ = %v, want 1", c, nrm)
		}
		for a, s := range rowSums(v) {
			if math.Abs(s) > 1e-12*d[a] {
				t.Fatalf("class %d: row %d of Y_c sums to %g, want 0", c, a, s)
			}
		}
	}
	// Eq. 3.2.6: row sums of Σ_j Y_j are d_i on labelled nodes, 0 elsewhere.
	sum := make([]float64, g.N())
	for _, m := range members {
		for a, s := range rowSums(classVector(g, m)) {
			sum[a] += s
		}
	}
	for a, s := range sum {
		want := 0.0
		if labels[a] != constraint.Unlabeled {
			want = d[a]
		}
		if math.Abs(s-want) > 1e-12*d[a] {
			t.Fatalf("k-way: row %d of Y sums to %v, want %v", a, s, want)
		}
	}
}

// TestPowerMethodMatchesDense: the power method on the deflated MAVRO
// operator converges to the eigenvector of the largest eigenvalue of the
// dense matrix (gonum EigenSym), with the same eigenvalue.
func TestPowerMethodMatchesDense(t *testing.T) {
	cases := []struct {
		name  string
		g     *graph.Graph
		truth []int
	}{}
	g1, t1 := roMoons(t, 150, 21)
	cases = append(cases, struct {
		name  string
		g     *graph.Graph
		truth []int
	}{"moons", g1, t1})
	g2, t2 := roBlobs(t, 160, 2, 1.2, 22)
	cases = append(cases, struct {
		name  string
		g     *graph.Graph
		truth []int
	}{"overlapping blobs", g2, t2})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			labels := roLabels(t, c.truth, 0.1, 5)
			members, err := labelledClasses("test", &Problem{Graph: c.g, K: 2, Labels: labels})
			if err != nil {
				t.Fatal(err)
			}
			na, _ := graph.NewNormalizedAdjacency(c.g)
			u := sqrtDegreeUnit(c.g)
			v := twoClassVector(c.g, members[0], members[1])
			s := (&Settings{Seed: 3}).orDefault()
			vecs, vals0, warns, err := dominantVectors(context.Background(), na, u, [][]float64{v}, defaultGamma, false, 1e-12, 100000, s, streamPower)
			if err != nil || len(warns) > 0 {
				t.Fatal(err, warns)
			}
			vec, val := mat.Col(nil, 0, vecs), vals0[0]
			dense := denseSupervised(c.g, [][]float64{eq324(c.g, members[0], members[1])}, defaultGamma, 1, 1, true)
			n := c.g.N()
			sym := mat.NewSymDense(n, nil)
			for a := 0; a < n; a++ {
				for b := a; b < n; b++ {
					sym.SetSym(a, b, 0.5*(dense.At(a, b)+dense.At(b, a)))
				}
			}
			var es mat.EigenSym
			if !es.Factorize(sym, true) {
				t.Fatal("EigenSym failed")
			}
			vals := es.Values(nil)
			var dvecs mat.Dense
			es.VectorsTo(&dvecs)
			top := dvecs.ColView(n - 1)
			if math.Abs(val-vals[n-1]) > 1e-10 {
				t.Errorf("eigenvalue %v, dense %v", val, vals[n-1])
			}
			if vals[0] < -1e-10 {
				t.Errorf("smallest eigenvalue %v < 0: the deflated operator should be PSD", vals[0])
			}
			var dot float64
			for i := 0; i < n; i++ {
				dot += vec[i] * top.AtVec(i)
			}
			// Tolerance: residual 1e-12 over a gap ≥ 1e-3 gives a sine
			// below 1e-9; we ask for 1e-8.
			if 1-math.Abs(dot) > 1e-8 {
				t.Errorf("|cos| between power and dense vectors = %v (gap %v)", math.Abs(dot), vals[n-1]-vals[n-2])
			}
		})
	}
}

// TestMAVROEqualsNOASSCForTwoClusters: the thesis states (§3.4) that MAVRO
// and NOA-SSC give the same partition for k = 2; checked on several graphs
// and label draws (ARI exactly 1).
func TestMAVROEqualsNOASSCForTwoClusters(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		for _, name := range []string{"moons", "blobs"} {
			var g *graph.Graph
			var truth []int
			if name == "moons" {
				g, truth = roMoons(t, 300, seed)
			} else {
				g, truth = roBlobs(t, 300, 2, 1.5, seed)
			}
			p := &Problem{Graph: g, K: 2, Labels: roLabels(t, truth, 0.1, seed)}
			s := &Settings{Seed: seed}
			a, err := Run(context.Background(), MAVRO{}, p, s)
			if err != nil {
				t.Fatal(err)
			}
			// Even seeds: NOA-SSC's vector from the eigensolver (dense for
			// n ≤ 400), independent of MAVRO's power method.
			b, err := Run(context.Background(), NOASSC{Eigensolver: seed%2 == 0}, p, s)
			if err != nil {
				t.Fatal(err)
			}
			if ari, _ := metrics.ARI(a.Labels, b.Labels); ari != 1 {
				t.Errorf("%s seed %d: ARI(MAVRO, NOA-SSC) = %v, want 1", name, seed, ari)
			}
			if math.Abs(a.Eigenvalues[0]-b.Eigenvalues[0]) > 1e-7 {
				t.Errorf("%s seed %d: eigenvalues %v and %v", name, seed, a.Eigenvalues[0], b.Eigenvalues[0])
			}
		}
	}
}

func TestMAVROErrorsAndSolverChoice(t *testing.T) {
	g, truth := roMoons(t, 100, 2)
	labels := roLabels(t, truth, 0.1, 2)
	if _, err := Run(context.Background(), (MAVRO{}), &Problem{Graph: g, K: 3, Labels: labels}, nil); err == nil || !contains(err.Error(), "k = 2 only") {
		t.Errorf("k = 3: error %v", err)
	}
	if _, err := Run(context.Background(), (MAVRO{Gamma: -1}), &Problem{Graph: g, K: 2, Labels: labels}, nil); err == nil {
		t.Error("negative gamma accepted")
	}
	iso, _ := graph.FromEdges(3, []graph.Edge{{I: 0, J: 1, W: 1}})
	if _, err := Run(context.Background(), (MAVRO{Strict: true}), &Problem{Graph: iso, K: 2, Labels: constraint.Labels{0, 1, -1}}, nil); err == nil || !contains(err.Error(), "degree 0") {
		t.Errorf("isolated node: error %v", err)
	}
	// Power method and Lanczos agree.
	p := &Problem{Graph: g, K: 2, Labels: labels}
	a, err := Run(context.Background(), MAVRO{}, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(context.Background(), MAVRO{Eigensolver: true}, p, &Settings{Eigen: eigen.Lanczos{}})
	if err != nil {
		t.Fatal(err)
	}
	if !equalInts(a.Labels, b.Labels) || math.Abs(a.Eigenvalues[0]-b.Eigenvalues[0]) > 1e-7 {
		t.Errorf("power method and Lanczos differ: λ %v vs %v", a.Eigenvalues, b.Eigenvalues)
	}
	// A power method cut short falls back to the eigensolver with a warning.
	c, err := Run(context.Background(), MAVRO{MaxIter: 1}, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) == 0 || !equalInts(a.Labels, c.Labels) {
		t.Errorf("fallback: warnings %v, same labels %v", c.Warnings, equalInts(a.Labels, c.Labels))
	}
}

// TestMavroK checks the k-way variant: eigenvalues are the smallest of the
// dense matrix of eq. 3.2.7 (gonum EigenSym), and blobs are recovered.
func TestMavroK(t *testing.T) {
	g, truth := roBlobs(t, 200, 3, 0.5, 6)
	labels := roLabels(t, truth, 0.1, 6)
	res, err := Run(context.Background(), MavroK{}, &Problem{Graph: g, K: 3, Labels: labels}, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	members, _ := labelledClasses("test", &Problem{Graph: g, K: 3, Labels: labels})
	var vs [][]float64
	for _, m := range members {
		vs = append(vs, classVector(g, m))
	}
	dense := denseSupervised(g, vs, defaultGamma, -1, 1, false)
	n := g.N()
	sym := mat.NewSymDense(n, nil)
	for a := 0; a < n; a++ {
		for b := a; b < n; b++ {
			sym.SetSym(a, b, 0.5*(dense.At(a, b)+dense.At(b, a)))
		}
	}
	var es mat.EigenSym
	es.Factorize(sym, false)
	vals := es.Values(nil)
	for j := 0; j < 3; j++ {
		if math.Abs(res.Eigenvalues[j]-vals[j]) > 1e-8 {
			t.Errorf("eigenvalue %d: %v, dense %v", j, res.Eigenvalues[j], vals[j])
		}
	}
	if vals[0] < -defaultGamma-1e-9 {
		t.Errorf("smallest eigenvalue %v below −γ", vals[0])
	}
	if ari, _ := metrics.ARI(truth, res.Labels); ari < 0.9 {
		t.Errorf("ARI %v < 0.9 on separated blobs", ari)
	}
}

// TestPowerBlockMatchesDense: the block power method with one column per
// class (NOA-SSC, k = 3) gives, for every class, the top eigenpair of that
// class's dense deflated matrix (gonum EigenSym), as the single-column runs
// would.
func TestPowerBlockMatchesDense(t *testing.T) {
	g, truth := roBlobs(t, 90, 3, 1.0, 31)
	labels := roLabels(t, truth, 0.15, 31)
	members, err := labelledClasses("test", &Problem{Graph: g, K: 3, Labels: labels})
	if err != nil {
		t.Fatal(err)
	}
	na, _ := graph.NewNormalizedAdjacency(g)
	u := sqrtDegreeUnit(g)
	var vs [][]float64
	for c := 0; c < 3; c++ {
		vs = append(vs, oneAgainstAll(g, members, c))
	}
	s := (&Settings{Seed: 4}).orDefault()
	vecs, vals, warns, err := dominantVectors(context.Background(), na, u, vs, defaultGamma, false, 1e-12, 100000, s, streamPower)
	if err != nil || len(warns) > 0 {
		t.Fatal(err, warns)
	}
	n := g.N()
	for c := 0; c < 3; c++ {
		var rest []int
		for j, m := range members {
			if j != c {
				rest = append(rest, m...)
			}
		}
		dense := denseSupervised(g, [][]float64{eq324(g, members[c], rest)}, defaultGamma, 1, 1, true)
		sym := mat.NewSymDense(n, nil)
		for a := 0; a < n; a++ {
			for b := a; b < n; b++ {
				sym.SetSym(a, b, 0.5*(dense.At(a, b)+dense.At(b, a)))
			}
		}
		var es mat.EigenSym
		es.Factorize(sym, true)
		dv := es.Values(nil)
		var ev mat.Dense
		es.VectorsTo(&ev)
		if math.Abs(vals[c]-dv[n-1]) > 1e-10 {
			t.Errorf("class %d: eigenvalue %v, dense %v", c, vals[c], dv[n-1])
		}
		var dot float64
		for i := 0; i < n; i++ {
			dot += vecs.At(i, c) * ev.At(i, n-1)
		}
		if 1-math.Abs(dot) > 1e-8 {
			t.Errorf("class %d: |cos| = %v (gap %v)", c, math.Abs(dot), dv[n-1]-dv[n-2])
		}
	}
}
