package tetherbeam

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tether-sc/tether/input"
	"github.com/tether-sc/tether/job"
)

// TestExampleManifests: every job of the committed example manifests is
// valid (job.ReadManifest validates each: no field the input does not
// read, such as label with a graph or knn with a graph generator), and
// every generator job's parameters are read by its generator
// (input.GenParams refuses the others). The catalog datasets are not
// read: they live outside the repository.
func TestExampleManifests(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("examples", "*.jsonl"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no example manifests (%v)", err)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			specs, err := job.ReadManifest(f, path)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range specs {
				if s.Gen == "" {
					continue
				}
				if _, _, err := input.GenParams(s.Gen, s.GenParams); err != nil {
					t.Errorf("job %s: %v", s.ID, err)
				}
			}
		})
	}
}
