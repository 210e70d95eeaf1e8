package dataset

import (
	"fmt"
	"strconv"
	"strings"
)

// Spelling says how a front end of the readers spells the options that
// the messages of this package and of package input suggest ("-missing
// drop dropped these rows", "-knn 5 builds this graph"), and the outputs
// and side files they name: tether's command line (CommandLine), a job's
// JSON spec, the web app's upload options. A front end without an option
// is never told to set it: the message names the library's option alone,
// or says what to change in the data instead. The zero value is the
// library's own: the messages name the Go options alone
// ("(library: Options.Missing = MissingDrop)"), and no front end's
// flag or command. Options.Spelling,
// GraphOptions.Spelling and NodeLabelOptions.Spelling carry it to the
// readers; its method Remedy carries it to the errors of graph building
// (graph.BuildNeighborsSpelled, input.Data.BuildGraphSpelled) and to
// the errors and warnings of clustering (cluster.Settings.Spelling),
// whose own zero value, nil, names the library's options alone.
type Spelling struct {
	// Front names the front end in messages that name its option beside
	// the library's ("(tether: -missing drop; library: Options.Missing =
	// MissingDrop)"): "tether", "serve", "job". It is "" in the zero
	// value, which names no front end's option.
	Front string
	// CommandLine marks tether's command line: every option is then its
	// flag of tether cluster, written "-missing drop" (Style and the
	// option names below are unused), the messages may name tether's
	// commands ("tether labels -input FILE -o FILE writes that column"),
	// and a Front of "" is "tether". tether's commands set
	// Spelling{Front: "tether", CommandLine: true}.
	CommandLine bool
	// Style is how the front end writes an option with its value.
	Style Style
	// The front end's names of the options the messages suggest, each
	// "" when the front end has none: Label (tether cluster's -label),
	// ID (-id), Drop (-drop), Categorical (-categorical), Missing
	// (-missing), KNN (-knn) and Sigma (-sigma).
	Label, ID, Drop, Categorical, Missing, KNN, Sigma string
	// MissingMarkers is the front end's name of its list of the field
	// values that mean missing (-missing-markers), "" when it has none.
	// The list adds markers to ? and the empty field, which the front
	// end reads as missing anyway: it gives Options.MissingMarkers as
	// FrontMissingMarkers makes them. Its value in Option and Remedy is
	// the list, comma-separated ("NULL,NA"): a JSON style writes it as
	// a list (`"missing_markers": ["NULL", "NA"]`).
	MissingMarkers string
	// The front end's names of the table's options Delim (-delim) and
	// Header (-header), of the graph file's GraphFormat (-graph-format),
	// Symmetrize (-symmetrize), NamedNodes (-named-nodes), MaxNodes
	// (-max-nodes), GMLLabel (-gml-label) and GraphBase (-graph-base, an
	// edge list's GraphOptions.Base), and of the side files Truth
	// (-truth), Constraints (-constraints) and PartialLabels
	// (-partial-labels), each "" when the front end has none.
	Delim, Header                                                      string
	GraphFormat, Symmetrize, NamedNodes, MaxNodes, GMLLabel, GraphBase string
	Truth, Constraints, PartialLabels                                  string
	// The front end's names of the options that the errors and warnings
	// of packages graph and cluster suggest (Remedy): the feature
	// scaling Scale (-scale), SelfLoops (-self-loops), the number of
	// clusters K (-k), the method Method (-method), the method's knob
	// settings Knobs (-set Name=value; in StyleJSON a list of
	// "Name=value", `"knobs": ["Variant=both"]`, as a job's) and
	// NormalizeWeights (-normalize-weights), each "" when the front end
	// has none. tether cluster's other flags those messages suggest
	// (-max-full, -regularize, -disconnected, -conflicts, -repair) have
	// no field: no other front end spelled here has them (tether serve's
	// cluster request has regularize and disconnected, which its own
	// cluster.Spelling names).
	Scale, SelfLoops, K, Method, Knobs, NormalizeWeights string
	// NodeLimit names what bounds the nodes of a graph file in a front
	// end without MaxNodes, where its users cannot change it ("this
	// server's limit"); "" names the library's GraphOptions.MaxNodes
	// alone.
	NodeLimit string
	// Outputs names the front end's output that names the nodes by the
	// names the readers gave them, a singular noun phrase ("the labels
	// export"), or "" when no output names them (a job's labels file
	// lists the nodes by line). tether's are tether cluster -o and
	// tether labels.
	Outputs string
}

// Style is how a front end writes an option with its value
// (Spelling.Style).
type Style int

const (
	// StyleFlag writes "-name value", as a command line does.
	StyleFlag Style = iota
	// StyleJSON writes `"name": value`, as a JSON object's field: the
	// value is quoted unless it is a number or true or false.
	StyleJSON
	// StyleOption writes "option name value", as the web app's messages
	// name its upload options.
	StyleOption
)

// name returns the front end's name of the option that tether cluster
// spells -flag, or "" when the front end has none. A flag the messages
// do not suggest has none.
func (s Spelling) name(flag string) string {
	if s.CommandLine {
		return flag
	}
	switch flag {
	case "label":
		return s.Label
	case "id":
		return s.ID
	case "drop":
		return s.Drop
	case "categorical":
		return s.Categorical
	case "missing":
		return s.Missing
	case "missing-markers":
		return s.MissingMarkers
	case "knn":
		return s.KNN
	case "sigma":
		return s.Sigma
	case "delim":
		return s.Delim
	case "header":
		return s.Header
	case "graph-format":
		return s.GraphFormat
	case "symmetrize":
		return s.Symmetrize
	case "named-nodes":
		return s.NamedNodes
	case "max-nodes":
		return s.MaxNodes
	case "gml-label":
		return s.GMLLabel
	case "graph-base":
		return s.GraphBase
	case "truth":
		return s.Truth
	case "constraints":
		return s.Constraints
	case "partial-labels":
		return s.PartialLabels
	case "scale":
		return s.Scale
	case "self-loops":
		return s.SelfLoops
	case "k":
		return s.K
	case "method":
		return s.Method
	case "set":
		return s.Knobs
	case "normalize-weights":
		return s.NormalizeWeights
	}
	return ""
}

// Option returns how the front end writes the option that tether cluster
// spells -flag set to value ("-missing drop", `"missing": "drop"`,
// "option missing drop"; value "" writes the option alone, and so does
// value "true" on the command line, where a boolean flag takes none:
// "-symmetrize", `"symmetrize": true`, "option symmetrize true"), and
// false when the front end has no such option (flag is one of the names
// the fields of Spelling list). A knob setting (flag "set", value
// "Name=value") is a list of one in StyleJSON: `"knobs":
// ["Variant=both"]`; the missing values' markers (flag
// "missing-markers", value "NULL,NA") a list of them, `"missing_markers":
// ["NULL", "NA"]`, and on the command line a word the shell reads as
// it is, quoted when it holds other characters ("-missing-markers
// '#N/A'"). Cost O(len(value)).
func (s Spelling) Option(flag, value string) (string, bool) {
	name := s.name(flag)
	if name == "" {
		return "", false
	}
	style := s.Style
	if s.CommandLine {
		style = StyleFlag
	}
	switch style {
	case StyleJSON:
		name = strconv.Quote(name)
		if value == "" {
			return name, true
		}
		switch flag {
		case "set":
			return name + ": [" + strconv.Quote(value) + "]", true
		case "missing-markers":
			list := strings.Split(value, ",")
			for i, m := range list {
				list[i] = strconv.Quote(m)
			}
			return name + ": [" + strings.Join(list, ", ") + "]", true
		}
		if _, err := strconv.ParseFloat(value, 64); err != nil && value != "true" && value != "false" {
			value = strconv.Quote(value)
		}
		return name + ": " + value, true
	case StyleOption:
		name = "option " + name
	default:
		name = "-" + name
		if value == "true" {
			return name, true
		}
		if flag == "missing-markers" && value != "" {
			value = shellQuote(value)
		}
	}
	if value == "" {
		return name, true
	}
	return name + " " + value, true
}

// Hint returns the parenthesis of a message naming the option that
// tether cluster spells -flag set to value as the front end writes it,
// then the library's option library, with what they do:
// "(tether: -label none makes it a feature; library: Options.LabelColumn
// "none")" for what " makes it a feature". Without the option it names
// the library's alone: "(library: Options.LabelColumn "none" makes it a
// feature)". A library of "" leaves it out: the parenthesis then names
// the front end's option alone, and without one Hint returns "".
func (s Spelling) Hint(flag, value, what, library string) string {
	front := s.frontName()
	o, ok := s.Option(flag, value)
	switch {
	case ok && library == "":
		return fmt.Sprintf("(%s: %s%s)", front, o, what)
	case ok:
		return fmt.Sprintf("(%s: %s%s; library: %s)", front, o, what, library)
	case library == "":
		return ""
	}
	return fmt.Sprintf("(library: %s%s)", library, what)
}

// Remedy returns how the front end's users set the option that tether
// cluster spells -flag to each of values, joined by " or ", after the
// front end's name, as the graph readers' messages give it after the
// library's option: "tether: -symmetrize", "serve: option symmetrize
// true", "tether: -scale minmax or -scale zscore", `job: "k"` (no value:
// the option alone). It returns "" when the front end has no such option
// (flag is one of the names the fields of Spelling list; on tether's
// command line, any flag of tether cluster), and always for the zero
// value, whose messages name the library's option alone. Through it
// Spelling satisfies graph.Spelling and cluster.Spelling, with which the
// errors and warnings of packages graph and cluster, which cannot name
// this package, name a front end's options. Cost O(length of the result).
func (s Spelling) Remedy(flag string, values ...string) string {
	if len(values) == 0 {
		values = []string{""}
	}
	opts := make([]string, len(values))
	for i, v := range values {
		o, ok := s.Option(flag, v)
		if !ok {
			return ""
		}
		opts[i] = o
	}
	return s.frontName() + ": " + strings.Join(opts, " or ")
}

// frontName is the name of the front end in the messages: Front, or
// "tether" for a CommandLine spelling without one.
func (s Spelling) frontName() string {
	if s.Front == "" && s.CommandLine {
		return "tether"
	}
	return s.Front
}

// maxNodes returns what bounds the nodes of a graph file as the front end
// lets its users change it, after the front end's name ("tether:
// -max-nodes", "serve: this server's limit"), or "" when only the
// library can (GraphOptions.MaxNodes, which the messages name anyway).
func (s Spelling) maxNodes() string {
	if o := s.Remedy("max-nodes"); o != "" {
		return o
	}
	if s.NodeLimit != "" {
		return s.Front + ": " + s.NodeLimit
	}
	return ""
}

// labelNoneDrop is the parenthesis naming how to leave the label column,
// column ref, out altogether: no label column, and ref dropped, as the
// front end and the library set them ("(tether: -label none -drop 3;
// library: Options.LabelColumn "none" and Options.Drop)"), the library's
// alone when the front end lacks either option.
func (s Spelling) labelNoneDrop(ref string) string {
	lib := `library: Options.LabelColumn "none" and Options.Drop`
	l, okL := s.Option("label", "none")
	d, okD := s.Option("drop", ref)
	if !okL || !okD {
		return "(" + lib + ")"
	}
	join := " and "
	if s.CommandLine {
		join = " "
	}
	return "(" + s.frontName() + ": " + l + join + d + "; " + lib + ")"
}

// labelNone is how the front end sets no label column ("-label none"),
// or the library's Options.LabelColumn "none" when it cannot.
func (s Spelling) labelNone() string {
	if o, ok := s.Option("label", "none"); ok {
		return o
	}
	return `Options.LabelColumn "none"`
}

// then returns "; " and part, or "" for an empty part: the front end's
// option after the library's in a parenthesis.
func then(part string) string {
	if part == "" {
		return ""
	}
	return "; " + part
}

// paren returns part in a parenthesis after a space, or "" for an empty
// part.
func paren(part string) string {
	if part == "" {
		return ""
	}
	return " (" + part + ")"
}

// formatFix ends the parenthesis of a graph reader's message that
// suggests setting GraphOptions.Format to value ("edgelist", "edgelist or
// dense"): the front end's option ("; tether: -graph-format edgelist"),
// or, without one, the extension that has an edge list read as one
// (GraphFormatFor), which the file's name gives in every front end.
func formatFix(sp Spelling, value string) string {
	if o := sp.Remedy("graph-format", value); o != "" {
		return then(o)
	}
	return ", or give the file the extension .edges to read it as an edge list"
}

// namedFix ends the parenthesis of the edge-list reader's error on a mix
// of node numbers and names: the front end's option ("; tether:
// -named-nodes"), or, without one, what to change in the file.
func namedFix(sp Spelling) string {
	if o := sp.Remedy("named-nodes"); o != "" {
		return then(o)
	}
	return ", or write the nodes all as numbers or all as names in the file"
}

// shellQuote returns v as a word of a POSIX shell's command line: as it
// is when it holds only letters, digits and characters no shell treats
// specially (._,:/+=@%-), else in single quotes ("'#N/A'", "'N A'"), a
// single quote of v then closing them, escaped with a backslash, and
// opening them again. Cost O(len(v)).
func shellQuote(v string) string {
	plain := v != ""
	for _, c := range v {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("._,:/+=@%-", c)) {
			plain = false
			break
		}
	}
	if plain {
		return v
	}
	return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
}
