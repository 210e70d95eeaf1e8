//go:build !linux

package inputfile

import (
	"context"
	"os"
)

// open is os.Open: the wait for a FIFO's writer needs the poll(2)
// semantics of Linux (see open_linux.go), and the runtime does not poll
// FIFOs on Darwin and the BSDs.
func open(_ context.Context, path string) (*os.File, error) {
	return os.Open(path)
}

// reopen returns nil: Reopen reads f itself. /dev/fd/N of Darwin and the
// BSDs duplicates the descriptor, sharing f's flags, rather than opening
// the file anew.
func reopen(*os.File) *os.File { return nil }
