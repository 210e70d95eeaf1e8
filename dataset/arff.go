package dataset

import (
	"context"
	"fmt"
	"strings"

	"github.com/tether-sc/tether/internal/textline"
	"github.com/tether-sc/tether/internal/wording"
)

// parseARFF reads the ARFF header and data rows into a raw table, telling
// tick (nil: none) the fraction of the lines read every
// textline.PollLines lines. See ReadARFF for what is supported.
func parseARFF(ctx context.Context, lines []string, name string, opt *Options, tick func(float64)) (*rawTable, error) {
	raw := &rawTable{file: name, named: true, isARFF: true}
	inData := false
	sawRelation := false
	sp := splitter{delim: ',', quotes: `'"`, backslash: true}
	var fields []string
	for ln, l := range lines {
		if err := poll(ctx, name, ln); err != nil {
			return nil, err
		}
		if tick != nil && ln%textline.PollLines == 0 {
			tick(float64(ln) / float64(len(lines)))
		}
		lineNo := ln + 1
		t := strings.TrimSpace(l)
		if t == "" || t[0] == '%' {
			continue
		}
		if !inData {
			if t[0] != '@' {
				return nil, &ParseError{File: name, Line: lineNo, Value: t, Err: errorf(ErrSyntax, "expected @relation, @attribute or @data")}
			}
			kw, rest := cutSpace(t)
			switch strings.ToLower(kw) {
			case "@relation":
				sawRelation = true
			case "@attribute":
				c, err := parseAttribute(rest)
				if err != nil {
					return nil, &ParseError{File: name, Line: lineNo, Name: "@attribute", Value: rest, Err: err}
				}
				raw.cols = append(raw.cols, c)
			case "@data":
				if len(raw.cols) == 0 {
					return nil, &ParseError{File: name, Line: lineNo, Err: errorf(ErrSyntax, "@data before any @attribute")}
				}
				inData = true
			default:
				return nil, &ParseError{File: name, Line: lineNo, Value: kw, Err: errorf(ErrSyntax, "unknown ARFF keyword")}
			}
			continue
		}
		if opt.MaxRows > 0 && len(raw.rows) >= opt.MaxRows {
			break
		}
		if t[0] == '{' {
			return nil, &ParseError{File: name, Line: lineNo, Err: errorf(ErrSyntax, "sparse ARFF rows are not supported")}
		}
		var pos int
		var err error
		fields, pos, err = sp.split(t, nil)
		if err != nil {
			return nil, &ParseError{File: name, Line: lineNo, Err: fmt.Errorf("character %d: %w", pos, err)}
		}
		if len(fields) != len(raw.cols) {
			return nil, &ParseError{File: name, Line: lineNo, Err: errorf(ErrSyntax, "%s, want %d (one per @attribute)", wording.Count(len(fields), "value", "values"), len(raw.cols))}
		}
		raw.rows = append(raw.rows, fields)
		raw.lines = append(raw.lines, lineNo)
	}
	if !sawRelation && len(raw.cols) == 0 {
		return nil, &ParseError{File: name, Err: errorf(ErrSyntax, "not an ARFF file: no @relation or @attribute")}
	}
	if !inData {
		return nil, &ParseError{File: name, Err: errorf(ErrSyntax, "no @data section")}
	}
	return raw, nil
}

// cutSpace splits s at its first run of blanks.
func cutSpace(s string) (string, string) {
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimSpace(s[i:])
}

// parseAttribute parses what follows "@attribute": a name and a type.
func parseAttribute(s string) (column, error) {
	var c column
	if s == "" {
		return c, errorf(ErrSyntax, "missing attribute name")
	}
	var rest string
	if q := s[0]; q == '\'' || q == '"' {
		var b strings.Builder
		i := 1
		closed := false
		for i < len(s) {
			ch := s[i]
			if ch == '\\' && i+1 < len(s) {
				b.WriteByte(s[i+1])
				i += 2
				continue
			}
			if ch == q {
				closed = true
				i++
				break
			}
			b.WriteByte(ch)
			i++
		}
		if !closed {
			return c, errorf(ErrSyntax, "unterminated quote in attribute name")
		}
		c.name = b.String()
		rest = strings.TrimSpace(s[i:])
	} else {
		i := strings.IndexAny(s, " \t{")
		if i < 0 {
			return c, errorf(ErrSyntax, "attribute %s has no type", quote(s))
		}
		c.name = s[:i]
		rest = strings.TrimSpace(s[i:])
	}
	if rest == "" {
		return c, errorf(ErrSyntax, "attribute %s has no type", quote(c.name))
	}
	if rest[0] == '{' {
		end := strings.LastIndexByte(rest, '}')
		if end < 0 {
			return c, errorf(ErrSyntax, "attribute %s: nominal list without closing '}'", quote(c.name))
		}
		sp := splitter{delim: ',', quotes: `'"`, backslash: true}
		inner := rest[1:end]
		vals, _, err := sp.split(inner, nil)
		if err != nil {
			return c, fmt.Errorf("attribute %s: %w", quote(c.name), err)
		}
		seen := make(map[string]bool, len(vals))
		for _, v := range vals {
			if seen[v] {
				return c, errorf(ErrSyntax, "attribute %s: nominal value %s declared twice", quote(c.name), quote(v))
			}
			seen[v] = true
		}
		if len(vals) == 0 {
			return c, errorf(ErrSyntax, "attribute %s: empty nominal list", quote(c.name))
		}
		c.kind = kindNominal
		c.levels = vals
		return c, nil
	}
	typ, _ := cutSpace(rest)
	switch strings.ToLower(typ) {
	case "numeric", "real", "integer":
		c.kind = kindNumeric
	case "string":
		c.kind = kindString
	case "date", "relational":
		return c, errorf(ErrSyntax, "attribute %s: %s attributes are not supported", quote(c.name), strings.ToLower(typ))
	default:
		return c, errorf(ErrSyntax, "attribute %s: unknown type %s", quote(c.name), quote(typ))
	}
	return c, nil
}
