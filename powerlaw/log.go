package powerlaw

import "math"

// safeLog is math.Log, right for subnormal v too: on amd64 math.Log reads
// a subnormal's bits as if it were normal (math.Log(1e-310) = −709.09,
// ln 1e-310 = −713.80; golang/go#56600), which data and x_min near the
// smallest float64 reach. v·2⁵⁴ is normal and exact there; every other v
// goes to math.Log unchanged, so results on normal values do not move.
func safeLog(v float64) float64 {
	if v > 0 && v < 0x1p-1022 {
		return math.Log(v*0x1p54) - 54*math.Ln2
	}
	return math.Log(v)
}
