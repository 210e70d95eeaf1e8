package dataset

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tether-sc/tether/internal/testmem"
	"github.com/tether-sc/tether/internal/wording"
)

// TestDenseCSVSameAsTableReader: the streaming dense reader
// (parseDenseCSV, denseUpper) gives what the reader it replaced gave,
// oldParseDenseCSV below (the table reader's parseDelimited, every
// nonzero entry, then assemble), on 12 000 small random matrix files (3000 with -short):
// headers of names or of pandas' column numbers, comments, blank lines,
// four delimiters, a trailing delimiter, quoted cells, zeros, asymmetric
// entries (within and beyond the tolerance), bad weights, lines of the
// wrong length, rows too many or too few, 1 to 6 nodes and, one file in
// five, 45 to 64 (past the 50 rows the header rule reads); with
// Symmetrize, DropSelfLoops,
// SymmetryTol and MaxNodes varied. The same error text, or the same
// graph (entries and weights exactly), names, warnings and header line.
func TestDenseCSVSameAsTableReader(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	trials := 12000
	if testing.Short() {
		trials = 3000
	}
	for trial := range trials {
		n := 1 + rng.IntN(6)
		if trial%5 == 0 {
			n = 45 + rng.IntN(20) // past the 50 rows of the header rule
		}
		delim := pick(",", ";", "\t", " ")
		a := make([][]string, n)
		for i := range a {
			a[i] = make([]string, n)
		}
		for i := range n {
			for j := i; j < n; j++ {
				v := pick("0", "0", "0", "1", "2.5", "0.125", "3e2", "0.0", "7")
				a[i][j], a[j][i] = v, v
				switch r := rng.IntN(max(40, 6*n*n)); {
				case r == 0:
					a[j][i] = pick("0", "1", "2.5000000001", "2.6", "9")
				case r == 1:
					a[j][i] = pick("-1", "abc", "1e-400", "", "NaN", "-0")
				case r == 2:
					a[i][j] = `"` + v + `"`
				}
			}
		}
		var lines []string
		if rng.IntN(6) == 0 {
			lines = append(lines, pick("# comment", "% another"))
		}
		switch rng.IntN(5) {
		case 0:
			names := make([]string, n)
			for j := range names {
				names[j] = pick("a", "b", "node", "x y", "") + fmt.Sprint(j%3)
				if n > 6 {
					names[j] = pick("a", "b", "node", "x y") + fmt.Sprint(j%3)
				}
			}
			lines = append(lines, strings.Join(names, delim))
		case 1:
			names := make([]string, n)
			for j := range names {
				names[j] = fmt.Sprint(j)
			}
			lines = append(lines, strings.Join(names, delim))
		}
		rows := n
		switch rng.IntN(20) {
		case 0:
			rows = n + 1
		case 1:
			rows = n - 1
		}
		trail := rng.IntN(8) == 0
		for i := range rows {
			row := a[i%n]
			if rng.IntN(60*n) == 0 {
				row = row[:len(row)-1]
			}
			l := strings.Join(row, delim)
			if trail {
				l += delim
			}
			lines = append(lines, l)
			if rng.IntN(15*n) == 0 {
				lines = append(lines, pick("", "  ", "# c"))
			}
		}
		opt := GraphOptions{Symmetrize: rng.IntN(3) == 0, DropSelfLoops: rng.IntN(4) == 0}
		opt.SymmetryTol = []float64{0, 0, -1, 0.05, 2}[rng.IntN(5)]
		if rng.IntN(10) == 0 {
			opt.MaxNodes = []int{3, 50}[rng.IntN(2)]
		}
		text := strings.Join(lines, "\n") + "\n"
		got, gerr := parseDenseCSV(context.Background(), strings.Split(text, "\n"), "m.csv", &opt)
		want, werr := oldParseDenseCSV(context.Background(), strings.Split(text, "\n"), "m.csv", &opt)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Fatalf("trial %d, options %+v, file\n%s\nerror %v\nwant %v", trial, opt, text, gerr, werr)
		}
		if werr != nil {
			continue
		}
		if d := denseDiff(got, want); d != "" {
			t.Fatalf("trial %d, options %+v, file\n%s\n%s", trial, opt, text, d)
		}
	}
}

// denseText returns an n×n symmetric matrix as CSV: a share density
// (in %) of its entries nonzero, written 0.001 to 1.000, the others 0.
func denseText(n, density int) []byte {
	var b bytes.Buffer
	for i := range n {
		for j := range n {
			if j > 0 {
				b.WriteByte(',')
			}
			h := (min(i, j)*7919 + max(i, j)*104729) % 1000
			if h%100 >= density {
				b.WriteString("0")
			} else {
				fmt.Fprintf(&b, "%d.%03d", (h+1)/1000, (h+1)%1000)
			}
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// TestDenseCSVMemory: the dense reader's memory is O(nnz), not a
// multiple of the file of strings and entries. Reading (ReadGraph, the
// lines included) an 8.2 MiB matrix of 1200×1200 nonzero entries
// ("0.123", the most entries for its size) allocated 60 times the file
// in all and peaked at 28 times it; 50 % zeros (1450 nodes), 52 and 27
// times; now 7.9 and 6.5 times in all, measured here as
// runtime.MemStats.TotalAlloc, which must stay below 12 times the file
// (the graph alone is 12 bytes an entry, 2 of the file's 6). With
// MaxDenseEntries = 100 000 the read stops once past them, an error
// wrapping ErrTooLarge naming the line (rows 0…41 store 42·(2·1200 − 42)
// = 99 036 entries, row 42, line 43, passes the limit), having allocated
// less than 5 times the file (4.2 measured: reading the text and cutting
// its lines, about 3 times, the format's detection, the first 50 rows
// split, 1.2 MB of edges).
func TestDenseCSVMemory(t *testing.T) {
	text := denseText(1200, 100)
	measure := func(opt GraphOptions) (*GraphData, float64, error) {
		var d *GraphData
		var err error
		got := testmem.Allocated(func() { d, err = ReadGraph(context.Background(), bytes.NewReader(text), "m.csv", GraphAuto, opt) })
		return d, float64(got) / float64(len(text)), err
	}
	d, ratio, err := measure(GraphOptions{})
	if err != nil || d.G.NNZ() != 1200*1200 {
		t.Fatalf("read: %v; want a graph of 1 440 000 entries", err)
	}
	t.Logf("%d bytes: %.1f times allocated", len(text), ratio)
	if ratio > 12 {
		t.Errorf("reading a dense matrix of %d bytes allocated %.1f times its size, want at most 12", len(text), ratio)
	}
	_, ratio, err = measure(GraphOptions{MaxDenseEntries: 100000})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "m.csv:43: input too large: the matrix has more than 100000 nonzero entries by this line, the limit GraphOptions.MaxDenseEntries") {
		t.Errorf("MaxDenseEntries 100 000: %v; want ErrTooLarge naming line 43", err)
	}
	if ratio > 5 {
		t.Errorf("refused at MaxDenseEntries 100 000 after allocating %.1f times the file, want at most 5", ratio)
	}
}

// FuzzDenseCSV checks the streaming dense reader against the one it
// replaced (oldParseDenseCSV) on any text: the same error text, or the
// same graph, names, warnings and header line, under four option sets.
func FuzzDenseCSV(f *testing.F) {
	for _, s := range []string{
		"0,1\n1,0\n",
		"a,b,c\n0,1,2\n1,0,3\n2,3,0\n",
		"0,1,2\n0,1,0\n1,0,1\n0,1,0\n",
		"# x\n1;2\n2;1;\n",
		"0 2.5 0\n2.5000001 0 1\n0 1 0\n",
		"\"1\",0\n0,-0\n",
		"1e-400,1\n1,0\n",
	} {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, text string, flags uint8) {
		opt := GraphOptions{Symmetrize: flags&1 != 0, DropSelfLoops: flags&2 != 0, MaxNodes: 64}
		if flags&4 != 0 {
			opt.SymmetryTol = 0.5
		}
		lines := strings.Split(text, "\n")
		got, gerr := parseDenseCSV(context.Background(), lines, "m.csv", &opt)
		want, werr := oldParseDenseCSV(context.Background(), lines, "m.csv", &opt)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Fatalf("error %v\nwant %v", gerr, werr)
		}
		if werr == nil {
			if d := denseDiff(got, want); d != "" {
				t.Fatal(d)
			}
		}
	})
}

// denseDiff describes how a and b differ, "" when they do not.
func denseDiff(a, b *GraphData) string {
	if a.G.N() != b.G.N() || a.G.NNZ() != b.G.NNZ() {
		return fmt.Sprintf("%d nodes, %d entries; want %d, %d", a.G.N(), a.G.NNZ(), b.G.N(), b.G.NNZ())
	}
	for i := range a.G.N() {
		ai, aw := a.G.Row(i)
		bi, bw := b.G.Row(i)
		if !slices.Equal(ai, bi) || !slices.Equal(aw, bw) {
			return fmt.Sprintf("row %d: %v %v; want %v %v", i, ai, aw, bi, bw)
		}
	}
	if !slices.Equal(a.Names, b.Names) || !slices.Equal(a.Warnings, b.Warnings) || a.HeaderLine != b.HeaderLine {
		return fmt.Sprintf("names %q, warnings %q, header line %d; want %q, %q, %d", a.Names, a.Warnings, a.HeaderLine, b.Names, b.Warnings, b.HeaderLine)
	}
	return ""
}

// oldParseDenseCSV is the dense reader as it was before it streamed
// (commit c8959609), kept as the reference of the test above.
// parseDenseCSV implements the dense affinity reader of ReadGraph.
func oldParseDenseCSV(ctx context.Context, lines []string, name string, opt *GraphOptions) (*GraphData, error) {
	orig := lines
	// Comment lines (# or %) are skipped, as detectCSVGraph skips them:
	// blanked, so that the lines keep their numbers (a "% my, matrix"
	// line named the nodes; review 114).
	var blanked []string
	for i, l := range lines {
		if !isBlank(l) && !dataLine(l) {
			if blanked == nil {
				blanked = slices.Clone(lines)
			}
			blanked[i] = ""
		}
	}
	if blanked != nil {
		lines = blanked
	}
	if c, _ := indexHeader(lines); c > 0 {
		// pandas' column numbers 0, 1, …, c−1 above the c rows: a header
		// of numbers, which the table reader takes for a row.
		if blanked == nil {
			lines = slices.Clone(lines)
		}
		for i, l := range lines {
			if !isBlank(l) {
				lines[i] = ""
				break
			}
		}
	}
	topt := Options{MissingMarkers: []string{}}
	raw, err := parseDelimited(ctx, lines, name, &topt, nil)
	if err != nil {
		return nil, err
	}
	n := len(raw.cols)
	if n > opt.maxNodes() {
		return nil, &ParseError{File: name, Err: errorf(ErrTooLarge, "%d nodes exceed GraphOptions.MaxNodes = %d%s", n, opt.maxNodes(), paren(opt.Spelling.maxNodes()))}
	}
	if len(raw.rows) != n {
		return nil, &ParseError{File: name, Err: errorf(ErrInvalid, "%s and %s: an affinity matrix must be square (if the file is an edge list, set GraphOptions.Format%s)", wording.Count(len(raw.rows), "row", "rows"), wording.Count(n, "column", "columns"), formatFix(opt.Spelling, "edgelist"))}
	}
	var ents []entry
	for i, row := range raw.rows {
		for j, s := range row {
			w, err := checkWeightText(s)
			if err != nil {
				return nil, &ParseError{File: name, Line: raw.lines[i], Column: j + 1, Value: s, Err: err}
			}
			if w != 0 {
				ents = append(ents, entry{i: int32(i), j: int32(j), w: w, line: raw.lines[i]})
			}
		}
	}
	// Every (i,j) is listed with its mirror, so duplicates cannot occur:
	// the directed assembly checks symmetry or averages.
	o := *opt
	o.Duplicates = DupSum
	g, _, err := assemble(ctx, name, n, ents, &o, directed, nil)
	if err != nil {
		return nil, namedOverflow(err, name, func(i int) string {
			if raw.named {
				return raw.cols[i].name
			}
			return strconv.Itoa(i)
		})
	}
	d := &GraphData{G: g}
	if !raw.named {
		if line, text := commentedHeader(orig, n); line > 0 {
			d.Warnings = append(d.Warnings, fmt.Sprintf("%s:%d: the comment %s has %d fields, none a number, as many as the matrix has columns: if they name the nodes, remove the %q (a comment is not read, so the nodes are numbered 0…%d)", name, line, quote(text), n, text[:1], n-1))
		}
	}
	if raw.named {
		for _, c := range raw.cols {
			d.Names = append(d.Names, c.name)
		}
		// The header's line: the first line that is not blank (comments
		// are blanked above).
		header := 1
		for i, l := range lines {
			if !isBlank(l) {
				header = i + 1
				break
			}
		}
		// Names that cannot key the nodes (empty, repeated) make the
		// labels files number them, which GML warns of and the dense
		// reader did not (review 123).
		if i, j := keyNamesClash(d.Names); i >= 0 {
			why := fmt.Sprintf("column %d's is empty", i+1)
			if j >= 0 {
				why = fmt.Sprintf("column %d's, %s, repeats column %d's", i+1, quote(strings.TrimSpace(d.Names[i])), j+1)
			}
			d.Warnings = append(d.Warnings, fmt.Sprintf("%s:%d: the header's node names cannot name the nodes: %s, so %s (make the names distinct and non-empty to name them)", name, header, why, keyClashSo("nodes", opt.Spelling)))
		}
	}
	return d, nil
}
