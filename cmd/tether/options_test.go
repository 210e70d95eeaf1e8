package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/tether-sc/tether/graph"
)

func TestBindGraphSpec(t *testing.T) {
	s := graph.DefaultSpec()
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	bindGraphSpec(fs, &s)
	if err := fs.Parse(nil); err != nil || s != graph.DefaultSpec() {
		t.Fatalf("no flags: %+v, %v; want the defaults", s, err)
	}
	if err := fs.Parse([]string{"-graph", "mknn", "-knn", "15", "-affinity", "cosine", "-sigma", "local:9", "-eps", "0.5"}); err != nil {
		t.Fatal(err)
	}
	want := graph.Spec{Kind: graph.MutualKNN, K: 15, Eps: 0.5, Affinity: graph.Cosine, Sigma: graph.Sigma{Rule: graph.SigmaLocal, K: 9}}
	if s != want {
		t.Errorf("parsed %+v, want %+v", s, want)
	}
	for _, args := range [][]string{{"-graph", "ball"}, {"-affinity", "gauss"}, {"-sigma", "-1"}} {
		if err := fs.Parse(args); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

func TestBindGraphSpecHelp(t *testing.T) {
	// flag.PrintDefaults names no default of the enum flags when it is the
	// zero value (as before the binding moved out of package graph): the
	// usage text names it then, once (the help gave no default for -graph,
	// -affinity, -knn-search and -sigma, nor the K of -sigma local).
	for _, c := range []struct {
		spec graph.Spec
		want []string
		not  []string
	}{
		{graph.DefaultSpec(), []string{"  -graph value\n", "  -affinity value\n", "  -sigma value\n", "(default 10)",
			"(default: knn)", "(default: rbf)", "(default: auto)", "local is local:7) (default: local)"},
			[]string{"(default knn)", "(default rbf)", "(default local)"}},
		{graph.Spec{Kind: graph.Full, Affinity: graph.Binary, Sigma: graph.Sigma{Rule: graph.SigmaMedian}}, []string{"(default full)", "(default binary)", "(default median)"},
			[]string{"(default: full)", "(default: binary)", "(default: median)", "(default: knn)"}},
	} {
		var buf bytes.Buffer
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(&buf)
		s := c.spec
		bindGraphSpec(fs, &s)
		fs.PrintDefaults()
		for _, w := range c.want {
			if !strings.Contains(buf.String(), w) {
				t.Errorf("help lacks %q:\n%s", w, buf.String())
			}
		}
		for _, w := range c.not {
			if strings.Contains(buf.String(), w) {
				t.Errorf("help has %q:\n%s", w, buf.String())
			}
		}
	}
}

// TestEnumFlagsCheckedWhenUnused: a misspelt value of an enum flag is a
// usage error naming the flag even when the input makes no use of it (a
// graph file takes no -scale, a run without -constraints no -conflicts);
// such values used to be checked only when used, and silently ignored
// otherwise.
func TestEnumFlagsCheckedWhenUnused(t *testing.T) {
	dir := t.TempDir()
	g := writeTemp(t, "g.txt", "0 1\n1 2\n2 0\n3 4\n4 5\n5 3\n2 3\n")
	gml := writeTemp(t, "g.gml", "graph [ node [ id 1 club \"a\" ] node [ id 2 club \"b\" ] edge [ source 1 target 2 ] ]")
	out := []string{"-o", dir + "/l", "-quiet"}
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"cluster", "-graph-file", g, "-k", "2", "-scale", "minmaxx"}, "-scale"},
		{[]string{"cluster", "-graph-file", g, "-k", "2", "-missing", "ignore"}, "-missing"},
		{[]string{"cluster", "-graph-file", g, "-k", "2", "-header", "maybe"}, "-header"},
		{[]string{"cluster", "-graph-file", g, "-k", "2", "-conflicts", "drop"}, "-conflicts"},
		{[]string{"labels", "-graph-file", gml, "-gml-label", "club", "-header", "maybe"}, "-header"},
		{[]string{"labels", "-graph-file", gml, "-gml-label", "club", "-missing", "ignore"}, "-missing"},
	} {
		args := c.args
		if args[0] == "cluster" {
			args = append(args, out...)
		} else {
			args = append(args, "-o", dir+"/labels")
		}
		_, _, err := run(t, args...)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), c.flag) {
			t.Errorf("%v: err = %v, want a usage error naming %s", args, err, c.flag)
		}
	}
}

// TestGraphHelpSklearn: -graph's help says that sknn matches
// scikit-learn's nearest_neighbors graph with -affinity binary only (its
// default rbf weights the same edges), in every command that binds it.
// Before, it said "scikit-learn's nearest_neighbors" alone.
func TestGraphHelpSklearn(t *testing.T) {
	for _, cmd := range []string{"cluster", "serve"} {
		stdout, stderr, _ := run(t, cmd, "-h")
		help := stdout + stderr
		i := strings.Index(help, "\n  -graph ")
		if i < 0 {
			t.Errorf("%s -h lacks -graph", cmd)
			continue
		}
		entry, _, _ := strings.Cut(help[i+1:], "\n  -")
		if !strings.Contains(entry, `sknn (the edges of scikit-learn's affinity="nearest_neighbors" graph; that graph itself with -affinity binary only`) {
			t.Errorf("%s -h on -graph: %q", cmd, entry)
		}
	}
}
