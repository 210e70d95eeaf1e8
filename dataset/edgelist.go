package dataset

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/internal/textline"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/progress"
)

// lineSource yields the lines of a text one at a time: lineReader, which
// reads them from an io.Reader, or sliceLines, lines already read.
type lineSource interface {
	// next returns the next line and true, false at the end or after a
	// failed read. The line is valid until the next call (lineReader's
	// alias its buffer).
	next() (string, bool)
	// drain reads the rest of the input and returns the read's error, nil
	// at its end.
	drain() error
	// fraction is the share of the input read, −1 when unknown.
	fraction() float64
}

// sliceLines is the lineSource of lines already read (readAll's).
type sliceLines struct {
	lines []string
	k     int
}

func (s *sliceLines) next() (string, bool) {
	if s.k == len(s.lines) {
		return "", false
	}
	s.k++
	return s.lines[s.k-1], true
}

func (s *sliceLines) drain() error { return nil }

// peekedLines is a lineSource whose first lines, head, were read ahead
// (and cloned) from src.
type peekedLines struct {
	head []string
	lineSource
}

func (p *peekedLines) next() (string, bool) {
	if len(p.head) > 0 {
		l := p.head[0]
		p.head = p.head[1:]
		return l, true
	}
	return p.lineSource.next()
}

// peekFirst reads the lines of src up to its first line that is not
// blank, and returns that line ("" if none) and the source of all of
// src's lines.
func peekFirst(src lineSource) (string, lineSource) {
	var head []string
	for {
		l, ok := src.next()
		if !ok {
			return "", &peekedLines{head, src}
		}
		l = strings.Clone(l)
		head = append(head, l)
		if !isBlank(l) {
			return l, &peekedLines{head, src}
		}
	}
}

func (s *sliceLines) fraction() float64 {
	if len(s.lines) == 0 {
		return 1
	}
	return float64(s.k) / float64(len(s.lines))
}

// readProgress is the fraction of the lines step that src's position
// tells: the share of the input read, or, when src does not know the
// input's size, a guess that tends to 1 (half at 10⁶ lines).
func readProgress(src lineSource, line int) float64 {
	if f := src.fraction(); f >= 0 {
		return min(f, 1)
	}
	return float64(line) / (float64(line) + 1e6)
}

// newEdgeMeter returns the meter of the parse of an edge list (nil
// without opt.Recorder) and the planned cost of its nodes' step: the
// names' when opt.NamedNodes is set or the first data line, first,
// begins with a field that is not an integer (a guess for the plan only:
// the parse decides). Cost O(len(first)).
func newEdgeMeter(first, name string, opt *GraphOptions) (*progress.Meter, float64) {
	if opt.Recorder == nil {
		return nil, 0
	}
	named := opt.NamedNodes
	if t := trimLeftBlank(first); !named && t != "" {
		if k := strings.IndexAny(t, " \t,;"); k >= 0 {
			t = t[:k]
		}
		named = !intLike(t)
	}
	nodes := float64(costNumbers)
	if named {
		nodes = costNames
	}
	return progress.NewMeter(opt.Recorder, "parsing "+name, costLines+nodes+costSort+costCombine+costGraph), nodes
}

// edgeErrors holds the first error of each check that the edge-list
// reader made in a pass of its own over all the records, in the order of
// the passes, found while the lines are read: the first is reported, as
// the passes did.
type edgeErrors struct {
	mix    error // a node token of the other kind (integer or not)
	number error // an integer token out of range, or negative
}

// parseEdgeList implements the edge-list format of ReadGraph, reading the
// lines of src one at a time. A first line written by WriteEdgeList
// (edgeListDeclared) sets the node count, unless opt sets NumNodes, and
// base 0, unless opt sets a Base; a first line "# N nodes"
// (edgeListCount) sets the node count alone.
//
// Each edge is kept as one entry (24 bytes) and no line is kept. When the
// first record's first node is an integer (and opt.NamedNodes is not
// set), the nodes are integers and the records hold their numbers; the
// checks that looked at every record before deciding (a mix of integers
// and names, integers out of range) note their first failure as the lines
// go. Otherwise the records hold tokens, each distinct token kept once,
// and the checks run over them once the lines are read: the rules and the
// error reported first are those of ReadGraph's edge lists, whatever the
// representation. An error of a line is reported once the rest of the
// input is read (lineSource.drain), so that a NUL byte or an over-long
// line after it is reported instead, as when the text was read whole
// first; a passed opt.MaxEntries and ctx's cancellation stop at once.
//
// Cost: O(size) time to read and O(m log m) to assemble m edges; memory
// 24 bytes an edge beside the graph (the entries, sorted in place by
// assemble; 26 bytes an edge measured with their room to grow), plus,
// for named nodes, the distinct tokens with their map.
func parseEdgeList(ctx context.Context, src lineSource, name string, opt *GraphOptions) (*GraphData, error) {
	p := edgeParser{name: name, opt: opt, src: src, minIdx: math.MaxInt}
	if err := p.readLines(ctx); err != nil {
		if p.drain {
			if rerr := src.drain(); rerr != nil {
				return nil, rerr
			}
		}
		return nil, err
	}
	return p.finish(ctx)
}

// edgeParser is the state of parseEdgeList.
type edgeParser struct {
	name string
	opt  *GraphOptions
	src  lineSource

	m        *progress.Meter
	nodeCost float64
	drain    bool // readLines's error is a line's: read the rest first

	declared bool // the first line declares the node count (WriteEdgeList)
	counted  bool // NumNodes is that count, the caller having given none
	header   int  // line of the header, 0 if none
	ents     []entry

	// The first two records: their lines, whether they have a weight,
	// their node tokens (cloned), and the first line after each whose
	// weight presence differs from theirs (0: none).
	line0, line1       int
	weighed0, weighed1 bool
	a0, b0, a1, b1     string
	mis0, mis1         int

	intMode bool // records hold node numbers, not token ids
	errs    edgeErrors
	// big holds the node numbers above math.MaxInt32 of intMode records,
	// keyed by 2·record + (0 for a, 1 for b); the entries hold 0.
	big            map[int]int
	minIdx, maxIdx int

	toks []string // distinct tokens, by id (token mode)
	ids  map[string]int32
}

// numNodesOrigin returns the words that say where the caller's node
// count, opt.NumNodes, comes from, after "the 4 nodes":
// opt.NumNodesFrom, or "GraphOptions.NumNodes gives".
func numNodesOrigin(opt *GraphOptions) string {
	if f := strings.TrimSpace(opt.NumNodesFrom); f != "" {
		return f
	}
	return "GraphOptions.NumNodes gives"
}

// beyondCount returns the error of a node number of recs[bad] at or
// beyond the caller's node count p.opt.NumNodes (base applied), which the
// file did not declare (the records before bad hold their node numbers
// minus base, those from bad on the numbers as read): beyondCountError
// with the number of distinct node numbers of the file, counted up to
// NumNodes + 1. Cost O(len(recs)) and a map of the distinct numbers, on
// this error's path alone.
func (p *edgeParser) beyondCount(recs []entry, bad, base int) error {
	distinct := make(map[int]struct{})
	for t := 0; t < len(recs) && len(distinct) <= p.opt.NumNodes; t++ {
		for c := 0; c < 2; c++ {
			v := p.number(t, c, recs[t])
			if t < bad {
				v += base
			}
			distinct[v] = struct{}{}
		}
	}
	return beyondCountError(p.opt, base, len(distinct))
}

// beyondCountError is the error of an edge-list node number at or beyond
// the caller's node count opt.NumNodes, for a file with distinct distinct
// node numbers (counted at least up to NumNodes + 1) and the given base:
// it names where the count comes from (numNodesOrigin) and the node
// numbers it allows; when the file's numbers are no more than the count
// they may be IDs rather than node numbers, and GraphOptions.NamedNodes
// is named, otherwise the file has more nodes than the count. (A count the
// file declares keeps its own error.)
func beyondCountError(opt *GraphOptions, base, distinct int) error {
	want := wording.Count(opt.NumNodes, "node", "nodes")
	nums := fmt.Sprintf("numbers %d…%d", base, base+opt.NumNodes-1)
	if opt.NumNodes == 1 {
		nums = fmt.Sprintf("number %d", base)
	}
	if distinct <= opt.NumNodes {
		return errorf(ErrInvalid, "node number outside the %s %s (node %s, %d-based): if the file's integers are IDs rather than node numbers, read them as names with GraphOptions.NamedNodes%s", want, numNodesOrigin(opt), nums, base, then(opt.Spelling.Remedy("named-nodes")))
	}
	return errorf(ErrInvalid, "node number outside the %s %s (node %s, %d-based): the file has more than %s", want, numNodesOrigin(opt), nums, base, want)
}

// readLines reads the lines, checking each as the edge-list reader's line
// loop did, and keeps the records.
func (p *edgeParser) readLines(ctx context.Context) error {
	opt, name := p.opt, p.name
	var sp splitter
	decided := false
	var fields []string
	var tick func(float64)
	seen := false // a line that is not blank
	ln := 0
	for {
		l, ok := p.src.next()
		if !ok {
			break
		}
		ln++
		if err := poll(ctx, name, ln-1); err != nil {
			return err
		}
		if tick != nil && (ln-1)%textline.PollLines == 0 {
			tick(readProgress(p.src, ln))
		}
		if isBlank(l) {
			continue
		}
		if !seen {
			seen = true
			if matrixMarketBanner([]string{l}) {
				p.drain = true
				return &ParseError{File: name, Err: errorf(ErrSyntax, "a Matrix Market file (its first line is the %%%%MatrixMarket banner) read as an edge list, whose %%-lines are comments: its size line would be an edge (set GraphOptions.Format to MatrixMarket%s)", then(opt.Spelling.Remedy("graph-format", "mtx")))}
			}
			if n, zeroBased, ok := edgeListCount(l); ok {
				p.declared = true
				o := *opt
				if o.NumNodes == 0 {
					o.NumNodes = n
					p.counted = true
				}
				if zeroBased && o.Base == BaseAuto {
					o.Base = Base0
				}
				p.opt, opt = &o, &o
			}
		}
		if t := trimLeftBlank(l); t[0] == '#' || t[0] == '%' {
			continue
		}
		if !decided {
			sp = edgeListSplitter(l)
			decided = true
			p.m, p.nodeCost = newEdgeMeter(l, name, opt)
			tick = p.m.Step("lines", costLines)
		}
		var pos int
		var err error
		fields, pos, err = sp.split(l, fields)
		if err != nil {
			p.drain = true
			return &ParseError{File: name, Line: ln, Err: fmt.Errorf("character %d: %w", pos, err)}
		}
		if len(fields) < 2 || len(fields) > 3 {
			p.drain = true
			return &ParseError{File: name, Line: ln, Err: errorf(ErrSyntax, "%s, want \"i j\" or \"i j w\"", wording.Count(len(fields), "field", "fields"))}
		}
		w := 1.0
		if len(fields) == 3 {
			v, err := checkWeightText(fields[2])
			if err != nil {
				// A header such as "source target weight": only the first
				// data line, and only when neither its node fields nor its
				// weight field are written as numbers. "1 2 Inf" is an edge
				// with a bad weight, not a header.
				if len(p.ents) == 0 && p.header == 0 && !numberLike(fields[0]) && !numberLike(fields[1]) && !numberLike(fields[2]) {
					p.header = ln
					continue
				}
				p.drain = true
				return &ParseError{File: name, Line: ln, Column: 3, Value: strings.Clone(fields[2]), Err: err}
			}
			w = v
		}
		if err := p.record(fields[0], fields[1], w, len(fields) == 3, ln); err != nil {
			return err
		}
	}
	if err := p.src.drain(); err != nil {
		return err
	}
	if p.m == nil {
		p.m, p.nodeCost = newEdgeMeter("", name, opt)
		p.m.Step("lines", costLines)
	}
	return nil
}

// record keeps the record of line ln with node tokens a and b (aliasing
// the line) and weight w, weighed when the line has a third field.
func (p *edgeParser) record(a, b string, w float64, weighed bool, ln int) error {
	k := len(p.ents)
	if limit := p.opt.MaxEntries; limit > 0 && k >= limit {
		return &ParseError{File: p.name, Line: ln, Err: &BudgetError{Limit: LimitMaxEntries, Bound: limit, Of: "file", Counted: "edges"}}
	}
	if k == cap(p.ents) {
		p.ents = slices.Grow(p.ents, growth(p.src, k, p.opt.MaxEntries))
	}
	switch k {
	case 0:
		p.line0, p.weighed0, p.a0, p.b0 = ln, weighed, strings.Clone(a), strings.Clone(b)
		p.intMode = !p.opt.NamedNodes && intLike(a)
		if !p.intMode {
			p.ids = make(map[string]int32)
		}
	case 1:
		p.line1, p.weighed1, p.a1, p.b1 = ln, weighed, strings.Clone(a), strings.Clone(b)
	}
	if k >= 1 && weighed != p.weighed0 && p.mis0 == 0 {
		p.mis0 = ln
	}
	if k >= 2 && weighed != p.weighed1 && p.mis1 == 0 {
		p.mis1 = ln
	}
	if !p.intMode {
		i, err := p.token(a, ln)
		if err != nil {
			return err
		}
		j, err := p.token(b, ln)
		if err != nil {
			return err
		}
		p.ents = append(p.ents, entry{i: i, j: j, w: w, line: ln})
		return nil
	}
	// Integer nodes: the first record's first node is one (and the first
	// record cannot be a header). The checks of the passes over all the
	// records, in their order: a token that is not an integer, then one
	// that does not read or is negative.
	name, opt := p.name, p.opt
	if p.errs.mix == nil {
		for _, s := range [2]string{a, b} {
			if !intLike(s) {
				p.errs.mix = &ParseError{File: name, Line: ln, Value: strings.Clone(s), Err: errorf(ErrSyntax, "node is not an integer, but line %d has node %s: mix of integer node numbers and names (to read every node as a name, set GraphOptions.NamedNodes%s)", p.line0, quote(p.a0), namedFix(opt.Spelling))}
				break
			}
		}
	}
	var ij [2]int
	// Once a token is no integer, that is the error (its pass came
	// first), and the tokens need not read.
	if p.errs.mix == nil && p.errs.number == nil {
		for c, s := range [2]string{a, b} {
			v, ok := parseInt(s)
			if !ok {
				maxN := opt.maxNodes()
				if s[0] == '-' {
					p.errs.number = &ParseError{File: name, Line: ln, Value: strings.Clone(s), Err: errorf(ErrInvalid, "negative node number")}
				} else {
					p.errs.number = &ParseError{File: name, Line: ln, Value: strings.Clone(s), Err: errorf(ErrTooLarge, "node number out of range: at most %d nodes are read (GraphOptions.MaxNodes%s)", maxN, then(opt.Spelling.maxNodes()))}
				}
				break
			}
			ij[c] = v
		}
		if p.errs.number == nil && (ij[0] < 0 || ij[1] < 0) {
			v := a
			if ij[1] < 0 {
				v = b
			}
			p.errs.number = &ParseError{File: name, Line: ln, Value: strings.Clone(v), Err: errorf(ErrInvalid, "negative node number")}
		}
		if p.errs.number == nil {
			p.minIdx, p.maxIdx = min(p.minIdx, ij[0], ij[1]), max(p.maxIdx, ij[0], ij[1])
		}
	}
	e := entry{w: w, line: ln}
	e.i, e.j = p.keepNumber(k, 0, ij[0]), p.keepNumber(k, 1, ij[1])
	p.ents = append(p.ents, e)
	return nil
}

// growth returns how many entries to add to the room of entries that
// is full at k, read from src, with at most limit entries (0: no bound):
// append's growth by a quarter for large slices allocated 5 times the
// entries in all (120 bytes an edge). When src knows the input's size,
// the entries that its lines at the rate so far would hold, plus 5 %;
// otherwise as many as there are (doubling: twice the entries in all).
// Never room beyond limit. Cost O(1).
func growth(src lineSource, k, limit int) int {
	add := max(k, 1024)
	if f := src.fraction(); f > 0 && k >= 1024 {
		if est := int(float64(k)/f*1.05) + 64; est > k {
			add = est - k
		}
	}
	if limit > 0 {
		add = max(min(add, limit-k), 1)
	}
	return add
}

// keepNumber returns node number v of record k's node c (0 or 1) as an
// entry holds it, keeping a number above math.MaxInt32 in p.big.
func (p *edgeParser) keepNumber(k, c, v int) int32 {
	if v <= math.MaxInt32 {
		return int32(v)
	}
	if p.big == nil {
		p.big = make(map[int]int)
	}
	p.big[2*k+c] = v
	return 0
}

// number returns the node number of record k's node c that keepNumber
// kept.
func (p *edgeParser) number(k, c int, e entry) int {
	if v, ok := p.big[2*k+c]; ok {
		return v
	}
	if c == 0 {
		return int(e.i)
	}
	return int(e.j)
}

// token returns the id of token s (aliasing the line), adding it (cloned)
// when new.
func (p *edgeParser) token(s string, ln int) (int32, error) {
	if id, ok := p.ids[s]; ok {
		return id, nil
	}
	if len(p.toks) == math.MaxInt32 {
		return 0, &ParseError{File: p.name, Line: ln, Err: errorf(ErrTooLarge, "more than %d distinct node tokens", math.MaxInt32)}
	}
	s = strings.Clone(s)
	id := int32(len(p.toks))
	p.ids[s] = id
	p.toks = append(p.toks, s)
	return id, nil
}

// finish checks the records read as the edge-list reader's passes did, in
// their order, numbers the nodes and assembles the graph.
func (p *edgeParser) finish(ctx context.Context) (*GraphData, error) {
	name, opt := p.name, p.opt
	recs := p.ents
	line0, weighed0, mis := p.line0, p.weighed0, p.mis0
	a0 := p.a0
	// A header of two names followed by integer lines, or of two words
	// that name edge-list columns ("source target", "from,to") and occur
	// nowhere else in the file, as nodes of named edges would. Integer
	// records (intMode) begin with an integer: no header.
	header := p.header
	// Two such words alone are a header too, as "source target weight"
	// is, not an edge between nodes named source and target.
	if !p.intMode && header == 0 && len(recs) >= 1 {
		drop := false
		if len(recs) >= 2 && !numberLike(p.a0) && !numberLike(p.b0) && intLike(p.a1) && intLike(p.b1) {
			drop = true
		} else if isWord(p.a0, edgeHeaderWords) && isWord(p.b0, edgeHeaderWords) && !p.weighed0 {
			drop = true
			i0, j0 := recs[0].i, recs[0].j
			for _, r := range recs[1:] {
				if r.i == i0 || r.j == i0 || r.i == j0 || r.j == j0 {
					drop = false
					break
				}
			}
		}
		if drop {
			header = recs[0].line
			recs = recs[1:]
			line0, weighed0, mis = p.line1, p.weighed1, p.mis1
			a0 = p.a1
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
		if opt.NumNodes == 0 && !p.declared {
			return nil, &ParseError{File: name, Err: errorf(ErrSyntax, "no edges: %s (an edge list holds \"i j\" or \"i j w\" lines; a graph of nodes without edges needs its node count: %s)", what, noEdgesFix(opt.Spelling))}
		}
		noEdges = fmt.Sprintf("%s: no edges (%s): the graph has its declared nodes and no edge", name, what)
	}
	// Every data line has the fields of the first: "i j" lines and "i j w"
	// lines do not mix. A weighted file whose last line lost its weight
	// ("2 3 0.1" cut to "2 3") read that edge with weight 1, silently.
	if len(recs) > 0 && mis > 0 {
		got, want := 3, 2
		if weighed0 {
			got, want = 2, 3
		}
		return nil, &ParseError{File: name, Line: mis, Err: errorf(ErrSyntax, "%s, want %d as on the first data line (line %d): every edge has a weight or none does", wording.Count(got, "field", "fields"), want, line0)}
	}
	if err := stopped(ctx, name); err != nil {
		return nil, err
	}
	// One pass over the records for integer nodes, one for names: each
	// checks ctx, and tells the meter, every textline.PollLines.
	nodes := p.m.Step("numbering the nodes", p.nodeCost)
	pass := func(t int) error {
		if t%textline.PollLines != 0 {
			return nil
		}
		if nodes != nil {
			nodes(float64(t) / float64(len(recs)))
		}
		return stopped(ctx, name)
	}
	allInt := p.intMode
	if p.intMode {
		if p.errs.mix != nil {
			return nil, p.errs.mix
		}
		if p.errs.number != nil {
			return nil, p.errs.number
		}
	} else if !opt.NamedNodes && len(recs) > 0 {
		if err := p.tokenNumbers(ctx, recs, a0, line0); err != nil {
			return nil, err
		}
		allInt = p.intMode
	} else if !opt.NamedNodes {
		// No record: nodes without edges, numbered (their base too).
		allInt = true
	}
	d := &GraphData{HeaderLine: header}
	if noEdges != "" {
		d.Warnings = append(d.Warnings, noEdges)
	}
	maxN := opt.maxNodes()
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
			if p.minIdx == 1 && (opt.NumNodes == 0 || p.maxIdx >= opt.NumNodes) {
				base = 1
				if opt.NumNodes == 0 {
					d.Warnings = append(d.Warnings, baseOneWarning(name, opt.Spelling))
				}
			} else if p.minIdx == 1 {
				d.Warnings = append(d.Warnings, baseZeroWarning(name, p.maxIdx, opt.NumNodes, opt.Spelling))
			}
		}
		d.Base = base
		for t := range recs {
			if err := pass(t); err != nil {
				return nil, err
			}
			a, b := p.number(t, 0, recs[t]), p.number(t, 1, recs[t])
			for _, v := range [2]int{a, b} {
				if v < base {
					return nil, &ParseError{File: name, Line: recs[t].line, Value: strconv.Itoa(v), Err: errorf(ErrInvalid, "node number below the base %d", base)}
				}
				if v-base >= maxN {
					return nil, &ParseError{File: name, Line: recs[t].line, Value: strconv.Itoa(v), Err: errorf(ErrTooLarge, "node number ≥ %d nodes (GraphOptions.MaxNodes%s)", maxN, then(opt.Spelling.maxNodes()))}
				}
				if opt.NumNodes > 0 && v-base >= opt.NumNodes {
					if !p.counted {
						return nil, &ParseError{File: name, Line: recs[t].line, Value: strconv.Itoa(v), Err: p.beyondCount(recs, t, base)}
					}
					return nil, &ParseError{File: name, Line: recs[t].line, Value: strconv.Itoa(v), Err: errorf(ErrInvalid, "node number outside the %s declared (integers that are IDs rather than node numbers are read as names with GraphOptions.NamedNodes%s)", wording.Count(opt.NumNodes, "node", "nodes"), then(opt.Spelling.Remedy("named-nodes")))}
				}
			}
			n = max(n, a-base+1, b-base+1)
			// Numbers above math.MaxInt32 make n too large for a graph:
			// assemble refuses it before the entries are read.
			recs[t].i, recs[t].j = int32(min(a-base, math.MaxInt32)), int32(min(b-base, math.MaxInt32))
		}
	} else {
		node := make([]int32, len(p.toks))
		for k := range node {
			node[k] = -1
		}
		for t := range recs {
			if err := pass(t); err != nil {
				return nil, err
			}
			r := &recs[t]
			for c, id := range [2]*int32{&r.i, &r.j} {
				s := p.toks[*id]
				if strings.TrimSpace(s) == "" {
					// A missing node (",b,1"): read as a node named ""
					// it joined the graph, and the labels files then
					// numbered every node (KeyNames; review 114).
					return nil, &ParseError{File: name, Line: r.line, Column: c + 1, Err: errorf(ErrSyntax, "empty node name: the line lacks a node")}
				}
				if node[*id] < 0 {
					if len(d.Names) >= maxN {
						return nil, &ParseError{File: name, Line: r.line, Value: s, Err: errorf(ErrTooLarge, "more than %d nodes (GraphOptions.MaxNodes%s)", maxN, then(opt.Spelling.maxNodes()))}
					}
					node[*id] = int32(len(d.Names))
					d.Names = append(d.Names, s)
				}
			}
			r.i, r.j = node[r.i], node[r.j]
		}
		p.toks, p.ids = nil, nil
		n = len(d.Names)
		if opt.NumNodes > 0 && n > opt.NumNodes {
			if !p.counted {
				return nil, &ParseError{File: name, Err: errorf(ErrInvalid, "%d named nodes, more than the %s %s", n, wording.Count(opt.NumNodes, "node", "nodes"), numNodesOrigin(opt))}
			}
			return nil, &ParseError{File: name, Err: errorf(ErrInvalid, "%d named nodes, more than the %d declared", n, opt.NumNodes)}
		}
	}
	if opt.NumNodes > 0 {
		n = opt.NumNodes
		if n > maxN {
			return nil, &ParseError{File: name, Err: errorf(ErrTooLarge, "%d nodes exceed GraphOptions.MaxNodes = %d%s", n, maxN, paren(opt.Spelling.maxNodes()))}
		}
	} else if allInt && n <= math.MaxInt32 {
		// The caller declared no node count (nor did the file): IDs
		// read as node numbers leave most nodes without an edge. (More
		// nodes than a graph holds are refused by assemble.)
		if w := sparseNumbersWarning(name, n, d.Base, recs, opt.Spelling); w != "" {
			d.Warnings = append(d.Warnings, w)
		}
	}
	p.ents = nil
	g, dup, err := assemble(ctx, name, n, recs, opt, undirected, p.m)
	if err != nil {
		return nil, namedOverflow(err, name, func(i int) string {
			if d.Names != nil {
				return d.Names[i]
			}
			return strconv.Itoa(i + d.Base)
		})
	}
	p.m.Done()
	if dup != nil && dup.count > 0 {
		d.Warnings = append(d.Warnings, dup.warning(name, opt.Spelling))
	}
	d.G = g
	return d, nil
}

// tokenNumbers makes the checks of the passes over token records recs
// (the header dropped) when opt.NamedNodes is not set: the first node a0,
// on line line0, being no integer, a file whose tokens are all numbers is
// an error, and so is a mix of integers and names; when a0 is an integer,
// every token is, and the records then hold their numbers (p.intMode set,
// p.big, p.minIdx and p.maxIdx as record keeps them), or the first token
// that does not read, or is negative, is the error.
func (p *edgeParser) tokenNumbers(ctx context.Context, recs []entry, a0 string, line0 int) error {
	name, opt := p.name, p.opt
	firstInt := intLike(a0)
	tok := func(r entry) [2]string { return [2]string{p.toks[r.i], p.toks[r.j]} }
	if !firstInt && allNumbers(recs, tok) {
		// Every node written as a number, not all integers
		// (np.savetxt's "0.000000000000000000e+00"): a matrix of
		// numbers read as a graph of named nodes (review 114). Names
		// among them ("a b", "b 1.5") are names, as before.
		s := tok(recs[0])[0]
		if intLike(s) {
			s = tok(recs[0])[1]
		}
		return &ParseError{File: name, Line: recs[0].line, Value: s, Err: errorf(ErrSyntax, "every node is written as a number, and not all as integers: node numbers are integers (an affinity matrix needs GraphOptions.Format DenseCSV%s; nodes named by such numbers need GraphOptions.NamedNodes%s)", then(opt.Spelling.Remedy("graph-format", "dense")), then(opt.Spelling.Remedy("named-nodes")))}
	}
	for t, r := range recs {
		if t%textline.PollLines == 0 {
			if err := stopped(ctx, name); err != nil {
				return err
			}
		}
		for _, s := range tok(r) {
			if ok := intLike(s); ok != firstInt {
				what := "is not an integer, but"
				if ok {
					what = "is an integer, but"
				}
				return &ParseError{File: name, Line: r.line, Value: s, Err: errorf(ErrSyntax, "node %s line %d has node %s: mix of integer node numbers and names (to read every node as a name, set GraphOptions.NamedNodes%s)", what, line0, quote(a0), namedFix(opt.Spelling))}
			}
		}
	}
	if !firstInt {
		return nil
	}
	maxN := opt.maxNodes()
	for t, r := range recs {
		if t%textline.PollLines == 0 {
			if err := stopped(ctx, name); err != nil {
				return err
			}
		}
		var ij [2]int
		for c, s := range tok(r) {
			v, ok := parseInt(s)
			if !ok {
				if s[0] == '-' {
					return &ParseError{File: name, Line: r.line, Value: s, Err: errorf(ErrInvalid, "negative node number")}
				}
				return &ParseError{File: name, Line: r.line, Value: s, Err: errorf(ErrTooLarge, "node number out of range: at most %d nodes are read (GraphOptions.MaxNodes%s)", maxN, then(opt.Spelling.maxNodes()))}
			}
			ij[c] = v
		}
		if ij[0] < 0 || ij[1] < 0 {
			v := tok(r)[0]
			if ij[1] < 0 {
				v = tok(r)[1]
			}
			return &ParseError{File: name, Line: r.line, Value: v, Err: errorf(ErrInvalid, "negative node number")}
		}
		p.minIdx, p.maxIdx = min(p.minIdx, ij[0], ij[1]), max(p.maxIdx, ij[0], ij[1])
	}
	// The records hold the numbers from here on (p.big keyed by their
	// place in recs).
	p.big = nil
	for t := range recs {
		s := tok(recs[t])
		a, _ := parseInt(s[0])
		b, _ := parseInt(s[1])
		recs[t].i, recs[t].j = p.keepNumber(t, 0, a), p.keepNumber(t, 1, b)
	}
	p.intMode = true
	return nil
}
