package main

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tether-sc/tether/internal/testctx"
)

// TestConstraintsGenNoiseCancel: constraints gen -noise flips pairs and
// labels with the command's context (constraint.FlipPairsContext and
// FlipLabelsContext), where it called FlipPairs and FlipLabels, which
// checked none. The checks of a whole run are counted first; cancelled at
// each of them the command returns the context's error, and at some of
// them one that names the flipping.
func TestConstraintsGenNoiseCancel(t *testing.T) {
	var b strings.Builder
	for i := range 300 {
		b.WriteString(strconv.Itoa(i%3) + "\n")
	}
	truth := consWriteTemp(t, "truth.txt", b.String())
	for _, c := range []struct {
		protocol, want string
	}{
		{"pairs-frac", "flipping pairs stopped"},
		{"labels-frac", "flipping labels stopped"},
	} {
		t.Run(c.protocol, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "o.txt")
			args := []string{"constraints", "gen", "-truth", truth, "-protocol", c.protocol, "-rate", "0.5", "-noise", "0.2", "-seed", "3", "-o", out}
			run := func(ctx context.Context) error {
				m := &Main{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
				return m.Run(ctx, args)
			}
			count := &checksCtx{Context: context.Background()}
			if err := run(count); err != nil {
				t.Fatal(err)
			}
			named := 0
			for k := range count.n {
				err := run(testctx.CancelAfter(k))
				if !errors.Is(err, context.Canceled) {
					t.Errorf("cancelled at check %d of %d: err = %v, want context.Canceled", k+1, count.n, err)
				} else if strings.Contains(err.Error(), c.want) {
					named++
				}
			}
			if named == 0 {
				t.Errorf("no cancellation of the %d checks stopped the flipping (%q)", count.n, c.want)
			}
		})
	}
}
