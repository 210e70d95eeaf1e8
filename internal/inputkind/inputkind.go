// Package inputkind says which options of tether's inputs apply to which
// kinds of input: a feature table's options to a feature table only, a
// graph file's to a graph file, the graph construction options to inputs
// of feature rows. tether cluster, serve and labels (cmd/tether's
// inputFlags), the reader options of tether serve's API (internal/server)
// and the fields of a batch job (job.Spec) refuse an option given with an
// input it does not apply to, by this one table, each in its own words.
package inputkind

import (
	"maps"
	"slices"
)

// Kind is a set of kinds of input, one bit each.
type Kind uint8

const (
	Table     Kind = 1 << iota // a feature table (CSV, TSV, ARFF)
	Images                     // a folder of images, one subfolder per class
	GraphFile                  // a graph file (edge list, .mtx or .mm, .gml, dense .csv)
	Bipartite                  // a document-by-term matrix
	Points                     // the points of a generator
	GenGraph                   // the graph of a generator
	// None is no data: tether serve without data, whose sessions load
	// theirs (built with the graph construction options).
	None

	// Features are the inputs whose graph is built from feature rows.
	Features = Table | Images | Points | None
	// Data are the inputs that are data, whatever their kind.
	Data = Table | Images | GraphFile | Bipartite | Points | GenGraph
)

// options holds the options of the inputs that apply to some kinds of
// input only, by the name of tether cluster's flag.
var options = map[string]Kind{
	// dataset.Options: read by the feature table reader only
	// (dataset.ReadImageFolder reads no options).
	"label": Table, "id": Table, "delim": Table, "header": Table,
	"scale": Table, "missing": Table, "missing-markers": Table, "categorical": Table, "drop": Table,
	// dataset.GraphOptions.
	"gml-label": GraphFile, "graph-format": GraphFile, "symmetrize": GraphFile,
	"max-nodes": GraphFile, "named-nodes": GraphFile, "graph-base": GraphFile,
	// dataset.DocTermOptions.
	"row-names": Bipartite, "col-names": Bipartite, "tfidf": Bipartite, "drop-empty": Bipartite,
	// graph.Spec: the graph built from feature rows.
	"graph": Features, "knn": Features, "eps": Features, "affinity": Features,
	"max-full": Features, "knn-search": Features, "sigma": Features,
	// The reference labels, self loops and weight scale of any data.
	"truth": Data, "self-loops": Data, "normalize-weights": Data,
}

// Of returns the kinds of input the option named as tether cluster's flag
// (without its dash: "delim", "gml-label") applies to, and false when it
// is not listed: it then applies to every input, or is no option of the
// inputs.
func Of(option string) (Kind, bool) {
	k, ok := options[option]
	return k, ok
}

// Options returns the names of the options Of lists, sorted.
func Options() []string {
	return slices.Sorted(maps.Keys(options))
}
