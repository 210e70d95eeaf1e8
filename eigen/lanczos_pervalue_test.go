package eigen_test

import (
	"context"
	"math"
	"sort"
	"testing"

	"github.com/tether-sc/tether/eigen"
)

// TestLanczosPerValue: on the spectrum of a shift-and-invert operator
// (L + σI)⁻¹ with one eigenvalue of L at 0 and the others crowded near 1,
// θ_0 = 1/σ = 10⁹ and θ_i = 1/(1 + 10⁻³·i), Lanczos with PerValue
// resolves every wanted pair to Tol relative to its own value (explicit
// residuals ‖Ax − θx‖ ≤ Tol·θ, and θ within Tol·θ of the closed form),
// while the default test, relative to ‖A‖ = 10⁹, accepts the pairs near 1
// with residuals up to Tol·10⁹: far less resolved.
func TestLanczosPerValue(t *testing.T) {
	const n, k, tol = 3000, 10, 1e-6
	d := make(diagOp, n)
	d[0] = 1e9
	for i := 1; i < n; i++ {
		d[i] = 1 / (1 + 1e-3*float64(i))
	}
	want := append([]float64(nil), d...)
	sort.Sort(sort.Reverse(sort.Float64Slice(want)))
	worst := map[bool]float64{} // the largest residual relative to θ
	for _, perValue := range []bool{true, false} {
		res, err := eigen.Lanczos{PerValue: perValue}.Solve(context.Background(), eigen.Problem{A: d, K: k, Which: eigen.Largest}, &eigen.Settings{Tol: tol})
		if err != nil {
			t.Fatalf("PerValue %v: %v", perValue, err)
		}
		for j, th := range res.Values {
			rel := res.Residuals[j] / th
			worst[perValue] = max(worst[perValue], rel)
			if perValue && rel > 1.5*tol { // the explicit residual may exceed the Ritz estimate the test reads by rounding
				t.Errorf("PerValue: pair %d (θ = %.6g): residual %.3g = %.3g·θ, want ≤ %g·θ", j, th, res.Residuals[j], rel, tol)
			}
			if perValue && math.Abs(th-want[j]) > tol*th {
				t.Errorf("PerValue: θ_%d = %.12g, closed form %.12g", j, th, want[j])
			}
			if !perValue && res.Residuals[j] > 1.01*tol*want[0] {
				t.Errorf("default: pair %d: residual %.3g above Tol·‖A‖ = %.3g", j, res.Residuals[j], tol*want[0])
			}
		}
	}
	t.Logf("largest residual relative to θ: %.3g with PerValue, %.3g without", worst[true], worst[false])
	if worst[false] <= 10*tol {
		t.Errorf("the default test resolved every pair to %.3g·θ: the case does not tell the tests apart", worst[false])
	}
}
