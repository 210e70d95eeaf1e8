package experiment

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealDataPageNamesRoot: the realdata page names the data root it read
// (as given, relative), and with the default root the sentence is the
// committed page's, word for word. Before, it said ../shared/datasets
// whatever -data was.
func TestRealDataPageNamesRoot(t *testing.T) {
	t.Setenv("TETHER_DATASETS", "")
	committed, err := os.ReadFile(filepath.Join("..", "docs", "results", "realdata", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	sentence := func(md string) string {
		i := strings.Index(md, "Every dataset in ")
		if i < 0 {
			return ""
		}
		return md[i : i+strings.Index(md[i:], "\n")]
	}
	want := sentence(string(committed))
	if !strings.HasPrefix(want, "Every dataset in ../shared/datasets with") {
		t.Fatalf("committed page's sentence %q", want)
	}
	abs := filepath.Join(t.TempDir(), "x")
	for _, tc := range []struct {
		root, in string
	}{
		{"", "../shared/datasets"},
		{"../mydata", "../mydata"},
		{abs, abs},
	} {
		env := &Env{DataRoot: tc.root}
		out, err := realReport(env, map[string]Values{})
		if err != nil {
			t.Fatal(err)
		}
		got := sentence(out.Markdown)
		if tc.root == "" && got != want {
			t.Errorf("default root: sentence\n%q\nwant the committed page's\n%q", got, want)
		}
		if !strings.HasPrefix(got, "Every dataset in "+tc.in+" with") {
			t.Errorf("root %q: sentence %q, want it to name %s", tc.root, got, tc.in)
		}
	}
}
