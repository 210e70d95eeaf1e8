package experiment_test

import (
	"fmt"
	"strings"

	"github.com/tether-sc/tether/experiment"
)

// A page opens with its claims; the ledger counts them over all pages.
func ExampleWithClaims() {
	claims := []experiment.Claim{{
		Source:  "thesis §4.1.3, Fig. 4.4",
		Quote:   "Non-uniformity degrades the clustering results",
		Rule:    "ARI at α = 0 below ARI at α = 1 for every partition",
		Ours:    "A 0.286 → 0.988",
		Verdict: experiment.Held,
	}}
	page := experiment.WithClaims("# Closure\n\nThe body.\n", claims)
	fmt.Println(strings.SplitN(page, "\n", 6)[2])
	n, _ := experiment.Count(claims)
	fmt.Println(n.Held, "held of", n.Total())
	// Output:
	// ## Published claims checked
	// 1 held of 1
}
