package figure

import (
	"context"
	"fmt"
	"image/color"
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
	if err := SavePNG(context.Background(), path, 300, 200, p); err != nil {
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

func TestBreakScale(t *testing.T) {
	// Expected values by hand: [0, 0.1] → [0, ½], [0.1, 1] → [½, 1].
	b := breakScale{at: 0.1}
	for _, c := range []struct{ x, want float64 }{{0, 0}, {0.05, 0.25}, {0.1, 0.5}, {0.55, 0.75}, {1, 1}} {
		if got := b.Normalize(0, 1, c.x); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Normalize(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

func TestLegendCorner(t *testing.T) {
	// A curve along the top from left to right and down the right side:
	// both top corners and the bottom-right one are covered, the
	// bottom-left is free.
	var curve [][2]float64
	for i := 0; i <= 20; i++ {
		curve = append(curve, [2]float64{float64(i) / 20, 0.98})
		curve = append(curve, [2]float64{0.99, float64(i) / 20})
	}
	cases := []struct {
		name        string
		pts         [][2]float64
		right       bool
		top, left   bool
		explanation string
	}{
		{"empty, default", nil, false, true, true, "ties go to the top left"},
		{"empty, prefer right", nil, true, true, false, "ties go to the top right"},
		{"curve near 1", curve, false, false, true, "only the bottom left is free"},
		{"rising diagonal", [][2]float64{{0, 0}, {0.1, 0.1}, {0.5, 0.5}, {0.9, 0.9}, {1, 1}}, false, true, true, "the top left is free"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			top, left := legendCorner(c.pts, 0.3, 0.2, c.right)
			if top != c.top || left != c.left {
				t.Errorf("corner (top %v, left %v), want (top %v, left %v): %s", top, left, c.top, c.left, c.explanation)
			}
		})
	}
}

func TestLinesLegendAvoidsCurvesAndBreak(t *testing.T) {
	// Curves that rise quickly to 1 and stay there (the closure plots):
	// the legend must leave the top and sit at the bottom right.
	x := []float64{0, 0.01, 0.02, 0.05, 0.1, 0.5, 1}
	y := []float64{0.1, 0.8, 0.9, 0.95, 0.97, 0.99, 1}
	c := LineChart{Series: []Series{{Name: "partition A", X: x, Y: y}, {Name: "partition B", X: x, Y: y}}, YMin: 0, YMax: 1.02, XBreak: 0.1, XTicks: []float64{0, 0.05, 0.1, 0.5, 1}}
	p, err := Lines(c)
	if err != nil {
		t.Fatal(err)
	}
	if p.Legend.Top || p.Legend.Left {
		t.Errorf("legend at top %v, left %v; want the bottom right", p.Legend.Top, p.Legend.Left)
	}
	if _, ok := p.X.Scale.(breakScale); !ok {
		t.Errorf("x scale %T, want breakScale", p.X.Scale)
	}
	c.XBreak = 2
	if _, err := Lines(c); err == nil {
		t.Error("break outside the x range accepted")
	}
}

// TestSeriesStylesDistinct checks that no two of the first 32 series share
// colour, dash and glyph (before, series s and s + 8 were identical).
func TestSeriesStylesDistinct(t *testing.T) {
	type style struct {
		c color.RGBA
		d string
		g string
	}
	seen := map[style]int{}
	for s := 0; s < 32; s++ {
		st := style{colour(s), fmt.Sprint(dashes(s)), fmt.Sprintf("%T", marker(s))}
		if prev, ok := seen[st]; ok {
			t.Fatalf("series %d and %d look alike", prev, s)
		}
		seen[st] = s
	}
}
