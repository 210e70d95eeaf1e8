package cluster

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
)

// cancelProblem returns a problem of n points for the method using u: 4
// Gaussian blobs in 5 dimensions (standard deviation 2, so that the
// clusters overlap and the solvers have work), the CLI's default graph
// (graph.DefaultSpec: symmetric 10-NN, local-scaling RBF weights), the
// feature rows, 2% of the labels for a label method and 4n pairs drawn
// uniformly for a pairwise one (supervised), and, for a method that
// co-clusters, a ⌊n/2⌋×⌈n/2⌉ nonnegative matrix with a 4×4 block
// structure plus noise. k is 4, or u.MaxK when that is smaller.
func cancelProblem(tb testing.TB, n int, u Uses) *Problem {
	tb.Helper()
	const k0 = 4
	x, truth, err := synth.Blobs(n, k0, 5, 2, rand.NewPCG(1, 2))
	if err != nil {
		tb.Fatal(err)
	}
	k := k0
	if u.MaxK > 0 && u.MaxK < k {
		k = u.MaxK
		for i := range truth {
			truth[i] %= k
		}
	}
	g, err := graph.Build(context.Background(), x, graph.DefaultSpec())
	if err != nil {
		tb.Fatal(err)
	}
	labels, err := constraint.FractionLabels(truth, 0.02, rand.NewPCG(3, 4))
	if err != nil {
		tb.Fatal(err)
	}
	cons, err := constraint.UniformPairs(truth, 4*n, rand.NewPCG(5, 6))
	if err != nil {
		tb.Fatal(err)
	}
	base := &Problem{Graph: g, K: k, Features: x}
	if u.Input&BipartiteInput != 0 {
		r := n / 2
		b := mat.NewDense(r, n-r, nil)
		rng := rand.New(rand.NewPCG(7, 8))
		for i := 0; i < r; i++ {
			for j := 0; j < n-r; j++ {
				v := rng.Float64()
				if i*k/r == j*k/(n-r) {
					v += 1
				}
				b.Set(i, j, v)
			}
		}
		base.Bipartite = b
	}
	return supervised(base, u, labels, cons)
}

// cancelPairs returns count pairs drawn uniformly on the ground truth of
// cancelProblem(n) (its blobs), in place of its 4n.
func cancelPairs(tb testing.TB, n, count int) *constraint.Set {
	tb.Helper()
	_, truth, err := synth.Blobs(n, 4, 5, 2, rand.NewPCG(1, 2))
	if err != nil {
		tb.Fatal(err)
	}
	cons, err := constraint.UniformPairs(truth, count, rand.NewPCG(5, 6))
	if err != nil {
		tb.Fatal(err)
	}
	return cons
}

// cancelLatency runs m on p, cancels the context after delay and returns
// how long Run took to return after the cancel, and its error. A Run that
// finishes before the cancel returns latency 0 and its error (nil).
func cancelLatency(m Method, p *Problem, s *Settings, delay time.Duration) (time.Duration, bool, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type out struct {
		err error
		at  time.Time
	}
	done := make(chan out, 1)
	go func() {
		_, err := Run(ctx, m, p, s)
		done <- out{err, time.Now()}
	}()
	select {
	case o := <-done:
		return 0, false, o.err
	case <-time.After(delay):
	}
	cancel()
	at := time.Now()
	o := <-done
	return o.at.Sub(at), true, o.err
}

// TestCancelLatencyDiagnostic measures, for every registered method (or
// those in TETHER_CANCEL_METHODS, comma separated), how long Run takes to
// return once its context is cancelled 200 ms into a run on
// cancelProblem(TETHER_CANCEL_N, default 3000), or at each of the delays
// in TETHER_CANCEL_DELAYS (comma-separated durations), and with
// TETHER_CANCEL_FULL=1 the time of the uncancelled run (stopped at 60 s).
// TETHER_CANCEL_PAIRS replaces the 4n pairs of a pairwise problem by that
// many (cancelPairs), and TETHER_CANCEL_SET sets knobs (SetKnobs:
// comma-separated Name=value; Shift=-1,Joint=true,NoVote=true takes
// cscap's LU fallback); a method without such a knob is skipped. It is a
// diagnostic, run only with TETHER_CANCEL_DIAG=1, and it fails only when
// Run does not return an error wrapping context.Canceled after the cancel;
// TestCancelStops is the CI test.
func TestCancelLatencyDiagnostic(t *testing.T) {
	if os.Getenv("TETHER_CANCEL_DIAG") == "" {
		t.Skip("diagnostic: set TETHER_CANCEL_DIAG=1 (and TETHER_CANCEL_N, TETHER_CANCEL_METHODS)")
	}
	n := 3000
	if v := os.Getenv("TETHER_CANCEL_N"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			t.Fatal(err)
		}
	}
	delays := []time.Duration{200 * time.Millisecond}
	if v := os.Getenv("TETHER_CANCEL_DELAYS"); v != "" {
		delays = nil
		for _, f := range strings.Split(v, ",") {
			d, err := time.ParseDuration(f)
			if err != nil {
				t.Fatal(err)
			}
			delays = append(delays, d)
		}
	}
	only := map[string]bool{}
	if v := os.Getenv("TETHER_CANCEL_METHODS"); v != "" {
		for _, name := range strings.Split(v, ",") {
			only[name] = true
		}
	}
	pairs := -1
	if v := os.Getenv("TETHER_CANCEL_PAIRS"); v != "" {
		var err error
		if pairs, err = strconv.Atoi(v); err != nil {
			t.Fatal(err)
		}
	}
	var knobs []string
	if v := os.Getenv("TETHER_CANCEL_SET"); v != "" {
		knobs = strings.Split(v, ",")
	}
	var table strings.Builder
	fmt.Fprintf(&table, "n = %d %s\n%-12s %10s %s  %s\n", n, strings.Join(knobs, " "), "method", "full", "latency@cancel", "error")
	for _, info := range Methods() {
		if len(only) > 0 && !only[info.Name] {
			continue
		}
		m := info.New()
		if len(knobs) > 0 {
			var err error
			if m, err = SetKnobs(m, knobs); err != nil {
				t.Logf("%s: skipped: %v", info.Name, err)
				continue
			}
		}
		p := cancelProblem(t, n, m.Uses())
		if pairs >= 0 && p.Constraints != nil {
			p.Constraints = cancelPairs(t, n, pairs)
		}
		s := &Settings{Seed: 1}
		full := "-"
		if os.Getenv("TETHER_CANCEL_FULL") != "" {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			start := time.Now()
			_, err := Run(ctx, m, p, s)
			cancel()
			full = time.Since(start).Round(time.Millisecond).String()
			if err != nil {
				full += "(" + err.Error() + ")"
			}
		}
		latency, errs := "", []string{}
		for _, d := range delays {
			lat, cancelled, err := cancelLatency(m, p, s, d)
			switch {
			case !cancelled:
				latency += fmt.Sprintf(" done<%v", d)
			case !errors.Is(err, context.Canceled):
				t.Errorf("%s: error %v after the cancel at %v, want context.Canceled", info.Name, err, d)
				fallthrough
			default:
				latency += fmt.Sprintf(" %v@%v", lat.Round(time.Millisecond), d)
			}
			if err != nil {
				errs = append(errs, err.Error())
			}
		}
		err := strings.Join(errs, "; ")
		line := fmt.Sprintf("%-12s %10s %s  %v\n", info.Name, full, latency, err)
		table.WriteString(line)
		t.Log(strings.TrimSpace(line))
	}
	t.Log("\n" + table.String())
}
