package figure

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

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
	// LegendRight prefers the right corners for the legend when two corners
	// cover equally few points (see Lines: the legend goes to the corner
	// that hides the fewest data).
	LegendRight bool
	// XBreak, if positive, makes the horizontal axis piecewise linear: the
	// data range up to XBreak takes the left half of the axis and the rest
	// the right half, so a small interesting range (e.g. α ≤ 0.1) is not
	// squeezed. It must lie strictly inside the data's x range.
	XBreak float64
	// XTicks, if not empty, are the labelled ticks of the horizontal axis.
	XTicks []float64
}

// breakScale is the piecewise linear axis of LineChart.XBreak.
type breakScale struct{ at float64 }

// Normalize maps [min, at] to [0, ½] and [at, max] to [½, 1].
func (b breakScale) Normalize(min, max, x float64) float64 {
	if x <= b.at {
		return 0.5 * (x - min) / (b.at - min)
	}
	return 0.5 + 0.5*(x-b.at)/(max-b.at)
}

// legendCorner returns the corner (top, left) of the box of relative size
// w × h (fractions of the data area) that covers the fewest samples of the
// curves, given as normalized points in [0, 1]². Ties go to the top, then
// to the left unless preferRight.
func legendCorner(pts [][2]float64, w, h float64, preferRight bool) (top, left bool) {
	type corner struct{ top, left bool }
	order := []corner{{true, true}, {true, false}, {false, true}, {false, false}}
	if preferRight {
		order = []corner{{true, false}, {true, true}, {false, false}, {false, true}}
	}
	best, bestN := order[0], -1
	for _, c := range order {
		n := 0
		for _, p := range pts {
			inX := (c.left && p[0] <= w) || (!c.left && p[0] >= 1-w)
			inY := (c.top && p[1] >= 1-h) || (!c.top && p[1] <= h)
			if inX && inY {
				n++
			}
		}
		if bestN < 0 || n < bestN {
			best, bestN = c, n
		}
	}
	return best.top, best.left
}

// legendSamples returns the curves of c sampled densely along their
// segments (16 samples per segment) in normalized coordinates, x through
// norm over [xlo, xhi] and y linear over [ylo, yhi].
func legendSamples(c LineChart, norm plot.Normalizer, xlo, xhi, ylo, yhi float64) [][2]float64 {
	var pts [][2]float64
	if !(xhi > xlo) || !(yhi > ylo) {
		return nil
	}
	for _, ser := range c.Series {
		prev := -1
		for i, y := range ser.Y {
			if math.IsNaN(y) {
				continue
			}
			if prev >= 0 {
				for k := 0; k < 16; k++ {
					t := float64(k) / 16
					x := ser.X[prev] + t*(ser.X[i]-ser.X[prev])
					yy := ser.Y[prev] + t*(y-ser.Y[prev])
					pts = append(pts, [2]float64{norm.Normalize(xlo, xhi, x), (yy - ylo) / (yhi - ylo)})
				}
			}
			prev = i
		}
		if prev >= 0 {
			pts = append(pts, [2]float64{norm.Normalize(xlo, xhi, ser.X[prev]), (ser.Y[prev] - ylo) / (yhi - ylo)})
		}
	}
	return pts
}

// Lines returns the plot of c: one colour, dash pattern and marker per
// series (Okabe–Ito colours, as Scatter; markers when a series has at most
// 30 points), so curves that coincide stay distinguishable; a translucent
// band for Err; dashed black vertical lines; and a legend in the corner of
// the data area that hides the fewest points of the curves (sampled along
// their segments). It returns an error when a series' slices differ in
// length or XBreak is outside the data's x range. Cost: O(total points).
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
	xlo, xhi := math.Inf(1), math.Inf(-1)
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
		thumbs := []plot.Thumbnailer{l}
		if len(pts) <= 30 || ser.Marked {
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return nil, fmt.Errorf("figure: %w", err)
			}
			sc.GlyphStyle.Color = col
			sc.GlyphStyle.Shape = marker(s)
			sc.GlyphStyle.Radius = vg.Points(2.5)
			p.Add(sc)
			thumbs = append(thumbs, sc)
		}
		p.Legend.Add(ser.Name, thumbs...)
		for _, q := range pts {
			xlo, xhi = math.Min(xlo, q.X), math.Max(xhi, q.X)
		}
	}
	if c.YMin < c.YMax {
		ylo, yhi = c.YMin, c.YMax
		p.Y.Min, p.Y.Max = c.YMin, c.YMax
	}
	if math.IsInf(ylo, 1) {
		ylo, yhi = 0, 1
	}
	var norm plot.Normalizer = plot.LinearScale{}
	if c.XBreak > 0 {
		if !(c.XBreak > xlo && c.XBreak < xhi) {
			return nil, fmt.Errorf("figure: axis break %g outside the x range [%g, %g]", c.XBreak, xlo, xhi)
		}
		norm = breakScale{at: c.XBreak}
		p.X.Scale = norm
		p.X.Min, p.X.Max = xlo, xhi
	}
	if len(c.XTicks) > 0 {
		ticks := make(plot.ConstantTicks, len(c.XTicks))
		for i, x := range c.XTicks {
			ticks[i] = plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'g', -1, 64)}
		}
		p.X.Tick.Marker = ticks
	}
	// The legend's box, as fractions of the data area: about 5 points per
	// character of the 9-point font plus the thumbnail, over a data area
	// of about 330 × 250 points (a 5.5 × 4.5 inch panel).
	longest := 0
	entries := len(c.Series)
	for _, ser := range c.Series {
		longest = max(longest, len([]rune(ser.Name)))
	}
	for _, v := range c.VLines {
		if v.Label != "" {
			entries++
			longest = max(longest, len([]rune(v.Label)))
		}
	}
	w := math.Min(0.9, (float64(longest)*5+30)/330)
	h := math.Min(0.9, (float64(entries)*11+6)/250)
	p.Legend.Top, p.Legend.Left = legendCorner(legendSamples(c, norm, xlo, xhi, ylo, yhi), w, h, c.LegendRight)
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

// dashes returns the dash pattern of series s: solid, dashed, dotted and
// dash-dotted in turn, so that curves lying on one another stay visible.
//
// Colours cycle every eight series, so the dash and the glyph advance once
// more per cycle: series s and s + 8 share a colour but never a dash or a
// glyph (up to 32 series no two look alike), and the first eight series
// are drawn as before.
func dashes(s int) []vg.Length {
	switch (s + s/8) % 4 {
	case 1:
		return []vg.Length{vg.Points(6), vg.Points(3)}
	case 2:
		return []vg.Length{vg.Points(1.5), vg.Points(2.5)}
	case 3:
		return []vg.Length{vg.Points(7), vg.Points(2.5), vg.Points(1.5), vg.Points(2.5)}
	}
	return nil
}

// marker returns the point glyph of series s.
func marker(s int) draw.GlyphDrawer {
	glyphs := [...]draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.CrossGlyph{},
		draw.RingGlyph{}, draw.PlusGlyph{}, draw.PyramidGlyph{}, draw.BoxGlyph{}}
	return glyphs[(s+s/8)%len(glyphs)]
}
