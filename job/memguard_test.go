package job

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestRunMemoryGuard: a job whose method's dense blocks pass the memory
// bound (internal/memguard: 3/4 of the machine's memory, or GOMEMLIMIT
// when lower; set here in a child process running this test) fails with
// an error naming the bytes needed, the bound and the remedy instead of
// killing the process: labelprop over 150 classes of partial labels on
// 300 rows (48·300·150 bytes, 2.1 MiB, over 1 MiB; before, 200 000
// classes on 2·10⁵ rows died with "fatal error: out of memory"). Under a
// bound it fits in, the child's labels are those of the job run here.
func TestRunMemoryGuard(t *testing.T) {
	spec := Spec{ID: "a", Input: "d.csv", KNN: 5, K: 150, Labels: "l.txt", Method: "labelprop"}
	if dir := os.Getenv("TETHER_JOB_MEMGUARD_DIR"); dir != "" {
		res := Run(context.Background(), spec, dir)
		fmt.Printf("error: %s\nlabels: %v\n", res.Error, res.Labels)
		return
	}
	if testing.Short() {
		t.Skip("runs the test binary in child processes")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var d, l strings.Builder
	d.WriteString("x,y\n")
	for i := range 300 {
		fmt.Fprintf(&d, "%.6f,%.6f\n", rng.Float64(), rng.Float64())
		if i%2 == 0 {
			fmt.Fprintf(&l, "%d,%d\n", i, i/2)
		}
	}
	dir := writeFiles(t, map[string]string{"d.csv": d.String(), "l.txt": l.String()})
	child := func(limit string) string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRunMemoryGuard$")
		cmd.Env = append(os.Environ(), "TETHER_JOB_MEMGUARD_DIR="+dir, "GOMEMLIMIT="+limit)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("child under GOMEMLIMIT=%s: %v\n%s", limit, err, out)
		}
		return string(out)
	}
	out := child("1MiB")
	for _, w := range []string{"error: cluster: invalid problem: labelprop: ", "K = 150 classes", "need about 2.1 MiB (2160000 bytes), more than the bound of 1.0 MiB", "fewer classes", "labels: []"} {
		if !strings.Contains(out, w) {
			t.Errorf("GOMEMLIMIT=1MiB: output lacks %q:\n%s", w, out)
		}
	}
	here := Run(context.Background(), spec, dir)
	if here.Error != "" {
		t.Fatal(here.Error)
	}
	if out, want := child("1GiB"), fmt.Sprintf("error: \nlabels: %v\n", here.Labels); !strings.Contains(out, want) {
		t.Errorf("GOMEMLIMIT=1GiB: child's output\n%s\nwant the labels of the job run here:\n%s", out, want)
	}
}
