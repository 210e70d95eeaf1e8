package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// iirClusters is the worked example of Manning, Raghavan & Schütze,
// Introduction to Information Retrieval (2008), §16.3, Figure 16.4: three
// clusters of 17 items from classes x (0), o (1) and ◇ (2): cluster 1 holds
// 5x 1o, cluster 2 holds 1x 4o 1◇, cluster 3 holds 2x 3◇.
func iirClusters() (truth, pred []int) {
	add := func(class, cluster, count int) {
		for range count {
			truth = append(truth, class)
			pred = append(pred, cluster)
		}
	}
	add(0, 1, 5)
	add(1, 1, 1)
	add(0, 2, 1)
	add(1, 2, 4)
	add(2, 2, 1)
	add(0, 3, 2)
	add(2, 3, 3)
	return truth, pred
}

func TestPairCountsIIR(t *testing.T) {
	truth, pred := iirClusters()
	c, err := NewContingency(truth, pred)
	if err != nil {
		t.Fatal(err)
	}
	// IIR §16.3: TP = 20, FP = 20, FN = 24, TN = 72, RI = 92/136 ≈ 0.68.
	tp, fp, fn, tn := c.PairCounts()
	if tp != 20 || fp != 20 || fn != 24 || tn != 72 {
		t.Fatalf("pair counts %d %d %d %d, want 20 20 24 72 (IIR §16.3)", tp, fp, fn, tn)
	}
	if got, want := c.RandIndex(), 92.0/136; math.Abs(got-want) > 1e-15 {
		t.Errorf("Rand = %v, want 92/136", got)
	}
	// Pairwise P = 20/40, R = 20/44 (IIR §16.3), F1 = 2·20/(2·20+20+24) = 40/84.
	p := c.Pairwise()
	if math.Abs(p.Precision-0.5) > 1e-15 || math.Abs(p.Recall-20.0/44) > 1e-15 || math.Abs(p.F1-40.0/84) > 1e-15 {
		t.Errorf("pairwise %+v, want 1/2, 5/11, 10/21", p)
	}
	// ARI by hand from the pair counts (Hubert & Arabie 1985, the form with
	// a, b, c, d): 2(20·72 − 24·20)/((20+24)(24+72) + (20+20)(20+72))
	// = 1920/7904.
	if got, want := c.ARI(), 1920.0/7904; math.Abs(got-want) > 1e-15 {
		t.Errorf("ARI = %.17g, want 1920/7904 = %.17g", got, want)
	}
}

func TestARIWorked(t *testing.T) {
	// Each expected value is worked by hand from thesis eq. 2.5.9 with
	// C(n,2) sums; the first three also appear in scikit-learn's
	// documentation of adjusted_rand_score.
	cases := []struct {
		name        string
		truth, pred []int
		want        float64
	}{
		// ΣC(Cij,2) = 1, ΣC(a,2) = 1, ΣC(b,2) = 2, C(4,2) = 6:
		// (1 − 2/6)/(3/2 − 2/6) = 4/7.
		{"merge", []int{0, 0, 1, 2}, []int{0, 0, 1, 1}, 4.0 / 7},
		{"split", []int{0, 0, 1, 1}, []int{0, 0, 1, 2}, 4.0 / 7},
		// 0 − 4/6 over 2 − 4/6: −1/2, the lower bound.
		{"crossed", []int{0, 0, 1, 1}, []int{0, 1, 0, 1}, -0.5},
		// One cluster against singletons: ΣC(Cij,2)=0, ΣC(a,2)=6, ΣC(b,2)=0:
		// (0 − 0)/(3 − 0) = 0.
		{"one vs singletons", []int{0, 0, 0, 0}, []int{0, 1, 2, 3}, 0},
		// Identical partitions, including the 0/0 cases (sklearn returns 1).
		{"identical", []int{3, 3, 5, 7, 7}, []int{1, 1, 0, 2, 2}, 1},
		{"both one cluster", []int{4, 4, 4}, []int{9, 9, 9}, 1},
		{"both singletons", []int{0, 1, 2}, []int{2, 0, 1}, 1},
		{"n=1", []int{5}, []int{-5}, 1},
		// n = 6, truth {0,1,2}{3,4,5}, pred {0,1}{2,3}{4,5}: ΣC(Cij,2) = 2,
		// ΣC(a,2) = 6, ΣC(b,2) = 3, C(6,2) = 15: (2 − 18/15)/(9/2 − 18/15)
		// = (4/5)/(33/10) = 8/33.
		{"three pairs", []int{0, 0, 0, 1, 1, 1}, []int{0, 0, 1, 1, 2, 2}, 8.0 / 33},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ARI(tc.truth, tc.pred)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-tc.want) > 1e-15 {
				t.Errorf("ARI = %.17g, want %.17g", got, tc.want)
			}
		})
	}
}

// bruteARI evaluates thesis eq. 2.5.5–2.5.9 by enumerating the n(n−1)/2
// pairs, independently of the contingency table.
func bruteARI(truth, pred []int) (rand, ari float64, a, b, c, d int) {
	n := len(truth)
	for i := range n {
		for j := i + 1; j < n; j++ {
			st, sp := truth[i] == truth[j], pred[i] == pred[j]
			switch {
			case st && sp:
				a++
			case !st && !sp:
				b++
			case sp:
				c++
			default:
				d++
			}
		}
	}
	total := float64(n * (n - 1) / 2)
	if total == 0 {
		return 1, 1, a, b, c, d
	}
	rand = float64(a+b) / total
	sa, sb := float64(a+d), float64(a+c) // Σ C(a_i,2), Σ C(b_j,2)
	exp := sa * sb / total
	den := (sa+sb)/2 - exp
	if den == 0 {
		return rand, 1, a, b, c, d
	}
	return rand, (float64(a) - exp) / den, a, b, c, d
}

func TestPairsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range sizes {
		for rep := range 10 {
			truth, pred := randPair(rng, n)
			c, err := NewContingency(truth, pred)
			if err != nil {
				t.Fatal(err)
			}
			wr, wa, a, b, cc, d := bruteARI(truth, pred)
			tp, fp, fn, tn := c.PairCounts()
			if tp != int64(a) || tn != int64(b) || fp != int64(cc) || fn != int64(d) {
				t.Fatalf("n=%d rep %d: counts %d %d %d %d, brute force %d %d %d %d", n, rep, tp, fp, fn, tn, a, cc, d, b)
			}
			if math.Abs(c.RandIndex()-wr) > 1e-14 || math.Abs(c.ARI()-wa) > 1e-12 {
				t.Errorf("n=%d rep %d: Rand %v ARI %v, eq. 2.5.6/2.5.9 give %v %v", n, rep, c.RandIndex(), c.ARI(), wr, wa)
			}
		}
	}
}

func TestPairsProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range sizes {
		for rep := range 20 {
			t.Run(fmt.Sprintf("n=%d/%d", n, rep), func(t *testing.T) {
				truth, pred := randPair(rng, n)
				c, _ := NewContingency(truth, pred)
				s, _ := NewContingency(pred, truth)
				// Symmetry: ARI and Rand are symmetric, P and R swap.
				if c.ARI() != s.ARI() || c.RandIndex() != s.RandIndex() {
					t.Errorf("asymmetric: ARI %v/%v Rand %v/%v", c.ARI(), s.ARI(), c.RandIndex(), s.RandIndex())
				}
				if p, q := c.Pairwise(), s.Pairwise(); p.Precision != q.Recall || p.Recall != q.Precision {
					t.Errorf("pairwise precision/recall do not swap: %+v %+v", p, q)
				}
				if a := c.ARI(); a < -0.5-1e-15 || a > 1 {
					t.Errorf("ARI %v outside [−1/2, 1]", a)
				}
				// ARI = 1 iff equal up to relabelling.
				perm := relabelRandom(rng, truth)
				if a, _ := ARI(truth, perm); a != 1 {
					t.Errorf("ARI with a relabelled copy = %v, want 1", a)
				}
				if n >= 2 {
					moved := append([]int(nil), perm...)
					i := rng.IntN(n)
					for moved[i] == perm[i] {
						moved[i] = perm[rng.IntN(n)] // some other existing cluster…
						if rng.IntN(4) == 0 {
							moved[i] = min(1<<40, math.MaxInt) // …or a new one
						}
					}
					// Moving one item may leave the partition unchanged (a
					// singleton given a new label): decide equality by pairs.
					same := true
					for x := range n {
						for y := range n {
							if (truth[x] == truth[y]) != (moved[x] == moved[y]) {
								same = false
							}
						}
					}
					if a, _ := ARI(truth, moved); (a == 1) != same {
						t.Errorf("ARI = %v but partitions equal = %v", a, same)
					}
				}
			})
		}
	}
}
