package input

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tether-sc/tether/dataset"
)

// TestReadTableFileHeaderOnly: a file whose only line looks like a header
// by the HeaderAuto rule's first test (no field a number) is an error "no
// data rows" naming the file, as with HeaderYes, and not one row of
// one-hot categories (a 1×3 matrix before); HeaderNo reads that line as a
// row; a lone line of numbers, or one holding a number, is one row.
func TestReadTableFileHeaderOnly(t *testing.T) {
	ctx := context.Background()
	dir := tempFiles(t, map[string]string{
		"header.csv":  "x1,x2,label\n",
		"numbers.csv": "1,2,3\n",
		"mixed.csv":   "a,2,b\n",
	})
	for _, tc := range []struct {
		file    string
		header  dataset.HeaderMode
		wantErr bool
	}{
		{"header.csv", dataset.HeaderAuto, true},
		{"header.csv", dataset.HeaderYes, true},
		{"header.csv", dataset.HeaderNo, false},
		{"numbers.csv", dataset.HeaderAuto, false},
		{"mixed.csv", dataset.HeaderAuto, false},
	} {
		p := filepath.Join(dir, tc.file)
		d, err := ReadTableFile(ctx, p, dataset.Options{Header: tc.header})
		if tc.wantErr {
			if err == nil || !errors.Is(err, dataset.ErrSyntax) || !strings.Contains(err.Error(), "no data rows") || !strings.Contains(err.Error(), tc.file) {
				t.Errorf("%s, header %v: err = %v, want a syntax error \"no data rows\" naming the file", tc.file, tc.header, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s, header %v: %v", tc.file, tc.header, err)
			continue
		}
		if r, _ := d.X.Dims(); r != 1 {
			t.Errorf("%s, header %v: %d rows, want 1", tc.file, tc.header, r)
		}
	}
}
