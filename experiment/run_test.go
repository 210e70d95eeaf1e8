package experiment

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/tether-sc/tether/internal/testctx"
)

// countingExperiment has n cells; cell i returns {"v": i} and counts its
// runs in calls. Cell stop (if ≥ 0) cancels the context when it runs.
func countingExperiment(n int, calls *atomic.Int64, cancelAt int, cancel context.CancelFunc) Experiment {
	return Experiment{
		Name: "counting",
		Cells: func(env *Env) ([]Cell, error) {
			var cells []Cell
			for i := 0; i < n; i++ {
				cells = append(cells, Cell{Key: fmt.Sprintf("c%d", i), Run: func(ctx context.Context) (Values, error) {
					calls.Add(1)
					if i == cancelAt {
						cancel()
						return nil, ctx.Err()
					}
					if i == 3 {
						return nil, errors.New("cell 3 fails")
					}
					return Values{"v": float64(i)}, nil
				}})
			}
			return cells, nil
		},
		Report: func(env *Env, res map[string]Values) (*Output, error) {
			var sum float64
			for _, v := range res {
				sum += v["v"]
			}
			return &Output{Markdown: fmt.Sprintf("sum %g over %d cells", sum, len(res))}, nil
		},
	}
}

func TestRunCachesResumesAndReportsFailures(t *testing.T) {
	dir := t.TempDir()
	var calls atomic.Int64
	exp := countingExperiment(20, &calls, -1, nil)
	out, st, err := Run(context.Background(), exp, &Env{}, RunOptions{CacheDir: dir, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	// 0+1+…+19 minus the failing cell 3.
	if want := "sum 187 over 19 cells"; out.Markdown != want {
		t.Errorf("report %q, want %q", out.Markdown, want)
	}
	if st.Ran != 19 || st.Failed != 1 || st.Cached != 0 || calls.Load() != 20 {
		t.Errorf("stats %+v, calls %d", st, calls.Load())
	}
	// A second run takes every finished cell from the cache and retries the
	// failed one only.
	calls.Store(0)
	out, st, err = Run(context.Background(), exp, &Env{}, RunOptions{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if st.Cached != 19 || calls.Load() != 1 || out.Markdown != "sum 187 over 19 cells" {
		t.Errorf("rerun: stats %+v, calls %d, report %q", st, calls.Load(), out.Markdown)
	}
	// Fresh recomputes everything.
	calls.Store(0)
	if _, st, err = Run(context.Background(), exp, &Env{}, RunOptions{CacheDir: dir, Fresh: true}); err != nil || calls.Load() != 20 || st.Cached != 0 {
		t.Errorf("fresh: %v, calls %d, stats %+v", err, calls.Load(), st)
	}
}

func TestRunCancelKeepsFinishedCells(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int64
	// One worker: cells run in order, cell 10 cancels.
	_, st, err := Run(ctx, countingExperiment(20, &calls, 10, cancel), &Env{}, RunOptions{CacheDir: dir, Workers: 1})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if st.Ran != 9 { // cells 0…9 except the failing 3, and 10 cancelled
		t.Errorf("ran %d cells before the cancel, want 9", st.Ran)
	}
	calls.Store(0)
	_, st, err = Run(context.Background(), countingExperiment(20, &calls, -1, nil), &Env{}, RunOptions{CacheDir: dir, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if st.Cached != 9 || calls.Load() != 11 {
		t.Errorf("resume: cached %d (want 9), ran %d cells (want 11)", st.Cached, calls.Load())
	}
}

// A cancelled fresh run must leave the old cache whole: an earlier version
// truncated it on open, so an interrupted `tether repro -fresh` lost every
// cell it had not yet recomputed.
func TestRunFreshCancelKeepsOldCache(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "counting.jsonl")
	var calls atomic.Int64
	if _, _, err := Run(context.Background(), countingExperiment(20, &calls, -1, nil), &Env{}, RunOptions{CacheDir: dir, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, _, err = Run(ctx, countingExperiment(20, &calls, 10, cancel), &Env{}, RunOptions{CacheDir: dir, Workers: 1, Fresh: true})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Errorf("cancelled fresh run changed the cache: %d bytes before, %d after", len(before), len(after))
	}
	if _, err := os.Stat(path + ".fresh"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("cancelled fresh run left %s.fresh behind (stat: %v)", path, err)
	}
	// A fresh run that finishes replaces the cache: its lines are the 19
	// cells that succeed, recomputed (a resume then runs only cell 3).
	calls.Store(0)
	if _, _, err := Run(context.Background(), countingExperiment(20, &calls, -1, nil), &Env{}, RunOptions{CacheDir: dir, Workers: 1, Fresh: true}); err != nil {
		t.Fatal(err)
	}
	cells, err := readCacheCells(path)
	if err != nil || len(cells) != 19 || calls.Load() != 20 {
		t.Errorf("finished fresh run: %d cached cells (want 19), %d calls (want 20), err %v", len(cells), calls.Load(), err)
	}
	if _, err := os.Stat(path + ".fresh"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("finished fresh run left %s.fresh behind (stat: %v)", path, err)
	}
}

func TestRunRejectsDuplicateKeysAndNaN(t *testing.T) {
	dup := Experiment{Name: "dup", Cells: func(*Env) ([]Cell, error) {
		c := Cell{Key: "same", Run: func(context.Context) (Values, error) { return Values{}, nil }}
		return []Cell{c, c}, nil
	}, Report: func(*Env, map[string]Values) (*Output, error) { return &Output{}, nil }}
	if _, _, err := Run(context.Background(), dup, &Env{}, RunOptions{}); err == nil {
		t.Error("duplicate keys: no error")
	}
	nan := Experiment{Name: "nan", Cells: func(*Env) ([]Cell, error) {
		return []Cell{{Key: "x", Run: func(context.Context) (Values, error) {
			zero := 0.0
			return Values{"v": zero / zero}, nil
		}}, {Key: "p", Run: func(context.Context) (Values, error) { panic("boom") }}}, nil
	}, Report: func(*Env, map[string]Values) (*Output, error) { return &Output{}, nil }}
	_, st, err := Run(context.Background(), nan, &Env{}, RunOptions{})
	if err != nil || st.Failed != 2 {
		t.Errorf("NaN and panic cells: err %v, failed %d, want 2", err, st.Failed)
	}
}

func TestRegistryNamesUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range All() {
		if seen[e.Name] {
			t.Errorf("experiment %q registered twice", e.Name)
		}
		seen[e.Name] = true
		if e.Cells == nil || e.Report == nil || e.Source == "" {
			t.Errorf("experiment %q is incomplete", e.Name)
		}
	}
	if _, err := Lookup("nope"); !errors.Is(err, ErrUnknown) {
		t.Errorf("Lookup(nope) = %v", err)
	}
}

// TestWriteAllAllOrNothing: an experiment's files are put in place all
// together or not at all: a write that fails on the second file (a folder
// stands at its path) or a context cancelled while the files are staged
// leaves none of them, nor a temporary file; otherwise all are written.
// Before, the files were written one by one, so an interrupt could leave
// a page beside the CSV of an older run.
func TestWriteAllAllOrNothing(t *testing.T) {
	files := map[string][]byte{"a.csv": []byte("x\n1\n"), "b.md": []byte("# b\n"), "c.json": []byte("[]\n")}
	entries := func(dir string) []string {
		es, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range es {
			names = append(names, e.Name())
		}
		return names
	}
	blocked := t.TempDir()
	if err := os.Mkdir(filepath.Join(blocked, "b.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeAll(context.Background(), blocked, files); err == nil {
		t.Error("a folder at b.md: no error")
	}
	if got := entries(blocked); !slices.Equal(got, []string{"b.md"}) {
		t.Errorf("after a failed write: %v, want only the folder b.md", got)
	}
	// A context that is cancelled at its second check: during the first
	// file's staging or later, before the renames.
	cancelled := t.TempDir()
	if err := writeAll(testctx.CancelAfter(1), cancelled, files); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
	if got := entries(cancelled); len(got) != 0 {
		t.Errorf("after a cancelled write: %v, want nothing", got)
	}
	ok := t.TempDir()
	if err := writeAll(context.Background(), ok, files); err != nil {
		t.Fatal(err)
	}
	if got := entries(ok); !slices.Equal(got, []string{"a.csv", "b.md", "c.json"}) {
		t.Errorf("written: %v", got)
	}
}
