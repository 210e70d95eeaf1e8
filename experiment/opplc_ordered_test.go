package experiment

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"
)

// TestOPPLCOrderedGenerator checks the generated documents: the
// left-context property (entities numbered in order of first mention),
// the cannot-links are exactly the pairs of differing observed attributes
// with clWrong of them coreferent, and attribute error 0 gives no wrong
// cannot-link.
func TestOPPLCOrderedGenerator(t *testing.T) {
	p := ooProtocol(true)
	for i := range 5 {
		for _, e := range []float64{0, 0.2} {
			d, err := ooGenerate(p, 1, "test", i, e)
			if err != nil {
				t.Fatal(err)
			}
			next := 0
			for _, c := range d.truth {
				if c > next {
					t.Fatalf("entity %d mentioned before entity %d", c, next)
				}
				if c == next {
					next++
				}
			}
			wrong := 0
			for _, pr := range d.cons.Pairs {
				if d.truth[pr.I] == d.truth[pr.J] {
					wrong++
				}
				if d.feats[pr.J*(pr.J-1)/2+pr.I][3] != 0 {
					t.Fatalf("cannot-link on agreeing attributes")
				}
			}
			if wrong != d.clWrong || (e == 0 && wrong != 0) {
				t.Errorf("err %g: %d wrong cannot-links, counted %d", e, wrong, d.clWrong)
			}
			if len(d.feats) != len(d.truth)*(len(d.truth)-1)/2 {
				t.Errorf("%d feature vectors for n = %d", len(d.feats), len(d.truth))
			}
		}
	}
}

// TestOPPLCOrderedLogistic: the fitted similarity separates coreferent
// pairs (mean W above the non-coreferent mean) and is calibrated on the
// training pairs: the mean of W equals the fraction of coreferent pairs,
// the score equation of a logistic regression with an intercept.
func TestOPPLCOrderedLogistic(t *testing.T) {
	p := ooProtocol(true)
	var docs []*ooDoc
	for i := range 4 {
		d, err := ooGenerate(p, 1, "train", i, p.attrErr)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d)
	}
	w, err := ooFitLogistic(context.Background(), docs)
	if err != nil {
		t.Fatal(err)
	}
	var sumW, pos, all, wPos, wNeg, nNeg float64
	for _, d := range docs {
		g, err := ooGraph(d, w)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(d.truth); i++ {
			for j := 0; j < i; j++ {
				x := g.Weight(i, j)
				sumW += x
				all++
				if d.truth[i] == d.truth[j] {
					pos++
					wPos += x
				} else {
					nNeg++
					wNeg += x
				}
			}
		}
	}
	if math.Abs(sumW-pos) > 1e-4*all {
		t.Errorf("Σ W = %v, coreferent pairs %v", sumW, pos)
	}
	if wPos/pos < 2*wNeg/nNeg {
		t.Errorf("mean W: coreferent %v, others %v", wPos/pos, wNeg/nNeg)
	}
}

// TestOPPLCOrderedQuick runs the quick protocol: every cell succeeds in
// seconds, OPPLC never violates a cannot-link, and the page states the
// claim with a verdict.
func TestOPPLCOrderedQuick(t *testing.T) {
	start := time.Now()
	out, st, err := Run(context.Background(), OPPLCOrdered(), &Env{Quick: true, Seed: 1}, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed > 0 {
		t.Fatalf("%d cells failed: %v", st.Failed, st.Errors)
	}
	t.Logf("%d cells in %v", st.Cells, time.Since(start))
	md := out.Markdown
	for _, want := range []string{"## The claim: OPPLC beats H. BISECTION", "oracle advantage", "tether repro -quick opplc-ordered", "F1 against minimum cluster size", "| *thesis Table 5.3, OPPLC (CoNLL-2012)* | | *0.821 ± 0.103*"} {
		if !strings.Contains(md, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if len(out.Claims) == 0 || !strings.Contains(md, "is "+verdictMark(out.Claims[0].Verdict)+" here") {
		t.Error("no verdict, or not the claim's")
	}
	if !strings.Contains(md, "| OPPLC (α, θ tuned) | found |") {
		t.Errorf("no OPPLC row:\n%s", md)
	}
}

// TestOOVerdict checks the claim's rule: partial credit only when the
// other figure is not significantly worse.
func TestOOVerdict(t *testing.T) {
	d := func(mean, se float64) meanSD { return meanSD{mean: mean, sd: se} }
	for _, tc := range []struct {
		dc, da meanSD
		want   Verdict
	}{
		{d(0.064, 0.0045), d(0.02, 0.005), Held},
		{d(0.064, 0.0045), d(-0.005, 0.006), PartlyHeld},
		{d(0.064, 0.0045), d(-0.031, 0.006), NotHeld},
		{d(-0.004, 0.0025), d(0.03, 0.005), PartlyHeld},
		{d(0.001, 0.005), d(0.001, 0.005), NotHeld},
	} {
		if got := ooVerdict(tc.dc, tc.da); got != tc.want {
			t.Errorf("ooVerdict(%v, %v) = %v, want %v", tc.dc, tc.da, got, tc.want)
		}
	}
}
