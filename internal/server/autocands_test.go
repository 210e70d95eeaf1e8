package server

import (
	"context"
	"slices"
	"testing"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
)

// TestAutoCandidatesAreAutos: the candidates checkWork counts for auto
// (autoCandidates: generalizedOf, vectors, methodBytes) are the methods
// auto itself reports fitting on the same problem (AutoReport.Candidates
// without the Skipped ones), in its order, below and above
// cluster.AutoCostlyMaxN nodes, where it skips its costly ones. Serve kept
// a list of its own before (ml-noa-ssc, mcl-noa-ssc, fast-ge,
// fast-ge2-bh), which missed fast-ge2, cscap and the FGPWC and SSC-KA
// candidates, whose embeddings of max(2k, 10) vectors it did not count.
// One pair is too little supervision to cross-validate: auto fits njw
// alone and reports every candidate, which keeps this test short.
func TestAutoCandidatesAreAutos(t *testing.T) {
	for _, c := range []struct{ blocks, size int }{{3, 20}, {7, 143}} {
		n := c.blocks * c.size
		g := blockRing(t, c.blocks, c.size, 3)
		p := &cluster.Problem{Graph: g, K: 3, Constraints: &constraint.Set{N: n, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}}}}
		res, err := cluster.Run(context.Background(), cluster.Auto{}, p, &cluster.Settings{Seed: 1})
		if err != nil {
			t.Fatalf("n = %d: %v", n, err)
		}
		rep, ok := res.Report.(*cluster.AutoReport)
		if !ok {
			t.Fatalf("n = %d: report %T, want *cluster.AutoReport", n, res.Report)
		}
		var want, skipped []string
		for _, ac := range rep.Candidates {
			if ac.Skipped == "" {
				want = append(want, ac.Method)
			} else {
				skipped = append(skipped, ac.Method)
			}
		}
		var got []string
		for _, m := range autoCandidates(n, p.K) {
			got = append(got, m.Name())
		}
		if !slices.Equal(got, want) {
			t.Errorf("n = %d: serve's auto candidates %v, auto reports fitting %v", n, got, want)
		}
		// Above AutoCostlyMaxN auto skips its costly candidates, so the
		// comparison covers both lists' rule for them.
		if (len(skipped) > 0) != (n > cluster.AutoCostlyMaxN) {
			t.Errorf("n = %d: auto skipped %v", n, skipped)
		}
	}
}

// TestAutoVectors: auto's vectors are its candidates' largest: its FGPWC
// and SSC-KA candidates embed m = max(2k, 10) vectors (cluster.Auto's
// doc: fgpwc with m = max(2k, 10); SSC-KA's Rank 0 is max(2k, 10)), which
// counting k alone missed.
func TestAutoVectors(t *testing.T) {
	for _, c := range []struct{ k, n, want int }{{2, 1000, 10}, {3, 5000, 10}, {30, 5000, 60}, {100, 500, 200}} {
		if got, why := vectors(cluster.Auto{}, c.k, c.n); got != c.want {
			t.Errorf("auto, k = %d, n = %d: vectors %d (%s), want %d", c.k, c.n, got, why, c.want)
		}
	}
}
