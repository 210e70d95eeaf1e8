package main

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionLine: the module version, the commit and its time when the
// build recorded them, "(devel)" when it did not, and the Go version.
func TestVersionLine(t *testing.T) {
	platform := runtime.GOOS + "/" + runtime.GOARCH
	vcs := []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "69bf0d4abcdef0123456789abcdef0123456789a"},
		{Key: "vcs.time", Value: "2026-11-29T10:00:00Z"},
		{Key: "vcs.modified", Value: "false"},
	}
	dirty := append(append([]debug.BuildSetting(nil), vcs[:3]...), debug.BuildSetting{Key: "vcs.modified", Value: "true"})
	cases := []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"no build info", nil, "tether (devel) " + runtime.Version() + " " + platform},
		{"devel, no vcs", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}},
			"tether (devel) go1.26.8 " + platform},
		{"empty version", &debug.BuildInfo{GoVersion: "go1.26.8"}, "tether (devel) go1.26.8 " + platform},
		{"release with vcs", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"}, Settings: vcs},
			"tether v1.2.0 (commit 69bf0d4abcde, 2026-11-29T10:00:00Z) go1.26.8 " + platform},
		{"modified checkout", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: dirty},
			"tether (devel) (commit 69bf0d4abcde, 2026-11-29T10:00:00Z, modified) go1.26.8 " + platform},
		{"revision without time", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}},
			"tether (devel) (commit abc) go1.26.8 " + platform},
	}
	for _, c := range cases {
		if got := versionLine(c.bi); got != c.want {
			t.Errorf("%s: versionLine = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestVersionCommand: "tether version", "tether -version" and "tether
// --version" print one line on standard output; an argument is a usage
// error.
func TestVersionCommand(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"-version"}, {"--version"}} {
		out, errOut, err := run(t, args...)
		if err != nil || errOut != "" {
			t.Fatalf("%q: %v, stderr %q", args, err, errOut)
		}
		if !strings.HasPrefix(out, "tether ") || !strings.HasSuffix(out, runtime.GOOS+"/"+runtime.GOARCH+"\n") || strings.Count(out, "\n") != 1 {
			t.Errorf("%q printed %q", args, out)
		}
	}
	if _, _, err := run(t, "version", "extra"); err == nil || !strings.Contains(err.Error(), "usage: version") {
		t.Errorf("version extra: err = %v, want a usage error", err)
	}
	// -h: no empty "Flags:" heading for a command without flags; the
	// heading stays for the others.
	for _, tc := range []struct {
		cmd   string
		flags bool
	}{{"version", false}, {"cluster", true}} {
		out, _, _ := run(t, tc.cmd, "-h")
		if got := strings.Contains(out, "Flags:"); got != tc.flags {
			t.Errorf("%s -h: Flags heading %v, want %v:\n%s", tc.cmd, got, tc.flags, out)
		}
	}
}
