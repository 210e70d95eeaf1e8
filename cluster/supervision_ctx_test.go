package cluster

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/internal/testctx"
)

// supervisionPairsBefore is supervisionPairs as it was before it took a
// context (commit eb8926fd), with constraint.FromLabels and
// SampleFromLabels: the reference that the context-aware form must match.
func supervisionPairsBefore(method string, p *Problem, s *Settings, policy pairPolicy) ([]constraint.Pair, []string, error) {
	var pairs []constraint.Pair
	if p.Constraints != nil {
		pairs = append(pairs, p.Constraints.Pairs...)
	}
	if p.Labels == nil {
		return pairs, nil, nil
	}
	if policy == closurePairs {
		return append(pairs, chainPairs(p.Labels)...), nil, nil
	}
	lab := len(p.Labels.Labeled())
	total := constraint.NumPairs(lab)
	if total <= MaxLabelPairs {
		return append(pairs, constraint.FromLabels(p.Labels).Pairs...), nil, nil
	}
	set, err := constraint.SampleFromLabels(p.Labels, float64(MaxLabelPairs)/float64(total), s.src(streamLabelSample))
	if err != nil {
		return nil, nil, wrapMethod(method, err)
	}
	w := fmt.Sprintf("%s: %d labelled nodes give %d pairs; %d were sampled (MaxLabelPairs = %d)", method, lab, total, len(set.Pairs), MaxLabelPairs)
	return append(pairs, set.Pairs...), []string{w}, nil
}

// supervisionLabels returns n nodes of which the first labelled, spread
// (every third node up to 3·labelled), have classes 0…k−1.
func supervisionLabels(n, labelled, k int) constraint.Labels {
	l := make(constraint.Labels, n)
	for i := range l {
		l[i] = constraint.Unlabeled
		if i%3 == 0 && i/3 < labelled {
			l[i] = (i / 3) % k
		}
	}
	return l
}

// TestSupervisionPairsContextSameAsBefore: with a live context the pairs
// and warnings of supervisionPairsContext are those of supervisionPairs
// before it took one, for every label count on both sides of
// MaxLabelPairs (all pairs, sampled pairs), both policies and several
// seeds.
func TestSupervisionPairsContextSameAsBefore(t *testing.T) {
	cons := &constraint.Set{N: 6000, Pairs: []constraint.Pair{{I: 1, J: 2, Kind: constraint.CannotLink}}}
	for _, labelled := range []int{0, 2, 40, 447, 448, 500, 1999} { // 447·446/2 = 99681 ≤ 10⁵ < 448·447/2
		for _, seed := range []uint64{1, 4, 77} {
			for _, policy := range []pairPolicy{allPairs, closurePairs} {
				p := &Problem{K: 3, Constraints: cons}
				if labelled > 0 {
					p.Labels = supervisionLabels(6000, labelled, 3)
				}
				s := &Settings{Seed: seed}
				name := fmt.Sprintf("%d labelled, seed %d, policy %d", labelled, seed, policy)
				want, wantW, wantErr := supervisionPairsBefore("m", p, s, policy)
				got, gotW, err := supervisionPairsContext(context.Background(), "m", p, s, policy)
				if err != nil || wantErr != nil || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotW, wantW) {
					t.Errorf("%s: %d pairs, warnings %q (%v); before %d, %q (%v)", name, len(got), gotW, err, len(want), wantW, wantErr)
				}
			}
		}
	}
}

// supervisionChecks is a live context that counts the calls of Err.
type supervisionChecks struct {
	context.Context
	n atomic.Int64
}

func (c *supervisionChecks) Err() error { c.n.Add(1); return nil }

// TestSupervisionPairsContextCancel: making the 99681 pairs of 447
// labelled nodes, or sampling 10⁵ of the 1999·1998/2 pairs of 1999,
// checks the context about every 4096 pairs (at least 20 checks in a live
// run, where supervisionPairs made them without any), and cancelled before
// the call, at the third check or at the last one it returns no pairs and
// an error wrapping context.Canceled that names the method and the stage.
func TestSupervisionPairsContextCancel(t *testing.T) {
	for _, labelled := range []int{447, 1999} {
		t.Run(fmt.Sprintf("%d labelled", labelled), func(t *testing.T) {
			p := &Problem{K: 3, Labels: supervisionLabels(6000, labelled, 3)}
			s := &Settings{Seed: 2}
			live := &supervisionChecks{Context: context.Background()}
			if _, _, err := supervisionPairsContext(live, "m", p, s, allPairs); err != nil {
				t.Fatal(err)
			}
			checks := live.n.Load()
			if checks < 20 {
				t.Errorf("%d checks of the context making about 10⁵ pairs, want one every 4096 or more", checks)
			}
			cancelled, cancel := context.WithCancel(context.Background())
			cancel()
			for _, c := range []struct {
				what string
				ctx  context.Context
			}{
				{"cancelled before", cancelled},
				{"cancelled at the third check", testctx.CancelAfter(2)},
				{"cancelled at the last check", testctx.CancelAfter(int(checks - 1))},
			} {
				pairs, warns, err := supervisionPairsContext(c.ctx, "m", p, s, allPairs)
				if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "cluster: m: pairs of the labelled nodes: ") {
					t.Errorf("%s: err = %v, want context.Canceled naming the method and the stage", c.what, err)
				}
				if pairs != nil || warns != nil {
					t.Errorf("%s: %d pairs and warnings %q with the error", c.what, len(pairs), warns)
				}
			}
		})
	}
}
