package input

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/dataset"
)

// ReadTableFileOpen reads a regular file through its opener at each
// parse (tether cluster counts the bytes read), to the Data of
// ReadTableFile; an opener's error is wrapped as dataset.ReadFile wraps
// inputfile's.
func TestReadTableFileOpen(t *testing.T) {
	var b strings.Builder
	b.WriteString("x,y,label\n")
	for i := range 30 {
		fmt.Fprintf(&b, "%d,%d,%d\n", i, i%7, i%3)
	}
	path := filepath.Join(t.TempDir(), "t.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := ReadTableFile(context.Background(), path, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opens := 0
	got, err := ReadTableFileOpen(context.Background(), path, dataset.Options{}, func(ctx context.Context, name string) (io.ReadCloser, error) {
		opens++
		return os.Open(name)
	})
	if err != nil {
		t.Fatal(err)
	}
	// The class column is found by name: a second parse.
	if opens != 2 {
		t.Errorf("%d opens, want 2", opens)
	}
	if got.N() != want.N() || !slices.Equal(got.Truth, want.Truth) || !slices.Equal(got.Features, want.Features) || !slices.Equal(got.Notes, want.Notes) {
		t.Errorf("data %+v, want %+v", got, want)
	}
	bad := errors.New("no such object")
	_, err = ReadTableFileOpen(context.Background(), path, dataset.Options{}, func(context.Context, string) (io.ReadCloser, error) { return nil, bad })
	if !errors.Is(err, bad) || !strings.HasPrefix(err.Error(), "dataset: ") {
		t.Errorf("opener's error: %v", err)
	}
}
