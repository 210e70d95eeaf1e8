package safelog

import (
	"math"
	"testing"
)

// TestLog: subnormal powers of two against −k·ln 2 (exact up to the
// rounding of the product), values between them against the sum of the
// logarithms of an exact factorization, and normal values, zero, negative
// and non-finite ones exactly as math.Log gives them.
func TestLog(t *testing.T) {
	for _, tc := range []struct {
		v, want float64
	}{
		{0x1p-1074, -1074 * math.Ln2}, // smallest float64; math.Log gave −709.09
		{0x1p-1050, -1050 * math.Ln2},
		{0x1p-1023, -1023 * math.Ln2},
		{3 * 0x1p-1060, math.Log(3) - 1060*math.Ln2},
		{0x1.fffffffffffffp-1023, math.Log(0x1.fffffffffffffp-1) - 1022*math.Ln2},
	} {
		if got := Log(tc.v); math.Abs(got-tc.want) > 1e-15*math.Abs(tc.want) {
			t.Errorf("Log(%g) = %.17g, want %.17g", tc.v, got, tc.want)
		}
	}
	for _, v := range []float64{0x1p-1022, 1e-300, 0.5, 1, 2, 1e300, math.MaxFloat64, 0, -1, math.Inf(1), math.NaN()} {
		got, want := Log(v), math.Log(v)
		if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("Log(%g) = %v, math.Log %v", v, got, want)
		}
	}
}
