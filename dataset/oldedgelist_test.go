package dataset

// This file keeps the edge-list reader as it was before it kept the
// records compactly (commit edgemem), for TestEdgeListSameAsOld and
// FuzzEdgeListSameAsOld: the new reader must give the same graphs, names,
// warnings and errors.

import (
	"context"
	"fmt"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/ctxsort"
	"github.com/tether-sc/tether/internal/textline"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/progress"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// parseEdgeList implements the edge-list format of ReadGraph. A first line
// written by WriteEdgeList (edgeListDeclared) sets the node count, unless
// opt sets NumNodes, and base 0, unless opt sets a Base.
func oldParseEdgeList(ctx context.Context, lines []string, name string, opt *GraphOptions) (*GraphData, error) {
	if matrixMarketBanner(lines) {
		return nil, &ParseError{File: name, Err: errorf(ErrSyntax, "a Matrix Market file (its first line is the %%%%MatrixMarket banner) read as an edge list, whose %%-lines are comments: its size line would be an edge (set GraphOptions.Format to MatrixMarket%s)", then(opt.Spelling.Remedy("graph-format", "mtx")))}
	}
	declared := false // the first line declares the node count (WriteEdgeList)
	counted := false  // NumNodes is the count the first line declares
	for _, l := range lines {
		if isBlank(l) {
			continue
		}
		if n, zeroBased, ok := edgeListCount(l); ok {
			declared = true
			o := *opt
			if o.NumNodes == 0 {
				o.NumNodes = n
				counted = true
			}
			if zeroBased && o.Base == BaseAuto {
				o.Base = Base0
			}
			opt = &o
		}
		break
	}
	m, nodeCost := oldNewParseMeter(lines, name, opt)
	tick := m.Step("lines", costLines)
	type rec struct {
		a, b    string
		w       float64
		line    int
		weighed bool // the line has a third field
	}
	recs := make([]rec, 0, len(lines))
	var sp splitter
	decided := false
	var fields []string
	header := 0 // line of the header, 0 if none
	for ln, l := range lines {
		if err := poll(ctx, name, ln); err != nil {
			return nil, err
		}
		if tick != nil && ln%textline.PollLines == 0 {
			tick(float64(ln) / float64(len(lines)))
		}
		if isBlank(l) {
			continue
		}
		if t := trimLeftBlank(l); t[0] == '#' || t[0] == '%' {
			continue
		}
		if !decided {
			sp = edgeListSplitter(l)
			decided = true
		}
		var pos int
		var err error
		fields, pos, err = sp.split(l, fields)
		if err != nil {
			return nil, &ParseError{File: name, Line: ln + 1, Err: fmt.Errorf("character %d: %w", pos, err)}
		}
		if len(fields) < 2 || len(fields) > 3 {
			return nil, &ParseError{File: name, Line: ln + 1, Err: errorf(ErrSyntax, "%s, want \"i j\" or \"i j w\"", wording.Count(len(fields), "field", "fields"))}
		}
		r := rec{a: fields[0], b: fields[1], w: 1, line: ln + 1, weighed: len(fields) == 3}
		if len(fields) == 3 {
			w, err := checkWeightText(fields[2])
			if err != nil {
				// A header such as "source target weight": only the first
				// data line, and only when neither its node fields nor its
				// weight field are written as numbers. "1 2 Inf" is an edge
				// with a bad weight, not a header.
				if len(recs) == 0 && header == 0 && !numberLike(fields[0]) && !numberLike(fields[1]) && !numberLike(fields[2]) {
					header = ln + 1
					continue
				}
				return nil, &ParseError{File: name, Line: ln + 1, Column: 3, Value: fields[2], Err: err}
			}
			r.w = w
		}
		recs = append(recs, r)
	}
	// A header of two names followed by integer lines, or of two words
	// that name edge-list columns ("source target", "from,to") and occur
	// nowhere else in the file, as nodes of named edges would.
	if header == 0 && len(recs) >= 1 {
		if len(recs) >= 2 && !numberLike(recs[0].a) && !numberLike(recs[0].b) && intLike(recs[1].a) && intLike(recs[1].b) {
			header = recs[0].line
			recs = recs[1:]
		} else if isWord(recs[0].a, edgeHeaderWords) && isWord(recs[0].b, edgeHeaderWords) && !recs[0].weighed && !slices.ContainsFunc(recs[1:], func(r rec) bool {
			return r.a == recs[0].a || r.b == recs[0].a || r.a == recs[0].b || r.b == recs[0].b
		}) {
			header = recs[0].line
			recs = recs[1:]
		}
	}
	// No edge: a file of comments (or a header) alone, an empty graph
	// without a word, is an error, unless the caller or the file
	// (WriteEdgeList's first line) gave the node count: a graph of
	// nodes without edges, with a warning.
	var noEdges string
	if len(recs) == 0 {
		what := "every line is blank or a comment"
		if header > 0 {
			what = fmt.Sprintf("line %d, read as a header, is its only data line", header)
		}
		if opt.NumNodes == 0 && !declared {
			return nil, &ParseError{File: name, Err: errorf(ErrSyntax, "no edges: %s (an edge list holds \"i j\" or \"i j w\" lines; a graph of nodes without edges needs its node count: %s)", what, noEdgesFix(opt.Spelling))}
		}
		noEdges = fmt.Sprintf("%s: no edges (%s): the graph has its declared nodes and no edge", name, what)
	}
	// Every data line has the fields of the first: "i j" lines and "i j w"
	// lines do not mix. A weighted file whose last line lost its weight
	// ("2 3 0.1" cut to "2 3") read that edge with weight 1, silently.
	for _, r := range recs[min(1, len(recs)):] {
		if r.weighed != recs[0].weighed {
			got, want := 2, 3
			if r.weighed {
				got, want = 3, 2
			}
			return nil, &ParseError{File: name, Line: r.line, Err: errorf(ErrSyntax, "%s, want %d as on the first data line (line %d): every edge has a weight or none does", wording.Count(got, "field", "fields"), want, recs[0].line)}
		}
	}
	// Nodes are all integers or, with NamedNodes, all names; a mixture is
	// an error naming the first token of the other kind. An integer too
	// long to read is still an integer (intLike), out of range below.
	allInt := !opt.NamedNodes
	minIdx, maxIdx := math.MaxInt, 0
	maxN := opt.maxNodes()
	if err := stopped(ctx, name); err != nil {
		return nil, err
	}
	// Three passes over the records for integer nodes, one for names:
	// each checks ctx, and tells the meter, every textline.PollLines.
	nodes := m.Step("numbering the nodes", nodeCost)
	pass := func(p, passes, t int) error {
		if t%textline.PollLines != 0 {
			return nil
		}
		if nodes != nil {
			nodes((float64(p) + float64(t)/float64(len(recs))) / float64(passes))
		}
		return stopped(ctx, name)
	}
	if allInt && len(recs) > 0 {
		firstInt := intLike(recs[0].a)
		if !firstInt && allNumbers(recs, func(r rec) [2]string { return [2]string{r.a, r.b} }) {
			// Every node written as a number, not all integers
			// (np.savetxt's "0.000000000000000000e+00"): a matrix of
			// numbers read as a graph of named nodes (review 114). Names
			// among them ("a b", "b 1.5") are names, as before.
			r := recs[0]
			s := r.a
			if intLike(s) {
				s = r.b
			}
			return nil, &ParseError{File: name, Line: r.line, Value: s, Err: errorf(ErrSyntax, "every node is written as a number, and not all as integers: node numbers are integers (an affinity matrix needs GraphOptions.Format DenseCSV%s; nodes named by such numbers need GraphOptions.NamedNodes%s)", then(opt.Spelling.Remedy("graph-format", "dense")), then(opt.Spelling.Remedy("named-nodes")))}
		}
		for t, r := range recs {
			if err := pass(0, 3, t); err != nil {
				return nil, err
			}
			for _, s := range [2]string{r.a, r.b} {
				if ok := intLike(s); ok != firstInt {
					what := "is not an integer, but"
					if ok {
						what = "is an integer, but"
					}
					return nil, &ParseError{File: name, Line: r.line, Value: s, Err: errorf(ErrSyntax, "node %s line %d has node %s: mix of integer node numbers and names (to read every node as a name, set GraphOptions.NamedNodes%s)", what, recs[0].line, quote(recs[0].a), namedFix(opt.Spelling))}
				}
			}
		}
		allInt = firstInt
	}
	if allInt {
		for t, r := range recs {
			if err := pass(1, 3, t); err != nil {
				return nil, err
			}
			for _, s := range [2]string{r.a, r.b} {
				if _, ok := parseInt(s); !ok {
					if s[0] == '-' {
						return nil, &ParseError{File: name, Line: r.line, Value: s, Err: errorf(ErrInvalid, "negative node number")}
					}
					return nil, &ParseError{File: name, Line: r.line, Value: s, Err: errorf(ErrTooLarge, "node number out of range: at most %d nodes are read (GraphOptions.MaxNodes%s)", maxN, then(opt.Spelling.maxNodes()))}
				}
			}
			a, _ := parseInt(r.a)
			b, _ := parseInt(r.b)
			if a < 0 || b < 0 {
				v := r.a
				if b < 0 {
					v = r.b
				}
				return nil, &ParseError{File: name, Line: r.line, Value: v, Err: errorf(ErrInvalid, "negative node number")}
			}
			minIdx, maxIdx = min(minIdx, a, b), max(maxIdx, a, b)
		}
	}
	d := &GraphData{HeaderLine: header}
	if noEdges != "" {
		d.Warnings = append(d.Warnings, noEdges)
	}
	ents := make([]oldEntry, 0, len(recs))
	n := 0
	if allInt {
		base := 0
		switch opt.Base {
		case Base1:
			base = 1
		case BaseAuto:
			// NumNodes above the largest number leaves room for node 0:
			// 0-based then, as the constraint and label files are
			// (review 86: "1 2/2 3/3 1/4 5" with NumNodes 6 was read
			// 1-based, and every pair pointed at the wrong nodes).
			// The choice is a guess either way when the smallest number
			// is 1 and NumNodes does not settle it: warned (review 89:
			// a 1-based file whose last node has no edge was read 0-based
			// without a word).
			if minIdx == 1 && (opt.NumNodes == 0 || maxIdx >= opt.NumNodes) {
				base = 1
				if opt.NumNodes == 0 {
					d.Warnings = append(d.Warnings, baseOneWarning(name, opt.Spelling))
				}
			} else if minIdx == 1 {
				d.Warnings = append(d.Warnings, baseZeroWarning(name, maxIdx, opt.NumNodes, opt.Spelling))
			}
		}
		d.Base = base
		for t, r := range recs {
			if err := pass(2, 3, t); err != nil {
				return nil, err
			}
			a, _ := parseInt(r.a)
			b, _ := parseInt(r.b)
			for _, v := range [2]int{a, b} {
				if v < base {
					return nil, &ParseError{File: name, Line: r.line, Value: strconv.Itoa(v), Err: errorf(ErrInvalid, "node number below the base %d", base)}
				}
				if v-base >= maxN {
					return nil, &ParseError{File: name, Line: r.line, Value: strconv.Itoa(v), Err: errorf(ErrTooLarge, "node number ≥ %d nodes (GraphOptions.MaxNodes%s)", maxN, then(opt.Spelling.maxNodes()))}
				}
				if opt.NumNodes > 0 && v-base >= opt.NumNodes && !counted {
					// The caller's count (NumNodesFrom's wording, 2026-12):
					// the distinct numbers of the file, as read.
					distinct := make(map[int]bool)
					for _, r := range recs {
						a, _ := parseInt(r.a)
						b, _ := parseInt(r.b)
						distinct[a], distinct[b] = true, true
					}
					return nil, &ParseError{File: name, Line: r.line, Value: strconv.Itoa(v), Err: beyondCountError(opt, base, len(distinct))}
				}
				if opt.NumNodes > 0 && v-base >= opt.NumNodes {
					return nil, &ParseError{File: name, Line: r.line, Value: strconv.Itoa(v), Err: errorf(ErrInvalid, "node number outside the %s declared (integers that are IDs rather than node numbers are read as names with GraphOptions.NamedNodes%s)", wording.Count(opt.NumNodes, "node", "nodes"), then(opt.Spelling.Remedy("named-nodes")))}
				}
			}
			n = max(n, a-base+1, b-base+1)
			ents = append(ents, oldEntry{a - base, b - base, r.w, r.line})
		}
	} else {
		id := make(map[string]int)
		for t, r := range recs {
			if err := pass(0, 1, t); err != nil {
				return nil, err
			}
			for c, s := range [2]string{r.a, r.b} {
				if strings.TrimSpace(s) == "" {
					// A missing node (",b,1"): read as a node named ""
					// it joined the graph, and the labels files then
					// numbered every node (KeyNames; review 114).
					return nil, &ParseError{File: name, Line: r.line, Column: c + 1, Err: errorf(ErrSyntax, "empty node name: the line lacks a node")}
				}
				if _, ok := id[s]; !ok {
					if len(id) >= maxN {
						return nil, &ParseError{File: name, Line: r.line, Value: s, Err: errorf(ErrTooLarge, "more than %d nodes (GraphOptions.MaxNodes%s)", maxN, then(opt.Spelling.maxNodes()))}
					}
					id[s] = len(id)
					d.Names = append(d.Names, s)
				}
			}
			ents = append(ents, oldEntry{id[r.a], id[r.b], r.w, r.line})
		}
		n = len(id)
		if opt.NumNodes > 0 && n > opt.NumNodes && !counted {
			return nil, &ParseError{File: name, Err: errorf(ErrInvalid, "%d named nodes, more than the %s %s", n, wording.Count(opt.NumNodes, "node", "nodes"), numNodesOrigin(opt))}
		}
		if opt.NumNodes > 0 && n > opt.NumNodes {
			return nil, &ParseError{File: name, Err: errorf(ErrInvalid, "%d named nodes, more than the %d declared", n, opt.NumNodes)}
		}
	}
	if opt.NumNodes > 0 {
		n = opt.NumNodes
		if n > maxN {
			return nil, &ParseError{File: name, Err: errorf(ErrTooLarge, "%d nodes exceed GraphOptions.MaxNodes = %d%s", n, maxN, paren(opt.Spelling.maxNodes()))}
		}
	} else if allInt {
		// The caller declared no node count (nor did the file): IDs
		// read as node numbers leave most nodes without an edge.
		if w := oldSparseNumbersWarning(name, n, d.Base, ents, opt.Spelling); w != "" {
			d.Warnings = append(d.Warnings, w)
		}
	}
	g, dup, err := oldAssemble(ctx, name, n, ents, opt, undirected, m)
	if err != nil {
		return nil, namedOverflow(err, name, func(i int) string {
			if d.Names != nil {
				return d.Names[i]
			}
			return strconv.Itoa(i + d.Base)
		})
	}
	m.Done()
	if dup != nil && dup.count > 0 {
		d.Warnings = append(d.Warnings, dup.warning(name, opt.Spelling))
	}
	d.G = g
	return d, nil
}

// oldEntry is one edge occurrence with the line it came from.
type oldEntry struct {
	i, j int
	w    float64
	line int
}

// oldAssemble is assemble as it was.
// (j,i) as how says. Repeats of (i,j) in one orientation are combined by
// opt.Duplicates first; with DupMax, the repeats are counted in the
// returned warning (nil when there are none), those whose weights differ
// apart from those with the earlier weight. ctx is
// checked every textline.PollLines entries of the first pass, every
// ctxsort.PollEvery of the sort, before the combining (0.05 s on 3·10⁶
// entries) and as the graph is built (graph.FromEdgesContext); the error
// is then stopped's. m (nil: none) takes the steps of the sort,
// the combining and the graph.
func oldAssemble(ctx context.Context, name string, n int, ents []oldEntry, opt *GraphOptions, how orientations, m *progress.Meter) (*graph.Graph, *dupWarning, error) {
	isDirected := how != undirected
	type key struct{ lo, hi, dir int }
	type comb struct {
		key
		w    float64
		line int
	}
	// at returns the 1-based (row, column) of c as the file gives it.
	at := func(c comb) (int, int) {
		if c.dir == 1 {
			return c.hi + 1, c.lo + 1
		}
		return c.lo + 1, c.hi + 1
	}
	if n > math.MaxInt32 {
		// The graph refuses so many nodes (and sortKey would overflow).
		_, err := graph.FromEdges(n, nil)
		return nil, nil, fmt.Errorf("dataset: %s: %w", name, err)
	}
	cs := make([]comb, 0, len(ents))
	tick := m.Step("sorting the edges", costSort)
	for t, e := range ents {
		if t%textline.PollLines == 0 {
			if err := stopped(ctx, name); err != nil {
				return nil, nil, err
			}
		}
		if opt.DropSelfLoops && e.i == e.j {
			continue
		}
		lo, hi, dir := e.i, e.j, 0
		if lo > hi {
			lo, hi, dir = hi, lo, 1
		}
		if !isDirected || lo == hi {
			dir = 0
		}
		cs = append(cs, comb{key{lo, hi, dir}, e.w, e.line})
	}
	// By (lo, hi, dir), stably, so the first of repeated entries keeps
	// its line number (under DupMax, the line of the largest of them, as
	// combined below): lo, hi < n ≤ 2³¹ − 1, so the key is below 2⁶³.
	sortKey := func(c comb) uint64 { return (uint64(c.lo)*uint64(n)+uint64(c.hi))<<1 | uint64(c.dir) }
	if err := ctxsort.ByKey(ctx, cs, sortKey, tick); err != nil {
		return nil, nil, stopped(ctx, name)
	}
	m.Step("combining repeated edges", costCombine)
	// Combine duplicates of the same (lo, hi, dir) in place.
	var dup *dupWarning
	out := 0
	for _, e := range cs {
		if out > 0 && cs[out-1].key == e.key {
			c := &cs[out-1]
			switch opt.Duplicates {
			case DupSum:
				c.w += e.w
				if math.IsInf(c.w, 0) {
					return nil, nil, &ParseError{File: name, Line: e.line, Err: errorf(ErrInvalid, "summed weight of edge (%d,%d) overflows", e.lo, e.hi)}
				}
			case DupError:
				return nil, nil, &ParseError{File: name, Line: e.line, Err: errorf(ErrInvalid, "edge (%d,%d) repeats line %d", e.lo, e.hi, c.line)}
			default:
				if dup == nil {
					dup = &dupWarning{}
				}
				if e.w != c.w {
					if dup.count == 0 {
						dup.line, dup.first, dup.w, dup.wFirst = e.line, c.line, e.w, c.w
					}
					dup.count++
				} else {
					if dup.same == 0 {
						dup.sameLine, dup.sameFirst = e.line, c.line
					}
					dup.same++
				}
				if e.w > c.w {
					// The line of the value kept, which the symmetry
					// errors below name (they named the first line with
					// the kept value; review 114).
					c.w, c.line = e.w, e.line
				}
			}
			continue
		}
		cs[out] = e
		out++
	}
	cs = cs[:out]
	edges := make([]graph.Edge, 0, len(cs))
	tol := opt.symTol()
	for a := 0; a < len(cs); a++ {
		c := cs[a]
		if !isDirected || c.lo == c.hi {
			edges = append(edges, graph.Edge{I: c.lo, J: c.hi, W: c.w})
			continue
		}
		// Directed off-diagonal: pair (lo,hi,0) with (lo,hi,1).
		w0, w1 := 0.0, 0.0
		line := c.line
		if c.dir == 0 {
			w0 = c.w
			if a+1 < len(cs) && cs[a+1].lo == c.lo && cs[a+1].hi == c.hi {
				w1 = cs[a+1].w
				if how == mirrored {
					// One entry given in both triangles.
					m := cs[a+1]
					if math.Abs(w0-w1) > tol*math.Max(w0, w1) {
						first, second := c, m
						if m.line < c.line {
							first, second = m, c
						}
						fi, fj := at(first)
						si, sj := at(second)
						return nil, nil, &ParseError{File: name, Line: second.line, Err: errorf(ErrInvalid, "entry (%d,%d) = %g on line %d and its mirror (%d,%d) = %g on line %d differ: a symmetric matrix may give an entry in both triangles only with one value",
							fi, fj, first.w, first.line, si, sj, second.w, second.line)}
					}
					edges = append(edges, graph.Edge{I: c.lo, J: c.hi, W: w0})
					a++
					continue
				}
				a++
			}
		} else {
			w1 = c.w
		}
		if how == mirrored {
			// In one triangle only: the entry and its mirror.
			edges = append(edges, graph.Edge{I: c.lo, J: c.hi, W: c.w})
			continue
		}
		w := w0
		if math.Abs(w0-w1) > tol*math.Max(w0, w1) {
			if !opt.Symmetrize {
				return nil, nil, &ParseError{File: name, Line: line, Err: errorf(ErrInvalid, "matrix is not symmetric: A[%d,%d] = %g but A[%d,%d] = %g (to use (A+Aᵀ)/2, set GraphOptions.Symmetrize%s)", c.lo+1, c.hi+1, w0, c.hi+1, c.lo+1, w1, then(opt.Spelling.Remedy("symmetrize", "true")))}
			}
		}
		if opt.Symmetrize {
			w = w0/2 + w1/2
		}
		edges = append(edges, graph.Edge{I: c.lo, J: c.hi, W: w})
	}
	if err := stopped(ctx, name); err != nil {
		return nil, nil, err
	}
	if err := fitsMemory(name, n); err != nil {
		return nil, nil, err
	}
	m.Step("building the graph", costGraph)
	g, err := graph.FromEdgesContext(ctx, n, edges)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, stopped(ctx, name)
		}
		return nil, nil, fmt.Errorf("dataset: %s: %w", name, err)
	}
	return g, dup, nil
}

// stopped returns ctx's error, naming the file whose graph was being
// built, when ctx is cancelled; nil otherwise. The passes after the last

// sparseNumbersWarning returns the warning of an integer edge list read
// as n nodes numbered from base whose edges ents (0-based) name fewer than
// one node in sparseMaxShare, n being at least sparseMinNodes: the
// integers are likely IDs, not numbers 0…n−1, and the graph is mostly
// isolated nodes. It says how many nodes appear in an edge, how the
// integers were read, and names GraphOptions.NamedNodes as sp spells it,
// which reads them as names. "" when the rule does not hold. Cost
// O(n + len(ents)).
func oldSparseNumbersWarning(name string, n, base int, ents []oldEntry, sp Spelling) string {
	if n < sparseMinNodes {
		return ""
	}
	seen := make([]bool, n)
	used := 0
	for _, e := range ents {
		for _, v := range [2]int{e.i, e.j} {
			if !seen[v] {
				seen[v] = true
				used++
			}
		}
	}
	if used*sparseMaxShare >= n {
		return ""
	}
	fix := then(sp.Remedy("named-nodes"))
	if fix == "" {
		fix = fmt.Sprintf(", or write them in the file as names that are not integers, such as n%d", n-1+base)
	}
	return fmt.Sprintf("%s: only %d of the %d nodes appear in an edge: the integers of the file are read as the node numbers %d…%d, so %d nodes have no edge; if the integers are IDs rather than node numbers, read them as names, the %d nodes numbered in order of first appearance (set GraphOptions.NamedNodes%s)",
		name, used, n, base, n-1+base, n-used, used, fix)
}

// oldNewParseMeter returns the meter of the parse of the edge list lines
// (nil without opt.Recorder) and the planned cost of its nodes' step: the
// names' when opt.NamedNodes is set or the last line that is neither
// blank nor a comment begins with a field that is not an integer (a
// guess for the plan only: the parse decides). Cost O(length of the last
// such line), or of the lines after it.
func oldNewParseMeter(lines []string, name string, opt *GraphOptions) (*progress.Meter, float64) {
	if opt.Recorder == nil {
		return nil, 0
	}
	named := opt.NamedNodes
	for i := len(lines) - 1; i >= 0 && !named; i-- {
		if isBlank(lines[i]) {
			continue
		}
		t := trimLeftBlank(lines[i])
		if t[0] == '#' || t[0] == '%' {
			continue
		}
		if k := strings.IndexAny(t, " \t,;"); k >= 0 {
			t = t[:k]
		}
		named = !intLike(t)
		break
	}
	nodes := float64(costNumbers)
	if named {
		nodes = costNames
	}
	return progress.NewMeter(opt.Recorder, "parsing "+name, costLines+nodes+costSort+costCombine+costGraph), nodes
}

// oldParseMatrixMarket is parseMatrixMarket as it was: it implements the Matrix Market reader of ReadGraph.
func oldParseMatrixMarket(ctx context.Context, lines []string, name string, opt *GraphOptions) (*GraphData, error) {
	if len(lines) == 0 {
		return nil, &ParseError{File: name, Err: errorf(ErrSyntax, "empty file")}
	}
	hdr := strings.Fields(strings.ToLower(lines[0]))
	if len(hdr) != 5 || hdr[0] != "%%matrixmarket" {
		return nil, &ParseError{File: name, Line: 1, Value: lines[0], Err: errorf(ErrSyntax, "want a header \"%%%%MatrixMarket matrix coordinate <field> <symmetry>\"")}
	}
	if hdr[1] != "matrix" || hdr[2] != "coordinate" {
		return nil, &ParseError{File: name, Line: 1, Value: hdr[1] + " " + hdr[2], Err: errorf(ErrSyntax, "only \"matrix coordinate\" files are supported")}
	}
	field, sym := hdr[3], hdr[4]
	switch field {
	case "real", "integer", "pattern":
	default:
		return nil, &ParseError{File: name, Line: 1, Value: field, Err: errorf(ErrSyntax, "field must be real, integer or pattern")}
	}
	switch sym {
	case "general", "symmetric":
	default:
		return nil, &ParseError{File: name, Line: 1, Value: sym, Err: errorf(ErrSyntax, "symmetry must be general or symmetric")}
	}
	want := 3
	if field == "pattern" {
		want = 2
	}
	sizeSeen := false
	var rows, nnz int
	var ents []oldEntry
	var fields []string
	sp := splitter{}
	for ln := 1; ln < len(lines); ln++ {
		if err := poll(ctx, name, ln); err != nil {
			return nil, err
		}
		l := lines[ln]
		if isBlank(l) {
			continue
		}
		if t := trimLeftBlank(l); t[0] == '%' {
			continue
		}
		fields, _, _ = sp.split(l, fields)
		if !sizeSeen {
			if len(fields) != 3 {
				return nil, &ParseError{File: name, Line: ln + 1, Value: l, Err: errorf(ErrSyntax, "want the size line \"rows cols entries\"")}
			}
			for _, f := range fields {
				if !intLike(f) || f[0] == '-' {
					return nil, &ParseError{File: name, Line: ln + 1, Value: l, Err: errorf(ErrSyntax, "size line must hold three non-negative integers")}
				}
			}
			// Integers too long to read are out of range: more nodes
			// or entries than any file is read with.
			for k, what := range [2]string{"rows", "columns"} {
				if _, ok := parseInt(fields[k]); !ok {
					return nil, &ParseError{File: name, Line: ln + 1, Value: l, Err: errorf(ErrTooLarge, "%s %s out of range: more than GraphOptions.MaxNodes = %d nodes%s", fields[k], what, opt.maxNodes(), paren(opt.Spelling.maxNodes()))}
				}
			}
			var cols int
			rows, _ = parseInt(fields[0])
			cols, _ = parseInt(fields[1])
			var ok bool
			if nnz, ok = parseInt(fields[2]); !ok {
				return nil, &ParseError{File: name, Line: ln + 1, Value: l, Err: errorf(ErrInvalid, "%s entries out of range: cannot fit a %d×%d matrix", fields[2], rows, cols)}
			}
			if rows != cols {
				return nil, &ParseError{File: name, Line: ln + 1, Value: l, Err: errorf(ErrInvalid, "matrix is %d×%d, an affinity matrix must be square", rows, cols)}
			}
			if rows > opt.maxNodes() {
				return nil, &ParseError{File: name, Line: ln + 1, Value: l, Err: errorf(ErrTooLarge, "%d nodes exceed GraphOptions.MaxNodes = %d%s", rows, opt.maxNodes(), paren(opt.Spelling.maxNodes()))}
			}
			if rows > 0 && nnz/rows > rows {
				return nil, &ParseError{File: name, Line: ln + 1, Value: l, Err: errorf(ErrInvalid, "%d entries cannot fit a %d×%d matrix", nnz, rows, rows)}
			}
			// Never trust nnz for allocation beyond what the file can hold.
			ents = make([]oldEntry, 0, min(nnz, len(lines)-ln))
			sizeSeen = true
			continue
		}
		if len(fields) != want {
			return nil, &ParseError{File: name, Line: ln + 1, Err: errorf(ErrSyntax, "%s, want %d for a %s matrix", wording.Count(len(fields), "field", "fields"), want, field)}
		}
		if len(ents) == nnz {
			return nil, &ParseError{File: name, Line: ln + 1, Err: errorf(ErrSyntax, "more entries than the %d declared", nnz)}
		}
		// A decimal ("2.0") or other text is no index; an integer too
		// long to read (intLike) is one out of range.
		var ij [2]int
		for k, what := range [2]string{"row", "column"} {
			if !intLike(fields[k]) {
				return nil, &ParseError{File: name, Line: ln + 1, Column: k + 1, Value: fields[k], Err: errorf(ErrSyntax, "%s index is not an integer", what)}
			}
			v, ok := parseInt(fields[k])
			if !ok || v < 1 || v > rows {
				return nil, &ParseError{File: name, Line: ln + 1, Column: k + 1, Value: fields[k], Err: errorf(ErrInvalid, "%s index outside 1…%d", what, rows)}
			}
			ij[k] = v
		}
		i, j := ij[0], ij[1]
		w := 1.0
		if want == 3 {
			var err error
			if w, err = checkWeightText(fields[2]); err != nil {
				return nil, &ParseError{File: name, Line: ln + 1, Column: 3, Value: fields[2], Err: err}
			}
			if field == "integer" && w != math.Trunc(w) {
				return nil, &ParseError{File: name, Line: ln + 1, Column: 3, Value: fields[2], Err: errorf(ErrSyntax, "not an integer in an integer matrix")}
			}
		}
		ents = append(ents, oldEntry{i - 1, j - 1, w, ln + 1})
	}
	if !sizeSeen {
		return nil, &ParseError{File: name, Err: errorf(ErrSyntax, "no size line")}
	}
	if len(ents) != nnz {
		return nil, &ParseError{File: name, Line: len(lines), Err: errorf(ErrSyntax, "%d entries, the size line declares %d", len(ents), nnz)}
	}
	how := mirrored
	if sym == "general" {
		how = directed
	}
	g, dup, err := oldAssemble(ctx, name, rows, ents, opt, how, nil)
	if err != nil {
		return nil, namedOverflow(err, name, func(i int) string { return strconv.Itoa(i + 1) })
	}
	d := &GraphData{G: g, Base: 1}
	if dup != nil && dup.count > 0 {
		d.Warnings = append(d.Warnings, dup.warning(name, opt.Spelling))
	}
	if w := dup.sameWarning(name); w != "" {
		d.Warnings = append(d.Warnings, w)
	}
	return d, nil
}

// oldReadGraph is ReadGraph as it was, with the old edge-list and Matrix
// Market readers.
func oldReadGraph(ctx context.Context, r io.Reader, name string, format GraphFormat, opt GraphOptions) (*GraphData, error) {
	if format < GraphAuto || format > DenseCSV {
		return nil, fmt.Errorf("%w: unknown graph format %d", ErrInvalid, format)
	}
	lines, err := readAll(ctx, r, name, opt.MaxLineBytes)
	if err != nil {
		return nil, err
	}
	var warning string
	if format == GraphAuto {
		format = GraphFormatFor(name)
		if matrixMarketBanner(lines) {
			// The banner says what the name may not (/dev/stdin, a file
			// named .txt): read as an edge list, the banner was a
			// comment and the size line an edge (review 114).
			format = MatrixMarket
		} else if format == DenseCSV {
			format, warning = detectCSVGraph(lines, name, opt.Spelling)
		}
	}
	var d *GraphData
	switch format {
	case EdgeList:
		d, err = oldParseEdgeList(ctx, lines, name, &opt)
	case MatrixMarket:
		d, err = oldParseMatrixMarket(ctx, lines, name, &opt)
	case GML:
		d, err = parseGML(ctx, lines, name, &opt)
	default:
		d, err = parseDenseCSV(ctx, lines, name, &opt)
	}
	if err != nil {
		if warning != "" {
			return nil, fmt.Errorf("%w (%s)", err, warning)
		}
		return nil, err
	}
	if warning != "" {
		d.Warnings = append([]string{warning}, d.Warnings...)
	}
	return d, nil
}

// oldDetectEdgeList is DetectEdgeList as it was, reading the text whole.
func oldDetectEdgeList(ctx context.Context, r io.Reader, name string) (bool, error) {
	lines, err := readAll(ctx, r, name, 0)
	if err != nil {
		return false, err
	}
	var sp splitter
	var fields []string
	edges := 0
	for ln, l := range lines {
		if err := poll(ctx, name, ln); err != nil {
			return false, err
		}
		if isBlank(l) {
			continue
		}
		if t := trimLeftBlank(l); t[0] == '#' || t[0] == '%' {
			continue
		}
		if edges == 0 {
			sp = edgeListSplitter(l)
		}
		if fields, _, err = sp.split(l, fields); err != nil || len(fields) < 2 || len(fields) > 3 {
			return false, nil
		}
		a, okA := parseInt(fields[0])
		b, okB := parseInt(fields[1])
		if !okA || !okB || a < 0 || b < 0 || len(fields) == 3 && !numberLike(fields[2]) {
			return false, nil
		}
		edges++
	}
	return edges > 0, nil
}
