package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// luoKey is the key of Luo 2005 §2 (Figure 1; the same example as Bagga &
// Baldwin 1998): mentions 1–12 (here 0–11) in entities {1…5}, {6,7},
// {8,9,A,B,C}.
var luoKey = []int{0, 0, 0, 0, 0, 1, 1, 2, 2, 2, 2, 2}

// luoResponses are the system responses (a)–(d) of Luo 2005 Figure 1.
var luoResponses = map[string][]int{
	"a: merge 2+3":  {0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1},
	"b: merge 1+3":  {0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0},
	"c: one entity": {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	"d: singletons": {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11},
}

func TestCorefLuo2005(t *testing.T) {
	// Expected precision and recall worked by hand from the definitions;
	// the F1 values agree with Table 1 of Luo 2005 to its three decimals
	// (MUC .947 .947 .900 –; B³ .865 .737 .545 .400; CEAF φ3 .833 .583
	// .417 .250; CEAF φ4 .733 .667 .294 .178), and the B³ precisions of (a)
	// and (b) with Bagga & Baldwin 1998 (76%, 58%).
	type prf struct{ p, r float64 }
	cases := []struct {
		name                   string
		muc, b3, ceafm, ceafe  prf
		mucF, b3F, ceafmF, efF float64 // Luo 2005 Table 1
	}{
		{
			name: "a: merge 2+3",
			// MUC: links 12 − 3 cells = 9; key links 12 − 3 = 9, response 12 − 2 = 10.
			muc: prf{9.0 / 10, 1},
			// B³ precision: 5·1 + 2·(2/7) + 5·(5/7) over 12 = 64/84.
			b3: prf{64.0 / 84, 1},
			// CEAF φ3: align {1…5}↔{1…5} (5) and {8…C}↔{6…C} (5): 10/12.
			ceafm: prf{10.0 / 12, 10.0 / 12},
			// CEAF φ4: 1 + 2·5/12 = 11/6; P = (11/6)/2, R = (11/6)/3.
			ceafe: prf{11.0 / 12, 11.0 / 18},
			mucF:  0.947, b3F: 0.865, ceafmF: 0.833, efF: 0.733,
		},
		{
			name: "b: merge 1+3",
			muc:  prf{9.0 / 10, 1},
			// 10 items with 5/10, 2 items with 1: 7/12.
			b3:    prf{7.0 / 12, 1},
			ceafm: prf{7.0 / 12, 7.0 / 12},
			// φ4: {6,7}↔{6,7} = 1, one 5-entity ↔ the 10-entity 10/15: 5/3.
			ceafe: prf{5.0 / 6, 5.0 / 9},
			mucF:  0.947, b3F: 0.737, ceafmF: 0.583, efF: 0.667,
		},
		{
			name: "c: one entity",
			// 9 links of the key, response 11 links, 9 common.
			muc: prf{9.0 / 11, 1},
			// (25 + 4 + 25)/12 per item over 12: 54/144.
			b3:    prf{54.0 / 144, 1},
			ceafm: prf{5.0 / 12, 5.0 / 12},
			// Best φ4 = 2·5/17 = 10/17; P = 10/17, R = 10/51.
			ceafe: prf{10.0 / 17, 10.0 / 51},
			mucF:  0.900, b3F: 0.545, ceafmF: 0.417, efF: 0.294,
		},
		{
			name: "d: singletons",
			// No response link: precision 0/0 → 0 (reference scorer), recall 0.
			muc: prf{0, 0},
			// Recall (5·1/5 + 2·1/2 + 5·1/5)/12 = 3/12.
			b3:    prf{1, 3.0 / 12},
			ceafm: prf{3.0 / 12, 3.0 / 12},
			// φ4 = 2/6 + 2/3 + 2/6 = 4/3; P = (4/3)/12, R = (4/3)/3.
			ceafe: prf{4.0 / 36, 4.0 / 9},
			mucF:  0, b3F: 0.400, ceafmF: 0.250, efF: 0.178,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := NewContingency(luoKey, luoResponses[tc.name])
			if err != nil {
				t.Fatal(err)
			}
			check := func(name string, got PRF, want prf, table float64) {
				t.Helper()
				if math.Abs(got.Precision-want.p) > 1e-15 || math.Abs(got.Recall-want.r) > 1e-15 {
					t.Errorf("%s: P %.17g R %.17g, want %.17g %.17g", name, got.Precision, got.Recall, want.p, want.r)
				}
				if math.Abs(got.F1-table) > 0.0005 {
					t.Errorf("%s: F1 %.4f, Luo 2005 Table 1 gives %.3f", name, got.F1, table)
				}
			}
			check("MUC", c.MUC(), tc.muc, tc.mucF)
			check("B³", c.B3(), tc.b3, tc.b3F)
			check("CEAF_m", c.CEAFm(), tc.ceafm, tc.ceafmF)
			check("CEAF_e", c.CEAFe(), tc.ceafe, tc.efF)
			want := (c.MUC().F1 + c.B3().F1 + c.CEAFe().F1) / 3
			if got := c.CoNLL(); got != want {
				t.Errorf("CoNLL %v, mean of the three F1 %v", got, want)
			}
		})
	}
}

func TestMUCVilain(t *testing.T) {
	// Vilain et al. 1995 §3: key {A,B,C,D}, response {A,B}{C,D}: recall
	// (4 − 2)/(4 − 1) = 2/3, precision 1.
	c, _ := NewContingency([]int{0, 0, 0, 0}, []int{0, 0, 1, 1})
	if m := c.MUC(); math.Abs(m.Recall-2.0/3) > 1e-15 || m.Precision != 1 {
		t.Errorf("MUC %+v, want P 1 R 2/3", m)
	}
	// Singletons carry no link: identical all-singleton partitions score 0
	// (0/0 taken as 0, as in the reference scorer), while B³ and CEAF give 1.
	s, _ := NewContingency([]int{0, 1, 2}, []int{0, 1, 2})
	if m := s.MUC(); m != (PRF{}) {
		t.Errorf("MUC of identical singletons %+v, want 0", m)
	}
	if b, e := s.B3(), s.CEAFe(); b.F1 != 1 || e.F1 != 1 {
		t.Errorf("B³ %v CEAF_e %v, want 1", b.F1, e.F1)
	}
}

// bruteCoref evaluates the coreference scores from their definitions,
// mention by mention and over all entity alignments.
func bruteCoref(key, resp []int) (muc, b3, ceafe PRF) {
	n := len(key)
	// MUC (Vilain et al. 1995): recall = Σ_K (|K| − |p(K)|)/Σ_K (|K| − 1)
	// with p(K) the response entities meeting K; precision swaps roles.
	mucSide := func(a, b []int) float64 {
		size := map[int]int{}
		parts := map[int]map[int]bool{}
		for i := range a {
			size[a[i]]++
			if parts[a[i]] == nil {
				parts[a[i]] = map[int]bool{}
			}
			parts[a[i]][b[i]] = true
		}
		num, den := 0, 0
		for k, s := range size {
			num += s - len(parts[k])
			den += s - 1
		}
		if den == 0 {
			return 0
		}
		return float64(num) / float64(den)
	}
	muc = newPRF(mucSide(resp, key), mucSide(key, resp))
	// B³ (Bagga & Baldwin 1998), per mention.
	var p, r float64
	for i := range n {
		common, ks, rs := 0, 0, 0
		for j := range n {
			if key[j] == key[i] {
				ks++
			}
			if resp[j] == resp[i] {
				rs++
			}
			if key[j] == key[i] && resp[j] == resp[i] {
				common++
			}
		}
		p += float64(common) / float64(rs)
		r += float64(common) / float64(ks)
	}
	b3 = newPRF(p/float64(n), r/float64(n))
	// CEAF_e (Luo 2005) by enumerating alignments of the entity lists.
	kv, rv := dedup(key), dedup(resp)
	phi := make([][]float64, len(kv))
	for a, K := range kv {
		phi[a] = make([]float64, len(rv))
		for b, R := range rv {
			inter, ks, rs := 0, 0, 0
			for i := range n {
				if key[i] == K {
					ks++
				}
				if resp[i] == R {
					rs++
				}
				if key[i] == K && resp[i] == R {
					inter++
				}
			}
			phi[a][b] = -2 * float64(inter) / float64(ks+rs)
		}
	}
	best := -bruteAssign(phi)
	ceafe = newPRF(best/float64(len(rv)), best/float64(len(kv)))
	return muc, b3, ceafe
}

func TestCorefBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for _, n := range []int{1, 2, 3, 5, 10, 30} {
		for rep := range 15 {
			t.Run(fmt.Sprintf("n=%d/%d", n, rep), func(t *testing.T) {
				key := randPartition(rng, n, 1+rng.IntN(min(n, 6)))
				resp := randPartition(rng, n, 1+rng.IntN(min(n, 6)))
				c, _ := NewContingency(key, resp)
				s, _ := NewContingency(resp, key)
				wm, wb, we := bruteCoref(key, resp)
				for _, tc := range []struct {
					name      string
					got, swap PRF
					want      PRF
				}{
					{"MUC", c.MUC(), s.MUC(), wm},
					{"B³", c.B3(), s.B3(), wb},
					{"CEAF_e", c.CEAFe(), s.CEAFe(), we},
				} {
					if math.Abs(tc.got.Precision-tc.want.Precision) > 1e-12 || math.Abs(tc.got.Recall-tc.want.Recall) > 1e-12 {
						t.Errorf("%s %+v, definition gives %+v", tc.name, tc.got, tc.want)
					}
					// Swapping key and response swaps precision and recall.
					if math.Abs(tc.got.Precision-tc.swap.Recall) > 1e-12 || math.Abs(tc.got.Recall-tc.swap.Precision) > 1e-12 {
						t.Errorf("%s: swap gives %+v, want P/R of %+v swapped", tc.name, tc.swap, tc.got)
					}
				}
				if m, a := c.CEAFm(), c.Accuracy(); m.F1 != a || m.Precision != a {
					t.Errorf("CEAF_m %+v ≠ accuracy %v", m, a)
				}
			})
		}
	}
}

func TestClassF1(t *testing.T) {
	// Worked by hand (seed 003 §5.2 with the B³ per-class terms of
	// Contingency.Classes): truth {0,1,2}{3}, pred {0,1}{2,3}.
	// Class 0 (3 items): p = (1 + 1 + ½)/3 = 5/6, r = (⅔ + ⅔ + ⅓)/3 = 5/9.
	// Class 1 (1 item): p = ½, r = 1.
	c, _ := NewContingency([]int{0, 0, 0, 1}, []int{0, 0, 1, 1})
	cl := c.Classes()
	if len(cl) != 2 || cl[0].Size != 3 || math.Abs(cl[0].Precision-5.0/6) > 1e-15 || math.Abs(cl[0].Recall-5.0/9) > 1e-15 ||
		cl[1].Size != 1 || cl[1].Precision != 0.5 || cl[1].Recall != 1 {
		t.Fatalf("classes %+v", cl)
	}
	// min size 2 keeps class 0: F1 = 2(5/6)(5/9)/(5/6 + 5/9) = 2/3.
	f, count := c.ClassF1(2)
	if count != 1 || math.Abs(f.F1-2.0/3) > 1e-15 {
		t.Errorf("ClassF1(2) = %+v over %d classes, want 2/3 over 1", f, count)
	}
	// min size 1 micro-averages both: p̄ = (3·5/6 + ½)/4 = 3/4, r̄ = (3·5/9 + 1)/4 = 2/3.
	f, count = c.ClassF1(1)
	if count != 2 || math.Abs(f.Precision-0.75) > 1e-15 || math.Abs(f.Recall-2.0/3) > 1e-15 {
		t.Errorf("ClassF1(1) = %+v over %d", f, count)
	}
	if f, count = c.ClassF1(4); count != 0 || f != (PRF{}) {
		t.Errorf("ClassF1(4) = %+v over %d, want nothing", f, count)
	}
	// With no size limit the micro-average is B³ (property of the
	// definition), on random partitions.
	rng := rand.New(rand.NewPCG(19, 20))
	for _, n := range sizes {
		truth, pred := randPair(rng, n)
		c, _ := NewContingency(truth, pred)
		f, _ := c.ClassF1(0)
		b := c.B3()
		if math.Abs(f.Precision-b.Precision) > 1e-12 || math.Abs(f.Recall-b.Recall) > 1e-12 {
			t.Errorf("n=%d: ClassF1(0) %+v ≠ B³ %+v", n, f, b)
		}
	}
}
