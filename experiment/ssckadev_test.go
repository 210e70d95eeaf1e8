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

// The rule of sscka-rank-dev, fixed with the page: a smaller rank needs a
// mean ARI 0.01 above the default's and more cases higher than lower; of
// two qualifiers the higher mean wins.
func TestSSCKARankDevPick(t *testing.T) {
	cases := []struct {
		mean          []float64
		higher, lower []int
		want          int
	}{
		{[]float64{0.5, 0.505, 0.6}, []int{0, 40, 40}, []int{0, 10, 38}, 2},
		{[]float64{0.5, 0.52, 0.6}, []int{0, 40, 30}, []int{0, 10, 40}, 1},
		{[]float64{0.5, 0.509, 0.4}, []int{0, 70, 70}, []int{0, 0, 0}, 0},
		{[]float64{0.5, 0.52, 0.52}, []int{0, 40, 40}, []int{0, 10, 10}, 1},
	}
	for _, c := range cases {
		if got := ssckaRankDevPick(c.mean, c.higher, c.lower); got != c.want {
			t.Errorf("mean %v higher %v lower %v: pick %d, want %d", c.mean, c.higher, c.lower, got, c.want)
		}
	}
	if !ssckaRankDevIsDefault("default") || ssckaRankDevIsDefault("k") {
		t.Error("the default rank is max(2k, 10) when the page was fixed")
	}
}
