package constraint

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tether-sc/tether/internal/testctx"
)

// checkCtxSet returns a set of 3·checkPoll + 100 random pairs on
// 2·checkPoll + 7 nodes, half must-links: its must-link components hold
// cannot-links, so that Check builds the forest of its chains.
func checkCtxSet() *Set {
	const n, m = 2*checkPoll + 7, 3*checkPoll + 100
	rng := rand.New(rand.NewPCG(4, 4))
	s := &Set{N: n}
	for range m {
		i, j := rng.IntN(n), rng.IntN(n-1)
		if j >= i {
			j++ // no self pair, which Resolve refuses
		}
		s.Pairs = append(s.Pairs, Pair{I: i, J: j, Kind: MustLink + Kind(rng.IntN(2))})
	}
	return s
}

// CheckContext gives Check's report and checks its context in its passes
// over the pairs, in their sort and, beyond what ContradictionsContext
// does, as it builds the must-link forest of the chains (two passes over
// the pairs and one over the nodes, unpolled before): cancelled at any
// of its checks it returns context.Canceled and no report. Check, which
// tether constraints check and cosc ran on user input, had no variant
// that polled (10⁷ pairs take seconds). Check is now CheckContext under
// context.Background(), so comparing the two only shows that the
// counting context changes nothing; the report's correctness is Check's
// tests' (check_test.go), on sets with known conflicts.
func TestCheckContext(t *testing.T) {
	s := checkCtxSet()
	want := Check(s)
	if want.Count(CannotLinkInComponent) == 0 {
		t.Fatal("no cannot-link inside a must-link component: the forest is not built")
	}
	count := &countingCtx{Context: context.Background()}
	got, err := CheckContext(count, s)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("CheckContext: %v; report equal to Check's: %v", err, reflect.DeepEqual(got, want))
	}
	counts := &countingCtx{Context: context.Background()}
	if _, _, err := ContradictionsContext(counts, s); err != nil {
		t.Fatal(err)
	}
	per := func(k int) int { return (k + checkPoll - 1) / checkPoll }
	if forest := count.n - counts.n; forest < 2*per(len(s.Pairs))+per(s.N) {
		t.Errorf("CheckContext checks its context %d times, ContradictionsContext %d: %d in the forest, want at least %d (every %d pairs of two passes and nodes of one)",
			count.n, counts.n, forest, 2*per(len(s.Pairs))+per(s.N), checkPoll)
	}
	for c := 0; c < count.n; c++ {
		if r, err := CheckContext(testctx.CancelAfter(c), s); !errors.Is(err, context.Canceled) || r != nil {
			t.Fatalf("cancelled at check %d of %d: report %v, err = %v; want none and context.Canceled", c+1, count.n, r != nil, err)
		}
	}
	if r, err := CheckContext(testctx.CancelAfter(0), nil); !errors.Is(err, context.Canceled) || r != nil {
		t.Errorf("nil set, cancelled: %v, %v", r, err)
	}
}

// ResolveContext gives Resolve's results and checks its context as
// CheckContext does, then as it drops the conflicting pairs: cancelled at
// any of its last checks it returns context.Canceled and nothing else.
func TestResolveContext(t *testing.T) {
	s := checkCtxSet()
	want, wantRep, wantErr := Resolve(s, DropConflictingCannotLinks)
	if wantErr != nil || want == nil || len(want.Pairs) == len(s.Pairs) {
		t.Fatalf("Resolve: %v, %d of %d pairs kept: want some dropped", wantErr, len(want.Pairs), len(s.Pairs))
	}
	count := &countingCtx{Context: context.Background()}
	got, rep, err := ResolveContext(count, s, DropConflictingCannotLinks)
	if err != nil || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(rep, wantRep) {
		t.Fatalf("ResolveContext: %v; same set %v, same report %v", err, reflect.DeepEqual(got, want), reflect.DeepEqual(rep, wantRep))
	}
	checks := &countingCtx{Context: context.Background()}
	if _, err := CheckContext(checks, s); err != nil {
		t.Fatal(err)
	}
	if after := count.n - checks.n; after < (len(s.Pairs)+checkPoll-1)/checkPoll {
		t.Errorf("ResolveContext checks its context %d times after the check, want at least one every %d pairs", after, checkPoll)
	}
	for c := checks.n; c < count.n; c++ {
		if out, rep, err := ResolveContext(testctx.CancelAfter(c), s, DropConflictingCannotLinks); !errors.Is(err, context.Canceled) || out != nil || rep != nil {
			t.Errorf("cancelled at check %d of %d: set %v, report %v, err = %v; want none and context.Canceled", c+1, count.n, out != nil, rep != nil, err)
		}
	}
}
