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

func TestBytes(t *testing.T) {
	for _, c := range []struct {
		b    int64
		want string
	}{
		{0, "0 B"}, {1023, "1023 B"}, {1024, "1.0 KiB"}, {1536, "1.5 KiB"},
		{300 << 20, "300.0 MiB"}, {1<<30 + 1<<29, "1.5 GiB"}, {2 << 40, "2048.0 GiB"},
	} {
		if got := Bytes(c.b); got != c.want {
			t.Errorf("Bytes(%d) = %q, want %q", c.b, got, c.want)
		}
	}
}
