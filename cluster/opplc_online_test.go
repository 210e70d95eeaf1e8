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
// margin 1 it asks for, and the learned model partitions held-out
// documents well.
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

// TestOPPLCOnlineUpdateCases builds each of the three update problems on
// random features and checks, against a brute force over rays in (w, θ, α)
// space for d = 1 (qcqpBrute) and by the optimality certificate for d = 4,
// that the update is the nearest point with margin 1, and that a wrong
// assignment (eq. 5.3.1) leaves α unchanged.
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
		a, b, cc := make([]float64, d), make([]float64, d), make([]float64, d)
		kind := trial % 3
		for t := range a {
			switch kind {
			case 0: // wrong assignment
				a[t], cc[t] = xs[t]/ns-xh[t]/nh, xh[t]-xs[t]
			case 1: // bad creation
				a[t], b[t], cc[t] = xs[t]/ns+k*xi[t], xi[t], -xs[t]
			default: // bad assignment
				a[t], b[t], cc[t] = -(k*xi[t] + xh[t]/nh), -xi[t], xh[t]
			}
		}
		m := &OPPLCOnline{W: vec(), Alpha: 0.5 + rng.Float64(), Theta: 0.5 * rng.Float64()}
		u0 := append(append([]float64(nil), m.W...), m.Theta, m.Alpha)
		A, beta, c0 := opplcQuadratic(a, b, cc)
		// The matrix form is the margin: g(u) = 1 − h(u).
		g0 := qcqpG(A, beta, c0, u0)
		h0 := -(m.Theta*dot(m.W, a) + m.Alpha*dot(m.W, b) + dot(m.W, cc))
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
		if kind == 0 && math.Abs(u[d+1]-u0[d+1]) > 1e-12 {
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
