package main

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// writeValues writes x one per line to a file in a test directory.
func writeValues(t *testing.T, name string, x []float64) string {
	t.Helper()
	var b strings.Builder
	for _, v := range x {
		b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		b.WriteByte('\n')
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPowerlawFitXminBudget: -xmin-budget bounds the full scan of the
// candidate x_min values. With the default, 300 values are all tried
// ("over all N candidates", N the number of distinct values leaving 10 in
// the tail: 291 here); with -xmin-budget 1 the search is coarse to fine
// and the output says how many of how many were tried. -xmin-budget 0 is
// a usage error. Before, the flag did not exist and at most 100 candidates
// spaced in rank were tried, whatever the data.
func TestPowerlawFitXminBudget(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	x := make([]float64, 300)
	for i := range x {
		x[i] = math.Pow(1-r.Float64(), -1/1.5) // α = 2.5, distinct
	}
	in := writeValues(t, "v.txt", x)
	js, _, err := run(t, "powerlaw", "fit", "-input", in, "-json")
	var rep plFitReport
	if err != nil || json.Unmarshal([]byte(js), &rep) != nil || rep.Candidates != 291 || rep.Eligible != 291 {
		t.Errorf("default budget: %s (%v), want 291 of 291 candidates", js, err)
	}
	txt, _, err := run(t, "powerlaw", "fit", "-input", in)
	if err != nil || !strings.Contains(txt, "selected by KS minimization over all 291 candidates") {
		t.Errorf("default budget, text:\n%s(%v)", txt, err)
	}
	txt, _, err = run(t, "powerlaw", "fit", "-input", in, "-xmin-budget", "1")
	if err != nil || !strings.Contains(txt, "of 291 candidates, coarse to fine; a larger -xmin-budget tries them all") {
		t.Errorf("-xmin-budget 1, text:\n%s(%v)", txt, err)
	}
	if _, _, err := run(t, "powerlaw", "fit", "-input", in, "-xmin-budget", "0"); err == nil || !strings.Contains(err.Error(), "-xmin-budget 0: want ≥ 1") {
		t.Errorf("-xmin-budget 0: %v", err)
	}
}
