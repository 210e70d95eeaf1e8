package constraint

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomSet returns m random valid pairs on n nodes (repeats and
// contradictions allowed), a share pML of them must-links.
func randomSet(n, m int, pML float64, seed uint64) *Set {
	rng := rand.New(pcg(seed))
	s := &Set{N: n}
	for range m {
		i := rng.IntN(n)
		j := rng.IntN(n - 1)
		if j >= i {
			j++
		}
		k := CannotLink
		if rng.Float64() < pML {
			k = MustLink
		}
		s.Pairs = append(s.Pairs, Pair{I: i, J: j, Kind: k})
	}
	return s
}

// reach computes must-link reachability by depth-first search on an
// adjacency matrix: the brute-force transitive closure.
func reach(s *Set) [][]bool {
	adj := make([][]bool, s.N)
	for i := range adj {
		adj[i] = make([]bool, s.N)
	}
	for _, p := range s.Pairs {
		if p.Kind == MustLink {
			adj[p.I][p.J], adj[p.J][p.I] = true, true
		}
	}
	r := make([][]bool, s.N)
	for src := range s.N {
		r[src] = make([]bool, s.N)
		stack := []int{src}
		r[src][src] = true
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for y := range s.N {
				if adj[x][y] && !r[src][y] {
					r[src][y] = true
					stack = append(stack, y)
				}
			}
		}
	}
	return r
}

func TestClosureBruteForce(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 10, 30} {
		for seed := range uint64(20) {
			m := int(seed) % (2 * n)
			s := &Set{N: n}
			if n > 1 {
				s = randomSet(n, m, 0.7, seed)
			}
			comp, count := Closure(s)
			r := reach(s)
			next := 0
			for i := range n {
				// Components are numbered in order of their smallest node.
				if comp[i] == next {
					next++
				} else if comp[i] > next {
					t.Fatalf("n=%d seed %d: comp[%d] = %d before component %d", n, seed, i, comp[i], next)
				}
				for j := range n {
					if (comp[i] == comp[j]) != r[i][j] {
						t.Fatalf("n=%d seed %d: nodes %d,%d same component %v, reachable %v", n, seed, i, j, comp[i] == comp[j], r[i][j])
					}
				}
			}
			if count != next {
				t.Fatalf("count %d, want %d", count, next)
			}
		}
	}
}

func TestPartialLabels(t *testing.T) {
	// Must-links 1–3, 3–4, 6–5 on 8 nodes: components {1,3,4}, {5,6};
	// the cannot-link 0–2 is ignored. Expected labels by hand.
	s := &Set{N: 8, Pairs: []Pair{
		{I: 3, J: 1, Kind: MustLink}, {I: 0, J: 2, Kind: CannotLink},
		{I: 4, J: 3, Kind: MustLink}, {I: 6, J: 5, Kind: MustLink},
	}}
	l, count := PartialLabels(s)
	want := Labels{Unlabeled, 0, Unlabeled, 0, 0, 1, 1, Unlabeled}
	if count != 2 || !slices.Equal(l, want) {
		t.Errorf("PartialLabels = %v, %d; want %v, 2", l, count, want)
	}
	comp, nc := Closure(s)
	if nc != 5 {
		t.Errorf("Closure count %d, want 5", nc)
	}
	// comp = [0 1 2 1 1 3 3 4]. Cannot-links 0–2 (components 0, 2), 4–6
	// (components 1, 3), 1–5 (1, 3 again), 1–4 (inside component 1, skipped).
	s.Pairs = append(s.Pairs, Pair{I: 4, J: 6, Kind: CannotLink}, Pair{I: 1, J: 5, Kind: CannotLink}, Pair{I: 1, J: 4, Kind: CannotLink})
	got := ComponentCannotLinks(s, comp)
	if w := [][2]int{{0, 2}, {1, 3}}; !slices.Equal(got, w) {
		t.Errorf("ComponentCannotLinks = %v, want %v (comp %v)", got, w, comp)
	}
}

func TestCheckHandBuilt(t *testing.T) {
	// Conflicts worked out by hand, in the order Check reports them: bad
	// pairs during the first pass, then duplicates and contradictions, then
	// cannot-links inside components with their chains.
	s := &Set{N: 6, Pairs: []Pair{
		0:  {I: 0, J: 1, Kind: MustLink},
		1:  {I: 1, J: 2, Kind: MustLink},
		2:  {I: 2, J: 0, Kind: CannotLink}, // inside {0,1,2}: chain 2→1→0 = pairs 1, 0
		3:  {I: 1, J: 0, Kind: MustLink},   // duplicate of 0
		4:  {I: 3, J: 4, Kind: CannotLink},
		5:  {I: 4, J: 3, Kind: MustLink}, // contradiction with 4
		6:  {I: 5, J: 5, Kind: MustLink},
		7:  {I: 0, J: 6, Kind: CannotLink},
		8:  {I: 0, J: 5, Kind: CannotLink, Weight: -1},
		9:  {I: 0, J: 5, Kind: 3},
		10: {I: 2, J: 0, Kind: CannotLink}, // duplicate of 2
	}}
	rep := Check(s)
	type c struct {
		kind ConflictKind
		idx  []int
	}
	want := []c{
		{SelfPair, []int{6}},
		{OutOfRange, []int{7}},
		{BadWeight, []int{8}},
		{BadKind, []int{9}},
		{Duplicate, []int{0, 3}},
		{Contradiction, []int{5, 4}},
		{Duplicate, []int{2, 10}},
		{CannotLinkInComponent, []int{2, 1, 0}},
	}
	if len(rep.Conflicts) != len(want) {
		t.Fatalf("%d conflicts, want %d:\n%v", len(rep.Conflicts), len(want), rep.Conflicts)
	}
	for a, w := range want {
		got := rep.Conflicts[a]
		if got.Kind != w.kind || !slices.Equal(got.Index, w.idx) {
			t.Errorf("conflict %d = %v %v, want %v %v", a, got.Kind, got.Index, w.kind, w.idx)
		}
	}
	// Components of the valid must-links 0–1, 1–2, 1–0, 4–3: {0,1,2}, {3,4}, {5}.
	if rep.Components != 3 || rep.Supervised != 5 || rep.Largest != 3 {
		t.Errorf("components %d supervised %d largest %d, want 3 5 3", rep.Components, rep.Supervised, rep.Largest)
	}
	if rep.MustLinks != 5 || rep.CannotLinks != 5 {
		t.Errorf("counts %d ML %d CL, want 5 5", rep.MustLinks, rep.CannotLinks)
	}
	if got, w := rep.Conflicts[7].String(), "cannot-link inside a must-link component: cl(2,0) [pair 2] joined by ml(1,2) [pair 1], ml(0,1) [pair 0]"; got != w {
		t.Errorf("Describe = %q\nwant       %q", got, w)
	}
}

// TestCheckChains compares the cannot-links flagged inside components with a
// brute-force reachability test, and checks that each reported chain is a
// path of must-links from the cannot-link's I to its J.
func TestCheckChains(t *testing.T) {
	for seed := range uint64(30) {
		s := randomSet(25, 40, 0.6, seed)
		rep := Check(s)
		r := reach(s)
		// Unordered pairs whose cannot-link was reported as contradictory.
		type key struct{ a, b int }
		keyOf := func(p Pair) key { return key{min(p.I, p.J), max(p.I, p.J)} }
		flagged := map[key]bool{}
		for _, c := range rep.Conflicts {
			if c.Kind == Contradiction {
				flagged[keyOf(c.Pairs[1])] = true
			}
			if c.Kind != CannotLinkInComponent {
				continue
			}
			flagged[keyOf(c.Pairs[0])] = true
			cl := s.Pairs[c.Index[0]]
			at := cl.I
			for _, k := range c.Index[1:] {
				p := s.Pairs[k]
				switch {
				case p.Kind != MustLink:
					t.Fatalf("seed %d: chain uses %v", seed, p)
				case p.I == at:
					at = p.J
				case p.J == at:
					at = p.I
				default:
					t.Fatalf("seed %d: chain of %v broken at pair %d", seed, cl, k)
				}
			}
			if at != cl.J {
				t.Fatalf("seed %d: chain of %v ends at %d", seed, cl, at)
			}
		}
		for k, p := range s.Pairs {
			if p.Kind == CannotLink && r[p.I][p.J] != flagged[keyOf(p)] {
				t.Fatalf("seed %d: cannot-link %d %v inside component %v, flagged %v", seed, k, p, r[p.I][p.J], flagged[keyOf(p)])
			}
		}
	}
}

func TestResolvePolicies(t *testing.T) {
	for seed := range uint64(20) {
		s := randomSet(20, 30, 0.6, seed)
		rep := Check(s)
		_, _, err := Resolve(s, Reject)
		accepted := true // Reject refuses every conflict but identical repeats
		for _, c := range rep.Conflicts {
			accepted = accepted && c.IdenticalRepeat()
		}
		if accepted != (err == nil) || (err != nil && !errors.Is(err, ErrConflict)) {
			t.Fatalf("seed %d: Reject err %v with %d conflicts", seed, err, len(rep.Conflicts))
		}
		soft, _, err := Resolve(s, Soft)
		if err != nil || soft != s {
			t.Fatalf("seed %d: Soft changed the set or failed: %v", seed, err)
		}
		drop, _, err := Resolve(s, DropConflictingCannotLinks)
		if err != nil {
			t.Fatal(err)
		}
		if r2 := Check(drop); !r2.OK() {
			t.Fatalf("seed %d: conflicts left after dropping: %v", seed, r2.Conflicts)
		}
		// Every distinct must-link is kept, so the closure is unchanged.
		c1, n1 := Closure(s)
		c2, n2 := Closure(drop)
		if n1 != n2 || !slices.Equal(c1, c2) {
			t.Fatalf("seed %d: dropping changed the closure", seed)
		}
	}
	bad := &Set{N: 2, Pairs: []Pair{{I: 0, J: 2, Kind: MustLink}}}
	for _, p := range []Policy{Reject, DropConflictingCannotLinks, Soft} {
		if _, _, err := Resolve(bad, p); !errors.Is(err, ErrInvalid) {
			t.Errorf("%v: out-of-range pair gave %v, want ErrInvalid", p, err)
		}
	}
}

var sinkComp []int

func BenchmarkClosure1e6(b *testing.B) {
	const n = 1_000_000
	truth := make([]int, n)
	for i := range truth {
		truth[i] = i % 10
	}
	s, err := BernoulliPairs(truth, 1.0/n, pcg(1))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		sinkComp, _ = Closure(s)
	}
}

func BenchmarkCheck1e6(b *testing.B) {
	const n = 1_000_000
	truth := make([]int, n)
	for i := range truth {
		truth[i] = i % 10
	}
	s, err := BernoulliPairs(truth, 1.0/n, pcg(1))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if rep := Check(s); !rep.OK() {
			b.Fatal("conflicts in oracle constraints")
		}
	}
}
