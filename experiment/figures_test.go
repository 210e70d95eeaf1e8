package experiment

import (
	"context"
	"strings"
	"testing"
)

// TestNewFiguresQuick runs the quick forms of seed 004 Fig. 6.1, the
// 25%-labels study and thesis Figs. 3.2–3.3, and checks that every cell
// succeeds and every claim states its source, quote and rule, with Ours
// filled unless the verdict is "not testable" (which then gives a reason).
func TestNewFiguresQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("runs four quick experiments (a few seconds)")
	}
	root := ssDataRoot(t)
	for _, e := range []Experiment{Seed004Fig61(), Seed004Labels25(), ThesisFig32(), ThesisFig33()} {
		env := &Env{DataRoot: root, OutDir: t.TempDir(), Quick: true, Seed: 1}
		out, st, err := Run(context.Background(), e, env, RunOptions{})
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if st.Failed != 0 || st.Ran != st.Cells || st.Cells == 0 {
			t.Errorf("%s: %d cells, %d ran, %d failed: %v", e.Name, st.Cells, st.Ran, st.Failed, st.Errors)
		}
		if !strings.Contains(out.Markdown, "tether repro "+e.Name) {
			t.Errorf("%s: the page does not name its command", e.Name)
		}
		if len(out.Claims) == 0 {
			t.Errorf("%s: no claims", e.Name)
		}
		for _, c := range out.Claims {
			if c.Source == "" || c.Quote == "" || c.Rule == "" {
				t.Errorf("%s: incomplete claim %+v", e.Name, c)
			}
			if c.Verdict == NotTestable && c.Reason == "" {
				t.Errorf("%s: not testable without a reason: %q", e.Name, c.Quote)
			}
			if c.Verdict != NotTestable && c.Ours == "" {
				t.Errorf("%s: verdict %v without our numbers: %q", e.Name, c.Verdict, c.Quote)
			}
		}
	}
}

// TestFig61ClaimsFollowRule feeds hand-made cells to Fig. 6.1's claims:
// unnormalized SC at 0.05 ± 0.1 and Bethe Hessian at 0.6 ± 0.01 at c_in = 7
// satisfy all three rules; swapping the two methods breaks all three.
func TestFig61ClaimsFollowRule(t *testing.T) {
	env := &Env{Quick: false}
	f := fig61Figures(env)[0]
	cfg := sbmSize(env)
	fill := func(usc, bethe func(g int) float64) map[string]Values {
		res := map[string]Values{}
		for _, x := range f.xs {
			for g := 0; g < f.graphsPer(cfg); g++ {
				res[sbmKey(f, cfg.n, x, f.methods[0], g)] = Values{"nmi": usc(g)}
				res[sbmKey(f, cfg.n, x, f.methods[1], g)] = Values{"nmi": bethe(g)}
			}
		}
		return res
	}
	wide := func(g int) float64 { return 0.05 + 0.1*float64(g%2*2-1) } // mean 0.05, sd ≈ 0.105
	tight := func(g int) float64 { return 0.6 + 0.01*float64(g%2*2-1) }
	for _, tc := range []struct {
		name string
		res  map[string]Values
		want [3]Verdict
	}{
		{"Bethe better and steadier", fill(wide, tight), [3]Verdict{Held, Held, Held}},
		{"swapped", fill(tight, wide), [3]Verdict{NotHeld, NotHeld, NotHeld}},
	} {
		claims := fig61Claims(env, f, tc.res)
		if len(claims) != 3 {
			t.Fatalf("%s: %d claims", tc.name, len(claims))
		}
		for i, c := range claims {
			if c.Verdict != tc.want[i] {
				t.Errorf("%s: claim %d (%q) is %v, want %v (%s)", tc.name, i, c.Quote, c.Verdict, tc.want[i], c.Ours)
			}
		}
	}
}

// TestFig46ClaimsFollowRule: FGPWC reaching ARI 0.9 at the second count,
// the others only at the last, and the closure perfect at the last count
// hold all three claims; a FAST-GE above FGPWC at the small counts breaks
// the first two.
func TestFig46ClaimsFollowRule(t *testing.T) {
	counts := []int{50, 100, 200, 500}
	curve := func(v ...float64) *labelCurve {
		return &labelCurve{mean: v, sd: make([]float64, len(v)), n: []int{10, 10, 10, 10}}
	}
	good := map[string]*labelCurve{
		"fgpwc": curve(0.5, 0.9, 0.95, 0.97), "sscka": curve(0.1, 0.2, 0.5, 0.92),
		"fast-ge": curve(0.0, 0.1, 0.4, 0.95), "closure": curve(0, 0.1, 0.6, 1),
	}
	bad := map[string]*labelCurve{
		"fgpwc": curve(0.5, 0.9, 0.95, 0.97), "sscka": curve(0.1, 0.2, 0.5, 0.92),
		"fast-ge": curve(0.6, 0.95, 0.96, 0.99), "closure": curve(0, 0.1, 0.6, 0.98),
	}
	for _, tc := range []struct {
		name   string
		curves map[string]*labelCurve
		want   [3]Verdict
	}{
		{"as published", good, [3]Verdict{Held, Held, Held}},
		{"FAST-GE ahead", bad, [3]Verdict{NotHeld, PartlyHeld, NotHeld}},
	} {
		claims := fig46Claims(counts, tc.curves)
		for i, c := range claims {
			if c.Verdict != tc.want[i] {
				t.Errorf("%s: claim %d (%q) is %v, want %v (%s)", tc.name, i, c.Quote, c.Verdict, tc.want[i], c.Ours)
			}
		}
	}
}

// TestFig62ClaimsFollowRule: CVQE ahead below n_c = 80 and FAST-GE-2.0
// ahead above, with FAST-GE-2.0 less variable, holds the three claims.
func TestFig62ClaimsFollowRule(t *testing.T) {
	counts := []int{10, 40, 100, 200}
	meanAt := map[string]map[int]float64{
		"z/fast-ge2": {10: 0.1, 40: 0.2, 100: 0.5, 200: 0.8},
		"z/cvqe":     {10: 0.3, 40: 0.3, 100: 0.3, 200: 0.3},
	}
	sds := map[string][]float64{"z/fast-ge2": {0.01, 0.02}, "z/cvqe": {0.05, 0.06}}
	claims := fig62Claims(counts, meanAt, sds, map[string]float64{}, "z")
	for i, want := range []Verdict{Held, Held, Held} {
		if claims[i].Verdict != want {
			t.Errorf("claim %d (%q) is %v, want %v (%s)", i, claims[i].Quote, claims[i].Verdict, want, claims[i].Ours)
		}
	}
	meanAt["z/cvqe"][10] = 0.05
	sds["z/cvqe"] = []float64{0.001}
	claims = fig62Claims(counts, meanAt, sds, map[string]float64{}, "z")
	for i, want := range []Verdict{PartlyHeld, Held, NotHeld} {
		if claims[i].Verdict != want {
			t.Errorf("changed: claim %d (%q) is %v, want %v (%s)", i, claims[i].Quote, claims[i].Verdict, want, claims[i].Ours)
		}
	}
}
