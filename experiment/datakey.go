package experiment

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/tether-sc/tether/dataset/catalog"
)

// dataDigests computes, once per file for its life, the SHA-256 of the
// catalogue's dataset files under one data root, and from them the cache
// keys of cells that read datasets (cacheKey). Run makes one per
// experiment, so a file is hashed at most once per experiment run (the
// shared datasets, 7 MB in all, hash in tens of milliseconds). It is safe
// for concurrent use.
type dataDigests struct {
	root string

	mu    sync.Mutex
	files map[string]string // relative path → hex digest, or "absent"
}

func newDataDigests(root string) *dataDigests {
	return &dataDigests{root: root, files: map[string]string{}}
}

// file returns the hex SHA-256 of the file rel under the root, "absent"
// when it does not exist (the cell then fails or is not declared: either
// way its key must differ from the one with the file), or an error naming
// the file when it cannot be read. Cost: one read of the file, the first
// time only.
func (d *dataDigests) file(rel string) (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if s, ok := d.files[rel]; ok {
		return s, nil
	}
	path := filepath.Join(d.root, rel)
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		d.files[rel] = "absent"
		return "absent", nil
	}
	if err != nil {
		return "", fmt.Errorf("experiment: data digest: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("experiment: data digest: %s: %w", path, err)
	}
	s := hex.EncodeToString(h.Sum(nil))
	d.files[rel] = s
	return s, nil
}

// cacheKey returns the key under which cell c is cached: c.Key when the
// cell reads no dataset (generated data keeps its key), else c.Key +
// "#data=" + the first 16 hex digits of the SHA-256 of the names and
// file digests of the datasets c.Data names (in sorted order), so a cell
// is recomputed when a file it reads changes, or when the data root
// holds other contents, and found in the cache when the same contents are
// under another root. An unknown dataset name is an error. Cost: one
// SHA-256 of each file not yet hashed, then O(len(c.Data)).
func (d *dataDigests) cacheKey(c Cell) (string, error) {
	if len(c.Data) == 0 {
		return c.Key, nil
	}
	h := sha256.New()
	for _, name := range slices.Sorted(slices.Values(c.Data)) {
		e, ok := catalog.Lookup(name)
		if !ok {
			return "", fmt.Errorf("experiment: cell %s: Data names %q, not a catalogued dataset", c.Key, name)
		}
		fmt.Fprintf(h, "%s\n", name)
		for _, rel := range e.Files {
			s, err := d.file(rel)
			if err != nil {
				return "", fmt.Errorf("experiment: cell %s: %w", c.Key, err)
			}
			fmt.Fprintf(h, "%s %s\n", rel, s)
		}
	}
	return c.Key + "#data=" + hex.EncodeToString(h.Sum(nil))[:16], nil
}

// dataReads records the catalogued datasets a cell's Run loaded
// (loadCatalog, noteData), for Run's check that a cell declares in
// Cell.Data every dataset it reads.
type dataReads struct {
	mu    sync.Mutex
	names map[string]bool
}

type dataReadsKey struct{}

// noteData records in ctx's dataReads (if any) that dataset name is read.
func noteData(ctx context.Context, name string) {
	if r, ok := ctx.Value(dataReadsKey{}).(*dataReads); ok {
		r.mu.Lock()
		r.names[name] = true
		r.mu.Unlock()
	}
}

// loadCatalog is catalog.LoadContext noting the dataset as read by the
// running cell (noteData): every load of an experiment goes through it.
func loadCatalog(ctx context.Context, name, root string, opt *catalog.Options) (*catalog.Data, error) {
	noteData(ctx, name)
	return catalog.LoadContext(ctx, name, root, opt)
}

// undeclared returns, sorted and comma-separated, the datasets recorded
// in r that c.Data does not name ("" when none).
func (r *dataReads) undeclared(c Cell) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for name := range r.names {
		if !slices.Contains(c.Data, name) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}
