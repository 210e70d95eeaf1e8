package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tether-sc/tether/cluster"
)

// helpTexts returns what every command and subcommand prints for -h, by
// the command line that prints it.
func helpTexts(t *testing.T) map[string]string {
	t.Helper()
	var cmds [][]string
	for _, c := range commands() {
		cmds = append(cmds, []string{c.name, "-h"})
	}
	for _, sub := range []string{"constraints gen", "constraints check", "constraints closure", "powerlaw fit", "powerlaw sample"} {
		cmds = append(cmds, append(strings.Fields(sub), "-h"))
	}
	cmds = append(cmds, []string{"help"})
	texts := map[string]string{}
	for _, args := range cmds {
		out, errOut, _ := run(t, args...)
		if text := out + errOut; !strings.Contains(text, "Usage: tether") {
			t.Errorf("%q printed no usage:\n%s", args, text)
		} else {
			texts[strings.Join(args, " ")] = text
		}
	}
	return texts
}

// TestHelpTextsForUsers: the help texts spell flags with one dash, as
// every usage line and the README do; they cite no document a user does
// not have (the project's SPEC, its issues, "seed 000", the sources' name
// for the thesis); and one that cites a source by the README's names
// ("thesis", "seed 001" …) ends with the list that says what they are.
func TestHelpTextsForUsers(t *testing.T) {
	texts := helpTexts(t)
	// tether methods and repro list cite sources too.
	for _, args := range [][]string{{"methods"}, {"repro", "list"}} {
		out, _, err := run(t, args...)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		texts[strings.Join(args, " ")] = out
	}
	for _, i := range cluster.Methods() {
		out, _, err := run(t, "methods", i.Name)
		if err != nil {
			t.Fatalf("methods %s: %v", i.Name, err)
		}
		texts["methods "+i.Name] = out
	}
	doubleDash := regexp.MustCompile(`(^|[\s\[("'])--[a-z]`)
	internal := regexp.MustCompile(`\bSPEC\b|\b[Ii]ssue \d+\b|\bseed 000\b`)
	for cmd, text := range texts {
		if m := doubleDash.FindString(text); m != "" {
			t.Errorf("%s: a flag spelt with two dashes (%q):\n%s", cmd, m, text)
		}
		if m := internal.FindString(text); m != "" {
			t.Errorf("%s: cites %q, which users do not have:\n%s", cmd, m, text)
		}
		if citesSource.MatchString(text) && !strings.Contains(text, sourcesHelp) {
			t.Errorf("%s: cites a source without the list of sources:\n%s", cmd, text)
		}
	}
	// The cases above check something.
	for _, cmd := range []string{"constraints gen -h", "eval -h", "methods", "methods fgpwc", "repro list"} {
		if !strings.Contains(texts[cmd], sourcesHelp) {
			t.Errorf("%s: no list of sources", cmd)
		}
	}
}

// TestUserSource: the sources of the reproductions as repro list shows
// them.
func TestUserSource(t *testing.T) {
	cases := []struct{ in, want string }{
		{"issue 19 (beyond the sources)", "ours (beyond the sources)"},
		{"issue 19; Saade, Krzakala & Zdeborová 2014 (seed 004 §3.2)", "ours; Saade, Krzakala & Zdeborová 2014 (seed 004 §3.2)"},
		{"seed 003 Table 1; seed 000 Table 4.4", "seed 003 Table 1; thesis Table 4.4"},
		{"thesis Table 3.1", "thesis Table 3.1"},
		{"tissue 19", "tissue 19"},
	}
	for _, c := range cases {
		if got := userSource(c.in); got != c.want {
			t.Errorf("userSource(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestSourcesMatchReadme: sourcesHelp is the README's list of sources, but
// for its italics and line breaks.
func TestSourcesMatchReadme(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var para []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "Sources: ") || (para != nil && line != "") {
			para = append(para, line)
		} else if para != nil {
			break
		}
	}
	norm := func(s string) string { return strings.Join(strings.Fields(strings.ReplaceAll(s, "*", "")), " ") }
	if got, want := norm(sourcesHelp), norm(strings.Join(para, " ")); got != want {
		t.Errorf("sourcesHelp\n%s\nREADME\n%s", got, want)
	}
}

// TestReproHelpSaysWhereTheDataIs: repro -h says that the benchmark
// datasets are not in the repository, where they are described, and how to
// point at them; its default folder only exists in the developers' layout.
func TestReproHelpSaysWhereTheDataIs(t *testing.T) {
	help, _, _ := run(t, "repro", "-h")
	for _, want := range []string{"does not ship", "dataset/catalog", "-data names\nthe folder", "$TETHER_DATASETS", "developers' layout"} {
		if !strings.Contains(help, want) {
			t.Errorf("repro -h lacks %q:\n%s", want, help)
		}
	}
}

// TestClusterHelpNamesKFinders: cluster -h names, as the methods that
// refuse -k, exactly those that choose k themselves (cluster.Uses.FindsK);
// it said "-k sets k for every method".
func TestClusterHelpNamesKFinders(t *testing.T) {
	finders := kFinders()
	if len(finders) == 0 {
		t.Fatal("no method chooses k itself")
	}
	want := "-k sets k for every method but " + strings.Join(finders, " and ") + ",\nwhich choose k themselves"
	if !strings.Contains(clusterUsage, want) {
		t.Errorf("cluster's usage lacks %q", want)
	}
}

// TestHelpTextsAgree: "tether help CMD" prints CMD's help (it printed the
// list of commands); serve's -gen-k does not default to a -k serve does
// not have; constraints check's -base names the values its error wants.
func TestHelpTextsAgree(t *testing.T) {
	for _, args := range [][]string{{"cluster"}, {"constraints", "check"}, {"powerlaw", "fit"}} {
		want, _, _ := run(t, append(args, "-h")...)
		got, _, err := run(t, append([]string{"help"}, args...)...)
		if err != nil && err.Error() != "flag: help requested" || got != want || !strings.Contains(got, "Usage: tether "+strings.Join(args, " ")) {
			t.Errorf("help %s: %v, printed\n%s\nwant\n%s", strings.Join(args, " "), err, got, want)
		}
	}
	serve, _, _ := run(t, "serve", "-h")
	if !strings.Contains(serve, "-gen-k int\n    \tgenerator: number of classes (default: the generator's own;") {
		t.Errorf("serve -h: -gen-k's default:\n%s", serve)
	}
	check, _, _ := run(t, "constraints", "check", "-h")
	_, _, err := run(t, "constraints", "check", "-base", "2", "f.csv")
	if !strings.Contains(check, `index base: auto (the file's "# base=" directive, else 0), 0 or 1`) || err == nil || !strings.Contains(err.Error(), "want auto, 0 or 1") {
		t.Errorf("constraints check -base: help\n%s\nerror %v", check, err)
	}
}

// TestHelpGoesToStdout: help asked for — tether help, -h, tether help CMD,
// CMD -h, tether constraints -h — prints on standard output and exits 0
// (review 95: tether help printed on standard error, so that tether
// cluster -h | less showed nothing); the usage that comes with a mistake
// (no command) goes to standard error, with a usage error. A mistyped
// command (tether clustr, tether powerlaw fitt) gets the error alone,
// with a did-you-mean and where the commands are listed, as a mistyped
// flag does: the ~30 lines of usage before it hid it.
func TestHelpGoesToStdout(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		asked bool
		typo  string // the error's ending for a mistyped command
	}{
		{[]string{"help"}, true, ""},
		{[]string{"-h"}, true, ""},
		{[]string{"--help"}, true, ""},
		{[]string{"help", "cluster"}, true, ""},
		{[]string{"cluster", "-h"}, true, ""},
		{[]string{"constraints", "-h"}, true, ""},
		{[]string{"constraints", "check", "-h"}, true, ""},
		{[]string{"powerlaw", "help"}, true, ""},
		{nil, false, ""},
		{[]string{"clustr"}, false, `unknown subcommand "clustr": did you mean cluster? (run "tether help" for the commands)`},
		{[]string{"constraints"}, false, ""},
		{[]string{"constraints", "chek"}, false, `unknown command "chek": did you mean check? (want gen, check or closure)`},
		{[]string{"powerlaw", "fitt"}, false, `unknown command "fitt": did you mean fit? (want fit or sample)`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, errOut, err := run(t, tc.args...)
			if tc.asked {
				if err != nil && !errors.Is(err, flag.ErrHelp) || !strings.Contains(out, "Usage: tether") || errOut != "" {
					t.Errorf("err %v, stdout %d bytes, stderr %q: want the usage on standard output and exit status 0", err, len(out), errOut)
				}
				if code := exitCode(context.Background(), err, io.Discard); code != 0 {
					t.Errorf("exit status %d, want 0", code)
				}
				return
			}
			if tc.typo != "" {
				if !errors.Is(err, errUsage) || !strings.HasSuffix(err.Error(), tc.typo) || out != "" || errOut != "" {
					t.Errorf("err %v, stdout %q, stderr %q: want a usage error ending %q and nothing printed", err, out, errOut, tc.typo)
				}
				return
			}
			if !errors.Is(err, errUsage) || out != "" || !strings.Contains(errOut, "Usage: tether") {
				t.Errorf("err %v, stdout %q, stderr %d bytes: want a usage error with the usage on standard error", err, out, len(errOut))
			}
		})
	}
}
