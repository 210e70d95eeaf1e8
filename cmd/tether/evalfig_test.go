package main

import (
	"errors"
	"strings"
	"testing"
)

// TestEvalAMIFMIAndUnconstrained checks that eval prints AMI and the
// Fowlkes–Mallows index, and with -unconstrained the figures over the pairs
// and nodes the constraints leave free.
func TestEvalAMIFMIAndUnconstrained(t *testing.T) {
	dir := t.TempDir()
	// The "luo" case of metrics/testdata/sklearn_ami_fmi.py.
	truth := evalWriteTemp(t, dir, "t.txt", "0\n0\n0\n0\n0\n1\n1\n2\n2\n2\n2\n2\n")
	pred := evalWriteTemp(t, dir, "p.txt", "0\n0\n0\n0\n0\n1\n1\n1\n1\n1\n1\n1\n")
	cons := evalWriteTemp(t, dir, "c.csv", "0,1,ml\n6,7,cl\n")
	out, _, err := run(t, "eval", "-truth", truth, "-pred", pred, "-json", "-constraints", cons, "-unconstrained")
	if err != nil {
		t.Fatal(err)
	}
	// scikit-learn 1.2.1: adjusted_mutual_info_score 0.7651105721766381,
	// fowlkes_mallows_score 0.8230548917531015.
	if v := jsonFigure(t, out, "ami"); v < 0.76511057 || v > 0.76511058 {
		t.Errorf("ami %v", v)
	}
	if v := jsonFigure(t, out, "fowlkes_mallows"); v < 0.82305489 || v > 0.8230549 {
		t.Errorf("fowlkes_mallows %v", v)
	}
	// Leaving out the pairs (0,1) and (6,7) changes the ARI; the free
	// nodes are 2…5 and 8…11.
	ari, un := jsonFigure(t, out, "ari"), jsonFigure(t, out, "ari_unconstrained")
	if ari == un {
		t.Errorf("ari_unconstrained %v equals ari", un)
	}
	jsonFigure(t, out, "ari_free")
	jsonFigure(t, out, "nmi_free")
	text, _, err := run(t, "eval", "-truth", truth, "-pred", pred)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ami ", "fowlkes_mallows "} {
		if !strings.Contains(text, want) {
			t.Errorf("text report lacks %q", want)
		}
	}
	if _, _, err := run(t, "eval", "-truth", truth, "-pred", pred, "-unconstrained"); !errors.Is(err, errUsage) {
		t.Errorf("-unconstrained without -constraints: %v", err)
	}
}
