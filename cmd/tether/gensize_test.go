package main

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestTooFewRowsGeneratedFlag: checkSize learns that the data are a
// generator's (a usage error of -n, "give -n 2 or more") from its caller,
// not from a display name beginning "-gen ": a file of one row whose path
// begins so ("-gen one.csv", in the working directory) is an error of the
// data (exit status 1) like any file, and -gen moons -n 1 stays a usage
// error (exit status 2). Not parallel: it changes the working directory.
func TestTooFewRowsGeneratedFlag(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("-gen one.csv", []byte("a,b\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("-gen one.txt", []byte("0 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		args  []string
		usage bool
		want  string
	}{
		{"file named -gen …", []string{"-input", "-gen one.csv"}, false, "-gen one.csv has 1 data row; clustering needs at least 2"},
		{"graph file named -gen …", []string{"-graph-file", "-gen one.txt"}, false, "-gen one.txt has 1 node; clustering needs at least 2"},
		{"generator", []string{"-gen", "moons", "-n", "1"}, true, "-gen moons has 1 point; clustering needs at least 2: give -n 2 or more"},
	} {
		_, _, err := runReaders(t, append([]string{"cluster", "-k", "1", "-quiet", "-o", os.DevNull}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
			continue
		}
		if errors.Is(err, errUsage) != c.usage || (!c.usage && strings.Contains(err.Error(), "give -n")) {
			t.Errorf("%s: error %q: usage error %v, want %v", c.name, err, errors.Is(err, errUsage), c.usage)
		}
	}
}
