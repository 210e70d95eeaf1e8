package experiment

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCountClaims(t *testing.T) {
	// Expected counts are tallied by hand from the verdict lists.
	cases := []struct {
		name     string
		verdicts []Verdict
		want     ClaimCounts
	}{
		{"none", nil, ClaimCounts{}},
		{"one of each", []Verdict{Held, PartlyHeld, NotHeld, NotTestable}, ClaimCounts{1, 1, 1, 1}},
		{"mixed", []Verdict{Held, Held, NotHeld, Held, NotTestable}, ClaimCounts{Held: 3, NotHeld: 1, NotTestable: 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var claims []Claim
			for _, v := range c.verdicts {
				claims = append(claims, Claim{Verdict: v})
			}
			got, err := Count(claims)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want || got.Total() != len(c.verdicts) {
				t.Errorf("Count = %+v (total %d), want %+v (total %d)", got, got.Total(), c.want, len(c.verdicts))
			}
		})
	}
	if _, err := Count([]Claim{{Quote: "q", Verdict: 9}}); err == nil || !strings.Contains(err.Error(), "invalid verdict 9") {
		t.Errorf("invalid verdict: error %v", err)
	}
}

func TestClaimsRoundTrip(t *testing.T) {
	in := []Claim{
		{Source: "thesis §4.1.3", Quote: "A | B", Rule: "x > y", Ours: "0.5", Verdict: PartlyHeld, Reason: "one of two"},
		{Source: "seed 003", Quote: "q", Verdict: NotTestable},
	}
	b, err := encodeClaims(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := decodeClaims(b)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(out) != fmt.Sprint(in) {
		t.Errorf("round trip:\n got %v\nwant %v", out, in)
	}
	if !strings.Contains(string(b), `"verdict": "partly held"`) {
		t.Errorf("verdicts are stored by name:\n%s", b)
	}
	if _, err := decodeClaims([]byte(`[{"verdict":"maybe"}]`)); err == nil {
		t.Error("unknown verdict accepted")
	}
	if b, err := encodeClaims(nil); err != nil || strings.TrimSpace(string(b)) != "[]" {
		t.Errorf("no claims encode as %q, %v; want []", b, err)
	}
}

func TestLedgerRendering(t *testing.T) {
	entries := []LedgerEntry{
		{Name: "a", Title: "first", Source: "thesis", Page: "a/README.md", Run: true, Claims: []Claim{
			{Source: "thesis §1", Quote: "x | y", Rule: "r", Ours: "0.9", Verdict: Held},
			{Source: "thesis §2", Quote: "z", Rule: "r2", Ours: "0.1", Verdict: NotHeld},
			{Source: "thesis §3", Quote: "w", Rule: "r3", Ours: "–", Verdict: NotTestable, Reason: "no data"},
		}},
		{Name: "b", Title: "second", Source: "seed 3", Page: "b/README.md", Run: true, Claims: []Claim{
			{Source: "seed 3 §5", Quote: "v", Rule: "r4", Ours: "3 of 5", Verdict: PartlyHeld, Reason: "3 of 5 rows"},
		}},
		{Name: "c", Title: "third", Page: "c/README.md", Run: true},
		{Name: "d", Title: "fourth", Page: "d/README.md"},
	}
	md, err := Ledger(entries)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| held | partly held | not held | not testable | total |\n|---:|---:|---:|---:|---:|\n| 1 | 1 | 1 | 1 | 4 |",
		"| [a](a/README.md) | thesis | 1 | 0 | 1 | 1 |",
		"| [d](d/README.md) |  | no claims file yet |",
		"## [a](a/README.md): first",
		`| thesis §1 | x \| y | r | 0.9 | **held** |`,
		"| thesis §3 | w | r3 | – | **not testable**: no data |",
		"| seed 3 §5 | v | r4 | 3 of 5 | **partly held**: 3 of 5 rows |",
		"No claim of the sources is checked by rule on this page yet.",
		"No claims.json in this folder",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("ledger lacks %q:\n%s", want, md)
		}
	}
	// The counts line comes before the first experiment section.
	if strings.Index(md, "| 1 | 1 | 1 | 1 | 4 |") > strings.Index(md, "## [a]") {
		t.Error("counts are not at the top")
	}
}

func TestWithClaims(t *testing.T) {
	claims := []Claim{{Source: "s", Quote: "q", Rule: "r", Ours: "o", Verdict: Held}}
	md := "# Title\n\nBody.\n"
	got := WithClaims(md, claims)
	if !strings.HasPrefix(got, "# Title\n\n## Published claims checked\n\n1 claim: 1 held,") || !strings.HasSuffix(got, "| s | q | r | o | **held** |\n\nBody.\n") {
		t.Errorf("WithClaims:\n%s", got)
	}
	if WithClaims(md, nil) != md {
		t.Error("no claims changed the page")
	}
	if got := WithClaims("no heading\n", claims); !strings.HasPrefix(got, "## Published claims checked") || !strings.HasSuffix(got, "no heading\n") {
		t.Errorf("WithClaims without a heading:\n%s", got)
	}
}

// claimsExperiment is a one-cell experiment whose report checks one claim:
// "the cell's value is positive".
func claimsExperiment(name string, value float64) Experiment {
	return Experiment{
		Name: name, Title: name + " title", Source: name + " source",
		Cells: func(env *Env) ([]Cell, error) {
			return []Cell{{Key: "c", Run: func(ctx context.Context) (Values, error) { return Values{"v": value}, nil }}}, nil
		},
		Report: func(env *Env, res map[string]Values) (*Output, error) {
			v := res["c"]["v"]
			verdict := NotHeld
			if v > 0 {
				verdict = Held
			}
			return &Output{Markdown: "# " + name + "\n", Claims: []Claim{{Source: name, Quote: "positive", Rule: "v > 0", Ours: fmt.Sprint(v), Verdict: verdict}}}, nil
		},
	}
}

// A run of one experiment rewrites its claims file only; the ledger built
// afterwards still has the claims of the experiments run before, also when
// their cells come from the cache.
func TestLedgerKeepsOtherExperiments(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	exps := []Experiment{claimsExperiment("pos", 1), claimsExperiment("neg", -1), claimsExperiment("never", 1)}
	ctx := context.Background()
	for _, e := range exps[:2] {
		if _, _, err := Run(ctx, e, &Env{OutDir: filepath.Join(dir, e.Name)}, RunOptions{CacheDir: cache}); err != nil {
			t.Fatal(err)
		}
	}
	// Rerun "pos" alone: its cell comes from the cache.
	_, st, err := Run(ctx, exps[0], &Env{OutDir: filepath.Join(dir, "pos")}, RunOptions{CacheDir: cache})
	if err != nil || st.Cached != 1 {
		t.Fatalf("rerun: %v, stats %+v", err, st)
	}
	md, err := BuildLedger(dir, exps)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| 1 | 0 | 1 | 0 | 2 |",
		"| [pos](pos/README.md) | pos source | 1 | 0 | 0 | 0 |",
		"| [neg](neg/README.md) | neg source | 0 | 0 | 1 | 0 |",
		"| [never](never/README.md) | never source | no claims file yet |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("ledger lacks %q:\n%s", want, md)
		}
	}
	// A malformed claims file is an error naming the experiment.
	if err := os.WriteFile(filepath.Join(dir, "neg", ClaimsFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := BuildLedger(dir, exps); err == nil || !strings.Contains(err.Error(), "neg") {
		t.Errorf("malformed claims file: error %v", err)
	}
}
