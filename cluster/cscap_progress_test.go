package cluster

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/tether-sc/tether/constraint"
)

// CSCAP reports its dense work, which took 17 s at n = 3000 without a
// word: the prior (stage cscap-prior: the Cholesky test, the eigenvalues
// of an indefinite W, the confirming factorization) and the propagation
// (cscap-propagation: the Woodbury or the direct form, the cannot-link
// correction of Alg. 12), each as a fraction that grows inside its steps
// and ends at 1; then the eigensolver and k-means report theirs.
func TestCSCAPProgress(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 17))
	x, truth := fgpwcBlobs(rnd, 300, 2, 3, 4)
	g := fgpwcKNNGraph(t, x, 10)
	few := fgpwcOracle(rnd, truth, 150)  // q < 0.6n: the Woodbury form
	many := fgpwcOracle(rnd, truth, 600) // q > 0.6n: the direct form
	cases := []struct {
		name  string
		c     CSCAP
		k     int
		set   *constraint.Set
		prior []string // steps of cscap-prior that must appear
		prop  []string // and of cscap-propagation
	}{
		{"k = 3, Alg. 12", CSCAP{}, 3, few,
			[]string{"Cholesky test of W + τI", "eigenvalues of W", "Cholesky factorization of W + δI"},
			[]string{"columns of WU", "Cholesky factorization of I + UᵀWU", "solve of I + UᵀWU", "product WU", "correction by", "graph of the propagated affinity"}},
		{"k = 2, direct form", CSCAP{}, 2, many,
			[]string{"eigenvalues of W"},
			[]string{"system I + WUUᵀ", "LU factorization of I + WUUᵀ", "solve of I + WUUᵀ"}},
		{"k = 3 joint, given shift", CSCAP{Joint: true, Shift: 5}, 3, few,
			[]string{"similarity of W"},
			[]string{"Cholesky factorization of I + UᵀWU", "product WU"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var l eventLog
			p := &Problem{Graph: g, K: tc.k, Constraints: tc.set}
			if _, err := Run(context.Background(), tc.c, p, &Settings{Seed: 1, Recorder: &l}); err != nil {
				t.Fatal(err)
			}
			for _, st := range []struct {
				stage string
				steps []string
			}{{"cscap-prior", tc.prior}, {"cscap-propagation", tc.prop}} {
				msgs := l.checkFractions(t, st.stage)
				for _, s := range st.steps {
					if !hasStep(msgs, s) {
						t.Errorf("%s: no step %q in %q", st.stage, s, msgs)
					}
				}
			}
			if len(l.Events("kmeans")) == 0 || len(l.Events("eigen")) == 0 {
				t.Errorf("kmeans: %d events, eigen: %d, want some of each", len(l.Events("kmeans")), len(l.Events("eigen")))
			}
		})
	}
}
