package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLabelsUsageLabelOptional: the usage line of tether labels shows
// -label as optional, as it is: without it the class column is found as
// tether cluster finds it (checked here on a "class" column). Before,
// the line read "-input FILE -label COL", as if -label were required.
func TestLabelsUsageLabelOptional(t *testing.T) {
	var out, errb bytes.Buffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
	if code := exitCode(context.Background(), m.Run(context.Background(), []string{"labels", "-h"}), &errb); code != 0 {
		t.Fatalf("labels -h: exit %d", code)
	}
	help := out.String() + errb.String()
	if !strings.Contains(help, "labels (-input FILE [-label COL] | -graph-file FILE -gml-label ATTR) [-o FILE]") {
		t.Errorf("usage line does not show -label as optional:\n%s", help)
	}
	path := filepath.Join(t.TempDir(), "d.csv")
	if err := os.WriteFile(path, []byte("a,b,class\n1,2,x\n3,4,y\n5,6,x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	if err := m.Run(context.Background(), []string{"labels", "-quiet", "-input", path}); err != nil {
		t.Fatalf("labels without -label: %v (%s)", err, errb.String())
	}
	if got, want := out.String(), "node,label\n0,x\n1,y\n2,x\n"; got != want {
		t.Errorf("labels without -label wrote %q, want %q", got, want)
	}
}
