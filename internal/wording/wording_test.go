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

func TestNumbers(t *testing.T) {
	for _, c := range []struct {
		v    []int
		want string
	}{
		{nil, ""},
		{[]int{4}, "4"},
		{[]int{3, 7}, "3 and 7"},
		{[]int{3, 7, 9}, "3, 7 and 9"},
		{[]int{1, 2, 3, 4, 5}, "1, 2, 3, 4 and 5"},
		{[]int{1, 2, 3, 4, 5, 6}, "1, 2, 3, 4 and 2 more"},
		{[]int{0, 10, 20, 30, 40, 50, 60}, "0, 10, 20, 30 and 3 more"},
	} {
		if got := Numbers(c.v); got != c.want {
			t.Errorf("Numbers(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}
