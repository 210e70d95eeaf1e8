package server

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/tether-sc/tether/constraint"
)

// This file holds the bounds on the replies of the read-only GETs
// (readSession) computed before the replies are built, so that a reply
// that would not fit the bytes in transit (Server.countReply) is refused
// before it is built: a refused save of an upload near the limit built
// 180 MB first (a copy of the upload and its base64), and so did every
// refused points reply or export of a large session (review of tether
// serve). Each is an upper bound on the bytes the handler writes, from
// the session's sizes (n, k, the names, the constraints, the upload), in
// O(n + pairs + upload) time and a few small allocations: the parts of
// the reply of bounded size (names of the data, a cluster request, notes)
// are encoded as they are (jsonLen) without the large ones.

// maxFloatJSON bounds the length of a float64 as encoding/json writes it:
// 17 significant digits with a sign, a point and an exponent,
// -2.2250738585072014e-308 (24 bytes), or in 'f' form from 10⁻⁶ on,
// -0.0000012345678901234567 (25 bytes).
const maxFloatJSON = 25

// replySlack is added to each bound for the brackets, separators and
// rounding of the parts not counted one by one.
const replySlack = 256

// intLen returns the length of v in decimal, its sign included.
func intLen(v int) int64 {
	var b [24]byte
	return int64(len(strconv.AppendInt(b[:0], int64(v), 10)))
}

// floatJSONLen bounds the length of v as encoding/json writes it: its
// shortest form, 'f' from 10⁻⁶ to 10²¹ and 'e' outside, whose exponent
// encoding/json may shorten by a digit (e-07 to e-7). Cost O(1), no
// allocation.
func floatJSONLen(v float64) int64 {
	var b [32]byte
	f := byte('f')
	if a := math.Abs(v); a != 0 && (a < 1e-6 || a >= 1e21) {
		f = 'e'
	}
	return int64(len(strconv.AppendFloat(b[:0], v, f, -1, 64)))
}

// floatsJSONBound bounds the JSON array of xs, each element followed by
// a comma. Cost O(len(xs)).
func floatsJSONBound(xs []float64) int64 {
	b := int64(2)
	for _, x := range xs {
		b += floatJSONLen(x) + 1
	}
	return b
}

// pairsJSONBound bounds the JSON array of pairs as toJSON gives them
// ({"i":…,"j":…,"kind":"ml","weight":…}, weight omitted when 0), and
// pairsCSVBound the lines constraint.Write gives them (i,j,ml[,weight]).
// Cost O(len(pairs)).
func pairsJSONBound(pairs []constraint.Pair) int64 {
	b := int64(2)
	for _, p := range pairs {
		b += int64(len(`{"i":,"j":,"kind":"ml"},`)) + intLen(p.I) + intLen(p.J)
		if p.Weight != 0 {
			b += int64(len(`,"weight":`)) + floatJSONLen(p.Weight)
		}
	}
	return b
}

func pairsCSVBound(pairs []constraint.Pair) int64 {
	var b int64
	for _, p := range pairs {
		b += intLen(p.I) + intLen(p.J) + int64(len(",,ml\n"))
		if p.Weight != 0 {
			b += 1 + maxFloatJSON
		}
	}
	return b
}

// jsonStringBound returns an upper bound on the length of s as a JSON
// string without HTML escapes, quotes included: jsonStringLen + 2 for
// valid UTF-8, 6 bytes a byte otherwise (encoding/json writes each
// invalid byte as \ufffd). Cost O(len(s)).
func jsonStringBound(s string) int64 {
	if !utf8.ValidString(s) {
		return 6*int64(len(s)) + 2
	}
	return jsonStringLen(s) + 2
}

// intsJSONBound bounds the JSON array of xs, each element followed by
// sep bytes (its comma, and with indentation its newline and indent).
// Cost O(len(xs)).
func intsJSONBound(xs []int, sep int64) int64 {
	b := int64(2)
	for _, x := range xs {
		b += intLen(x) + sep
	}
	return b
}

// namesJSONBound bounds the JSON array of names, as intsJSONBound.
func namesJSONBound(names []string, sep int64) int64 {
	b := int64(2)
	for _, s := range names {
		b += jsonStringBound(s) + sep
	}
	return b
}

// jsonLen returns the length of v as sendJSON writes it with indent, or
// a bound of 1 MiB when v cannot be encoded (the handler then fails, its
// error reply small). It allocates the encoding: give it the small parts
// of a reply only.
func jsonLen(v any, indent string) int64 {
	var c countingWriter
	enc := json.NewEncoder(&c)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		return 1 << 20
	}
	return c.n
}

// countingWriter counts the bytes written to it.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

// pointsBound bounds the reply of GET …/points (handlePoints): 2n
// coordinates, the names and the reference labels, and the rest encoded.
func pointsBound(ss *sessionView) int64 {
	if ss.data == nil {
		return 0
	}
	d := ss.data
	return jsonLen(pointsReply{Name: d.Name, N: d.Graph.N(), View: ss.what}, "") +
		floatsJSONBound(ss.view) + namesJSONBound(d.Names, 1) + intsJSONBound(d.Truth, 1) + 3*replySlack
}

// constraintsBound bounds the reply of GET …/constraints
// (handleGetConstraints).
func constraintsBound(ss *sessionView) int64 {
	return pairsJSONBound(ss.pairs) + replySlack
}

// constraintsCSVBound bounds the constraints export
// (handleExportConstraints).
func constraintsCSVBound(ss *sessionView) int64 {
	return pairsCSVBound(ss.pairs) + replySlack
}

// labelsBound bounds the labels export (handleExportLabels): a line a
// node, its name quoted (each quote doubled: at most 2·len + 2 bytes) or
// its number (when the names cannot key the nodes,
// dataset.KeyNames), a comma, its label and a newline.
func labelsBound(ss *sessionView) int64 {
	if ss.data == nil || ss.last == nil {
		return 0
	}
	names := ss.data.Names
	if len(names) != len(ss.last.Labels) {
		names = nil
	}
	b := int64(replySlack)
	for i, l := range ss.last.Labels {
		key := intLen(i)
		if names != nil {
			key = max(key, 2*int64(len(names[i]))+2)
		}
		b += key + 1 + intLen(l) + 1
	}
	return b
}

// summaryIndent is the indentation of the summary export; its labels and
// names are at depth 2, each on a line of its own.
const summaryIndent = "  "

// summaryBound bounds the summary export (handleExportSummary): the
// labels and names, each element on its own line at depth 2 (a comma, a
// newline and 4 spaces), and the rest encoded.
func summaryBound(ss *sessionView) int64 {
	if ss.data == nil || ss.last == nil {
		return 0
	}
	reply := *ss.last
	reply.Labels = nil
	sep := int64(1 + 1 + 2*len(summaryIndent))
	return jsonLen(summaryReply{Input: ss.data.Name, N: ss.data.Graph.N(), ClusterReply: &reply, Request: ss.lastReq}, summaryIndent) +
		intsJSONBound(ss.last.Labels, sep) + namesJSONBound(ss.data.Names, sep) + 2*replySlack
}

// saveBound bounds the saved session (handleSave): the upload as
// savedSource writes it (its JSON string or its base64), the
// constraints, and the rest encoded.
func saveBound(ss *sessionView) int64 {
	if ss.data == nil {
		return 0
	}
	src := ss.source
	upload := src.Upload
	src.Upload = nil
	doc := savedSession{Version: 1, Source: src}
	if ss.last != nil {
		req := ss.lastReq
		doc.Request = &req
	}
	b := jsonLen(doc, "") + pairsJSONBound(ss.pairs) + replySlack
	if len(upload) > 0 {
		b64 := int64(base64.StdEncoding.EncodedLen(len(upload)))
		if s := jsonStringLen(upload); utf8.Valid(upload) && s <= b64 {
			b += s
		} else {
			b += b64
		}
		b += int64(len(`,"upload_base64":""`))
	}
	return b
}
