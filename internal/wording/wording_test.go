package wording

import "testing"

func TestCountAndForm(t *testing.T) {
	for _, c := range []struct {
		n               int
		count, form     string
		one, many, verb string
	}{
		{0, "0 nodes", "hold", "node", "nodes", ""},
		{1, "1 node", "holds", "node", "nodes", ""},
		{2, "2 nodes", "hold", "node", "nodes", ""},
		{-1, "-1 nodes", "hold", "node", "nodes", ""},
		{1, "1 category", "holds", "category", "categories", ""},
		{12, "12 categories", "hold", "category", "categories", ""},
	} {
		if got := Count(c.n, c.one, c.many); got != c.count {
			t.Errorf("Count(%d, %q, %q) = %q, want %q", c.n, c.one, c.many, got, c.count)
		}
		if got := Form(c.n, "holds", "hold"); got != c.form {
			t.Errorf("Form(%d) = %q, want %q", c.n, got, c.form)
		}
	}
}
