//go:build linux

package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// pollInterval is how long openDirect waits for a FIFO's reader between
// checks of its context.
const pollInterval = 100 * time.Millisecond

// openDirect opens path, an existing file that is not a regular file,
// for writing. The open of a FIFO blocks until a process opens it for
// reading, in a system call that no signal or context interrupts (Ctrl-C
// was ignored, as it was for inputs; see internal/inputfile): a FIFO is
// opened without blocking, which fails with ENXIO while it has no reader,
// and the open is tried again every pollInterval until it succeeds or ctx
// is cancelled. The file is then polled by the runtime, so that the write
// deadline writeDirect sets on cancellation ends a write blocked on a
// full pipe. Other files (devices) are opened as they are.
func openDirect(ctx context.Context, path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		return os.OpenFile(path, os.O_WRONLY, 0)
	}
	for {
		f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if !errors.Is(err, syscall.ENXIO) {
			return f, err
		}
		t := time.NewTimer(pollInterval)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("open %s: waiting for a process to read the FIFO: %w", path, ctx.Err())
		case <-t.C:
		}
	}
}
