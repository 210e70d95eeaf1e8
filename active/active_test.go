package active

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
)

var allStrategies = []Strategy{Auto, Explore, Boundary, Similarity, Random}

// randomState returns n points in d dimensions around k centres, their
// true classes, labels that agree with the classes except for a few
// flips, and m constraints drawn from the classes (so consistent).
func randomState(rnd *rand.Rand, n, d, k, m int) (State, []int) {
	x := mat.NewDense(n, d, nil)
	truth := make([]int, n)
	labels := make([]int, n)
	for i := range n {
		truth[i] = i % k
		for j := range d {
			x.Set(i, j, 3*float64((truth[i]+j)%k)+rnd.NormFloat64())
		}
		labels[i] = truth[i]
		if rnd.IntN(5) == 0 {
			labels[i] = rnd.IntN(k)
		}
	}
	set := &constraint.Set{N: n}
	for range m {
		i, j := rnd.IntN(n), rnd.IntN(n)
		if i == j {
			continue
		}
		kind := constraint.CannotLink
		if truth[i] == truth[j] {
			kind = constraint.MustLink
		}
		set.Pairs = append(set.Pairs, constraint.Pair{I: i, J: j, Kind: kind})
	}
	return State{Embedding: x, Labels: labels, Constraints: set, K: k, SigmaML: 0.15 * float64(d)}, truth
}

// bruteImplied is the reference for knowledge.implied: the must-link
// closure by repeated relaxation of an n×n reachability matrix
// (Warshall's algorithm, the O(n³) one constraint.Closure avoids), then
// a cannot-link between any members of the two components.
func bruteImplied(s *constraint.Set) [][]bool {
	n := s.N
	same := make([][]bool, n)
	for i := range same {
		same[i] = make([]bool, n)
		same[i][i] = true
	}
	for _, p := range s.Pairs {
		if p.Kind == constraint.MustLink {
			same[p.I][p.J], same[p.J][p.I] = true, true
		}
	}
	for m := range n {
		for i := range n {
			for j := range n {
				if same[i][m] && same[m][j] {
					same[i][j] = true
				}
			}
		}
	}
	out := make([][]bool, n)
	for i := range out {
		out[i] = slices.Clone(same[i])
	}
	for _, p := range s.Pairs {
		if p.Kind != constraint.CannotLink {
			continue
		}
		for a := range n {
			for b := range n {
				if same[a][p.I] && same[b][p.J] {
					out[a][b], out[b][a] = true, true
				}
			}
		}
	}
	return out
}

// TestNeverImplied checks every strategy on random states against the
// brute-force closure: no question is answered or implied, none repeats,
// every node is in range and I ≠ J.
func TestNeverImplied(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{2, 3, 5, 10, 30, 70} {
		for _, m := range []int{0, 1, 3, n / 2, 2 * n} {
			for rep := range 3 {
				rnd := rand.New(rand.NewPCG(uint64(n), uint64(m*10+rep)))
				k := min(3, n)
				st, _ := randomState(rnd, n, 2, k, m)
				ref := bruteImplied(st.Constraints)
				for _, strat := range allStrategies {
					for _, count := range []int{1, 4, n * n} {
						name := fmt.Sprintf("n%d/m%d/rep%d/%v/count%d", n, m, rep, strat, count)
						qs, err := Suggest(ctx, st, Options{Count: count, Strategy: strat, Seed: uint64(rep)})
						if err != nil {
							if (strat == Boundary || strat == Similarity) && errors.Is(err, ErrInvalid) && len(slices.Compact(slices.Sorted(slices.Values(st.Labels)))) < 2 {
								continue
							}
							t.Fatalf("%s: %v", name, err)
						}
						if len(qs) > count {
							t.Errorf("%s: %d questions, asked for %d", name, len(qs), count)
						}
						seen := map[[2]int]bool{}
						for _, q := range qs {
							if q.I < 0 || q.I >= n || q.J < 0 || q.J >= n || q.I == q.J {
								t.Fatalf("%s: bad pair %+v", name, q)
							}
							if ref[q.I][q.J] {
								t.Errorf("%s: pair (%d,%d) is implied by the answers", name, q.I, q.J)
							}
							if seen[clKey(q.I, q.J)] {
								t.Errorf("%s: pair (%d,%d) twice", name, q.I, q.J)
							}
							seen[clKey(q.I, q.J)] = true
							if q.Why == "" || math.IsNaN(q.Score) {
								t.Errorf("%s: question %+v lacks a reason or score", name, q)
							}
						}
					}
				}
			}
		}
	}
}

// TestRandomExhaustive: on tiny inputs Random asked for every pair
// returns exactly the pairs the brute-force closure leaves open.
func TestRandomExhaustive(t *testing.T) {
	for _, n := range []int{2, 5, 12} {
		rnd := rand.New(rand.NewPCG(7, uint64(n)))
		st, _ := randomState(rnd, n, 2, 2, n/2)
		ref := bruteImplied(st.Constraints)
		var want [][2]int
		for i := range n {
			for j := i + 1; j < n; j++ {
				if !ref[i][j] {
					want = append(want, [2]int{i, j})
				}
			}
		}
		qs, err := Suggest(context.Background(), st, Options{Count: n * n, Strategy: Random, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		var got [][2]int
		for _, q := range qs {
			got = append(got, clKey(q.I, q.J))
		}
		slices.SortFunc(got, func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
		if !slices.Equal(got, want) {
			t.Errorf("n=%d: Random gave %v, want every open pair %v", n, got, want)
		}
	}
}

// TestRandomLarge exercises the rejection sampler (more than 2¹⁶ pairs):
// distinct, open pairs, and roughly uniform node use.
func TestRandomLarge(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	n := 1000
	st, _ := randomState(rnd, n, 2, 3, 200)
	qs, err := Suggest(context.Background(), st, Options{Count: 5000, Strategy: Random, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 5000 {
		t.Fatalf("%d questions, want 5000", len(qs))
	}
	kn, _ := newKnowledge(st.Constraints, st.Embedding, nil)
	first := 0
	for _, q := range qs {
		if kn.implied(q.I, q.J) {
			t.Fatalf("implied pair %+v", q)
		}
		if q.I < n/2 {
			first++
		}
	}
	// I < J, so P(I < n/2) = 3/4 for a uniform pair; 5000 draws give a
	// standard deviation of 0.006: ±0.03 is five of them.
	if f := float64(first) / 5000; math.Abs(f-0.75) > 0.03 {
		t.Errorf("share of pairs with I < n/2: %.3f, want 0.75 ± 0.03 for uniform pairs", f)
	}
}

// bruteMargins is the reference ranking of Boundary: the centroids of the
// labels, every distance, the two smallest by sorting.
func bruteMargins(st State, untouched func(int) bool) (order []int, marg map[int]float64, second map[int]int) {
	n, d := st.Embedding.Dims()
	kk := slices.Max(st.Labels) + 1
	mu := mat.NewDense(kk, d, nil)
	cnt := make([]float64, kk)
	for i, c := range st.Labels {
		for j := range d {
			mu.Set(c, j, mu.At(c, j)+st.Embedding.At(i, j))
		}
		cnt[c]++
	}
	marg, second = map[int]float64{}, map[int]int{}
	for i := range n {
		if !untouched(i) {
			continue
		}
		type cd struct {
			c int
			d float64
		}
		var ds []cd
		for c := range kk {
			if cnt[c] == 0 {
				continue
			}
			var s float64
			for j := range d {
				t := st.Embedding.At(i, j) - mu.At(c, j)/cnt[c]
				s += t * t
			}
			ds = append(ds, cd{c, math.Sqrt(s)})
		}
		slices.SortFunc(ds, func(a, b cd) int { return cmp.Compare(a.d, b.d) })
		marg[i], second[i] = ds[1].d-ds[0].d, ds[1].c
		order = append(order, i)
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(marg[a], marg[b]) })
	return order, marg, second
}

// TestBoundaryBruteForce compares Boundary's ranking and partners with a
// brute-force computation on tiny random inputs (continuous data: no ties).
func TestBoundaryBruteForce(t *testing.T) {
	for _, tc := range []struct {
		n, d, k, m int
	}{{6, 1, 2, 0}, {10, 2, 2, 0}, {20, 3, 3, 0}, {20, 2, 3, 6}, {40, 2, 4, 10}} {
		name := fmt.Sprintf("n%d_d%d_k%d_m%d", tc.n, tc.d, tc.k, tc.m)
		t.Run(name, func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(uint64(tc.n), uint64(tc.k)))
			st, _ := randomState(rnd, tc.n, tc.d, tc.k, tc.m)
			kn, _ := newKnowledge(st.Constraints, st.Embedding, nil)
			order, marg, second := bruteMargins(st, kn.untouched)
			count := min(5, len(order))
			qs, err := Suggest(context.Background(), st, Options{Count: count, Strategy: Boundary})
			if err != nil {
				t.Fatal(err)
			}
			if len(qs) != count {
				t.Fatalf("%d questions, want %d", len(qs), count)
			}
			asked := map[[2]int]bool{}
			for r, q := range qs {
				// Margins tie exactly (in 1-D, every node outside the
				// segment between two centroids has margin |μ_a − μ_b|),
				// so compare the margins in rank order and the node's own.
				if m, ok := marg[q.I]; !ok || math.Abs(q.Score-m) > 1e-12 || math.Abs(q.Score-marg[order[r]]) > 1e-12 {
					t.Errorf("rank %d: node %d margin %.6g, want margin %.6g (node %d)", r, q.I, q.Score, marg[order[r]], order[r])
				}
				if len(kn.nbhd) > 0 {
					continue
				}
				// No neighbourhood: the partner is the nearest node of the
				// second-nearest cluster not asked with it already.
				best, bd := -1, math.Inf(1)
				for j, c := range st.Labels {
					if c != second[q.I] || j == q.I || asked[clKey(q.I, j)] {
						continue
					}
					if dd := dist2(st.Embedding.RawRowView(q.I), st.Embedding.RawRowView(j)); dd < bd {
						best, bd = j, dd
					}
				}
				if q.J != best {
					t.Errorf("rank %d: partner %d, want %d (nearest in cluster %d)", r, q.J, best, second[q.I])
				}
				asked[clKey(q.I, q.J)] = true
			}
		})
	}
}

// TestExploreBruteForce checks farthest-first on points on a line, where
// the answer is worked out by hand, and on random points against a
// brute-force traversal.
func TestExploreBruteForce(t *testing.T) {
	// Nodes at 0, 1, 2, 10, 11, 20; must-link (0, 1): one neighbourhood
	// {0, 1} with centroid 0.5. Farthest from 0.5: node 5 (20), then from
	// {0.5, 20}: node 3 (10, distance 9.5) before node 4 (11, 9); then
	// node 2 (2: 1.5 from 0.5) before node 4 (1 from 10).
	x := mat.NewDense(6, 1, []float64{0, 1, 2, 10, 11, 20})
	st := State{Embedding: x, Constraints: &constraint.Set{N: 6, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}}}}
	qs, err := Suggest(context.Background(), st, Options{Count: 3, Strategy: Explore})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		i     int
		score float64
	}{{5, 19.5}, {3, 9.5}, {2, 1.5}}
	if len(qs) != 3 {
		t.Fatalf("got %d questions", len(qs))
	}
	for r, w := range want {
		if qs[r].I != w.i || math.Abs(qs[r].Score-w.score) > 1e-12 {
			t.Errorf("rank %d: node %d score %v, want node %d score %v", r, qs[r].I, qs[r].Score, w.i, w.score)
		}
		// The representative of {0, 1} nearest 0.5: a tie, node 0.
		if qs[r].J != 0 {
			t.Errorf("rank %d: partner %d, want 0", r, qs[r].J)
		}
	}

	// Random points: brute-force traversal from the neighbourhood centroids.
	for rep := range 5 {
		rnd := rand.New(rand.NewPCG(11, uint64(rep)))
		n := 25
		set := &constraint.Set{N: n, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}, {I: 2, J: 0, Kind: constraint.CannotLink}}}
		xs := make([]float64, n*2)
		for i := range xs {
			xs[i] = rnd.Float64()
		}
		st := State{Embedding: mat.NewDense(n, 2, xs), Constraints: set}
		qs, err := Suggest(context.Background(), st, Options{Count: 6, Strategy: Explore})
		if err != nil {
			t.Fatal(err)
		}
		row := st.Embedding.RawRowView
		anchors := [][]float64{{(row(0)[0] + row(1)[0]) / 2, (row(0)[1] + row(1)[1]) / 2}, row(2)}
		used := map[int]bool{0: true, 1: true, 2: true}
		for r, q := range qs {
			best, bd := -1, -1.0
			for i := range n {
				if used[i] {
					continue
				}
				m := math.Inf(1)
				for _, a := range anchors {
					m = min(m, math.Sqrt(dist2(row(i), a)))
				}
				if m > bd {
					best, bd = i, m
				}
			}
			if q.I != best || math.Abs(q.Score-bd) > 1e-12 {
				t.Errorf("rep %d rank %d: node %d (%.6g), want %d (%.6g)", rep, r, q.I, q.Score, best, bd)
			}
			near := 0
			if dist2(row(best), anchors[1]) < dist2(row(best), anchors[0]) {
				near = 2
			}
			if q.J != near {
				t.Errorf("rep %d rank %d: partner %d, want %d", rep, r, q.J, near)
			}
			used[best] = true
			anchors = append(anchors, row(best))
		}
	}
}

// TestSimilarityBruteForce compares Similarity with every untouched node
// paired with every representative and cluster core, on inputs small
// enough for the pool to hold every untouched node.
func TestSimilarityBruteForce(t *testing.T) {
	for rep := range 4 {
		rnd := rand.New(rand.NewPCG(5, uint64(rep)))
		st, _ := randomState(rnd, 24, 2, 3, 4)
		st.SigmaML = 2
		kn, _ := newKnowledge(st.Constraints, st.Embedding, nil)
		// Cores: the member of each cluster nearest its centroid.
		_, d := st.Embedding.Dims()
		var partners []int
		for _, l := range kn.nbhd {
			partners = append(partners, kn.rep[l])
		}
		for c := range 3 {
			mu := make([]float64, d)
			var cnt float64
			for i, l := range st.Labels {
				if l == c {
					for j := range d {
						mu[j] += st.Embedding.At(i, j)
					}
					cnt++
				}
			}
			for j := range mu {
				mu[j] /= cnt
			}
			best, bd := -1, math.Inf(1)
			for i, l := range st.Labels {
				if dd := dist2(st.Embedding.RawRowView(i), mu); l == c && dd < bd {
					best, bd = i, dd
				}
			}
			if !slices.Contains(partners, best) {
				partners = append(partners, best)
			}
		}
		ref := bruteImplied(st.Constraints)
		type cand struct {
			i  int
			sc float64
		}
		var cs []cand
		for i := range 24 {
			if !kn.untouched(i) {
				continue
			}
			bs := math.Inf(1)
			for _, j := range partners {
				if j == i || ref[i][j] {
					continue
				}
				p := math.Exp(-dist2(st.Embedding.RawRowView(i), st.Embedding.RawRowView(j)) / st.SigmaML)
				bs = min(bs, math.Abs(p-0.5))
			}
			if !math.IsInf(bs, 1) {
				cs = append(cs, cand{i, bs})
			}
		}
		slices.SortStableFunc(cs, func(a, b cand) int { return cmp.Compare(a.sc, b.sc) })
		qs, err := Suggest(context.Background(), st, Options{Count: 5, Strategy: Similarity})
		if err != nil {
			t.Fatal(err)
		}
		for r, q := range qs {
			if q.I != cs[r].i || math.Abs(q.Score-cs[r].sc) > 1e-12 {
				t.Errorf("rep %d rank %d: node %d |p−½| %.6g, want node %d %.6g", rep, r, q.I, q.Score, cs[r].i, cs[r].sc)
			}
		}
	}
}

// threeBlobs is k = 3 well separated groups of 10 on a line: nodes
// 10c…10c+9 at 10c + 0.1·t.
func threeBlobs() (*mat.Dense, []int) {
	x := mat.NewDense(30, 1, nil)
	truth := make([]int, 30)
	for i := range 30 {
		truth[i] = i / 10
		x.Set(i, 0, float64(10*(i/10))+0.1*float64(i%10))
	}
	return x, truth
}

// TestAutoPhases follows Auto with an oracle on three blobs: it explores
// until three neighbourhoods exist (one per blob: farthest-first finds
// every blob), resolves pending components first, then switches to the
// boundary.
func TestAutoPhases(t *testing.T) {
	x, truth := threeBlobs()
	set := &constraint.Set{N: 30}
	labels := make([]int, 30) // an uninformative partition: all in 0 but one
	labels[29] = 1
	st := State{Embedding: x, Labels: labels, Constraints: set, K: 3}
	for step := 0; step < 6; step++ {
		qs, err := Suggest(context.Background(), st, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(qs) != 1 {
			t.Fatalf("step %d: %d questions", step, len(qs))
		}
		q := qs[0]
		kn, _ := newKnowledge(set, x, nil)
		switch {
		case len(kn.pending) > 0 && !strings.Contains(q.Why, "not placed yet"):
			t.Errorf("step %d: pending component left but asked %q", step, q.Why)
		case len(kn.pending) == 0 && len(kn.nbhd) < 3 && !strings.Contains(q.Why, "farthest"):
			t.Errorf("step %d: %d neighbourhoods but asked %q", step, len(kn.nbhd), q.Why)
		case len(kn.pending) == 0 && len(kn.nbhd) >= 3 && !strings.Contains(q.Why, "between clusters"):
			t.Errorf("step %d: exploration done but asked %q", step, q.Why)
		}
		kind := constraint.CannotLink
		if truth[q.I] == truth[q.J] {
			kind = constraint.MustLink
		}
		set.Pairs = append(set.Pairs, constraint.Pair{I: q.I, J: q.J, Kind: kind})
	}
	kn, _ := newKnowledge(set, x, nil)
	if len(kn.nbhd) != 3 {
		t.Errorf("after 6 answers: %d neighbourhoods, want one per blob", len(kn.nbhd))
	}
	seen := map[int]bool{}
	for _, l := range kn.nbhd {
		seen[truth[kn.rep[l]]] = true
	}
	if len(seen) != 3 {
		t.Errorf("neighbourhoods cover blobs %v, want all three", seen)
	}
}

func TestStrategyText(t *testing.T) {
	for _, s := range allStrategies {
		b, err := s.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Strategy
		if err := back.UnmarshalText([]byte(strings.ToUpper(string(b)))); err != nil || back != s {
			t.Errorf("%v: round trip gave %v, %v", s, back, err)
		}
	}
	var s Strategy
	if err := s.UnmarshalText([]byte("nope")); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "auto, explore, boundary, similarity or random") {
		t.Errorf("unknown name: %v", err)
	}
}

func TestSuggestErrors(t *testing.T) {
	x := mat.NewDense(3, 1, []float64{0, 1, 2})
	nanX := mat.NewDense(3, 1, []float64{0, math.NaN(), 2})
	one := []int{0, 0, 0}
	for _, tc := range []struct {
		name string
		st   State
		opt  Options
		want string
	}{
		{"no embedding", State{}, Options{}, "Embedding is required"},
		{"nan", State{Embedding: nanX}, Options{}, "Embedding[1][0] = NaN is not finite"},
		{"labels length", State{Embedding: x, Labels: []int{0}}, Options{}, "1 labels for 3 embedding rows"},
		{"negative label", State{Embedding: x, Labels: []int{0, -1, 0}}, Options{}, "node 1 has label -1"},
		{"K", State{Embedding: x, K: -1}, Options{}, "K = -1"},
		{"sigma", State{Embedding: x, SigmaML: math.Inf(1)}, Options{}, "SigmaML"},
		{"constraint size", State{Embedding: x, Constraints: &constraint.Set{N: 4}}, Options{}, "constraints on 4 nodes for 3"},
		{"bad pair", State{Embedding: x, Constraints: &constraint.Set{N: 3, Pairs: []constraint.Pair{{I: 1, J: 1, Kind: constraint.MustLink}}}}, Options{}, "itself"},
		{"count", State{Embedding: x}, Options{Count: -1}, "Count -1"},
		{"strategy", State{Embedding: x}, Options{Strategy: 42}, "unknown strategy 42"},
		{"boundary no labels", State{Embedding: x}, Options{Strategy: Boundary}, "needs State.Labels with at least two clusters"},
		{"boundary one cluster", State{Embedding: x, Labels: one}, Options{Strategy: Boundary}, "at least two clusters"},
		{"similarity no sigma", State{Embedding: x, Labels: []int{0, 1, 1}}, Options{Strategy: Similarity}, "SigmaML > 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Suggest(context.Background(), tc.st, tc.opt)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrInvalid containing %q", err, tc.want)
			}
		})
	}
}

func TestSuggestDeterministicAndCancel(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 3))
	st, _ := randomState(rnd, 200, 3, 3, 5)
	for _, s := range allStrategies {
		a, err := Suggest(context.Background(), st, Options{Count: 10, Strategy: s, Seed: 4})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Suggest(context.Background(), st, Options{Count: 10, Strategy: s, Seed: 4})
		if !slices.Equal(a, b) {
			t.Errorf("%v: two calls with one seed differ", s)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := Suggest(ctx, st, Options{Strategy: s}); !errors.Is(err, context.Canceled) {
			t.Errorf("%v: cancelled context gave %v", s, err)
		}
	}
	a, _ := Suggest(context.Background(), st, Options{Count: 10, Strategy: Random, Seed: 4})
	b, _ := Suggest(context.Background(), st, Options{Count: 10, Strategy: Random, Seed: 5})
	if slices.Equal(a, b) {
		t.Error("Random: seeds 4 and 5 gave the same pairs")
	}
}

// TestEverythingKnown: when every pair is implied, no question.
func TestEverythingKnown(t *testing.T) {
	x := mat.NewDense(3, 1, []float64{0, 1, 2})
	set := &constraint.Set{N: 3, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}, {I: 1, J: 2, Kind: constraint.CannotLink}}}
	for _, s := range allStrategies {
		qs, err := Suggest(context.Background(), State{Embedding: x, Labels: []int{0, 0, 1}, Constraints: set, SigmaML: 1}, Options{Count: 3, Strategy: s})
		if err != nil || len(qs) != 0 {
			t.Errorf("%v: %v, %v; want no question", s, qs, err)
		}
	}
}

var sink []Question

// BenchmarkSuggest100k: one call of each strategy for 10 questions on 10⁵
// points in 10 dimensions, k = 5, with 200 answered constraints.
func BenchmarkSuggest100k(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 1))
	st, _ := randomState(rnd, 100000, 10, 5, 200)
	for _, s := range allStrategies {
		b.Run(s.String(), func(b *testing.B) {
			for b.Loop() {
				qs, err := Suggest(context.Background(), st, Options{Count: 10, Strategy: s})
				if err != nil {
					b.Fatal(err)
				}
				sink = qs
			}
		})
	}
}

// countingCtx counts the calls of Err and reports context.Canceled from
// call cancelAt + 1 on (never when cancelAt is 0).
type countingCtx struct {
	context.Context
	calls, cancelAt int
}

func (c *countingCtx) Err() error {
	c.calls++
	if c.cancelAt > 0 && c.calls > c.cancelAt {
		return context.Canceled
	}
	return nil
}

// TestSuggestPollsByWork: the context is checked in proportion to the work
// done, not to the rows visited: a margin row costs k·d and a Similarity
// candidate (λ + k)·d, and both loops checked only every 4096 rows (the
// Similarity pool not at all), so a deadline was overrun by seconds. The
// lower bound on the checks is the multiply-adds of the dominant loop,
// counted from the sizes of the input, over ctxWork; a cancellation is then
// seen at the next check, which returns at once.
func TestSuggestPollsByWork(t *testing.T) {
	// Boundary with n/2 clusters: margins cost n·(n/2)·d.
	const nb, db = 4000, 16
	xb := mat.NewDense(nb, db, nil)
	rnd := rand.New(rand.NewPCG(7, 7))
	for i := range nb {
		for j := range db {
			xb.Set(i, j, rnd.Float64())
		}
	}
	pairsLabels := make([]int, nb)
	for i := range pairsLabels {
		pairsLabels[i] = i / 2
	}
	// Similarity with λ = 400 pairwise cannot-linked neighbourhoods and two
	// clusters: the pool of min(n − λ, 4·Count) candidates costs
	// P·(λ + 2)·d, the margins only n·2·d.
	const ns, ds, lambda, count = 6000, 8, 400, 1000
	xs := mat.NewDense(ns, ds, nil)
	twoLabels := make([]int, ns)
	for i := range ns {
		twoLabels[i] = i % 2
		for j := range ds {
			xs.Set(i, j, float64(i%2)+rnd.Float64())
		}
	}
	clique := &constraint.Set{N: ns}
	for i := range lambda {
		for j := i + 1; j < lambda; j++ {
			clique.Pairs = append(clique.Pairs, constraint.Pair{I: i, J: j, Kind: constraint.CannotLink})
		}
	}
	// Explore with λ = 300 pairwise cannot-linked neighbourhoods and
	// p = 3000 pending components (a must-linked pair cannot-linked to
	// the first neighbourhood only): the pending questions cost p·λ·d, and
	// were not polled at all.
	const lp, pp, dp = 300, 3000, 64
	np := lp + 2*pp
	xp := mat.NewDense(np, dp, nil)
	for i := range np {
		for j := range dp {
			xp.Set(i, j, rnd.Float64())
		}
	}
	pend := &constraint.Set{N: np}
	for i := range lp {
		for j := i + 1; j < lp; j++ {
			pend.Pairs = append(pend.Pairs, constraint.Pair{I: i, J: j, Kind: constraint.CannotLink})
		}
	}
	for c := range pp {
		a := lp + 2*c
		pend.Pairs = append(pend.Pairs, constraint.Pair{I: a, J: a + 1, Kind: constraint.MustLink}, constraint.Pair{I: a, J: 0, Kind: constraint.CannotLink})
	}
	for _, tc := range []struct {
		name string
		st   State
		opts Options
		work int // multiply-adds of the dominant loop
	}{
		{"pending questions, λ = 300", State{Embedding: xp, Constraints: pend}, Options{Count: 5, Strategy: Explore}, pp * lp * dp},
		{"boundary margins, k = n/2", State{Embedding: xb, Labels: pairsLabels}, Options{Count: 10, Strategy: Boundary}, nb * (nb / 2) * db},
		{"similarity pool, λ = 400", State{Embedding: xs, Labels: twoLabels, Constraints: clique, SigmaML: 1}, Options{Count: count, Strategy: Similarity}, min(ns-lambda, 4*count) * lambda * ds},
	} {
		t.Run(tc.name, func(t *testing.T) {
			all := &countingCtx{Context: context.Background()}
			if _, err := Suggest(all, tc.st, tc.opts); err != nil {
				t.Fatal(err)
			}
			if want := tc.work / ctxWork; all.calls < want {
				t.Fatalf("ctx checked %d times for %d multiply-adds, want ≥ %d (one per %d)", all.calls, tc.work, want, ctxWork)
			}
			half := &countingCtx{Context: context.Background(), cancelAt: all.calls / 2}
			_, err := Suggest(half, tc.st, tc.opts)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled at check %d of %d: error %v, want context.Canceled", half.cancelAt, all.calls, err)
			}
			if half.calls != half.cancelAt+1 {
				t.Errorf("Err called %d times, want %d: Suggest went on after the cancellation", half.calls, half.cancelAt+1)
			}
		})
	}
}
