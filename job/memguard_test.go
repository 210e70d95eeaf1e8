package job

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestRunMemoryGuard: a job whose method's dense blocks pass its memory
// bound (max_memory_mib, or 3/4 of the available memory:
// internal/memguard) fails with an error naming the bytes needed, the
// bound, where it comes from and the fields to change, instead of
// killing the process: labelprop over 150 classes of partial labels on
// 300 rows (48·300·150 bytes, 2.1 MiB, over "max_memory_mib": 1; before,
// 200 000 classes on 2·10⁵ rows died with "fatal error: out of memory").
// Under a bound it fits in (1024 MiB), the labels are those of the job
// without the field. The bound was set by GOMEMLIMIT in a child process
// before: that is a target of the garbage collector, not a limit. A
// negative max_memory_mib, or one above 2³⁰, is refused by Validate
// (ErrSpec) and by ParseSpec.
func TestRunMemoryGuard(t *testing.T) {
	spec := Spec{ID: "a", Input: "d.csv", KNN: 5, K: 150, Labels: "l.txt", Method: "labelprop"}
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
	small := spec
	small.MaxMemoryMiB = 1
	res := Run(context.Background(), small, dir)
	for _, w := range []string{"cluster: invalid problem: labelprop: ", "K = 150 classes", "need about 2.1 MiB (2160000 bytes), more than the bound of 1.0 MiB", "fewer classes",
		`the job's dense blocks are bounded by "max_memory_mib": 1 (1.0 MiB)`, `or raise the bound with "max_memory_mib"`} {
		if !strings.Contains(res.Error, w) {
			t.Errorf("max_memory_mib 1: error lacks %q:\n%s", w, res.Error)
		}
	}
	if res.Labels != nil || strings.Contains(res.Error, "-max-memory-mib") {
		t.Errorf("max_memory_mib 1: labels %v, error %s: want no labels and the job's field, not the flag", res.Labels, res.Error)
	}
	here := Run(context.Background(), spec, dir)
	if here.Error != "" {
		t.Fatal(here.Error)
	}
	big := spec
	big.MaxMemoryMiB = 1024
	if got := Run(context.Background(), big, dir); got.Error != "" || !slices.Equal(got.Labels, here.Labels) {
		t.Errorf("max_memory_mib 1024: error %q, labels equal to the job without it: %v", got.Error, slices.Equal(got.Labels, here.Labels))
	}
	for _, mib := range []int{-1, 1<<30 + 1} {
		bad := spec
		bad.MaxMemoryMiB = mib
		if err := bad.Validate(); !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), fmt.Sprintf("max_memory_mib = %d", mib)) {
			t.Errorf("max_memory_mib %d: Validate gives %v, want ErrSpec naming it", mib, err)
		}
		if _, err := ParseSpec(fmt.Appendf(nil, `{"id":"a","input":"d.csv","k":2,"seed":1,"max_memory_mib":%d}`, mib)); !errors.Is(err, ErrSpec) {
			t.Errorf("max_memory_mib %d: ParseSpec gives %v, want ErrSpec", mib, err)
		}
	}
	if s, err := ParseSpec([]byte(`{"id":"a","input":"d.csv","k":2,"seed":1,"max_memory_mib":12}`)); err != nil || s.MaxMemoryMiB != 12 {
		t.Errorf(`"max_memory_mib":12: ParseSpec gives %+v, %v`, s, err)
	}
}
