package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/dataset"
)

// graphOutNames returns the node names cluster -graph-out writes in an
// edge list (dataset.WriteNamedEdgeList), and a note for the summary: names when
// the edge list can hold them all, so that the graph file and the labels
// -o writes name the nodes alike and tether cluster -graph-file reads it
// with a -truth file of names; nil (the nodes numbered, as before) when
// the nodes have no names, when the format is Matrix Market (it holds
// numbers only), or when a name cannot be one token of an edge list
// (empty or repeated, as dataset.KeyNames refuses for -o, or holding a
// blank, a delimiter or a quote, or beginning as a comment). The note is
// "" when nothing need be said. Cost O(total length of the names).
func graphOutNames(path string, names []string) ([]string, string) {
	if names == nil {
		return nil, ""
	}
	numbered := fmt.Sprintf("-graph-out %s numbers the nodes in the order of the labels -o writes (0-based in an edge list, 1-based in Matrix Market)", path)
	if dataset.GraphFormatFor(path) == dataset.MatrixMarket {
		return nil, numbered + ": Matrix Market holds no node names (an edge list, such as a .txt file, holds them)"
	}
	if dataset.KeyNames(names) == nil {
		return nil, numbered + ": the node names are empty or repeat, so they cannot name the nodes"
	}
	ints := 0
	for i, nm := range names {
		if nm == "" || strings.ContainsAny(nm, " \t\r\n,;\"'") || nm[0] == '#' || nm[0] == '%' {
			return nil, fmt.Sprintf("%s: node %d's name %q cannot be a node of an edge list (a blank, a delimiter, a quote or a leading # or %%)", numbered, i, nm)
		}
		if _, err := strconv.ParseInt(nm, 10, 64); err == nil {
			ints++
		}
	}
	if ints > 0 {
		return names, fmt.Sprintf("-graph-out %s names the nodes, and %d of the names are integers: read it back with -named-nodes (else they are read as node numbers)", path, ints)
	}
	return names, ""
}
