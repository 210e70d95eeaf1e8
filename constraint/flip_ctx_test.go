package constraint

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/tether-sc/tether/internal/testctx"
)

// flipLabelsBefore is FlipLabels as it was before FlipLabelsContext
// (commit eb8926fd), kept as the reference the new functions must match.
func flipLabelsBefore(l Labels, f float64, k int, src rand.Source) (out Labels, flipped []int, err error) {
	if k < 2 {
		return nil, nil, fmt.Errorf("%w: flipping labels needs k ≥ 2 classes, got %d", ErrInvalid, k)
	}
	if err := l.Validate(k); err != nil {
		return nil, nil, err
	}
	lab := labelled(l)
	m, err := roundCount("flip", f, int64(len(lab)))
	if err != nil {
		return nil, nil, err
	}
	rng := newRand(src)
	out = slices.Clone(l)
	idx, _ := sampleIndices(context.Background(), "", int64(len(lab)), m, rng)
	for _, t := range idx {
		v := lab[t]
		c := rng.IntN(k - 1)
		if c >= l[v] {
			c++
		}
		out[v] = c
		flipped = append(flipped, v)
	}
	return out, flipped, nil
}

// flipPairsBefore is FlipPairs as it was before FlipPairsContext (commit
// eb8926fd).
func flipPairsBefore(s *Set, f float64, src rand.Source) (out *Set, flipped []int, err error) {
	if s == nil {
		s = &Set{}
	}
	if err := s.Validate(); err != nil {
		return nil, nil, err
	}
	m, err := roundCount("flip", f, int64(len(s.Pairs)))
	if err != nil {
		return nil, nil, err
	}
	out = &Set{N: s.N, Pairs: slices.Clone(s.Pairs)}
	idx, _ := sampleIndices(context.Background(), "", int64(len(s.Pairs)), m, newRand(src))
	for _, t := range idx {
		p := &out.Pairs[t]
		if p.Kind == MustLink {
			p.Kind = CannotLink
		} else {
			p.Kind = MustLink
		}
		flipped = append(flipped, int(t))
	}
	return out, flipped, nil
}

// flipInputs returns n nodes of which about 60% are labelled with classes
// 0…k−1, and a set of m pairs on them, both drawn from seed.
func flipInputs(n, k, m int, seed uint64) (Labels, *Set) {
	rng := rand.New(pcg(seed))
	l := make(Labels, n)
	for i := range l {
		l[i] = Unlabeled
		if rng.IntN(5) < 3 {
			l[i] = rng.IntN(k)
		}
	}
	s := &Set{N: n, Pairs: make([]Pair, m)}
	for q := range s.Pairs {
		i := rng.IntN(n - 1)
		s.Pairs[q] = Pair{I: i, J: i + 1 + rng.IntN(n-1-i), Kind: []Kind{MustLink, CannotLink}[rng.IntN(2)], Weight: float64(rng.IntN(3))}
	}
	return l, s
}

// TestFlipContextSameAsBefore: FlipLabels, FlipPairs and their Context
// forms with a live context flip exactly what the functions did before the
// Context forms existed (flipLabelsBefore, flipPairsBefore), over seeds and
// fractions on both sides of sampleIndices's switch from batched rejection
// to selection sampling (m ≥ total/8), and return the same errors.
func TestFlipContextSameAsBefore(t *testing.T) {
	const n, k, m = 5000, 4, 20000
	for seed := uint64(1); seed <= 4; seed++ {
		l, s := flipInputs(n, k, m, seed)
		for _, f := range []float64{0, 1e-4, 0.01, 0.1, 0.124, 0.126, 0.5, 0.9, 1} {
			name := fmt.Sprintf("seed %d, f = %v", seed, f)
			wantL, wantLF, err := flipLabelsBefore(l, f, k, pcg(seed+10))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, c := range []struct {
				what string
				flip func() (Labels, []int, error)
			}{
				{"FlipLabels", func() (Labels, []int, error) { return FlipLabels(l, f, k, pcg(seed+10)) }},
				{"FlipLabelsContext", func() (Labels, []int, error) { return FlipLabelsContext(t0(), l, f, k, pcg(seed+10)) }},
			} {
				gotL, gotLF, err := c.flip()
				if err != nil || !reflect.DeepEqual(gotL, wantL) || !reflect.DeepEqual(gotLF, wantLF) {
					t.Errorf("%s: %s differs from before (%d vs %d flipped, err %v)", name, c.what, len(gotLF), len(wantLF), err)
				}
			}
			wantS, wantSF, err := flipPairsBefore(s, f, pcg(seed+20))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, c := range []struct {
				what string
				flip func() (*Set, []int, error)
			}{
				{"FlipPairs", func() (*Set, []int, error) { return FlipPairs(s, f, pcg(seed+20)) }},
				{"FlipPairsContext", func() (*Set, []int, error) { return FlipPairsContext(t0(), s, f, pcg(seed+20)) }},
			} {
				gotS, gotSF, err := c.flip()
				if err != nil || !reflect.DeepEqual(gotS, wantS) || !reflect.DeepEqual(gotSF, wantSF) {
					t.Errorf("%s: %s differs from before (%d vs %d flipped, err %v)", name, c.what, len(gotSF), len(wantSF), err)
				}
			}
		}
	}
	// nil sources, a nil set and the errors are unchanged too.
	l, s := flipInputs(50, 3, 40, 9)
	gotL, gotLF, _ := FlipLabels(l, 0.3, 3, nil)
	wantL, wantLF, _ := flipLabelsBefore(l, 0.3, 3, nil)
	if !reflect.DeepEqual(gotL, wantL) || !reflect.DeepEqual(gotLF, wantLF) {
		t.Error("FlipLabels with a nil source differs from before")
	}
	gotS, gotSF, _ := FlipPairs(s, 0.3, nil)
	wantS, wantSF, _ := flipPairsBefore(s, 0.3, nil)
	if !reflect.DeepEqual(gotS, wantS) || !reflect.DeepEqual(gotSF, wantSF) {
		t.Error("FlipPairs with a nil source differs from before")
	}
	gotS, gotSF, gotErr := FlipPairs(nil, 0.5, nil)
	wantS, wantSF, wantErr := flipPairsBefore(nil, 0.5, nil)
	if !reflect.DeepEqual(gotS, wantS) || !reflect.DeepEqual(gotSF, wantSF) || gotErr != wantErr {
		t.Error("FlipPairs of a nil set differs from before")
	}
	for _, c := range []struct {
		name      string
		got, want error
	}{
		{"k = 1", second(FlipLabels(l, 0.1, 1, nil)), second(flipLabelsBefore(l, 0.1, 1, nil))},
		{"label 5, k = 3", second(FlipLabels(Labels{5}, 0.1, 3, nil)), second(flipLabelsBefore(Labels{5}, 0.1, 3, nil))},
		{"labels f = 1.5", second(FlipLabels(l, 1.5, 3, nil)), second(flipLabelsBefore(l, 1.5, 3, nil))},
		{"pairs f = -0.1", second(FlipPairs(s, -0.1, nil)), second(flipPairsBefore(s, -0.1, nil))},
		{"bad pair", second(FlipPairs(&Set{N: 2, Pairs: []Pair{{I: 0, J: 2}}}, 0.1, nil)), second(flipPairsBefore(&Set{N: 2, Pairs: []Pair{{I: 0, J: 2}}}, 0.1, nil))},
	} {
		if c.got == nil || c.want == nil || c.got.Error() != c.want.Error() || !errors.Is(c.got, ErrInvalid) {
			t.Errorf("%s: err %v, before %v", c.name, c.got, c.want)
		}
	}
}

// second returns the error of a flip.
func second[T any](_ T, _ []int, err error) error { return err }

// countChecks is a live context that counts the calls of Err.
type countChecks struct {
	context.Context
	n atomic.Int64
}

func (c *countChecks) Err() error { c.n.Add(1); return nil }

// TestFlipContextCancel: on 10⁶ labels or pairs, FlipLabelsContext and
// FlipPairsContext given a context cancelled before the call, one that
// cancels at its third check (inside the drawing of the subset) or one
// that cancels at its last check return an error wrapping
// context.Canceled and no result. The checks are counted on a live run:
// one before the work, those of sampleIndices (counted on its own with the
// same draws), and one every 4096 flips, so that no stretch of more than
// 4096 items goes unchecked. Before, both functions ran to the end.
func TestFlipContextCancel(t *testing.T) {
	const n, k, m = 1_000_000, 5, 1_000_000
	l, s := flipInputs(n, k, m, 3)
	labelledNodes := int64(len(labelled(l)))
	for _, c := range []struct {
		name  string
		total int64
		f     float64
		seed  uint64
		flip  func(ctx context.Context) (any, error)
	}{
		{"FlipLabels", labelledNodes, 0.3, 5, func(ctx context.Context) (any, error) {
			out, _, err := FlipLabelsContext(ctx, l, 0.3, k, pcg(5))
			return out, err
		}},
		{"FlipLabels few", labelledNodes, 0.02, 5, func(ctx context.Context) (any, error) {
			out, _, err := FlipLabelsContext(ctx, l, 0.02, k, pcg(5))
			return out, err
		}},
		{"FlipPairs", m, 0.3, 6, func(ctx context.Context) (any, error) {
			out, _, err := FlipPairsContext(ctx, s, 0.3, pcg(6))
			return out, err
		}},
		{"FlipPairs few", m, 0.02, 6, func(ctx context.Context) (any, error) {
			out, _, err := FlipPairsContext(ctx, s, 0.02, pcg(6))
			return out, err
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			live := &countChecks{Context: context.Background()}
			if _, err := c.flip(live); err != nil {
				t.Fatal(err)
			}
			flips, _ := roundCount("flip", c.f, c.total)
			sampled := &countChecks{Context: context.Background()}
			if _, err := sampleIndices(sampled, "", c.total, flips, newRand(pcg(c.seed))); err != nil {
				t.Fatal(err)
			}
			want := 1 + sampled.n.Load() + (flips+pollEvery-1)/pollEvery
			if got := live.n.Load(); got != want {
				t.Errorf("%d checks of the context, want 1 + %d (sampleIndices) + ⌈%d/%d⌉ = %d", got, sampled.n.Load(), flips, pollEvery, want)
			}
			cancelled, cancel := context.WithCancel(context.Background())
			cancel()
			for _, cc := range []struct {
				what string
				ctx  context.Context
			}{
				{"cancelled before", cancelled},
				{"cancelled at the third check", testctx.CancelAfter(2)},
				{"cancelled at the last check", testctx.CancelAfter(int(want - 1))},
			} {
				got, err := c.flip(cc.ctx)
				if !errors.Is(err, context.Canceled) {
					t.Errorf("%s: err = %v, want context.Canceled", cc.what, err)
				}
				if !reflect.ValueOf(got).IsNil() {
					t.Errorf("%s: a result with the error", cc.what)
				}
			}
		})
	}
}
