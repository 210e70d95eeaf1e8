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

// TestRealDataTitleNamesRoot: realdata's title (the heading of its
// section in the results index and `tether repro list`) names the data
// root read, as the page's body does; with the default root it is the
// committed index's heading word for word, and the page's own heading,
// which names no root, is the committed page's for every root. Before,
// the title said ../shared/datasets whatever -data was.
func TestRealDataTitleNamesRoot(t *testing.T) {
	t.Setenv("TETHER_DATASETS", "")
	index, err := os.ReadFile(filepath.Join("..", "docs", "results", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join("..", "docs", "results", "realdata", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	const prefix = "## [realdata](realdata/README.md): "
	i := strings.Index(string(index), prefix)
	if i < 0 {
		t.Fatal("the committed index has no realdata section")
	}
	committedTitle := string(index[i+len(prefix):])
	committedTitle = committedTitle[:strings.IndexByte(committedTitle, '\n')]
	heading := func(md string) string {
		for _, l := range strings.Split(md, "\n") {
			if strings.HasPrefix(l, "# ") {
				return l
			}
		}
		return ""
	}
	committedHeading := heading(string(page))
	if committedHeading == "" {
		t.Fatal("the committed realdata page has no heading")
	}
	e := RealData()
	if e.Title != committedTitle {
		t.Errorf("Title %q, want the committed index's %q", e.Title, committedTitle)
	}
	abs := filepath.Join(t.TempDir(), "data")
	for _, tc := range []struct {
		name, root, env, in string
	}{
		{"default", "", "", "../shared/datasets"},
		{"-data relative", "../mydata", "", "../mydata"},
		{"-data absolute", abs, "", abs},
		{"TETHER_DATASETS", "", abs, abs},
		{"-data over TETHER_DATASETS", "../mydata", abs, "../mydata"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("TETHER_DATASETS", tc.env)
			env := &Env{DataRoot: tc.root}
			got := e.TitleIn(env)
			want := strings.Replace(committedTitle, "../shared/datasets", tc.in, 1)
			if got != want {
				t.Errorf("title %q, want %q", got, want)
			}
			if tc.in != "../shared/datasets" && strings.Contains(got, "shared/datasets") {
				t.Errorf("title %q names the default root, not %s", got, tc.in)
			}
			out, err := realReport(env, map[string]Values{})
			if err != nil {
				t.Fatal(err)
			}
			if h := heading(out.Markdown); h != committedHeading {
				t.Errorf("page heading %q, want the committed page's %q", h, committedHeading)
			}
		})
	}
	// Without TitleFor, and with no Env, TitleIn is Title.
	if got := (Experiment{Title: "x"}).TitleIn(&Env{DataRoot: "y"}); got != "x" {
		t.Errorf("TitleIn without TitleFor = %q", got)
	}
	if got := e.TitleIn(nil); got != e.Title {
		t.Errorf("TitleIn(nil) = %q, want Title", got)
	}
}
