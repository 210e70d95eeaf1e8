package figure

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tether-sc/tether/internal/atomicfile"
)

// SavePNG writes under its context: the file is PNG's image, and under a
// context carrying an atomicfile.Registry that a second Ctrl-C discarded
// (or a cancelled one) it writes nothing, neither the file nor a
// temporary one. It wrote under context.Background(), outside the
// Registry, so that a second Ctrl-C left its ".NAME.tmpPID-DIGITS".
func TestSavePNGUnderTheContext(t *testing.T) {
	p, err := Lines(LineChart{Title: "t", Series: []Series{{Name: "a", X: []float64{0, 1}, Y: []float64{0, 1}}}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "f.png")
	if err := SavePNG(context.Background(), path, 200, 150, p); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := PNG(200, 150, p)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("the file (%d bytes) is not PNG's image (%d bytes, %v)", len(got), len(want), err)
	}
	reg := atomicfile.NewRegistry()
	reg.Discard()
	quitting := atomicfile.WithRegistry(context.Background(), reg)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for name, ctx := range map[string]context.Context{"discarded registry": quitting, "cancelled": cancelled} {
		sub := filepath.Join(dir, name)
		err := SavePNG(ctx, filepath.Join(sub, "g.png"), 200, 150, p)
		if err == nil || (name == "discarded registry" && !errors.Is(err, atomicfile.ErrDiscarded)) || (name == "cancelled" && !errors.Is(err, context.Canceled)) {
			t.Errorf("%s: err = %v", name, err)
		}
		if _, err := os.Stat(sub); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: the folder %s was made (%v)", name, sub, err)
		}
	}
}
