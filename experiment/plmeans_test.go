package experiment

import (
	"context"
	"strings"
	"testing"
)

// runQuick runs every cell of e in quick mode and returns its report.
func plRunQuick(t *testing.T, e Experiment) string {
	t.Helper()
	env := &Env{Quick: true, Seed: 1, OutDir: t.TempDir()}
	cells, err := e.Cells(env)
	if err != nil {
		t.Fatal(err)
	}
	res := map[string]Values{}
	for _, c := range cells {
		v, err := c.Run(context.Background())
		if err != nil {
			t.Fatalf("%s: %v", c.Key, err)
		}
		res[c.Key] = v
	}
	out, err := e.Report(env, res)
	if err != nil {
		t.Fatal(err)
	}
	return out.Markdown
}

// TestPLMeansLimitsQuick: the quick grid runs and the claims that are
// theorems of Alg. 16 (large σ: one cluster; α + 3θ ≥ 1: at most one
// cluster of size > 1) are reported held.
func TestPLMeansLimitsQuick(t *testing.T) {
	md := plRunQuick(t, PLMeansLimits())
	for _, want := range []string{"2. *A large σ keeps the initial single cluster* (the new-cluster score 5.2.6 grows with σ). **held**",
		"3. *When α + 3θ ≥ 1 (eq. 5.2.9 fails) no cluster of size 2 or more can form besides the initial one.* **held**"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
}

// TestZhouSBMQuick: the quick protocol runs; with α = 1, θ = 0.2 power-law
// means never has two clusters of size > 1 (eq. 5.2.9).
func TestZhouSBMQuick(t *testing.T) {
	md := plRunQuick(t, ZhouSBM())
	if !strings.Contains(md, "one cluster plus singletons). **held**") || !strings.Contains(md, "| Ncut (true k) |") {
		t.Errorf("report:\n%s", md)
	}
}
