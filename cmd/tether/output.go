package main

import (
	"context"
	"io"

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
