package powerlaw

import (
	"math"
	"testing"
)

// TestDomain checks the documented NaN contract of the pointwise functions
// on the boundary of their domains and just inside it, where they must
// return a number (0 and ±Inf included when the value under- or
// overflows). want NaN means NaN; otherwise got must be within 1e-12
// relative of want (exactly equal for 0 and ±Inf).
func TestDomain(t *testing.T) {
	nan, inf, big, tiny := math.NaN(), math.Inf(1), math.MaxFloat64, math.SmallestNonzeroFloat64
	above1 := math.Nextafter(1, 2)
	for _, c := range []struct {
		name string
		got  float64
		want float64
	}{
		{"PDF α = 1", PDF(2, 1, 1), nan},
		{"PDF α just above 1", PDF(1, above1, 1), above1 - 1},
		{"PDF α = +Inf", PDF(2, inf, 1), nan},
		{"PDF α = MaxFloat64", PDF(1, big, 1), big},
		{"PDF α NaN", PDF(2, nan, 1), nan},
		{"PDF x_min = 0", PDF(2, 2, 0), nan},
		{"PDF x_min < 0", PDF(2, 2, -1), nan},
		{"PDF x_min smallest", PDF(2, 2, tiny), 0},
		{"PDF x_min subnormal", PDF(1e-300, 2, 1e-310), 1e290},
		{"PDF x_min = +Inf", PDF(2, 2, inf), nan},
		{"PDF x_min = MaxFloat64", PDF(big, 2, big), 1 / big},
		{"PDF x_min NaN", PDF(2, 2, nan), nan},
		{"PDF x NaN", PDF(nan, 2, 1), nan},
		{"PDF x = +Inf", PDF(inf, 2, 1), 0},
		{"PDF x below x_min", PDF(0.5, 2, 1), 0},
		{"CDF α = 1", CDF(2, 1, 1), nan},
		{"CDF α just above 1", CDF(2, above1, 1), -math.Expm1((1 - above1) * math.Ln2)},
		{"CDF x_min = 0", CDF(2, 2, 0), nan},
		{"CDF x = +Inf", CDF(inf, 2, 1), 1},
		{"Zeta s = 1", Zeta(1, 1), nan},
		{"Zeta s just above 1", Zeta(above1, 1), 1/(above1-1) + 0.5772156649015329},
		{"Zeta s = +Inf", Zeta(inf, 1), nan},
		{"Zeta s = MaxFloat64, q = 1", Zeta(big, 1), 1},
		{"Zeta s = MaxFloat64, q = 2", Zeta(big, 2), 0},
		{"Zeta s = MaxFloat64, q = ½", Zeta(big, 0.5), inf},
		{"Zeta s NaN", Zeta(nan, 1), nan},
		{"Zeta q = 0", Zeta(2, 0), nan},
		{"Zeta q smallest", Zeta(2, tiny), inf},
		{"Zeta q = +Inf", Zeta(2, inf), nan},
		{"Zeta q = MaxFloat64", Zeta(2, big), 1 / big}, // ≈ q^{1−s}/(s−1), subnormal; was 0 (q^{−s} underflowed)
		{"Zeta q = 1e100", Zeta(2, 1e100), 1.000000000000000000000e-100},
		{"Zeta q NaN", Zeta(2, nan), nan},
		{"PMF α = 1", DiscretePMF(2, 1, 1), nan},
		{"PMF α just above 1", DiscretePMF(1, above1, 1), 1 / (1/(above1-1) + 0.5772156649015329)},
		{"PMF α = +Inf", DiscretePMF(1, inf, 1), nan},
		{"PMF α = MaxFloat64", DiscretePMF(1, big, 1), 1},
		{"PMF x_min = ½", DiscretePMF(2, 2, 0.5), nan},
		{"PMF x_min = 1.5", DiscretePMF(2, 2, 1.5), nan},
		{"PMF x_min = 0", DiscretePMF(2, 2, 0), nan},
		{"PMF x_min = +Inf", DiscretePMF(2, 2, inf), nan},
		{"PMF x_min = MaxFloat64", DiscretePMF(big, 2, big), 1 / big},
		{"PMF x NaN", DiscretePMF(nan, 2, 1), nan},
		{"PMF x not an integer", DiscretePMF(2.5, 2, 1), 0},
		{"PMF x negative", DiscretePMF(-3, 2, 1), 0},
		{"discrete CDF α = 1", DiscreteCDF(2, 1, 1), nan},
		{"discrete CDF x_min = 1.5", DiscreteCDF(2, 2, 1.5), nan},
		{"discrete CDF x = +Inf", DiscreteCDF(inf, above1, 1), 1},
		{"discrete CDF α just above 1, small x", DiscreteCDF(3, above1, 1), 0}, // rounds to −0 without the clamp
	} {
		t.Run(c.name, func(t *testing.T) {
			switch {
			case math.IsNaN(c.want):
				if !math.IsNaN(c.got) {
					t.Errorf("got %v, want NaN", c.got)
				}
			case c.want == 0 || math.IsInf(c.want, 0):
				// A zero is +0: a probability or a sum of positive terms.
				if c.got != c.want || math.Signbit(c.got) != math.Signbit(c.want) {
					t.Errorf("got %v, want %v", c.got, c.want)
				}
			default:
				if math.IsNaN(c.got) || math.Abs(c.got-c.want) > 1e-12*math.Abs(c.want) {
					t.Errorf("got %v, want %v", c.got, c.want)
				}
			}
		})
	}
}

// TestLinearFitFlat: a flat histogram (every non-empty bin holds the same
// count) has slope 0, and the exponent is +0, not −0.
func TestLinearFitFlat(t *testing.T) {
	for _, c := range []struct {
		name   string
		x      []float64
		points int
	}{
		{"all bins", []float64{1, 2}, 0},
		{"all bins, three", []float64{1, 2, 3, 3, 2, 1}, 0},
		{"first two bins", []float64{1, 2, 3, 3, 3}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, err := LinearFit(c.x, 1, 1, c.points)
			if err != nil || a != 0 || math.Signbit(a) {
				t.Errorf("LinearFit = %v, %v, want +0", a, err)
			}
		})
	}
	a, err := LogBinFit([]float64{1, 2, 2}, 1, 2) // densities 1/1 and 2/2
	if err != nil || a != 0 || math.Signbit(a) {
		t.Errorf("LogBinFit = %v, %v, want +0", a, err)
	}
}
