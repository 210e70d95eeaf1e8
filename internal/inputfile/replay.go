package inputfile

import (
	"bytes"
	"context"
	"io"
)

// Replay reads a file that is not a regular file (a FIFO, /dev/stdin, a
// shell's <(cmd)) more than once: a pipe yields its bytes once, and a
// second open of a FIFO waits for a writer that never comes. The first
// Reader opens the file (Open, so ctx stops the wait for a writer and the
// reads) and keeps the bytes read through it; later Readers read the kept
// bytes. The file is read as far as the first reader's consumer reads, no
// further, so a consumer that stops early (an endless /dev/zero refused at
// its first line) stops the reading too. Readers are for one goroutine,
// one after another. Close closes the file.
type Replay struct {
	ctx  context.Context
	path string
	f    *File
	kept bytes.Buffer
}

// NewReplay returns a Replay of the file at path; nothing is opened yet.
func NewReplay(ctx context.Context, path string) *Replay {
	return &Replay{ctx: ctx, path: path}
}

// Reader returns a reader of the file's bytes from the start: the file
// itself the first time (an Open error is returned as it is), the bytes
// kept from it afterwards.
func (r *Replay) Reader() (io.Reader, error) {
	if r.f != nil {
		return bytes.NewReader(r.kept.Bytes()), nil
	}
	f, err := Open(r.ctx, r.path)
	if err != nil {
		return nil, err
	}
	r.f = f
	return io.TeeReader(f, &r.kept), nil
}

// Close closes the file if a Reader opened it.
func (r *Replay) Close() error {
	if r.f == nil {
		return nil
	}
	return r.f.Close()
}
