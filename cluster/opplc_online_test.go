package cluster

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tether-sc/tether/pitmanyor"
)

// densePairs is PairFeatures held in slices.
type densePairs struct {
	pair [][][]float64 // pair[i][j], j < i
	node [][]float64
}

func (d *densePairs) Len() int                { return len(d.node) }
func (d *densePairs) Pair(i, j int) []float64 { return d.pair[i][j] }
func (d *densePairs) Node(i int) []float64    { return d.node[i] }

// toyPairs is a document whose entities come from CRP(1, 0.3), with
// x_ij = (same entity + noise·N(0,1), 1, 0) and x_i = (0, 0, 1).
func toyPairs(t testing.TB, n int, noise float64, seed uint64) (*densePairs, []int) {
	t.Helper()
	truth, err := pitmanyor.CRP{Alpha: 1, Theta: 0.3}.Sample(n, rand.NewPCG(seed, 1))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 2))
	d := &densePairs{pair: make([][][]float64, n), node: make([][]float64, n)}
	for i := range n {
		d.node[i] = []float64{0, 0, 1}
		d.pair[i] = make([][]float64, i)
		for j := range i {
			s := 0.0
			if truth[i] == truth[j] {
				s = 1
			}
			d.pair[i][j] = []float64{s + noise*rng.NormFloat64(), 1, 0}
		}
	}
	return d, truth
}

// TestOPPLCOnlineLearns: online passes over toy documents make fewer
// mistakes as they go, every update that was not clamped reaches the
// margin 1 it asks for, as Learn reports it (MinMargin, computed from
// the coefficients of opplcConstraint; TestOPPLCOnlineLearnMargin checks
// it against the margin written from the definitions), and the learned
// model partitions held-out documents well.
func TestOPPLCOnlineLearns(t *testing.T) {
	m := NewOPPLCOnline(3)
	var first, last int
	for epoch := range 4 {
		total := OPPLCUpdates{}
		for doc := range 10 {
			x, truth := toyPairs(t, 40, 0.2, uint64(doc))
			up, err := m.Learn(context.Background(), x, nil, truth)
			if err != nil {
				t.Fatal(err)
			}
			if up.MinMargin < 1-1e-6 {
				t.Errorf("epoch %d doc %d: an update reached margin %v < 1", epoch, doc, up.MinMargin)
			}
			total.WrongAssignment += up.WrongAssignment
			total.BadCreation += up.BadCreation
			total.BadAssignment += up.BadAssignment
		}
		if epoch == 0 {
			first = total.Mistakes()
		}
		last = total.Mistakes()
		t.Logf("epoch %d: %+v; w = %.3g, α = %.3g, θ = %.3g", epoch, total, m.W, m.Alpha, m.Theta)
	}
	if last >= first {
		t.Errorf("mistakes: first pass %d, last %d", first, last)
	}
	var ari float64
	for doc := 100; doc < 110; doc++ {
		x, truth := toyPairs(t, 40, 0.2, uint64(doc))
		pred, err := m.Predict(context.Background(), x, nil)
		if err != nil {
			t.Fatal(err)
		}
		ari += pairARI(truth, pred) / 10
	}
	if ari < 0.8 {
		t.Errorf("held-out ARI %v", ari)
	}
}

// opplcMargin is h(u) of a Learn update written from the thesis's scores
// (§5.3.2), f(i ∼ j) = w·x_ij(1 − θ/n_j) and f(i) = w·x_i(α + kθ):
// f(i ∼ j) − f(i ∼ ĵ) for a wrong assignment (eq. 5.3.1), f(i ∼ j) − f(i)
// for a bad creation and f(i) − f(i ∼ ĵ) for a bad assignment (eq. 5.3.2
// and 5.3.3 with the signs the text asks for: the right decision wins).
func opplcMargin(kind opplcMistake, w []float64, theta, alpha float64, xs, xh, xi []float64, ns, nh, k float64) float64 {
	join := func(x []float64, n float64) float64 { return dot(w, x) * (1 - theta/n) }
	create := dot(w, xi) * (alpha + k*theta)
	switch kind {
	case opplcWrongAssignment:
		return join(xs, ns) - join(xh, nh)
	case opplcBadCreation:
		return join(xs, ns) - create
	}
	return create - join(xh, nh)
}

// TestOPPLCOnlineUpdateCases builds each of the three update problems on
// random features. The coefficients a, b, cc that Learn uses
// (opplcConstraint) must be those of g(u) = 1 − h(u) with h written from
// the definitions of f(i ∼ j) and f(i) (opplcMargin): h is bilinear in w
// and (θ, α), so its coefficients are read off exactly from its values at
// w = e_t and (θ, α) ∈ {0, 1}². It then checks, against a brute force over
// rays in (w, θ, α) space for d = 1 (qcqpBrute) and by the optimality
// certificate for d = 4, that the update is the nearest point with margin
// h = 1 (evaluated from the definitions), and that a wrong assignment
// (eq. 5.3.1) leaves α unchanged. Copying Learn's coefficients into the
// test, as it did, let a swap of n_j and n_ĵ in eq. 5.3.1 pass.
func TestOPPLCOnlineUpdateCases(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 4))
	for trial := 0; trial < 90; trial++ {
		d := 1
		if trial%3 == 2 {
			d = 4
		}
		vec := func() []float64 {
			v := make([]float64, d)
			for i := range v {
				v[i] = rng.NormFloat64()
			}
			return v
		}
		xs, xh, xi := vec(), vec(), vec()
		ns, nh, k := float64(1+rng.IntN(5)), float64(1+rng.IntN(5)), float64(1+rng.IntN(8))
		for nh == ns {
			nh = float64(1 + rng.IntN(5))
		}
		kind := opplcMistake(trial % 3)
		h := func(w []float64, theta, alpha float64) float64 {
			return opplcMargin(kind, w, theta, alpha, xs, xh, xi, ns, nh, k)
		}
		a, b, cc := opplcConstraint(kind, xs, xh, xi, ns, nh, k)
		zero := make([]float64, d)
		for s := 0; s < d; s++ {
			e := make([]float64, d)
			e[s] = 1
			// −h(e_s, θ, α) = θ a_s + α b_s + cc_s (h(0, ·, ·) = 0).
			wantCC := -h(e, 0, 0)
			wantA := -h(e, 1, 0) - wantCC
			wantB := -h(e, 0, 1) - wantCC
			if h(zero, 1, 1) != 0 || math.Abs(a[s]-wantA) > 1e-12 || math.Abs(b[s]-wantB) > 1e-12 || math.Abs(cc[s]-wantCC) > 1e-12 {
				t.Fatalf("case %d, coordinate %d: a, b, cc = %v, %v, %v; from f(i ∼ j) and f(i): %v, %v, %v", kind, s, a[s], b[s], cc[s], wantA, wantB, wantCC)
			}
		}
		m := &OPPLCOnline{W: vec(), Alpha: 0.5 + rng.Float64(), Theta: 0.5 * rng.Float64()}
		u0 := append(append([]float64(nil), m.W...), m.Theta, m.Alpha)
		A, beta, c0 := opplcQuadratic(a, b, cc)
		// The matrix form is the margin: g(u) = 1 − h(u).
		g0 := qcqpG(A, beta, c0, u0)
		h0 := h(m.W, m.Theta, m.Alpha)
		if math.Abs(g0-(1-h0)) > 1e-12 {
			t.Fatalf("g = %v, 1 − h = %v", g0, 1-h0)
		}
		if g0 <= 0 {
			continue
		}
		u, l, err := nearestQuadratic(u0, A, beta, c0)
		if err != nil {
			t.Fatal(err)
		}
		qcqpCertify(t, "update", A, beta, c0, u0, u, l)
		if got := h(u[:d], u[d], u[d+1]); math.Abs(got-1) > 1e-8 {
			t.Errorf("case %d: the update reaches h = %v, want 1", kind, got)
		}
		if kind == opplcWrongAssignment && math.Abs(u[d+1]-u0[d+1]) > 1e-12 {
			t.Errorf("wrong assignment changed α: %v → %v", u0[d+1], u[d+1])
		}
		if d == 1 {
			var f float64
			for i := range u {
				f += (u[i] - u0[i]) * (u[i] - u0[i])
			}
			if bf := qcqpBrute(A, beta, c0, u0, 150); f > bf*(1+1e-9)+1e-12 || bf > f*(1+2e-3)+1e-9 {
				t.Errorf("case %d: ‖u − u₀‖² = %v, brute force %v", kind, f, bf)
			}
		}
	}
}

// TestOPPLCOnlineLearnMargin runs Learn on five-node documents built so
// that its only mistake is at the last node, one of each kind, with the
// right and the chosen clusters of different sizes (n_j ≠ n_ĵ), and checks
// the model Learn returns against the definitions of f(i ∼ j) and f(i)
// (opplcMargin) at that node: the right decision wins by exactly 1, the
// margin Learn reports (MinMargin, which it computes from the
// coefficients of opplcConstraint) is that one, and the change of
// u = (w, θ, α) is along ∇h(u) (the optimality condition
// of min ‖u − u_t‖² s.t. h(u) ≥ 1, ∇h by central differences, exact for
// a bilinear h up to rounding). Features: x_ij = (s_ij, t_ij, 0) with the
// values below, x_i = (0, 0, 1); start w = (1, 0, 1), α = 0.5, θ = 0.1, so
// that nodes 1 and 2 join node 0 (0.9 > 0.6, 0.95 > 0.6) and node 3 starts
// a cluster (0 < 0.6), as their labels say; at node 4, k = 2, f(4) = 0.7,
// f(4 ∼ cluster {0,1,2}) = s·(1 − 0.1/3). t_ij, unseen by w = (1, 0, 1),
// lets the update go through w rather than push θ out of [0, 1) (then it
// is clamped and the margin is not reached). A swap of n_j and n_ĵ in
// eq. 5.3.1's coefficients fails the wrong-assignment case.
func TestOPPLCOnlineLearnMargin(t *testing.T) {
	for _, tc := range []struct {
		name  string
		kind  opplcMistake
		truth []int
		s4    [4]float64 // s_4j, j = 0…3
		t4    [4]float64 // t_4j
		js    int        // right antecedent (−1: none)
		jh    int        // chosen ĵ (−1: none)
		ns    float64
		nh    float64
	}{
		// 0.9667 > f(4 ∼ 3) = 0.8·0.9 = 0.72 and > 0.7: linked to 2
		// (ties to the largest j), belongs with 3 (n_j = 1, n_ĵ = 3).
		{"wrong assignment", opplcWrongAssignment, []int{0, 0, 0, 1, 1}, [4]float64{1, 1, 1, 0.8}, [4]float64{0, 0, 0, 10}, 3, 2, 1, 3},
		// 0.5·0.9667 < 0.7: starts a cluster, belongs with 2 (n_j = 3).
		{"bad creation", opplcBadCreation, []int{0, 0, 0, 1, 0}, [4]float64{0.5, 0.5, 0.5, 0}, [4]float64{0, 0, 10, 0}, 2, -1, 3, 0},
		// Linked to 2, starts an entity (n_ĵ = 3).
		{"bad assignment", opplcBadAssignment, []int{0, 0, 0, 1, 2}, [4]float64{1, 1, 1, 0}, [4]float64{}, -1, 2, 0, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sim := [][]float64{{}, {1}, {1, 1}, {0, 0, 0}, tc.s4[:]}
			x := &densePairs{pair: make([][][]float64, 5), node: make([][]float64, 5)}
			for i := range x.node {
				x.node[i] = []float64{0, 0, 1}
				x.pair[i] = make([][]float64, i)
				for j := range i {
					x.pair[i][j] = []float64{sim[i][j], 0, 0}
					if i == 4 {
						x.pair[i][j][1] = tc.t4[j]
					}
				}
			}
			m := &OPPLCOnline{W: []float64{1, 0, 1}, Alpha: 0.5, Theta: 0.1}
			u0 := []float64{1, 0, 1, 0.1, 0.5}
			up, err := m.Learn(context.Background(), x, nil, tc.truth)
			if err != nil {
				t.Fatal(err)
			}
			counts := [3]int{up.WrongAssignment, up.BadCreation, up.BadAssignment}
			if up.Correct != 3 || up.Mistakes() != 1 || counts[tc.kind] != 1 || up.Clamped+up.Skipped != 0 {
				t.Fatalf("updates %+v, want 3 correct and one %s", up, tc.name)
			}
			var xs, xh []float64
			if tc.js >= 0 {
				xs = x.pair[4][tc.js]
			}
			if tc.jh >= 0 {
				xh = x.pair[4][tc.jh]
			}
			h := func(u []float64) float64 {
				return opplcMargin(tc.kind, u[:3], u[3], u[4], xs, xh, x.node[4], tc.ns, tc.nh, 2)
			}
			if h0 := h(u0); h0 >= 1 {
				t.Fatalf("h = %v before the update: no mistake to correct", h0)
			}
			u := []float64{m.W[0], m.W[1], m.W[2], m.Theta, m.Alpha}
			got := h(u)
			if math.Abs(got-1) > 1e-9 {
				t.Errorf("after Learn h = %.12f at node 4, want 1 (w = %v, θ = %v, α = %v)", got, m.W, m.Theta, m.Alpha)
			}
			if math.Abs(up.MinMargin-got) > 1e-9 {
				t.Errorf("Learn reports the margin %.12f, the definitions give %.12f", up.MinMargin, got)
			}
			grad := make([]float64, 5)
			for s := range grad {
				up, dn := append([]float64(nil), u...), append([]float64(nil), u...)
				up[s] += 1e-6
				dn[s] -= 1e-6
				grad[s] = (h(up) - h(dn)) / 2e-6
			}
			// u − u₀ = τ∇h with τ > 0.
			var du, dd, gg float64
			for s := range grad {
				du += (u[s] - u0[s]) * grad[s]
				gg += grad[s] * grad[s]
			}
			tau := du / gg
			for s := range grad {
				r := u[s] - u0[s] - tau*grad[s]
				dd += r * r
			}
			if !(tau > 0) || math.Sqrt(dd) > 1e-7 {
				t.Errorf("u − u₀ = %v is not a positive multiple of ∇h = %v (τ = %v, residual %g)", sub(u, u0), grad, tau, math.Sqrt(dd))
			}
		})
	}
}

// sub returns x − y.
func sub(x, y []float64) []float64 {
	out := make([]float64, len(x))
	for i := range x {
		out[i] = x[i] - y[i]
	}
	return out
}

// pairARI is the adjusted Rand index by counting pairs, O(n²).
func pairARI(truth, pred []int) float64 {
	n := len(truth)
	pairs := func(f func(i, j int) bool) float64 {
		s := 0.0
		for i := 0; i < n; i++ {
			for j := 0; j < i; j++ {
				if f(i, j) {
					s++
				}
			}
		}
		return s
	}
	a := pairs(func(i, j int) bool { return truth[i] == truth[j] })
	b := pairs(func(i, j int) bool { return pred[i] == pred[j] })
	both := pairs(func(i, j int) bool { return truth[i] == truth[j] && pred[i] == pred[j] })
	all := float64(n*(n-1)) / 2
	exp := a * b / all
	return (both - exp) / ((a+b)/2 - exp)
}

// TestOPPLCOnlineRefusesBadParameters: Predict and Learn refuse
// parameters out of range with an error wrapping ErrInvalid that names
// them. Before, a NaN or infinite weight in W (an exported field) made
// every score NaN, so Predict put every node in a cluster of its own with
// a nil error.
func TestOPPLCOnlineRefusesBadParameters(t *testing.T) {
	x, truth := toyPairs(t, 12, 0.1, 3)
	for _, tc := range []struct {
		name string
		set  func(m *OPPLCOnline)
		want string
	}{
		{"NaN weight", func(m *OPPLCOnline) { m.W[1] = math.NaN() }, "W[1] = NaN"},
		{"infinite weight", func(m *OPPLCOnline) { m.W[0] = math.Inf(-1) }, "W[0] = -Inf"},
		{"θ = 1", func(m *OPPLCOnline) { m.Theta = 1 }, "θ = 1"},
		{"no weights", func(m *OPPLCOnline) { m.W = nil }, "empty weight vector"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := NewOPPLCOnline(3)
			m.W = []float64{1, -0.5, 0.2}
			tc.set(m)
			if l, err := m.Predict(context.Background(), x, nil); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Predict: labels %v, error %v, want ErrInvalid saying %q", l, err, tc.want)
			}
			if _, err := m.Learn(context.Background(), x, nil, truth); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Learn: error %v, want ErrInvalid saying %q", err, tc.want)
			}
		})
	}
}

// TestOPPLCOnlineRefusesBadFeatures: a feature vector with a NaN or an
// infinity, or of another length than W, is an error naming the pair or
// node (a NaN made every node a cluster of its own in Predict and an
// ErrNumerical from the QCQP in Learn; a wrong length panicked).
func TestOPPLCOnlineRefusesBadFeatures(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(x *densePairs)
		want string
	}{
		{"NaN pair feature", func(x *densePairs) { x.pair[5][2] = []float64{math.NaN(), 1, 0} }, "x_5,2 (the features of pair (5, 2))[0] = NaN"},
		{"infinite node feature", func(x *densePairs) { x.node[4] = []float64{0, 0, math.Inf(1)} }, "x_4 (node 4's features)[2] = +Inf"},
		{"short pair features", func(x *densePairs) { x.pair[3][1] = []float64{1, 1} }, "x_3,1 (the features of pair (3, 1)) has 2 entries, W has 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, truth := toyPairs(t, 12, 0.1, 3)
			tc.set(x)
			m := NewOPPLCOnline(3)
			m.W = []float64{1, -0.5, 0.2}
			if l, err := m.Predict(context.Background(), x, nil); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Predict: labels %v, error %v, want ErrInvalid saying %q", l, err, tc.want)
			}
			if _, err := m.Learn(context.Background(), x, nil, truth); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Learn: error %v, want ErrInvalid saying %q", err, tc.want)
			}
		})
	}
}
