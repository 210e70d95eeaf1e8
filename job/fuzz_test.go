package job

import (
	"strings"
	"testing"
)

// FuzzReadManifest: any input gives specs that validate, or an error that
// names the manifest; never a panic.
func FuzzReadManifest(f *testing.F) {
	f.Add("{\"id\":\"a\",\"gen\":\"moons\",\"k\":2}\n")
	f.Add("# c\n\n{\"id\":\"a\",\"input\":\"x.csv\",\"knobs\":[\"M=3\"],\"sample\":{\"pairs\":3}}\n{\"id\":\"a\"}")
	f.Add("\ufeff{\"id\":\"../\"}")
	f.Fuzz(func(t *testing.T, in string) {
		specs, err := ReadManifest(strings.NewReader(in), "m.jsonl")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "m.jsonl") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for i := range specs {
			if err := specs[i].Validate(); err != nil {
				t.Fatalf("accepted spec fails Validate: %v", err)
			}
		}
	})
}
