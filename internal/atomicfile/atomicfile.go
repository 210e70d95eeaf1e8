// Package atomicfile writes files so that a reader never sees a partial
// one: the content goes to a temporary file in the same directory, which
// replaces the target by a rename only when everything was written. An
// interrupted or failed write leaves the old file, or none, in place.
//
// The temporary file of NAME is ".NAME.tmpPID-DIGITS", PID the writing
// process's. A write removes it on failure or cancellation, and a
// Registry (WithRegistry) lets a process that must exit at once (a second
// Ctrl-C) remove those of the writes still running. Only a process killed
// outright (kill -9, a crash, a power cut) leaves one behind. It does not
// disturb a later write, whose temporary file gets other digits and
// whose rename replaces NAME alone. Stale lists the ones beside NAME
// whose process no longer runs, which are safe to remove; nothing here
// removes them: the PID may belong to another machine or PID namespace
// sharing the folder, where the write may still be running.
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
	"strconv"
	"strings"
	"sync"
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
	// reg, when not nil, holds the file until Commit or Discard; its mutex
	// guards tmp, dirs and gone.
	reg *Registry
	tmp string // the temporary file; "" when written directly
	// dirs are the directories Stage created, deepest first.
	dirs []string
	// gone is set when reg.Discard removed the file: Commit fails.
	gone bool
}

// Path returns the path given to Stage.
func (p *Pending) Path() string { return p.path }

// Stage runs write on a temporary file in path's directory, synced and
// closed, and returns it pending (see Write for the rules: missing parent
// directories are created, a path that is not a regular file is written
// directly and its Pending has nothing left to do). On failure nothing is
// left: neither the temporary file nor the directories Stage created.
// Under a Registry (WithRegistry) the file is registered from its
// creation until Commit or Discard, and Stage fails with ErrDiscarded
// once the registry was discarded.
func Stage(ctx context.Context, path string, write func(io.Writer) error) (*Pending, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p := &Pending{path: path, target: Target(path), reg: registryOf(ctx)}
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
	f, err := p.create()
	if err != nil {
		return nil, err
	}
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

// create makes the folder of p's target, noting in p.dirs the ones it
// creates, and the temporary file in it (tempPattern), registered in
// p.reg if there is one: under its lock, so that Registry.Discard finds
// every file and folder made, or none. Cost: a few system calls.
func (p *Pending) create() (*os.File, error) {
	if r := p.reg; r != nil {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.closed {
			return nil, fmt.Errorf("writing %s: %w", p.path, ErrDiscarded)
		}
		r.pending = append(r.pending, p)
	}
	dir := filepath.Dir(p.target)
	p.dirs = missingDirs(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("writing %s: %w", p.path, err)
	}
	f, err := os.CreateTemp(dir, tempPattern(p.target))
	if err != nil {
		// The temporary file's name means nothing to the user.
		return nil, fmt.Errorf("writing %s: cannot create a file in %s: %w", p.path, dir, bare(err))
	}
	p.tmp = f.Name()
	return f, nil
}

// tempPattern is the os.CreateTemp pattern of target's temporary file:
// ".NAME.tmpPID-*" in target's folder, PID this process's, which lets
// Stale tell the files of killed writers.
func tempPattern(target string) string {
	return "." + filepath.Base(target) + ".tmp" + strconv.Itoa(os.Getpid()) + "-*"
}

// Stale returns the temporary files that writes of path (of its Target)
// left beside it in a process that no longer runs (processGone), in the
// order of their names: ".NAME.tmpPID-DIGITS" files of a writer killed
// outright (kill -9, a crash). They do not disturb a write of path, and
// are safe to remove unless the folder is shared with another machine or
// PID namespace, where the same PID may be a running writer; Stale
// removes none. Another process's that runs and this one's are not
// stale, nor names of another form (those of older versions,
// ".NAME.tmpDIGITS"), whose process cannot be told. Cost: a listing of
// the folder (so for a command's few outputs, not for every write into a
// folder of many) and a system call per candidate.
func Stale(path string) []string {
	target := Target(path)
	dir, name := filepath.Dir(target), filepath.Base(target)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	prefix := "." + name + ".tmp"
	var stale []string
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		id, digits, ok := strings.Cut(rest, "-")
		if !ok || digits == "" || strings.Trim(digits, "0123456789") != "" {
			continue
		}
		pid, err := strconv.Atoi(id)
		if err != nil || pid <= 0 || pid == os.Getpid() || !processGone(pid) {
			continue
		}
		stale = append(stale, filepath.Join(dir, e.Name()))
	}
	return stale
}

// Commit renames the pending file over its path, unless ctx is cancelled;
// on failure (a cancelled ctx included) it discards the file. A file
// written directly has nothing to commit. A file its Registry discarded
// fails with ErrDiscarded.
func (p *Pending) Commit(ctx context.Context) error {
	if r := p.reg; r != nil {
		r.mu.Lock()
		defer r.mu.Unlock()
		if p.gone {
			return fmt.Errorf("writing %s: %w", p.path, ErrDiscarded)
		}
	}
	if p.tmp == "" {
		return nil
	}
	if err := ctx.Err(); err != nil {
		p.discard()
		return err
	}
	if err := os.Rename(p.tmp, p.target); err != nil {
		p.discard()
		return fmt.Errorf("writing %s: cannot replace %s: %w", p.path, p.target, bare(err))
	}
	p.tmp, p.dirs = "", nil
	p.reg.remove(p)
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
	if r := p.reg; r != nil {
		r.mu.Lock()
		defer r.mu.Unlock()
	}
	p.discard()
}

// discard is Discard with p.reg's lock held (when p has a registry): it
// removes the file and folders and p from its registry.
func (p *Pending) discard() {
	p.reg.remove(p)
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
		f, err := os.CreateTemp(dir, tempPattern(target))
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

// ErrDiscarded is the error of a Stage or Commit under a Registry that was
// discarded (Registry.Discard): the process is about to exit at once.
// Its message begins "atomicfile: ", as a sentinel's names its package
// (STYLE.md), so that "writing PATH: atomicfile: …" says where it came
// from.
var ErrDiscarded = errors.New("atomicfile: the temporary files were discarded: the process is quitting")

// Registry is the set of temporary files of a process's writes that are
// not yet in place: Stage registers its file when it creates it, Commit
// and Discard remove it. A process makes one (NewRegistry) and carries
// it in the context of its writes (WithRegistry), so that when it must
// exit at once, at a second Ctrl-C or a SIGTERM after the first, before
// the writes cancelled by the first have cleaned up, Discard removes
// their files: no hidden ".NAME.tmpPID-DIGITS" is left. It is safe for
// concurrent use.
type Registry struct {
	mu      sync.Mutex
	closed  bool
	pending []*Pending // in the order of their creation
}

// NewRegistry returns an empty Registry.
func NewRegistry() *Registry { return &Registry{} }

// registryKey is the context key of a Registry.
type registryKey struct{}

// WithRegistry returns ctx carrying r: Stage and Write under the returned
// context (and the contexts derived from it) register their temporary
// files in r.
func WithRegistry(ctx context.Context, r *Registry) context.Context {
	return context.WithValue(ctx, registryKey{}, r)
}

// registryOf returns the Registry ctx carries, or nil.
func registryOf(ctx context.Context) *Registry {
	r, _ := ctx.Value(registryKey{}).(*Registry)
	return r
}

// Discard removes every temporary file registered in r, whether its write
// is running or done, and the folders Stage created for them that are
// empty, last created first, and closes r: a later Stage under r fails
// with ErrDiscarded, and so does the Commit of a file removed here, so
// that no write under r puts a file in place or leaves one behind
// afterwards. A write still running goes on into its removed file, which
// the file system frees when it is closed. For a process about to exit:
// Discard returns once the files are removed. Cost: a system call per
// file and folder.
func (r *Registry) Discard() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	pending := r.pending
	r.pending = nil
	for i := len(pending) - 1; i >= 0; i-- {
		pending[i].discard()
		pending[i].gone = true
	}
}

// remove takes p out of r, with r's lock held; a nil r does nothing.
func (r *Registry) remove(p *Pending) {
	if r == nil {
		return
	}
	if i := slices.Index(r.pending, p); i >= 0 {
		r.pending = slices.Delete(r.pending, i, i+1)
	}
}
