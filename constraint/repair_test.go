package constraint

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// consistentKeep reports, by brute force, whether the pairs of s not in
// drop are consistent: every kept cannot-link joins nodes that no chain of
// kept must-links connects (reachability by repeated relaxation, not the
// union–find that Repair uses).
func consistentKeep(s *Set, drop []bool) bool {
	n := s.N
	r := make([][]bool, n)
	for i := range r {
		r[i] = make([]bool, n)
		r[i][i] = true
	}
	for changed := true; changed; {
		changed = false
		for t, p := range s.Pairs {
			if drop[t] || p.Kind != MustLink {
				continue
			}
			for i := 0; i < n; i++ {
				if (r[i][p.I] || r[i][p.J]) && !(r[i][p.I] && r[i][p.J]) {
					r[i][p.I], r[i][p.J] = true, true
					changed = true
				}
			}
		}
		// Close transitively.
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if !r[i][j] {
					continue
				}
				for l := 0; l < n; l++ {
					if r[j][l] && !r[i][l] {
						r[i][l] = true
						changed = true
					}
				}
			}
		}
	}
	for t, p := range s.Pairs {
		if !drop[t] && p.Kind == CannotLink && r[p.I][p.J] {
			return false
		}
	}
	return true
}

// bruteRepair returns the least total weight of a set of pairs whose
// removal leaves s consistent, by trying all 2^m subsets.
func bruteRepair(s *Set) float64 {
	m := len(s.Pairs)
	best := math.Inf(1)
	drop := make([]bool, m)
	for mask := 0; mask < 1<<m; mask++ {
		var w float64
		for t := range drop {
			drop[t] = mask>>t&1 == 1
			if drop[t] {
				w += s.Pairs[t].W()
			}
		}
		if w < best && consistentKeep(s, drop) {
			best = w
		}
	}
	return best
}

func dropMask(m int, idx []int) []bool {
	d := make([]bool, m)
	for _, t := range idx {
		d[t] = true
	}
	return d
}

func weightOf(s *Set, idx []int) float64 {
	var w float64
	for _, t := range idx {
		w += s.Pairs[t].W()
	}
	return w
}

// TestRepairHandBuilt checks the rule on cases small enough to work out
// by hand.
func TestRepairHandBuilt(t *testing.T) {
	ml := func(i, j int, w float64) Pair { return Pair{I: i, J: j, Kind: MustLink, Weight: w} }
	cl := func(i, j int, w float64) Pair { return Pair{I: i, J: j, Kind: CannotLink, Weight: w} }
	for _, tc := range []struct {
		name  string
		n     int
		pairs []Pair
		want  []int
	}{
		{"consistent set: nothing dropped", 4, []Pair{ml(0, 1, 1), ml(2, 3, 1), cl(1, 2, 1)}, nil},
		// Two triangles of must-links 0-1-2 and 3-4-5 joined by a weak
		// must-link 2–3 (weight 0.2); a cannot-link 0–5 contradicts: the
		// cut {2–3} (0.2) is lighter than the cannot-link (1).
		{"weak bridge cut", 6, []Pair{ml(0, 1, 1), ml(1, 2, 1), ml(0, 2, 1), ml(3, 4, 1), ml(4, 5, 1), ml(3, 5, 1), ml(2, 3, 0.2), cl(0, 5, 1)}, []int{6}},
		// The same with a weak cannot-link (0.1): it goes instead.
		{"weak cannot-link dropped", 6, []Pair{ml(0, 1, 1), ml(1, 2, 1), ml(0, 2, 1), ml(3, 4, 1), ml(4, 5, 1), ml(3, 5, 1), ml(2, 3, 0.2), cl(0, 5, 0.1)}, []int{7}},
		// Two bridges of 0.3 and 0.4 (cut 0.7) against a cannot-link of
		// 0.6: the cannot-link goes.
		{"two bridges heavier than the cannot-link", 4, []Pair{ml(0, 1, 1), ml(2, 3, 1), ml(1, 2, 0.3), ml(0, 3, 0.4), cl(0, 2, 0.6)}, []int{4}},
		// Tie (cut 1 = cannot-link 1): the cannot-link goes.
		{"tie drops the cannot-link", 3, []Pair{ml(0, 1, 1), ml(1, 2, 1), cl(0, 2, 1)}, []int{2}},
		// A pair both must-link and cannot-link: the lighter goes.
		{"pair both ways", 2, []Pair{ml(0, 1, 0.5), cl(0, 1, 1)}, []int{0}},
		// A chain 0-1-2-3 with its weakest link 1–2 (0.2) and cannot-links
		// 0–3 and 0–2 (weight 1 each): cutting 1–2 resolves both.
		// Two must-link triangles 0-1-2 and 3-4-5 (weight 2) joined by
		// two bridges (2–3, 1–4: the minimum cut, weight 2) and separated
		// by three cannot-links (0–3, 0–5, 2–5): the cut resolves all
		// three (weight 3), so the bridges go, not the cannot-links one
		// at a time (each lighter than the cut).
		{"cut weighed against every cannot-link it resolves", 6, []Pair{ml(0, 1, 2), ml(1, 2, 2), ml(0, 2, 2), ml(3, 4, 2), ml(4, 5, 2), ml(3, 5, 2),
			ml(2, 3, 1), ml(1, 4, 1), cl(0, 3, 1), cl(0, 5, 1), cl(2, 5, 1)}, []int{6, 7}},
		{"one cut resolves two contradictions", 4, []Pair{ml(0, 1, 1), ml(1, 2, 0.2), ml(2, 3, 1), cl(0, 3, 1), cl(0, 2, 1)}, []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &Set{N: tc.n, Pairs: tc.pairs}
			got, err := Repair(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("dropped %v, want %v", got, tc.want)
			}
		})
	}
}

// TestRepairBruteForce compares Repair with exhaustive search over every
// subset of pairs on random tiny sets (m ≤ 11). With one contradicted
// cannot-link the dropped weight must be the minimum (tolerance 1e-12);
// with several it must be consistent, at least the minimum, and
// inclusion-minimal (restoring any dropped pair breaks consistency).
func TestRepairBruteForce(t *testing.T) {
	const tol = 1e-12
	single, multi, optimalMulti := 0, 0, 0
	for seed := uint64(0); seed < 400; seed++ {
		rng := rand.New(rand.NewPCG(seed, 17))
		n := 4 + rng.IntN(4)
		m := 5 + rng.IntN(7)
		s := &Set{N: n}
		for len(s.Pairs) < m {
			i, j := rng.IntN(n), rng.IntN(n)
			if i == j {
				continue
			}
			k := MustLink
			if rng.Float64() < 0.35 {
				k = CannotLink
			}
			s.Pairs = append(s.Pairs, Pair{I: i, J: j, Kind: k, Weight: 0.1 + rng.Float64()})
		}
		// Count the cannot-links the full closure contradicts.
		comp, _ := Closure(&Set{N: n, Pairs: slices.DeleteFunc(slices.Clone(s.Pairs), func(p Pair) bool { return p.Kind != MustLink })})
		bad := 0
		for _, p := range s.Pairs {
			if p.Kind == CannotLink && comp[p.I] == comp[p.J] {
				bad++
			}
		}
		got, err := Repair(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		drop := dropMask(m, got)
		if !consistentKeep(s, drop) {
			t.Fatalf("seed %d: Repair left a contradiction (dropped %v of %v)", seed, got, s.Pairs)
		}
		w, best := weightOf(s, got), bruteRepair(s)
		switch {
		case bad == 0:
			if len(got) != 0 {
				t.Errorf("seed %d: consistent set, dropped %v", seed, got)
			}
		case bad == 1:
			single++
			if math.Abs(w-best) > tol {
				t.Errorf("seed %d: one contradiction: dropped weight %v, exhaustive minimum %v", seed, w, best)
			}
		default:
			multi++
			if w < best-tol {
				t.Errorf("seed %d: dropped weight %v below the exhaustive minimum %v", seed, w, best)
			}
			if math.Abs(w-best) <= tol {
				optimalMulti++
			}
			for _, u := range got {
				drop[u] = false
				if consistentKeep(s, drop) {
					t.Errorf("seed %d: pair %d dropped needlessly", seed, u)
				}
				drop[u] = true
			}
		}
	}
	if single < 20 || multi < 20 {
		t.Fatalf("too few informative cases: %d with one contradiction, %d with several", single, multi)
	}
	t.Logf("%d sets with one contradiction (all optimal), %d with several (%d optimal)", single, multi, optimalMulti)
}

// TestVoteNeighboursSameScores checks that Vote with Neighbours (a sparse
// similarity's rows) gives exactly the scores of the full O(m²) scan.
func TestVoteNeighboursSameScores(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		rng := rand.New(rand.NewPCG(seed, 3))
		n := 60
		nbr := make([][]int32, n)
		w := map[[2]int]float64{}
		for i := 0; i < n; i++ {
			for _, d := range []int{1, 2, 7} {
				j := (i + d) % n
				x := rng.Float64()
				w[[2]int{i, j}], w[[2]int{j, i}] = x, x
			}
		}
		for ij := range w {
			nbr[ij[0]] = append(nbr[ij[0]], int32(ij[1]))
		}
		sim := func(a, b int) float64 { return w[[2]int{a, b}] }
		s := randomSet(n, 150, 0.4, seed)
		full, err := Vote(context.Background(), s, sim, VoteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		sparse, err := Vote(context.Background(), s, sim, VoteOptions{Neighbours: func(a int) []int32 { return nbr[a] }})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(full, sparse) {
			t.Errorf("seed %d: scores differ:\nfull   %v\nsparse %v", seed, full, sparse)
		}
		nonzero := 0
		for _, x := range full {
			if x != 0 {
				nonzero++
			}
		}
		if nonzero < len(full)/2 {
			t.Errorf("seed %d: only %d of %d scores nonzero: the test graph is too sparse to compare", seed, nonzero, len(full))
		}
	}
}

// repairSink keeps benchmark results alive.
var repairSink []int

// BenchmarkRepair15k is the worst case of the NOA-SSC screen's repair at
// the size of cluster's BenchmarkAuto3000: 15 000 pairs on 3000 nodes in
// 3 classes with 10% flipped and no vote before it, so the wrong
// must-links merge everything into one component that thousands of
// cannot-links contradict.
func BenchmarkRepair15k(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 5))
	truth := make([]int, 3000)
	for i := range truth {
		truth[i] = rng.IntN(3)
	}
	s := &Set{N: len(truth)}
	for len(s.Pairs) < 15000 {
		i, j := rng.IntN(len(truth)), rng.IntN(len(truth))
		if i == j {
			continue
		}
		ml := truth[i] == truth[j]
		if rng.Float64() < 0.1 {
			ml = !ml
		}
		k := CannotLink
		if ml {
			k = MustLink
		}
		s.Pairs = append(s.Pairs, Pair{I: i, J: j, Kind: k})
	}
	b.ResetTimer()
	for range b.N {
		d, err := Repair(context.Background(), s)
		if err != nil {
			b.Fatal(err)
		}
		repairSink = d
	}
	b.ReportMetric(float64(len(repairSink)), "dropped")
}

func TestRepairCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := &Set{N: 3, Pairs: []Pair{{I: 0, J: 1, Kind: MustLink}, {I: 1, J: 2, Kind: MustLink}, {I: 0, J: 2, Kind: CannotLink}}}
	if _, err := Repair(ctx, s); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if _, err := Repair(context.Background(), &Set{N: 2, Pairs: []Pair{{I: 0, J: 0, Kind: MustLink}}}); !errors.Is(err, ErrInvalid) {
		t.Errorf("self pair: err = %v, want ErrInvalid", err)
	}
}
