package graph

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/internal/wording"
)

// RegMode says when a normalized Laplacian is regularized.
type RegMode int

const (
	// RegAuto regularizes, with τ = the mean degree, the graphs on which
	// the plain normalized Laplacian is known to fail: those with
	// components too small to be clusters and those whose degrees are
	// heterogeneous (NeedsRegularization states the rule and the
	// measurement behind it). Other graphs, k-NN graphs of feature sets in particular, are left
	// as they are. It is the zero value, so the default.
	RegAuto RegMode = iota
	// RegNone never regularizes: the plain L_sym and L_rw of thesis §2.2.
	RegNone
	// RegOn always regularizes, with Regularization.Tau.
	RegOn
)

// String returns "auto", "none" or "on".
func (m RegMode) String() string {
	switch m {
	case RegAuto:
		return "auto"
	case RegNone:
		return "none"
	case RegOn:
		return "on"
	}
	return fmt.Sprintf("RegMode(%d)", int(m))
}

// Regularization selects the regularized normalized Laplacians of
// Chaudhuri, Chung & Tsiatas (2012), Qin & Rohe (2013) and Amini, Chen,
// Bickel & Levina (2013): every degree d_i is replaced by d_i + τ,
//
//	L_sym,τ = I − D_τ^{-1/2} W_τ D_τ^{-1/2},  L_rw,τ = I − D_τ^{-1} W_τ,
//	D_τ = D + τI,
//
// with W_τ = W (Qin & Rohe's RSC-τ, "degree" regularization) or, when
// Complete is set, W_τ = W + (τ/n)·11ᵀ (Amini et al.'s and Zhang & Rohe
// 2018's A_τ, whose degrees are exactly d + τ). The rank-one term is never
// formed: operators apply it as (τ/n)·u(uᵀx), O(n) per column.
//
// Regularization keeps the operators defined on graphs with isolated nodes
// and stops the nodes of tiny components and dangling trees ("dangling
// sets", Zhang & Rohe 2018) from taking the smallest eigenvalues: a set S
// of volume vol(S) ≪ τ|S| sees its Rayleigh quotient pushed towards 1.
// The zero value is RegAuto.
type Regularization struct {
	// Mode says when to regularize; the zero value is RegAuto.
	Mode RegMode
	// Tau is τ for RegOn. If Tau is 0, τ is the mean degree vol(G)/n, the
	// default of Qin & Rohe (2013) and Zhang & Rohe (2018). RegAuto always
	// uses the mean degree; RegNone ignores Tau. Tau is at most MaxTau.
	Tau float64
	// Complete adds τ/n to every entry of W as well (Amini et al. 2013),
	// as an implicit rank-one term.
	Complete bool
}

// MaxTau bounds Regularization.Tau, as tether cluster bounds
// -self-loops (a weight in [0, 10¹²]): every degree d_i becomes d_i + τ, so
// a τ far above the degrees makes D_τ ≈ τI and the operator ≈ I − W/τ,
// whose eigenvectors no longer see the graph (a τ of 10³⁰⁰ gave labels
// without meaning, and 10³⁰⁸ with Complete overflowed the rank-one term
// into an eigensolver's failure; review of tether serve).
const MaxTau = 1e12

// autoDegreeCV is the heterogeneity threshold of RegAuto: a graph is
// regularized when the coefficient of variation of its degrees,
// std(d)/mean(d), exceeds it. It was chosen on the datasets of
// ../shared/datasets (docs/results/kestimate/README.md has the table):
// the k-NN graphs of the feature sets lie below 0.65 (regularizing them
// hurt, classic3's cosine graph from ARI 0.96 to 0.16), the networks and
// webkb's text graphs above 0.8 (karate 0.83, wiki 1.47, the webkb
// citation graphs 2.2–2.6), and DC-SBM graphs with power-law propensities
// above 1.
const autoDegreeCV = 0.75

// NeedsRegularization reports whether RegAuto regularizes g when k
// clusters are sought (k < 1 counts as 1), and why ("" when not):
//
//   - g has an isolated node (the plain L_sym is undefined), more than k
//     connected components, or one smaller than n/(4k)
//     nodes: such a component would take an eigenvector of eigenvalue 0,
//     hence a cluster, of its own ("components too small to matter");
//   - the coefficient of variation of its degrees exceeds 0.75 (chosen
//     between the k-NN graphs of feature sets, below 0.65, and networks,
//     above 0.8; docs/results/kestimate): low-degree nodes and dangling
//     trees take the smallest eigenvalues of L_sym (Zhang & Rohe 2018).
//
// Cost O(n + nnz).
func NeedsRegularization(g *Graph, k int) (bool, string) {
	if g.n < 1 {
		return false, ""
	}
	k = max(k, 1)
	if iso := g.Isolated(); len(iso) > 0 {
		return true, wording.Count(len(iso), "isolated node", "isolated nodes") + " (the plain L_sym is undefined)"
	}
	comp, nc := g.Components()
	if nc > k {
		return true, fmt.Sprintf("%d connected components for %s", nc, wording.Count(k, "cluster", "clusters"))
	}
	if nc > 1 {
		size := make([]int, nc)
		for _, c := range comp {
			size[c]++
		}
		small := slices.Min(size)
		if SmallComponent(small, g.n, k) {
			return true, fmt.Sprintf("a connected component of %s, below n/(4k) = %.4g", wording.Count(small, "node", "nodes"), float64(g.n)/float64(4*k))
		}
	}
	if cv := DegreeCV(g); cv > autoDegreeCV {
		return true, fmt.Sprintf("heterogeneous degrees (coefficient of variation %.2f > %.2g)", cv, autoDegreeCV)
	}
	return false, ""
}

// DegreeCV returns the coefficient of variation std(d)/mean(d) of the
// degrees of g (population standard deviation), 0 for a graph without
// edges. When the sums overflow (degrees near the largest float64) it is
// computed again from the degrees scaled by their mean, which gives the
// same value without overflow. Cost O(n).
func DegreeCV(g *Graph) float64 {
	cv := degreeCV(g)
	if !math.IsInf(cv, 0) && !math.IsNaN(cv) {
		return cv
	}
	n := float64(g.n)
	var mean float64
	for _, d := range g.deg {
		mean += d / n
	}
	var v float64
	for _, d := range g.deg {
		r := d/mean - 1
		v += r * r
	}
	return math.Sqrt(v / n)
}

// degreeCV is DegreeCV by the plain sums, which overflow for degrees near
// the largest float64.
func degreeCV(g *Graph) float64 {
	if g.n == 0 {
		return 0
	}
	var s float64
	for _, d := range g.deg {
		s += d
	}
	mean := s / float64(g.n)
	if mean <= 0 {
		return 0
	}
	var v float64
	for _, d := range g.deg {
		v += (d - mean) * (d - mean)
	}
	return math.Sqrt(v/float64(g.n)) / mean
}

// TauFor returns the τ that r applies to g when k clusters are sought: 0
// for no regularization. For RegOn it is r.Tau, or the mean degree when
// r.Tau is 0; for RegAuto the mean degree when NeedsRegularization(g, k),
// else 0. A graph without edges
// gets τ = 1 when regularized (its mean degree is 0). Cost O(n + nnz).
func (r Regularization) TauFor(g *Graph, k int) float64 {
	switch r.Mode {
	case RegNone:
		return 0
	case RegOn:
		if r.Tau > 0 {
			return r.Tau
		}
	case RegAuto:
		if ok, _ := NeedsRegularization(g, k); !ok {
			return 0
		}
	default:
		return 0
	}
	if g.n == 0 {
		return 0
	}
	tau := g.Volume() / float64(g.n)
	if !(tau > 0) {
		tau = 1
	}
	return tau
}

// Validate returns an error wrapping ErrInvalid when r's mode is unknown or
// its τ is negative, NaN, infinite or above MaxTau.
func (r Regularization) Validate() error {
	if r.Mode < RegAuto || r.Mode > RegOn {
		return fmt.Errorf("%w: unknown regularization mode %d", ErrInvalid, int(r.Mode))
	}
	if math.IsNaN(r.Tau) || math.IsInf(r.Tau, 0) || r.Tau < 0 {
		return fmt.Errorf("%w: regularization τ = %v must be finite and ≥ 0", ErrInvalid, r.Tau)
	}
	if r.Tau > MaxTau {
		return fmt.Errorf("%w: regularization τ = %g is above the largest τ, %g (MaxTau)", ErrInvalid, r.Tau, float64(MaxTau))
	}
	return nil
}

// String formats r as ParseRegularization reads it: "auto", "none",
// "mean", a number, each followed by "+complete" when Complete is set.
func (r Regularization) String() string {
	var s string
	switch {
	case r.Mode == RegAuto:
		s = "auto"
	case r.Mode == RegNone:
		return "none"
	case r.Mode == RegOn && r.Tau == 0:
		s = "mean"
	case r.Mode == RegOn:
		s = strconv.FormatFloat(r.Tau, 'g', -1, 64)
	default:
		return r.Mode.String()
	}
	if r.Complete {
		s += "+complete"
	}
	return s
}

// MarshalText returns String's form.
func (r Regularization) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText sets r from ParseRegularization's forms.
func (r *Regularization) UnmarshalText(text []byte) error {
	p, err := ParseRegularization(string(text))
	if err != nil {
		return err
	}
	*r = p
	return nil
}

// ParseRegularization reads a regularization as tether cluster's
// -regularize flag takes it: "auto" (RegAuto; also the empty string),
// "none" (RegNone), "mean" (RegOn with τ the mean degree) or a decimal
// number 0 ≤ τ ≤ MaxTau = 10¹² (RegOn with that τ; 0 means none), optionally followed by
// "+complete" to add τ/n to every entry of W as well ("+complete" alone is
// auto+complete). Case and white space around the value are ignored. The
// number is digits with an optional point and exponent (2, 0.5, .5, 1e-3):
// no sign, no hexadecimal, no digit separators, so that the grammar is the
// pattern docs/openapi.json states. "+complete" after none or a τ of 0 is
// refused rather than ignored. It returns an error wrapping ErrInvalid
// naming the accepted forms otherwise. Cost O(len(s)).
func ParseRegularization(s string) (Regularization, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	base, complete := strings.CutSuffix(s, "+complete")
	bad := func(why string) (Regularization, error) {
		return Regularization{}, fmt.Errorf("%w: regularization %q: %swant auto, none, mean or a number 0 ≤ τ ≤ 1e12 such as 0.5 or 1e-3, optionally followed by +complete", ErrInvalid, s, why)
	}
	var r Regularization
	switch base {
	case "auto", "":
		r.Mode = RegAuto
	case "none":
		r.Mode = RegNone
	case "mean":
		r.Mode = RegOn
	default:
		if !decimal(base) {
			return bad("")
		}
		tau, err := strconv.ParseFloat(base, 64)
		if err != nil || math.IsInf(tau, 0) {
			return bad("τ beyond the floating-point range: ")
		}
		if tau > MaxTau {
			return bad(fmt.Sprintf("τ = %g is above the largest τ, %g: ", tau, float64(MaxTau)))
		}
		r.Mode, r.Tau = RegOn, tau
		if tau == 0 {
			r = Regularization{Mode: RegNone}
		}
	}
	if complete && r.Mode == RegNone {
		return bad("+complete adds τ/n to every entry and needs a τ > 0: ")
	}
	r.Complete = complete
	return r, nil
}

// decimal reports whether s is an unsigned decimal number: digits with an
// optional point (at least one digit before or after it) and an optional
// exponent e or E, a sign and digits. Cost O(len(s)).
func decimal(s string) bool {
	digits := func(i int) int {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i
	}
	i := digits(0)
	mantissa := i
	if i < len(s) && s[i] == '.' {
		j := digits(i + 1)
		mantissa += j - i - 1
		i = j
	}
	if mantissa == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}

// NewRegularizedLaplacian returns the regularized Laplacian L_sym,τ or
// L_rw,τ of g (see Regularization) for kind Symmetric or RandomWalk; τ = 0
// and complete false give NewLaplacian's operator. Unlike NewLaplacian it
// accepts isolated nodes when τ > 0 (their regularized degree is τ). It
// returns an error wrapping ErrInvalid for a nil g, a negative or
// non-finite τ or an Unnormalized kind with τ > 0 (D − W has no degree
// normalization to regularize). Cost O(n + nnz) time and memory; MulTo
// costs O(nnz·p + n·p).
func NewRegularizedLaplacian(g *Graph, kind LaplacianKind, tau float64, complete bool) (*Laplacian, error) {
	if err := nilGraph("NewRegularizedLaplacian", g); err != nil {
		return nil, err
	}
	if math.IsNaN(tau) || math.IsInf(tau, 0) || tau < 0 {
		return nil, fmt.Errorf("%w: regularization τ = %v must be finite and ≥ 0", ErrInvalid, tau)
	}
	if tau == 0 {
		return NewLaplacian(g, kind)
	}
	if kind != Symmetric && kind != RandomWalk {
		return nil, fmt.Errorf("%w: regularization applies to L_sym and L_rw, not %v", ErrInvalid, kind)
	}
	l := &Laplacian{g: g, kind: kind, tau: tau, vals: make([]float64, len(g.w))}
	l.deg = make([]float64, g.n)
	for i, d := range g.deg {
		l.deg[i] = d + tau
	}
	for i := 0; i < g.n; i++ {
		for k := g.ptr[i]; k < g.ptr[i+1]; k++ {
			if kind == Symmetric {
				l.vals[k] = g.w[k] / SqrtProduct(l.deg[i], l.deg[g.idx[k]])
			} else {
				l.vals[k] = g.w[k] / l.deg[i]
			}
		}
	}
	if complete && g.n > 0 {
		// W_τ = W + (τ/n)11ᵀ; its degrees are d + τ, the ones above.
		l.c = tau / float64(g.n)
		l.u, l.v = make([]float64, g.n), make([]float64, g.n)
		for i, d := range l.deg {
			if kind == Symmetric {
				l.u[i] = 1 / math.Sqrt(d)
				l.v[i] = l.u[i]
			} else {
				l.u[i] = 1 / d
				l.v[i] = 1
			}
		}
	}
	return l, nil
}

// Tau returns the regularization τ of the Laplacian (0 for none).
func (l *Laplacian) Tau() float64 { return l.tau }

// Degrees returns a new slice holding the degrees the Laplacian normalizes
// by: d_i + τ.
func (l *Laplacian) Degrees() []float64 {
	if l.deg != nil {
		return append([]float64(nil), l.deg...)
	}
	return l.g.Degrees()
}

// mulRankOne subtracts c·u(vᵀx) from dst, the rank-one part of a complete
// regularization. Cost O(n·p).
func (l *Laplacian) mulRankOne(dst, x interface {
	RawRowView(i int) []float64
	Dims() (int, int)
}) {
	if l.u == nil {
		return
	}
	n, p := x.Dims()
	t := make([]float64, p)
	for i := 0; i < n; i++ {
		vi := l.v[i]
		for c, xv := range x.RawRowView(i)[:p] {
			t[c] += vi * xv
		}
	}
	for i := 0; i < n; i++ {
		f := l.c * l.u[i]
		out := dst.RawRowView(i)[:p]
		for c := range out {
			out[c] -= f * t[c]
		}
	}
}
