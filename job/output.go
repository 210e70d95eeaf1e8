package job

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"

	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/internal/atomicfile"
)

// WriteLabels writes r's labels, one cluster number per line (node i on
// line i+1): the one-label-per-line format that tether cluster -truth,
// -partial-labels and tether eval -pred read. When rows of the job's
// table were dropped for their missing values (Result.Names set), node i
// is not the file's row i: it writes the "name,cluster" lines tether
// cluster -o writes then (dataset.WriteNodeLabels with the names
// dataset.KeyNames keeps, as tether cluster's writer calls it), each row
// kept named by its ID column or its 0-based row number in the file, so
// that the labels can be matched back to the rows. Cost O(n).
func (r *Result) WriteLabels(w io.Writer) error {
	if r.Names != nil {
		return dataset.WriteNodeLabels(w, r.Labels, dataset.KeyNames(r.Names), nil, "cluster")
	}
	bw := bufio.NewWriter(w)
	for _, c := range r.Labels {
		bw.WriteString(strconv.Itoa(c))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// JSON returns r as one line of JSON (no newline).
func (r *Result) JSON() (string, error) {
	b, err := json.Marshal(r)
	return string(b), err
}

// LabelsPath is where a batch writes the labels of job id under dir
// (Join: dir may have a scheme, "gs://b/out" gives "gs://b/out/ID.labels").
func LabelsPath(dir, id string) string { return Join(dir, id+".labels") }

// SaveLabels writes r's labels to LabelsPath(dir, r.ID) atomically (a
// cancelled or failed write leaves no partial file). A failed job has no
// labels: it writes nothing and removes the labels file an earlier run of
// the same id left in dir, so that a rerun into the same folder never
// shows labels next to a result line that says the job failed.
func SaveLabels(ctx context.Context, dir string, r *Result) error {
	return SaveLabelsFiles(ctx, nil, dir, r)
}

// SaveLabelsFiles is SaveLabels, writing or removing the labels file
// through files (Files.WriteFile, Files.Remove) when dir has a scheme; a
// local dir is written as SaveLabels writes it, and a nil files refuses a
// dir with a scheme. Cost: the write (on an object store, plus a copy of
// the temporary object), or one removal.
func SaveLabelsFiles(ctx context.Context, files Files, dir string, r *Result) error {
	if Scheme(dir) != "" {
		return saveLabels(ctx, files, dir, r)
	}
	if r.Error != "" {
		if checkID(r.ID) != nil {
			// A malformed line's id (if any) is not a valid one: it names
			// no labels file of this folder, and must not name one
			// outside it ("../x").
			return nil
		}
		if err := os.Remove(LabelsPath(dir, r.ID)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("job %s: removing the labels of an earlier run: %w", r.ID, err)
		}
		return nil
	}
	if err := atomicfile.Write(ctx, LabelsPath(dir, r.ID), r.WriteLabels); err != nil {
		return fmt.Errorf("job %s: %w", r.ID, err)
	}
	return nil
}

// saveLabels is SaveLabelsFiles for a dir with a scheme.
func saveLabels(ctx context.Context, files Files, dir string, r *Result) error {
	if r.Error != "" && checkID(r.ID) != nil {
		return nil // as SaveLabels: no labels file of dir is named
	}
	path := LabelsPath(dir, r.ID)
	if files == nil {
		return fmt.Errorf("%w: job %s: labels %s: no Files to write it with (SaveLabelsFiles takes one)", ErrScheme, r.ID, path)
	}
	if r.Error != "" {
		if err := files.Remove(ctx, path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("job %s: removing the labels of an earlier run, %s: %w", r.ID, path, err)
		}
		return nil
	}
	if err := files.WriteFile(ctx, path, r.WriteLabels); err != nil {
		return fmt.Errorf("job %s: labels %s: %w", r.ID, path, err)
	}
	return nil
}
