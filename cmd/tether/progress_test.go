package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tether-sc/tether/progress"
)

// TestRecorderStopped: a stage or step still open when the command's
// context is cancelled (Ctrl-C) ends with ", stopped" and "stopped after",
// not with ", done" and the step's time as if it had finished (it printed
// ", done" before); with the context alive they read as before.
func TestRecorderStopped(t *testing.T) {
	for _, cancelled := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		var b strings.Builder
		m := &Main{Stderr: &b}
		now := time.Unix(0, 0)
		m.clock = func() time.Time { return now }
		r := m.recorder(ctx, false)
		end := r.step("clustering")
		r.Record(progress.Event{Stage: "fgpwc", Done: 1, Total: 100})
		now = now.Add(1500 * time.Millisecond)
		r.Record(progress.Event{Stage: "fgpwc", Done: 40, Total: 100})
		if cancelled {
			cancel()
		}
		end()
		cancel()
		want := "fgpwc: [########............] 40/100 (40%) [1.5s]\nfgpwc: [########............] 40/100 (40%) [1.5s], done\nclustering: 1.50s\n"
		if cancelled {
			want = "fgpwc: [########............] 40/100 (40%) [1.5s]\nfgpwc: [########............] 40/100 (40%) [1.5s], stopped\nclustering: stopped after 1.50s\n"
		}
		if b.String() != want {
			t.Errorf("cancelled %v: printed\n%s\nwant\n%s", cancelled, b.String(), want)
		}
	}
}

// TestRecorderFinalState: a stage whose partial line was printed gets its
// final state printed too, so that the last line on a log is not a
// partial one (it was "kmeans: … 1/30 (3%)", read as a stall): the event
// that completes it at once, else, when the step ends (flush), its last
// event with ", done". Stages with no line printed stay silent.
func TestRecorderFinalState(t *testing.T) {
	type step struct {
		after time.Duration // clock advance before the event
		e     progress.Event
		flush bool // flush instead of recording e
	}
	ev := func(after time.Duration, stage string, done, total int) step {
		return step{after: after, e: progress.Event{Stage: stage, Done: done, Total: total}}
	}
	flush := func(after time.Duration) step { return step{after: after, flush: true} }
	cases := []struct {
		name  string
		quiet bool
		steps []step
		want  []string
	}{
		{"short stage: silent", false,
			[]step{ev(0, "kmeans", 1, 30), ev(500*time.Millisecond, "kmeans", 30, 30), flush(0)}, nil},
		{"completion printed at once after a partial line", false,
			[]step{ev(0, "kmeans", 1, 30), ev(1500*time.Millisecond, "kmeans", 2, 30), ev(100*time.Millisecond, "kmeans", 3, 30),
				ev(100*time.Millisecond, "kmeans", 30, 30), flush(0)},
			[]string{"kmeans: [#...................] 2/30 (7%) [1.5s]", "kmeans: [####################] 30/30 (100%) [1.7s]"}},
		{"stopped before its total: last event at the flush", false,
			[]step{ev(0, "fgpwc", 1, 1000), ev(1500*time.Millisecond, "fgpwc", 50, 1000), ev(200*time.Millisecond, "fgpwc", 87, 1000), flush(300 * time.Millisecond)},
			[]string{"fgpwc: [#...................] 50/1000 (5%) [1.5s]", "fgpwc: [#...................] 87/1000 (9%) [2.0s], done"}},
		{"a restarted stage: its new partial line, then its final state", false,
			[]step{ev(0, "kmeans", 1, 30), ev(1500*time.Millisecond, "kmeans", 2, 30), ev(100*time.Millisecond, "kmeans", 30, 30),
				ev(100*time.Millisecond, "kmeans", 1, 30), ev(time.Second, "kmeans", 4, 30), ev(100*time.Millisecond, "kmeans", 9, 30), flush(0)},
			[]string{"kmeans: [#...................] 2/30 (7%) [1.5s]", "kmeans: [####################] 30/30 (100%) [1.6s]",
				"kmeans: [##..................] 4/30 (13%) [2.7s]", "kmeans: [######..............] 9/30 (30%) [2.8s], done"}},
		{"two stages flushed in name order", false,
			[]step{ev(0, "kmeans", 1, 10), ev(0, "eigen", 0, 6), ev(1100*time.Millisecond, "kmeans", 2, 10), ev(0, "eigen", 1, 6), flush(0)},
			[]string{"kmeans: [####................] 2/10 (20%) [1.1s]", "eigen: [###.................] 1/6 (17%) [1.1s]",
				"eigen: [###.................] 1/6 (17%) [1.1s], done", "kmeans: [####................] 2/10 (20%) [1.1s], done"}},
		{"a flush clears: nothing printed twice", false,
			[]step{ev(0, "graph", 1, 4), ev(1100*time.Millisecond, "graph", 2, 4), flush(0), flush(0)},
			[]string{"graph: [##########..........] 2/4 (50%) [1.1s]", "graph: [##########..........] 2/4 (50%) [1.1s], done"}},
		{"quiet", true,
			[]step{ev(0, "kmeans", 1, 30), ev(1500*time.Millisecond, "kmeans", 2, 30), ev(0, "kmeans", 30, 30), flush(0)}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			r := newRecorder(&b, c.quiet)
			now := time.Unix(0, 0)
			r.now = func() time.Time { return now }
			for _, s := range c.steps {
				now = now.Add(s.after)
				if s.flush {
					r.flush()
				} else {
					r.Record(s.e)
				}
			}
			got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
			if b.Len() == 0 {
				got = nil
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("printed\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// runClocked runs tether as run does, with a recorder clock that advances
// 1.1 s at each reading: every progress event after a stage's first is
// printed, and the step lines too, without a timed test.
func runClocked(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	var mu sync.Mutex
	now := time.Unix(0, 0)
	m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, clock: func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(1100 * time.Millisecond)
		return now
	}}
	err := m.Run(context.Background(), args)
	return out.String(), errb.String(), err
}

// progressLines returns the lines of stderr that report stage.
func progressLines(stderr, stage string) []string {
	var lines []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, stage+": ") {
			lines = append(lines, l)
		}
	}
	return lines
}

// TestClusterAutoProgress: tether cluster -method auto shows its
// cross-validation as the stage "auto", fits finished of fits planned, up
// to 100%, naming the fit; it printed nothing while it cross-validated
// (review 86). -quiet prints none of it.
func TestClusterAutoProgress(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "%d,%d,%s\n", i, i+60, []string{"ml", "cl"}[i%2])
	}
	cons := writeTemp(t, "c.csv", b.String())
	args := []string{"cluster", "-gen", "blobs", "-n", "150", "-k", "3", "-method", "auto", "-constraints", cons, "-o", filepath.Join(t.TempDir(), "l.csv")}
	_, errOut, err := runClocked(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	lines := progressLines(errOut, "auto")
	if len(lines) == 0 {
		t.Fatalf("no auto progress on stderr:\n%s", errOut)
	}
	if last := lines[len(lines)-1]; !strings.Contains(last, "(100%)") || !strings.Contains(last, " of 5") && !strings.Contains(last, "whole graph") {
		t.Errorf("last auto line %q: want 100%% and the fit it names", last)
	}
	_, errOut, err = runClocked(t, append(args, "-quiet")...)
	if err != nil {
		t.Fatal(err)
	}
	if lines := progressLines(errOut, "auto"); len(lines) > 0 {
		t.Errorf("-quiet: %q", lines)
	}
}
