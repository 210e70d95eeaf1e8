package cluster

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/metrics"
)

// TestNOASSCRecoversBlobs: 10% labels on separated blobs give ARI ≥ 0.95,
// the embedding rows have unit length (eq. 3.3.3), every class vector is
// positive on average on its own labelled nodes (orientation), and the
// eigenvalues lie in [0, 2 + γ] (the deflated operator's spectrum).
func TestNOASSCRecoversBlobs(t *testing.T) {
	for _, k := range []int{2, 3, 5} {
		g, truth := roBlobs(t, 250, k, 0.4, uint64(k))
		labels := roLabels(t, truth, 0.1, uint64(k))
		res, err := Run(context.Background(), NOASSC{}, &Problem{Graph: g, K: k, Labels: labels}, &Settings{Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		if ari, _ := metrics.ARI(truth, res.Labels); ari < 0.95 {
			t.Errorf("k=%d: ARI %v < 0.95", k, ari)
		}
		for i := 0; i < g.N(); i++ {
			var s float64
			for c := 0; c < k; c++ {
				s += res.Embedding.At(i, c) * res.Embedding.At(i, c)
			}
			if math.Abs(s-1) > 1e-12 {
				t.Fatalf("k=%d: row %d has squared norm %v", k, i, s)
			}
		}
		for c, l := range res.Eigenvalues {
			if l < -1e-9 || l > 2+defaultGamma+1e-9 {
				t.Errorf("k=%d: class %d eigenvalue %v outside [0, 2+γ]", k, c, l)
			}
		}
		for c := 0; c < k; c++ {
			var s float64
			for i, l := range labels {
				if l == c {
					s += res.Embedding.At(i, c)
				}
			}
			if s <= 0 {
				t.Errorf("k=%d: class %d vector not oriented towards its labels", k, c)
			}
		}
	}
}

func TestNOASSCErrorsAndDeterminism(t *testing.T) {
	g, truth := roBlobs(t, 120, 3, 0.5, 1)
	labels := roLabels(t, truth, 0.1, 1)
	// Run answers k = 1 itself (TestRunKOneIsOneCluster); the method
	// refuses it.
	if _, err := (NOASSC{}).Partition(context.Background(), &Problem{Graph: g, K: 1, Labels: make(constraint.Labels, 120)}, &Settings{}); !errors.Is(err, ErrInvalid) || !contains(err.Error(), "k ≥ 2") {
		t.Errorf("k = 1: %v", err)
	}
	if _, err := Run(context.Background(), (NOASSC{Strict: true}), &Problem{Graph: g, K: 4, Labels: labels}, nil); err == nil || !contains(err.Error(), "class 3") {
		t.Errorf("k larger than the label classes: %v", err)
	}
	p := &Problem{Graph: g, K: 3, Labels: labels}
	a, err := Run(context.Background(), NOASSC{}, p, &Settings{Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Run(context.Background(), NOASSC{}, p, &Settings{Seed: 9})
	if !equalInts(a.Labels, b.Labels) || maxAbsDiff(a.Embedding, b.Embedding) != 0 {
		t.Error("same seed, different result")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, (NOASSC{}), p, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestComponentGraph compares W^m = PᵀWP (with the cannot-link entries of
// Alg. 9 zeroed) with a dense product computed in the test.
func TestComponentGraph(t *testing.T) {
	g := roRandomGraph(t, 30, 0.3, 5)
	rng := rand.New(rand.NewPCG(5, 5))
	set := &constraint.Set{N: 30}
	for len(set.Pairs) < 25 {
		i, j := rng.IntN(30), rng.IntN(30)
		if i == j {
			continue
		}
		kind := constraint.MustLink
		if rng.IntN(3) == 0 {
			kind = constraint.CannotLink
		}
		set.Pairs = append(set.Pairs, constraint.Pair{I: i, J: j, Kind: kind})
	}
	comp, m := constraint.Closure(set)
	w := g.Dense()
	for _, useCL := range []bool{false, true} {
		wm, _, err := componentGraph(g, set, comp, m, useCL, "MCLNOASSC.Screen")
		if err != nil {
			t.Fatal(err)
		}
		// Dense PᵀWP.
		want := make([][]float64, m)
		for f := range want {
			want[f] = make([]float64, m)
		}
		for i := 0; i < 30; i++ {
			for j := 0; j < 30; j++ {
				want[comp[i]][comp[j]] += w.At(i, j)
			}
		}
		if useCL {
			for _, pr := range set.Pairs {
				if a, b := comp[pr.I], comp[pr.J]; pr.Kind == constraint.CannotLink && a != b {
					want[a][b], want[b][a] = 0, 0
				}
			}
		}
		for f := 0; f < m; f++ {
			for h := 0; h < m; h++ {
				got := wm.Weight(f, h)
				if want[f][h] == 0 && got > 0 && got < 1e-9 {
					continue // the documented tiny self loop of a cut-off group
				}
				if math.Abs(got-want[f][h]) > 1e-12 {
					t.Fatalf("useCL=%v: W^m[%d][%d] = %v, PᵀWP gives %v", useCL, f, h, got, want[f][h])
				}
			}
		}
		if !useCL {
			// Degrees of W^m are the group volumes.
			vol := make([]float64, m)
			for i, f := range comp {
				vol[f] += g.Degree(i)
			}
			for f := 0; f < m; f++ {
				if math.Abs(wm.Degree(f)-vol[f]) > 1e-12 {
					t.Fatalf("degree of group %d = %v, vol = %v", f, wm.Degree(f), vol[f])
				}
			}
		}
	}
}

// TestPairNOASSC: with 1% of pairs (the protocol of thesis Table 4.2) both
// variants recover separated blobs; labels convert to the same closure as
// their full pair set; errors are reported.
func TestPairNOASSC(t *testing.T) {
	g, truth := roBlobs(t, 300, 3, 0.4, 4)
	set, err := constraint.FractionPairs(truth, 0.01, rand.NewPCG(4, 4))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Method{MLNOASSC{}, MCLNOASSC{}} {
		res, err := Run(context.Background(), m, &Problem{Graph: g, K: 3, Constraints: set}, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if ari, _ := metrics.ARI(truth, res.Labels); ari < 0.95 {
			t.Errorf("%s: ARI %v < 0.95", m.Name(), ari)
		}
	}
	// Compact label pairs have the closure and component cannot-links of
	// constraint.FromLabels.
	labels := roLabels(t, truth, 0.1, 4)
	p := &Problem{Graph: g, K: 3, Labels: labels}
	cp, _, _ := supervisionPairsContext(context.Background(), "t", p, &Settings{}, closurePairs)
	fp, _, _ := supervisionPairsContext(context.Background(), "t", p, &Settings{}, allPairs)
	compact := &constraint.Set{N: g.N(), Pairs: cp}
	full := &constraint.Set{N: g.N(), Pairs: fp}
	c1, n1 := constraint.Closure(compact)
	c2, n2 := constraint.Closure(full)
	if n1 != n2 || !equalInts(c1, c2) {
		t.Fatal("compact label pairs change the closure")
	}
	l1 := constraint.ComponentCannotLinks(compact, c1)
	l2 := constraint.ComponentCannotLinks(full, c2)
	if len(l1) != len(l2) {
		t.Fatalf("component cannot-links: %d vs %d", len(l1), len(l2))
	}
	for i := range l1 {
		if l1[i] != l2[i] {
			t.Fatalf("component cannot-link %d: %v vs %v", i, l1[i], l2[i])
		}
	}
	// Errors.
	if _, err := Run(context.Background(), (MCLNOASSC{}), &Problem{Graph: g, K: 3}, nil); err == nil || !contains(err.Error(), "none given") {
		t.Errorf("no supervision: %v", err)
	}
	chain := &constraint.Set{N: 300}
	for i := 0; i+1 < 300; i++ {
		chain.Pairs = append(chain.Pairs, constraint.Pair{I: i, J: i + 1, Kind: constraint.MustLink})
	}
	if _, err := Run(context.Background(), (MLNOASSC{}), &Problem{Graph: g, K: 3, Constraints: chain}, nil); err == nil || !contains(err.Error(), "fewer than k") {
		t.Errorf("one closure group: %v", err)
	}
}

// TestPairNOASSCExactClosure: when the must-links join each class into one
// group (m = k), the groups are the labels and NOA-SSC with every node
// labelled by the truth returns the truth on separated blobs.
func TestPairNOASSCExactClosure(t *testing.T) {
	g, truth := roBlobs(t, 90, 3, 0.3, 8)
	set := &constraint.Set{N: 90}
	last := map[int]int{}
	for i, c := range truth {
		if j, ok := last[c]; ok {
			set.Pairs = append(set.Pairs, constraint.Pair{I: j, J: i, Kind: constraint.MustLink})
		}
		last[c] = i
	}
	res, err := Run(context.Background(), MLNOASSC{}, &Problem{Graph: g, K: 3, Constraints: set}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ari, _ := metrics.ARI(truth, res.Labels); ari != 1 {
		t.Errorf("ARI %v, want 1", ari)
	}
}

func TestLabelMethodsRegistered(t *testing.T) {
	want := map[string]Supervision{
		"labelprop": LabelSet, "mavro": LabelSet, "mavro-k": LabelSet, "noa-ssc": LabelSet,
		"sl": Pairs, "ml-noa-ssc": Pairs, "mcl-noa-ssc": Pairs,
	}
	found := 0
	for _, info := range Methods() {
		sup, ok := want[info.Name]
		if !ok {
			continue
		}
		found++
		if info.New().Uses().Supervision != sup {
			t.Errorf("%s: supervision %v, want %v", info.Name, info.New().Uses().Supervision, sup)
		}
		if m := info.New(); m.Name() != info.Name {
			t.Errorf("%s: New().Name() = %q", info.Name, m.Name())
		}
	}
	if found != len(want) {
		t.Errorf("found %d of %d methods", found, len(want))
	}
}
