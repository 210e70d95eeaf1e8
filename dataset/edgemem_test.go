package dataset

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/testmem"
)

// benchEdgeList returns an integer edge list of m edges "i\tj" on nodes
// 0…n−1 drawn with a fixed seed, as SNAP writes them (a comment line
// first), and, with mtx, the same edges as a Matrix Market general
// pattern file.
func benchEdgeList(m, n int, mtx bool) string {
	rng := rand.New(rand.NewPCG(3, 4))
	var b strings.Builder
	if mtx {
		fmt.Fprintf(&b, "%%%%MatrixMarket matrix coordinate pattern symmetric\n%d %d %d\n", n, n, m)
	} else {
		b.WriteString("# Nodes: ... Edges: ...\n")
	}
	for k := 0; k < m; k++ {
		i, j := rng.IntN(n), rng.IntN(n)
		if mtx {
			i, j = max(i, j)+1, min(i, j)+1
		}
		fmt.Fprintf(&b, "%d\t%d\n", i, j)
	}
	return b.String()
}

func BenchmarkReadEdgeList(b *testing.B) {
	in := benchEdgeList(1_000_000, 100_000, false)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d, err := ReadGraph(context.Background(), strings.NewReader(in), "bench.txt", EdgeList, GraphOptions{})
		if err != nil {
			b.Fatal(err)
		}
		sinkGraph = d
	}
}

func BenchmarkReadMatrixMarket(b *testing.B) {
	in := benchEdgeList(1_000_000, 100_000, true)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d, err := ReadGraph(context.Background(), strings.NewReader(in), "bench.mtx", MatrixMarket, GraphOptions{})
		if err != nil {
			b.Fatal(err)
		}
		sinkGraph = d
	}
}

// TestMaxEntries: a file with more edges than GraphOptions.MaxEntries is
// refused at the first line past it, with an error wrapping ErrTooLarge,
// and the rest is not read (the NUL byte after it, which reading it
// would report, is not).
func TestMaxEntries(t *testing.T) {
	for _, c := range []struct {
		name, text string
		format     GraphFormat
		line       int
	}{
		{"e.txt", "# c\n0 1\n1 2\n2 3\n3 4\n", EdgeList, 5},
		{"e.csv", "0,1\n1,2\n2,3\n3,4\n", EdgeList, 4},
		{"e.mtx", "%%MatrixMarket matrix coordinate pattern general\n5 5 4\n1 2\n2 1\n3 4\n4 3\n", MatrixMarket, 6},
		{"e.mtx", "%%MatrixMarket matrix coordinate pattern general\n5 5 4\n1 2\n2 1\n3 4\n4 3\n", GraphAuto, 6},
	} {
		// The NUL byte comes in a read of its own, after the text's.
		r := io.MultiReader(strings.NewReader(c.text), strings.NewReader("\x00"))
		_, err := ReadGraph(context.Background(), r, c.name, c.format, GraphOptions{MaxEntries: 3})
		want := fmt.Sprintf("%s:%d: input too large: the file has more than 3 ", c.name, c.line)
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s (%v): err = %v, want ErrTooLarge saying %q", c.name, c.format, err, want)
		}
		// Within the limit, the file reads.
		if _, err := ReadGraph(context.Background(), strings.NewReader(c.text), c.name, c.format, GraphOptions{MaxEntries: 4}); err != nil {
			t.Errorf("%s (%v) with 4 edges allowed: %v", c.name, c.format, err)
		}
	}
}

// TestEdgeListMemory bounds what reading an edge list allocates beyond
// the graph it returns (what graph.FromEdges allocates for the same edges,
// measured here): per edge read, and as a multiple of the file.
func TestEdgeListMemory(t *testing.T) {
	const m, n = 200_000, 20_000
	for _, c := range []struct {
		format  GraphFormat
		name    string
		perEdge float64 // bytes an edge beyond the graph
		file    bool    // read from a file (its size by Stat)
		named   bool    // nodes named "n" and their number
	}{
		// Measured: 244 and 187 bytes an edge when the text was read
		// whole and every line kept; 50 and 49 streaming (an entry of
		// 24 bytes, the sort's copy of it, and the rest); 25.7 and 24.5
		// sorted in place (ctxsort.InPlace: the entry and its room to
		// grow, and the rest). Named nodes (20 000 names): 75.6 with the
		// sort's copy, 51.1 in place (their tokens and map beside).
		{EdgeList, "edges.txt", 30, false, false},
		{MatrixMarket, "edges.mtx", 30, false, false},
		{EdgeList, "file.txt", 30, true, false},
		{EdgeList, "named.txt", 60, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := benchEdgeList(m, n, c.format == MatrixMarket)
			if c.named {
				in = strings.TrimSuffix(strings.NewReplacer("\t", "\tn", "\n", "\nn").Replace(in), "n")
			}
			path := filepath.Join(t.TempDir(), c.name)
			if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
				t.Fatal(err)
			}
			var d *GraphData
			total := testmem.Allocated(func() {
				var err error
				if c.file {
					d, err = ReadGraphFileOptions(context.Background(), path, GraphOptions{})
				} else {
					d, err = ReadGraph(context.Background(), strings.NewReader(in), c.name, c.format, GraphOptions{})
				}
				if err != nil {
					t.Fatal(err)
				}
			})
			g := graphAllocated(t, d.G)
			peak := testmem.PeakHeap(func() {
				if _, err := ReadGraph(context.Background(), strings.NewReader(in), c.name, c.format, GraphOptions{}); err != nil {
					t.Fatal(err)
				}
			})
			oldPeak := testmem.PeakHeap(func() {
				if _, err := oldReadGraph(context.Background(), strings.NewReader(in), c.name, c.format, GraphOptions{}); err != nil {
					t.Fatal(err)
				}
			})
			t.Logf("%s: peak heap growth %d bytes, %.1f× the file (the old reader: %.1f×; HeapAlloc, which counts garbage until the collector runs)", c.name, peak, float64(peak)/float64(len(in)), float64(oldPeak)/float64(len(in)))
			per := float64(total-g) / m
			t.Logf("%s: %d bytes (%.1f× the %d-byte file), the graph %d: %.1f bytes an edge beyond the graph", c.name, total, float64(total)/float64(len(in)), len(in), g, per)
			if per > c.perEdge {
				t.Errorf("%.1f bytes an edge beyond the graph, want ≤ %.0f", per, c.perEdge)
			}
		})
	}
}

// graphAllocated returns what graph.FromEdges allocates to build g again
// from its edges, each once (i ≤ j). Cost: that of the build.
func graphAllocated(t *testing.T, g *graph.Graph) uint64 {
	t.Helper()
	var edges []graph.Edge
	for i := 0; i < g.N(); i++ {
		idx, w := g.Row(i)
		for k, j := range idx {
			if int(j) >= i {
				edges = append(edges, graph.Edge{I: i, J: int(j), W: w[k]})
			}
		}
	}
	return testmem.Allocated(func() {
		if _, err := graph.FromEdges(g.N(), edges); err != nil {
			t.Fatal(err)
		}
	})
}

// TestReadAllMemory: readAll of an input whose size it can tell (a
// bytes.Reader, a regular file) allocates the input once and a string
// header a line; it read it in growing copies (io.ReadAll, about twice
// the input in all) and converted it to a string, a copy more.
func TestReadAllMemory(t *testing.T) {
	text := []byte(benchEdgeList(100_000, 1000, false))
	lines := 100_001
	path := filepath.Join(t.TempDir(), "e.txt")
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	bound := uint64(len(text) + 16*lines + 64<<10)
	for _, c := range []struct {
		name string
		open func() (io.Reader, func())
	}{
		{"bytes.Reader", func() (io.Reader, func()) { return bytes.NewReader(text), func() {} }},
		{"file", func() (io.Reader, func()) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			return f, func() { f.Close() }
		}},
	} {
		r, done := c.open()
		var got []string
		n := testmem.Allocated(func() {
			var err error
			if got, err = readAll(context.Background(), r, c.name, 0); err != nil {
				t.Fatal(err)
			}
		})
		done()
		if len(got) != lines {
			t.Fatalf("%s: %d lines, want %d", c.name, len(got), lines)
		}
		t.Logf("%s: %d bytes allocated for %d bytes in %d lines", c.name, n, len(text), lines)
		if n > bound {
			t.Errorf("%s: %d bytes allocated, want at most %d (the input, 16 bytes a line and 64 KiB)", c.name, n, bound)
		}
	}
}

// TestReadErrorFirst: lines that came in the read that failed are not
// read as lines: the read's error is the answer, as when the text was
// read whole first, even where a line's error (more edges than
// MaxEntries) would stop the read at once.
func TestReadErrorFirst(t *testing.T) {
	text := "0 1\n1 2\n2 3\n\x00"
	for _, format := range []GraphFormat{GraphAuto, EdgeList} {
		_, err := ReadGraph(context.Background(), strings.NewReader(text), "e.txt", format, GraphOptions{MaxEntries: 1})
		if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "e.txt:4: syntax error: NUL byte at byte 13") {
			t.Errorf("%v: err = %v, want the NUL byte on line 4", format, err)
		}
	}
}

// TestMatrixMarketRoomFollowsTheEntries: the room for a Matrix Market
// file's entries follows the entries read, not the count its size line
// declares (10⁸ here, 2.4 GB of entries), nor a bound from the file's
// size.
func TestMatrixMarketRoomFollowsTheEntries(t *testing.T) {
	text := "%%MatrixMarket matrix coordinate pattern symmetric\n20000 20000 100000000\n2 1\n3 2\n" + strings.Repeat("% a long comment line\n", 50_000)
	n := testmem.Allocated(func() {
		_, err := ReadGraph(context.Background(), strings.NewReader(text), "big.mtx", GraphAuto, GraphOptions{})
		if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "2 entries, the size line declares 100000000") {
			t.Errorf("err = %v, want the count of entries refused", err)
		}
	})
	if n > 256<<10 {
		t.Errorf("%d bytes allocated for 2 entries, want at most 256 KiB", n)
	}
}
