package suggest

import "testing"

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"fgpcw", "fgpwc", 1},
		{"njw", "njw", 0}, {"ab", "ba", 1}, {"ca", "abc", 3}, // OSA, not Damerau–Levenshtein's 2
	} {
		if got := Distance(c.a, c.b); got != c.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
		if got := Distance(c.b, c.a); got != c.d {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetry)", c.b, c.a, got, c.d)
		}
	}
}

func TestClosest(t *testing.T) {
	methods := []string{"fast-ge", "fast-ge2", "fgpwc", "labelprop", "mcl-noa-ssc", "njw", "plmeans", "sl"}
	for _, c := range []struct {
		want, got string
	}{
		{"fastge2", "fast-ge2"},      // hyphens left out
		{"FASTGE", "fast-ge"},        // any case
		{"mclnoassc", "mcl-noa-ssc"}, // hyphens left out, long
		{"fgpcw", "fgpwc"},           // a swap is one edit
		{"labelprob", "labelprop"},
		{"nwj", "njw"},
		{"kmeans", ""}, // two edits from plmeans: too far for 6 letters
		{"s", ""},      // too short for edits
		{"", ""},
		{"sigmml", ""},
	} {
		if got := Closest(c.want, methods); got != c.got {
			t.Errorf("Closest(%q) = %q, want %q", c.want, got, c.got)
		}
	}
	if h := Hint("SigmML", []string{"Alpha", "SigmaML", "SigmaCL"}); h != ": did you mean SigmaML?" {
		t.Errorf("Hint = %q", h)
	}
	if h := Hint("zzz", []string{"Alpha"}); h != "" {
		t.Errorf("Hint = %q", h)
	}
}
