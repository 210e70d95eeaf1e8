package figure

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is one curve of a line chart: points (X[i], Y[i]) joined in order,
// with an optional band Y[i] ± Err[i] (for example ± one standard
// deviation). Err nil means no band. Points with a NaN Y are skipped.
type Series struct {
	Name string
	X, Y []float64
	Err  []float64
	// Dashed draws the curve dashed; Marked puts a glyph (ring,
	// triangle, square, cross, plus, … by series index) on every
	// point and in the legend. Use them so that curves lying on top of
	// each other stay distinguishable.
	Dashed, Marked bool
}

// VLine is a vertical reference line, e.g. a detectability threshold.
type VLine struct {
	X     float64
	Label string
}

// LineChart describes a chart of curves with error bands.
type LineChart struct {
	Title, XLabel, YLabel string
	Series                []Series
	VLines                []VLine
	// YMin and YMax fix the vertical range when YMin < YMax; otherwise it
	// is fitted to the data.
	YMin, YMax float64
	// LegendRight puts the legend in the top right corner instead of the
	// top left one.
	LegendRight bool
}

// Lines returns the plot of c: one colour per series (Okabe–Ito, as
// Scatter), a translucent band for Err, dashed black vertical lines, and a
// legend. It returns an error when a series' slices differ in length.
func Lines(c LineChart) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = c.Title
	p.X.Label.Text = c.XLabel
	p.Y.Label.Text = c.YLabel
	p.Legend.Top = true
	p.Legend.Left = !c.LegendRight
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	p.Legend.Padding = vg.Points(2)
	p.Add(plotter.NewGrid())
	ylo, yhi := math.Inf(1), math.Inf(-1)
	for s, ser := range c.Series {
		if len(ser.X) != len(ser.Y) || (ser.Err != nil && len(ser.Err) != len(ser.Y)) {
			return nil, fmt.Errorf("figure: series %q has %d x, %d y and %d error values", ser.Name, len(ser.X), len(ser.Y), len(ser.Err))
		}
		col := colour(s)
		var pts plotter.XYs
		var lo, hi plotter.XYs
		for i, y := range ser.Y {
			if math.IsNaN(y) {
				continue
			}
			pts = append(pts, plotter.XY{X: ser.X[i], Y: y})
			ylo, yhi = math.Min(ylo, y), math.Max(yhi, y)
			if ser.Err != nil {
				e := ser.Err[i]
				lo = append(lo, plotter.XY{X: ser.X[i], Y: y - e})
				hi = append(hi, plotter.XY{X: ser.X[i], Y: y + e})
				ylo, yhi = math.Min(ylo, y-e), math.Max(yhi, y+e)
			}
		}
		if len(pts) == 0 {
			continue
		}
		if len(lo) > 1 {
			ring := append(plotter.XYs{}, lo...)
			for i := len(hi) - 1; i >= 0; i-- {
				ring = append(ring, hi[i])
			}
			band, err := plotter.NewPolygon(ring)
			if err != nil {
				return nil, fmt.Errorf("figure: %w", err)
			}
			band.Color = color.NRGBA{R: col.R, G: col.G, B: col.B, A: 60} // non-premultiplied: RGBA would need R,G,B ≤ A
			band.LineStyle.Width = 0
			p.Add(band)
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, fmt.Errorf("figure: %w", err)
		}
		l.Color = col
		l.Width = vg.Points(1.5)
		l.Dashes = dashes(s)
		if ser.Dashed {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		p.Add(l)
		if ser.Marked {
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return nil, fmt.Errorf("figure: %w", err)
			}
			sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(3), Shape: marker(s)}
			p.Add(sc)
			p.Legend.Add(ser.Name, l, sc)
		} else {
			p.Legend.Add(ser.Name, l)
		}
	}
	if c.YMin < c.YMax {
		ylo, yhi = c.YMin, c.YMax
		p.Y.Min, p.Y.Max = c.YMin, c.YMax
	}
	if math.IsInf(ylo, 1) {
		ylo, yhi = 0, 1
	}
	for _, v := range c.VLines {
		l, err := plotter.NewLine(plotter.XYs{{X: v.X, Y: ylo}, {X: v.X, Y: yhi}})
		if err != nil {
			return nil, fmt.Errorf("figure: %w", err)
		}
		l.Color = color.Black
		l.Width = vg.Points(1)
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(l)
		if v.Label != "" {
			p.Legend.Add(v.Label, l)
		}
	}
	return p, nil
}

// marker returns the glyph of series s for Series.Marked: a different
// shape for each of the first seven series; the first five are hollow or
// open, so that a glyph drawn on top of another leaves both visible.
func marker(s int) draw.GlyphDrawer {
	shapes := [...]draw.GlyphDrawer{draw.RingGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.CrossGlyph{},
		draw.PlusGlyph{}, draw.PyramidGlyph{}, draw.BoxGlyph{}}
	return shapes[s%len(shapes)]
}

// dashes returns the dash pattern of series s: solid for the first eight,
// then dashed, so more than eight series stay distinguishable.
func dashes(s int) []vg.Length {
	if s < 8 {
		return nil
	}
	return []vg.Length{vg.Points(6), vg.Points(2)}
}
