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
	"slices"
	"strings"
	"time"
)

// Write runs write on a file at path, atomically: write goes to a temporary
// file in path's directory, which is synced and renamed to path only when
// write and the close succeeded and ctx was not cancelled (a write after
// cancellation fails with ctx's error). On any failure the temporary file
// is removed and an existing file at path is left as it was. Write is
// Stage followed by Commit.
//
// Missing parent directories of path are created (and removed again on
// failure). The file gets the permissions of the file it replaces, else
// 0644. A symbolic link at path is followed (its target is replaced, or
// created when it does not exist: see Target), and a
// path that exists but is not a regular file (a device such as /dev/null,
// a named pipe) is opened and written directly; on Linux, cancelling ctx
// ends the wait for a named pipe's reader and a write blocked on it.
func Write(ctx context.Context, path string, write func(io.Writer) error) error {
	p, err := Stage(ctx, path, write)
	if err != nil {
		return err
	}
	return p.Commit(ctx)
}

// Pending is a file written by Stage that is not yet in place: Commit
// puts it there, Discard removes it. A command with several outputs
// stages them all and commits them when it has succeeded, so that a
// failure or an interrupt leaves none behind.
type Pending struct {
	path   string // as given
	target string // path with its symbolic links followed
	tmp    string // the temporary file; "" when written directly
	// dirs are the directories Stage created, deepest first.
	dirs []string
}

// Path returns the path given to Stage.
func (p *Pending) Path() string { return p.path }

// Stage runs write on a temporary file in path's directory, synced and
// closed, and returns it pending (see Write for the rules: missing parent
// directories are created, a path that is not a regular file is written
// directly and its Pending has nothing left to do). On failure nothing is
// left: neither the temporary file nor the directories Stage created.
func Stage(ctx context.Context, path string, write func(io.Writer) error) (*Pending, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p := &Pending{path: path, target: Target(path)}
	perm := fs.FileMode(0o644)
	switch fi, err := os.Stat(p.target); {
	case err == nil && fi.IsDir():
		return nil, fmt.Errorf("%s: is a directory", path)
	case err == nil && !fi.Mode().IsRegular():
		if err := writeDirect(ctx, p.target, write); err != nil {
			return nil, err
		}
		return p, nil
	case err == nil:
		perm = fi.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("writing %s: %w", path, bare(err))
	}
	ok := false
	defer func() {
		if !ok {
			p.Discard()
		}
	}()
	dir := filepath.Dir(p.target)
	p.dirs = missingDirs(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(p.target)+".tmp*")
	if err != nil {
		// The temporary file's name means nothing to the user.
		return nil, fmt.Errorf("writing %s: cannot create a file in %s: %w", path, dir, bare(err))
	}
	p.tmp = f.Name()
	defer f.Close() // a second Close after the one below is harmless
	if err := write(CtxWriter{Ctx: ctx, W: f}); err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Chmod(perm); err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, bare(err))
	}
	if err := f.Sync(); err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ok = true
	return p, nil
}

// Commit renames the pending file over its path, unless ctx is cancelled;
// on failure (a cancelled ctx included) it discards the file. A file
// written directly has nothing to commit.
func (p *Pending) Commit(ctx context.Context) error {
	if p.tmp == "" {
		return nil
	}
	if err := ctx.Err(); err != nil {
		p.Discard()
		return err
	}
	if err := os.Rename(p.tmp, p.target); err != nil {
		p.Discard()
		return fmt.Errorf("writing %s: cannot replace %s: %w", p.path, p.target, bare(err))
	}
	p.tmp, p.dirs = "", nil
	return nil
}

// Discard removes the pending file and the directories Stage created for
// it, those that are empty; it does nothing after Commit. Pending files
// sharing created directories are discarded in the reverse order of their
// Stage, so that the directory is empty when its creator removes it.
//
// Stage notes the missing directories just before creating them, so one
// that another process created in between is taken for Stage's; Discard
// removes directories with os.Remove, which fails on one that is not
// empty, and stops at the first it cannot remove: at worst such a folder
// is removed when it is still empty, never its content.
func (p *Pending) Discard() {
	if p.tmp != "" {
		os.Remove(p.tmp)
		p.tmp = ""
	}
	for _, d := range p.dirs {
		if os.Remove(d) != nil {
			break
		}
	}
	p.dirs = nil
}

// Check reports, without writing it, whether Write could put a file at
// path, so that a command can refuse an output it cannot write before
// its work rather than after: the error names path and why when path ends
// in a path separator (a folder's name), names an existing directory, lies
// under a file, or is in a folder where no file can be created (tried by
// creating a temporary file there and removing it at once) or that cannot
// be created (tried by creating a temporary folder in the nearest existing
// one, removed at once). A path that exists and is not a regular file (a
// device, a named pipe) is accepted: Write writes it directly. Cost: a few
// system calls.
func Check(path string) error {
	if strings.HasSuffix(path, "/") || strings.HasSuffix(path, string(filepath.Separator)) {
		return fmt.Errorf("%s ends in %c, a folder's name: name a file", path, path[len(path)-1])
	}
	target := Target(path)
	if fi, err := os.Stat(target); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("%s is a directory: name a file", path)
		}
		if !fi.Mode().IsRegular() {
			return nil
		}
	}
	// The nearest folder on the path that exists (or a file there).
	dir := filepath.Dir(target)
	existing := dir
	fi, err := os.Stat(existing)
	for err != nil && filepath.Dir(existing) != existing {
		existing = filepath.Dir(existing)
		fi, err = os.Stat(existing)
	}
	switch {
	case err != nil:
		return fmt.Errorf("%s: cannot use the folder %s: %w", path, existing, bare(err))
	case !fi.IsDir():
		return fmt.Errorf("%s: %s is a file, not a folder", path, existing)
	case existing != dir:
		d, err := os.MkdirTemp(existing, ".tmp-check*")
		if err != nil {
			return fmt.Errorf("%s: cannot create the folder %s: %w", path, dir, bare(err))
		}
		os.Remove(d)
	default:
		f, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp*")
		if err != nil {
			return fmt.Errorf("%s: cannot create a file in %s: %w", path, dir, bare(err))
		}
		f.Close()
		os.Remove(f.Name())
	}
	return nil
}

// Target returns the file Write writes for path: path with its symbolic
// links resolved (filepath.EvalSymlinks). When path does not exist, the
// nearest of its folders that exists is resolved and the rest of path
// joined to it, so that two paths reaching one folder through different
// links, d/x.txt and link/x.txt with link -> d, have the same Target
// before either file exists. Relative paths stay relative where the
// links allow it; compare absolute paths (filepath.Abs) of Targets.
//
// A dangling symbolic link (one whose target does not exist) is followed
// too, up to maxLinks links, so that Write creates its target rather than
// replacing the link by a regular file; a link's relative target is
// relative to the link's resolved folder.
func Target(path string) string {
	for range maxLinks {
		if t, err := filepath.EvalSymlinks(path); err == nil {
			return t
		}
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			break
		}
		dest, err := os.Readlink(path)
		if err != nil {
			break
		}
		if !filepath.IsAbs(dest) {
			// The folder exists (path is in it) and, resolved, has no
			// links, so that Join's lexical ".." is the file system's.
			dir, err := filepath.EvalSymlinks(filepath.Dir(path))
			if err != nil {
				break
			}
			dest = filepath.Join(dir, dest)
		}
		path = dest
	}
	// The missing components of path, innermost first.
	rest := []string{filepath.Base(path)}
	for d := filepath.Dir(filepath.Clean(path)); ; d = filepath.Dir(d) {
		if t, err := filepath.EvalSymlinks(d); err == nil {
			slices.Reverse(rest)
			return filepath.Join(append([]string{t}, rest...)...)
		}
		if filepath.Dir(d) == d {
			return path
		}
		rest = append(rest, filepath.Base(d))
	}
}

// maxLinks bounds the symbolic links Target follows (a loop of links is
// then written as the last one, whose open fails).
const maxLinks = 40

// missingDirs returns dir and those of its ancestors that do not exist,
// deepest first: the directories os.MkdirAll(dir) creates.
func missingDirs(dir string) []string {
	var dirs []string
	for d := filepath.Clean(dir); ; {
		if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) {
			return dirs
		}
		dirs = append(dirs, d)
		parent := filepath.Dir(d)
		if parent == d {
			return dirs
		}
		d = parent
	}
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
// A cancelled ctx ends the wait for a FIFO's reader (openDirect) and, on
// Linux, a write blocked on a pipe that its reader does not empty; the
// error is then ctx's.
func writeDirect(ctx context.Context, path string, write func(io.Writer) error) error {
	f, err := openDirect(ctx, path)
	if err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() {
		// Devices the runtime does not poll have no deadline
		// (os.ErrNoDeadline): CtxWriter stops them at their next write.
		_ = f.SetWriteDeadline(time.Unix(1, 0))
	})
	defer stop()
	if err := write(CtxWriter{Ctx: ctx, W: f}); err != nil {
		f.Close()
		if cerr := ctx.Err(); cerr != nil && errors.Is(err, os.ErrDeadlineExceeded) {
			err = cerr
		}
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
