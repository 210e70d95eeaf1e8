package constraint

import (
	"context"
	"fmt"
	"sort"

	"github.com/tether-sc/tether/internal/unionfind"
)

// Test-only implementations of VoteFilter's conflict pass, to compare
// keepConsistent with.

// keepConsistentScan is keepConsistent as first written: the same rule,
// with a union–find over the must-links taken and, for each must-link
// between two components, a scan of every cannot-link taken. O(m log m +
// m·c) for c cannot-links taken.
func keepConsistentScan(s *Set, score []float64, drop []bool) {
	order := byAgreementSort(s, score, drop)
	u := unionfind.New(s.N)
	taken := make(map[[2]int]bool, len(order)) // unordered pairs taken
	var cls []int                              // cannot-links taken
	for _, t := range order {
		p := s.Pairs[t]
		key := [2]int{min(p.I, p.J), max(p.I, p.J)}
		ri, rj := u.Find(p.I), u.Find(p.J)
		conflict := taken[key]
		switch {
		case conflict:
		case p.Kind == CannotLink:
			conflict = ri == rj
		case ri != rj:
			for _, c := range cls {
				a, b := u.Find(s.Pairs[c].I), u.Find(s.Pairs[c].J)
				if a == ri && b == rj || a == rj && b == ri {
					conflict = true
					break
				}
			}
		}
		if conflict {
			drop[t] = true
			continue
		}
		taken[key] = true
		if p.Kind == CannotLink {
			cls = append(cls, t)
		} else {
			u.Union(p.I, p.J)
		}
	}
}

// keepConsistentCheck is the rule of VoteOptions.Consistent word for
// word: in decreasing score, ties in order, a pair is dropped when Check
// finds a conflict among it and the pairs kept before it. O(m·(n + m log
// m)): for small sets.
func keepConsistentCheck(s *Set, score []float64, drop []bool) {
	kept := &Set{N: s.N}
	for _, t := range byAgreementSort(s, score, drop) {
		kept.Pairs = append(kept.Pairs, s.Pairs[t])
		if !Check(kept).OK() {
			kept.Pairs = kept.Pairs[:len(kept.Pairs)-1]
			drop[t] = true
		}
	}
}

// byAgreementSort is byAgreement with sort.SliceStable.
func byAgreementSort(s *Set, score []float64, drop []bool) []int {
	var order []int
	for t := range s.Pairs {
		if !drop[t] {
			order = append(order, t)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return score[order[a]] > score[order[b]] })
	return order
}

// keepConsistentLoop is VoteFilter's conflict pass before the
// decreasing-agreement rule: while Check finds a conflict among the pairs
// kept, drop the least agreed constraint of the first one (the first on
// ties). O(n + m log m) per conflict broken.
func keepConsistentLoop(s *Set, score []float64, drop []bool) {
	for {
		var idx []int // kept pairs → original index
		sub := &Set{N: s.N}
		for t, p := range s.Pairs {
			if !drop[t] {
				sub.Pairs = append(sub.Pairs, p)
				idx = append(idx, t)
			}
		}
		rep := Check(sub)
		if rep.OK() {
			return
		}
		c := rep.Conflicts[0]
		worst := idx[c.Index[0]]
		for _, u := range c.Index[1:] {
			if t := idx[u]; score[t] < score[worst] {
				worst = t
			}
		}
		drop[worst] = true
	}
}

// voteFilterWith is VoteFilter with the conflict pass pass: Vote, the
// margin, TwoWay's pass, then pass when Consistent or TwoWay. It returns
// the indices of the pairs dropped.
func voteFilterWith(s *Set, sim func(a, b int) float64, opt VoteOptions, pass func(s *Set, score []float64, drop []bool)) ([]int, error) {
	ctx := context.Background()
	score, err := Vote(ctx, s, sim, opt)
	if err != nil {
		return nil, err
	}
	margin := opt.Margin
	if margin <= 0 {
		margin = DefaultVoteMargin
	}
	if margin > 2 {
		return nil, fmt.Errorf("%w: vote margin %v outside (0, 2]", ErrInvalid, opt.Margin)
	}
	drop := make([]bool, len(s.Pairs))
	for t := range s.Pairs {
		drop[t] = score[t] < -margin
	}
	if opt.TwoWay {
		if err := twoWay(ctx, s, score, drop); err != nil {
			return nil, err
		}
	}
	if opt.Consistent || opt.TwoWay {
		pass(s, score, drop)
	}
	var dropped []int
	for t, d := range drop {
		if d {
			dropped = append(dropped, t)
		}
	}
	return dropped, nil
}
