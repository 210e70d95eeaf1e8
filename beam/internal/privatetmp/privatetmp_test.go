package privatetmp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
)

func TestMain(m *testing.M) {
	ptest.MainWithDefault(m, "prism")
}

// names returns the names in dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// TestEnterRemovesLoopbackFile: a pipeline run on loopback Prism between
// Enter and leave makes its beamloopbackworker file in the folder Enter
// made (the premise: Beam creates it in os.TempDir()), and leave removes
// it with the folder, leaving the outer temporary folder as it was and
// TMPDIR as it was, set or unset; calls nest.
func TestEnterRemovesLoopbackFile(t *testing.T) {
	for _, tc := range []struct {
		name   string
		unset  bool // TMPDIR unset before Enter (os.TempDir() is then /tmp: no pipeline runs)
		nested bool // a second Enter inside the first
	}{
		{"TMPDIR set", false, false},
		{"nested", false, true},
		{"TMPDIR unset", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			outer := t.TempDir()
			t.Setenv("TMPDIR", outer)
			if tc.unset {
				os.Unsetenv("TMPDIR")
			}
			leave, err := Enter()
			if err != nil {
				t.Fatal(err)
			}
			dir := os.TempDir()
			if !tc.unset {
				if filepath.Dir(dir) != outer {
					t.Fatalf("TMPDIR = %s, want a folder of %s", dir, outer)
				}
				leaveInner := func() error { return nil }
				if tc.nested {
					if leaveInner, err = Enter(); err != nil {
						t.Fatal(err)
					}
				}
				p, s := beam.NewPipelineWithRoot()
				passert.Count(s, beam.Create(s, 1, 2, 3), "three", 3)
				if err := ptest.Run(p); err != nil {
					t.Fatal(err)
				}
				made := slices.ContainsFunc(names(t, os.TempDir()), func(n string) bool { return strings.HasPrefix(n, "beamloopbackworker-") })
				if !made {
					t.Fatalf("no beamloopbackworker file in %s after a loopback run: %q", os.TempDir(), names(t, os.TempDir()))
				}
				if err := leaveInner(); err != nil {
					t.Fatal(err)
				}
				if os.TempDir() != dir {
					t.Fatalf("TMPDIR = %s after the inner leave, want %s", os.TempDir(), dir)
				}
			}
			if err := leave(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Fatalf("folder %s after leave: %v, want none", dir, err)
			}
			if v, ok := os.LookupEnv("TMPDIR"); tc.unset && ok || !tc.unset && v != outer {
				t.Fatalf("TMPDIR = %q (set: %v) after leave, want it as it was", v, ok)
			}
			if !tc.unset {
				if left := names(t, outer); len(left) > 0 {
					t.Fatalf("%s holds %q after leave, want nothing", outer, left)
				}
			}
		})
	}
}
