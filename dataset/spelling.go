package dataset

import (
	"fmt"
	"strconv"
)

// Spelling says how a front end of the readers spells the options that
// the messages of this package and of package input suggest ("-missing
// drop dropped these rows", "-knn 5 builds this graph"): tether's command
// line (the zero value), a job's JSON spec, the web app's upload
// options. A front end without an option is never told to set it: the
// message names the library's option alone, or says what to change in
// the data instead. Options.Spelling carries it to the readers.
type Spelling struct {
	// Front names the front end in messages that name its option beside
	// the library's ("(tether: -missing drop; library: Options.Missing =
	// MissingDrop)"). "" is tether's command line: every option is then
	// its flag of tether cluster, written "-missing drop", and Style and
	// the option names below are unused.
	Front string
	// Style is how the front end writes an option with its value.
	Style Style
	// The front end's names of the options the messages suggest, each
	// "" when the front end has none: Label (tether cluster's -label),
	// ID (-id), Drop (-drop), Categorical (-categorical), Missing
	// (-missing), KNN (-knn) and Sigma (-sigma).
	Label, ID, Drop, Categorical, Missing, KNN, Sigma string
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
	if s.Front == "" {
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
	case "knn":
		return s.KNN
	case "sigma":
		return s.Sigma
	}
	return ""
}

// Option returns how the front end writes the option that tether cluster
// spells -flag set to value ("-missing drop", `"missing": "drop"`,
// "option missing drop"; value "" writes the option alone), and false
// when the front end has no such option (flag is one of the names the
// fields of Spelling list). Cost O(len(value)).
func (s Spelling) Option(flag, value string) (string, bool) {
	name := s.name(flag)
	if name == "" {
		return "", false
	}
	style := s.Style
	if s.Front == "" {
		style = StyleFlag
	}
	switch style {
	case StyleJSON:
		name = strconv.Quote(name)
		if value == "" {
			return name, true
		}
		if _, err := strconv.ParseFloat(value, 64); err != nil && value != "true" && value != "false" {
			value = strconv.Quote(value)
		}
		return name + ": " + value, true
	case StyleOption:
		name = "option " + name
	default:
		name = "-" + name
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
	front := s.Front
	if front == "" {
		front = "tether"
	}
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
