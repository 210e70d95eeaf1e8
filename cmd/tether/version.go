package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

const versionUsage = `version

Prints tether's version: the module version the binary was built from
("(devel)" when the build does not know it), the commit and its time when
the build recorded them (with "modified" for uncommitted changes), and the
Go version and platform. "tether -version" prints the same.`

// runVersion implements "tether version".
func runVersion(ctx context.Context, m *Main, args []string) error {
	fs := m.newFlagSet("version", versionUsage)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("version", "unexpected argument %q (%s)", fs.Arg(0), usageHint(fs))
	}
	bi, _ := debug.ReadBuildInfo()
	fmt.Fprintln(m.Stdout, versionLine(bi))
	return nil
}

// versionLine describes the build bi (nil when the binary carries no
// build information): "tether VERSION [(commit REV, TIME[, modified])]
// GOVERSION OS/ARCH". VERSION is bi.Main.Version, or "(devel)" when that
// is empty or unknown; REV is the vcs.revision setting cut to 12
// characters, TIME vcs.time; the part in parentheses is left out when the
// build recorded no revision. GOVERSION is bi.GoVersion, else the
// running runtime's.
func versionLine(bi *debug.BuildInfo) string {
	version, goVersion := "(devel)", runtime.Version()
	var rev, when string
	modified := false
	if bi != nil {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		if bi.GoVersion != "" {
			goVersion = bi.GoVersion
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "tether %s", version)
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		fmt.Fprintf(&b, " (commit %s", rev)
		if when != "" {
			fmt.Fprintf(&b, ", %s", when)
		}
		if modified {
			b.WriteString(", modified")
		}
		b.WriteString(")")
	}
	fmt.Fprintf(&b, " %s %s/%s", goVersion, runtime.GOOS, runtime.GOARCH)
	return b.String()
}
