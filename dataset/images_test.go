package dataset

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// p5 returns a binary PGM of w×h with sample(i) at pixel i.
func p5(w, h, maxval int, sample func(i int) int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "P5\n# a comment\n%d %d\n%d\n", w, h, maxval)
	for i := 0; i < w*h; i++ {
		v := sample(i)
		if maxval > 255 {
			b.WriteByte(byte(v >> 8))
		}
		b.WriteByte(byte(v))
	}
	return b.Bytes()
}

func TestReadImageFolder(t *testing.T) {
	dir := t.TempDir()
	// Class "b" sorts after "a"; PGM 8-bit, PGM 16-bit, plain P2 and PNG.
	writeFile(t, filepath.Join(dir, "b", "1.pgm"), p5(3, 2, 255, func(i int) int { return 50 * i }))
	writeFile(t, filepath.Join(dir, "a", "2.pgm"), p5(3, 2, 1000, func(i int) int { return 200 * i }))
	writeFile(t, filepath.Join(dir, "a", "1.pgm"), []byte("P2\n3 2\n4\n0 1 2\n3 4 0\n"))
	img := image.NewGray(image.Rect(0, 0, 3, 2))
	for i := 0; i < 6; i++ {
		img.SetGray(i%3, i/3, color.Gray{Y: uint8(51 * (5 - i))})
	}
	var pb bytes.Buffer
	if err := png.Encode(&pb, img); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "b", "0.png"), pb.Bytes())
	writeFile(t, filepath.Join(dir, "b", "notes.txt"), []byte("skipped"))
	writeFile(t, filepath.Join(dir, ".hidden", "x.pgm"), []byte("junk"))

	tab, err := ReadImageFolder(context.Background(), dir, ImageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantIDs := []string{"a/1.pgm", "a/2.pgm", "b/0.png", "b/1.pgm"}
	if strings.Join(tab.IDs, " ") != strings.Join(wantIDs, " ") || fmt.Sprint(tab.Labels) != "[0 0 1 1]" || fmt.Sprint(tab.ClassNames) != "[a b]" {
		t.Fatalf("ids %v labels %v classes %v", tab.IDs, tab.Labels, tab.ClassNames)
	}
	// Expected intensities, written out from the samples above.
	want := [][]float64{
		{0, 0.25, 0.5, 0.75, 1, 0},
		{0, 0.2, 0.4, 0.6, 0.8, 1},
		{1, 0.8, 0.6, 0.4, 0.2, 0},
		{0, 50.0 / 255, 100.0 / 255, 150.0 / 255, 200.0 / 255, 250.0 / 255},
	}
	for i, row := range want {
		for j, v := range row {
			if got := tab.X.At(i, j); math.Abs(got-v) > 1e-12 {
				t.Errorf("image %s pixel %d = %v, want %v", tab.IDs[i], j, got, v)
			}
		}
	}
}

func TestReadImageFolderErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string][]byte
		opt   ImageOptions
		err   error
		msg   string
	}{
		{"empty", map[string][]byte{"a/readme": []byte("x")}, ImageOptions{}, ErrInvalid, "holds no .pgm or .png image"},
		{"image at the top", map[string][]byte{"x.pgm": p5(1, 1, 255, func(int) int { return 0 })}, ImageOptions{}, ErrInvalid, "not in a class subfolder"},
		{"mixed sizes", map[string][]byte{"a/1.pgm": p5(2, 2, 255, func(int) int { return 0 }), "a/2.pgm": p5(3, 2, 255, func(int) int { return 0 })}, ImageOptions{}, ErrInvalid, "is 3×2, but"},
		{"bad magic", map[string][]byte{"a/1.pgm": []byte("P6\n1 1\n255\n\x00\x00\x00")}, ImageOptions{}, ErrSyntax, `magic "P6"`},
		{"truncated", map[string][]byte{"a/1.pgm": []byte("P5\n4 4\n255\n\x00\x00")}, ImageOptions{}, ErrSyntax, "ends before its 4×4 samples"},
		{"above maxval", map[string][]byte{"a/1.pgm": []byte("P5\n1 1\n10\n\x20")}, ImageOptions{}, ErrSyntax, "above maxval 10"},
		{"plain sample", map[string][]byte{"a/1.pgm": []byte("P2\n2 1\n9\n1 x\n")}, ImageOptions{}, ErrSyntax, `sample 2 = "x"`},
		{"huge header", map[string][]byte{"a/1.pgm": []byte("P5\n100000 100000\n255\n")}, ImageOptions{}, ErrTooLarge, "100000×100000"},
		{"table too large", map[string][]byte{"a/1.pgm": p5(4, 4, 255, func(int) int { return 0 }), "a/2.pgm": p5(4, 4, 255, func(int) int { return 0 })}, ImageOptions{MaxValues: 20}, ErrTooLarge, "more than 20 pixel values"},
		{"bad png", map[string][]byte{"a/1.png": []byte("\x89PNG junk")}, ImageOptions{}, ErrSyntax, "1.png"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, b := range tc.files {
				writeFile(t, filepath.Join(dir, name), b)
			}
			_, err := ReadImageFolder(context.Background(), dir, tc.opt)
			if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %v, want %v mentioning %q", err, tc.err, tc.msg)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a", "1.pgm"), p5(1, 1, 255, func(int) int { return 0 }))
	if _, err := ReadImageFolder(ctx, dir, ImageOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// FuzzDecodePGM: any input gives pixels in [0, 1] of the declared size, or
// an error; never a panic, and never more pixels than the limit.
func FuzzDecodePGM(f *testing.F) {
	f.Add([]byte("P2\n3 2\n4\n0 1 2\n3 4 0\n"))
	f.Add(p5(3, 2, 255, func(i int) int { return 40 * i }))
	f.Add(p5(2, 2, 1000, func(i int) int { return 300 * i }))
	f.Add([]byte("P5 1 1 255\n\xff"))
	f.Fuzz(func(t *testing.T, in []byte) {
		pix, w, h, err := decodePGM(bufio.NewReader(bytes.NewReader(in)), 1<<12)
		if err != nil {
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("error %v wraps neither ErrSyntax nor ErrTooLarge", err)
			}
			return
		}
		if len(pix) != w*h || w*h > 1<<12 {
			t.Fatalf("%d pixels for %d×%d", len(pix), w, h)
		}
		for _, v := range pix {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("pixel %v outside [0, 1]", v)
			}
		}
	})
}
