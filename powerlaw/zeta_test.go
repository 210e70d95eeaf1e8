package powerlaw

import (
	"math"
	"testing"
)

// zetaDirect sums (k+q)^{−s} for k < K directly and adds the tail by the
// midpoint rule ∫_{K+q−½}^∞ x^{−s} dx, whose error is O(s(s+1)·(K+q)^{−s−1}):
// an independent check of the Euler–Maclaurin evaluation. Summed from the
// small terms up to limit rounding.
func zetaDirect(s, q float64, K int) float64 {
	sum := math.Pow(float64(K)+q-0.5, 1-s) / (s - 1)
	for k := K - 1; k >= 0; k-- {
		sum += math.Pow(float64(k)+q, -s)
	}
	return sum
}

func TestZetaKnownValues(t *testing.T) {
	for _, tc := range []struct {
		name    string
		s, q    float64
		want    float64
		relTol  float64
		comment string
	}{
		// ζ(2) = π²/6, ζ(4) = π⁴/90 (Euler); ζ(3) = Apéry's constant
		// 1.2020569031595942 (OEIS A002117).
		{"zeta2", 2, 1, math.Pi * math.Pi / 6, 1e-14, ""},
		{"zeta3", 3, 1, 1.2020569031595942, 1e-14, ""},
		{"zeta4", 4, 1, math.Pow(math.Pi, 4) / 90, 1e-14, ""},
		// ζ(2, ½) = (2²−1)ζ(2) = π²/2 (ζ(s, ½) = (2^s − 1)ζ(s)).
		{"zeta2half", 2, 0.5, math.Pi * math.Pi / 2, 1e-14, ""},
		// ζ(2, 3) = ζ(2) − 1 − ¼.
		{"zeta2q3", 2, 3, math.Pi*math.Pi/6 - 1.25, 1e-14, ""},
		// ζ(1.5) = 2.612375348685488 (OEIS A078434).
		{"zeta1.5", 1.5, 1, 2.6123753486854883, 1e-14, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Zeta(tc.s, tc.q)
			if math.Abs(got-tc.want) > tc.relTol*math.Abs(tc.want) {
				t.Errorf("Zeta(%v, %v) = %.17g, want %.17g", tc.s, tc.q, got, tc.want)
			}
		})
	}
}

func TestZetaAgainstDirectSum(t *testing.T) {
	for _, s := range []float64{1.1, 1.75, 2.5, 3.5, 7, 20, 60} {
		for _, q := range []float64{0.3, 1, 2, 5, 10.5, 100, 1e4} {
			want := zetaDirect(s, q, 200000)
			got := Zeta(s, q)
			if math.Abs(got-want) > 1e-12*want {
				t.Errorf("Zeta(%v, %v) = %.17g, direct sum %.17g", s, q, got, want)
			}
		}
	}
}

func TestZetaDerivative(t *testing.T) {
	// ∂ζ/∂s against a central difference of Zeta (step 1e-5, error O(h²)).
	for _, s := range []float64{1.2, 2, 3.5, 12} {
		for _, q := range []float64{1, 3, 40} {
			z, dz, _ := zetaScaled(s, q) // scaled by q^s (not zetaLargeQ)
			scale := math.Pow(q, -s)
			h := 1e-5
			num := (Zeta(s+h, q) - Zeta(s-h, q)) / (2 * h)
			if got := dz * scale; math.Abs(got-num) > 1e-7*math.Abs(num) {
				t.Errorf("∂ζ(%v,%v)/∂s = %.12g, central difference %.12g", s, q, got, num)
			}
			if got := z * scale; math.Abs(got-Zeta(s, q)) > 1e-14*got {
				t.Errorf("scaled ζ mismatch")
			}
		}
	}
}

func TestZetaInvalid(t *testing.T) {
	for _, a := range [][2]float64{{1, 1}, {0.5, 1}, {2, 0}, {2, -1}, {math.NaN(), 1}, {2, math.NaN()}} {
		if got := Zeta(a[0], a[1]); !math.IsNaN(got) {
			t.Errorf("Zeta(%v, %v) = %v, want NaN", a[0], a[1], got)
		}
	}
	if got := logZeta(500, 100); math.IsInf(got, 0) || math.IsNaN(got) {
		t.Errorf("logZeta(500, 100) = %v, want finite", got)
	}
}

// TestZetaLargeExponent: above zetaShortcutS the direct sum stops when its
// rest is negligible, so ζ(10¹⁰, 1) returns at once (it took time
// proportional to s), and the scaled values ζ(s, q)·q^s, which stay finite
// where q^{−s} underflows, agree with a direct sum of the terms
// ((q+k)/q)^{−s} = exp(−s·log1p(k/q)) (independent of the Euler–Maclaurin
// code).
func TestZetaLargeExponent(t *testing.T) {
	direct := func(s, q float64) (z, dz float64) {
		for k := 0; k < 10_000_000; k++ {
			l := math.Log(q + float64(k))
			tk := math.Exp(-s * math.Log1p(float64(k)/q))
			z += tk
			dz -= l * tk
			if tk < 1e-20*z {
				break
			}
		}
		return z, dz
	}
	for _, tc := range []struct{ s, q float64 }{
		{1e10, 1}, {1e10, 1e9}, {1e6, 1}, {1500, 1}, {1500, 1000}, {2000, 1e4}, {1e5, 3e4}, {1001, 900},
	} {
		z, dz, _ := zetaScaled(tc.s, tc.q)
		if zetaLargeQ(tc.s, tc.q) { // scaled by q^{s−1}, not q^s
			z, dz = z*tc.q, dz*tc.q
		}
		wz, wdz := direct(tc.s, tc.q)
		if math.Abs(z-wz) > 1e-14*wz || math.Abs(dz-wdz) > 1e-13*math.Abs(wdz) {
			t.Errorf("ζ(%g, %g)·q^s = %.17g, ∂ = %.17g; direct sums %.17g, %.17g", tc.s, tc.q, z, dz, wz, wdz)
		}
	}
	if got := Zeta(1e10, 1); got != 1 {
		t.Errorf("ζ(1e10, 1) = %v, want 1", got)
	}
}

// TestZetaLargeQ: for large q, ζ(s, q) ≈ q^{1−s}/(s−1) is representable
// while q/(s−1) overflows or q^{−s} underflows; Zeta gave +Inf, NaN (Inf·0)
// or 0. References: mpmath's zeta(s, q) at 40 digits.
func TestZetaLargeQ(t *testing.T) {
	for _, tc := range []struct {
		s, q, want float64
	}{
		{1.001, 1e306, 494.31068698692822002663},                              // was +Inf
		{1.5, 1e308, 1.9999999999999999890209e-154},                           // was NaN
		{2, 1e308, 9.9999999999999998902094e-309},                             // was 0; subnormal
		{1.001, 1e300, 501.18723362736561209334},                              // q/(s−1) = 10³⁰³
		{1.0056, 1e305, 3.4979369169748295874815},                             // TestDiscreteHugeValues' survival function
		{17.04804307969011, 1.59319804159912e+19, 4.3224056252813250508e-310}, // was 0; subnormal
		{3, 1e200, 0}, // 5·10⁻⁴⁰¹: underflows
	} {
		got := Zeta(tc.s, tc.q)
		if tc.want == 0 {
			if got != 0 {
				t.Errorf("Zeta(%v, %v) = %v, want 0 (underflow)", tc.s, tc.q, got)
			}
			continue
		}
		// Subnormal results keep fewer bits.
		tol := 1e-13 * tc.want
		if tc.want < 0x1p-1022 {
			tol = 1e-9 * tc.want
		}
		if !(math.Abs(got-tc.want) <= tol) {
			t.Errorf("Zeta(%v, %v) = %.17g, want %.17g", tc.s, tc.q, got, tc.want)
		}
	}
}
