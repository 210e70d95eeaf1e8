// Package labelheader names the header words of a labels file's columns
// (node,label; id,class; …), which the labels readers (package dataset)
// skip as a header and the constraint reader (package constraint)
// recognises when a labels file is given where pairs are expected, the
// header words of a pairwise constraints file (i,j,kind[,weight];
// a,b,type; name_i,name_j, which key the nodes by name), and the header names of a
// feature table's columns that name identifiers (id, customer_id), which
// the table reader (package dataset) warns of when they are read as
// features.
package labelheader

import "strings"

// IsNode reports whether s, blanks trimmed, in any case, names the node
// column of a two-column labels file: node, index, vertex, item, name, id,
// node_name or node_id.
func IsNode(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "node", "index", "vertex", "item", "name", "id", "node_name", "node_id":
		return true
	}
	return false
}

// IsName reports whether s, as IsNode reads it, is one of the node words
// that say the nodes are keyed by name even when the names look like
// numbers: name, id, node_name or node_id.
func IsName(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "name", "id", "node_name", "node_id":
		return true
	}
	return false
}

// IsLabel reports whether s, as IsNode reads it, names a label column:
// label, labels, class, cluster, truth, target, y, pred, prediction,
// community or club.
func IsLabel(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "label", "labels", "class", "cluster", "truth", "target", "y", "pred", "prediction", "community", "club":
		return true
	}
	return false
}

// IsNamedPair reports whether i and j, blanks trimmed, in any case, are
// the first two words of the header of a pairwise constraints file that
// keys its nodes by name (constraint.WriteNamed writes
// "name_i,name_j,kind"): name_i and name_j, or id_i and id_j.
func IsNamedPair(i, j string) bool {
	i, j = strings.ToLower(strings.TrimSpace(i)), strings.ToLower(strings.TrimSpace(j))
	return i == "name_i" && j == "name_j" || i == "id_i" && j == "id_j"
}

// IsPairColumns reports whether i and j, blanks trimmed, in any case,
// are the first two words of a pairwise constraints file's header, as
// people write them: i,j; a,b; u,v; node1,node2; node_i,node_j;
// source,target; src,dst; from,to; or a named pair (IsNamedPair). A
// feature table's first two column names rarely are, so that a reader
// of labels can tell a constraints file given in their place from a
// table. Cost O(len(i) + len(j)).
func IsPairColumns(i, j string) bool {
	if IsNamedPair(i, j) {
		return true
	}
	switch strings.ToLower(strings.TrimSpace(i)) + "," + strings.ToLower(strings.TrimSpace(j)) {
	case "i,j", "a,b", "u,v", "node1,node2", "node_i,node_j", "node_a,node_b", "source,target", "src,dst", "from,to":
		return true
	}
	return false
}

// IsIdentifier reports whether s, blanks trimmed, names a column of
// identifiers in a feature table's header: id or identifier in any case,
// a name ending in _id, -id, .id or " id" in any case (customer_id,
// Node-ID, MongoDB's _id), or a camel-case name ending in Id or ID after a lower-case
// letter (customerId, nodeID). Words that merely end in the letters id
// (paid, valid, fluid, ACID) are not, nor are key, index or name, which
// name features or row numbers as often. Cost O(len(s)).
func IsIdentifier(s string) bool {
	s = strings.TrimSpace(s)
	l := strings.ToLower(s)
	switch l {
	case "id", "identifier":
		return true
	}
	for _, suffix := range []string{"_id", "-id", ".id", " id"} {
		if strings.HasSuffix(l, suffix) {
			return true
		}
	}
	if n := len(s); n > 2 && (strings.HasSuffix(s, "Id") || strings.HasSuffix(s, "ID")) {
		c := s[n-3]
		return c >= 'a' && c <= 'z'
	}
	return false
}

// IsKind reports whether s, blanks trimmed, in any case, names the kind
// column of a pairwise constraints file's header (i,j,kind; a,b,type;
// u,v,constraint): kind, type, constraint, relation, relationship or
// link. None is a kind a constraint line holds (ml or cl). Cost
// O(len(s)).
func IsKind(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "kind", "type", "constraint", "relation", "relationship", "link":
		return true
	}
	return false
}

// IsWeight reports whether s, blanks trimmed, in any case, names the
// weight column of a pairwise constraints file's header
// (i,j,kind,weight): weight or w. Cost O(len(s)).
func IsWeight(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "weight", "w":
		return true
	}
	return false
}
