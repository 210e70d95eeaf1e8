package figure

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

func TestLinesWritesPNG(t *testing.T) {
	p, err := Lines(LineChart{
		Title: "t", XLabel: "x", YLabel: "y",
		Series: []Series{
			{Name: "a", X: []float64{0, 1, 2}, Y: []float64{0, 0.5, 1}, Err: []float64{0.1, 0.1, 0.2}},
			{Name: "b", X: []float64{0, 1, 2}, Y: []float64{1, math.NaN(), 0}},
			{Name: "c", X: []float64{0, 1, 2}, Y: []float64{1, 0.5, 0}, Dashed: true, Marked: true},
		},
		VLines: []VLine{{X: 1.5, Label: "threshold"}},
		YMin:   0, YMax: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "lines.png")
	if err := SavePNG(path, 300, 200, p); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 8 || string(b[1:4]) != "PNG" {
		t.Errorf("not a PNG file (%d bytes)", len(b))
	}
	if _, err := Lines(LineChart{Series: []Series{{X: []float64{0}, Y: []float64{1, 2}}}}); err == nil {
		t.Error("mismatched series accepted")
	}
}
