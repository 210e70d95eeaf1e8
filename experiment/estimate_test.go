package experiment

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestMakespan(t *testing.T) {
	// Expected values worked by hand: each job goes to the worker free
	// first, in order (ties to the lowest worker).
	for _, tc := range []struct {
		name string
		d    []float64
		w    int
		want float64
	}{
		{"none", nil, 2, 0},
		{"one worker sums", []float64{1, 2, 3}, 1, 6},
		{"more workers than jobs", []float64{1, 5, 2}, 8, 5},
		// w0: 3, then 1 (free at 3 vs w1 at 3: w0), … : w0 3+1=4, w1 3, next 2 → w1 5, next 2 → w0 6.
		{"two workers", []float64{3, 3, 1, 2, 2}, 2, 6},
		// A long job last cannot be balanced: 1,1 then 10 on w0 at 1 → 11.
		{"long job last", []float64{1, 1, 10}, 2, 11},
		{"zero workers mean one", []float64{1, 2}, 0, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := makespan(tc.d, tc.w); math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("makespan(%v, %d) = %g, want %g", tc.d, tc.w, got, tc.want)
			}
		})
	}
}

// sleepyExperiment has cells c0…c(n−1); cell i sleeps d[i].
func sleepyExperiment(d []time.Duration) Experiment {
	return Experiment{
		Name: "sleepy",
		Cells: func(*Env) ([]Cell, error) {
			var cells []Cell
			for i, di := range d {
				cells = append(cells, Cell{Key: fmt.Sprintf("c%d", i), Run: func(ctx context.Context) (Values, error) {
					time.Sleep(di)
					return Values{"i": float64(i)}, nil
				}})
			}
			return cells, nil
		},
		Report: func(*Env, map[string]Values) (*Output, error) { return &Output{}, nil },
	}
}

// Run records every cell's wall time beside its values, and EstimateRun
// reads it back: the sleeps set a floor on each time.
func TestRunRecordsCellTimes(t *testing.T) {
	dir := t.TempDir()
	d := []time.Duration{30 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond}
	exp := sleepyExperiment(d)
	if _, _, err := Run(context.Background(), exp, &Env{}, RunOptions{CacheDir: dir, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	cells, err := readCacheCells(filepath.Join(dir, "sleepy.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for i, di := range d {
		c := cells[fmt.Sprintf("c%d", i)]
		if c.elapsed < di.Seconds() || c.elapsed > di.Seconds()+2 {
			t.Errorf("cell %d: elapsed %gs, want at least its sleep %gs", i, c.elapsed, di.Seconds())
		}
		if len(c.values) != 1 || c.values["i"] != float64(i) {
			t.Errorf("cell %d: values %v, want only {i: %d}", i, c.values, i)
		}
	}
	est, err := EstimateRun(exp, &Env{}, dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	if est.Cells != 3 || est.Cached != 3 || est.Measured != 3 || est.Untimed() != 0 || est.Wall < 60*time.Millisecond {
		t.Errorf("estimate %+v, want 3 measured cells and a wall time of at least 60ms", est)
	}
}

// EstimateRun on a hand-written cache: measured times first, then the
// experiment's "seconds" figure, else untimed; the wall time is the
// two-worker makespan of the declared order.
func TestEstimateRunFromCache(t *testing.T) {
	dir := t.TempDir()
	lines := `{"key":"c0","values":{"x":"1"},"elapsed":4}
{"key":"c1","values":{"x":"1","seconds":"1"},"elapsed":2}
{"key":"c2","values":{"seconds":"3"}}
{"key":"c3","values":{"x":"2"}}
{"key":"gone","values":{"x":"2"},"elapsed":100}
`
	if err := os.WriteFile(filepath.Join(dir, "sleepy.jsonl"), []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	exp := sleepyExperiment(make([]time.Duration, 5)) // c0…c4; c4 not cached
	est, err := EstimateRun(exp, &Env{}, dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Times in order 4, 2, 3, 0: w0 4, w1 2 → 5, w1 5 → makespan 5.
	want := Estimate{Name: "sleepy", Cells: 5, Cached: 4, Measured: 2, Reported: 1, CellSeconds: 9, Wall: 5 * time.Second, Workers: 2}
	if est != want {
		t.Errorf("estimate %+v, want %+v", est, want)
	}
	if est.Untimed() != 2 {
		t.Errorf("untimed %d, want 2 (c3 cached without a time, c4 not cached)", est.Untimed())
	}
	// A missing cache is an empty one.
	if est, err = EstimateRun(exp, &Env{}, t.TempDir(), 2); err != nil || est.Cached != 0 || est.Wall != 0 {
		t.Errorf("empty cache: %+v, %v", est, err)
	}
}
