// Package experiment is tether's reproduction harness: each published table
// or figure of the sources is declared once as an Experiment — a list of
// independent cells (one dataset × method × repetition each) and a report
// that turns the cells' figures into Markdown tables, CSV and PNG plots.
//
// Run executes the cells in parallel, caches every finished cell on disk
// (so an interrupted run resumes where it stopped, and Ctrl-C loses no
// finished cell), reports progress with an estimate of the time left, and
// then writes the report.
package experiment

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/tether-sc/tether/dataset/catalog"
	"github.com/tether-sc/tether/internal/suggest"
)

// Values are the named figures one cell produces, e.g. {"ari": 0.93,
// "violations": 4, "seconds": 0.2}.
type Values map[string]float64

// Cell is one independent unit of work of an experiment.
type Cell struct {
	// Key identifies the cell uniquely and stably across runs: it is the
	// cache key, so it must change whenever the cell's definition does
	// (e.g. "iris/fgpwc/rep3").
	Key string
	// Run computes the cell. It must be deterministic (seed everything from
	// the key or the environment) and honour ctx.
	Run func(ctx context.Context) (Values, error)
}

// Env is what an experiment may depend on.
type Env struct {
	// DataRoot is the folder of the benchmark datasets (../shared/datasets).
	DataRoot string
	// OutDir receives the report files.
	OutDir string
	// Quick asks for a smoke-test version: fewer repetitions, smaller n.
	Quick bool
	// Seed is the base seed of every random choice.
	Seed uint64
}

// dataRoot is the folder the catalogue's datasets are read from: DataRoot,
// or catalog.DefaultRoot ($TETHER_DATASETS, else ../shared/datasets) when
// DataRoot is empty. Cost: at most one environment lookup.
func (e *Env) dataRoot() string {
	if e.DataRoot == "" {
		return catalog.DefaultRoot()
	}
	return e.DataRoot
}

// Output is what an experiment's report writes: Markdown (a section of the
// results page), CSV tables and figures, all relative to Env.OutDir.
type Output struct {
	// Markdown is the experiment's section of the results page.
	Markdown string
	// Files maps file names (relative to OutDir) to contents, e.g. CSV.
	Files map[string][]byte
	// Figures lists PNG files already written into OutDir by Report.
	Figures []string
	// Claims are the published claims this experiment checks, with their
	// verdicts (see Claim).
	Claims []Claim
}

// Experiment is one published table or figure to reproduce.
type Experiment struct {
	// Name is the command-line name, e.g. "fgpwc-table1".
	Name string
	// Title is a one-line description.
	Title string
	// Source says where the published figures are, e.g. "seed 003 Table 1".
	Source string
	// Cells declares the work. It may fail when inputs are missing (e.g. a
	// dataset folder); such cells should be skipped, not fail, and reported.
	Cells func(env *Env) ([]Cell, error)
	// Report builds the output from the results of the cells (by key).
	// Missing keys are cells that failed or were skipped.
	Report func(env *Env, results map[string]Values) (*Output, error)
}

// ErrUnknown is returned by Lookup for an unknown experiment name.
var ErrUnknown = errors.New("experiment: unknown experiment")

// All returns every declared experiment, sorted by name. The slice is built
// on each call.
func All() []Experiment {
	list := registry()
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	return list
}

// Lookup returns the experiment with the given name.
func Lookup(name string) (Experiment, error) {
	for _, e := range registry() {
		if e.Name == name {
			return e, nil
		}
	}
	var names []string
	for _, e := range All() {
		names = append(names, e.Name)
	}
	return Experiment{}, fmt.Errorf("%w %q%s (known: %s)", ErrUnknown, name, suggest.Hint(name, names), strings.Join(names, ", "))
}
