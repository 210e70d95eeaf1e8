package experiment

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSeed004QuickRuns runs both seed 004 experiments in quick mode and
// checks that every cell succeeds, NMIs lie in [0, 1], and the report names
// the regenerating command and writes the plots and CSV.
func TestSeed004QuickRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the quick experiments (about 10 s)")
	}
	for _, e := range []Experiment{Seed004Fig63(), Seed004Fig646()} {
		dir := t.TempDir()
		env := &Env{OutDir: dir, Quick: true, Seed: 1}
		out, st, err := Run(context.Background(), e, env, RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if st.Failed != 0 || st.Ran != st.Cells {
			t.Errorf("%s: %d cells, %d ran, %d failed: %v", e.Name, st.Cells, st.Ran, st.Failed, st.Errors)
		}
		if !strings.Contains(out.Markdown, "tether repro "+e.Name) {
			t.Errorf("%s: report does not name its command", e.Name)
		}
		if len(out.Figures) == 0 {
			t.Errorf("%s: no figures", e.Name)
		}
		for _, f := range out.Figures {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Error(err)
			}
		}
		for name, b := range out.Files {
			if !strings.HasSuffix(name, ".csv") {
				continue // the figures' PNG images
			}
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			for _, l := range lines[1:] {
				f := strings.Split(l, ",")
				v, err := strconv.ParseFloat(f[5], 64)
				if err != nil || !(v >= 0 && v <= 1) {
					t.Errorf("%s: NMI %q out of [0, 1] in %q", name, f[5], l)
				}
			}
		}
	}
}
