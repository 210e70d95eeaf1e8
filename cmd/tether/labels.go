package main

import (
	"github.com/tether-sc/tether/dataset"
)

// labelFilesHelp describes the labels files every command reads (cluster
// -truth and -partial-labels, eval -truth and -pred, constraints gen
// -truth) and the ones cluster -o and labels write.
const labelFilesHelp = `Labels files (cluster -truth, -partial-labels and -o; eval -truth and
-pred; constraints gen -truth; labels -o) are read one way everywhere:
  - one label per line, line i for node i (0-based); or
  - two columns node,label (comma, tab, semicolon or blanks): the node is
    its 0-based index (1-based after a "# base=1" line), or its name when
    the header says "name" or "id" or a node is not a number; names are
    those of the input (-id column, graph node names).
A label is an integer or a class name; -1, ? or an empty field mean the
node's class is unknown: such nodes are left out of every figure. A first
line such as "label", "node,label" or "name,cluster" is a header. cluster
-o writes "node,cluster" lines (by index), or "name,cluster" when the input
names its nodes.`

// readNodeLabels reads a labels file for n nodes (n ≤ 0: inferred) with the
// given node names (nil when the nodes have none); see labelFilesHelp. The
// errors name the file, and the line and value when there is one.
func readNodeLabels(path string, n int, names []string) (*dataset.NodeLabels, error) {
	return dataset.ReadNodeLabelsFile(path, dataset.NodeLabelOptions{N: n, Names: names})
}
