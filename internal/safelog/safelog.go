// Package safelog holds the natural logarithm made right for subnormal
// arguments: on amd64 math.Log reads a subnormal's bits as if it were
// normal (math.Log(1e-310) = −709.09, while ln 1e-310 = −713.80;
// golang/go#56600), which data, bounds and parameters near the smallest
// float64 reach.
package safelog

import "math"

// Log returns ln v as math.Log does, and right for subnormal v: v·2⁵⁴ is
// normal and exact there. Every other v goes to math.Log unchanged, so
// results on normal values do not move.
func Log(v float64) float64 {
	if v > 0 && v < 0x1p-1022 {
		return math.Log(v*0x1p54) - 54*math.Ln2
	}
	return math.Log(v)
}
