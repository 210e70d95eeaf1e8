package graph

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestFullGraphLimitBytes: the error of a full graph above Spec.MaxFull
// gives the memory of its weights, 12 bytes for each of the n(n − 1)
// stored entries, in a unit that shows the figure. Before, n = 300 read
// "(0.0 GB)".
func TestFullGraphLimitBytes(t *testing.T) {
	for _, tc := range []struct {
		n, maxFull int
		want       string
	}{
		{20, 10, "380 weights (4.5 KiB)"},          // 4560 B
		{300, 10, "89700 weights (1.0 MiB)"},       // 1 076 400 B
		{2000, 1000, "3998000 weights (45.8 MiB)"}, // 47 976 000 B
	} {
		x := mat.NewDense(tc.n, 1, nil)
		for i := range tc.n {
			x.Set(i, 0, float64(i))
		}
		_, err := Build(context.Background(), x, Spec{Kind: Full, MaxFull: tc.maxFull})
		if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("n = %d: error %v, want ErrSpec saying %q", tc.n, err, tc.want)
		}
	}
	for _, tc := range []struct {
		n    int
		want string
	}{
		{30000, fmt.Sprintf("%.1f GiB", 12*30000.0*29999/(1<<30))},
		{2_000_000_000, fmt.Sprintf("%.3g GiB", 12*2e9*(2e9-1)/(1<<30))},
	} {
		if got := fullGraphBytes(tc.n); got != tc.want {
			t.Errorf("fullGraphBytes(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
