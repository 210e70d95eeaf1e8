// Package atomicfile writes files so that a reader never sees a partial
// one: the content goes to a temporary file in the same directory, which
// replaces the target by a rename only when everything was written. An
// interrupted or failed write leaves the old file, or none, in place.
package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write runs write on a file at path, atomically: write goes to a temporary
// file in path's directory, which is synced and renamed to path only when
// write and the close succeeded and ctx was not cancelled (a write after
// cancellation fails with ctx's error). On any failure the temporary file
// is removed and an existing file at path is left as it was.
//
// Missing parent directories of path are created. The file gets the
// permissions of the file it replaces, else 0644. A symbolic link at path
// is followed (its target is replaced), and a path that exists but is not a
// regular file (a device such as /dev/null, a named pipe) is opened and
// written directly.
func Write(ctx context.Context, path string, write func(io.Writer) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	target := path
	if t, err := filepath.EvalSymlinks(path); err == nil {
		target = t
	}
	perm := fs.FileMode(0o644)
	switch fi, err := os.Stat(target); {
	case err == nil && fi.IsDir():
		return fmt.Errorf("%s: is a directory", path)
	case err == nil && !fi.Mode().IsRegular():
		return writeDirect(ctx, target, write)
	case err == nil:
		perm = fi.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("writing %s: %w", path, bare(err))
	}
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp*")
	if err != nil {
		// The temporary file's name means nothing to the user.
		return fmt.Errorf("writing %s: cannot create a file in %s: %w", path, dir, bare(err))
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := write(CtxWriter{Ctx: ctx, W: f}); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Chmod(perm); err != nil {
		return fmt.Errorf("writing %s: %w", path, bare(err))
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), target); err != nil {
		return fmt.Errorf("writing %s: cannot replace %s: %w", path, target, bare(err))
	}
	ok = true
	return nil
}

// bare returns the error inside a *fs.PathError or *os.LinkError, which
// name the temporary file, and err otherwise.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// writeDirect runs write on an existing file that is not a regular file.
func writeDirect(ctx context.Context, path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if err := write(CtxWriter{Ctx: ctx, W: f}); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}

// CtxWriter is W that fails every Write with Ctx's error once Ctx is
// cancelled, so that a long write stops at its next write (a buffer
// flush) after an interrupt. Write and tether-beam's object writes wrap
// their files in it.
type CtxWriter struct {
	Ctx context.Context
	W   io.Writer
}

// Write writes p to c.W unless c.Ctx is done.
func (c CtxWriter) Write(p []byte) (int, error) {
	if err := c.Ctx.Err(); err != nil {
		return 0, err
	}
	return c.W.Write(p)
}
