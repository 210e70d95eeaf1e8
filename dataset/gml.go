package dataset

import (
	"context"
	"fmt"
	"html"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// gmlMaxDepth bounds the nesting of GML lists, so hostile input cannot
// exhaust the stack.
const gmlMaxDepth = 32

// gmlValue is a GML value: a number or string (text) or a list.
type gmlValue struct {
	text  string
	isStr bool
	list  []gmlPair
	isLst bool
	line  int
}

type gmlPair struct {
	key string
	val gmlValue
}

// gmlLexer splits GML text into tokens.
type gmlLexer struct {
	s    string
	pos  int
	line int
}

type gmlToken struct {
	kind byte // 'k' key, 'n' number, 's' string, '[' , ']', 0 end
	text string
	line int
}

func (lx *gmlLexer) next() (gmlToken, error) {
	s := lx.s
	for lx.pos < len(s) {
		c := s[lx.pos]
		switch {
		case c == '\n':
			lx.line++
			lx.pos++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			lx.pos++
		case c == '#':
			for lx.pos < len(s) && s[lx.pos] != '\n' {
				lx.pos++
			}
		default:
			goto tok
		}
	}
	return gmlToken{line: lx.line}, nil
tok:
	c := s[lx.pos]
	start, line := lx.pos, lx.line
	switch {
	case c == '[' || c == ']':
		lx.pos++
		return gmlToken{kind: c, line: line}, nil
	case c == '"':
		lx.pos++
		for lx.pos < len(s) && s[lx.pos] != '"' {
			if s[lx.pos] == '\n' {
				lx.line++
			}
			lx.pos++
		}
		if lx.pos == len(s) {
			return gmlToken{}, &ParseError{Line: line, Err: errorf(ErrSyntax, "unterminated string")}
		}
		lx.pos++
		return gmlToken{kind: 's', text: gmlUnescape(s[start+1 : lx.pos-1]), line: line}, nil
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_':
		for lx.pos < len(s) && isKeyByte(s[lx.pos]) {
			lx.pos++
		}
		return gmlToken{kind: 'k', text: s[start:lx.pos], line: line}, nil
	case (c == '+' || c == '-') && lx.pos+4 <= len(s) && strings.EqualFold(s[lx.pos+1:lx.pos+4], "INF") && (lx.pos+4 == len(s) || !isKeyByte(s[lx.pos+4])):
		// networkx writes ±infinity as +INF and -INF (and NaN as NAN,
		// a key-like word: parseList): a number, non-finite, which
		// weights and ids refuse, labels and classes take as the text
		// they are, and the other attributes leave alone (the whole
		// file was refused at "+"; review 114).
		lx.pos += 4
		return gmlToken{kind: 'n', text: s[start:lx.pos], line: line}, nil
	case c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.':
		for lx.pos < len(s) && (s[lx.pos] >= '0' && s[lx.pos] <= '9' || strings.IndexByte("+-.eE", s[lx.pos]) >= 0) {
			lx.pos++
		}
		t := s[start:lx.pos]
		if _, ok := parseNum(t); !ok {
			return gmlToken{}, &ParseError{Line: line, Value: t, Err: errorf(ErrSyntax, "malformed number")}
		}
		return gmlToken{kind: 'n', text: t, line: line}, nil
	}
	return gmlToken{}, &ParseError{Line: line, Value: string(c), Err: errorf(ErrSyntax, "unexpected character")}
}

// gmlEntity matches the character references of GML strings: GML text
// is 7-bit ASCII, other characters written as HTML entities (Himsolt,
// "GML: A portable Graph File Format", §2: "&auml;"), and networkx
// writes them as "&#252;". Only references closed by ';' are read, so a
// bare "AT&T" or "R&D" stays as it is.
var gmlEntity = regexp.MustCompile(`&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});`)

// gmlUnescape returns the GML string s with its character references
// decoded (gmlEntity): "J&#252;rgen" and "J&uuml;rgen" are "Jürgen".
// Numeric references are the code point they give (&#128; is U+0080, as
// networkx reads it, not HTML5's €); named ones are decoded only when the
// whole name is one entity of one graphic character (spaces such as &nbsp; included) (Go's HTML table:
// HTML 4's names, which networkx reads, and HTML5's). A reference that
// names no character is left as written: &foo;, &#0;, a surrogate, and
// &notit;, which html.UnescapeString would read as "¬it;" (review 123),
// as are names of control characters (&NewLine;). Node names and label
// values read from a GML file are the decoded ones. Cost O(len(s)).
func gmlUnescape(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	return gmlEntity.ReplaceAllStringFunc(s, func(ref string) string {
		body := ref[1 : len(ref)-1]
		if num, ok := strings.CutPrefix(body, "#"); ok {
			base := 10
			if h, ok := strings.CutPrefix(strings.ToLower(num), "x"); ok {
				num, base = h, 16
			}
			v, err := strconv.ParseUint(num, base, 32)
			if r := rune(v); err == nil && v != 0 && utf8.ValidRune(r) {
				return string(r)
			}
			return ref
		}
		u := html.UnescapeString(ref)
		if r, size := utf8.DecodeRuneInString(u); u == ref || size != len(u) || r == utf8.RuneError || !unicode.IsGraphic(r) {
			return ref
		}
		return u
	})
}

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// parseList reads key–value pairs until ']' (depth > 0) or the end.
func (lx *gmlLexer) parseList(depth int) ([]gmlPair, error) {
	var out []gmlPair
	for {
		t, err := lx.next()
		if err != nil {
			return nil, err
		}
		switch t.kind {
		case 0:
			if depth > 0 {
				return nil, &ParseError{Line: t.line, Err: errorf(ErrSyntax, "missing ']' at end of file")}
			}
			return out, nil
		case ']':
			if depth == 0 {
				return nil, &ParseError{Line: t.line, Err: errorf(ErrSyntax, "unbalanced ']'")}
			}
			return out, nil
		case 'k':
		default:
			return nil, &ParseError{Line: t.line, Value: t.text, Err: errorf(ErrSyntax, "expected a key")}
		}
		v, err := lx.next()
		if err != nil {
			return nil, err
		}
		p := gmlPair{key: t.text, val: gmlValue{line: v.line}}
		switch v.kind {
		case 'n':
			p.val.text = v.text
		case 's':
			p.val.text, p.val.isStr = v.text, true
		case 'k':
			if !strings.EqualFold(v.text, "NAN") && !strings.EqualFold(v.text, "INF") {
				return nil, &ParseError{Line: v.line, Value: t.text, Err: errorf(ErrSyntax, "key without a value")}
			}
			// networkx's NaN and infinity (see next): a number.
			p.val.text = v.text
		case '[':
			if depth+1 > gmlMaxDepth {
				return nil, &ParseError{Line: v.line, Err: errorf(ErrTooLarge, "lists nested deeper than %d", gmlMaxDepth)}
			}
			l, err := lx.parseList(depth + 1)
			if err != nil {
				return nil, err
			}
			p.val.list, p.val.isLst = l, true
		default:
			return nil, &ParseError{Line: v.line, Value: t.text, Err: errorf(ErrSyntax, "key without a value")}
		}
		out = append(out, p)
	}
}

// gmlNodeAttrs describes the attributes with a number or string value that
// the nodes in l have, other than id, for an error naming an attribute they
// lack: `the nodes' attributes besides id are "club", "label"`, sorted, or
// that they have none.
func gmlNodeAttrs(l []gmlPair) string {
	seen := map[string]bool{}
	var keys []string
	for _, p := range l {
		if p.key != "node" || !p.val.isLst {
			continue
		}
		for _, a := range p.val.list {
			if a.val.isLst || a.key == "id" || seen[a.key] {
				continue
			}
			seen[a.key] = true
			keys = append(keys, a.key)
		}
	}
	if len(keys) == 0 {
		return "the nodes have no attribute besides id"
	}
	slices.Sort(keys)
	for k := range keys {
		keys[k] = quote(keys[k])
	}
	return "the nodes' attributes besides id are " + strings.Join(keys, ", ")
}

// gmlAnyNodeHas reports whether a node of the GML list l has the
// attribute key. Cost O(size of l).
func gmlAnyNodeHas(l []gmlPair, key string) bool {
	for _, p := range l {
		if p.key != "node" || !p.val.isLst {
			continue
		}
		for _, a := range p.val.list {
			if a.key == key {
				return true
			}
		}
	}
	return false
}

// parseGML implements the GML reader of ReadGraph.
func parseGML(ctx context.Context, lines []string, name string, opt *GraphOptions) (*GraphData, error) {
	if err := poll(ctx, name, 0); err != nil {
		return nil, err
	}
	lx := &gmlLexer{s: strings.Join(lines, "\n"), line: 1}
	top, err := lx.parseList(0)
	if err != nil {
		if pe, ok := err.(*ParseError); ok {
			pe.File = name
		}
		return nil, err
	}
	// One graph per file: a second graph list is refused, not dropped.
	var g *gmlValue
	for k := range top {
		if !strings.EqualFold(top[k].key, "graph") || !top[k].val.isLst {
			continue
		}
		if g != nil {
			return nil, &ParseError{File: name, Line: top[k].val.line, Err: errorf(ErrSyntax, "a second \"graph [ … ]\" list (the first is on line %d): tether reads one graph per file", g.line)}
		}
		g = &top[k].val
	}
	if g == nil {
		return nil, &ParseError{File: name, Err: errorf(ErrSyntax, "no \"graph [ … ]\" list")}
	}
	// get returns the number or string value of key in the list l of a
	// what ("node", "edge", "graph"). GML lets a key repeat in a list
	// (that is how a graph holds its nodes and edges), but each key read
	// here (id, label, the label and weight attributes, source, target,
	// directed) holds one value: a repeat, even as a list, is an error
	// naming both lines rather than a silent choice of one.
	get := func(l []gmlPair, key, what string) (*gmlValue, bool, error) {
		var v *gmlValue
		first := 0
		for k := range l {
			if l[k].key != key {
				continue
			}
			if first != 0 {
				return nil, false, &ParseError{File: name, Line: l[k].val.line, Name: key, Value: l[k].val.text, Err: errorf(ErrSyntax, "the %s has %s twice (first on line %d); it holds one value", what, quote(key), first)}
			}
			first = l[k].val.line
			if !l[k].val.isLst {
				v = &l[k].val
			}
		}
		return v, v != nil, nil
	}
	maxN := opt.maxNodes()
	index := make(map[int]int)
	var names, attrs []string
	var nameLines []int // the line of each name: its label, else its id
	for _, p := range g.list {
		if p.key != "node" || !p.val.isLst {
			continue
		}
		idv, ok, err := get(p.val.list, "id", "node")
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, &ParseError{File: name, Line: p.val.line, Err: errorf(ErrSyntax, "node without id")}
		}
		id, ok := parseInt(idv.text)
		if !ok && !idv.isStr && intLike(idv.text) {
			return nil, &ParseError{File: name, Line: idv.line, Name: "id", Value: idv.text, Err: errorf(ErrInvalid, "node id out of range: ids of at most %d characters are read", maxIntChars)}
		}
		if !ok || idv.isStr {
			return nil, &ParseError{File: name, Line: idv.line, Name: "id", Value: idv.text, Err: errorf(ErrSyntax, "node id is not an integer")}
		}
		if _, dup := index[id]; dup {
			return nil, &ParseError{File: name, Line: idv.line, Name: "id", Value: idv.text, Err: errorf(ErrInvalid, "node id declared twice")}
		}
		if len(index) >= maxN {
			return nil, &ParseError{File: name, Line: idv.line, Err: errorf(ErrTooLarge, "more than %d nodes (GraphOptions.MaxNodes%s)", maxN, then(opt.Spelling.maxNodes()))}
		}
		index[id] = len(index)
		nm, at := idv.text, idv.line
		lv, ok, err := get(p.val.list, "label", "node")
		if err != nil {
			return nil, err
		}
		if ok {
			nm, at = lv.text, lv.line
		}
		names = append(names, nm)
		nameLines = append(nameLines, at)
		if opt.LabelAttr != "" {
			av, ok, err := get(p.val.list, opt.LabelAttr, "node")
			if err != nil {
				return nil, err
			}
			if !ok {
				// No node has it: the option does not fit the file
				// (ErrOption); some nodes have it: the file lacks it.
				sentinel := ErrInvalid
				if !gmlAnyNodeHas(g.list, opt.LabelAttr) {
					sentinel = ErrOption
				}
				return nil, &ParseError{File: name, Line: p.val.line, Err: errorf(sentinel, "node %s has no attribute %s (GraphOptions.LabelAttr%s); %s", idv.text, quote(opt.LabelAttr), then(opt.Spelling.Remedy("gml-label")), gmlNodeAttrs(g.list))}
			}
			attrs = append(attrs, av.text)
		}
	}
	var ents []entry
	type pair struct{ lo, hi int }
	seen := make(map[pair]int) // first line of each undirected edge
	repeats, firstRepeat, firstOrig := 0, 0, 0
	for _, p := range g.list {
		if p.key != "edge" || !p.val.isLst {
			continue
		}
		var ends [2]int
		for k, key := range [2]string{"source", "target"} {
			v, ok, err := get(p.val.list, key, "edge")
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, &ParseError{File: name, Line: p.val.line, Err: errorf(ErrSyntax, "edge without %s", key)}
			}
			id, ok := parseInt(v.text)
			idx, known := index[id]
			if !ok || v.isStr || !known {
				return nil, &ParseError{File: name, Line: v.line, Name: key, Value: v.text, Err: errorf(ErrInvalid, "not the id of a node")}
			}
			ends[k] = idx
		}
		w := 1.0
		wk := opt.WeightAttr
		wv, ok, err := (*gmlValue)(nil), false, error(nil)
		if wk != "" {
			wv, ok, err = get(p.val.list, wk, "edge")
		} else if wv, ok, err = get(p.val.list, "weight", "edge"); ok {
			wk = "weight"
		} else if err == nil {
			if wv, ok, err = get(p.val.list, "value", "edge"); ok {
				wk = "value"
			}
		}
		if err != nil {
			return nil, err
		}
		if ok {
			var err error
			if w, err = checkWeightText(wv.text); err != nil || wv.isStr {
				if err == nil {
					err = errorf(ErrSyntax, "weight is a string")
				}
				return nil, &ParseError{File: name, Line: wv.line, Name: wk, Value: wv.text, Err: err}
			}
		}
		ents = append(ents, entry{i: int32(ends[0]), j: int32(ends[1]), w: w, line: p.val.line})
		k := pair{min(ends[0], ends[1]), max(ends[0], ends[1])}
		if l, dup := seen[k]; dup {
			if repeats == 0 {
				firstRepeat, firstOrig = p.val.line, l
			}
			repeats++
		} else {
			seen[k] = p.val.line
		}
	}
	// Its own warning above covers every repeat, with weights or not.
	gr, _, err := assemble(ctx, name, len(index), ents, opt, undirected, nil)
	if err != nil {
		return nil, namedOverflow(err, name, func(i int) string { return names[i] })
	}
	d := &GraphData{G: gr, Names: names, NameLines: nameLines}
	// Directed graphs and multigraphs are read as simple undirected graphs,
	// as spectral clustering needs; say so rather than change them silently.
	v, ok, err := get(g.list, "directed", "graph")
	if err != nil {
		return nil, err
	}
	if ok && v.text == "1" {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%s:%d: the graph is directed (directed 1); it is read as undirected, an edge u→v joining u and v both ways", name, v.line))
	}
	if repeats > 0 {
		how := "the largest weight kept"
		if opt.Duplicates == DupSum {
			how = "their weights added"
		}
		what := "edges repeat"
		if repeats == 1 {
			what = "edge repeats"
		}
		front := ""
		if f := opt.Spelling.frontName(); f != "" {
			front = f + " always merges them; "
		}
		d.Warnings = append(d.Warnings, fmt.Sprintf("%s:%d: %d %s an earlier edge between the same nodes (the first repeats line %d; a multigraph, or both directions of a directed edge); each set of repeats is merged into one edge with %s (%slibrary: GraphOptions.Duplicates, DupError refuses such files)", name, firstRepeat, repeats, what, firstOrig, how, front))
	}
	// Labels that cannot name the nodes (repeated or empty): the labels
	// files written for them number them instead, as for a table's IDs.
	if w := keyClashWarning(name, "the node labels (label, else id)", "nodes", "label", names, func(i int) int { return nameLines[i] }, opt.Spelling); w != "" {
		d.Warnings = append(d.Warnings, w)
	}
	if opt.LabelAttr != "" {
		seen := map[string]bool{}
		for _, a := range attrs {
			if !seen[a] {
				seen[a] = true
				d.ClassNames = append(d.ClassNames, a)
			}
		}
		sortLevels(d.ClassNames)
		code := make(map[string]int, len(d.ClassNames))
		for k, c := range d.ClassNames {
			code[c] = k
		}
		d.Labels = make([]int, len(attrs))
		for i, a := range attrs {
			d.Labels[i] = code[a]
		}
	}
	return d, nil
}
