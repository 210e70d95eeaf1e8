package dataset

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tether-sc/tether/internal/testmem"
)

func TestReadBareCR(t *testing.T) {
	tb, err := ReadCSV(context.Background(), strings.NewReader("x,y,c\r1,2,a\r3,4,b\r5,6,a\r"), "mac.csv", Options{LabelColumn: "c"})
	if err != nil {
		t.Fatal(err)
	}
	if n, p := tb.Dims(); n != 3 || p != 2 {
		t.Fatalf("%d×%d table, want 3×2", n, p)
	}
}

func TestLongLineIsAnError(t *testing.T) {
	long := strings.Repeat("1,", 1<<19) + "1" // 1 MiB + 1 byte
	in := "1,2\n" + long + "\n"
	for _, tc := range []struct {
		name string
		read func() error
	}{
		// A feature table's limit is DefaultMaxTableLineBytes
		// (TestWideTableLines); given as 1 MiB, it applies.
		{"table", func() error {
			_, err := ReadCSV(context.Background(), strings.NewReader(in), "big.csv", Options{MaxLineBytes: DefaultMaxLineBytes})
			return err
		}},
		{"edge list", func() error {
			_, err := ReadGraph(context.Background(), strings.NewReader(in), "big.csv", EdgeList, GraphOptions{})
			return err
		}},
		{"labels", func() error { _, err := ReadLabels(strings.NewReader(in), "big.csv", LabelOptions{}); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.read()
			if !errors.Is(err, ErrTooLarge) {
				t.Fatalf("err = %v, want ErrTooLarge", err)
			}
			for _, want := range []string{"big.csv:2", "1048577 bytes"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
		})
	}
	// A configured limit applies.
	_, err := ReadCSV(context.Background(), strings.NewReader("1,2\n1,2,3,4\n"), "f", Options{MaxLineBytes: 5})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "f:2") {
		t.Fatalf("err = %v, want ErrTooLarge on line 2", err)
	}
}

// TestReadMemoryProportional bounds the bytes allocated to read a one-line
// file (rejected) and a bare-CR file (8 numeric columns) by a small multiple
// of their size: the one-line file used to be split into fields first.
func TestReadMemoryProportional(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates tens of MB")
	}
	row := "0.123456,0.234567,0.345678,0.456789,0.567891,0.678912,0.789123,0.891234"
	const size = 8 << 20
	oneLine := strings.Repeat(row+",", size/(len(row)+1))
	cr := strings.Repeat(row+"\r", size/(len(row)+1))
	for _, tc := range []struct {
		name, in string
		budget   float64 // bytes allocated per input byte
	}{
		{"one line", oneLine, 4},
		// Rows of 8 short fields: a string header per field (16 bytes per
		// 9 input bytes), the parsed float64s and the matrix dominate.
		{"bare CR", cr, 16},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			alloc := testmem.Allocated(func() { _, err = ReadCSV(context.Background(), strings.NewReader(tc.in), "f.csv", Options{}) })
			if tc.name == "one line" && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("err = %v, want ErrTooLarge", err)
			}
			if tc.name == "bare CR" && err != nil {
				t.Fatal(err)
			}
			per := float64(alloc) / float64(len(tc.in))
			t.Logf("%.1f bytes allocated per input byte", per)
			if per > tc.budget {
				t.Fatalf("%.1f bytes allocated per input byte, budget %v", per, tc.budget)
			}
		})
	}
}

// Names files take the same line endings as the other readers (a bare-CR
// names file used to be read as one name) and name a too-long line.
func TestReadNames(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "names.txt")
	if err := os.WriteFile(p, []byte("alice\r bob \rcarol\r\ndave\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadNames(p)
	if err != nil || strings.Join(got, ",") != "alice,bob,carol,dave" {
		t.Errorf("names %q, %v", got, err)
	}
	long := filepath.Join(dir, "long.txt")
	if err := os.WriteFile(long, append([]byte("a\n"), bytes.Repeat([]byte("x"), DefaultMaxLineBytes+1)...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadNames(long); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "long.txt") {
		t.Errorf("long line: %v", err)
	}
}

// endless is an io.Reader repeating b, as /dev/zero, /dev/urandom or a pipe
// that never closes would, and counting the bytes it gave; it ends after
// endlessCap bytes (beyond the longest line limit, a feature table's) so
// that a reader that does not stop fails the test instead of exhausting
// memory.
type endless struct {
	b    []byte
	read int
}

const endlessCap = DefaultMaxTableLineBytes + 16<<20

func (e *endless) Read(p []byte) (int, error) {
	if e.read >= endlessCap {
		return 0, io.EOF
	}
	p = p[:min(len(p), endlessCap-e.read)]
	n := 0
	for n < len(p) {
		n += copy(p[n:], e.b)
	}
	e.read += n
	return n, nil
}

// TestReadStopsOnBinaryOrEndlessLine: a NUL byte (binary data: no format
// here holds one) and a line past the limit stop the read at once, so that
// an endless input (-input /dev/zero, /dev/urandom) is an error naming the
// line instead of reading until memory runs out (it was read whole first).
// An endless line stops a feature table at its limit,
// DefaultMaxTableLineBytes, the other readers at DefaultMaxLineBytes.
func TestReadStopsOnBinaryOrEndlessLine(t *testing.T) {
	ctx := context.Background()
	readers := []struct {
		name  string
		limit int
		read  func(r io.Reader) error
	}{
		{"table", DefaultMaxTableLineBytes, func(r io.Reader) error { _, err := ReadCSV(ctx, r, "f", Options{}); return err }},
		{"graph", DefaultMaxLineBytes, func(r io.Reader) error {
			_, err := ReadGraph(ctx, r, "f", EdgeList, GraphOptions{})
			return err
		}},
		{"values", DefaultMaxLineBytes, func(r io.Reader) error { _, err := ReadValues(r, "f", ValueOptions{}); return err }},
		{"labels", DefaultMaxLineBytes, func(r io.Reader) error { _, err := ReadLabels(r, "f", LabelOptions{}); return err }},
	}
	for _, tc := range []struct {
		name  string
		b     []byte
		want  error
		texts []string
	}{
		{"NUL bytes (/dev/zero)", []byte{0}, ErrSyntax, []string{"f:1", "NUL byte", "not a text file"}},
		{"binary after text lines", []byte("1 2\n3 4\n\x00\xff\x10"), ErrSyntax, []string{"f:3", "NUL byte"}},
		{"endless line", []byte("1,"), ErrTooLarge, []string{"f:1", "longer than the limit of %d bytes"}},
	} {
		for _, rd := range readers {
			t.Run(tc.name+"/"+rd.name, func(t *testing.T) {
				src := &endless{b: tc.b}
				err := rd.read(src)
				if !errors.Is(err, tc.want) {
					t.Fatalf("err = %v, want %v", err, tc.want)
				}
				for _, w := range tc.texts {
					if strings.Contains(w, "%d") {
						w = fmt.Sprintf(w, rd.limit)
					}
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q lacks %q", err, w)
					}
				}
				// A read of unknown size grows its buffer by doubling:
				// the read that passes the limit may be as large again.
				if src.read > max(8*DefaultMaxLineBytes, 2*rd.limit) {
					t.Errorf("read %d bytes before stopping", src.read)
				}
			})
		}
	}
}

// TestWideTableLines: a feature table's rows may be up to
// DefaultMaxTableLineBytes long (wide tables, gene expression: 20 000 to
// 60 000 columns, rows of about 1.2 MB, were refused at 1 MiB), a longer
// line is refused naming the limit, and so is a file whose only line is
// longer than DefaultMaxLineBytes (no line endings: refused before the
// split into fields).
func TestWideTableLines(t *testing.T) {
	const rows, cols = 4, 150_000
	var b strings.Builder
	for j := 0; j < cols; j++ {
		if j > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "g%d", j)
	}
	b.WriteByte('\n')
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%.7f", float64(i*cols+j)/7)
		}
		b.WriteByte('\n')
	}
	in := b.String()
	if first := strings.IndexByte(in[strings.IndexByte(in, '\n')+1:], '\n'); first < 2*DefaultMaxLineBytes*9/10 {
		t.Fatalf("a row of %d bytes, want about 2 MB", first)
	}
	tb, err := ReadCSV(context.Background(), strings.NewReader(in), "wide.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n, p := tb.Dims(); n != rows || p != cols {
		t.Fatalf("%d×%d table, want %d×%d", n, p, rows, cols)
	}
	if got, want := tb.X.At(rows-1, cols-1), float64(rows*cols-1)/7; math.Abs(got-want) > 1e-7 {
		t.Errorf("last value %v, want %v", got, want)
	}
	if tb.Features[cols-1] != fmt.Sprintf("g%d", cols-1) {
		t.Errorf("last feature %q", tb.Features[cols-1])
	}

	// Over the limit: refused, naming the line and the limit; a smaller
	// limit given applies.
	small := Options{MaxLineBytes: len(in) / (rows + 1) / 2}
	if _, err := ReadCSV(context.Background(), strings.NewReader(in), "wide.csv", small); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "wide.csv:1") || !strings.Contains(err.Error(), strconv.Itoa(small.MaxLineBytes)) {
		t.Errorf("limit %d: err = %v, want ErrTooLarge naming line 1 and the limit", small.MaxLineBytes, err)
	}
	if !testing.Short() {
		over := "x,y\n1,2\n" + strings.Repeat("1,", DefaultMaxTableLineBytes/2) + "1\n"
		_, err := ReadCSV(context.Background(), strings.NewReader(over), "over.csv", Options{})
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "over.csv:3") || !strings.Contains(err.Error(), strconv.Itoa(DefaultMaxTableLineBytes)) {
			t.Errorf("a line over DefaultMaxTableLineBytes: err = %v, want ErrTooLarge naming line 3 and the limit", err)
		}
	}

	// A file of one line longer than 1 MiB, alone or among blank lines.
	one := strings.Repeat("0.5,", 1<<19)
	for _, in := range []string{one, "\n\n" + one + "\n \n"} {
		_, err := ReadCSV(context.Background(), strings.NewReader(in), "one.csv", Options{})
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "only line") {
			t.Errorf("one long line: err = %v, want ErrTooLarge", err)
		}
	}
}

// TestTableLineLimitMemory: the larger limit of feature tables costs no
// memory in reading an ordinary file, whose size the reader knows or not
// (a pipe): the same bytes are allocated as with the 1 MiB limit of the
// other readers, within 64 KiB.
func TestTableLineLimitMemory(t *testing.T) {
	row := "0.123456,0.234567,0.345678,0.456789,a\n"
	in := "x1,x2,x3,x4,c\n" + strings.Repeat(row, 20_000)
	for _, pipe := range []bool{false, true} {
		read := func(opt Options) uint64 {
			return testmem.Allocated(func() {
				var r io.Reader = strings.NewReader(in)
				if pipe {
					r = io.MultiReader(r) // hides the size
				}
				if _, err := ReadCSV(context.Background(), r, "f.csv", opt); err != nil {
					t.Fatal(err)
				}
			})
		}
		old := read(Options{MaxLineBytes: DefaultMaxLineBytes})
		now := read(Options{})
		t.Logf("pipe %v: %d bytes with the 1 MiB limit, %d with the default", pipe, old, now)
		if now > old+64<<10 {
			t.Errorf("pipe %v: %d bytes allocated, %d with the 1 MiB limit", pipe, now, old)
		}
	}
}
