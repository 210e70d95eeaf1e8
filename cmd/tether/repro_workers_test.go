package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestReproWorkers: repro refuses a negative -workers as a usage error
// (exit status 2), as the other commands refuse negative counts; 0 (the
// number of CPUs) and positive counts are taken. Before, -workers -1 was
// accepted without a word.
func TestReproWorkers(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
		msg  string
	}{
		{[]string{"repro", "-workers", "-1", "list"}, 2, "usage: repro: -workers -1 is negative"},
		{[]string{"repro", "-workers", "-8", "-estimate", "all"}, 2, "usage: repro: -workers -8 is negative"},
		{[]string{"repro", "-workers", "0", "list"}, 0, ""},
		{[]string{"repro", "-workers", "3", "list"}, 0, ""},
	} {
		var out, errb bytes.Buffer
		m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
		err := m.Run(context.Background(), tc.args)
		if got := exitCode(context.Background(), err, &errb); got != tc.want {
			t.Errorf("%q: exit %d, want %d (%v)", tc.args, got, tc.want, err)
		}
		if tc.msg != "" && !strings.Contains(errb.String(), tc.msg) {
			t.Errorf("%q: stderr lacks %q:\n%s", tc.args, tc.msg, errb.String())
		}
	}
}
