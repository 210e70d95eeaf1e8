package tetherbeam

import (
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"slices"
	"strings"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/tether-sc/tether/internal/atomicfile"
	"github.com/tether-sc/tether/job"
)

// Files is job.Files on Apache Beam's file systems: a path's scheme picks
// the file system registered for it with filesystem.Register (gs:// once
// github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs is
// imported, as tether-beam does; memfs://; s3://; a path without a scheme
// is a local file). Batch's jobs read their files and write their labels
// on paths with a scheme through it.
//
// The zero value is ready to use and safe for concurrent use. It opens
// each scheme's file system on first use (for gs://, a client, with
// credentials looked up once) and keeps it until Close.
type Files struct {
	mu   sync.Mutex
	open map[string]filesystem.Interface // by scheme, as Beam reads it
}

var _ job.Files = (*Files)(nil)

// scheme returns the scheme Beam's filesystem.New picks a file system by:
// all before "://", or "" (Beam's local file system).
func scheme(path string) string {
	if i := strings.Index(path, "://"); i > 0 {
		return path[:i]
	}
	return ""
}

// fs returns the file system of name, opened once per scheme. It is
// opened with ctx's values but not its cancellation: it outlives ctx.
func (f *Files) fs(ctx context.Context, name string) (filesystem.Interface, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := scheme(name)
	if fs, ok := f.open[s]; ok {
		return fs, nil
	}
	fs, err := filesystem.New(context.WithoutCancel(ctx), name)
	if err != nil {
		return nil, err
	}
	if f.open == nil {
		f.open = map[string]filesystem.Interface{}
	}
	f.open[s] = fs
	return fs, nil
}

// Close closes the file systems f opened; f may be used again after it
// (it then opens them anew).
func (f *Files) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	var errs []error
	for _, fs := range f.open {
		errs = append(errs, fs.Close())
	}
	f.open = nil
	return errors.Join(errs...)
}

// ReadFile returns the content of the file name. Its errors are the file
// system's (memfs and the local one wrap fs.ErrNotExist for a missing
// file, GCS gives storage.ErrObjectNotExist). Cost: one read, held in
// memory.
func (f *Files) ReadFile(ctx context.Context, name string) ([]byte, error) {
	fs, err := f.fs(ctx, name)
	if err != nil {
		return nil, err
	}
	return filesystem.Read(ctx, fs, name)
}

// WriteFile runs write on the file name atomically: write goes to a
// temporary file beside it (tempName: ".BASE.tmp"), which is renamed to
// name only when write and the close succeeded and ctx was not cancelled
// (Beam's filesystem.Rename: on a file system without a rename, a copy
// and a removal). Whenever it does not complete — an error, a
// cancellation (a write after it fails with ctx's error), a panic of
// write — the temporary file is removed, and a file already at name is
// left as it was. Cost: the write, plus the rename (on GCS, a copy of the
// object and a removal).
func (f *Files) WriteFile(ctx context.Context, name string, write func(io.Writer) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	fs, err := f.fs(ctx, name)
	if err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return writeAtomic(ctx, fs, name, write)
}

// Remove removes the file name; a missing file is no error, whether the
// file system says so with fs.ErrNotExist or not at all (memfs), or with
// an error of its own (GCS: a listing then shows the file is not there).
// Cost: one removal, and one listing when the removal fails.
func (f *Files) Remove(ctx context.Context, name string) error {
	fs, err := f.fs(ctx, name)
	if err != nil {
		return fmt.Errorf("removing %s: %w", name, err)
	}
	return removeFile(ctx, fs, name)
}

// writeAtomic is WriteFile on the file system fs: stageAtomic, then the
// rename of the temporary file to name.
func writeAtomic(ctx context.Context, fs filesystem.Interface, name string, write func(io.Writer) error) error {
	tmp, err := stageAtomic(ctx, fs, name, write)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		removeFile(context.WithoutCancel(ctx), fs, tmp)
		return err
	}
	if err := filesystem.Rename(ctx, fs, tmp, name); err != nil {
		removeFile(context.WithoutCancel(ctx), fs, tmp)
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

// stageAtomic runs write on the temporary file of name on fs
// (tempName), closed, and returns its name for the caller to rename or
// remove. Whenever it does not complete — an error, a cancellation (a
// write after it fails with ctx's error, which is returned), a panic of
// write — the temporary file is removed.
func stageAtomic(ctx context.Context, fs filesystem.Interface, name string, write func(io.Writer) error) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	tmp := tempName(name)
	fd, err := fs.OpenWrite(ctx, tmp)
	if err != nil {
		return "", fmt.Errorf("writing %s: %w", name, err)
	}
	closed, done := false, false
	defer func() {
		// On every path but success, a panic included. The cleanup
		// must not be refused for the cancellation it cleans up after.
		if done {
			return
		}
		if !closed {
			fd.Close()
		}
		removeFile(context.WithoutCancel(ctx), fs, tmp)
	}()
	if err := write(atomicfile.CtxWriter{Ctx: ctx, W: fd}); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("writing %s: %w", name, err)
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	closed = true
	if err := fd.Close(); err != nil {
		return "", fmt.Errorf("writing %s: %w", name, err)
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	done = true
	return tmp, nil
}

// tempName returns the temporary file that the file filename is written
// to before its rename: ".NAME.tmp" in the same folder (after the last
// '/', which for "memfs://x" is the scheme's).
func tempName(filename string) string {
	i := strings.LastIndex(filename, "/")
	return filename[:i+1] + "." + filename[i+1:] + ".tmp"
}

// removeFile removes name from fs, or returns why it could not: fs cannot
// remove files, or the removal failed. A missing file is no error: the
// removal's error wraps fs.ErrNotExist, or a listing of name (when it has
// no glob character) does not find it.
func removeFile(ctx context.Context, fs filesystem.Interface, name string) error {
	rm, ok := fs.(filesystem.Remover)
	if !ok {
		return fmt.Errorf("removing %s: the file system cannot remove files", name)
	}
	err := rm.Remove(ctx, name)
	if err == nil || errors.Is(err, iofs.ErrNotExist) {
		return nil
	}
	if !strings.ContainsAny(name, `*?[\`) {
		if found, lerr := fs.List(ctx, name); lerr == nil && !slices.Contains(found, name) {
			return nil
		}
	}
	return fmt.Errorf("removing %s: %w", name, err)
}
