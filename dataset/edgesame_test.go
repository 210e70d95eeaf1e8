package dataset

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// randomGraphText returns a small edge list or Matrix Market text drawn
// from rng, well formed or not: tokens of every kind the readers tell
// apart (integers, names, decimals, header words, quotes), comments,
// blank lines, the three line endings, byte order marks and NUL bytes.
func randomGraphText(rng *rand.Rand, mtx bool) string {
	tokens := []string{"0", "1", "2", "3", "4", "7", "-1", "01", "+3", "99999999999999999999", "2147483648", "a", "b", "c", "a b", "source", "target", "from", "to", "weight", "1.5", "0.0e+00", "1e400", "Inf", "NaN", "", `"x"`, `"y z"`, `"q`, " 2", "1e-400", "-0.5", "0", "1", "2"}
	weights := []string{"1", "0.5", "2", "0", "3", "-1", "1e-400", "Inf", "x", "1e400", "2.5", "7"}
	seps := []string{" ", "\t", ",", ";", "  "}
	ends := []string{"\n", "\n", "\n", "\r\n", "\r"}
	var b strings.Builder
	if rng.IntN(20) == 0 {
		b.WriteString(textlineBOM)
	}
	sep := seps[rng.IntN(len(seps))]
	end := ends[rng.IntN(len(ends))]
	lines := rng.IntN(12)
	if mtx {
		syms := []string{"general", "symmetric", "skew-symmetric"}
		fields := []string{"real", "integer", "pattern", "complex"}
		if rng.IntN(15) != 0 {
			fmt.Fprintf(&b, "%%%%MatrixMarket matrix coordinate %s %s%s", fields[rng.IntN(len(fields))], syms[rng.IntN(len(syms))], end)
		}
		n := rng.IntN(6)
		if rng.IntN(10) != 0 {
			fmt.Fprintf(&b, "%d %d %d%s", n, n+rng.IntN(4)/3, rng.IntN(lines+2), end)
		}
		for k := 0; k < lines; k++ {
			switch rng.IntN(12) {
			case 0:
				b.WriteString("% comment")
			case 1:
			default:
				i, j := rng.IntN(n+2), rng.IntN(n+2)
				fmt.Fprintf(&b, "%d %d", i, j)
				if rng.IntN(6) != 0 {
					b.WriteString(" " + weights[rng.IntN(len(weights))])
				}
				if rng.IntN(20) == 0 {
					b.WriteString(" 9")
				}
			}
			b.WriteString(end)
		}
	} else {
		if rng.IntN(8) == 0 {
			fmt.Fprintf(&b, edgeListHeader+"%s", rng.IntN(9), end)
		}
		if rng.IntN(30) == 0 {
			b.WriteString("%%MatrixMarket matrix coordinate real general" + end)
		}
		if rng.IntN(6) == 0 {
			h := [][]string{{"source", "target"}, {"from", "to", "weight"}, {"u", "v"}, {"a", "b"}, {"x", "y", "z"}}[rng.IntN(5)]
			b.WriteString(strings.Join(h, sep) + end)
		}
		weighted := rng.IntN(2) == 0
		named := rng.IntN(3) == 0
		for k := 0; k < lines; k++ {
			switch rng.IntN(14) {
			case 0:
				b.WriteString("# comment")
			case 1:
				b.WriteString("  ")
			case 2:
				// Any tokens at all.
				for f := rng.IntN(5); f > 0; f-- {
					b.WriteString(tokens[rng.IntN(len(tokens))])
					if f > 1 {
						b.WriteString(sep)
					}
				}
			default:
				var a, c string
				if named {
					a, c = string(rune('a'+rng.IntN(6))), string(rune('a'+rng.IntN(6)))
				} else {
					a, c = fmt.Sprint(rng.IntN(7)), fmt.Sprint(rng.IntN(7))
				}
				if rng.IntN(15) == 0 {
					a = tokens[rng.IntN(len(tokens))]
				}
				b.WriteString(a + sep + c)
				if weighted != (rng.IntN(25) == 0) {
					b.WriteString(sep + weights[rng.IntN(len(weights))])
				}
			}
			b.WriteString(end)
		}
	}
	s := b.String()
	if rng.IntN(25) == 0 && len(s) > 0 {
		k := rng.IntN(len(s))
		s = s[:k] + "\x00" + s[k:]
	}
	if rng.IntN(4) == 0 && len(s) > 0 {
		s = strings.TrimRight(s, "\r\n") // no final line ending
	}
	return s
}

// textlineBOM is the UTF-8 byte order mark.
const textlineBOM = "\ufeff"

// randomGraphOptions returns GraphOptions drawn from rng that change
// what the edge-list and Matrix Market readers do.
func randomGraphOptions(rng *rand.Rand) GraphOptions {
	var o GraphOptions
	o.NamedNodes = rng.IntN(5) == 0
	o.Base = IndexBase(rng.IntN(3))
	if rng.IntN(4) == 0 {
		o.NumNodes = rng.IntN(9)
	}
	o.Duplicates = DupPolicy(rng.IntN(3))
	o.DropSelfLoops = rng.IntN(4) == 0
	o.Symmetrize = rng.IntN(3) == 0
	if rng.IntN(6) == 0 {
		o.MaxNodes = 1 + rng.IntN(6)
	}
	if rng.IntN(8) == 0 {
		o.MaxLineBytes = 3 + rng.IntN(10)
	}
	if rng.IntN(5) == 0 {
		o.Spelling = Spelling{Front: "tether", CommandLine: true}
	}
	return o
}

// sameGraphData reports how got and want differ ("" when they do not):
// the graph (nodes, rows and weights), names, base, header line and
// warnings, or the error's text and sentinels.
func sameGraphData(got *GraphData, gotErr error, want *GraphData, wantErr error) string {
	if (gotErr != nil) != (wantErr != nil) {
		return fmt.Sprintf("error %v, want %v", gotErr, wantErr)
	}
	if wantErr != nil {
		if gotErr.Error() != wantErr.Error() {
			return fmt.Sprintf("error\n%q, want\n%q", gotErr, wantErr)
		}
		for _, s := range []error{ErrSyntax, ErrInvalid, ErrTooLarge, context.Canceled} {
			if errors.Is(gotErr, s) != errors.Is(wantErr, s) {
				return fmt.Sprintf("error %v: errors.Is(%v) differs", gotErr, s)
			}
		}
		return ""
	}
	if got.G.N() != want.G.N() {
		return fmt.Sprintf("%d nodes, want %d", got.G.N(), want.G.N())
	}
	for i := 0; i < want.G.N(); i++ {
		gi, gw := got.G.Row(i)
		wi, ww := want.G.Row(i)
		if !slices.Equal(gi, wi) || !slices.Equal(gw, ww) {
			return fmt.Sprintf("row %d: %v %v, want %v %v", i, gi, gw, wi, ww)
		}
	}
	if !slices.Equal(got.Names, want.Names) || (got.Names == nil) != (want.Names == nil) {
		return fmt.Sprintf("names %q, want %q", got.Names, want.Names)
	}
	if got.Base != want.Base || got.HeaderLine != want.HeaderLine {
		return fmt.Sprintf("base %d, header %d, want %d, %d", got.Base, got.HeaderLine, want.Base, want.HeaderLine)
	}
	if !slices.Equal(got.Warnings, want.Warnings) {
		return fmt.Sprintf("warnings\n%q, want\n%q", got.Warnings, want.Warnings)
	}
	return ""
}

// readers gives the text to the reader whole, a byte at a time, and by
// halves of each read, so that lines and line endings fall across reads.
var readers = []struct {
	name string
	wrap func(io.Reader) io.Reader
}{
	{"whole", func(r io.Reader) io.Reader { return r }},
	{"bytes", iotest.OneByteReader},
	{"halves", iotest.HalfReader},
}

// TestEdgeListSameAsOld reads 6000 random edge lists and Matrix Market
// files, well formed or not, with random options, by the streaming
// readers and by the readers as they were (oldReadGraph, which read the
// text whole and kept every line): the graphs, names, bases, headers,
// warnings and errors (the first one reported) must be the same, and so
// must DetectEdgeList's answer.
func TestEdgeListSameAsOld(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	files := 6000
	if testing.Short() {
		files = 2000
	}
	for k := 0; k < files; k++ {
		mtx := k%3 == 2
		text := randomGraphText(rng, mtx)
		opt := randomGraphOptions(rng)
		format := []GraphFormat{EdgeList, GraphAuto, MatrixMarket}[rng.IntN(3)]
		if mtx && format == EdgeList {
			format = MatrixMarket
		}
		// By name, a .csv file is read whole and its format told by its
		// lines (DetectCSVGraph), and so is a .gml one (GML, or Matrix
		// Market by its banner).
		name := []string{"g.txt", "g.mtx", "g.csv", "g.edges", "g.gml"}[rng.IntN(5)]
		for _, rd := range readers {
			// The old reader too reads by rd: where a read ends decides
			// which of two messages a long line has (textline.Reader's,
			// textline.Lines's).
			want, wantErr := oldReadGraph(context.Background(), rd.wrap(strings.NewReader(text)), name, format, opt)
			got, err := ReadGraph(context.Background(), rd.wrap(strings.NewReader(text)), name, format, opt)
			if d := sameGraphData(got, err, want, wantErr); d != "" {
				t.Fatalf("file %d (%s, format %v, %s reads, options %+v):\n%q\n%s", k, name, format, rd.name, opt, text, d)
			}
			isEdges, err := DetectEdgeList(context.Background(), rd.wrap(strings.NewReader(text)), name)
			wasEdges, wantErr := oldDetectEdgeList(context.Background(), rd.wrap(strings.NewReader(text)), name)
			if isEdges != wasEdges || fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("file %d (%s reads): DetectEdgeList = %v, %v; it was %v, %v:\n%q", k, rd.name, isEdges, err, wasEdges, wantErr, text)
			}
		}
	}
}

// FuzzGraphSameAsOld reads the fuzzed text as an edge list, as a Matrix
// Market file and by its name, with options from the fuzzed bits, by the
// streaming readers and by the readers as they were (oldReadGraph): the
// graphs, names, warnings and errors must be the same.
func FuzzGraphSameAsOld(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 6))
	for k := 0; k < 40; k++ {
		f.Add(randomGraphText(rng, k%2 == 1), rng.Uint64())
	}
	f.Fuzz(func(t *testing.T, text string, bits uint64) {
		opt := randomGraphOptions(rand.New(rand.NewPCG(bits, 1)))
		for _, c := range []struct {
			name   string
			format GraphFormat
		}{{"f.txt", EdgeList}, {"f.mtx", MatrixMarket}, {"f.edges", GraphAuto}} {
			rd := readers[bits%uint64(len(readers))]
			want, wantErr := oldReadGraph(context.Background(), rd.wrap(strings.NewReader(text)), c.name, c.format, opt)
			got, err := ReadGraph(context.Background(), rd.wrap(strings.NewReader(text)), c.name, c.format, opt)
			if d := sameGraphData(got, err, want, wantErr); d != "" {
				t.Fatalf("%s (%v, %s reads, options %+v):\n%q\n%s", c.name, c.format, rd.name, opt, text, d)
			}
		}
	})
}

// TestEdgeListSameAsOldLarge: files of thousands of entries, which the
// random files of TestEdgeListSameAsOld (at most a dozen lines) never
// reach, so that the sort of the entries (ctxsort.InPlace, which the old
// reader's ctxsort.ByKey was) runs its radix levels and not only its
// insertion sort: integer and named edge lists, and Matrix Market files
// general (pairing each entry with its mirror) and symmetric, on few
// nodes (many repeats, which DupSum adds in the file's order, a float
// sum that depends on it) and on many, weighted with values whose sums
// round, under each Duplicates policy and with Symmetrize. The graphs,
// warnings and errors must be those of oldReadGraph.
func TestEdgeListSameAsOldLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	weights := []string{"0.1", "0.2", "0.3", "1e-17", "1", "3.3", "7e15"}
	for _, m := range []int{65, 1000, 20000} {
		for _, n := range []int{3, 40, 5000} {
			for _, kind := range []string{"ints", "named", "general", "symmetric"} {
				var b strings.Builder
				mtx := kind == "general" || kind == "symmetric"
				if mtx {
					fmt.Fprintf(&b, "%%%%MatrixMarket matrix coordinate real %s\n%d %d %d\n", kind, n, n, m)
				}
				for k := 0; k < m; k++ {
					i, j := rng.IntN(n), rng.IntN(n)
					w := weights[rng.IntN(len(weights))]
					switch kind {
					case "ints":
						fmt.Fprintf(&b, "%d %d %s\n", i, j, w)
					case "named":
						fmt.Fprintf(&b, "v%d v%d %s\n", i, j, w)
					case "general":
						fmt.Fprintf(&b, "%d %d %s\n", i+1, j+1, w)
					default:
						fmt.Fprintf(&b, "%d %d %s\n", max(i, j)+1, min(i, j)+1, w)
					}
				}
				text, name := b.String(), "g.txt"
				if mtx {
					name = "g.mtx"
				}
				for _, opt := range []GraphOptions{{}, {Duplicates: DupSum}, {Duplicates: DupError}, {Symmetrize: true}, {Duplicates: DupSum, Symmetrize: true, DropSelfLoops: true}} {
					want, wantErr := oldReadGraph(context.Background(), strings.NewReader(text), name, GraphAuto, opt)
					got, err := ReadGraph(context.Background(), strings.NewReader(text), name, GraphAuto, opt)
					if d := sameGraphData(got, err, want, wantErr); d != "" {
						t.Fatalf("%s, %d entries on %d nodes, options %+v: %s", kind, m, n, opt, d)
					}
				}
			}
		}
	}
}
