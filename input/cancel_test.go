package input

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tether-sc/tether/internal/testctx"
)

// ReadPartialLabels stops soon after its context is cancelled while it
// reads an input that never ends, with ctx's error naming the file.
func TestReadPartialLabelsStopsMidRead(t *testing.T) {
	testctx.StopsMidRead(t, "0\n", "partial.txt", func(ctx context.Context, r io.Reader) error {
		_, err := ReadPartialLabels(ctx, r, "partial.txt", 0, 0, nil)
		return err
	})
}

// ReadCatalogContext reads what ReadCatalog reads and returns
// context.Canceled, naming the data set, when its context is cancelled.
func TestReadCatalogContext(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "iris"), 0o755); err != nil {
		t.Fatal(err)
	}
	rows := "5.1,3.5,1.4,0.2,Iris-setosa\n7.0,3.2,4.7,1.4,Iris-versicolor\n6.3,3.3,6.0,2.5,Iris-virginica\n"
	if err := os.WriteFile(filepath.Join(root, "iris", "iris.csv"), []byte(rows), 0o600); err != nil {
		t.Fatal(err)
	}
	want, err := ReadCatalog("iris", root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadCatalogContext(context.Background(), "iris", root)
	if err != nil || got.N() != 3 || got.N() != want.N() || len(got.Truth) != 3 {
		t.Fatalf("ReadCatalogContext: %v rows, err %v; ReadCatalog: %d rows", got, err, want.N())
	}
	if _, err := ReadCatalogContext(testctx.CancelAfter(0), "iris", root); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "iris") {
		t.Errorf("cancelled: err = %v, want context.Canceled naming iris", err)
	}
}
