package constraint

import (
	"crypto/sha256"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestTable41(t *testing.T) {
	// Sizes copied from seed 000 Table 4.1; each partition has 500 nodes.
	want := map[string][]int{
		"A": {100, 100, 100, 100, 100},
		"B": {144, 125, 100, 75, 56},
		"C": {175, 150, 100, 50, 25},
		"D": {250, 125, 63, 31, 31},
	}
	for name, w := range want {
		got, err := Table41(name)
		if err != nil || !slices.Equal(got, w) {
			t.Errorf("Table41(%s) = %v, %v; want %v", name, got, err, w)
		}
		if l := BlockLabels(got); len(l) != 500 {
			t.Errorf("partition %s has %d nodes, want 500", name, len(l))
		}
	}
	if _, err := Table41("E"); err == nil {
		t.Error("Table41(E): no error")
	}
	if got := BlockLabels([]int{2, 0, 1}); !slices.Equal(got, []int{0, 0, 2}) {
		t.Errorf("BlockLabels = %v", got)
	}
}

func TestConnectivityThreshold(t *testing.T) {
	// Σ (n_c − 1)/2 · ln n_c by hand (natural logarithm):
	// A: 5 · 99/2 · ln 100 = 5 · 227.95 = 1139.75 → 1140, the thesis's "228 × 5 = 1140".
	// D: 124.5·ln 250 + 62·ln 125 + 31·ln 63 + 2·15·ln 31 = 687.42 + 299.35 + 128.44 + 103.02 = 1218.2.
	tests := []struct {
		sizes []int
		want  int
	}{
		{[]int{100, 100, 100, 100, 100}, 1140},
		{[]int{250, 125, 63, 31, 31}, 1218},
		{[]int{1, 0}, 0},
		{[]int{2}, 0}, // 1/2 · ln 2 = 0.35
	}
	for _, tc := range tests {
		if got := ConnectivityThreshold(tc.sizes); got != tc.want {
			t.Errorf("ConnectivityThreshold(%v) = %d, want %d", tc.sizes, got, tc.want)
		}
	}
}

func TestUniformMustLinks(t *testing.T) {
	truth := interleaved(5, 4, 1) // 10 + 6 = 16 correct must-links
	const m, reps = 3, 8000
	hist := map[int64]int{}
	for r := range reps {
		s, err := UniformMustLinks(truth, m, pcg(uint64(r)))
		if err != nil {
			t.Fatal(err)
		}
		checkOracle(t, s, truth)
		if ml, cl := s.Count(); ml != m || cl != 0 {
			t.Fatalf("%d must-links, %d cannot-links; want %d, 0", ml, cl, m)
		}
		for _, p := range s.Pairs {
			hist[PairIndex(p.I, p.J)]++
		}
	}
	if len(hist) != 16 {
		t.Fatalf("%d distinct must-links drawn, want 16", len(hist))
	}
	// Inclusion probability m/16 for each.
	f := float64(m) / 16
	var chi float64
	for _, c := range hist {
		d := float64(c) - reps*f
		chi += d * d / (reps * f * (1 - f))
	}
	if lim := chiSquareLimit(16); chi > lim {
		t.Errorf("inclusion χ² = %.1f > %.1f", chi, lim)
	}
	if _, err := UniformMustLinks(truth, 17, nil); err == nil {
		t.Error("17 of 16 must-links: no error")
	}
}

func shares(p, q Pair) bool { return p.I == q.I || p.I == q.J || p.J == q.I || p.J == q.J }

// TestMustLinksUniformityInvariants drives the process to exhaustion, through
// both rejection samplers and both exact fallbacks: every pair drawn is a
// new correct must-link, and with α = 0 each one after the first shares a
// node with an earlier one whenever such a remaining must-link exists
// (checked by brute force).
func TestMustLinksUniformityInvariants(t *testing.T) {
	truth := interleaved(7, 5, 3, 1)
	all := withinPairs(truth) // 21 + 10 + 3 = 34
	for _, alpha := range []float64{0, 0.3, 1} {
		for r := range 50 {
			s, err := MustLinksUniformity(truth, int(all), alpha, pcg(uint64(r)))
			if err != nil {
				t.Fatal(err)
			}
			checkOracle(t, s, truth)
			if int64(len(s.Pairs)) != all {
				t.Fatalf("%d pairs, want %d", len(s.Pairs), all)
			}
			if alpha != 0 {
				continue
			}
			for k := 1; k < len(s.Pairs); k++ {
				if slices.ContainsFunc(s.Pairs[:k], func(q Pair) bool { return shares(q, s.Pairs[k]) }) {
					continue
				}
				// Not adjacent: there must have been no adjacent candidate.
				for b := range len(truth) {
					for a := range b {
						cand := Pair{I: a, J: b, Kind: MustLink}
						if truth[a] != truth[b] || slices.Contains(s.Pairs[:k], cand) {
							continue
						}
						if slices.ContainsFunc(s.Pairs[:k], func(q Pair) bool { return shares(q, cand) }) {
							t.Fatalf("seed %d step %d: drew non-adjacent %v while %v was available", r, k, s.Pairs[k], cand)
						}
					}
				}
			}
		}
	}
	if _, err := MustLinksUniformity(truth, 5, 1.5, nil); err == nil {
		t.Error("α = 1.5: no error")
	}
}

// TestMustLinksUniformityAdjacentUniform checks the α = 0 rule on one class
// of 5 nodes: given the first two picks, the third is uniform among the
// remaining pairs sharing a node with them. When the two picks share a node
// the 7 candidates include the pair closing the triangle, whose two nodes
// are both touched, so this exercises the ½ acceptance of the sampler. The
// expected distribution is the uniform one by the definition in seed 000
// §4.1.3; candidates are enumerated by brute force.
func TestMustLinksUniformityAdjacentUniform(t *testing.T) {
	truth := []int{0, 0, 0, 0, 0}
	const reps = 60000
	type state struct{ a, b int64 } // first two picks, a < b
	counts := map[state]map[int64]int{}
	for r := range reps {
		s, err := MustLinksUniformity(truth, 3, 0, pcg(uint64(r)))
		if err != nil {
			t.Fatal(err)
		}
		a, b := PairIndex(s.Pairs[0].I, s.Pairs[0].J), PairIndex(s.Pairs[1].I, s.Pairs[1].J)
		st := state{min(a, b), max(a, b)}
		if counts[st] == nil {
			counts[st] = map[int64]int{}
		}
		counts[st][PairIndex(s.Pairs[2].I, s.Pairs[2].J)]++
	}
	var chi float64
	df := 0
	for st, c := range counts {
		p1, p2 := pairOf(st.a), pairOf(st.b)
		var cand []int64
		for t0 := range NumPairs(5) {
			q := pairOf(t0)
			if t0 != st.a && t0 != st.b && (shares(q, p1) || shares(q, p2)) {
				cand = append(cand, t0)
			}
		}
		total := 0
		obs := make([]int, len(cand))
		for a, t0 := range cand {
			obs[a] = c[t0]
			total += c[t0]
		}
		for t0 := range c {
			if !slices.Contains(cand, t0) {
				t.Fatalf("after %v, %v: drew %v, not adjacent", p1, p2, pairOf(t0))
			}
		}
		exp := make([]float64, len(cand))
		for a := range exp {
			exp[a] = float64(total) / float64(len(cand))
		}
		chi += chiSquare(obs, exp)
		df += len(cand) - 1
	}
	if lim := chiSquareLimit(df); chi > lim {
		t.Errorf("third pick χ² = %.1f > %.1f (df %d)", chi, lim, df)
	}
}

func pairOf(t int64) Pair {
	i, j := PairAt(t)
	return Pair{I: i, J: j, Kind: MustLink}
}

// TestMustLinksUniformityMix checks the mixture: after a first must-link in
// a class of n_c nodes, the second shares a node with it with probability
// α·A/(M−1) + (1 − α), A = 2(n_c − 2) adjacent pairs, M = Σ C(n_c, 2); the
// first pick is in class c with probability C(n_c,2)/M.
func TestMustLinksUniformityMix(t *testing.T) {
	truth := interleaved(6, 4) // M = 15 + 6 = 21
	const M, reps = 21.0, 20000
	for _, alpha := range []float64{0, 0.25, 0.5, 1} {
		t.Run(fmt.Sprint(alpha), func(t *testing.T) {
			adjacent := 0
			for r := range reps {
				s, err := MustLinksUniformity(truth, 2, alpha, pcg(uint64(r)))
				if err != nil {
					t.Fatal(err)
				}
				if shares(s.Pairs[0], s.Pairs[1]) {
					adjacent++
				}
			}
			// P(adjacent | uniform) = (15/21)·(8/20) + (6/21)·(4/20).
			pu := 15/M*8/(M-1) + 6/M*4/(M-1)
			p := alpha*pu + (1 - alpha)
			sd := math.Sqrt(reps * p * (1 - p))
			if math.Abs(float64(adjacent)-reps*p) > 5*sd+0.5 {
				t.Errorf("second pick adjacent %d times of %d, want %.0f ± %.0f", adjacent, reps, reps*p, 5*sd)
			}
		})
	}
}

// TestMustLinksUniformitySaturation draws m at or near the number of
// correct must-links. Before the exact draws used Fenwick trees they
// re-sorted (uniform rule) or re-enumerated (adjacent rule) the candidates
// at every draw past the rejection sampler, O(m log m) each, and the
// adjacent rule summed the k class weights at every draw: each of the
// first four cases alone ran past 60 s, the fifth 3.7 s. Each
// must give exactly m distinct correct must-links and, when m is the
// total, every one of them once. Wall time is not asserted.
func TestMustLinksUniformitySaturation(t *testing.T) {
	tests := []struct {
		name  string
		truth []int
		short int64 // m = total − short
		alpha float64
	}{
		{"one class of 2000, all, α=1", make([]int, 2000), 0, 1},
		{"one class of 2000, all but 99 000, α=0", make([]int, 2000), 99000, 0},
		{"1200+800, all, α=0.5", interleaved(1200, 800), 0, 0.5},
		{"1200+800, all but 1, α=0", interleaved(1200, 800), 1, 0},
		{"many small classes and one large, all, α=0", interleaved(400, 30, 20, 9, 5, 3, 2, 2, 1, 1), 0, 0},
		{"many small classes and one large, all, α=0.05", interleaved(400, 30, 20, 9, 5, 3, 2, 2, 1, 1), 0, 0.05},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			total := withinPairs(tc.truth)
			m := total - tc.short
			s, err := MustLinksUniformity(tc.truth, int(m), tc.alpha, pcg(3))
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(s.Pairs)) != m || s.N != len(tc.truth) {
				t.Fatalf("%d pairs on %d nodes, want %d on %d", len(s.Pairs), s.N, m, len(tc.truth))
			}
			seen := make([]bool, NumPairs(len(tc.truth)))
			for k, p := range s.Pairs {
				if p.I < 0 || p.I >= p.J || p.J >= s.N || p.Kind != MustLink || tc.truth[p.I] != tc.truth[p.J] {
					t.Fatalf("pair %d %+v: not a correct must-link with I < J", k, p)
				}
				if x := PairIndex(p.I, p.J); seen[x] {
					t.Fatalf("pair %d %+v repeated", k, p)
				} else {
					seen[x] = true
				}
			}
			if tc.short != 0 {
				return
			}
			for j := range tc.truth {
				for i := range j {
					if tc.truth[i] == tc.truth[j] && !seen[PairIndex(i, j)] {
						t.Fatalf("all %d must-links drawn but (%d,%d) missing", m, i, j)
					}
				}
			}
		})
	}
}

// TestMustLinksUniformityLaw compares the law of the whole ordered sequence
// of must-links, m = all of them, with its exact value computed by brute
// force from the definition of seed 000 §4.1.3 (the first pick uniform;
// each next one, with probability α, uniform among the remaining correct
// must-links, otherwise uniform among those sharing a node with a chosen
// one, or uniform among the remaining if there is none). Sequences of
// probability 0 must never occur; the others are compared by a χ² test
// whose cells of expected count below 5 are pooled, at the 1 − 10⁻⁶
// quantile.
func TestMustLinksUniformityLaw(t *testing.T) {
	inputs := []struct {
		name  string
		truth []int
		reps  int
	}{
		{"3+2+2 nodes, 5 must-links", interleaved(3, 2, 2), 6000},
		{"one class of 4, 6 must-links", []int{0, 0, 0, 0}, 30000},
	}
	for _, in := range inputs {
		for _, alpha := range []float64{0, 0.5, 1} {
			t.Run(fmt.Sprintf("%s α=%g", in.name, alpha), func(t *testing.T) {
				law := sequenceLaw(in.truth, alpha)
				m := int(withinPairs(in.truth))
				obs := map[string]int{}
				for r := range in.reps {
					s, err := MustLinksUniformity(in.truth, m, alpha, pcg(uint64(r)))
					if err != nil {
						t.Fatal(err)
					}
					key := fmt.Sprint(s.Pairs)
					if law[key] == 0 {
						t.Fatalf("drew %s, of probability 0", key)
					}
					obs[key]++
				}
				var o []int
				var e []float64
				pooledO, pooledE := 0, 0.0
				for key, p := range law {
					if exp := p * float64(in.reps); exp < 5 {
						pooledO += obs[key]
						pooledE += exp
					} else {
						o = append(o, obs[key])
						e = append(e, exp)
					}
				}
				if pooledE > 0 {
					o = append(o, pooledO)
					e = append(e, pooledE)
				}
				if chi, lim := chiSquare(o, e), chiSquareLimit(len(o)-1); chi > lim {
					t.Errorf("sequence law χ² = %.1f > %.1f (%d cells, %d sequences of positive probability)", chi, lim, len(o), len(law))
				}
			})
		}
	}
}

// sequenceLaw returns the probability of each ordered sequence of all the
// correct must-links of truth (keyed by fmt.Sprint of its pairs) under the
// uniformity-α process, enumerated from its definition; sequences of
// probability 0 are left out.
func sequenceLaw(truth []int, alpha float64) map[string]float64 {
	var all []Pair
	for j := range truth {
		for i := range j {
			if truth[i] == truth[j] {
				all = append(all, Pair{I: i, J: j, Kind: MustLink})
			}
		}
	}
	law := map[string]float64{}
	var rec func(seq []Pair, p float64)
	rec = func(seq []Pair, p float64) {
		if len(seq) == len(all) {
			law[fmt.Sprint(seq)] += p
			return
		}
		var rest, adj []Pair
		for _, q := range all {
			if slices.Contains(seq, q) {
				continue
			}
			rest = append(rest, q)
			if slices.ContainsFunc(seq, func(c Pair) bool { return shares(c, q) }) {
				adj = append(adj, q)
			}
		}
		for _, q := range rest {
			pq := 1 / float64(len(rest))
			if len(seq) > 0 && len(adj) > 0 {
				pq *= alpha
				if slices.Contains(adj, q) {
					pq += (1 - alpha) / float64(len(adj))
				}
			}
			if pq > 0 {
				rec(append(slices.Clip(seq), q), p*pq)
			}
		}
	}
	rec(nil, 1)
	return law
}

// TestMustLinksUniformityExactTrees drives the generator to exhaustion and,
// after every must-link taken, checks its exact draws against brute force:
// the r-th unchosen must-link (uniform rule) and the r-th unchosen pair of
// class c with a touched node (adjacent rule), for every r, both in index
// order as the enumeration before the Fenwick trees returned them, and the
// per-class counts of the adjacent rule.
func TestMustLinksUniformityExactTrees(t *testing.T) {
	truth := interleaved(12, 7, 4, 2, 1)
	cp := newClassPairs(truth)
	total := cp.total()
	for _, alpha := range []float64{0, 0.5, 1} {
		for seed := range 5 {
			checked := make([]int, len(cp.members)+1) // near[c] for each c, then free
			g := newUniformityGen(cp, int(total), pcg(uint64(seed)))
			for step := range int(total) {
				g.take(g.draw(step, alpha))
				// Build the trees as soon as allowed, not only when a
				// draw falls back to them.
				var unchosen []int64
				for x := range total {
					if !g.isChosen(x) {
						unchosen = append(unchosen, x)
					}
				}
				if free := g.freeTree(); free != nil {
					checked[len(cp.members)]++
					for r, want := range unchosen {
						if got := free.find(int64(r)); got != want {
							t.Fatalf("α=%g seed %d step %d: free.find(%d) = %d, want %d", alpha, seed, step, r, got, want)
						}
					}
				}
				var sum int64
				for c, mem := range cp.members {
					var adj []int64
					for x := cp.offset[c]; x < cp.offset[c+1]; x++ {
						a, b := PairAt(x - cp.offset[c])
						if !g.isChosen(x) && (g.touched[mem[a]] || g.touched[mem[b]]) {
							adj = append(adj, x-cp.offset[c])
						}
					}
					if w := g.adjWeight(c); w != int64(len(adj)) {
						t.Fatalf("α=%g seed %d step %d: class %d weight %d, want %d", alpha, seed, step, c, w, len(adj))
					}
					for r := range adj {
						if got := g.weight.find(sum + int64(r)); got != int64(c) {
							t.Fatalf("α=%g seed %d step %d: weight.find(%d) = class %d, want %d", alpha, seed, step, sum+int64(r), got, c)
						}
					}
					sum += int64(len(adj))
					if len(g.tlist[c]) == 0 {
						continue
					}
					if near := g.nearTree(c); near != nil {
						checked[c]++
						for r, want := range adj {
							if got := near.find(int64(r)); got != want {
								t.Fatalf("α=%g seed %d step %d: near[%d].find(%d) = %d, want %d", alpha, seed, step, c, r, got, want)
							}
						}
					}
				}
				if sum != g.adjTotal {
					t.Fatalf("α=%g seed %d step %d: adjacent total %d, want %d", alpha, seed, step, g.adjTotal, sum)
				}
			}
			// Class 4 has a single node, hence no pairs and no tree.
			if slices.Contains(checked[:4], 0) || checked[5] == 0 {
				t.Errorf("α=%g seed %d: trees checked %v times (classes 0…4, then free), want each but class 4's at least once", alpha, seed, checked)
			}
		}
	}
}

// TestMustLinksUniformityPinned pins the output for given seeds: SHA-256
// digests recorded from the code before the exact draws used Fenwick trees
// (commit ad10fa7a), which the change had to leave byte-identical. The
// closure rows are those of `tether repro closure` (Fig. 4.4, seed 1, the
// stream of experiment/closure.go; partitions C and D at α = 0 go through
// the adjacent rule's exact draw); the others run to or near exhaustion,
// through both exact draws, and one2000 keeps the chosen set in a map.
func TestMustLinksUniformityPinned(t *testing.T) {
	one := func(n int) []int { return make([]int, n) }
	tests := []struct {
		name   string
		truth  []int
		m      int
		alpha  float64
		reps   int
		stream func(r int) rand.Source
		want   string
	}{
		{"closure A α=0.5", BlockLabels([]int{100, 100, 100, 100, 100}), 1140, 0.5, 50, closureStream(0, 8), "1b8b1ce59aa2649d"},
		{"closure B α=1", BlockLabels([]int{144, 125, 100, 75, 56}), 1153, 1, 50, closureStream(1, 13), "a5052706718ffdd5"},
		{"closure C α=0", BlockLabels([]int{175, 150, 100, 50, 25}), 1185, 0, 50, closureStream(2, 0), "0863b3ca1e1dd9ae"},
		{"closure D α=0", BlockLabels([]int{250, 125, 63, 31, 31}), 1218, 0, 50, closureStream(3, 0), "427658e9fdba1965"},
		{"7+5+3+1 all α=1", interleaved(7, 5, 3, 1), 34, 1, 50, seedStream, "0548e0d055182521"},
		{"40+30+20+10 all α=0.3", interleaved(40, 30, 20, 10), 1450, 0.3, 10, seedStream, "553d19b489337012"},
		{"one150 all α=0.5", one(150), 11175, 0.5, 3, seedStream, "2edd7955c920eb04"},
		{"one2000 20000 α=0.5", one(2000), 20000, 0.5, 2, seedStream, "17a15ea7ab1ab934"},
		{"Table 4.1 A all α=0", BlockLabels([]int{100, 100, 100, 100, 100}), 24750, 0, 2, seedStream, "87b7050f9a01207f"},
		{"9+1+4+2+1+6 all α=0.05", interleaved(9, 1, 4, 2, 1, 6), 58, 0.05, 30, seedStream, "fef7396f2ee366f4"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := sha256.New()
			for r := range tc.reps {
				s, err := MustLinksUniformity(tc.truth, tc.m, tc.alpha, tc.stream(r))
				if err != nil {
					t.Fatal(err)
				}
				p := sha256.New()
				for _, q := range s.Pairs {
					fmt.Fprintf(p, "%d,%d,%d\n", q.I, q.J, q.Kind)
				}
				fmt.Fprintf(h, "%x\n", p.Sum(nil)[:8])
			}
			if got := fmt.Sprintf("%x", h.Sum(nil)[:8]); got != tc.want {
				t.Errorf("digest %s, want %s", got, tc.want)
			}
		})
	}
}

func seedStream(r int) rand.Source { return pcg(uint64(r)) }

// closureStream returns the source of repetition r of the Fig. 4.4 point
// (partition pi, α index xi) of `tether repro closure`, seed 1.
func closureStream(pi, xi uint64) func(r int) rand.Source {
	return func(r int) rand.Source { return rand.NewPCG(1, 4<<56|pi<<48|xi<<24|uint64(r)) }
}
