package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMissingMarkers: R's NA (write.csv's default) and SQL's NULL in a
// numeric column were refused with a hint naming only the library's
// Options.MissingMarkers: the command line had no way to say "NA means
// missing". -missing-markers lists them beside ? and empty (a list adds
// to those, repeatable), with the same partition and note as the file
// written with ?; the hint names the flag; a number is refused, and so
// is the flag with an input that is no feature table.
func TestMissingMarkers(t *testing.T) {
	rows := func(missing string) string {
		var b strings.Builder
		b.WriteString("f1,f2,label\n")
		for i, r := range []string{"0,0,a", "0.1,0.2,a", "0.2,MISS,a", "0.1,0.1,a", "5,5,b", "5.1,MISS,b", "5.2,5.1,b", "5,5.2,b"} {
			if i == 5 && missing == "NA,NULL" {
				r = strings.Replace(r, "MISS", "NULL", 1)
			}
			b.WriteString(strings.Replace(r, "MISS", strings.Split(missing, ",")[0], 1) + "\n")
		}
		return b.String()
	}
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ref, na, both, empty := write("q.csv", rows("?")), write("na.csv", rows("NA")), write("both.csv", rows("NA,NULL")), write("e.csv", rows(""))
	graph := write("g.edges", "0 1\n1 2\n2 0\n")
	common := []string{"cluster", "-k", "2", "-json"}
	labelsOf := func(t *testing.T, args ...string) (string, string) {
		t.Helper()
		out, stderr, err := run(t, append(append([]string{}, common...), args...)...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return out, stderr
	}
	want, _ := labelsOf(t, "-input", ref, "-knn", "2", "-sigma", "median", "-missing", "impute")
	for _, c := range []struct {
		name  string
		args  []string
		usage bool
		err   string // "" for a run whose summary is want's
	}{
		{"NA refused without the flag", []string{"-input", na, "-missing", "impute"}, false,
			`"NA" looks like a missing value, which is written ? or left empty: write it so, or list it among the markers of missing values (tether: -missing-markers NA; library: Options.MissingMarkers), and it is imputed as the other missing values are`},
		{"NA refused, rejecting", []string{"-input", na}, false,
			`(tether: -missing-markers NA; library: Options.MissingMarkers), then impute it or drop its row (tether: -missing impute or -missing drop;`},
		{"NULL not listed", []string{"-input", both, "-missing-markers", "NA", "-missing", "impute"}, false,
			`"NULL" looks like a missing value, which the markers of missing values do not list: list it (tether: -missing-markers NA,NULL; library: Options.MissingMarkers)`},
		{"NA listed, ? and empty named", []string{"-input", na, "-missing-markers", "NA,?,", "-missing", "impute"}, false, ""},
		{"NA listed alone", []string{"-input", na, "-missing-markers", "NA", "-missing", "impute"}, false, ""},
		{"empty fields stay missing", []string{"-input", empty, "-missing-markers", "NA", "-missing", "impute"}, false, ""},
		{"NA and NULL, repeated flag", []string{"-input", both, "-missing-markers", "NA", "-missing-markers", " NULL", "-missing", "impute"}, false, ""},
		{"NA listed, rejecting", []string{"-input", na, "-missing-markers", "NA"}, false,
			`value "NA": missing value: impute it (its column's mean or most frequent value) or drop its row (tether: -missing impute or -missing drop;`},
		{"a number", []string{"-input", na, "-missing-markers", "NA,-1", "-missing", "impute"}, true,
			`invalid value "NA,-1" for flag -missing-markers: marker "-1" is a number: every field -1, in every column, would be read as missing`},
		{"a graph file", []string{"-graph-file", graph, "-missing-markers", "NA"}, true,
			"-missing-markers is an option of the feature table of -input and does not apply to -graph-file (the file is the graph)"},
		{"a generator", []string{"-gen", "moons", "-missing-markers", "NA"}, true,
			"-missing-markers is an option of the feature table of -input and does not apply to -gen moons"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append(append([]string{}, common...), c.args...)
			if c.args[0] == "-input" {
				args = append(args, "-knn", "2", "-sigma", "median")
			}
			out, stderr, err := run(t, args...)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || errors.Is(err, errUsage) != c.usage {
					t.Fatalf("%v: error %v (usage %v); want one with %q (usage %v)", c.args, err, errors.Is(err, errUsage), c.err, c.usage)
				}
				return
			}
			if err != nil {
				t.Fatalf("%v: %v", c.args, err)
			}
			if g, w := partition(t, out), partition(t, want); g != w {
				t.Errorf("%v: partition %s, want that of the file with ?, %s", c.args, g, w)
			}
			if !strings.Contains(stderr, "imputed 2 missing values in 2 rows and 1 column") {
				t.Errorf("%v: stderr %q: want the 2 imputed cells counted", c.args, stderr)
			}
		})
	}
	// tether labels reads the flag as cluster does: NA drops its row.
	out, _, err := run(t, "labels", "-input", na, "-missing-markers", "NA", "-missing", "drop", "-quiet")
	if err != nil || out != "name,label\n0,a\n1,a\n3,a\n4,b\n6,b\n7,b\n" {
		t.Errorf("labels -missing-markers NA -missing drop: %v\n%s\nwant the 6 rows kept", err, out)
	}
	if _, _, err := run(t, "labels", "-graph-file", graph, "-missing-markers", "NA"); err == nil || !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "-missing-markers is an option of the feature table") {
		t.Errorf("labels -graph-file -missing-markers: %v, want a usage error", err)
	}
}

// partition returns the labels, sizes and Ncut of the summary -json
// printed, as text.
func partition(t *testing.T, out string) string {
	t.Helper()
	var s summary
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("summary %q: %v", out, err)
	}
	if s.Ncut == nil {
		t.Fatalf("summary %q: no ncut", out)
	}
	return fmt.Sprintf("labels %v, sizes %v, ncut %.12g, n %d", s.Labels, s.Sizes, *s.Ncut, s.N)
}
