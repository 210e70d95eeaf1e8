package main

import (
	"errors"
	"io"
	"syscall"
)

// errBrokenPipe is the cause of the context's cancellation when standard
// output or error has lost its reader (tether gen … | head -1).
var errBrokenPipe = errors.New("broken pipe")

// pipeWriter is tether's standard output or error: a write that finds
// the reader gone (EPIPE) calls broken, which cancels the command as a
// first Ctrl-C does, so that its outputs in progress are removed. main
// ignores SIGPIPE for this: by default the signal ended the process at
// that write, leaving the hidden temporary files of the outputs it was
// writing (.labels.txt.tmp…), which the next command reported as
// left by a crash. Once the outputs are being put in place (the "wrote"
// lines) the cancellation no longer stops them: they all stay, and the
// status is still 141. On Windows a closed pipe's error is not EPIPE, and
// the command goes on as it did before. Cost: one comparison per write.
type pipeWriter struct {
	w      io.Writer
	broken func()
}

func (p *pipeWriter) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	if err != nil && errors.Is(err, syscall.EPIPE) {
		p.broken()
	}
	return n, err
}
