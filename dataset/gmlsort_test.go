package dataset

// assemble sorts entries whose lines share a line (GML edges) in place,
// with the entry's rank on its line in the line field; oldAssemble
// (oldedgelist_test.go), which sorts a copy stably with ctxsort.ByKey, is
// the oracle: the same graphs, bit for bit, warnings and errors.

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/testmem"
)

// sameGraph reports how g and want differ ("" when they do not): node
// count, neighbours and weights bit for bit.
func sameGraph(g, want *graph.Graph) string {
	if (g == nil) != (want == nil) {
		return fmt.Sprintf("graph %v, want %v", g != nil, want != nil)
	}
	if g == nil {
		return ""
	}
	if g.N() != want.N() {
		return fmt.Sprintf("%d nodes, want %d", g.N(), want.N())
	}
	for i := 0; i < g.N(); i++ {
		idx, w := g.Row(i)
		wantIdx, wantW := want.Row(i)
		if !reflect.DeepEqual(idx, wantIdx) {
			return fmt.Sprintf("row %d: neighbours %v, want %v", i, idx, wantIdx)
		}
		for k := range w {
			if math.Float64bits(w[k]) != math.Float64bits(wantW[k]) {
				return fmt.Sprintf("row %d: weight to %d %v (%#x), want %v (%#x)", i, idx[k], w[k], math.Float64bits(w[k]), wantW[k], math.Float64bits(wantW[k]))
			}
		}
	}
	return ""
}

// errText is err's message, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// checkAssembleSameAsOld runs assemble and oldAssemble on copies of ents
// and reports any difference in graph, warning or error through t, and
// whether they gave a graph.
func checkAssembleSameAsOld(t *testing.T, what string, n int, ents []entry, opt GraphOptions, how orientations) bool {
	t.Helper()
	olds := make([]oldEntry, len(ents))
	for k, e := range ents {
		olds[k] = oldEntry{i: int(e.i), j: int(e.j), w: e.w, line: e.line}
	}
	g, dup, err := assemble(context.Background(), "g.gml", n, append([]entry(nil), ents...), &opt, how, nil)
	wantG, wantDup, wantErr := oldAssemble(context.Background(), "g.gml", n, olds, &opt, how, nil)
	if errText(err) != errText(wantErr) {
		t.Errorf("%s: err = %v, want %v", what, err, wantErr)
		return false
	}
	if d := sameGraph(g, wantG); d != "" {
		t.Errorf("%s: %s", what, d)
	}
	if !reflect.DeepEqual(dup, wantDup) {
		t.Errorf("%s: warning %+v, want %+v", what, dup, wantDup)
	}
	return g != nil
}

// sharedLineEntries returns m entries on n nodes drawn with seed, their
// lines non-decreasing with up to perLine entries a line, many of them
// repeating an earlier pair (on the same line or another) with weights
// whose sums depend on their order, some of them 0 or −0, and, when
// seed is a multiple of 3, some large enough that sums overflow.
func sharedLineEntries(seed uint64, m, n, perLine int) []entry {
	rng := rand.New(rand.NewPCG(seed, 99))
	weights := []float64{0.1, 0.2, 0.3, 0.7, 1, 3, math.Copysign(0, -1), 0, 1e308}
	ents := make([]entry, 0, m)
	line := 1
	for len(ents) < m {
		line += 1 + rng.IntN(3)
		for k := 1 + rng.IntN(perLine); k > 0 && len(ents) < m; k-- {
			var i, j int
			if len(ents) > 0 && rng.IntN(2) == 0 {
				// A repeat, either way round, often of the entry just before.
				p := ents[len(ents)-1-rng.IntN(min(len(ents), 5))]
				i, j = int(p.i), int(p.j)
				if rng.IntN(2) == 0 {
					i, j = j, i
				}
			} else {
				i, j = rng.IntN(n), rng.IntN(n)
			}
			w := weights[rng.IntN(len(weights))]
			if w == 1e308 && (seed%3 != 0 || rng.IntN(20) != 0) {
				w = rng.Float64()
			}
			ents = append(ents, entry{i: int32(i), j: int32(j), w: w, line: line})
		}
	}
	return ents
}

// TestAssembleSharedLinesSameAsOld: entries several to a line, as GML
// edges may be, give the graph, the warning and the error of the stable
// sort's assemble for every Duplicates policy, orientation and
// DropSelfLoops.
func TestAssembleSharedLinesSameAsOld(t *testing.T) {
	hand := [][]entry{
		// 0.1 + 0.2 + 0.3 on one line: 0.6000000000000001 in that order.
		{{i: 0, j: 1, w: 0.1, line: 3}, {i: 1, j: 0, w: 0.2, line: 3}, {i: 0, j: 1, w: 0.3, line: 3}, {i: 1, j: 2, w: 1, line: 4}, {i: 0, j: 1, w: 0.7, line: 5}, {i: 2, j: 1, w: 2, line: 5}},
		{{i: 0, j: 1, w: 0.3, line: 3}, {i: 0, j: 1, w: 0.2, line: 3}, {i: 0, j: 1, w: 0.1, line: 3}, {i: 1, j: 0, w: 0.1, line: 3}},
		// Zeros of both signs, under DupMax the first one stays.
		{{i: 0, j: 1, w: math.Copysign(0, -1), line: 2}, {i: 1, j: 0, w: 0, line: 2}, {i: 1, j: 2, w: 0, line: 2}, {i: 2, j: 1, w: math.Copysign(0, -1), line: 2}},
		// Differing, then equal, weights on one line and the next.
		{{i: 2, j: 2, w: 1, line: 1}, {i: 0, j: 2, w: 1, line: 1}, {i: 2, j: 0, w: 2, line: 1}, {i: 0, j: 2, w: 1, line: 1}, {i: 0, j: 2, w: 2, line: 2}, {i: 2, j: 2, w: 3, line: 2}},
		// An overflowing sum, on one line and across two.
		{{i: 0, j: 1, w: 1e308, line: 7}, {i: 1, j: 0, w: 1e308, line: 7}, {i: 0, j: 1, w: 1e308, line: 7}},
		{{i: 0, j: 1, w: 1e308, line: 7}, {i: 0, j: 2, w: 1, line: 7}, {i: 1, j: 0, w: 1e308, line: 8}},
		// A whole file on one line.
		{{i: 0, j: 1, w: 1, line: 1}, {i: 1, j: 2, w: 2, line: 1}, {i: 2, j: 0, w: 3, line: 1}, {i: 1, j: 0, w: 4, line: 1}, {i: 0, j: 2, w: 5, line: 1}},
	}
	cases := map[string][]entry{}
	for k, ents := range hand {
		cases[fmt.Sprintf("hand %d", k)] = ents
	}
	for seed := uint64(1); seed <= 6; seed++ {
		cases[fmt.Sprintf("seed %d", seed)] = sharedLineEntries(seed, 5000, 60+int(seed)*40, 1+int(seed))
	}
	graphs := 0 // the cases that gave a graph
	for what, ents := range cases {
		n := 0
		for _, e := range ents {
			n = max(n, int(e.i)+1, int(e.j)+1)
		}
		for _, dup := range []DupPolicy{DupMax, DupSum, DupError} {
			for _, how := range []orientations{undirected, directed, mirrored} {
				for _, drop := range []bool{false, true} {
					opt := GraphOptions{Duplicates: dup, DropSelfLoops: drop, Symmetrize: how == directed}
					if checkAssembleSameAsOld(t, fmt.Sprintf("%s, Duplicates %d, orientation %d, drop self-loops %v", what, dup, how, drop), n, ents, opt, how) {
						graphs++
					}
				}
			}
		}
	}
	t.Logf("%d of %d cases gave a graph", graphs, len(cases)*18)
	if graphs < 60 {
		t.Errorf("%d cases gave a graph, want at least 60", graphs)
	}
}

// gmlEdge is an edge that randomGML writes: node indices (ids are the
// indices), weight, and the line of its list's '['.
type gmlEdge struct {
	i, j int
	w    float64
	line int
}

// randomGML returns a GML graph of n nodes and m edges drawn with seed,
// up to perLine edge lists to a line, some lists spread over lines, many
// edges repeating an earlier one either way round, and the edges as
// written; when seed is a multiple of 3, a few weights are 1e308, whose
// sums overflow.
func randomGML(seed uint64, n, m, perLine int) (string, []gmlEdge) {
	rng := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	b.WriteString("graph [\n")
	line := 2
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  node [ id %d label \"n%d\" ]\n", i, i)
		line++
	}
	weights := []string{"0.1", "0.2", "0.3", "0.7", "1", "3", "-0", "0", "1e308"}
	var edges []gmlEdge
	for len(edges) < m {
		b.WriteString(" ")
		for k := 1 + rng.IntN(perLine); k > 0 && len(edges) < m; k-- {
			var e gmlEdge
			if len(edges) > 0 && rng.IntN(2) == 0 {
				e = edges[len(edges)-1-rng.IntN(min(len(edges), 4))]
				if rng.IntN(2) == 0 {
					e.i, e.j = e.j, e.i
				}
			} else {
				e.i, e.j = rng.IntN(n), rng.IntN(n)
			}
			ws := weights[rng.IntN(len(weights))]
			if ws == "1e308" && (seed%3 != 0 || rng.IntN(50) != 0) {
				ws = strconv.FormatFloat(rng.Float64(), 'g', -1, 64)
			}
			e.w, _ = strconv.ParseFloat(ws, 64)
			e.line = line
			if rng.IntN(8) == 0 {
				// Over three lines, '[' on the first.
				fmt.Fprintf(&b, " edge [\n source %d target %d\n weight %s ]", e.i, e.j, ws)
				line += 2
			} else {
				fmt.Fprintf(&b, " edge [ source %d target %d weight %s ]", e.i, e.j, ws)
			}
			edges = append(edges, e)
		}
		b.WriteString("\n")
		line++
	}
	b.WriteString("]\n")
	return b.String(), edges
}

// TestGMLSameAsOld: the GML reader, whose edges share lines, gives the
// graph and error that oldAssemble gives for the edges as written, and
// the warning of their repeats; random files (thousands of edges, many
// repeated, several to a line) and every Duplicates policy.
func TestGMLSameAsOld(t *testing.T) {
	read := 0 // the files read without an error
	for seed := uint64(1); seed <= 8; seed++ {
		n, m := 30+int(seed)*50, 3000+int(seed)*500
		text, edges := randomGML(seed, n, m, 1+int(seed%5))
		olds := make([]oldEntry, len(edges))
		repeats, firstRepeat, firstOrig := 0, 0, 0
		seen := map[[2]int]int{}
		for k, e := range edges {
			olds[k] = oldEntry(e)
			p := [2]int{min(e.i, e.j), max(e.i, e.j)}
			if l, ok := seen[p]; ok {
				if repeats == 0 {
					firstRepeat, firstOrig = e.line, l
				}
				repeats++
			} else {
				seen[p] = e.line
			}
		}
		for _, dup := range []DupPolicy{DupMax, DupSum, DupError} {
			opt := GraphOptions{Duplicates: dup}
			what := fmt.Sprintf("seed %d, Duplicates %d", seed, dup)
			d, err := ReadGraph(context.Background(), strings.NewReader(text), "g.gml", GML, opt)
			wantG, _, wantErr := oldAssemble(context.Background(), "g.gml", n, append([]oldEntry(nil), olds...), &opt, undirected, nil)
			wantErr = namedOverflow(wantErr, "g.gml", func(i int) string { return fmt.Sprintf("n%d", i) })
			if errText(err) != errText(wantErr) {
				t.Errorf("%s: err = %v, want %v", what, err, wantErr)
				continue
			}
			if err != nil {
				continue
			}
			read++
			if s := sameGraph(d.G, wantG); s != "" {
				t.Errorf("%s: %s", what, s)
			}
			want := fmt.Sprintf("g.gml:%d: %d edges repeat an earlier edge between the same nodes (the first repeats line %d;", firstRepeat, repeats, firstOrig)
			if len(d.Warnings) != 1 || !strings.HasPrefix(d.Warnings[0], want) {
				t.Errorf("%s: warnings %q, want one starting %q", what, d.Warnings, want)
			}
		}
	}
	if read < 10 {
		t.Errorf("%d of the 24 reads without an error, want at least 10 (those of seeds not multiples of 3, under DupMax and DupSum)", read)
	}
}

// TestGMLHandSameAsOld: hand-written GML files with edges repeated on one
// line and across lines read, under each Duplicates policy, as
// oldAssemble reads their edges, and with the errors naming their lines.
func TestGMLHandSameAsOld(t *testing.T) {
	const nodes = "graph [\n node [ id 0 ] node [ id 1 ] node [ id 2 ]\n"
	for _, c := range []struct {
		text  string
		edges []gmlEdge
		errs  [3]string // the error under DupMax, DupSum, DupError
	}{
		{
			nodes + " edge [ source 0 target 1 weight 0.1 ] edge [ source 1 target 0 weight 0.2 ] edge [ source 0 target 1 weight 0.3 ]\n" +
				" edge [ source 1 target 2 weight 1 ]\n" +
				" edge [ source 0 target 1 weight 0.7 ] edge [ source 2 target 1\n weight 2 ]\n]\n",
			[]gmlEdge{{0, 1, 0.1, 3}, {1, 0, 0.2, 3}, {0, 1, 0.3, 3}, {1, 2, 1, 4}, {0, 1, 0.7, 5}, {2, 1, 2, 5}},
			[3]string{"", "", "g.gml:3: invalid input: edge (0,1) repeats line 3"},
		},
		{
			nodes + " edge [ source 0 target 1 weight -0 ] edge [ source 1 target 0 weight 0 ] edge [ source 0 target 2 weight 2 ]\n" +
				" edge [ source 2 target 0 weight 2 ] edge [ source 1 target 2 weight 0 ] edge [ source 2 target 1 weight -0 ]\n]\n",
			[]gmlEdge{{0, 1, math.Copysign(0, -1), 3}, {1, 0, 0, 3}, {0, 2, 2, 3}, {2, 0, 2, 4}, {1, 2, 0, 4}, {2, 1, math.Copysign(0, -1), 4}},
			[3]string{"", "", "g.gml:3: invalid input: edge (0,1) repeats line 3"},
		},
		{
			// Weights whose sum overflows (and whose largest alone
			// overflows the volume).
			nodes + " edge [ source 0 target 2 weight 1 ]\n edge [ source 1 target 2 weight 1e308 ] edge [ source 2 target 1 weight 1e308 ]\n]\n",
			[]gmlEdge{{0, 2, 1, 3}, {1, 2, 1e308, 4}, {2, 1, 1e308, 4}},
			[3]string{"g.gml: invalid input: all the weights (the volume", "g.gml:4: invalid input: summed weight of edge (1,2) overflows", "g.gml:4: invalid input: edge (1,2) repeats line 4"},
		},
	} {
		olds := make([]oldEntry, len(c.edges))
		for k, e := range c.edges {
			olds[k] = oldEntry(e)
		}
		for p, dup := range []DupPolicy{DupMax, DupSum, DupError} {
			opt := GraphOptions{Duplicates: dup}
			d, err := ReadGraph(context.Background(), strings.NewReader(c.text), "g.gml", GML, opt)
			wantG, _, wantErr := oldAssemble(context.Background(), "g.gml", 3, append([]oldEntry(nil), olds...), &opt, undirected, nil)
			wantErr = namedOverflow(wantErr, "g.gml", strconv.Itoa)
			if errText(err) != errText(wantErr) || !strings.Contains(errText(err), c.errs[p]) || (c.errs[p] == "") != (err == nil) {
				t.Errorf("Duplicates %d: err = %v, want %v, saying %q", dup, err, wantErr, c.errs[p])
				continue
			}
			if err != nil {
				continue
			}
			if s := sameGraph(d.G, wantG); s != "" {
				t.Errorf("Duplicates %d: %s", dup, s)
			}
			if len(d.Warnings) != 1 || !strings.HasPrefix(d.Warnings[0], "g.gml:3: ") {
				t.Errorf("Duplicates %d: warnings %q, want one on line 3", dup, d.Warnings)
			}
		}
	}
}

// TestAssembleSharedLinesMemory: assemble sorts entries sharing lines (a
// GML file's, up to 4 edges to a line) in place, allocating little beyond
// the graph it returns (measured: 0.0 bytes an entry); ctxsort.ByKey's
// copy took 24.5.
func TestAssembleSharedLinesMemory(t *testing.T) {
	const m, n = 200_000, 20_000
	ents := sharedLineEntries(5, m, n, 4)
	for k := range ents {
		ents[k].w = 1 + float64(k%7) // no sum overflows
	}
	opt := GraphOptions{Duplicates: DupSum}
	var g *graph.Graph
	total := testmem.Allocated(func() {
		var err error
		if g, _, err = assemble(context.Background(), "g.gml", n, ents, &opt, undirected, nil); err != nil {
			t.Fatal(err)
		}
	})
	alone := graphAllocated(t, g)
	per := (float64(total) - float64(alone)) / m
	t.Logf("%d bytes, the graph %d: %.1f bytes an entry beyond the graph", total, alone, per)
	if per > 4 {
		t.Errorf("%.1f bytes an entry beyond the graph, want ≤ 4", per)
	}
}

// BenchmarkReadGML reads a GML file of 10⁵ edges, up to 4 to a line, and
// reports the bytes allocated an edge: 1360 with ctxsort.ByKey's copy of
// the entries, 1335 sorted in place (the parsed lists take the rest).
func BenchmarkReadGML(b *testing.B) {
	const m = 100_000
	text, _ := randomGML(1, 10_000, m, 4)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	var total uint64
	for i := 0; i < b.N; i++ {
		total += testmem.Allocated(func() {
			d, err := ReadGraph(context.Background(), strings.NewReader(text), "bench.gml", GML, GraphOptions{})
			if err != nil {
				b.Fatal(err)
			}
			sinkGraph = d
		})
	}
	b.ReportMetric(float64(total)/float64(b.N)/m, "B/edge")
}
