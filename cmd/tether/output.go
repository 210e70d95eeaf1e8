package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/tether-sc/tether/internal/atomicfile"
)

// writeOutput runs write on the destination of an output flag (-o, -plot,
// -labels …): standard output when path is "" or "-", else the file path.
//
// A file is written by atomicfile.Write: to a temporary file renamed over
// path only when everything was written and ctx was not cancelled, so an
// interrupted or failed command never leaves a truncated output behind.
// Missing parent directories are created, for every output flag alike.
func (m *Main) writeOutput(ctx context.Context, path string, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		return write(m.Stdout)
	}
	return atomicfile.Write(ctx, path, write)
}

// writeReported is writeOutput followed, when path is a file and report
// is true (the command's -quiet is not set), by the line "wrote PATH" on
// standard error: every file a command writes is named once, as powerlaw
// sample does ("wrote N values to PATH"). Standard output is not reported.
func (m *Main) writeReported(ctx context.Context, path string, report bool, write func(io.Writer) error) error {
	if err := m.writeOutput(ctx, path, write); err != nil {
		return err
	}
	if report && path != "" && path != "-" {
		fmt.Fprintf(m.Stderr, "wrote %s\n", path)
	}
	return nil
}

// pathFlag is a file flag of a command and its value.
type pathFlag struct{ flag, path string }

// checkOutputs refuses, as a usage error naming both flags, an output that
// would replace a file the command reads (ins) or the file of another of
// its outputs: the output is written whole and renamed over its path at
// the end, so the input was read, but then lost (cluster -o data.csv), or
// one output replaced the other (gen sbm -o g.labels writes the graph,
// then its labels over it). Paths name the same file when they resolve to
// the same absolute path, or to one existing regular file (a link);
// devices such as /dev/null may be shared. An empty path is an unset flag;
// "-" is standard output, which two outputs cannot share. Call it before
// reading or writing anything. cmd prefixes the error (see usagef).
func checkOutputs(cmd string, ins, outs []pathFlag) error {
	for a, o := range outs {
		if o.path == "" {
			continue
		}
		for _, q := range outs[:a] {
			if q.path != "" && samePath(o.path, q.path) {
				if o.path == "-" {
					return usagef(cmd, "%s and %s both write to standard output; give one of them a file", q.flag, o.flag)
				}
				return usagef(cmd, "%s and %s both write %s; the second would replace the first", q.flag, o.flag, o.path)
			}
		}
		if o.path == "-" {
			continue
		}
		for _, in := range ins {
			if in.path != "" && in.path != "-" && samePath(o.path, in.path) {
				return usagef(cmd, "%s %s is the file of %s: writing it would replace the input", o.flag, o.path, in.flag)
			}
		}
	}
	return nil
}

// samePath reports whether paths a and b name the same file (see
// checkOutputs); "-" is the same only as "-".
func samePath(a, b string) bool {
	if a == "-" || b == "-" {
		return a == b
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb) && fa.Mode().IsRegular()
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}
