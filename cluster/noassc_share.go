package cluster

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// resolveShare is work that the fits of one ML- or MCL-NOA-SSC problem
// share (refineCV's folds and pairNOASSC's final fit): CSCAP's prior on
// the graph (built on first use, for every fit), and the resolve's vote
// on one set of pairs (a fold resolves its training pairs with each
// reference), and the node similarity the votes read (voteSimilarity,
// built once for the graph). Sharing changes no result: the prior gives
// the same partitions as CSCAP{} (cscap_shared_test.go), and the vote is
// a function of the graph, the pairs and hops alone. A nil
// *resolveShare, or nil fields, share nothing (and vote with
// VoteHopsDefault). Not safe for concurrent use as such: refineCV's
// folds, which run in parallel, each take their own (forFold) after
// prepareShared has built what they share, which they then only read;
// refs alone is safe for concurrent use.
type resolveShare struct {
	prior *priorMemo
	vote  *voteMemo
	sim   *simMemo
	// refs, when not nil, holds reference partitions across methods
	// (MLNOASSC.refs): safe for concurrent use, unlike the rest.
	refs *referenceCache
	// hops is the vote's similarity (see MLNOASSC.VoteHops), resolved: 1
	// or 2.
	hops int
}

// simMemo holds the vote's node similarity of one graph once built.
type simMemo struct {
	done bool
	sim  func(a, b int) float64
	nbr  func(a int) []int32
}

// priorMemo holds CSCAP's prior of one graph once built.
type priorMemo struct {
	done bool
	m    Method // CSCAP with the prior, or nil when it could not be made
}

// voteMemo holds the resolve's vote on one set of pairs once computed:
// which pairs it keeps, their contraction weights, and how many it left
// out (see resolvePairs, step 1).
type voteMemo struct {
	done   bool
	keep   []bool
	weight []float64
	voted  int
}

// forFold returns the share of a fit on other pairs (a fold's training
// pairs): the same prior, a new vote.
func (sh *resolveShare) forFold() *resolveShare {
	out := &resolveShare{vote: &voteMemo{}}
	if sh != nil {
		out.prior, out.sim, out.hops, out.refs = sh.prior, sh.sim, sh.hops, sh.refs
	}
	return out
}

// similarity returns the node similarity and neighbour lists the vote
// reads on g (voteSimilarity with the share's hops, VoteHopsDefault for a
// nil share): the share's when it holds them, else built, and kept when
// the share has room.
func (sh *resolveShare) similarity(g *graph.Graph) (func(a, b int) float64, func(a int) []int32) {
	hops := VoteHopsDefault
	if sh != nil && sh.hops != 0 {
		hops = sh.hops
	}
	if sh != nil && sh.sim != nil && sh.sim.done {
		return sh.sim.sim, sh.sim.nbr
	}
	sim, nbr := voteSimilarity(g, hops)
	if sh != nil && sh.sim != nil {
		*sh.sim = simMemo{done: true, sim: sim, nbr: nbr}
	}
	return sim, nbr
}

// voteOn returns the resolve's vote on the pairs of set (resolveVote):
// the share's when it holds one, else computed, and kept in the share
// when it has room for one. The share's vote must be of these pairs
// (forFold gives each fold its own).
func (sh *resolveShare) voteOn(ctx context.Context, method string, g *graph.Graph, set *constraint.Set) (*voteMemo, error) {
	if sh != nil && sh.vote != nil && sh.vote.done {
		return sh.vote, nil
	}
	// Fewer than VoteMinPairs pairs are not voted on: no similarity then
	// (on a complete graph it is an n×n table).
	var sim func(a, b int) float64
	var nbr func(a int) []int32
	if len(set.Pairs) >= VoteMinPairs {
		sim, nbr = sh.similarity(g)
	}
	v, err := resolveVote(ctx, method, sim, nbr, set)
	if err == nil && sh != nil && sh.vote != nil {
		*sh.vote = *v
	}
	return v, err
}

// referenceMethod returns the method of the resolve's reference ref on g:
// CSCAP with the shared prior when ref is CSCAP and the share holds one
// (built here on first use), else ref's own method (nil for
// ReferenceNone). A prior that cannot be made is not an error here (the
// reference then runs as CSCAP{} and reports it), unless ctx is done.
func (sh *resolveShare) referenceMethod(ctx context.Context, ref ResolveReference, g *graph.Graph) (Method, error) {
	if ref != ReferenceCSCAP || sh == nil || sh.prior == nil || g.N() > resolveReferenceMaxN {
		return ref.method(), nil
	}
	if !sh.prior.done {
		pr, err := (CSCAP{}).newPrior(ctx, g, nil)
		if err != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		sh.prior.done = true
		if err == nil {
			sh.prior.m = CSCAP{prior: pr}
		}
	}
	if sh.prior.m == nil {
		return ref.method(), nil
	}
	return sh.prior.m, nil
}

// prepareShared builds, once, what the fits of sh's forFold shares read
// (CSCAP's prior when refs include CSCAP, and the vote's similarity when
// the pairs, of which each fold takes a part, are enough to be voted on),
// so that fits on parts of them can then run in parallel: forFold's
// shares only read these, and each has its own vote memo. The error is
// ctx's.
func (sh *resolveShare) prepareShared(ctx context.Context, refs []ResolveReference, g *graph.Graph, pairs int) error {
	if sh == nil {
		return nil
	}
	for _, r := range refs {
		if r == ReferenceCSCAP {
			if _, err := sh.referenceMethod(ctx, r, g); err != nil {
				return err
			}
		}
	}
	if pairs >= VoteMinPairs {
		sh.similarity(g)
	}
	return nil
}

// referencePartition returns the resolve's reference partition by rm (the
// method of reference ref) on p's graph and the pairs of set:
// referencePartition's, from the share's cache when it holds one.
func (sh *resolveShare) referencePartition(ctx context.Context, ref ResolveReference, rm Method, p *Problem, set *constraint.Set, s *Settings) (*Result, error) {
	if sh == nil || sh.refs == nil {
		return referencePartition(ctx, rm, p, set, s)
	}
	return sh.refs.partition(ctx, ref, rm, p, set, s)
}

// referenceCache holds the resolve's reference partitions for the fits of
// several methods of one problem: Auto's ML- and MCL-NOA-SSC candidates
// resolve the same pairs of each fold with the same settings, and their
// resolves differ only after the reference (MCL-NOA-SSC's cannot-links
// act on the group graph), so each reference partition is computed once
// for both. A partition is keyed by everything it is computed from (the
// reference, the graph, k, the regularization, the pairs with their
// weights, and the settings), and shared read-only. Safe for concurrent
// use: the candidates run in parallel, and a fit that needs a partition
// another is computing waits for it.
type referenceCache struct {
	mu sync.Mutex
	m  map[string]*referenceEntry
}

// referenceEntry is one partition of a referenceCache: done is closed
// once res and err are set.
type referenceEntry struct {
	done chan struct{}
	res  *Result
	err  error
}

// partition returns referencePartition(ctx, rm, p, set, s), computed by
// the first caller with its key and shared with the others. A failure by
// cancellation is not shared with a caller whose ctx is live: it computes
// the partition itself.
func (c *referenceCache) partition(ctx context.Context, ref ResolveReference, rm Method, p *Problem, set *constraint.Set, s *Settings) (*Result, error) {
	key := referenceKey(ref, p, set, s)
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*referenceEntry{}
	}
	e, found := c.m[key]
	if !found {
		e = &referenceEntry{done: make(chan struct{})}
		c.m[key] = e
	}
	c.mu.Unlock()
	if !found {
		e.res, e.err = referencePartition(ctx, rm, p, set, s)
		close(e.done)
		return e.res, e.err
	}
	select {
	case <-e.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if e.err != nil && ctx.Err() == nil && (errors.Is(e.err, context.Canceled) || errors.Is(e.err, context.DeadlineExceeded)) {
		return referencePartition(ctx, rm, p, set, s)
	}
	return e.res, e.err
}

// referenceKey is the key of a reference partition in a referenceCache:
// the reference, the graph (its identity), k, the regularization, the
// settings, and every pair with its kind and weight, in order. The
// settings are every field of Settings but Recorder, which changes no
// result: Seed, Restarts, Eigen, EigenSettings (its identity), Repair,
// MaxBlockBytes (a bound can turn a partition into a refusal), and
// NormalizeRemedy and Spelling (they word the warnings and errors, and a
// failed reference's error becomes the resolve's warning), so that a
// cache never mixes runs with different settings; TestReferenceKeySettings
// checks that each changes the key. Cost O(|set|).
func referenceKey(ref ResolveReference, p *Problem, set *constraint.Set, s *Settings) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d|%p|%d|%v|%d|%d|%T%v|%p|%d|%d|%q|%T%v|%d|", ref, p.Graph, p.K, p.Regularize, s.Seed, s.Restarts, s.Eigen, s.Eigen, s.EigenSettings, s.Repair, s.MaxBlockBytes, s.NormalizeRemedy, s.Spelling, s.Spelling, set.N)
	var buf [8]byte
	for _, pr := range set.Pairs {
		binary.LittleEndian.PutUint32(buf[:4], uint32(pr.I))
		binary.LittleEndian.PutUint32(buf[4:], uint32(pr.J))
		b.Write(buf[:])
		b.WriteByte(byte(pr.Kind))
		binary.LittleEndian.PutUint64(buf[:], math.Float64bits(pr.Weight))
		b.Write(buf[:])
	}
	return b.String()
}
