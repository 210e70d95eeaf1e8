package experiment

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSeed001TablesVerdicts checks the rules of seed001-tables2-3 on
// made-up results whose verdicts follow by hand: at 20% known L1-CSC's
// best NMI in [0.1, 10] (0.85) is below CSP's best (0.90) minus 0.02, at
// 40% it is above (0.95): Table 3 partly held; every NMI level CSP
// reaches (0.6–0.9) L1-CSC reaches with λ = 1 at 40%: Table 2 held. The
// λ = 100 run (0.99, outside the range) must not count.
func TestSeed001TablesVerdicts(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "wine"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := seed001TablesSetup{datasets: []string{"wine"}, pcts: []float64{0.2, 0.4}, reps: 1,
		lambdas: []float64{1, 100}, alphas: []float64{0.1, 0.5}}
	res := map[string]Values{
		seed001TablesKey("wine", "l1csc", 1, 0.2, 0):   {"nmi": 0.85},
		seed001TablesKey("wine", "l1csc", 1, 0.4, 0):   {"nmi": 0.95},
		seed001TablesKey("wine", "l1csc", 100, 0.2, 0): {"nmi": 0.99},
		seed001TablesKey("wine", "csp", 0.1, 0.2, 0):   {"nmi": 0.90},
		seed001TablesKey("wine", "csp", 0.5, 0.2, 0):   {"failed": 1},
		seed001TablesKey("wine", "csp", 0.1, 0.4, 0):   {"nmi": 0.50},
		seed001TablesKey("wine", "csp", 0.5, 0.4, 0):   {"nmi": 0.60},
	}
	out, err := seed001TablesReport(&Env{DataRoot: root}, s, res)
	if err != nil {
		t.Fatal(err)
	}
	checkClaims(t, out, 4)
	for i, want := range []Verdict{Held, PartlyHeld, NotTestable, NotTestable} {
		if got := out.Claims[i].Verdict; got != want {
			t.Errorf("claim %d (%s): %v, want %v (ours: %s)", i, out.Claims[i].Source, got, want, out.Claims[i].Ours)
		}
	}
	if got, want := out.Claims[0].Ours, "4 of 4 (dataset, level) cells"; got != want {
		t.Errorf("Table 2: %q, want %q", got, want)
	}
	if got, want := out.Claims[1].Ours, "1 of 2 (dataset, share) cells; not reached (L1-CSC best vs CSP best): wine at 20% (0.850 vs 0.900)"; got != want {
		t.Errorf("Table 3: %q, want %q", got, want)
	}
}

// checkClaims fails unless out has at least min claims, each with a
// source, a quote and a rule, a Reason when not testable, and each held
// or not-held verdict written on the page as the page writes verdicts
// ("**held**", "**not held**", "**partly held**").
func checkClaims(t *testing.T, out *Output, min int) {
	t.Helper()
	if len(out.Claims) < min {
		t.Fatalf("%d claims, want at least %d", len(out.Claims), min)
	}
	for i, c := range out.Claims {
		if c.Source == "" || c.Quote == "" || c.Rule == "" {
			t.Errorf("claim %d incomplete: %+v", i, c)
		}
		if c.Verdict == NotTestable {
			if c.Reason == "" {
				t.Errorf("claim %d not testable without a reason", i)
			}
			continue
		}
		if w := "**" + c.Verdict.String() + "**"; !strings.Contains(out.Markdown, w) {
			t.Errorf("claim %d is %s but the page never says %s", i, c.Verdict, w)
		}
	}
}
