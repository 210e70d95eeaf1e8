package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
)

// PairFeatures describes n ordered nodes for OPPLCOnline: a feature vector
// x_ij for every pair j < i and x_i for every node, all of one length d
// (the length of OPPLCOnline.W). To give pairs and nodes separate weights,
// put their features in separate coordinates (zeros elsewhere).
type PairFeatures interface {
	// Len returns n.
	Len() int
	// Pair returns x_ij for j < i. The slice is not modified.
	Pair(i, j int) []float64
	// Node returns x_i. The slice is not modified.
	Node(i int) []float64
}

// OPPLCOnline is OPPLC with learned scores (thesis §5.3.2, after Lassalle
// and Denis): the preferential attachment is linear, W_ij = w·x_ij, and
// the score of a new cluster is a linear model too, so that
//
//	f(i ∼ j) = w·x_ij (1 − θ/n_j),      f(i) = w·x_i (α + kθ),
//
// with the decision of Alg. 17 (see OPPLC: argmax over the earlier nodes
// whose cluster holds no node cannot-linked to i, ties to the largest j,
// linked iff f(i ∼ ĵ) > f(i)). Learn updates (w, α, θ) online after each
// wrong decision by the smallest change ‖Δw‖² + Δα² + Δθ² that makes the
// right decision win by a margin of 1: a QCQP with one non-convex
// (bilinear) constraint, solved exactly through its dual (§5.3.3; qcqp.go).
//
// An OPPLCOnline is not safe for concurrent use by Learn.
type OPPLCOnline struct {
	// W is the weight vector w; its length is the feature length d.
	W []float64
	// Alpha and Theta are the Pitman–Yor parameters α and θ of f(i).
	// Learn keeps θ in [0, ThetaMax] and α ≥ −θ + 10⁻⁹ (see Learn).
	Alpha, Theta float64

	// Sums of the parameters after every decision of Learn, for Averaged.
	sumW            []float64
	sumAlpha, sumTh float64
	steps           int
}

// Averaged returns a model whose parameters are the means of (w, α, θ)
// over every decision Learn has made so far (the averaged perceptron's
// remedy for mistake-driven updates, which follow the last mistakes;
// beyond the thesis), or a copy of m before any decision.
func (m *OPPLCOnline) Averaged() *OPPLCOnline {
	if m.steps == 0 {
		return &OPPLCOnline{W: append([]float64(nil), m.W...), Alpha: m.Alpha, Theta: m.Theta}
	}
	s := float64(m.steps)
	a := &OPPLCOnline{W: make([]float64, len(m.W)), Alpha: m.sumAlpha / s, Theta: m.sumTh / s}
	for t := range a.W {
		a.W[t] = m.sumW[t] / s
	}
	return a
}

// NewOPPLCOnline returns a learner for features of length d with w = 0,
// α = 1 and θ = 0.1 (with w = 0 every score is 0 and every node starts a
// cluster until the first updates).
func NewOPPLCOnline(d int) *OPPLCOnline {
	return &OPPLCOnline{W: make([]float64, d), Alpha: 1, Theta: 0.1}
}

// OPPLCThetaMax bounds θ after an update: 1 − θ/n_j must stay positive for
// singletons.
const OPPLCThetaMax = 0.999

// OPPLCUpdates counts the decisions of one Learn pass by the three cases
// of §5.3.2.
type OPPLCUpdates struct {
	// Correct decisions (no update).
	Correct int
	// WrongAssignment: i linked to ĵ but belongs with an earlier j of
	// another cluster (eq. 5.3.1).
	WrongAssignment int
	// BadCreation: i started a cluster but belongs with an earlier j
	// (eq. 5.3.2, see Learn for the sign).
	BadCreation int
	// BadAssignment: i linked to ĵ but starts an entity (eq. 5.3.3, see
	// Learn for the sign).
	BadAssignment int
	// Clamped counts updates after which θ or α was moved back into its
	// range, which may leave the margin below 1.
	Clamped int
	// Skipped counts mistakes with no update because the constraint was
	// infeasible (x_ij = x_iĵ with equal cluster sizes, say). A mistake
	// forced by a wrong cannot-link that bars i's true cluster is updated
	// like any other.
	Skipped int
	// MinMargin is the smallest margin h(w, α, θ) reached by an update
	// that was not clamped (≥ 1 up to rounding); +Inf if there was none.
	MinMargin float64
}

// Mistakes returns the number of wrong decisions.
func (u OPPLCUpdates) Mistakes() int { return u.WrongAssignment + u.BadCreation + u.BadAssignment }

// opplcState is the partition built so far.
type opplcState struct {
	labels, size, forbid []int
}

// check validates the parameters (w non-empty and finite, θ ∈ [0, 1),
// α > −θ) and the cannot-links against x.
func (m *OPPLCOnline) check(x PairFeatures, cl *constraint.Set) error {
	if len(m.W) == 0 {
		return fmt.Errorf("%w: opplc online: empty weight vector", ErrInvalid)
	}
	for j, v := range m.W {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: opplc online: W[%d] = %v, want a finite weight", ErrInvalid, j, v)
		}
	}
	if !(m.Theta >= 0 && m.Theta < 1) || !(m.Alpha > -m.Theta) || math.IsInf(m.Alpha, 0) {
		return fmt.Errorf("%w: opplc online: α = %v, θ = %v, want 0 ≤ θ < 1 and α > −θ", ErrInvalid, m.Alpha, m.Theta)
	}
	if cl != nil {
		if cl.N != x.Len() {
			return fmt.Errorf("%w: opplc online: constraints on %d nodes, features on %d", ErrInvalid, cl.N, x.Len())
		}
		if err := cl.Validate(); err != nil {
			return fmt.Errorf("opplc online: %w", err)
		}
	}
	return nil
}

// earlierCannotLinks lists, for each node i, the nodes j < i cannot-linked
// to it.
func earlierCannotLinks(n int, cl *constraint.Set) [][]int {
	out := make([][]int, n)
	if cl == nil {
		return out
	}
	for _, p := range cl.Pairs {
		if p.Kind == constraint.CannotLink {
			hi, lo := max(p.I, p.J), min(p.I, p.J)
			out[hi] = append(out[hi], lo)
		}
	}
	return out
}

// decide returns Alg. 17's candidate ĵ (−1 if none is admissible), its
// score and the new-cluster score f(i), for node i in state st.
// A feature vector of the wrong length or with an entry that is not
// finite is an error naming it (featureDot).
func (m *OPPLCOnline) decide(x PairFeatures, i int, st *opplcState, cls []int) (bestJ int, best, fNew float64, err error) {
	for _, j := range cls {
		st.forbid[st.labels[j]] = i
	}
	bestJ = -1
	for j := 0; j < i; j++ {
		c := st.labels[j]
		if st.forbid[c] == i {
			continue
		}
		wx, err := featureDot(m.W, x.Pair(i, j), i, j)
		if err != nil {
			return 0, 0, 0, err
		}
		f := wx * (1 - m.Theta/float64(st.size[c]))
		if bestJ < 0 || f >= best {
			best, bestJ = f, j
		}
	}
	k := len(st.size)
	wx, err := featureDot(m.W, x.Node(i), i, -1)
	if err != nil {
		return 0, 0, 0, err
	}
	return bestJ, best, wx * (m.Alpha + float64(k)*m.Theta), nil
}

// featureDot returns w·v, summed in index order as dot, for the feature
// vector v of the pair (i, j), or of node i when j < 0; an error wrapping
// ErrInvalid names the vector when its length is not len(w) or an entry
// is not finite (a NaN made every score NaN, hence every node a cluster
// of its own, or an ErrNumerical in Learn's QCQP). Cost O(len(w)).
func featureDot(w, v []float64, i, j int) (float64, error) {
	what := func() string {
		if j < 0 {
			return fmt.Sprintf("x_%d (node %d's features)", i, i)
		}
		return fmt.Sprintf("x_%d,%d (the features of pair (%d, %d))", i, j, i, j)
	}
	if len(v) != len(w) {
		return 0, fmt.Errorf("%w: opplc online: %s has %d entries, W has %d", ErrInvalid, what(), len(v), len(w))
	}
	var s float64
	for t, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("%w: opplc online: %s[%d] = %v, want a finite feature", ErrInvalid, what(), t, x)
		}
		s += w[t] * x
	}
	return s, nil
}

func (st *opplcState) assign(i, c int) {
	if c == len(st.size) {
		st.size = append(st.size, 0)
		st.forbid = append(st.forbid, -1)
	}
	st.labels[i] = c
	st.size[c]++
}

// Predict partitions the nodes of x in order by Alg. 17 with the learned
// scores, honouring the cannot-links of cl (nil for none; must-links are
// ignored). Labels are numbered in order of first node. Errors wrap
// ErrInvalid for a nil ctx, parameters out of range (W empty or not finite, θ ∉ [0,
// 1), α ≤ −θ), cl not on x's nodes, or a feature vector of x whose length
// is not len(W) or with an entry that is not finite (named), and are
// ctx.Err() when ctx is cancelled. Cost O(n²d + C).
func (m *OPPLCOnline) Predict(ctx context.Context, x PairFeatures, cl *constraint.Set) ([]int, error) {
	if err := nilContext(ctx); err != nil {
		return nil, err
	}
	if err := m.check(x, cl); err != nil {
		return nil, err
	}
	n := x.Len()
	st := &opplcState{labels: make([]int, n)}
	cls := earlierCannotLinks(n, cl)
	for i := 0; i < n; i++ {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		j, f, fNew, err := m.decide(x, i, st, cls[i])
		if err != nil {
			return nil, err
		}
		if j >= 0 && f > fNew {
			st.assign(i, st.labels[j])
		} else {
			st.assign(i, len(st.size))
		}
	}
	return st.labels, nil
}

// Learn makes one online pass over the nodes of x (thesis §5.3.2): at each
// node i > 0 it makes Alg. 17's decision with the current (w, α, θ),
// compares it with truth and, when it is wrong, updates the parameters by
//
//	min ‖w − w_t‖² + (α − α_t)² + (θ − θ_t)²  s.t.  h(w, α, θ) ≥ 1,
//
// where h is the score of the right decision minus that of the wrong one:
//   - wrong assignment (i linked to ĵ, belongs with j): h = f(i ∼ j) −
//     f(i ∼ ĵ), eq. 5.3.1 (α does not enter h, so it is unchanged);
//   - bad creation (i started a cluster, belongs with j): h = f(i ∼ j) −
//     f(i);
//   - bad assignment (i linked to ĵ, starts an entity): h = f(i) −
//     f(i ∼ ĵ).
//
// The thesis prints the last two constraints (eq. 5.3.2 and 5.3.3) with
// the opposite signs, which would ask the wrong decision to win by a
// margin; we read them as the text describes them ("such that the correct
// assignment is made"). The "right j" is the earlier node of i's true
// cluster with the highest f(i ∼ j) (a latent antecedent, as Lassalle and
// Denis choose it). Each problem is min ‖u − u_t‖² over u = (w, θ, α)
// subject to g(u) = 1 − h(u) ≤ 0, a quadratic in u with an indefinite
// bilinear part (θ·w and α·w terms), solved exactly through its dual
// (strong duality holds for one quadratic constraint, by the S-lemma;
// qcqp.go). After an update θ is clamped to [0, OPPLCThetaMax] and α to
// α ≥ −θ + 10⁻⁹, the Pitman–Yor range (the thesis leaves them free; counted in
// Clamped).
//
// The pass is teacher-forced: after the decision and any update, node i
// joins its true cluster, so n_j and k are those of the true partition of
// the nodes before i. Any label values work in truth. Errors are those of
// Predict (a nil ctx included), and one wrapping ErrInvalid when truth
// does not hold n labels. Cost O(n²d + C) plus O((d+2)³) per update.
func (m *OPPLCOnline) Learn(ctx context.Context, x PairFeatures, cl *constraint.Set, truth []int) (OPPLCUpdates, error) {
	up := OPPLCUpdates{MinMargin: math.Inf(1)}
	if err := nilContext(ctx); err != nil {
		return up, err
	}
	if err := m.check(x, cl); err != nil {
		return up, err
	}
	n := x.Len()
	if len(truth) != n {
		return up, fmt.Errorf("%w: opplc online: %d labels for %d nodes", ErrInvalid, len(truth), n)
	}
	st := &opplcState{labels: make([]int, n)}
	cls := earlierCannotLinks(n, cl)
	cluster := map[int]int{} // true label → cluster index in st
	d := len(m.W)
	for i := 0; i < n; i++ {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return up, err
			}
		}
		c, seen := cluster[truth[i]]
		if i > 0 {
			jh, fh, fNew, err := m.decide(x, i, st, cls[i])
			if err != nil {
				return up, err
			}
			linked := jh >= 0 && fh > fNew
			// The right antecedent: the best-scoring earlier member of
			// i's true cluster.
			js, fs := -1, 0.0
			if seen {
				for j := 0; j < i; j++ {
					if st.labels[j] != c {
						continue
					}
					wx, err := featureDot(m.W, x.Pair(i, j), i, j)
					if err != nil {
						return up, err
					}
					if f := wx * (1 - m.Theta/float64(st.size[c])); js < 0 || f >= fs {
						js, fs = j, f
					}
				}
			}
			k := float64(len(st.size))
			xi := x.Node(i)
			var a, b, cc []float64 // g(u) = θ w·a + α w·b + w·cc + 1
			switch {
			case linked && seen && st.labels[jh] == c, !linked && !seen:
				up.Correct++
			case linked && seen: // wrong assignment
				up.WrongAssignment++
				a, b, cc = opplcConstraint(opplcWrongAssignment, x.Pair(i, js), x.Pair(i, jh), xi, float64(st.size[c]), float64(st.size[st.labels[jh]]), k)
			case !linked && seen: // bad creation
				up.BadCreation++
				a, b, cc = opplcConstraint(opplcBadCreation, x.Pair(i, js), nil, xi, float64(st.size[c]), 0, k)
			default: // linked && !seen: bad assignment
				up.BadAssignment++
				a, b, cc = opplcConstraint(opplcBadAssignment, nil, x.Pair(i, jh), xi, 0, float64(st.size[st.labels[jh]]), k)
			}
			if a != nil {
				if err := m.update(a, b, cc, &up); err != nil {
					return up, err
				}
			}
			if m.sumW == nil {
				m.sumW = make([]float64, d)
			}
			for t := range m.W {
				m.sumW[t] += m.W[t]
			}
			m.sumAlpha += m.Alpha
			m.sumTh += m.Theta
			m.steps++
		}
		if !seen {
			c = len(st.size)
			cluster[truth[i]] = c
		}
		st.assign(i, c)
	}
	return up, nil
}

// opplcMistake is one of Learn's three update cases (thesis §5.3.2).
type opplcMistake int

const (
	opplcWrongAssignment opplcMistake = iota // eq. 5.3.1
	opplcBadCreation                         // eq. 5.3.2, sign reversed
	opplcBadAssignment                       // eq. 5.3.3, sign reversed
)

// opplcConstraint returns the coefficients a, b, cc of Learn's constraint
// g(u) = θ w·a + α w·b + w·cc + 1 = 1 − h(u) ≤ 0 for the mistake kind, with
// x_ij = xs and n_j = ns for the right antecedent j, x_iĵ = xh and
// n_ĵ = nh for the chosen ĵ, the node's features xi and k clusters (the
// arguments a kind does not use are ignored):
//
//	wrong assignment: h = f(i ∼ j) − f(i ∼ ĵ):  a = x_ij/n_j − x_iĵ/n_ĵ, b = 0, cc = x_iĵ − x_ij
//	bad creation:     h = f(i ∼ j) − f(i):      a = x_ij/n_j + k·x_i,  b = x_i, cc = −x_ij
//	bad assignment:   h = f(i) − f(i ∼ ĵ):      a = −(k·x_i + x_iĵ/n_ĵ), b = −x_i, cc = x_iĵ
//
// with f(i ∼ j) = w·x_ij(1 − θ/n_j) and f(i) = w·x_i(α + kθ). In the
// thesis's matrix form (eq. 5.3.4, ½uᵀPu + uᵀq + 1 ≤ 0, u = (w, θ, α)),
// P's w–θ block is a and its w–α block b, q = (cc, 0, 0). The printed
// forms have three typos besides the reversed signs of eq. 5.3.2–5.3.3
// (see Learn): (5.3.2)'s q reads x_i where x_ij is meant, (5.3.3)'s P
// n_j where n_ĵ is meant, and (5.3.4)'s constant −1 where +1 is meant.
// Cost O(d).
func opplcConstraint(kind opplcMistake, xs, xh, xi []float64, ns, nh, k float64) (a, b, cc []float64) {
	d := len(xi)
	a, b, cc = make([]float64, d), make([]float64, d), make([]float64, d)
	for t := range a {
		switch kind {
		case opplcWrongAssignment:
			a[t] = xs[t]/ns - xh[t]/nh
			cc[t] = xh[t] - xs[t]
		case opplcBadCreation:
			a[t] = xs[t]/ns + k*xi[t]
			b[t] = xi[t]
			cc[t] = -xs[t]
		default:
			a[t] = -(k*xi[t] + xh[t]/nh)
			b[t] = -xi[t]
			cc[t] = xh[t]
		}
	}
	return a, b, cc
}

// opplcQuadratic returns A, β and the constant of g(u) = uᵀAu + 2βᵀu +
// c₀ = θ w·a + α w·b + w·cc + 1 for u = (w, θ, α).
func opplcQuadratic(a, b, cc []float64) (*mat.SymDense, []float64, float64) {
	d := len(a)
	A := mat.NewSymDense(d+2, nil)
	beta := make([]float64, d+2)
	for t := 0; t < d; t++ {
		A.SetSym(t, d, a[t]/2)
		A.SetSym(t, d+1, b[t]/2)
		beta[t] = cc[t] / 2
	}
	return A, beta, 1
}

// update applies one correction (see Learn).
func (m *OPPLCOnline) update(a, b, cc []float64, up *OPPLCUpdates) error {
	d := len(m.W)
	A, beta, c0 := opplcQuadratic(a, b, cc)
	u0 := append(append([]float64(nil), m.W...), m.Theta, m.Alpha)
	u, _, err := nearestQuadratic(u0, A, beta, c0)
	if errors.Is(err, errQCQPInfeasible) {
		up.Skipped++
		return nil
	}
	if err != nil {
		return err
	}
	copy(m.W, u[:d])
	theta, alpha := u[d], u[d+1]
	clamped := false
	if theta < 0 || theta > OPPLCThetaMax {
		theta, clamped = min(max(theta, 0), OPPLCThetaMax), true
	}
	if alpha < -theta+1e-9 {
		alpha, clamped = -theta+1e-9, true
	}
	m.Theta, m.Alpha = theta, alpha
	if clamped {
		up.Clamped++
		return nil
	}
	h := -(theta*dot(m.W, a) + alpha*dot(m.W, b) + dot(m.W, cc))
	up.MinMargin = min(up.MinMargin, h)
	return nil
}
