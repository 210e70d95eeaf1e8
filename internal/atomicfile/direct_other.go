//go:build !linux

package atomicfile

import (
	"context"
	"os"
)

// openDirect opens path for writing. The wait for a FIFO's reader is not
// interrupted: its open without blocking, then written through the
// runtime's poller, relies on Linux (the runtime does not poll FIFOs on
// Darwin), as internal/inputfile's does.
func openDirect(_ context.Context, path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY, 0)
}
