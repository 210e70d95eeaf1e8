package constraint

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tether-sc/tether/internal/testctx"
)

// Contradictions against a brute-force count on random sets with
// repeats, contradictions, must-link chains and invalid pairs: samePair
// is the number of node pairs given as both kinds, inComponent the number
// of node pairs given as cannot-links only whose nodes a path of
// must-links joins. Check's own counts must agree too.
func TestContradictionsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	for trial := 0; trial < 300; trial++ {
		n := 2 + rng.IntN(12)
		s := &Set{N: n}
		for range rng.IntN(3 * n) {
			p := Pair{I: rng.IntN(n), J: rng.IntN(n), Kind: MustLink + Kind(rng.IntN(2))}
			switch rng.IntN(20) {
			case 0:
				p.J = n // out of range
			case 1:
				p.Weight = math.NaN()
			}
			s.Pairs = append(s.Pairs, p)
		}
		// Brute force: the kinds given for each valid node pair, and the
		// must-link graph's connectivity by repeated relaxation.
		kinds := map[[2]int][2]bool{}
		reach := make([][]bool, n)
		for i := range reach {
			reach[i] = make([]bool, n)
			reach[i][i] = true
		}
		for _, p := range s.Pairs {
			if p.I < 0 || p.I >= n || p.J < 0 || p.J >= n || p.I == p.J || math.IsNaN(p.Weight) {
				continue
			}
			key := [2]int{min(p.I, p.J), max(p.I, p.J)}
			k := kinds[key]
			k[p.Kind-MustLink] = true
			kinds[key] = k
			if p.Kind == MustLink {
				reach[p.I][p.J], reach[p.J][p.I] = true, true
			}
		}
		for m := 0; m < n; m++ {
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					reach[i][j] = reach[i][j] || reach[i][m] && reach[m][j]
				}
			}
		}
		wantSame, wantIn := 0, 0
		for key, k := range kinds {
			switch {
			case k[0] && k[1]:
				wantSame++
			case k[1] && reach[key[0]][key[1]]:
				wantIn++
			}
		}
		same, in := Contradictions(s)
		r := Check(s)
		if same != wantSame || in != wantIn || r.Count(Contradiction) != wantSame || r.Count(CannotLinkInComponent) != wantIn {
			t.Fatalf("trial %d: Contradictions (%d, %d), Check (%d, %d), brute force (%d, %d)\n%v", trial, same, in, r.Count(Contradiction), r.Count(CannotLinkInComponent), wantSame, wantIn, s.Pairs)
		}
	}
	if a, b := Contradictions(nil); a != 0 || b != 0 {
		t.Errorf("nil set: %d, %d", a, b)
	}
}

// ContradictionsContext counts as Contradictions does and checks its
// context in each of its passes over the pairs and in their sort (10⁷
// pairs took 1.5–3.8 s without a check): cancelled at any of its checks
// it returns context.Canceled and no counts, and it checks at least once
// per checkPoll pairs of its three passes over them.
func TestContradictionsContext(t *testing.T) {
	const n, m = 2000, 3*checkPoll + 100
	rng := rand.New(rand.NewPCG(9, 2))
	s := &Set{N: n}
	for range m {
		s.Pairs = append(s.Pairs, Pair{I: rng.IntN(n), J: rng.IntN(n), Kind: MustLink + Kind(rng.IntN(2))})
	}
	same, comp := Contradictions(s)
	if same == 0 || comp == 0 {
		t.Fatalf("counts %d, %d: want both kinds", same, comp)
	}
	for c := 0; ; c++ {
		gs, gc, err := ContradictionsContext(testctx.CancelAfter(c), s)
		if err == nil {
			if per := (m + checkPoll - 1) / checkPoll; c < 3*per {
				t.Fatalf("ContradictionsContext checks its context %d times on %d pairs, want at least %d a pass", c, m, per)
			}
			if gs != same || gc != comp {
				t.Fatalf("counts %d, %d, want Contradictions' %d, %d", gs, gc, same, comp)
			}
			return
		}
		if !errors.Is(err, context.Canceled) || gs != 0 || gc != 0 {
			t.Fatalf("cancel at check %d: %d, %d, err = %v, want no counts and context.Canceled", c, gs, gc, err)
		}
	}
}
