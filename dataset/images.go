package dataset

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/internal/inputfile"
)

// ImageOptions controls ReadImageFolder. The zero value means the
// documented defaults.
type ImageOptions struct {
	// MaxPixels caps the pixels of one image. If MaxPixels is 0, 1<<22
	// (2048×2048) is used.
	MaxPixels int
	// MaxValues caps the size of the table, images × pixels. If MaxValues
	// is 0, 1<<28 (2 GiB of float64) is used.
	MaxValues int
}

// ReadImageFolder reads a folder of grey-scale images with one subfolder per
// class, the usual layout of face datasets (ORL/AT&T, Yale):
//
//	dir/alice/1.pgm, dir/alice/2.pgm, …, dir/bob/1.pgm, …
//
// Each image becomes a row of pixel intensities scaled to [0, 1], row-major;
// its class is its subfolder, classes numbered in sorted name order
// (Table.ClassNames), and Table.IDs holds "class/file". Files are PGM
// (binary P5 or plain P2, 8 or 16 bits) or PNG (converted to grey as
// image/color.Gray does); other files and hidden files are skipped, images
// directly in dir are an error. Every image must have the size of the
// first one (the error names both files and sizes). The folder is read in
// sorted order, so the rows do not depend on the file system.
//
// Errors wrap ErrSyntax for a malformed image (with the file and what is
// wrong), ErrTooLarge above the limits of opt, ErrInvalid for an empty or
// mixed-size folder, and ctx.Err() when cancelled (checked per image).
// Cost: O(total pixels) time and memory.
func ReadImageFolder(ctx context.Context, dir string, opt ImageOptions) (*Table, error) {
	maxPix, maxVals := opt.MaxPixels, opt.MaxValues
	if maxPix <= 0 {
		maxPix = 1 << 22
	}
	if maxVals <= 0 {
		maxVals = 1 << 28
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	var classes []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, "."):
		case e.IsDir():
			classes = append(classes, name)
		case isImageName(name):
			return nil, fmt.Errorf("%w: %s: image %s is not in a class subfolder (want %s/CLASS/%s)", ErrInvalid, dir, name, dir, name)
		}
	}
	sort.Strings(classes)
	t := &Table{}
	var data []float64
	w, h := 0, 0
	first := ""
	for c, class := range classes {
		files, err := os.ReadDir(filepath.Join(dir, class))
		if err != nil {
			return nil, fmt.Errorf("dataset: %w", err)
		}
		names := make([]string, 0, len(files))
		for _, f := range files {
			if !f.IsDir() && !strings.HasPrefix(f.Name(), ".") && isImageName(f.Name()) {
				names = append(names, f.Name())
			}
		}
		sort.Strings(names)
		for _, name := range names {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			rel := class + "/" + name
			path := filepath.Join(dir, class, name)
			pix, iw, ih, err := readGreyImage(ctx, path, maxPix)
			if err != nil {
				return nil, err
			}
			if first == "" {
				w, h, first = iw, ih, rel
			} else if iw != w || ih != h {
				return nil, fmt.Errorf("%w: %s is %d×%d, but %s is %d×%d: every image must have the same size", ErrInvalid, path, iw, ih, filepath.Join(dir, first), w, h)
			}
			if len(data)+len(pix) > maxVals {
				return nil, fmt.Errorf("%w: %s: more than %d pixel values in the folder", ErrTooLarge, dir, maxVals)
			}
			data = append(data, pix...)
			t.Labels = append(t.Labels, c)
			t.IDs = append(t.IDs, rel)
		}
		t.ClassNames = append(t.ClassNames, class)
	}
	if len(t.Labels) == 0 {
		return nil, fmt.Errorf("%w: %s holds no .pgm or .png image in class subfolders", ErrInvalid, dir)
	}
	t.X = mat.NewDense(len(t.Labels), w*h, data)
	t.Features = make([]string, w*h)
	for i := range t.Features {
		t.Features[i] = fmt.Sprintf("px%d_%d", i/w, i%w)
	}
	return t, nil
}

// isImageName reports whether a file name has a supported image extension.
func isImageName(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".pgm", ".png":
		return true
	}
	return false
}

// readGreyImage returns the pixels of a PGM or PNG file in [0, 1],
// row-major, and its width and height.
func readGreyImage(ctx context.Context, path string, maxPix int) ([]float64, int, int, error) {
	f, err := inputfile.Open(ctx, path)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	if strings.EqualFold(filepath.Ext(path), ".pgm") {
		pix, w, h, err := decodePGM(bufio.NewReader(f), maxPix)
		if err != nil {
			return nil, 0, 0, fmt.Errorf("%s: %w", path, err)
		}
		return pix, w, h, nil
	}
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("%w: %s: %v", ErrSyntax, path, err)
	}
	if cfg.Width*cfg.Height > maxPix || cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, 0, 0, fmt.Errorf("%w: %s is %d×%d, more than %d pixels", ErrTooLarge, path, cfg.Width, cfg.Height, maxPix)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, 0, 0, fmt.Errorf("dataset: %w", err)
	}
	img, err := png.Decode(f)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("%w: %s: %v", ErrSyntax, path, err)
	}
	return greyPixels(img), cfg.Width, cfg.Height, nil
}

// greyPixels converts img to grey levels in [0, 1] (image/color's luma).
func greyPixels(img image.Image) []float64 {
	b := img.Bounds()
	out := make([]float64, 0, b.Dx()*b.Dy())
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			// The luma of color.GrayModel, on 16-bit channels.
			lum := (19595*r + 38470*g + 7471*bl + 1<<15) >> 16
			out = append(out, float64(lum)/0xffff)
		}
	}
	return out
}

// decodePGM decodes a binary (P5) or plain (P2) PGM image: the header
// "P5 width height maxval" (whitespace separated, # comments to the end of
// a line), then width·height samples, one byte each when maxval < 256,
// else two bytes big-endian (P5), or decimal numbers (P2). Samples are
// divided by maxval. Errors wrap ErrSyntax or ErrTooLarge and say what is
// wrong.
func decodePGM(r *bufio.Reader, maxPix int) ([]float64, int, int, error) {
	magic, err := pgmToken(r)
	if err != nil {
		return nil, 0, 0, err
	}
	if magic != "P5" && magic != "P2" {
		return nil, 0, 0, fmt.Errorf("%w: PGM magic %q, want P5 or P2", ErrSyntax, magic)
	}
	var vals [3]int
	for i, what := range []string{"width", "height", "maxval"} {
		tok, err := pgmToken(r)
		if err != nil {
			return nil, 0, 0, fmt.Errorf("PGM %s: %w", what, err)
		}
		v, err := strconv.Atoi(tok)
		if err != nil || v <= 0 {
			return nil, 0, 0, fmt.Errorf("%w: PGM %s %q, want a positive integer", ErrSyntax, what, tok)
		}
		vals[i] = v
	}
	w, h, maxval := vals[0], vals[1], vals[2]
	if maxval > 65535 {
		return nil, 0, 0, fmt.Errorf("%w: PGM maxval %d, want ≤ 65535", ErrSyntax, maxval)
	}
	if w > maxPix || h > maxPix || w*h > maxPix {
		return nil, 0, 0, fmt.Errorf("%w: PGM image %d×%d, more than %d pixels", ErrTooLarge, w, h, maxPix)
	}
	n := w * h
	out := make([]float64, n)
	if magic == "P2" {
		for i := range out {
			tok, err := pgmToken(r)
			if err != nil {
				return nil, 0, 0, fmt.Errorf("PGM sample %d of %d: %w", i+1, n, err)
			}
			v, err := strconv.Atoi(tok)
			if err != nil || v < 0 || v > maxval {
				return nil, 0, 0, fmt.Errorf("%w: PGM sample %d = %q, want 0…%d", ErrSyntax, i+1, tok, maxval)
			}
			out[i] = float64(v) / float64(maxval)
		}
		return out, w, h, nil
	}
	// The single whitespace byte after maxval, consumed by pgmToken,
	// separates the header from the binary samples.
	size := 1
	if maxval > 255 {
		size = 2
	}
	buf := make([]byte, n*size)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, 0, 0, fmt.Errorf("%w: PGM data ends before its %d×%d samples (%d bytes)", ErrSyntax, w, h, len(buf))
	}
	for i := range out {
		v := int(buf[i])
		if size == 2 {
			v = int(buf[2*i])<<8 | int(buf[2*i+1])
		}
		if v > maxval {
			return nil, 0, 0, fmt.Errorf("%w: PGM sample %d = %d above maxval %d", ErrSyntax, i+1, v, maxval)
		}
		out[i] = float64(v) / float64(maxval)
	}
	return out, w, h, nil
}

func isPGMSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f'
}

// pgmToken returns the next whitespace-separated token of a PGM header,
// skipping # comments. Tokens longer than 32 bytes are an error.
func pgmToken(r *bufio.Reader) (string, error) {
	var tok bytes.Buffer
	for {
		b, err := r.ReadByte()
		if err != nil {
			if tok.Len() > 0 && err == io.EOF {
				return tok.String(), nil
			}
			return "", fmt.Errorf("%w: PGM ends early", ErrSyntax)
		}
		switch {
		case b == '#' && tok.Len() == 0:
			if _, err := r.ReadString('\n'); err != nil {
				return "", fmt.Errorf("%w: PGM ends in a comment", ErrSyntax)
			}
		case isPGMSpace(b):
			if tok.Len() > 0 {
				return tok.String(), nil
			}
		default:
			if tok.Len() >= 32 {
				return "", fmt.Errorf("%w: PGM header token longer than 32 bytes", ErrSyntax)
			}
			tok.WriteByte(b)
		}
	}
}
