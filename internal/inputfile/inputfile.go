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
//
// Reopen does the same for a file the process already has open (standard
// input), which it opens anew where its reads could wait.
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
	// keep is set when File is the caller's file (Reopen): Close leaves
	// it open.
	keep bool
}

// Close stops watching the context and closes the file, unless it is the
// file given to Reopen, which stays open.
func (f *File) Close() error {
	f.stop()
	if f.keep {
		return nil
	}
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
	return watch(ctx, f), nil
}

// watch returns f as a File whose reads end once ctx is cancelled.
func watch(ctx context.Context, f *os.File) *File {
	stop := context.AfterFunc(ctx, func() {
		// Regular files have no deadline (os.ErrNoDeadline): their reads
		// do not wait.
		_ = f.SetReadDeadline(time.Unix(1, 0))
	})
	return &File{File: f, stop: stop}
}

// Reopen returns a File reading what f reads — standard input, typically,
// which a command gets open — such that, as with Open, a read waiting for
// data ends with an error (os.ErrDeadlineExceeded) once ctx is cancelled.
// f itself may not allow it: os.Stdin is a blocking descriptor that the
// runtime does not poll and that no read deadline interrupts. So on Linux
// a pipe, FIFO or device (a terminal) is opened anew through
// /proc/self/fd, without blocking: a new open file description, which the
// runtime polls, reading the same data, and leaving f's flags (which a
// shell shares) alone. Anything else is read through f itself, whose
// reads are then not interrupted (the readers still check ctx between
// reads): a regular file, whose reads do not wait and whose offset the
// caller may have moved; a socket, which /proc cannot open again; any
// file where /proc/self/fd is missing. Close the File when done: it closes
// what Reopen opened, never f. Cost: a stat and an open system call.
func Reopen(ctx context.Context, f *os.File) *File {
	if g := reopen(f); g != nil {
		return watch(ctx, g)
	}
	return &File{File: f, stop: func() bool { return true }, keep: true}
}
