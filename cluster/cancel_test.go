package cluster

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/internal/testctx"
)

// pollPoints returns the poll counts at which TestCancelAtEveryPoll cancels a
// run that polls p times: every count up to 16, then counts growing by
// half up to p (about 20 more for p = 10⁵).
func pollPoints(p int64) []int64 {
	var out []int64
	for n := int64(1); n <= p; {
		out = append(out, n)
		if n < 16 {
			n++
		} else {
			n = n * 3 / 2
		}
	}
	if len(out) > 0 && out[len(out)-1] != p {
		out = append(out, p)
	}
	return out
}

// uncancelledPolls returns the number of polls of ctx (pollCtx's Err
// calls) in a Run of m on p with s that is never cancelled, failing t if
// the run fails. Cost: one run.
func uncancelledPolls(t *testing.T, m Method, p *Problem, s *Settings) int64 {
	t.Helper()
	ctx := newPollCtx(0)
	if _, err := Run(ctx, m, p, s); err != nil {
		t.Fatalf("uncancelled run: %v", err)
	}
	return ctx.calls.Load()
}

// cancelAt runs m on p with s on a context that is cancelled from its
// k-th poll on (newPollCtx(k)) and returns the result and the error. A run
// that polls fewer than k times (runs with parallel steps poll a few times
// more or less from one run to the next) never sees the cancellation: it
// must then give a result with no error, else t fails, and cancelAt
// returns its number of polls as fewer (0 when the context was cancelled).
// Cost: one run, up to its k-th poll.
func cancelAt(t *testing.T, m Method, p *Problem, s *Settings, k int64) (res *Result, fewer int64, err error) {
	t.Helper()
	ctx := newPollCtx(k)
	res, err = Run(ctx, m, p, s)
	if c := ctx.calls.Load(); c < k {
		if res == nil || err != nil {
			t.Fatalf("run with %d polls, never cancelled (at poll %d): result %v, error %v; want a result", c, k, res != nil, err)
		}
		t.Logf("run with %d polls, fewer than the %d of its cancellation: a result, as uncancelled", c, k)
		return res, c, err
	}
	return res, 0, err
}

// Every registered method, cancelled at any of its polls of ctx, returns
// from Run with an error wrapping context.Canceled and no result: no loop
// or step swallows a cancellation, goes on to a result, or turns it into
// another error; after poll 1 (Run's own), the error names the method
// ("cluster: <method>: …"; TestCancelNamesMethodAndStage checks the stage
// too, at every poll of smaller problems). The problem (cancelProblem, n = 600) is above DenseLimit,
// so that the iterative eigensolvers, the k-means restarts and the dense
// pencil of fast-ge2-bh (n ≤ 3000) are the paths taken, as on real data.
// The poll count of an uncancelled run is measured first: runs on
// several cores can poll a few times more or less, so a cancelled run
// whose context never flipped (it polled fewer times than the point,
// cancelAt) must give a result with no error, and the cancellation
// points then stop at its count, whose last poll is tried in turn.
// Deterministic: the context flips at its N-th Err call (pollCtx), with
// no timer; the cases run in parallel (t.Parallel: no case shares a
// Problem, and nothing here reads a clock).
//
// minPolls holds floors under the poll counts of the cases whose dense
// steps were made to poll (densectx.go), each between the count the case
// had before those polls and its count when the floor was set, so that a
// floor fails if the polls are lost. The counts before, at n = 600:
// cscap 61 (no poll inside its Cholesky tests, the eigenvalues of W and
// the propagation); fast-ge2-bh LN 68 (none in its dense Schur-complement
// pencil) and, with n/10 pairs, whose Schur complement is large, 87
// (few-pairs: mat.LU and mat.Dense.Mul in schurComplement); cscap's
// Woodbury form with n/2 pairs, solved by Cholesky, about 78 (few-pairs:
// no poll in the form's factorization, solve and product) and, W
// indefinite, by LU, 73 (lu-fallback: mat.LU). fast-ge2-bh's default
// (both, a definite pencil) has a floor of half its count when it became
// the default. The counts now are logged (go test -v) and not restated
// here: every check added to a path moves them (cscap's checks between
// its O(n²) steps added 14 to each cscap case, and those within them,
// every cscapRowPoll rows, 8 to 11).
func TestCancelAtEveryPoll(t *testing.T) {
	t.Parallel() // heavy, deterministic (no clock, memory count or package state): beside the others like it, after the sequential tests
	n := 600
	if testing.Short() {
		n = 450
	}
	minPolls := map[string]int64{"cscap": 100, "fast-ge2-bh": 40, "fast-ge2-bh/LN": 180, "cscap/few-pairs": 85, "cscap/lu-fallback": 80, "fast-ge2-bh/few-pairs": 100}
	type runCase struct {
		name string
		m    Method
		p    *Problem
	}
	var cases []runCase
	for _, info := range Methods() {
		m := info.New()
		cases = append(cases, runCase{info.Name, m, cancelProblem(t, n, m.Uses())})
	}
	// cscap's Woodbury form (fewer than 0.6n pairs, here n/2, all of them
	// propagated at once: Joint), solved by Cholesky on a W made positive
	// definite by a given shift (few-pairs: no eigenvalues of W), and on
	// the indefinite W as it is (Shift < 0), where the Cholesky
	// factorization of I + UᵀWU fails, by LU (lu-fallback).
	few := func() *Problem {
		p := cancelProblem(t, n, CSCAP{}.Uses())
		p.Constraints = cancelPairs(t, n, n/2)
		return p
	}
	cases = append(cases,
		runCase{"cscap/few-pairs", CSCAP{Shift: 1, Joint: true}, few()},
		runCase{"cscap/lu-fallback", CSCAP{Shift: -1, Joint: true, NoVote: true}, few()})
	// fast-ge2-bh LN with n/10 pairs: most nodes unconstrained, so that
	// the Schur complement of its dense pencil is large (schurComplement).
	fge := cancelProblem(t, n, FastGE2BH{}.Uses())
	fge.Constraints = cancelPairs(t, n, n/10)
	cases = append(cases, runCase{"fast-ge2-bh/few-pairs", FastGE2BH{Variant: BetheLN}, fge})
	// fast-ge2-bh LN on the registry's problem: its dense Schur-complement
	// pencil (the default, both, solves a definite pencil).
	cases = append(cases, runCase{"fast-ge2-bh/LN", FastGE2BH{Variant: BetheLN}, cancelProblem(t, n, FastGE2BH{}.Uses())})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m, p := tc.m, tc.p
			s := &Settings{Seed: 1}
			polls := uncancelledPolls(t, m, p, s)
			t.Logf("%d polls", polls)
			if floor := minPolls[tc.name]; !testing.Short() && polls < floor {
				t.Errorf("%d polls of ctx in an uncancelled run, want ≥ %d: a dense step no longer polls", polls, floor)
			}
			points := pollPoints(polls)
			for i := 0; i < len(points); i++ {
				k := points[i]
				res, fewer, err := cancelAt(t, m, p, s, k)
				if fewer > 0 {
					// This run ended before its k-th poll: try its last
					// poll instead (fewer < k, so this ends).
					points = append(points[:i+1:i+1], fewer)
					continue
				}
				if !errors.Is(err, context.Canceled) || res != nil {
					t.Fatalf("cancelled at poll %d of %d: result %v, error %v; want no result and an error wrapping context.Canceled", k, polls, res != nil, err)
				}
				if prefix := "cluster: " + m.Name() + ": "; k > 1 && !strings.HasPrefix(err.Error(), prefix) {
					t.Errorf("cancelled at poll %d of %d: error %q; want one that names the method (%q, then the stage; TestCancelNamesMethodAndStage)", k, polls, err, prefix)
				}
			}
		})
	}
}

// Cancelling a slow run returns within a bound measured by the wall
// clock, for the methods whose dense steps used to ignore a cancel for
// tens of seconds (fast-ge2-bh: the dense Schur-complement pencil, 27 s at
// n = 3000; cscap: the Cholesky tests, the eigenvalues of W and the
// propagation, 20 s) and a representative set of the others with runs of
// seconds (csp, l1csc, fgpwc; cosc with 20 000 random starts, which
// it drew all before running any, 320 MB at n = 2000). Each is cancelled early and, for the dense
// ones, again in a later phase. The sizes give a full run of 3–30 s on 2
// shared cores (TestCancelLatencyDiagnostic), the bound of 1.5 s is 5–50
// times the latencies measured there, for a loaded machine. A run that
// ends before its cancel (a faster machine) is logged, not failed: it
// says nothing about latency. A latency over the bound is measured once
// more before it fails the test (a load spike stalls one run, a missing
// poll every run). About 15 s in all; skipped under -short; the bound is
// ten times larger under the race detector (raceEnabled).
func TestCancelStops(t *testing.T) {
	if testing.Short() {
		t.Skip("wall-clock cancellation test; TestCancelAtEveryPoll is the deterministic one")
	}
	bound := 1500 * time.Millisecond
	if raceEnabled {
		// The race detector slows the dense kernels' loops 5–20 times:
		// cscap's cancel at 3 s returned in 2.1 s under it, 26 ms without.
		bound *= 10
	}
	for _, tc := range []struct {
		method string
		n      int
		delays []time.Duration
		m      Method // when not nil, the method with its knobs (else New(method))
	}{
		{"fast-ge2-bh", 2500, []time.Duration{300 * time.Millisecond, 3 * time.Second}, nil},
		{"cscap", 2000, []time.Duration{300 * time.Millisecond, 3 * time.Second}, nil},
		{"csp", 3000, []time.Duration{300 * time.Millisecond}, nil},
		{"l1csc", 3000, []time.Duration{300 * time.Millisecond}, nil},
		{"fgpwc", 3000, []time.Duration{300 * time.Millisecond}, nil},
		// cosc's random starts, drawn in batches with a check of ctx
		// before each (they were all drawn first: Starts·n·8 bytes).
		{"cosc-starts", 2000, []time.Duration{300 * time.Millisecond, 2 * time.Second}, COSC{Starts: 20000}},
	} {
		t.Run(tc.method, func(t *testing.T) {
			m := tc.m
			if m == nil {
				var err error
				if m, err = New(tc.method); err != nil {
					t.Fatal(err)
				}
			}
			p := cancelProblem(t, tc.n, m.Uses())
			tested := 0
			for _, d := range tc.delays {
				lat, cancelled, err := cancelLatency(m, p, &Settings{Seed: 1}, d)
				if cancelled && err != nil && lat > bound {
					// One more measurement before failing: a load spike on a
					// shared CI machine can stall one run's goroutine for
					// longer than the bound; a stretch without a poll
					// stalls every run.
					t.Logf("returned %v after the cancel at %v: measuring again", lat, d)
					lat, cancelled, err = cancelLatency(m, p, &Settings{Seed: 1}, d)
				}
				if cancelled {
					tested++
				}
				switch {
				case !cancelled && err != nil:
					t.Fatalf("uncancelled run before the cancel at %v: %v", d, err)
				case !cancelled:
					// A faster machine than this one: the run ended first,
					// which says nothing about its latency.
					t.Logf("finished before the cancel at %v: not tested at this delay", d)
					continue
				case !errors.Is(err, context.Canceled):
					t.Fatalf("error %v after the cancel at %v, want context.Canceled", err, d)
				case lat > bound:
					t.Errorf("returned %v after the cancel at %v, want ≤ %v", lat, d, bound)
				}
				t.Logf("cancelled at %v: returned %v later", d, lat)
			}
			if tested == 0 {
				t.Skipf("every run finished before its cancel: n = %d is too small on this machine", tc.n)
			}
		})
	}
}

// The count of the pairs' contradictions that Run makes for its warning
// and the scale of the weights (countContradictions; auto's too) stops on
// a cancelled context, naming the method and the step, with no counts:
// 10⁷ pairs took 1.5–3.8 s without a check. A live context gives the
// counts, and the warning.
func TestContradictionsCancel(t *testing.T) {
	p := &Problem{Constraints: &constraint.Set{N: 3, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}, {I: 1, J: 0, Kind: constraint.CannotLink}}}}
	u := Uses{Supervision: Pairs}
	c, err := countContradictions(testctx.CancelAfter(0), "fgpwc", u, p)
	if !errors.Is(err, context.Canceled) || c.any() || !strings.HasPrefix(err.Error(), "cluster: fgpwc: check of the pairs for contradictions: ") {
		t.Errorf("cancelled: %+v, %v; want no counts and context.Canceled naming the method and the step", c, err)
	}
	c, err = countContradictions(context.Background(), "fgpwc", u, p)
	if err != nil || c != (pairContradictions{same: 1}) {
		t.Errorf("live: %+v, %v; want one pair both ways", c, err)
	}
	if w := contradictions("fgpwc", u, p, c, nil); w == "" {
		t.Error("live: no warning")
	}
	if _, err := unconstrainedWarnings(testctx.CancelAfter(0), p, nil, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("auto's: err = %v, want context.Canceled", err)
	}
}

// CSCAP's passes over an n×n matrix entry by entry (cscapMargin,
// denseSim, clipSym, and the symmetrizations of woodbury and cscapDirect,
// woodburySymmetrized and symmetrizeInPlace: 0.1–0.4 s each at n = 6000,
// which a cancel waited for) check their context every cscapRowPoll rows:
// at n = 2·cscapRowPoll + 1, three checks each (rows 0, cscapRowPoll and
// 2·cscapRowPoll). Cancelled at any check, each returns context.Canceled
// (cancelAtEveryCheck); not cancelled, what it computes, written out here,
// bit for bit (a fingerprint of every entry's bits; the entries too for
// the matrices). woodbury and cscapDirect, cancelled at any of their
// checks, the symmetrization's included, return context.Canceled too, and
// uncancelled what they return with a live context.
func TestCSCAPRowPassesPoll(t *testing.T) {
	const n = 2*cscapRowPoll + 1
	rng := rand.New(rand.NewPCG(21, 22))
	w := cscapWellConditioned(n, 23)
	signed := mat.NewSymDense(n, nil) // entries of both signs, for the clip
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			signed.SetSym(i, j, w.At(i, j)-0.4)
		}
	}
	dense := func() *mat.Dense {
		d := mat.NewDense(n, n, nil)
		for i := range d.RawMatrix().Data {
			d.RawMatrix().Data[i] = rng.NormFloat64()
		}
		return d
	}
	tm, corr, x := dense(), dense(), dense()
	// upper returns the upper triangle of f(i, j) as NewSymDense stores it
	// (row-major, the lower triangle 0).
	upper := func(f func(i, j int) float64) []float64 {
		out := make([]float64, n*n)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				out[i*n+j] = f(i, j)
			}
		}
		return out
	}
	// The references, written out.
	var norm float64
	for i := 0; i < n; i++ {
		var r float64
		for j := 0; j < n; j++ {
			r += math.Abs(w.At(i, j))
		}
		norm = math.Max(norm, r)
	}
	scale := 1.0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			scale = math.Max(scale, signed.At(i, j))
		}
	}
	var sims []float64
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			if a != b {
				sims = append(sims, math.Max(0, signed.At(a, b))/scale)
			}
		}
	}
	clip := upper(func(i, j int) float64 { return math.Max(0, signed.At(i, j)) })
	clipT := upper(func(i, j int) float64 { return math.Max(0, signed.At(i, j)-tm.At(i, j)) })
	symDiff := upper(func(i, j int) float64 { return w.At(i, j) - (corr.At(i, j)+corr.At(j, i))/2 })
	sym := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			sym[i*n+j] = (x.At(i, j) + x.At(j, i)) / 2
		}
	}
	pairs := randomWeightedPairs(rng, n, 3)
	wb, err := woodbury(context.Background(), w, pairs, 1, 0.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	wd, err := cscapDirect(context.Background(), w, pairs, 1, 0.5, nil)
	if err != nil {
		t.Fatal(err)
	}
	// matrix returns the fingerprint of got after checking it against
	// want entry by entry.
	matrix := func(name string, got, want []float64) float64 {
		if !slices.EqualFunc(got, want, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
			t.Errorf("%s: entries differ from the reference", name)
		}
		return fingerprint(got)
	}
	for _, tc := range []struct {
		name   string
		want   float64
		checks int64 // 0: not counted
		f      func(context.Context) (float64, error)
	}{
		{"cscapMargin", 1e-8 * norm, 3, func(ctx context.Context) (float64, error) { return cscapMargin(ctx, w) }},
		{"denseSim", fingerprint(sims), 3, func(ctx context.Context) (float64, error) {
			sim, err := denseSim(ctx, signed)
			if err != nil {
				return 0, err
			}
			var got []float64
			for a := 0; a < n; a++ {
				for b := 0; b < n; b++ {
					if a != b {
						got = append(got, sim(a, b))
					}
				}
			}
			return matrix("denseSim", got, sims), nil
		}},
		{"clipSym", fingerprint(clip), 3, func(ctx context.Context) (float64, error) {
			a, err := clipSym(ctx, signed, nil)
			if err != nil {
				return 0, err
			}
			return matrix("clipSym", a.RawSymmetric().Data, clip), nil
		}},
		{"clipSym with T", fingerprint(clipT), 3, func(ctx context.Context) (float64, error) {
			a, err := clipSym(ctx, signed, tm)
			if err != nil {
				return 0, err
			}
			return matrix("clipSym with T", a.RawSymmetric().Data, clipT), nil
		}},
		{"woodburySymmetrized", fingerprint(symDiff), 3, func(ctx context.Context) (float64, error) {
			out := mat.NewSymDense(n, nil)
			if err := woodburySymmetrized(ctx, out, w, corr); err != nil {
				return 0, err
			}
			return matrix("woodburySymmetrized", out.RawSymmetric().Data, symDiff), nil
		}},
		{"symmetrizeInPlace", fingerprint(sym), 3, func(ctx context.Context) (float64, error) {
			y := slices.Clone(x.RawMatrix().Data)
			if err := symmetrizeInPlace(ctx, y, n); err != nil {
				return 0, err
			}
			return matrix("symmetrizeInPlace", y, sym), nil
		}},
		{"woodbury", fingerprint(wb.RawSymmetric().Data), 0, func(ctx context.Context) (float64, error) {
			got, err := woodbury(ctx, w, pairs, 1, 0.5, nil)
			if err != nil {
				return 0, err
			}
			return fingerprint(got.RawSymmetric().Data), nil
		}},
		{"cscapDirect", fingerprint(wd.RawSymmetric().Data), 0, func(ctx context.Context) (float64, error) {
			got, err := cscapDirect(ctx, w, pairs, 1, 0.5, nil)
			if err != nil {
				return 0, err
			}
			return fingerprint(got.RawSymmetric().Data), nil
		}},
	} {
		checks := cancelAtEveryCheck(t, tc.name, tc.want, tc.f)
		if tc.checks > 0 && checks != tc.checks {
			t.Errorf("%s: %d checks, want %d: one every %d rows", tc.name, checks, tc.checks, cscapRowPoll)
		}
		t.Logf("%s: %d checks", tc.name, checks)
	}
}

// fingerprint folds the bits of every value of x, in order (FNV-1a), into
// a finite float64: equal for equal x, bit for bit, and almost surely
// different otherwise.
func fingerprint(x []float64) float64 {
	h := uint64(14695981039346656037)
	for _, v := range x {
		h ^= math.Float64bits(v)
		h *= 1099511628211
	}
	return math.Float64frombits(h >> 2) // sign 0, exponent below 0x400: finite
}
