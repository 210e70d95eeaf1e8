// Package inputfile opens the files tether reads so that a cancelled
// context stops the wait for their data: os.Open of a FIFO (named pipe)
// that no process writes to blocks in the open system call, which no
// signal or context interrupts (Ctrl-C was ignored until a second one
// killed the process), and a read of a pipe whose writer is slow blocks
// until it writes.
//
// Open waits for a FIFO's writer by polling, checking the context ten
// times a second, and sets a read deadline on the file when the context is
// cancelled, which ends a blocked read of a pipe with an error (the
// readers then report the context's error). Regular files, directories and
// devices are opened as os.Open opens them. Where the operating system
// lacks what this needs (anything but Linux), Open is os.Open plus the
// read deadline.
package inputfile

import (
	"context"
	"os"
	"time"
)

// pollInterval is how long Open waits for a FIFO's writer between checks
// of its context.
const pollInterval = 100 * time.Millisecond

// File is an open input file. Close it (not the embedded *os.File) to
// release the watch on the context.
type File struct {
	*os.File
	stop func() bool
}

// Close stops watching the context and closes the file.
func (f *File) Close() error {
	f.stop()
	return f.File.Close()
}

// Open opens the named file for reading. A FIFO without a writer is waited
// for until a writer opens it or ctx is cancelled; the error is then ctx's,
// wrapped with the path. After a cancellation, reads of a pipe or FIFO
// return an error (os.ErrDeadlineExceeded) instead of waiting for data.
// Other errors are os.Open's (*fs.PathError).
func Open(ctx context.Context, path string) (*File, error) {
	f, err := open(ctx, path)
	if err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() {
		// Regular files have no deadline (os.ErrNoDeadline): their reads
		// do not wait.
		_ = f.SetReadDeadline(time.Unix(1, 0))
	})
	return &File{File: f, stop: stop}, nil
}
