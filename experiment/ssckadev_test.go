package experiment

import "testing"

// The rule of sscka-dev, fixed with the page: the commute kernel needs a
// higher mean ARI on at least 2/3 of the cases and a mean not lower.
func TestSSCKADevPick(t *testing.T) {
	for _, c := range []struct {
		higher, cases int
		def, chal     float64
		want          int
	}{
		{0, 0, 0, 0, 0},
		{20, 30, 0.5, 0.6, 1},
		{19, 30, 0.5, 0.6, 0},
		{30, 30, 0.5, 0.49, 0},
		{20, 30, 0.5, 0.5, 1},
		{2, 3, 0.4, 0.41, 1},
	} {
		if got := ssckaDevPick(c.higher, c.cases, c.def, c.chal); got != c.want {
			t.Errorf("ssckaDevPick(%d, %d, %v, %v) = %d, want %d", c.higher, c.cases, c.def, c.chal, got, c.want)
		}
	}
}
