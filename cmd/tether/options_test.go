package main

import (
	"bytes"
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
	// The help of the enum flags names no default when it is the zero value
	// (as before the binding moved out of package graph), and shows one
	// otherwise.
	for _, c := range []struct {
		spec graph.Spec
		want []string
		not  []string
	}{
		{graph.DefaultSpec(), []string{"  -graph value\n", "  -affinity value\n", "  -sigma value\n", "(default 10)"}, []string{"(default knn)", "(default rbf)", "(default local)"}},
		{graph.Spec{Kind: graph.Full, Affinity: graph.Binary, Sigma: graph.Sigma{Rule: graph.SigmaMedian}}, []string{"(default full)", "(default binary)", "(default median)"}, nil},
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
