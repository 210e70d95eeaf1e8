package experiment

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tether-sc/tether/internal/atomicfile"
)

// A page's figures are among its files, which Run writes with the page,
// staged under its context: they are in place with it, and under a
// Registry that a second Ctrl-C discarded none is, nor a temporary file.
// Report wrote them into the folder itself, outside the Registry, before
// the page: an interrupted run left them (or, at a second Ctrl-C, their
// temporary files) beside an old page or none.
func TestRunFiguresStagedWithThePage(t *testing.T) {
	exp := Closure(ClosureParams{Partitions: []string{"A"}, Counts: []int{0, 30}, Alphas: []float64{1}, Reps: 1, Command: "test"})
	figs := []string{"closure-fig4.3.png", "closure-fig4.4.png"}
	env := &Env{Seed: 1, OutDir: t.TempDir()}
	out, _, err := Run(context.Background(), exp, env, RunOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(out.Figures, figs) {
		t.Errorf("figures %q, want %q", out.Figures, figs)
	}
	for _, f := range figs {
		b, err := os.ReadFile(filepath.Join(env.OutDir, f))
		if err != nil || !bytes.Equal(b, out.Files[f]) || !bytes.HasPrefix(b, []byte("\x89PNG")) {
			t.Errorf("%s: %d bytes, %v; want the PNG image of Output.Files (%d bytes)", f, len(b), err, len(out.Files[f]))
		}
	}
	reg := atomicfile.NewRegistry()
	reg.Discard()
	env = &Env{Seed: 1, OutDir: t.TempDir()}
	if _, _, err := Run(atomicfile.WithRegistry(context.Background(), reg), exp, env, RunOptions{Workers: 1}); !errors.Is(err, atomicfile.ErrDiscarded) {
		t.Errorf("under a discarded registry: err = %v, want atomicfile.ErrDiscarded", err)
	}
	if entries, _ := os.ReadDir(env.OutDir); len(entries) != 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("under a discarded registry: %q written", names)
	}
}
