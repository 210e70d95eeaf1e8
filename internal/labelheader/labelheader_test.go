package labelheader

import "testing"

// TestWords checks each word list on its words, in any case and with
// blanks around them, and on words of the other lists.
func TestWords(t *testing.T) {
	for _, tc := range []struct {
		s                   string
		node, name, isLabel bool
	}{
		{"node", true, false, false},
		{" Index ", true, false, false},
		{"ID", true, true, false},
		{"node_name", true, true, false},
		{"label", false, false, true},
		{"CLASS", false, false, true},
		{"y", false, false, true},
		{"club", false, false, true},
		{"i", false, false, false},
		{"kind", false, false, false},
		{"", false, false, false},
	} {
		if got := IsNode(tc.s); got != tc.node {
			t.Errorf("IsNode(%q) = %v, want %v", tc.s, got, tc.node)
		}
		if got := IsName(tc.s); got != tc.name {
			t.Errorf("IsName(%q) = %v, want %v", tc.s, got, tc.name)
		}
		if got := IsLabel(tc.s); got != tc.isLabel {
			t.Errorf("IsLabel(%q) = %v, want %v", tc.s, got, tc.isLabel)
		}
	}
}

// TestIsNamedPair checks the header words of a constraints file keyed by
// name, in any case and with blanks, against the index header and mixes.
func TestIsNamedPair(t *testing.T) {
	for _, tc := range []struct {
		i, j string
		want bool
	}{
		{"name_i", "name_j", true},
		{" ID_I ", "id_j", true},
		{"i", "j", false},
		{"name_i", "id_j", false},
		{"name_j", "name_i", false},
		{"name", "name", false},
	} {
		if got := IsNamedPair(tc.i, tc.j); got != tc.want {
			t.Errorf("IsNamedPair(%q, %q) = %v, want %v", tc.i, tc.j, got, tc.want)
		}
	}
}

// TestIsIdentifier checks the names of identifier columns, in any case,
// with blanks and separators, against words that end in the letters id
// and names of features.
func TestIsIdentifier(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"id", true},
		{" ID ", true},
		{"Id", true},
		{"identifier", true},
		{"customer_id", true},
		{"NODE_ID", true},
		{"Node-ID", true},
		{"user.id", true},
		{"order id", true},
		{"customerId", true},
		{"nodeID", true},
		{"_id", true},
		{"paid", false},
		{"Valid", false},
		{"fluid", false},
		{"ACID", false},
		{"PAID", false},
		{"key", false},
		{"index", false},
		{"name", false},
		{"idx", false},
		{"id_count", false},
		{"", false},
	} {
		if got := IsIdentifier(tc.s); got != tc.want {
			t.Errorf("IsIdentifier(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

// TestIsKindWeight checks the words of a constraints header's kind and
// weight columns, in any case and with blanks, against the kinds ml and
// cl, weights and the other columns' words (review 118: a,b,type was
// read as a constraint on nodes "a" and "b").
func TestIsKindWeight(t *testing.T) {
	for _, tc := range []struct {
		s            string
		kind, weight bool
	}{
		{"kind", true, false},
		{" Type ", true, false},
		{"CONSTRAINT", true, false},
		{"relation", true, false},
		{"relationship", true, false},
		{"link", true, false},
		{"weight", false, true},
		{" W ", false, true},
		{"ml", false, false},
		{"cl", false, false},
		{"0.5", false, false},
		{"label", false, false},
		{"i", false, false},
		{"", false, false},
	} {
		if got := IsKind(tc.s); got != tc.kind {
			t.Errorf("IsKind(%q) = %v, want %v", tc.s, got, tc.kind)
		}
		if got := IsWeight(tc.s); got != tc.weight {
			t.Errorf("IsWeight(%q) = %v, want %v", tc.s, got, tc.weight)
		}
	}
}
