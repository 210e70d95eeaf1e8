package experiment

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tether-sc/tether/active"
)

// activeFake returns results whose mean ARI curves (over two reps that
// differ by ±d) are the given ones, step t = question 10·t.
func activeFake(plan activePlan, name, method string, s active.Strategy, curve []float64, d float64) map[string]Values {
	out := map[string]Values{}
	for rep := 0; rep < plan.reps; rep++ {
		v := Values{}
		sign := float64(2*rep - 1)
		for t, y := range curve {
			v[fmt.Sprintf("ari_%d", 10*t)] = y + sign*d
		}
		out[activeKey(name, method, s, plan.batch, plan.budget, rep)] = v
	}
	return out
}

// TestActiveReachAndClaim checks the first-reach and stays rounds and the
// claim's verdict (by the stays round) on hand-made curves (expected values worked out by hand
// from the rule).
func TestActiveReachAndClaim(t *testing.T) {
	plan := activePlan{batch: 10, budget: 40, reps: 2}
	rows := []fgpwcRow{{name: "a"}, {name: "b"}}
	for _, tc := range []struct {
		name                 string
		autoA, randA         []float64
		autoB, randB         []float64
		wantFirst, wantStays int // of auto on a
		want                 Verdict
	}{
		// a: auto stays from 10, random from 30: 10 ≤ 15.
		// b: auto from 20, random from 40: 20 ≤ 20. Held on both.
		{"held", []float64{.5, .95, .92, .91, .92}, []float64{.5, .6, .7, .9, .95}, []float64{.5, .6, .9, .9, .9}, []float64{.5, .5, .6, .7, .9}, 10, 10, Held},
		// a: auto first reaches 0.9 at 10 but dips at 20, so it stays only
		// from 30, as random does: the spike does not count. b held: partly held.
		{"spike", []float64{.5, .95, .8, .91, .92}, []float64{.5, .6, .7, .9, .95}, []float64{.5, .6, .9, .9, .9}, []float64{.5, .5, .6, .7, .9}, 10, 30, PartlyHeld},
		// The spike on a, and b: auto from 30 > 40/2: not held.
		{"spike only", []float64{.5, .95, .8, .91, .92}, []float64{.5, .6, .7, .9, .95}, []float64{.5, .6, .7, .9, .9}, []float64{.5, .5, .6, .7, .9}, 10, 30, NotHeld},
		// Random never reaches 0.9 on a; auto never on b: not testable.
		{"untestable", []float64{.5, .95, .95, .95, .95}, []float64{.5, .6, .7, .8, .85}, []float64{.5, .6, .7, .8, .8}, []float64{.5, .9, .9, .9, .9}, 10, 10, NotTestable},
		// Both reach on a and b, never at half: not held.
		{"not held", []float64{.5, .6, .95, .95, .95}, []float64{.5, .6, .9, .95, .95}, []float64{.5, .6, .7, .9, .9}, []float64{.5, .5, .6, .9, .9}, 20, 20, NotHeld},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := map[string]Values{}
			for _, part := range []map[string]Values{
				activeFake(plan, "a", "m", active.Auto, tc.autoA, 0.01), activeFake(plan, "a", "m", active.Random, tc.randA, 0.02),
				activeFake(plan, "b", "m", active.Auto, tc.autoB, 0), activeFake(plan, "b", "m", active.Random, tc.randB, 0.03),
			} {
				for k, v := range part {
					res[k] = v
				}
			}
			first, stays, ok := activeReach(activeCurve(res, plan, "a", "m", active.Auto, "ari"), plan)
			if !ok || first != tc.wantFirst || stays != tc.wantStays {
				t.Errorf("auto on a: first %d stays %d ok %v, want %d, %d", first, stays, ok, tc.wantFirst, tc.wantStays)
			}
			if c := activeClaim(res, plan, rows, "m"); c.Verdict != tc.want {
				t.Errorf("verdict %v, want %v (%s; %s)", c.Verdict, tc.want, c.Ours, c.Reason)
			}
		})
	}
	// A missing rep makes the curve incomplete.
	res := activeFake(plan, "a", "m", active.Auto, []float64{.5, .95, .95, .95, .95}, 0)
	delete(res, activeKey("a", "m", active.Auto, 10, 40, 1))
	if _, _, ok := activeReach(activeCurve(res, plan, "a", "m", active.Auto, "ari"), plan); ok {
		t.Error("a curve with a missing rep is complete")
	}
}

func TestActiveQuick(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "datasets")
	if _, err := os.Stat(filepath.Join(root, "iris")); err != nil {
		t.Skip("datasets not available")
	}
	env := &Env{DataRoot: root, OutDir: t.TempDir(), Quick: true, Seed: 1}
	out, st, err := Run(context.Background(), Active(), env, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed > 0 {
		t.Fatalf("%d cells failed: %v", st.Failed, st.Errors)
	}
	for _, want := range []string{"### fgpwc, iris", "| auto |", "| random |", "active-fgpwc.png", "ARI is over all nodes"} {
		if !strings.Contains(out.Markdown, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if len(out.Claims) != 1 || out.Claims[0].Rule == "" || out.Claims[0].Ours == "" {
		t.Errorf("claims %+v", out.Claims)
	}
	if len(out.Files["active.csv"]) == 0 {
		t.Error("no CSV")
	}
	if _, err := os.Stat(filepath.Join(env.OutDir, "active-fgpwc.png")); err != nil {
		t.Error(err)
	}
}
