package main

import (
	"strings"
	"testing"
)

// TestHelpDefaultsPrint: every flag's default prints in -h. flag's
// PrintDefaults calls String on a zero flag.Value, and a wrapper without
// a zero-safe String (graphKindValue, first written so) printed "panic
// calling String method on zero …" in cluster -h and serve -h.
func TestHelpDefaultsPrint(t *testing.T) {
	for _, cmd := range [][]string{{"cluster"}, {"serve"}, {"labels"}, {"eval"}, {"gen"}, {"constraints", "gen"}, {"constraints", "check"}, {"methods"}} {
		out, errOut, _ := run(t, append(cmd, "-h")...)
		if strings.Contains(out+errOut, "panic") {
			t.Errorf("%s -h: %s%s", strings.Join(cmd, " "), out, errOut)
		}
	}
}
