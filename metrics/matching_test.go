package metrics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func TestPurityIIR(t *testing.T) {
	// Manning et al. 2008 §16.3: purity = (5 + 4 + 3)/17 ≈ 0.71.
	truth, pred := iirClusters()
	got, err := Purity(truth, pred)
	if err != nil {
		t.Fatal(err)
	}
	if want := 12.0 / 17; math.Abs(got-want) > 1e-15 {
		t.Errorf("purity = %v, want 12/17", got)
	}
	// Inverse purity, by hand: class x is mostly in cluster 1 (5), o in
	// cluster 2 (4), ◇ in cluster 3 (3): also 12/17.
	c, _ := NewContingency(truth, pred)
	if got := c.InversePurity(); math.Abs(got-12.0/17) > 1e-15 {
		t.Errorf("inverse purity = %v, want 12/17", got)
	}
	// Accuracy: the dominant classes of the clusters are distinct, so the
	// best one-to-one map equals the purity map: 12/17.
	if got := c.Accuracy(); math.Abs(got-12.0/17) > 1e-15 {
		t.Errorf("accuracy = %v, want 12/17", got)
	}
}

func TestAccuracyWorked(t *testing.T) {
	// Seed 002 eq. 45–46, worked by hand.
	cases := []struct {
		name        string
		truth, pred []int
		want        float64
	}{
		// Labels swapped: the map 1→0, 0→1 makes every item right.
		{"swapped", []int{0, 0, 1, 1}, []int{1, 1, 0, 0}, 1},
		// Clusters 0 and 1 are both dominated by class 0: purity is
		// (2+2+1)/6, but class 0 serves one cluster only; the best map
		// 0→0, 1→1, 2→2 gets 2 + 1 + 1 = 4 of 6 right.
		{"no shared class", []int{0, 0, 0, 0, 1, 2}, []int{0, 0, 1, 1, 1, 2}, 4.0 / 6},
		// More clusters than classes: 4 clusters, 2 classes; only two
		// clusters are matched: {0,1} → 0 (2 items) and {4,5} → 1 (2).
		{"more clusters", []int{0, 0, 0, 1, 1, 1}, []int{0, 0, 1, 2, 3, 3}, 4.0 / 6},
		// More classes than clusters: one cluster holds all → its best class (3).
		{"one cluster", []int{0, 0, 0, 1, 1, 2}, []int{5, 5, 5, 5, 5, 5}, 3.0 / 6},
		{"singletons", []int{0, 0, 0, 1, 1, 2}, []int{0, 1, 2, 3, 4, 5}, 3.0 / 6},
		{"n=1", []int{4}, []int{9}, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Accuracy(tc.truth, tc.pred)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-tc.want) > 1e-15 {
				t.Errorf("accuracy = %v, want %v", got, tc.want)
			}
		})
	}
}

// bruteAccuracy enumerates every injective map from predicted labels to
// truth labels (or the reverse when there are more classes) and counts the
// items it gets right: seed 002 eq. 46 maximized literally.
func bruteAccuracy(truth, pred []int) float64 {
	tv := dedup(truth)
	pv := dedup(pred)
	best := 0
	mapping := map[int]int{}
	used := map[int]bool{}
	var rec func(k int)
	rec = func(k int) {
		if k == len(pv) {
			right := 0
			for i := range truth {
				if m, ok := mapping[pred[i]]; ok && m == truth[i] {
					right++
				}
			}
			best = max(best, right)
			return
		}
		rec(k + 1) // cluster pv[k] left unmatched
		for _, t := range tv {
			if !used[t] {
				used[t] = true
				mapping[pv[k]] = t
				rec(k + 1)
				delete(mapping, pv[k])
				used[t] = false
			}
		}
	}
	rec(0)
	return float64(best) / float64(len(truth))
}

func dedup(labels []int) []int {
	var out []int
	seen := map[int]bool{}
	for _, v := range labels {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

func TestAccuracyBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, n := range []int{1, 2, 3, 5, 10, 40} {
		for rep := range 15 {
			t.Run(fmt.Sprintf("n=%d/%d", n, rep), func(t *testing.T) {
				truth := randPartition(rng, n, 1+rng.IntN(min(n, 5)))
				pred := randPartition(rng, n, 1+rng.IntN(min(n, 5)))
				c, _ := NewContingency(truth, pred)
				s, _ := NewContingency(pred, truth)
				want := bruteAccuracy(truth, pred)
				if got := c.Accuracy(); math.Abs(got-want) > 1e-15 {
					t.Errorf("accuracy %v, brute force %v", got, want)
				}
				if got := s.Accuracy(); math.Abs(got-want) > 1e-15 {
					t.Errorf("accuracy not symmetric: %v, want %v", got, want)
				}
				// The matching realizes the accuracy.
				m := c.Matching()
				right := 0
				for j, i := range m {
					if i >= 0 {
						right += c.At(i, j)
					}
				}
				if math.Abs(float64(right)/float64(n)-want) > 1e-15 {
					t.Errorf("matching %v gets %d right, accuracy %v", m, right, want)
				}
				// Purity ≥ accuracy: the dominant class map is not injective.
				if c.Purity() < want-1e-15 || c.InversePurity() < want-1e-15 {
					t.Errorf("purity %v or inverse purity %v below accuracy %v", c.Purity(), c.InversePurity(), want)
				}
			})
		}
	}
}
