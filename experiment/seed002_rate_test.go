package experiment

import (
	"context"
	"strings"
	"testing"
)

func TestSeed002RateColumns(t *testing.T) {
	for _, tc := range []struct {
		col, method string
		raw         bool
	}{
		{"cpca", "cpca", true},
		{"clpp", "clpp", true},
		{"cpca-minmax", "cpca", false},
		{"clpp-minmax", "clpp", false},
		{"csc", "csc", false},
		{"njw", "njw", false},
	} {
		if m, raw := rateColumn(tc.col); m != tc.method || raw != tc.raw {
			t.Errorf("rateColumn(%q) = %q, %v; want %q, %v", tc.col, m, raw, tc.method, tc.raw)
		}
	}
}

// TestSeed002RateQuick runs the quick seed-002 rate experiment (wine, three
// rates, two repetitions; under a second) and checks that cPCA and cLPP
// have their rows and the findings section, with the dimension of 95% of
// the raw wine variance (one direction: proline's variance dominates; the
// paper reports 2).
func TestSeed002RateQuick(t *testing.T) {
	env := &Env{DataRoot: ssDataRoot(t), Quick: true, Seed: 1}
	out, st, err := Run(context.Background(), Seed002Rate(), env, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed > 0 {
		t.Fatalf("%d cells failed: %v", st.Failed, st.Errors)
	}
	checkClaims(t, out, 3)
	md := out.Markdown
	for _, want := range []string{
		"| cpca | accuracy |", "| clpp | accuracy |", "| cpca | rand |", "| clpp | rand |",
		"| cpca-minmax | accuracy |", "| clpp-minmax | rand |",
		"## Where cPCA and cLPP land", "| wine | 1 / 1 (2) |",
		"\"Globally, cPCA and cLPP produce the worst performances\"",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if !strings.Contains(string(out.Files["seed002-rate.csv"]), "wine,clpp,0.2,") {
		t.Errorf("CSV lacks the clpp rows")
	}
}
