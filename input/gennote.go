package input

import (
	"fmt"

	"github.com/tether-sc/tether/dataset/synth"
)

// GenKNote returns the note of a clustering into k > 0 clusters of the
// data that generator g made with parameters p (Generate), when g made
// another number of classes (g.Classes, or p.K; the reference labels and
// the ARI count those), "" otherwise (k ≤ 0 included). set names the
// setting that gave p.K its value (a job's gen_params "k", tether
// cluster's -gen-k), "" when it is g's default, which def then explains
// ("" for no explanation). The job runner and tether cluster -gen both
// say it. Cost O(1).
func GenKNote(k int, g synth.Generator, p synth.Params, set, def string) string {
	classes := g.Classes
	if classes == 0 {
		classes = p.K
	}
	switch {
	case k <= 0 || classes <= 0 || classes == k:
		return ""
	case set != "":
		return fmt.Sprintf("k = %d, but gen %s made %d classes (%s)", k, g.Name, classes, set)
	case g.Classes > 0:
		return fmt.Sprintf("k = %d, but gen %s always makes %d classes", k, g.Name, classes)
	case def != "":
		return fmt.Sprintf("k = %d, but gen %s made %d classes, its default: %s", k, g.Name, classes, def)
	}
	return fmt.Sprintf("k = %d, but gen %s made %d classes, its default", k, g.Name, classes)
}
