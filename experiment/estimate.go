package experiment

import (
	"fmt"
	"path/filepath"
	"time"
)

// Estimate says how long a fresh run of one experiment would take, from the
// times its cached cells recorded.
type Estimate struct {
	// Name is the experiment's.
	Name string
	// Cells are the cells declared; Cached those found in the cache.
	Cells, Cached int
	// Measured counts the cached cells whose wall time Run recorded (the
	// "elapsed" seconds of the cell's cache line); Reported those timed only by the figure
	// "seconds" the experiment itself reports, usually the method's run
	// alone, without the graph or data it shares with other cells: a lower
	// bound. The other cached cells and the cells not cached are untimed
	// and counted as taking no time.
	Measured, Reported int
	// CellSeconds is the sum of the cells' times.
	CellSeconds float64
	// Wall is the time Run would take with Workers workers (see
	// EstimateRun).
	Wall    time.Duration
	Workers int
}

// Untimed is the number of declared cells the estimate has no time for.
func (e Estimate) Untimed() int { return e.Cells - e.Measured - e.Reported }

// EstimateRun estimates the wall time of a fresh Run of e with the given
// number of workers (0: 2, the machine the budget is stated for) from the
// cells cached in cacheDir/<name>.jsonl: each declared cell takes the time
// it recorded, and the cells are handed out in declared order to the first
// worker free, as Run's dynamic queue does. The time of the report
// (plots) and of declaring the cells is not counted, nor any slowdown of
// cells sharing the cores. Cost: one read of the cache file and one call
// of e.Cells, which may read datasets, and one SHA-256 of each dataset
// file the cells read (their cache keys, Cell.Data); no cell is run.
func EstimateRun(e Experiment, env *Env, cacheDir string, workers int) (Estimate, error) {
	if workers <= 0 {
		workers = 2
	}
	est := Estimate{Name: e.Name, Workers: workers}
	cells, err := e.Cells(env)
	if err != nil {
		return est, fmt.Errorf("experiment %s: %w", e.Name, err)
	}
	cached, err := readCacheCells(filepath.Join(cacheDir, e.Name+".jsonl"))
	if err != nil {
		return est, fmt.Errorf("experiment %s: cache: %w", e.Name, err)
	}
	est.Cells = len(cells)
	times := make([]float64, 0, len(cells))
	digests := newDataDigests(env.dataRoot())
	for _, c := range cells {
		key, err := digests.cacheKey(c)
		if err != nil {
			return est, fmt.Errorf("experiment %s: %w", e.Name, err)
		}
		cc, ok := cached[key]
		if !ok {
			continue
		}
		est.Cached++
		t := 0.0
		switch s, rep := cc.values["seconds"]; {
		case cc.elapsed > 0:
			est.Measured++
			t = cc.elapsed
		case rep && s >= 0:
			est.Reported++
			t = s
		}
		est.CellSeconds += t
		times = append(times, t)
	}
	est.Wall = time.Duration(makespan(times, workers) * float64(time.Second))
	return est, nil
}

// makespan returns the time w workers take to run jobs of the given
// durations handed out in order, each to the worker free first (list
// scheduling, as parallel.For's queue does). Cost O(len(d)·w).
func makespan(d []float64, w int) float64 {
	free := make([]float64, max(w, 1))
	for _, t := range d {
		j := 0
		for i := range free {
			if free[i] < free[j] {
				j = i
			}
		}
		free[j] += t
	}
	var end float64
	for _, f := range free {
		end = max(end, f)
	}
	return end
}
