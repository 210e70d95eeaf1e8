package job_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/tether-sc/tether/job"
)

// A manifest of two jobs run one after the other.
func Example() {
	manifest := `{"id":"moons-njw","gen":"moons","gen_params":{"n":"300"},"k":2,"seed":1}
{"id":"moons-fgpwc","gen":"moons","gen_params":{"n":"300"},"method":"fgpwc","k":2,"seed":1,"sample":{"pairs":100,"seed":2}}`
	specs, err := job.ReadManifest(strings.NewReader(manifest), "jobs.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range job.RunAll(context.Background(), specs, "") {
		fmt.Printf("%s: k=%d ARI≥0.9: %v error=%q\n", r.ID, r.K, *r.ARI >= 0.9, r.Error)
	}
	// Output:
	// moons-njw: k=2 ARI≥0.9: true error=""
	// moons-fgpwc: k=2 ARI≥0.9: true error=""
}
