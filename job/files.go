package job

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strings"
)

// ErrScheme marks a path with a scheme where it cannot be used: a job
// run without Files (Run, RunAll), or a field read from local folders
// only (a catalog dataset's data_root).
var ErrScheme = errors.New("job: path with a scheme")

// Files reaches the files whose paths have a scheme ("gs://bucket/x.csv",
// "memfs://x.csv": see Scheme): RunFiles reads a job's input, graph,
// constraints and partial labels files on such paths through it, and
// SaveLabelsFiles writes or removes a labels file in such a folder. Paths
// without a scheme are local files, read and written as Run and
// SaveLabels always do, whatever Files is. The nested module
// github.com/tether-sc/tether/beam implements it on Apache Beam's file
// systems (gs:// and any scheme registered there).
//
// Implementations must be safe for concurrent use by several jobs.
type Files interface {
	// ReadFile returns the whole content of the file name. Cost: one read
	// of the file, held in memory.
	ReadFile(ctx context.Context, name string) ([]byte, error)
	// WriteFile runs write on the file name atomically: a reader sees the
	// file as it was or as write left it, never a partial one, and a
	// write that fails or whose ctx is cancelled leaves no file behind,
	// not even a temporary one when its cleanup can run. Cost: the
	// write, plus a rename (on an object store, a copy and a removal).
	WriteFile(ctx context.Context, name string, write func(io.Writer) error) error
	// Remove removes the file name. A missing file is no error (a nil
	// error or one wrapping fs.ErrNotExist).
	Remove(ctx context.Context, name string) error
}

// Scheme returns the scheme of path, "gs" for "gs://bucket/x.csv", or ""
// when path has none and is a local path. A scheme is a letter followed by
// letters, digits, '+', '-' or '.', then "://" (so a Windows drive, "C:\",
// is no scheme).
func Scheme(path string) string {
	i := strings.Index(path, "://")
	if i <= 0 {
		return ""
	}
	for k, r := range path[:i] {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (k == 0 || !(r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return ""
		}
	}
	return path[:i]
}

// ErrAboveBucket marks a relative path of a job that climbs, by its "..",
// above the bucket of its root: the first element after "scheme://" (the
// bucket of "gs://b/dir", the first folder of "memfs://d/dir"), which
// names no file of the store ("../../x.csv" under "gs://b/dir"). Run and
// RunFiles refuse such a path (see Join).
var ErrAboveBucket = errors.New("job: relative path climbs above the bucket of its root")

// Join returns path relative to root, as Run resolves a job's paths: path
// itself when it is empty, absolute, has a scheme or root is empty; else,
// for a root with a scheme, root and path joined by one '/' and cleaned
// after the "scheme://" ("gs://b/dir" and "x.csv" give "gs://b/dir/x.csv",
// "../x.csv" gives "gs://b/x.csv", "memfs://" and "x.csv" give
// "memfs://x.csv"); for a local root, filepath.Join(root, path). An
// absolute path under a root with a scheme stays a local path.
//
// Under a root with a scheme, a relative path cannot leave the root's
// bucket, the first element after "scheme://" (of a root without one,
// such as "memfs://", the top): a path whose ".." climb above it has no
// meaning. Join then keeps the bucket and the ".." that climb above it
// ("gs://b/dir" and "../../x.csv" give "gs://b/../x.csv"), so that the
// result never names another bucket, and Run and RunFiles refuse the
// path with an error wrapping ErrAboveBucket that names the job, the
// field and the path. A local root has no such rule.
func Join(root, path string) string {
	if path == "" || root == "" || Scheme(path) != "" || filepath.IsAbs(path) {
		return path
	}
	s := Scheme(root)
	if s == "" {
		return filepath.Join(root, path)
	}
	if bucket, climb, ok := aboveBucket(root[len(s)+3:], path); ok {
		if bucket == "" {
			return s + "://" + climb
		}
		return s + "://" + bucket + "/" + climb
	}
	return s + "://" + joinObject(root[len(s)+3:], path)
}

// aboveBucket reports whether the relative path p, joined to rest (a
// root's part after "scheme://"), climbs above the first element of rest,
// its bucket; when it does, it returns the bucket and the join of the
// rest of the root and p, cleaned, which begins with "..". Cost O(len(rest) +
// len(p)).
func aboveBucket(rest, p string) (bucket, climb string, ok bool) {
	bucket, dir, _ := strings.Cut(rest, "/")
	climb = path.Join(strings.TrimLeft(dir, "/"), filepath.ToSlash(p)) // "b//dir" is "b/dir"
	if climb == ".." || strings.HasPrefix(climb, "../") {
		return bucket, climb, true
	}
	return "", "", false
}

// checkPaths returns an error wrapping ErrAboveBucket, naming the job, the
// field and the path, for the first relative path of s whose ".." climb
// above the bucket of root, a root with a scheme (see Join); nil when
// there is none or root has no scheme. Cost O(length of the paths).
func checkPaths(s *Spec, root string) error {
	sch := Scheme(root)
	if sch == "" {
		return nil
	}
	for _, f := range []struct{ field, path string }{
		{"input", s.Input}, {"graph", s.Graph}, {"data_root", s.DataRoot},
		{"constraints", s.Constraints}, {"labels", s.Labels}, {"truth", s.Truth},
	} {
		p := f.path
		if p == "" || Scheme(p) != "" || filepath.IsAbs(p) {
			continue
		}
		if bucket, _, ok := aboveBucket(root[len(sch)+3:], p); ok {
			top := "its top"
			if bucket != "" {
				top = fmt.Sprintf("bucket %q", bucket)
			}
			return fmt.Errorf("%w: job %s: %s %s: root %s (%s): give a path with a scheme for a file outside it", ErrAboveBucket, s.ID, f.field, p, root, top)
		}
	}
	return nil
}

// joinObject joins the part of a path after "scheme://" with a relative
// path, '/'-separated.
func joinObject(rest, p string) string {
	j := path.Join(rest, filepath.ToSlash(p))
	if j == "." {
		return ""
	}
	return j
}

// Dir returns the folder of path, as the default root of a manifest:
// filepath.Dir(path) for a local path; for a path with a scheme, all
// before its last '/' after the "scheme://" ("gs://b/dir/m.jsonl" gives
// "gs://b/dir", "memfs://m.jsonl" gives "memfs://"), so that Join(Dir(p),
// name) is name beside p.
func Dir(path string) string {
	s := Scheme(path)
	if s == "" {
		return filepath.Dir(path)
	}
	rest := path[len(s)+3:]
	i := strings.LastIndex(rest, "/")
	if i < 0 {
		return s + "://"
	}
	return s + "://" + rest[:i]
}
