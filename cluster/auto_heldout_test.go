package cluster

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
)

// impliedByHand reports whether the pairs of train imply q, computed by
// brute force: the reflexive transitive closure of the training
// must-links as an n×n boolean matrix (Warshall's algorithm), then q is
// implied when its ends are joined, or when some training cannot-link
// (x, y) has x joined to one end and y to the other.
func impliedByHand(n int, train []constraint.Pair, q constraint.Pair) bool {
	reach := make([][]bool, n)
	for i := range reach {
		reach[i] = make([]bool, n)
		reach[i][i] = true
	}
	for _, p := range train {
		if p.Kind == constraint.MustLink {
			reach[p.I][p.J], reach[p.J][p.I] = true, true
		}
	}
	for m := range n {
		for i := range n {
			for j := range n {
				reach[i][j] = reach[i][j] || reach[i][m] && reach[m][j]
			}
		}
	}
	if reach[q.I][q.J] {
		return true
	}
	for _, p := range train {
		if p.Kind == constraint.CannotLink && (reach[q.I][p.I] && reach[q.J][p.J] || reach[q.I][p.J] && reach[q.J][p.I]) {
			return true
		}
	}
	return false
}

// heldOutMoons is the 60-node moons graph (noise 0.1) of the held-out
// tests and its classes.
func heldOutMoons(t *testing.T) (*graph.Graph, []int) {
	t.Helper()
	x, truth, err := synth.Moons(60, 0.1, rand.NewPCG(2, 4))
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Build(context.Background(), x, graph.DefaultSpec())
	if err != nil {
		t.Fatal(err)
	}
	return g, truth
}

// TestAutoUnimpliedByHand checks autoUnimplied against impliedByHand on
// random small instances: chains of must-links, cannot-links between
// components, contradictory training pairs and repeated pairs.
func TestAutoUnimpliedByHand(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 9))
	implied, kept := 0, 0
	for trial := range 400 {
		n := 2 + rnd.IntN(9)
		random := func(m int) []constraint.Pair {
			var out []constraint.Pair
			for range m {
				i, j := rnd.IntN(n), rnd.IntN(n)
				if i == j {
					continue
				}
				k := constraint.MustLink
				if rnd.IntN(2) == 0 {
					k = constraint.CannotLink
				}
				out = append(out, constraint.Pair{I: i, J: j, Kind: k})
			}
			return out
		}
		train, test := random(rnd.IntN(2*n)), random(1+rnd.IntN(2*n))
		var want []constraint.Pair
		for _, q := range test {
			if !impliedByHand(n, train, q) {
				want = append(want, q)
			}
		}
		got := autoUnimplied(n, train, test)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: n = %d, train %v, test %v: unimplied %v, want %v", trial, n, train, test, got, want)
		}
		implied += len(test) - len(want)
		kept += len(want)
	}
	// The instances exercise both outcomes.
	if implied < 100 || kept < 100 {
		t.Fatalf("%d implied and %d unimplied test pairs over all trials; want at least 100 of each", implied, kept)
	}
}

// TestAutoHeldOutUnimplied checks that Auto with HeldOut = unimplied
// scores exactly the held-out pairs the fold's training pairs do not
// imply (counted by impliedByHand over fgpwcSplit's folds), that the
// default scores all of them, and that when too few are left it scores
// every held-out pair and says so in the rule.
func TestAutoHeldOutUnimplied(t *testing.T) {
	g, truth := heldOutMoons(t)
	for _, tc := range []struct {
		name  string
		pairs int
	}{
		// 60 pairs on 60 nodes: the training must-links of a fold
		// form chains, so some held-out pairs are implied, and enough
		// are left (at 300 pairs all but one are implied: the
		// fallback's case).
		{"dense", 60},
		// 20 pairs on 60 nodes: few or none implied, and the count
		// is checked either way.
		{"sparse", 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set, err := constraint.UniformPairs(truth, tc.pairs, rand.NewPCG(6, uint64(tc.pairs)))
			if err != nil {
				t.Fatal(err)
			}
			p := &Problem{Graph: g, K: 2, Constraints: set}
			s := &Settings{Seed: 5}
			train, test := fgpwcSplit(set.Pairs, AutoDefaultFolds, s.Seed)
			implied := 0
			for f := range train {
				for _, q := range test[f] {
					if impliedByHand(g.N(), train[f], q) {
						implied++
					}
				}
			}
			res, err := Run(context.Background(), Auto{HeldOut: AutoHeldOutUnimplied}, p, s)
			if err != nil {
				t.Fatal(err)
			}
			rep := res.Report.(*AutoReport)
			if rep.Implied != implied || rep.HeldOut != len(set.Pairs)-implied {
				t.Fatalf("implied %d, held out %d; want %d and %d", rep.Implied, rep.HeldOut, implied, len(set.Pairs)-implied)
			}
			if !strings.Contains(rep.Rule, "imply (transitive closure) are not scored") {
				t.Errorf("rule %q does not state the unimplied rule", rep.Rule)
			}
			def, err := Run(context.Background(), Auto{}, p, s)
			if err != nil {
				t.Fatal(err)
			}
			if d := def.Report.(*AutoReport); d.Implied != 0 || d.HeldOut != len(set.Pairs) {
				t.Fatalf("default: implied %d, held out %d; want 0 and %d", d.Implied, d.HeldOut, len(set.Pairs))
			}
			if tc.name == "dense" && implied < 5 {
				t.Fatalf("dense: %d of %d held-out pairs implied; the case is meant to imply some", implied, len(set.Pairs))
			}
		})
	}
	// Fallback: a chain of must-links, each given six times. A held-out
	// copy is implied unless all six copies fall in its fold (chance
	// 5⁻⁵ per link), so fewer than 2·Folds pairs are left.
	t.Run("fallback", func(t *testing.T) {
		var pairs []constraint.Pair
		for range 6 {
			for i := 0; i < 29; i++ {
				pairs = append(pairs, constraint.Pair{I: i, J: i + 1, Kind: constraint.MustLink})
			}
		}
		set := &constraint.Set{N: g.N(), Pairs: pairs}
		res, err := Run(context.Background(), Auto{HeldOut: AutoHeldOutUnimplied}, &Problem{Graph: g, K: 2, Constraints: set}, &Settings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		rep := res.Report.(*AutoReport)
		if rep.Implied != 0 || rep.HeldOut != len(pairs) || !strings.Contains(rep.Rule, "every held-out pair is scored") {
			t.Fatalf("implied %d, held out %d, rule %q; want 0, %d and the fallback stated", rep.Implied, rep.HeldOut, rep.Rule, len(pairs))
		}
	})
}

// TestAutoHeldOutEmptyFold: under HeldOut unimplied a fold whose held-out
// pairs are all implied scores nothing, and its FoldScores entry is −1,
// not the 0 of an empty table (read as "every pair failed"); the other
// folds keep their scores. The pairs and seed are the first, over a few
// tried in order, that leave one fold empty and enough pairs in all.
func TestAutoHeldOutEmptyFold(t *testing.T) {
	g, truth := heldOutMoons(t)
	for seed := uint64(1); seed <= 40; seed++ {
		set, err := constraint.UniformPairs(truth, 200, rand.NewPCG(seed, 9))
		if err != nil {
			t.Fatal(err)
		}
		train, test := fgpwcSplit(set.Pairs, AutoDefaultFolds, seed)
		empty, left := map[int]bool{}, 0
		for f := range train {
			kept := autoUnimplied(g.N(), train[f], test[f])
			if len(kept) == 0 {
				empty[f] = true
			}
			left += len(kept)
		}
		if len(empty) == 0 || left < 2*AutoDefaultFolds {
			continue
		}
		res, err := Run(context.Background(), Auto{HeldOut: AutoHeldOutUnimplied}, &Problem{Graph: g, K: 2, Constraints: set}, &Settings{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range res.Report.(*AutoReport).Candidates {
			if c.Error != "" || c.Skipped != "" {
				continue
			}
			for f, v := range c.FoldScores {
				if empty[f] != (v == -1) || v > 1 {
					t.Errorf("seed %d, %s: fold scores %v; want −1 exactly at the empty folds %v", seed, c.Name, c.FoldScores, empty)
					break
				}
			}
		}
		return
	}
	t.Fatal("no seed of 1…40 left a fold without unimplied pairs; the test needs another draw")
}

// TestAutoHeldOutNames checks the knob's text form both ways and that an
// unknown value is refused.
func TestAutoHeldOutNames(t *testing.T) {
	for _, name := range []string{"default", "all", "unimplied", "Unimplied"} {
		var v AutoHeldOut
		if err := v.UnmarshalText([]byte(name)); err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		if b, _ := v.MarshalText(); !strings.EqualFold(string(b), name) {
			t.Errorf("%q round-trips to %q", name, b)
		}
	}
	var v AutoHeldOut
	if err := v.UnmarshalText([]byte("some")); err == nil {
		t.Error("unknown name accepted")
	}
	if _, err := (Auto{HeldOut: 7}).heldOut(); err == nil {
		t.Error("HeldOut 7 accepted")
	}
}
