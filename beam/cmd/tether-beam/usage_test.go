package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestUsage: tether-beam -h begins with what it does and where the job
// format is documented (docs/jobs.md), then its own flags, and only then
// Beam's (-runner among them), which it keeps. It printed Beam's ~120
// lines of flags first, its own among them in alphabetical order, with no
// word about jobs. Run as a child process: the test binary is tether-beam
// with TETHER_BEAM_TEST_MAIN=1 (TestMain).
func TestUsage(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-h")
	cmd.Env = append(os.Environ(), "TETHER_BEAM_TEST_MAIN=1")
	b, _ := cmd.CombinedOutput()
	got := string(b)
	if !strings.HasPrefix(got, "Usage: tether-beam -manifest") {
		t.Fatalf("usage begins %.200q, want \"Usage: tether-beam -manifest\"", got)
	}
	head := got[:strings.Index(got, "tether-beam's flags:")]
	for _, want := range []string{"docs/jobs.md", "results.jsonl", "Apache Beam"} {
		if !strings.Contains(head, want) {
			t.Errorf("usage header does not say %q:\n%s", want, head)
		}
	}
	own, beam := -1, strings.Index(got, "\n  -runner")
	for _, name := range ownFlags {
		i := strings.Index(got, "\n  -"+name+" ")
		if i < 0 || beam >= 0 && i > beam {
			t.Errorf("-%s at %d, Beam's -runner at %d: want tether-beam's flags first", name, i, beam)
		}
		own = max(own, i)
	}
	if beam < 0 || !strings.Contains(got[own:beam], "Apache Beam's flags") {
		t.Errorf("no -runner after a heading of Beam's flags:\n%s", got)
	}
}
