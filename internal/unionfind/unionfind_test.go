package unionfind

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteLabels labels the components of the undirected graph of edges by
// repeated relaxation (an independent O(n·m) computation), numbered in the
// order of their smallest element.
func bruteLabels(n int, edges [][2]int) []int {
	c := make([]int, n)
	for i := range c {
		c[i] = i
	}
	for changed := true; changed; {
		changed = false
		for _, e := range edges {
			a, b := c[e[0]], c[e[1]]
			if a != b {
				m := min(a, b)
				c[e[0]], c[e[1]] = m, m
				changed = true
			}
		}
	}
	id := map[int]int{}
	out := make([]int, n)
	for i, r := range c {
		if _, ok := id[r]; !ok {
			id[r] = len(id)
		}
		out[i] = id[r]
	}
	return out
}

func TestForestMatchesBruteForce(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5, 10, 70, 500} {
		for _, m := range []int{0, n / 2, n, 3 * n} {
			rnd := rand.New(rand.NewPCG(uint64(n), uint64(m)))
			edges := make([][2]int, m)
			u := New(n)
			merges := 0
			for k := range edges {
				edges[k] = [2]int{rnd.IntN(n), rnd.IntN(n)}
				if u.Union(edges[k][0], edges[k][1]) {
					merges++
				}
			}
			comp, count := u.Labels()
			want := bruteLabels(n, edges)
			if !slices.Equal(comp, want) {
				t.Fatalf("n = %d, m = %d: labels %v, want %v", n, m, comp, want)
			}
			if count != n-merges || count != slices.Max(want)+1 {
				t.Fatalf("n = %d, m = %d: count %d, %d merges", n, m, count, merges)
			}
		}
	}
}
