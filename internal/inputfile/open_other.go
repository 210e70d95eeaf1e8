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
