package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/internal/memlimit"
	"github.com/tether-sc/tether/internal/testctx"
)

// runConstraintsCLI runs "tether constraints args…" in-process.
func runConstraintsCLI(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
	err = m.Run(context.Background(), append([]string{"constraints"}, args...))
	return out.String(), errb.String(), err
}

func consWriteTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestConstraintsGen(t *testing.T) {
	// 60 nodes in 3 classes of 20, one label per line.
	var truth strings.Builder
	for i := range 60 {
		truth.WriteString(strconv.Itoa(i % 3))
		truth.WriteByte('\n')
	}
	truthPath := consWriteTemp(t, "truth.txt", truth.String())
	dir := t.TempDir()
	tests := []struct {
		name   string
		args   []string
		labels bool
		count  int // expected pairs or labelled nodes; -1 = not fixed
	}{
		{"pairs-1/n", []string{"--protocol", "pairs-1/n"}, false, -1},
		{"pairs-frac", []string{"--protocol", "pairs-frac", "--rate", "0.01"}, false, 18}, // round(0.01·1770)
		{"labels-frac", []string{"--protocol", "labels-frac", "--rate", "0.1"}, true, 6},
		{"label-sets", []string{"--protocol", "label-sets", "--rate", "0.25"}, true, 15}, // 3·round(5)
		{"label-sets pairs", []string{"--protocol", "label-sets", "--rate", "0.25", "--pairs"}, false, 105},
		{"ml-uniformity", []string{"--protocol", "ml-uniformity", "--alpha", "0.5", "--count", "40"}, false, 40},
		{"noise", []string{"--protocol", "pairs-frac", "--rate", "0.1", "--noise", "0.1", "--base", "1"}, false, 177},
	}
	for k, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, strconv.Itoa(k)+".csv")
			args := append([]string{"gen", "--truth", truthPath, "--seed", "3", "-o", out}, tc.args...)
			if _, _, err := runConstraintsCLI(t, args...); err != nil {
				t.Fatal(err)
			}
			if tc.labels {
				l, err := constraint.ReadLabelsFile(out, 60)
				if err != nil {
					t.Fatal(err)
				}
				if got := len(l.Labeled()); got != tc.count {
					t.Errorf("%d labelled nodes, want %d", got, tc.count)
				}
				for i, c := range l {
					if c != constraint.Unlabeled && c != i%3 {
						t.Errorf("node %d labelled %d, truth %d", i, c, i%3)
					}
				}
				return
			}
			s, err := constraint.ReadFile(out, 60)
			if err != nil {
				t.Fatal(err)
			}
			if tc.count >= 0 && len(s.Pairs) != tc.count {
				t.Errorf("%d pairs, want %d", len(s.Pairs), tc.count)
			}
			wrong := 0
			for _, p := range s.Pairs {
				if (p.I%3 == p.J%3) != (p.Kind == constraint.MustLink) {
					wrong++
				}
			}
			want := 0
			if tc.name == "noise" {
				want = 18 // round(0.1·177)
			}
			if wrong != want {
				t.Errorf("%d pairs disagree with the truth, want %d", wrong, want)
			}
		})
	}
	// The error lists the protocols (it named only the bad one).
	if _, _, err := runConstraintsCLI(t, "gen", "--truth", truthPath, "--protocol", "nope"); !errors.Is(err, errUsage) ||
		!strings.Contains(err.Error(), `unknown protocol "nope" (want pairs-1/n, pairs-frac, labels-frac, label-sets or ml-uniformity)`) {
		t.Errorf("unknown protocol: %v, want a usage error listing the protocols", err)
	}
}

// TestConstraintsFlagRangeExitCodes: flag values the generators refuse
// (a fraction outside [0, 1], more must-links than the partition holds)
// are usage errors, exit status 2, naming the flag and value; they exited
// 1 as failures of the data. Values in range still draw (exit 0).
func TestConstraintsFlagRangeExitCodes(t *testing.T) {
	truth := consWriteTemp(t, "small.lab", "0\n0\n0\n1\n1\n") // 3 + 1 = 4 must-link pairs
	check := consWriteTemp(t, "c.csv", "0,1,ml\n")
	gen := func(args ...string) []string {
		return append([]string{"gen", "-truth", truth, "-o", filepath.Join(t.TempDir(), "out.csv")}, args...)
	}
	cases := []struct {
		name string
		args []string
		code int
		msg  string // in the error, when code is 2
	}{
		{"gen -rate 1.5", gen("-protocol", "pairs-frac", "-rate", "1.5"), 2, "-rate 1.5 outside [0, 1]"},
		{"gen -rate -0.1 labels", gen("-protocol", "labels-frac", "-rate", "-0.1"), 2, "-rate -0.1 outside [0, 1]"},
		{"gen -rate NaN sets", gen("-protocol", "label-sets", "-rate", "NaN"), 2, "-rate NaN outside [0, 1]"},
		{"gen -noise 1.5", gen("-protocol", "pairs-frac", "-noise", "1.5"), 2, "-noise 1.5 outside [0, 1]"},
		{"gen -noise -1 labels", gen("-protocol", "labels-frac", "-noise", "-1"), 2, "-noise -1 outside [0, 1]"},
		{"gen -alpha 2", gen("-protocol", "ml-uniformity", "-alpha", "2"), 2, "-alpha 2 outside [0, 1]"},
		{"gen -count 100", gen("-protocol", "ml-uniformity", "-count", "100"), 2, "-count 100: the classes of " + truth + " hold 4 must-link pairs"},
		{"gen -count -1", gen("-protocol", "ml-uniformity", "-count", "-1"), 2, "-count -1 is negative"},
		{"gen -count 4", gen("-protocol", "ml-uniformity", "-count", "4", "-alpha", "0.5"), 0, ""},
		{"gen -rate 1 -noise 1", gen("-protocol", "pairs-frac", "-rate", "1", "-noise", "1"), 0, ""},
		// A flag the protocol does not read is refused (it was ignored).
		{"gen -rate with pairs-1/n", gen("-protocol", "pairs-1/n", "-rate", "0.9"), 2, "-rate does not apply to -protocol pairs-1/n: only pairs-frac, labels-frac, label-sets read it"},
		{"gen -rate with ml-uniformity", gen("-protocol", "ml-uniformity", "-rate", "0.5"), 2, "-rate does not apply to -protocol ml-uniformity"},
		{"gen -count with pairs-frac", gen("-protocol", "pairs-frac", "-count", "5"), 2, "-count does not apply to -protocol pairs-frac: only ml-uniformity reads it"},
		{"gen -alpha with labels-frac", gen("-protocol", "labels-frac", "-alpha", "0.5"), 2, "-alpha does not apply to -protocol labels-frac: only ml-uniformity reads it"},
		{"gen -pairs with pairs-frac", gen("-protocol", "pairs-frac", "-pairs"), 2, "-pairs does not apply to -protocol pairs-frac: only labels-frac, label-sets read it"},
		{"gen -pairs=false with pairs-frac", gen("-protocol", "pairs-frac", "-pairs=false"), 0, ""},
		{"gen -pairs with label-sets", gen("-protocol", "label-sets", "-pairs", "-rate", "0.5"), 0, ""},
		{"closure -counts 100000", []string{"closure", "-partition", "A", "-counts", "100000", "-reps", "1"}, 2, "-counts 100000: partition A holds 24750 must-link pairs, want 0…24750"},
		{"closure -ml 100000", []string{"closure", "-partition", "B", "-counts", "10", "-ml", "100000", "-reps", "1"}, 2, "-ml 100000: partition B holds"},
		{"closure -alpha 2", []string{"closure", "-partition", "A", "-alpha", "2"}, 2, "α = 2 outside [0, 1]"},
		// Empty lists ran on no point: empty tables, exit status 0.
		{"closure -counts empty", []string{"closure", "-partition", "A", "-counts", " , ", "-reps", "1"}, 2, "-counts: no value: give at least one"},
		{"closure -alpha empty", []string{"closure", "-partition", "A", "-alpha", "", "-reps", "1"}, 2, "-alpha: no value: give at least one"},
		// -n above what a constraint file can number was exit status 1,
		// without naming -n (review 108).
		{"check -n 10¹²", []string{"check", "-n", "1000000000000", check}, 2, "-n 1000000000000: want at most 2³¹ = 2147483648 nodes"},
		{"check -n -1", []string{"check", "-n", "-1", check}, 2, "-n -1 is negative"},
		{"check -n 10⁶", []string{"check", "-n", "1000000", check}, 0, ""},
	}
	// -n 2³¹ asked for about 64 GiB and died of it with a stack trace: a
	// usage error on machines with less (on larger ones the check runs,
	// and is not tried here).
	if avail, err := memlimit.Available(); err == nil && avail < 1<<31*consCheckBytesPerNode {
		cases = append(cases, struct {
			name string
			args []string
			code int
			msg  string
		}{"check -n 2³¹", []string{"check", "-n", "2147483648", check}, 2, "-n 2147483648: the check keeps about 32 bytes per node, 64.0 GiB, more than the"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := runConstraintsCLI(t, c.args...)
			if got := exitCode(context.Background(), err, io.Discard); got != c.code {
				t.Fatalf("exit status %d, want %d (err %v)", got, c.code, err)
			}
			if c.msg != "" && !strings.Contains(err.Error(), c.msg) {
				t.Errorf("err %q lacks %q", err, c.msg)
			}
		})
	}
}

func TestConstraintsCheck(t *testing.T) {
	bad := consWriteTemp(t, "c.csv", "# base=1\n1,2,ml\n2,3,ml\n3,1,cl\n4,5,cl\n")
	out, _, err := runConstraintsCLI(t, "check", bad, "--n", "5")
	if err == nil || !strings.Contains(err.Error(), "1 conflict under the reject policy") {
		t.Fatalf("reject: err %v", err)
	}
	// The conflict names the nodes as the file does, in base 1 (it said
	// cl(2,0) … ml(1,2), ml(0,1), numbers the file does not hold).
	for _, want := range []string{"3 (singletons included)", "cl(3,1) [" + bad + ":4] joined by ml(2,3) [" + bad + ":3], ml(1,2) [" + bad + ":2]"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// With -names, by name, in the text and in the JSON report.
	named := consWriteTemp(t, "n.csv", "a,b,ml\nb,c,ml\nc,a,cl\n")
	names := consWriteTemp(t, "names.txt", "a\nb\nc\nd\n")
	wantNamed := "cl(c,a) [" + named + ":3] joined by ml(b,c) [" + named + ":2], ml(a,b) [" + named + ":1]"
	for _, args := range [][]string{{"check", "-names", names, named}, {"check", "-json", "-names", names, named}} {
		out, _, err := runConstraintsCLI(t, args...)
		if err == nil || !strings.Contains(out, wantNamed) {
			t.Errorf("%q: err %v, output lacks %q:\n%s", args, err, wantNamed, out)
		}
	}
	clean := filepath.Join(t.TempDir(), "clean.csv")
	if _, _, err := runConstraintsCLI(t, "check", "--policy", "drop-cl", "-o", clean, bad); err != nil {
		t.Fatal(err)
	}
	s, err := constraint.ReadFile(clean, 5)
	if err != nil || len(s.Pairs) != 3 {
		t.Errorf("after drop-cl: %v, %v; want 3 pairs", s, err)
	}
	// -o - writes the constraints kept alone on standard output, the
	// report going to standard error (the report and the pairs were mixed
	// on standard output).
	stdout, stderr, err := runConstraintsCLI(t, "check", "--policy", "drop-cl", "-o", "-", bad)
	if err != nil {
		t.Fatal(err)
	}
	if f, err := constraint.Read(strings.NewReader(stdout), &constraint.ReadOptions{N: 5}); err != nil || len(f.Set.Pairs) != 3 || strings.Contains(stdout, "must-links") {
		t.Errorf("-o -: standard output %q (%v), want the 3 pairs kept alone", stdout, err)
	}
	if !strings.Contains(stderr, "must-links") {
		t.Errorf("-o -: the report is not on standard error:\n%s", stderr)
	}
	jsonOut, _, err := runConstraintsCLI(t, "check", "--policy", "soft", "--json", bad)
	if err != nil {
		t.Errorf("soft: %v", err)
	}
	// The JSON pairs are 0-based, with the kind by name and the
	// effective weight (the fields of tether serve's API).
	var rep struct {
		Conflicts []struct {
			Pairs []map[string]any `json:"pairs"`
		} `json:"conflicts"`
	}
	if err := json.Unmarshal([]byte(jsonOut), &rep); err != nil || len(rep.Conflicts) != 1 {
		t.Fatalf("soft -json: %v, %d conflicts in %s", err, len(rep.Conflicts), jsonOut)
	}
	want := map[string]any{"i": 2.0, "j": 0.0, "kind": "cl", "weight": 1.0}
	if ps := rep.Conflicts[0].Pairs; len(ps) == 0 || !maps.Equal(ps[0], want) {
		t.Errorf("soft -json: pairs %v, want first %v", ps, want)
	}
	// An identical repeat is listed and kept once (exit 0); beside a
	// contradiction only the contradiction is counted as refused.
	rep2 := consWriteTemp(t, "r.csv", "0,1,ml\n1,0,ml\n2,3,cl\n")
	out, _, err = runConstraintsCLI(t, "check", rep2)
	if err != nil || !strings.Contains(out, "duplicate: ml(0,1) ["+rep2+":1], ml(1,0) ["+rep2+":2]") || !strings.Contains(out, "kept (-conflicts reject, the default)") {
		t.Errorf("identical repeat: err %v\n%s", err, out)
	}
	mixed := consWriteTemp(t, "m.csv", "0,1,ml\n1,0,ml\n0,1,cl\n")
	if _, _, err := runConstraintsCLI(t, "check", mixed); err == nil || !strings.Contains(err.Error(), "1 conflict under the reject policy") {
		t.Errorf("repeat and contradiction: err %v", err)
	}
	// A malformed line is an error naming the file and line.
	broken := consWriteTemp(t, "b.csv", "0,1,ml\n0,1,maybe\n")
	if _, _, err := runConstraintsCLI(t, "check", broken); err == nil || !strings.Contains(err.Error(), broken+":2:") {
		t.Errorf("malformed: %v", err)
	}
	// --base 0 contradicts the file's directive.
	if _, _, err := runConstraintsCLI(t, "check", "--base", "0", bad); err == nil || !strings.Contains(err.Error(), "declares base=1") {
		t.Errorf("base mismatch: %v", err)
	}
}

// TestConstraintsCheckInferredN: without -n or -names, check says that its
// number of nodes is inferred from the largest index (review 95: "nodes
// 999" read as a fact about the data), in text and in -json; with them it
// is the number given.
func TestConstraintsCheckInferredN(t *testing.T) {
	file := consWriteTemp(t, "c.csv", "0,1,ml\n5,998,cl\n")
	names := consWriteTemp(t, "names.txt", "a\nb\n")
	named := consWriteTemp(t, "n.csv", "a,b,ml\n")
	for _, tc := range []struct {
		args     []string
		text     string // the nodes line
		inferred bool
	}{
		{[]string{file}, "nodes                                     999 (inferred from the largest index in the file; -n gives the number)\n", true},
		{[]string{"-n", "1000", file}, "nodes                                     1000\n", false},
		{[]string{"-names", names, named}, "nodes                                     2\n", false},
	} {
		t.Run(strings.Join(tc.args[:len(tc.args)-1], " "), func(t *testing.T) {
			out, _, err := runConstraintsCLI(t, append([]string{"check"}, tc.args...)...)
			if err != nil || !strings.Contains(out, tc.text) {
				t.Errorf("err %v, output lacks %q:\n%s", err, tc.text, out)
			}
			js, _, err := runConstraintsCLI(t, append([]string{"check", "-json"}, tc.args...)...)
			var rep struct {
				Inferred *bool `json:"n_inferred"`
			}
			if err != nil || json.Unmarshal([]byte(js), &rep) != nil || rep.Inferred == nil || *rep.Inferred != tc.inferred {
				t.Errorf("-json: err %v, n_inferred %v, want %v:\n%s", err, rep.Inferred, tc.inferred, js)
			}
		})
	}
}

// TestConstraintsCheckConflictsFlag: check names the conflict policy
// -conflicts, as tether cluster does; -policy, its old name, still works,
// and the two given with different values are a usage error.
func TestConstraintsCheckConflictsFlag(t *testing.T) {
	bad := consWriteTemp(t, "c.csv", "0,1,ml\n1,2,ml\n2,0,cl\n3,4,cl\n")
	cases := []struct {
		name  string
		args  []string
		kept  int    // pairs written to -o; -1: an error
		usage string // text of the usage error, when kept is -1
	}{
		{"default reject", nil, -1, ""},
		{"-conflicts drop-cl", []string{"-conflicts", "drop-cl"}, 3, ""},
		{"-conflicts soft", []string{"-conflicts", "soft"}, 4, ""},
		{"-policy drop-cl (old name)", []string{"-policy", "drop-cl"}, 3, ""},
		{"both, same value", []string{"-policy", "soft", "-conflicts", "soft"}, 4, ""},
		{"both, different values", []string{"-policy", "soft", "-conflicts", "drop-cl"}, -1, "-policy soft and -conflicts drop-cl disagree"},
		{"bad -conflicts", []string{"-conflicts", "maybe"}, -1, "-conflicts: "},
		{"bad -policy", []string{"-policy", "maybe"}, -1, "-policy: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "kept.csv")
			_, _, err := runConstraintsCLI(t, append(append([]string{"check", "-o", out}, c.args...), bad)...)
			if c.kept < 0 {
				if err == nil {
					t.Fatal("no error")
				}
				if c.usage != "" && (!errors.Is(err, errUsage) || !strings.Contains(err.Error(), c.usage)) {
					t.Errorf("err %v, want a usage error with %q", err, c.usage)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s, err := constraint.ReadFile(out, 5)
			if err != nil || len(s.Pairs) != c.kept {
				t.Errorf("kept %v (%v), want %d pairs", s, err, c.kept)
			}
		})
	}
	var help bytes.Buffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &help, Stderr: &help}
	if err := m.Run(context.Background(), []string{"constraints", "check", "-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("check -h: %v", err)
	}
	if !strings.Contains(help.String(), "[-conflicts P]") || !strings.Contains(help.String(), "deprecated: the old name of -conflicts") {
		t.Errorf("check -h does not document -conflicts first:\n%s", help.String())
	}
}

// TestConstraintsCheckEmpty: a file without constraints is valid (exit
// status 0) but draws a warning on standard error, and in the JSON report;
// a file with constraints draws none.
func TestConstraintsCheckEmpty(t *testing.T) {
	cases := []struct {
		name, content string
		args          []string
		warn          bool
	}{
		{"empty file", "", nil, true},
		{"comments only", "# base=1\n# none yet\n", nil, true},
		{"empty, json", "", []string{"-json"}, true},
		{"empty, soft", "\n", []string{"--policy", "soft", "--n", "4"}, true},
		{"one constraint", "0,1,ml\n", nil, false},
		{"one constraint, json", "0,1,cl\n", []string{"-json"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := consWriteTemp(t, "c.csv", c.content)
			out, errOut, err := runConstraintsCLI(t, append(append([]string{"check"}, c.args...), p)...)
			if err != nil {
				t.Fatalf("err %v (an empty set is valid)", err)
			}
			const prefix = "tether constraints check: warning: "
			got := strings.Contains(errOut, prefix)
			if got != c.warn {
				t.Errorf("warning on stderr %v, want %v; stderr:\n%s", got, c.warn, errOut)
			}
			if c.warn && !strings.Contains(errOut, p+": no constraints") {
				t.Errorf("warning does not name the file: %q", errOut)
			}
			if slices.Contains(c.args, "-json") && strings.Contains(out, `"warnings"`) != c.warn {
				t.Errorf("JSON warnings %v, want %v:\n%s", !c.warn, c.warn, out)
			}
		})
	}
}

func TestConstraintsClosure(t *testing.T) {
	dir := t.TempDir()
	_, _, err := runConstraintsCLI(t, "closure", "--partition", "A", "--reps", "3", "--counts", "0,3000", "--alpha", "1", "-o", dir)
	if err != nil {
		t.Fatal(err)
	}
	csv, err := os.ReadFile(filepath.Join(dir, "closure.csv"))
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "closure.md"))
	if err != nil || !strings.Contains(string(md), "tether constraints closure --partition A") {
		t.Fatalf("closure.md: %v\n%s", err, md)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(string(csv), "\n") {
		f := strings.Split(line, ",")
		if len(f) == 12 {
			rows[f[0]+"/"+f[2]] = f
		}
	}
	num := func(key string, col int) float64 {
		f, ok := rows[key]
		if !ok {
			t.Fatalf("no row %s in\n%s", key, csv)
		}
		v, err := strconv.ParseFloat(f[col], 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	// Closed forms: with no must-link every node is a singleton, so
	// ARI = 0 and, with I = H(P) = ln 5 and H(P,P̂) = H(P̂) = ln 500, the joint
	// NMI is ln 5 / ln 500 = 0.2590 and the arithmetic one
	// 2 ln 5 / (ln 5 + ln 500) = 0.4115.
	// With 3000 uniform must-links (600 per cluster of 100, far above the
	// connectivity threshold 228) the closure is the partition: ARI = NMI = 1.
	tests := []struct {
		key  string
		col  int
		want float64
	}{
		{"4.3/0", 5, 0},
		{"4.3/0", 7, math.Log(5) / math.Log(500)},
		{"4.3/0", 9, 2 * math.Log(5) / (math.Log(5) + math.Log(500))},
		{"4.3/0", 11, 500},
		{"4.3/3000", 5, 1},
		{"4.3/3000", 7, 1},
		{"4.3/3000", 11, 5},
	}
	for _, tc := range tests {
		if got := num(tc.key, tc.col); math.Abs(got-tc.want) > 1e-4 {
			t.Errorf("%s column %d = %v, want %.4f", tc.key, tc.col, got, tc.want)
		}
	}
	if _, ok := rows["4.4/1140"]; !ok {
		t.Errorf("no Fig. 4.4 row at the threshold 1140:\n%s", csv)
	}
}

// TestConstraintsGenRefusals: an empty reference is an error (it wrote "0
// pairs on 0 nodes" and exited 0), and so is a request for more pairs than
// consMaxPairs, before any is drawn: the pairs are held in memory, 32
// bytes each, so pairs-frac -rate 0.001 on 2·10⁶ nodes (2·10⁹ pairs) ran
// out of memory.
func TestConstraintsGenRefusals(t *testing.T) {
	empty := consWriteTemp(t, "empty.txt", "")
	one := consWriteTemp(t, "one.txt", strings.Repeat("0\n", 12000)) // 7.2·10⁷ pairs
	out := filepath.Join(t.TempDir(), "c.csv")
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"-truth", empty, "-protocol", "pairs-frac"}, []string{"empty.txt", "no labels"}},
		{[]string{"-truth", one, "-protocol", "pairs-frac", "-rate", "1"}, []string{"71994000 pairs", "at most"}},
		{[]string{"-truth", one, "-protocol", "ml-uniformity", "-count", "71000000"}, []string{"71000000 pairs", "at most"}},
		{[]string{"-truth", one, "-protocol", "labels-frac", "-rate", "1", "-pairs"}, []string{"71994000 pairs", "at most"}},
	} {
		_, _, err := runConstraintsCLI(t, append([]string{"gen", "-o", out}, c.args...)...)
		if err == nil {
			t.Errorf("%v: no error", c.args)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error %q lacks %q", c.args, err, w)
			}
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: %s written", c.args, out)
		}
	}
}

// TestConstraintsGenInterrupted: the generators do not poll a context, and
// must-links at the connectivity threshold of 2·10⁶ nodes took 21 s to
// stop after Ctrl-C; the command now returns as soon as it is cancelled.
func TestConstraintsGenInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("draws must-links for a second in the background")
	}
	truth := consWriteTemp(t, "two.txt", strings.Repeat("0\n1\n", 100000)) // threshold ≈ 1.2·10⁶ must-links
	out := filepath.Join(t.TempDir(), "c.csv")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	m := &Main{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
	t0 := time.Now()
	err := m.Run(ctx, []string{"constraints", "gen", "-truth", truth, "-protocol", "ml-uniformity", "-alpha", "0.5", "-o", out})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the context's", err)
	}
	if d := time.Since(t0); d > time.Second {
		t.Errorf("returned %v after the start, 50 ms after which it was cancelled", d)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s written", out)
	}
}

// TestConstraintsCheckBadNames: a -names file that is empty, has a blank
// line or repeats a name (blanks around it aside, in either layout) is an
// error naming that file and line; a repeat
// used to be reported against the constraint file, and an empty names
// file made every name "not an integer".
func TestConstraintsCheckBadNames(t *testing.T) {
	cons := consWriteTemp(t, "c.csv", "a,b,ml\nc,d,cl\n")
	for _, c := range []struct {
		names string
		want  string
	}{
		{"", "names.txt: no names"},
		{"a\nb\na\nd\n", `names.txt:3: name "a" repeats line 1`},
		{"a\nb\n a \nd\n", `names.txt:3: name "a" repeats line 1`},
		// A labels file refuses a repeat too: the name a constraint
		// reader would find shared by two nodes never reaches it.
		{"name,label\na,1\nb,1\na ,2\nd,2\n", `names.txt:4: column 1: value "a": invalid input: node already labelled on line 2`},
		{"a\n\nc\nd\n", "names.txt:2: empty name"},
		{"\n\n", "names.txt: no names"},
	} {
		names := consWriteTemp(t, "names.txt", c.names)
		_, _, err := runConstraintsCLI(t, "check", "-names", names, cons)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("names %q: err = %v, want one containing %q", c.names, err, c.want)
		}
	}
}

// TestConstraintsCheckNamesTrailingBlanks: blank lines at the end of a
// -names file are ignored, as the other readers ignore them; a second one
// was "names.txt:6: empty name" (review 108).
func TestConstraintsCheckNamesTrailingBlanks(t *testing.T) {
	cons := consWriteTemp(t, "c.csv", "a,b,ml\nc,d,cl\n")
	names := consWriteTemp(t, "names.txt", "a\nb\nc\nd\n\n \n\n")
	out, _, err := runConstraintsCLI(t, "check", "-names", names, cons)
	if err != nil || !regexp.MustCompile(`(?m)^nodes +4$`).MatchString(out) {
		t.Fatalf("err %v, report %q", err, out)
	}
}

// TestConstraintsCheckInterrupted: constraint.Read and the conflict check
// poll no context; on 6·10⁶ pairs check took 4-5 s to stop after Ctrl-C.
// It now returns as soon as it is cancelled.
func TestConstraintsCheckInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 10⁶ pairs in the background")
	}
	var b strings.Builder
	for i := range 1000000 {
		fmt.Fprintf(&b, "%d,%d,ml\n", i, i+1)
	}
	file := consWriteTemp(t, "c.csv", b.String())
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	m := &Main{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
	t0 := time.Now()
	err := m.Run(ctx, []string{"constraints", "check", file})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the context's", err)
	}
	if d := time.Since(t0); d > time.Second {
		t.Errorf("returned %v after the start, 20 ms after which it was cancelled", d)
	}
}

// checksCtx is a live context that counts the calls of Err.
type checksCtx struct {
	context.Context
	mu sync.Mutex
	n  int
}

func (c *checksCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return nil
}

func (c *checksCtx) Done() <-chan struct{} { return nil }

// tether constraints check applies its -conflicts policy checking the
// context as it goes (in constraint.ReadContext, which reads, checks the
// pairs and applies the policy), where constraint.Resolve ran on a
// goroutine that Ctrl-C abandoned, working on for seconds at 10⁶ pairs:
// cancelled at any of the last checks of a whole run (counted first), the
// command stops there, naming the file and the step.
func TestConstraintsCheckCancelInTheResolve(t *testing.T) {
	path := consBigConflicts(t)
	args := []string{"constraints", "check", "-conflicts", "drop-cl", path}
	runCtx := func(ctx context.Context) error {
		m := &Main{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
		return m.Run(ctx, args)
	}
	count := &checksCtx{Context: context.Background()}
	if err := runCtx(count); err != nil {
		t.Fatal(err)
	}
	for c := count.n - 3; c < count.n; c++ {
		err := runCtx(testctx.CancelAfter(c))
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), path+": stopped while checking the pairs") {
			t.Errorf("cancelled at check %d of %d: err = %v, want context.Canceled naming the file and the step", c+1, count.n, err)
		}
	}
}

// consBigConflicts writes a file of 3·2¹⁶ + 5 pairs with conflicts of
// every kind (repeats, contradictions, cannot-links inside must-link
// components) and returns its path.
func consBigConflicts(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	for i := range 3<<16 + 5 {
		kind := "ml"
		if i%3 == 0 {
			kind = "cl"
		}
		fmt.Fprintf(&b, "%d,%d,%s\n", i%5000, 5000+i%4999, kind)
	}
	return consWriteTemp(t, "pairs.csv", b.String())
}

// tether constraints check checks the pairs once, under every policy: it
// polls the context as often as one constraint.ReadContext with its policy
// does (give or take the opening of the file), where it read them with
// the soft policy, which checks them, then checked them again in
// constraint.ResolveContext to apply -conflicts, polling the context as
// many times more as ResolveContext does. The report is the same (the
// outputs of both ways are compared on files of every kind of conflict).
func TestConstraintsCheckChecksOnce(t *testing.T) {
	path := consBigConflicts(t)
	for _, policy := range []constraint.Policy{constraint.Reject, constraint.DropConflictingCannotLinks, constraint.Soft} {
		read := &checksCtx{Context: context.Background()}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		readPolicy := policy
		if policy == constraint.Reject {
			readPolicy = constraint.DropConflictingCannotLinks // reject stops at the first conflict
		}
		_, err = constraint.ReadContext(read, f, &constraint.ReadOptions{File: path, Policy: readPolicy})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		all, err := constraint.ReadFile(path, 0) // the pairs as given (soft)
		if err != nil {
			t.Fatal(err)
		}
		again := &checksCtx{Context: context.Background()}
		if _, _, err := constraint.ResolveContext(again, all, policy); err != nil && !errors.Is(err, constraint.ErrConflict) {
			t.Fatal(err)
		}
		cmd := &checksCtx{Context: context.Background()}
		m := &Main{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
		err = m.Run(cmd, []string{"constraints", "check", "-conflicts", policy.String(), path})
		if (err != nil) != (policy == constraint.Reject) {
			t.Fatalf("%v: %v", policy, err)
		}
		t.Logf("%v: the command polls %d times, ReadContext %d, ResolveContext %d", policy, cmd.n, read.n, again.n)
		if cmd.n < read.n || cmd.n > read.n+again.n/2 {
			t.Errorf("%v: the command polled the context %d times, want about ReadContext's %d (a second check, ResolveContext, adds %d)", policy, cmd.n, read.n, again.n)
		}
	}
}

// TestConstraintsCheckKeepsNames: check -o writes a file keyed by name
// with the names it was read with (it wrote indices in the order of
// -names, the names lost), and one keyed by index as before. The
// expected files are written by hand: under drop-cl the cannot-link
// b–a, inside the must-link component {a, b}, is dropped.
func TestConstraintsCheckKeepsNames(t *testing.T) {
	dir := t.TempDir()
	names := consWriteTemp(t, "names.txt", "a\nb\n#c\n")
	for _, tc := range []struct {
		name, in, want string
		args           []string
	}{
		{"by name", "name_i,name_j,kind\na,b,ml\nb,a,cl\n\"#c\",a,cl\n", "name_i,name_j,kind\na,b,ml\n\"#c\",a,cl\n", []string{"-names", names}},
		{"by name, names as given", "a,b,ml\nb,a,cl\n\"#c\",a,cl\n", "name_i,name_j,kind\na,b,ml\n\"#c\",a,cl\n", []string{"-names", names}},
		{"by index", "0,1,ml\n1,0,cl\n2,0,cl\n", "# base=0\n0,1,ml\n2,0,cl\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := filepath.Join(dir, "in.csv")
			out := filepath.Join(dir, "out.csv")
			if err := os.WriteFile(in, []byte(tc.in), 0o644); err != nil {
				t.Fatal(err)
			}
			args := append(append([]string{"check", "-conflicts", "drop-cl", "-o", out}, tc.args...), in)
			if _, _, err := runConstraintsCLI(t, args...); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(out); string(got) != tc.want {
				t.Errorf("wrote %q, want %q", got, tc.want)
			}
		})
	}
}

// TestConstraintsCheckHandHeader: check reads a hand-written header
// (a,b,type; node1,node2,constraint) as a header, by index and with
// -names (review 118: "unknown node name \"a\""), and a first line that
// is neither says what a header must be.
func TestConstraintsCheckHandHeader(t *testing.T) {
	names := consWriteTemp(t, "names.txt", "a\nb\nc\n")
	for _, tc := range []struct {
		name, content string
		args          []string
	}{
		{"by index", "node1,node2,type\n0,1,ml\n1,2,cl\n", nil},
		{"by name", "a,b,type\na,b,ml\nb,c,cl\n", []string{"-names", names}},
		{"weight", "u\tv\tconstraint\tweight\n0\t1\tml\t0.5\n1\t2\tcl\t2\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := consWriteTemp(t, "c.csv", tc.content)
			out, _, err := runConstraintsCLI(t, append(append([]string{"check"}, tc.args...), file)...)
			if err != nil || !strings.Contains(out, "must-links                                1\n") || !strings.Contains(out, "cannot-links                              1\n") {
				t.Errorf("err %v, want 1 must-link and 1 cannot-link:\n%s", err, out)
			}
		})
	}
	file := consWriteTemp(t, "c.csv", "from,to,relation_kind\na,b,ml\n")
	_, _, err := runConstraintsCLI(t, "check", "-names", names, file)
	if want := file + `:1: unknown node name "from"; if line 1 is a header, write it name_i,name_j,kind`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err %v, want one containing %q", err, want)
	}
}

// TestConstraintsCheckNamesLabelsFile: check -names reads the labels file
// the name-keyed constraints were drawn from (name,label, as tether labels
// writes it; name,cluster, as cluster -o does), and a one-name-per-line
// file headed by a node word, which made one node too many; the report
// says the nodes are keyed by name, not "index base 0". Without -names, a
// file keyed by name says to give it (review 118: "unknown node name
// \"p00_ann\"", with -names net.labels too).
func TestConstraintsCheckNamesLabelsFile(t *testing.T) {
	var labels, list, clusters strings.Builder
	labels.WriteString("name,label\n")
	list.WriteString("name\n")
	clusters.WriteString("name,cluster\n")
	for i := range 34 {
		fmt.Fprintf(&labels, "p%02d_ann,%d\n", i, i%2)
		fmt.Fprintf(&list, "p%02d_ann\n", i)
		fmt.Fprintf(&clusters, "p%02d_ann,%d\n", i, 1-i%2)
	}
	truth := consWriteTemp(t, "net.labels", labels.String())
	cons := filepath.Join(t.TempDir(), "netcons.csv")
	if _, _, err := runConstraintsCLI(t, "gen", "-truth", truth, "-protocol", "pairs-frac", "-rate", "0.05", "-o", cons); err != nil {
		t.Fatal(err)
	}
	for _, names := range []string{truth, consWriteTemp(t, "names.txt", list.String()), consWriteTemp(t, "out.csv", clusters.String())} {
		out, _, err := runConstraintsCLI(t, "check", "-names", names, cons)
		if err != nil || !strings.Contains(out, "nodes                                     34\n") || !strings.Contains(out, "nodes keyed by                            name (-names "+names+")\n") || strings.Contains(out, "index base") {
			t.Errorf("-names %s: err %v, want 34 nodes keyed by name and no index base:\n%s", names, err, out)
		}
		js, _, err := runConstraintsCLI(t, "check", "-json", "-names", names, cons)
		var rep struct {
			N      int  `json:"n"`
			ByName bool `json:"by_name"`
		}
		if err != nil || json.Unmarshal([]byte(js), &rep) != nil || rep.N != 34 || !rep.ByName {
			t.Errorf("-json -names %s: err %v, n %d by_name %v, want 34 and true:\n%s", names, err, rep.N, rep.ByName, js)
		}
	}
	// Without -names: the error says to give it.
	_, _, err := runConstraintsCLI(t, "check", "-n", "34", cons)
	if want := "keys the nodes by name, but no node names were given to match them (ReadOptions.Names; tether: data that names its nodes, such as a table with an id column, or constraints check -names with the data's labels file or node list)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("without -names: err %v, want one containing %q", err, want)
	}
	// A labels file by index names no node.
	byIndex := consWriteTemp(t, "idx.csv", "node,cluster\n0,1\n1,0\n")
	_, _, err = runConstraintsCLI(t, "check", "-names", byIndex, cons)
	if want := byIndex + `: the header's column "node" numbers the nodes (0-based indices), it does not name them: give -n`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("-names by index: err %v, want one containing %q", err, want)
	}
	// Integer names without -names are indices, with a warning; the
	// report gives their base.
	ints := consWriteTemp(t, "ints.csv", "name_i,name_j,kind\n1,2,ml\n")
	out, stderr, err := runConstraintsCLI(t, "check", ints)
	if want := ints + ":1 keys its nodes by name, and no -names was given: its names, integers, were read as 0-based node indices; to match them by name, give -names"; err != nil || !strings.Contains(stderr, want) || !strings.Contains(out, "index base") {
		t.Errorf("integer names: err %v, stderr lacks %q or the report its base:\n%s%s", err, want, stderr, out)
	}
}

// TestConsReadNamesHeader: a first line that is a node word alone heads a
// file of one name per line, its errors naming the lines of the file; a
// name that is no such word, or two columns whose second is an integer
// (a name holding a blank), are names as before.
func TestConsReadNamesHeader(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  string
	}{
		{"name\na\nb\n", []string{"a", "b"}, ""},
		{" ID \na\n", []string{"a"}, ""},
		{"names\na\n", []string{"names", "a"}, ""},
		{"node 1\nnode 2\n", []string{"node 1", "node 2"}, ""},
		{"Mr Hi\nOfficer\n", []string{"Mr Hi", "Officer"}, ""},
		{"name,label\nMr Hi,0\nOfficer,1\n", []string{"Mr Hi", "Officer"}, ""},
		{"name\n", nil, `names.txt: no names after the header "name" on line 1`},
		{"name\na\na\n", nil, `names.txt:3: name "a" repeats line 2`},
		{"name,label\na,0\na,1\n", nil, "names.txt:3"},
	} {
		p := consWriteTemp(t, "names.txt", tc.in)
		got, err := consReadNames(context.Background(), p)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err %v, want one containing %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%q: %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// TestConstraintsGenHelpUnusedFlags: gen -h says which protocols refuse
// each flag that not every protocol reads, in a sentence that reads (it
// said "-alpha or -count but with ml-uniformity", review 118), and what
// it says is what consUnusedFlag refuses.
func TestConstraintsGenHelpUnusedFlags(t *testing.T) {
	const want = `A flag the protocol does not read is refused:
-rate with pairs-1/n or ml-uniformity, -alpha and -count with any
protocol other than ml-uniformity, -pairs with a pair protocol (pairs-1/n,
pairs-frac, ml-uniformity).`
	help, _, _ := runConstraintsCLI(t, "gen", "-h")
	if !strings.Contains(help, want) {
		t.Errorf("constraints gen -h lacks\n%s\n%s", want, help)
	}
	// The protocols that refuse each flag, as the sentence says.
	refused := map[string][]string{
		"rate":  {"pairs-1/n", "ml-uniformity"},
		"alpha": {"pairs-1/n", "pairs-frac", "labels-frac", "label-sets"},
		"count": {"pairs-1/n", "pairs-frac", "labels-frac", "label-sets"},
		"pairs": {"pairs-1/n", "pairs-frac", "ml-uniformity"},
	}
	values := map[string]string{"rate": "0.5", "alpha": "0.5", "count": "3", "pairs": "true"}
	for flagName, value := range values {
		for _, p := range []string{"pairs-1/n", "pairs-frac", "labels-frac", "label-sets", "ml-uniformity"} {
			fs := flag.NewFlagSet("gen", flag.ContinueOnError)
			for name := range values {
				fs.String(name, "", "")
			}
			if err := fs.Set(flagName, value); err != nil {
				t.Fatal(err)
			}
			err := consUnusedFlag(fs, p)
			if got, want := err != nil, slices.Contains(refused[flagName], p); got != want {
				t.Errorf("-%s with -protocol %s: error %v, the help says refused: %v", flagName, p, err, want)
			}
		}
	}
}
