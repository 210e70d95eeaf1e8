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
