package experiment

import (
	"strings"
	"testing"
)

// The realdata study: the njw-before key carries no fingerprint of the
// defaults (it keeps the reading from before issue 19), every other key
// does; auto's column carries its revision; without datasets there are no cells and the report says so, with
// every claim not testable.
func TestRealDataKeysAndEmptyReport(t *testing.T) {
	fp := realDefaults()
	// The fingerprint the committed page shows
	// (docs/results/realdata/README.md): a field of cluster.Settings that
	// changes no result, such as Spelling, must not change the keys.
	// Change it here when the defaults change, with the page.
	if fp != "2e652a4e" {
		t.Errorf("fingerprint of the defaults %s, want 2e652a4e as the committed page", fp)
	}
	if k := realKey("wiki", "none", "njw-before", 0); strings.Contains(k, fp) {
		t.Errorf("njw-before key %q carries the defaults' fingerprint", k)
	}
	if k := realKey("wiki", "1/n", "auto", 2); !strings.HasSuffix(k, "/"+fp) || !strings.Contains(k, "/2/") {
		t.Errorf("auto key %q lacks the draw or the fingerprint %s", k, fp)
	}
	// The revised column (auto's complete candidate set) has keys of its
	// own, which differ from the cells cached before the revision; the
	// other columns keep theirs. The old key is written out here.
	old := "iris/1/n/auto/0/" + fp
	if k := realKey("iris", "1/n", "auto", 0); k == old || !strings.Contains(k, "/auto@") {
		t.Errorf("auto key %q: want a revised column key, not %q", k, old)
	}
	if k := realKey("iris", "1/n", "sl", 0); k != "iris/1/n/sl/0/"+fp {
		t.Errorf("sl key %q changed", k)
	}
	env := &Env{DataRoot: t.TempDir(), Quick: true}
	var loads memo[string, *realInstance]
	cells, err := realCells(env, &loads)
	if err != nil || len(cells) != 0 {
		t.Fatalf("no datasets: %d cells, error %v", len(cells), err)
	}
	out, err := realReport(env, map[string]Values{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Markdown, "Not found (skipped): karate, iris, webkb-cornell") {
		t.Errorf("report does not list the missing datasets:\n%s", out.Markdown)
	}
	for _, c := range out.Claims {
		if c.Verdict != NotTestable {
			t.Errorf("claim %q: verdict %v without data", c.Quote, c.Verdict)
		}
	}
}

// realChoices counts auto's recorded choices over the draws, most
// frequent first.
func TestRealChoices(t *testing.T) {
	res := map[string]Values{
		realKey("iris", "1/n", "auto", 0): {"chose:sl": 1},
		realKey("iris", "1/n", "auto", 1): {"chose:njw": 1},
		realKey("iris", "1/n", "auto", 2): {"chose:sl": 1},
	}
	if got := realChoices(res, "iris", "1/n", 3); got != "sl×2, njw×1" {
		t.Errorf("choices %q, want \"sl×2, njw×1\"", got)
	}
}

// The replication uses only draws realSets, … of auto, against the one
// run of each unconstrained method; its verdicts follow the targets'
// rules: here iris is within 0.01 (0.80 vs 0.805) but not above,
// karate below (0.70 vs 0.88), so (a) is partly held and (b) not held.
// Draws 0–2 (auto 0.99) must not count.
func TestRealReplication(t *testing.T) {
	res := map[string]Values{}
	unc := []realMethod{{key: "njw-before", unconstrained: true}, {key: "njw", unconstrained: true}, {key: "bethe", unconstrained: true}}
	res[realKey("iris", "none", "njw", 0)] = Values{"ari": 0.805}
	res[realKey("iris", "none", "bethe", 0)] = Values{"ari": 0.7}
	res[realKey("iris", "none", "njw-before", 0)] = Values{"ari": 0.95} // not a candidate
	res[realKey("karate", "none", "njw", 0)] = Values{"ari": 0.88}
	for rep := 0; rep < realSets+realReplicationSets; rep++ {
		iris, karate := 0.80, 0.70
		if rep < realSets {
			iris, karate = 0.99, 0.99
		}
		if rep == realSets {
			iris = 0.70 // a bad draw: the mean over 10 is 0.79
		}
		if rep == realSets+1 {
			iris = 0.90 // … back to 0.80
		}
		res[realKey("iris", "1/n", "auto", rep)] = Values{"ari": iris, "chose:sl": 1}
		res[realKey("karate", "1/n", "auto", rep)] = Values{"ari": karate}
	}
	var md strings.Builder
	claims := realReplication(&md, res, []realRow{{"karate", true}, {"iris", false}}, unc)
	if len(claims) != 2 {
		t.Fatalf("%d claims, want 2", len(claims))
	}
	if claims[0].Verdict != PartlyHeld || !strings.Contains(claims[0].Ours, "within 0.01 on 1 of 2") || !strings.Contains(claims[0].Ours, "karate (auto 0.700, njw 0.880)") {
		t.Errorf("target (a): %v, %q", claims[0].Verdict, claims[0].Ours)
	}
	if claims[1].Verdict != NotHeld || !strings.HasPrefix(claims[1].Ours, "0 of 2") {
		t.Errorf("target (b): %v, %q", claims[1].Verdict, claims[1].Ours)
	}
	if !strings.Contains(md.String(), "| iris | 0.805 (njw) | 0.990 | 0.800 ± 0.047 (10) |") {
		t.Errorf("replication table:\n%s", md.String())
	}
}
