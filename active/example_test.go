package active_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/active"
	"github.com/tether-sc/tether/constraint"
)

// Three groups of three points on a line, asked about with an oracle that
// knows the groups, one question at a time: Auto asks the cores of the
// current clusters, then farthest-first, until it has found the three
// groups (pending groups first), then about the point the partition is
// least sure of.
func ExampleSuggest() {
	x := mat.NewDense(9, 1, []float64{0, 0.1, 0.2, 5, 5.1, 5.2, 10, 10.1, 10.2})
	truth := []int{0, 0, 0, 1, 1, 1, 2, 2, 2}
	labels := []int{0, 0, 0, 0, 0, 1, 1, 1, 1} // a wrong partition: 3 and 4 misplaced
	set := &constraint.Set{N: 9}
	for round := 0; round < 4; round++ {
		qs, err := active.Suggest(context.Background(), active.State{Embedding: x, Labels: labels, Constraints: set, K: 3}, active.Options{Seed: 1})
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, q := range qs {
			kind := constraint.CannotLink
			if truth[q.I] == truth[q.J] {
				kind = constraint.MustLink
			}
			fmt.Printf("(%d, %d) %v — %s\n", q.I, q.J, kind, q.Why)
			set.Pairs = append(set.Pairs, constraint.Pair{I: q.I, J: q.J, Kind: kind})
		}
	}
	// Output:
	// (6, 2) cl — cluster core 6 is the farthest from every known group (distance 9.8): is it with node 2?
	// (4, 2) cl — node 4 is the farthest from every known group (distance 4.9): is it with node 2?
	// (4, 6) cl — node 4's group is not placed yet (1 of 2 known groups left): is it with the nearest one, node 6's?
	// (5, 4) ml — node 5 lies between clusters 0 and 1 (k-means margin 0.555): is it with the nearest known group, node 4's?
}
