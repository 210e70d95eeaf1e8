package cluster

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// naiveOPPLC is Alg. 17 written from the thesis text with no shortcut, in
// O(n²) per node: a dense W, the cluster of every earlier node found by
// scanning the labels, the cannot-link test "no cannot-link between i and
// any node in the cluster containing j" checked against every member, and
// the product Π_{j<i}(1 − W_ij) multiplied out directly. Ties go to the
// largest j; f(i ∼ ĵ) must exceed f(i) strictly.
func naiveOPPLC(w [][]float64, cl [][]bool, alpha, theta float64) []int {
	n := len(w)
	labels := make([]int, n)
	k := 1
	for i := 1; i < n; i++ {
		best, bestJ := 0.0, -1
		none := 1.0
		for j := 0; j < i; j++ {
			none *= 1 - w[i][j]
			size, ok := 0, true
			for m := 0; m < i; m++ {
				if labels[m] == labels[j] {
					size++
					if cl[i][m] {
						ok = false
					}
				}
			}
			if !ok {
				continue
			}
			if f := w[i][j] * (1 - theta/float64(size)); f > 0 && f >= best {
				best, bestJ = f, j
			}
		}
		if bestJ >= 0 && best > none*(alpha+float64(k)*theta) {
			labels[i] = labels[bestJ]
		} else {
			labels[i] = k
			k++
		}
	}
	return labels
}

// opplcInstance is a random dense instance: W_ij uniform in [0,1) with a
// fraction of zeros, and cannot-links drawn with probability pCL.
func opplcInstance(t testing.TB, n int, zeros, pCL float64, rng *rand.Rand) (*graph.Graph, [][]float64, *constraint.Set, [][]bool) {
	t.Helper()
	w := make([][]float64, n)
	cl := make([][]bool, n)
	for i := range w {
		w[i] = make([]float64, n)
		cl[i] = make([]bool, n)
	}
	sym := mat.NewSymDense(max(n, 1), nil)
	set := &constraint.Set{N: n}
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			v := 0.0
			if rng.Float64() >= zeros {
				v = rng.Float64()
			}
			w[i][j], w[j][i] = v, v
			sym.SetSym(i, j, v)
			if rng.Float64() < pCL {
				cl[i][j], cl[j][i] = true, true
				set.Pairs = append(set.Pairs, constraint.Pair{I: j, J: i, Kind: constraint.CannotLink})
			}
		}
	}
	g, err := graph.FromDense(sym)
	if err != nil {
		t.Fatal(err)
	}
	return g, w, set, cl
}

// TestOPPLCMatchesNaive compares OPPLC with naiveOPPLC, written
// independently from the thesis text, on random dense instances over a
// size ladder and a range of (α, θ), with and without cannot-links: the
// partitions must be identical.
func TestOPPLCMatchesNaive(t *testing.T) {
	params := []struct{ alpha, theta float64 }{{0, 0.1}, {1, 0.5}, {-0.3, 0.4}, {5, 0}, {0.2, 0.9}, {1e-3, 0.001}}
	for _, n := range []int{1, 2, 3, 5, 10, 70} {
		for seed := uint64(0); seed < 8; seed++ {
			rng := rand.New(rand.NewPCG(seed, uint64(n)))
			for _, zeros := range []float64{0, 0.5, 0.9} {
				for _, pCL := range []float64{0, 0.1} {
					g, w, set, cl := opplcInstance(t, n, zeros, pCL, rng)
					for _, pa := range params {
						m := OPPLC{Alpha: pa.alpha, Theta: pa.theta}
						res, err := Run(context.Background(), m, &Problem{Graph: g, Constraints: set}, nil)
						if err != nil {
							t.Fatal(err)
						}
						want := naiveOPPLC(w, cl, pa.alpha, pa.theta)
						if !slices.Equal(res.Labels, want) {
							t.Fatalf("n=%d seed=%d zeros=%g pCL=%g α=%g θ=%g:\n got %v\nwant %v", n, seed, zeros, pCL, pa.alpha, pa.theta, res.Labels, want)
						}
						if k := slices.Max(want) + 1; res.K != k {
							t.Fatalf("K = %d, want %d", res.K, k)
						}
					}
				}
			}
		}
	}
}

// TestOPPLCCannotLinks: on random instances with many cannot-links and
// strong weights (which would merge everything without them), no
// cannot-link pair ends in one cluster (metrics.Violations).
func TestOPPLCCannotLinks(t *testing.T) {
	for _, n := range []int{5, 30, 200} {
		rng := rand.New(rand.NewPCG(uint64(n), 3))
		g, _, set, _ := opplcInstance(t, n, 0, 0.2, rng)
		res, err := Run(context.Background(), OPPLC{Alpha: 0.01, Theta: 0.01}, &Problem{Graph: g, Constraints: set}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, v, err := metrics.Violations(set, res.Labels); err != nil || v != 0 {
			t.Errorf("n=%d: %d cannot-links violated (%v)", n, v, err)
		}
	}
}

// opplcHandGraph is the five-node example worked by hand in
// TestOPPLCHandWorked.
func opplcHandGraph(t testing.TB) *graph.Graph {
	g, err := graph.FromEdges(5, []graph.Edge{
		{I: 0, J: 1, W: 0.9}, {I: 0, J: 2, W: 0.1}, {I: 1, J: 2, W: 0.2},
		{I: 0, J: 3, W: 0.6}, {I: 1, J: 3, W: 0.7}, {I: 2, J: 3, W: 0.4},
		{I: 0, J: 4, W: 0.1}, {I: 2, J: 4, W: 0.3}, {I: 3, J: 4, W: 0.2},
	})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestOPPLCHandWorked checks a five-node example computed by hand from the
// formulas of §5.3 with α = 1, θ = 0.5 (α + kθ = 1.5 for k = 1, 2 for k = 2):
//
//	node 1: f(1∼0) = 0.9·(1 − 0.5/1) = 0.45 > f(1) = 0.1·1.5 = 0.15: link to 0.
//	node 2: f(2∼0) = 0.1·0.75 = 0.075, f(2∼1) = 0.2·0.75 = 0.15 <
//	        f(2) = 0.9·0.8·1.5 = 1.08: new cluster.
//	node 3, cannot-link (1, 3): cluster {0, 1} is barred; f(3∼2) =
//	        0.4·0.5 = 0.2 > f(3) = 0.4·0.3·0.6·2 = 0.144: link to 2.
//	        Without the cannot-link f(3∼1) = 0.7·0.75 = 0.525 wins: cluster 0.
//	node 4: the best link is at most 0.3·0.75 = 0.225 < f(4) =
//	        0.9·0.7·0.8·2 = 1.008: new cluster (either way).
func TestOPPLCHandWorked(t *testing.T) {
	g := opplcHandGraph(t)
	cl := &constraint.Set{N: 5, Pairs: []constraint.Pair{{I: 1, J: 3, Kind: constraint.CannotLink}}}
	for _, tc := range []struct {
		name string
		set  *constraint.Set
		want []int
		obj  float64
	}{
		{"cannot-link (1,3)", cl, []int{0, 0, 1, 1, 2}, 0.9 + 0.4},
		{"no constraint", nil, []int{0, 0, 1, 0, 2}, 0.9 + 0.7},
	} {
		res, err := Run(context.Background(), OPPLC{Alpha: 1, Theta: 0.5}, &Problem{Graph: g, Constraints: tc.set}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Labels, tc.want) || res.K != 3 || math.Abs(res.Objective-tc.obj) > 1e-12 {
			t.Errorf("%s: labels %v K %d objective %v, want %v, 3, %v", tc.name, res.Labels, res.K, res.Objective, tc.want, tc.obj)
		}
	}
}

// TestOPPLCBadInput: weights above 1 without scaling, θ ∉ [0,1), α ≤ −θ
// and an unknown scale are refused with ErrInvalid; Scale = max accepts the
// graph and gives the partition of W/max.
func TestOPPLCBadInput(t *testing.T) {
	heavy, err := graph.FromEdges(4, []graph.Edge{{I: 0, J: 1, W: 3}, {I: 1, J: 2, W: 0.3}, {I: 2, J: 3, W: 2}})
	if err != nil {
		t.Fatal(err)
	}
	good := opplcHandGraph(t)
	for _, tc := range []struct {
		name string
		m    OPPLC
		g    *graph.Graph
		want string
	}{
		{"W above 1", NewOPPLC(), heavy, "W(1, 0) = 3 is above 1"},
		{"θ = 1", OPPLC{Alpha: 1, Theta: 1}, good, "Theta = 1 is outside"},
		{"θ < 0", OPPLC{Alpha: 1, Theta: -0.1}, good, "Theta = -0.1 is outside"},
		{"α = −θ", OPPLC{Alpha: -0.2, Theta: 0.2}, good, "want α > −θ"},
		{"α < −θ", OPPLC{Alpha: -0.5, Theta: 0.2}, good, "want α > −θ"},
		// The bound printed "−θ = -0" (the negated zero) for θ = 0.
		{"zero value", OPPLC{}, good, "α = 0 ≤ −θ = 0, want α > −θ"},
		{"α NaN", OPPLC{Alpha: math.NaN(), Theta: 0.2}, good, "Alpha = NaN"},
		{"unknown scale", OPPLC{Alpha: 1, Theta: 0.2, Scale: 7}, good, "unknown scale"},
	} {
		_, err := Run(context.Background(), tc.m, &Problem{Graph: tc.g}, nil)
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want ErrInvalid with %q", tc.name, err, tc.want)
		}
	}
	scaled, err := graph.FromEdges(4, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 1, J: 2, W: 0.1}, {I: 2, J: 3, W: 2.0 / 3}})
	if err != nil {
		t.Fatal(err)
	}
	m := OPPLC{Alpha: 0.5, Theta: 0.3, Scale: OPPLCScaleMax}
	a, err := Run(context.Background(), m, &Problem{Graph: heavy}, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.Scale = OPPLCScaleNone
	b, err := Run(context.Background(), m, &Problem{Graph: scaled}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Labels, b.Labels) {
		t.Errorf("Scale = max: %v, W/max: %v", a.Labels, b.Labels)
	}
}

// TestOPPLCDeterministicAndK: the result does not depend on the seed; a
// K > 0 leaves the partition unchanged and warns when it differs from the
// k found; must-links are reported as ignored.
func TestOPPLCDeterministicAndK(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	g, _, set, _ := opplcInstance(t, 60, 0.7, 0.05, rng)
	set.Pairs = append(set.Pairs, constraint.Pair{I: 0, J: 1, Kind: constraint.MustLink})
	m := NewOPPLC()
	a, err := Run(context.Background(), m, &Problem{Graph: g, Constraints: set}, &Settings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(context.Background(), m, &Problem{Graph: g, Constraints: set, K: 2}, &Settings{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Labels, b.Labels) {
		t.Fatal("OPPLC depends on the seed or on K")
	}
	joined := strings.Join(b.Warnings, "\n")
	if a.K != 2 && !strings.Contains(joined, "does not change the partition") {
		t.Errorf("K = 2, found %d: warnings %q", a.K, b.Warnings)
	}
	if !strings.Contains(strings.Join(a.Warnings, "\n"), "ignores the 1 must-link (") {
		t.Errorf("warnings %q", a.Warnings)
	}
}

// TestOPPLCCancel: a cancelled context stops the pass.
func TestOPPLCCancel(t *testing.T) {
	g, _, _ := opplcOrderedGraph(t, 3*opplcCheckEvery, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewOPPLC().Partition(ctx, &Problem{Graph: g}, &Settings{}); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

// opplcOrderedGraph is a sparse ordered graph for benchmarks: entities
// whose mentions are spread along the order, each node linked to up to 8
// earlier nodes within a window of 64, with weight 0.7 ± 0.1 inside an
// entity and 0.03 ± 0.02 across (uniform noise), and a cannot-link from each
// node to one random earlier node of another entity in the window. It
// returns the graph, the cannot-links and the entities.
func opplcOrderedGraph(tb testing.TB, n int, seed uint64) (*graph.Graph, *constraint.Set, []int) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 17))
	ent := make([]int, n)
	k := 0
	for i := range ent {
		if i == 0 || rng.Float64() < 0.3 {
			ent[i] = k
			k++
		} else {
			ent[i] = ent[i-1-rng.IntN(min(i, 20))]
		}
	}
	edges := make([]graph.Edge, 0, 8*n)
	set := &constraint.Set{N: n}
	for i := 1; i < n; i++ {
		for range 8 {
			j := i - 1 - rng.IntN(min(i, 64))
			w := 0.03 + 0.02*(2*rng.Float64()-1)
			if ent[i] == ent[j] {
				w = 0.7 + 0.1*(2*rng.Float64()-1)
			}
			edges = append(edges, graph.Edge{I: i, J: j, W: w})
		}
		if j := i - 1 - rng.IntN(min(i, 64)); ent[j] != ent[i] {
			set.Pairs = append(set.Pairs, constraint.Pair{I: j, J: i, Kind: constraint.CannotLink})
		}
	}
	// Repeated edges are summed by FromEdges: keep the first of each pair.
	seen := make(map[[2]int]bool, len(edges))
	out := edges[:0]
	for _, e := range edges {
		if key := [2]int{e.J, e.I}; !seen[key] {
			seen[key] = true
			out = append(out, e)
		}
	}
	g, err := graph.FromEdges(n, out)
	if err != nil {
		tb.Fatal(err)
	}
	return g, set, ent
}

// TestOPPLCPairWeightsWarn: OPPLC's cannot-links are hard, so a weight
// other than 1 is ignored: the Result says so (naming how many), the
// partition is that of the unweighted pairs, and weights of 1 (or 0, read
// as 1) give no such warning. On the hand-worked graph a cannot-link of
// weight 10⁻⁹ still bars cluster {0, 1} to node 3.
func TestOPPLCPairWeightsWarn(t *testing.T) {
	g := opplcHandGraph(t)
	const warned = "opplc ignores the pair weights of"
	for _, tc := range []struct {
		w    []float64
		want string // the count named, "" for no warning
	}{
		{[]float64{0, 0}, ""},
		{[]float64{1, 1}, ""},
		{[]float64{1e-9, 1}, "1 cannot-link whose weight is not 1"},
		{[]float64{1e-9, 3}, "2 cannot-links whose weight is not 1"},
	} {
		set := &constraint.Set{N: 5, Pairs: []constraint.Pair{
			{I: 1, J: 3, Kind: constraint.CannotLink, Weight: tc.w[0]},
			{I: 0, J: 4, Kind: constraint.CannotLink, Weight: tc.w[1]},
			{I: 0, J: 1, Kind: constraint.MustLink, Weight: 1e-9}, // ignored anyway
		}}
		res, err := Run(context.Background(), OPPLC{Alpha: 1, Theta: 0.5}, &Problem{Graph: g, Constraints: set}, nil)
		if err != nil {
			t.Fatal(err)
		}
		w := strings.Join(res.Warnings, "\n")
		if got := strings.Contains(w, warned); got != (tc.want != "") || tc.want != "" && !strings.Contains(w, warned+" "+tc.want) {
			t.Errorf("weights %v: warnings %q, want %q", tc.w, res.Warnings, tc.want)
		}
		if res.Labels[3] == res.Labels[1] {
			t.Errorf("weights %v: node 3 joined node 1's cluster across a cannot-link", tc.w)
		}
	}
}
