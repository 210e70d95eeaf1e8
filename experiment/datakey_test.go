package experiment

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// writeIris writes an iris.csv of the catalogue's layout (no header, four
// numbers, the class last) with the given rows under root.
func writeIris(t *testing.T, root string, rows int) {
	t.Helper()
	var b strings.Builder
	classes := []string{"Iris-setosa", "Iris-versicolor", "Iris-virginica"}
	for i := 0; i < rows; i++ {
		fmt.Fprintf(&b, "%d.1,%d.5,1.%d,0.2,%s\n", 4+i%3, 3+i%2, i%10, classes[i%3])
	}
	if err := os.MkdirAll(filepath.Join(root, "iris"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "iris", "iris.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// irisExperiment has one cell reading iris (its n, counted in runs) and
// one of generated data (counted in gen); with undeclared, a third cell
// loads iris without naming it in Data.
func irisExperiment(runs, gen *atomic.Int64, undeclared bool) Experiment {
	return Experiment{
		Name: "iris-n",
		Cells: func(env *Env) ([]Cell, error) {
			cells := []Cell{
				{Key: "iris/n", Data: []string{"iris"}, Run: func(ctx context.Context) (Values, error) {
					runs.Add(1)
					d, err := loadCatalog(ctx, "iris", env.dataRoot(), nil)
					if err != nil {
						return nil, err
					}
					return Values{"n": float64(d.N())}, nil
				}},
				{Key: "generated", Run: func(ctx context.Context) (Values, error) {
					gen.Add(1)
					return Values{"v": 1}, nil
				}},
			}
			if undeclared {
				cells = append(cells, Cell{Key: "iris/undeclared", Run: func(ctx context.Context) (Values, error) {
					d, err := loadCatalog(ctx, "iris", env.dataRoot(), nil)
					if err != nil {
						return nil, err
					}
					return Values{"n": float64(d.N())}, nil
				}})
			}
			return cells, nil
		},
		Report: func(env *Env, res map[string]Values) (*Output, error) {
			return &Output{Markdown: fmt.Sprintf("n = %g", res["iris/n"]["n"])}, nil
		},
	}
}

// TestRunCacheKeyCoversData: a cell reading a dataset is cached under a
// digest of its files: another data root with other iris contents
// recomputes it (and the page shows the new n), a copy of the first root
// at another path takes it from the cache, and a cell of generated data is
// cached whatever the root. EstimateRun finds the cells Run cached. Before,
// the cache ignored the files: the second root's run took the 150-row
// figures from the cache.
func TestRunCacheKeyCoversData(t *testing.T) {
	cache, tmp := t.TempDir(), t.TempDir()
	root1, root2, root3 := filepath.Join(tmp, "d1"), filepath.Join(tmp, "d2"), filepath.Join(tmp, "d3")
	writeIris(t, root1, 150)
	writeIris(t, root2, 100)
	writeIris(t, root3, 150) // the same contents as root1, elsewhere
	var runs, gen atomic.Int64
	exp := irisExperiment(&runs, &gen, false)
	for i, tc := range []struct {
		root           string
		runs, gen      int64 // cumulative
		cached         int
		page           string
		estimateCached int
	}{
		{root1, 1, 1, 0, "n = 150", 2},
		{root2, 2, 1, 1, "n = 100", 2},
		{root3, 2, 1, 2, "n = 150", 2},
		{root2, 2, 1, 2, "n = 100", 2}, // both contents are in the cache now
	} {
		out, st, err := Run(context.Background(), exp, &Env{DataRoot: tc.root}, RunOptions{CacheDir: cache, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if runs.Load() != tc.runs || gen.Load() != tc.gen || st.Cached != tc.cached || st.Failed != 0 {
			t.Errorf("run %d (%s): iris cell run %d times, generated %d, %d cached, %d failed; want %d, %d, %d, 0 (%v)",
				i, tc.root, runs.Load(), gen.Load(), st.Cached, st.Failed, tc.runs, tc.gen, tc.cached, st.Errors)
		}
		if out.Markdown != tc.page {
			t.Errorf("run %d (%s): page %q, want %q", i, tc.root, out.Markdown, tc.page)
		}
		est, err := EstimateRun(exp, &Env{DataRoot: tc.root}, cache, 1)
		if err != nil || est.Cached != tc.estimateCached {
			t.Errorf("run %d (%s): estimate finds %d cached (%v), want %d", i, tc.root, est.Cached, err, tc.estimateCached)
		}
	}
	// The generated cell keeps its key; the iris cell's carries a digest.
	b, err := os.ReadFile(filepath.Join(cache, "iris-n.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"key":"generated"`) || strings.Count(string(b), `"key":"iris/n#data=`) != 2 {
		t.Errorf("cache file:\n%s", b)
	}
	// An edit of the file in place is seen too.
	writeIris(t, root1, 120)
	out, st, err := Run(context.Background(), exp, &Env{DataRoot: root1}, RunOptions{CacheDir: cache, Workers: 1})
	if err != nil || st.Ran != 1 || out.Markdown != "n = 120" {
		t.Errorf("edited iris: %d run, page %q, %v; want 1 run and n = 120", st.Ran, out.Markdown, err)
	}
}

// TestRunRejectsUndeclaredData: a cell that loads a dataset its Data does
// not name fails, saying so (its cache key would not cover the file), and
// a Data name outside the catalogue is an error of the run.
func TestRunRejectsUndeclaredData(t *testing.T) {
	root := t.TempDir()
	writeIris(t, root, 30)
	var runs, gen atomic.Int64
	_, st, err := Run(context.Background(), irisExperiment(&runs, &gen, true), &Env{DataRoot: root}, RunOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed != 1 || len(st.Errors) != 1 || !strings.Contains(st.Errors[0], "iris/undeclared: reads dataset(s) iris, not named in its Cell.Data") {
		t.Errorf("undeclared read: %d failed %q", st.Failed, st.Errors)
	}
	bad := Experiment{Name: "bad", Cells: func(*Env) ([]Cell, error) {
		return []Cell{{Key: "x", Data: []string{"no-such-set"}, Run: func(context.Context) (Values, error) { return Values{}, nil }}}, nil
	}, Report: func(*Env, map[string]Values) (*Output, error) { return &Output{}, nil }}
	if _, _, err := Run(context.Background(), bad, &Env{DataRoot: root}, RunOptions{}); err == nil || !strings.Contains(err.Error(), `"no-such-set"`) {
		t.Errorf("unknown Data name: error %v", err)
	}
}
