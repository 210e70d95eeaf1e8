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
