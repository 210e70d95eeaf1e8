// Package figure draws tether's plots with gonum/plot: scatter plots of
// partitions and panels saved side by side as PNG (or SVG).
package figure

import (
	"bytes"
	"context"
	"fmt"
	"image/color"
	"io"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/tether-sc/tether/internal/atomicfile"
)

// colour returns the colour of cluster c: colour-blind-safe Okabe–Ito
// colours, cycling after eight clusters.
func colour(c int) color.RGBA {
	palette := [...]color.RGBA{
		{0, 114, 178, 255}, {230, 159, 0, 255}, {0, 158, 115, 255}, {204, 121, 167, 255},
		{86, 180, 233, 255}, {213, 94, 0, 255}, {240, 228, 66, 255}, {0, 0, 0, 255},
	}
	return palette[c%len(palette)]
}

// shape returns the glyph of cluster c: a new shape every eight clusters.
func shape(c int) draw.GlyphDrawer {
	shapes := [...]draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.CrossGlyph{}}
	return shapes[(c/8)%len(shapes)]
}

// Scatter returns a plot of the first two columns of x, one colour and glyph
// per label. x must have at least two columns and len(labels) rows.
func Scatter(title string, x *mat.Dense, labels []int) (*plot.Plot, error) {
	return ScatterAxes(title, "x₁", "x₂", x, labels)
}

// ScatterAxes is Scatter with the axis labels given.
func ScatterAxes(title, xlabel, ylabel string, x *mat.Dense, labels []int) (*plot.Plot, error) {
	n, d := x.Dims()
	if d < 2 {
		return nil, fmt.Errorf("figure: scatter needs 2 columns, data has %d", d)
	}
	if len(labels) != n {
		return nil, fmt.Errorf("figure: %d labels for %d points", len(labels), n)
	}
	groups := map[int]plotter.XYs{}
	maxLabel := 0
	for i, c := range labels {
		groups[c] = append(groups[c], plotter.XY{X: x.At(i, 0), Y: x.At(i, 1)})
		maxLabel = max(maxLabel, c)
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	for c := 0; c <= maxLabel; c++ {
		pts, ok := groups[c]
		if !ok {
			continue
		}
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, fmt.Errorf("figure: %w", err)
		}
		s.GlyphStyle.Color = colour(c)
		s.GlyphStyle.Shape = shape(c)
		s.GlyphStyle.Radius = vg.Points(2)
		p.Add(s)
		p.Legend.Add(fmt.Sprintf("cluster %d", c), s)
	}
	p.Legend.Top = true
	return p, nil
}

// SavePNG draws the plots side by side, each panelWidth × height, into a PNG
// file at path (directories are created), atomically under ctx
// (atomicfile.Write: an interrupted or failed write leaves no partial
// file, and the temporary file is registered in the atomicfile.Registry
// ctx carries, if any, so that a process quitting at a second Ctrl-C
// removes it; a cancelled ctx writes nothing). A page written with other
// files takes the image's bytes (PNG) and stages them with the others.
func SavePNG(ctx context.Context, path string, panelWidth, height vg.Length, plots ...*plot.Plot) error {
	if len(plots) == 0 {
		return fmt.Errorf("figure: nothing to draw")
	}
	err := atomicfile.Write(ctx, path, func(w io.Writer) error {
		return WritePNG(w, panelWidth, height, plots...)
	})
	if err != nil {
		return fmt.Errorf("figure: %s: %w", path, err)
	}
	return nil
}

// PNG draws the plots side by side, each panelWidth × height, and returns
// the PNG image (WritePNG), for a file that its caller writes with others
// (experiment's pages put their figures in Output.Files, which Run
// stages with the page).
func PNG(panelWidth, height vg.Length, plots ...*plot.Plot) ([]byte, error) {
	var b bytes.Buffer
	if err := WritePNG(&b, panelWidth, height, plots...); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WritePNG draws the plots side by side, each panelWidth × height, and
// writes them to w as a PNG image.
func WritePNG(w io.Writer, panelWidth, height vg.Length, plots ...*plot.Plot) error {
	if len(plots) == 0 {
		return fmt.Errorf("figure: nothing to draw")
	}
	img := vgimg.New(panelWidth*vg.Length(len(plots)), height)
	drawPanels(img, plots)
	_, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(w)
	return err
}

// WriteSVG draws the plots as WritePNG does and writes them to w as an
// SVG image, its fonts named, not embedded (a viewer substitutes its own).
func WriteSVG(w io.Writer, panelWidth, height vg.Length, plots ...*plot.Plot) error {
	if len(plots) == 0 {
		return fmt.Errorf("figure: nothing to draw")
	}
	c := vgsvg.New(panelWidth*vg.Length(len(plots)), height)
	drawPanels(c, plots)
	_, err := c.WriteTo(w)
	return err
}

// drawPanels draws the plots side by side on c.
func drawPanels(c vg.CanvasSizer, plots []*plot.Plot) {
	dc := draw.New(c)
	tiles := draw.Tiles{Rows: 1, Cols: len(plots), PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 2,
		PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2}
	grid := [][]*plot.Plot{plots}
	canvases := plot.Align(grid, tiles, dc)
	for j, p := range plots {
		p.Draw(canvases[0][j])
	}
}
