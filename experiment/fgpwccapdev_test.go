package experiment

import "testing"

// TestFGPWCCapDevCap checks the caps of fgpwc-cap-dev's variants against
// their definitions computed by hand.
func TestFGPWCCapDevCap(t *testing.T) {
	for _, c := range []struct {
		v    string
		n    int
		want int
	}{
		{"200", 100000, 200},
		{"sqrt", 10000, 200},  // 200 up to 10⁴ nodes
		{"sqrt", 20000, 142},  // ⌈200/√2⌉ = ⌈141.42⌉
		{"sqrt", 100000, 64},  // ⌈200/√10⌉ = ⌈63.25⌉
		{"sqrt", 160000, 50},  // 200/4
		{"sqrt", 1000000, 50}, // floor
		{"50", 10000, 200},
		{"50", 10001, 50},
	} {
		if got := fgpwcCapDevCap(c.v, c.n); got != c.want {
			t.Errorf("cap %s at n = %d: %d, want %d", c.v, c.n, got, c.want)
		}
	}
	if fgpwcCapDevSame(1, 5000) != 0 || fgpwcCapDevSame(2, 5000) != 0 || fgpwcCapDevSame(2, 20000) != -1 {
		t.Error("fgpwcCapDevSame: caps equal below 10⁴ nodes only")
	}
}

// TestFGPWCCapDevPick checks the pre-registered rule on hand-made means
// and worst losses: the cheapest qualifying challenger wins.
func TestFGPWCCapDevPick(t *testing.T) {
	for _, c := range []struct {
		name        string
		mean, worst []float64
		want        int
	}{
		{"both qualify: the cheaper", []float64{0.80, 0.80, 0.797}, []float64{0, 0.01, 0.02}, 2},
		{"50 loses a case by more than 0.02", []float64{0.80, 0.80, 0.81}, []float64{0, 0.01, 0.021}, 1},
		{"50's mean too low", []float64{0.80, 0.799, 0.7949}, []float64{0, 0, 0}, 1},
		{"neither", []float64{0.80, 0.79, 0.79}, []float64{0, 0.03, 0}, 0},
	} {
		if got := fgpwcCapDevPick(c.mean, c.worst); got != c.want {
			t.Errorf("%s: picked %d, want %d", c.name, got, c.want)
		}
	}
}
