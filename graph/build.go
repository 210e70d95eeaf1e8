package graph

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/internal/enum"
	"github.com/tether-sc/tether/internal/parallel"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/progress"
)

// Kind selects which pairs of points are joined (thesis §2.1.2).
type Kind int

const (
	// SymmetricKNN is the symmetric k-nearest-neighbour graph: {i,j} is an edge when
	// j is among the K nearest neighbours of i or i among those of j
	// ("either is a neighbour"). Every node has at least K neighbours.
	SymmetricKNN Kind = iota
	// MutualKNN keeps {i,j} only when each is among the K nearest
	// neighbours of the other ("both"). Nodes may become isolated.
	MutualKNN
	// Full joins every pair of distinct points (no self loops). It stores
	// n(n−1) weights, 12 bytes each, so Build refuses n > Spec.MaxFull.
	Full
	// Epsilon joins the pairs at Euclidean distance at most Spec.Eps.
	Epsilon
	// SklearnKNN reproduces scikit-learn's
	// SpectralClustering(affinity="nearest_neighbors"): with C the 0/1 matrix
	// of kneighbors_graph(X, K, include_self=True), in which every point is
	// its own first neighbour and so has K−1 others, the graph is
	// W = ½(C + Cᵀ) multiplied entrywise by the affinity. Edges found from
	// one side weigh ½, mutual ones 1, and every node has a self loop of
	// weight 1 (scikit-learn's affinity matrix has them too; scipy's
	// csgraph.laplacian, which its spectral embedding calls, ignores the
	// diagonal). Use it with the Binary affinity to match scikit-learn.
	SklearnKNN
)

var kindNames = []string{"knn", "mknn", "full", "eps", "sknn"}

// String returns "knn", "mknn", "full", "eps" or "sknn".
func (k Kind) String() string { return enum.String("Kind", kindNames, k) }

// MarshalText returns the name String returns, or an error for an unknown
// kind.
func (k Kind) MarshalText() ([]byte, error) { return enum.Marshal("graph kind", kindNames, k) }

// UnmarshalText sets k from a name String returns, in any case.
func (k *Kind) UnmarshalText(text []byte) error {
	return unmarshalEnum(k, "graph kind", kindNames, text)
}

// unmarshalEnum sets *p to the value named by text (see internal/enum).
func unmarshalEnum[T enum.Integer](p *T, kind string, names []string, text []byte) error {
	v, err := enum.Parse[T](kind, names, string(text))
	if err != nil {
		return fmt.Errorf("graph: %w", err)
	}
	*p = v
	return nil
}

// Search selects how the k-NN kinds find the neighbours of every point.
type Search int

const (
	// SearchAuto searches exactly below ApproxMinN points or in at most
	// ApproxMaxExactDim dimensions, and approximately (ApproxKNN) from
	// there on.
	SearchAuto Search = iota
	// SearchExact always searches exactly (KNN).
	SearchExact
	// SearchApprox always searches approximately (ApproxKNN, default
	// options, Spec.Seed).
	SearchApprox
)

var searchNames = []string{"auto", "exact", "approx"}

// String returns "auto", "exact" or "approx".
func (s Search) String() string { return enum.String("Search", searchNames, s) }

// MarshalText returns the name String returns, or an error for an unknown
// value.
func (s Search) MarshalText() ([]byte, error) { return enum.Marshal("k-NN search", searchNames, s) }

// UnmarshalText sets s from a name String returns, in any case.
func (s *Search) UnmarshalText(text []byte) error {
	return unmarshalEnum(s, "k-NN search", searchNames, text)
}

// ApproxMinN is the number of points from which SearchAuto searches
// approximately (in more than ApproxMaxExactDim dimensions). Measured on 5
// Gaussian blobs in 10-D with std 4 (the data of bench/compare_sklearn.sh)
// with `tether cluster` on the 2-core machine: at 10⁵ points the
// approximate 9-NN search takes 4.4 s where the exact one takes 12.4 s
// (a loaded machine; NJW's ARI 0.9795 against 0.9800), and at 10⁶ the
// exact one takes over 130 s (bench/results.md). Below 10⁵ points the
// exact search stays the default: it takes under a second there.
const ApproxMinN = 100_000

// ApproxMaxExactDim is the largest dimension in which SearchAuto keeps the
// exact search whatever n: in so few dimensions the k-d tree prunes well.
const ApproxMaxExactDim = 4

// approximate reports whether the k-NN search of n points in d dimensions
// is approximate.
func (s Search) approximate(n, d int) bool {
	switch s {
	case SearchExact:
		return false
	case SearchApprox:
		return true
	}
	return n >= ApproxMinN && d > ApproxMaxExactDim
}

// DefaultK is the number of neighbours when Spec.K is 0.
const DefaultK = 10

// DefaultMaxFull is the largest n of a Full graph when Spec.MaxFull is 0:
// 10⁴ points store 10⁸ weights, 1.2 GB.
const DefaultMaxFull = 10000

// Spec describes a graph built from feature vectors. Its zero value is the
// default (see DefaultSpec). Its enumerated fields read and print their
// names (UnmarshalText, String), so a command-line tool can bind them to
// flags.
type Spec struct {
	// Kind selects the edges. The zero value is SymmetricKNN.
	Kind Kind
	// K is the number of neighbours of the k-NN kinds, 1 ≤ K < n
	// (K ≤ n for SklearnKNN). If K is 0, DefaultK is used.
	K int
	// Eps is the radius of an Epsilon graph, positive. Under the Cosine
	// affinity it applies to the unit-length rows, where ‖u_i − u_j‖² =
	// 2 − 2cos(x_i, x_j).
	Eps float64
	// Affinity selects the weights. The zero value is RBF.
	Affinity Affinity
	// Sigma selects the RBF scale. The zero value is local scaling with the
	// 7th neighbour.
	Sigma Sigma
	// MaxFull is the largest number of points of a Full graph (and bounds an
	// Epsilon graph to MaxFull² stored weights). If MaxFull is 0,
	// DefaultMaxFull is used.
	MaxFull int
	// Search selects exact or approximate neighbour search for the k-NN
	// kinds. The zero value is SearchAuto.
	Search Search
	// Seed seeds the approximate neighbour search (see ApproxOptions.Seed);
	// the exact searches ignore it.
	Seed uint64
}

// DefaultSpec returns the default graph: the symmetric 10-NN graph with RBF
// weights under local scaling (σ_i = distance to the 7th neighbour). The
// FGPWC paper (Chatel, Denis & Tommasi 2014) does not state its σ; local
// scaling adapts to the density of each region, needs no global scale, and
// is what Wacquet et al. (2013, §6.2) use for their image data. The
// symmetric k-NN graph keeps every node connected to at least K others, so
// no node is isolated.
func DefaultSpec() Spec {
	return Spec{Kind: SymmetricKNN, K: DefaultK, Affinity: RBF, Sigma: Sigma{Rule: SigmaLocal, K: DefaultLocalK}}
}

// String describes the spec, e.g. "knn k=10 rbf sigma=local".
func (s Spec) String() string {
	var b strings.Builder
	b.WriteString(s.Kind.String())
	switch s.Kind {
	case SymmetricKNN, MutualKNN, SklearnKNN:
		k := s.K
		if k == 0 {
			k = DefaultK
		}
		fmt.Fprintf(&b, " k=%d", k)
	case Epsilon:
		fmt.Fprintf(&b, " eps=%g", s.Eps)
	}
	b.WriteString(" " + s.Affinity.String())
	if s.Affinity == RBF {
		b.WriteString(" sigma=" + s.Sigma.String())
	}
	if s.Search != SearchAuto {
		switch s.Kind {
		case SymmetricKNN, MutualKNN, SklearnKNN:
			b.WriteString(" search=" + s.Search.String())
		}
	}
	return b.String()
}

// Build builds the graph that s describes on the rows of x (n points in d
// dimensions); see Kind, Affinity and Sigma for the definitions. Distances
// are Euclidean; neighbour searches are exact (KNN) or, for large inputs or
// when s.Search asks, approximate (ApproxKNN; see Search).
//
// Build returns an error when x is nil or empty or has a NaN or infinite
// entry (naming row and column), when a row is so long that squared
// distances overflow or the features are so small (largest |x| below
// 2⁻⁴⁵⁹ ≈ 6.7e-139, the points not all identical) that they underflow
// (wrapping ErrInvalid, naming the row and value; not for Cosine, which
// scales each row to unit length), when K, Eps, Sigma or
// MaxFull is out of range, when a data-driven σ is 0 (wrapping
// ErrDegenerateScale: the points are identical, so give σ explicitly), when
// RBF weights underflowing to 0 leave a node that had neighbours without
// any edge (wrapping ErrDegenerateScale, naming the node, its nearest
// distance and σ; for MutualKNN, a node that had a mutual neighbour), or
// when ctx is cancelled.
// Other weights that are 0 (some RBF underflow, non-positive cosine) drop
// their edge, which may leave isolated nodes: Graph.Stats reports them.
//
// Cost: the k-NN kinds cost one KNN search plus O(nK log K); Full costs
// O(n²d) time (Dgemm tiles above 16 dimensions, in parallel) and 12·n²
// bytes; Epsilon costs a range search and 12 bytes per stored weight.
func Build(ctx context.Context, x *mat.Dense, s Spec) (*Graph, error) {
	return BuildRecorded(ctx, x, s, nil)
}

// BuildRecorded is Build reporting progress to rec, if not nil: events of
// Stage "graph", whose Done and Total count the items of each parallel
// pass over the data (rows, or the leaves of the k-d tree of the neighbour
// search), at most one event per percent of a pass.
func BuildRecorded(ctx context.Context, x *mat.Dense, s Spec, rec progress.Recorder) (*Graph, error) {
	g, _, err := BuildNeighbors(ctx, x, s, rec)
	return g, err
}

// BuildNeighbors is BuildRecorded that also returns the neighbour lists the
// k-NN kinds searched (nil for the others): K = max(Spec.K, the local
// scaling's K), Approximate set when the search was approximate, so that
// the caller can measure its recall (SampleRecall). The graph and the lists
// share no storage.
func BuildNeighbors(ctx context.Context, x *mat.Dense, s Spec, rec progress.Recorder) (*Graph, *Neighbors, error) {
	return BuildNeighborsSpelled(ctx, x, s, rec, nil)
}

// fullGraphBytes formats the memory of the weights of a full graph on n
// points, 12 bytes each of the n(n − 1) stored entries (an int32 column
// index and a float64 weight), with wording.Bytes's unit: "1.0 MiB" for
// n = 300, where gigabytes read "0.0 GB". Cost O(1).
func fullGraphBytes(n int) string {
	b := 12 * float64(n) * float64(n-1)
	if b >= 1<<62 {
		return fmt.Sprintf("%.3g GiB", b/(1<<30))
	}
	return wording.Bytes(int64(b))
}

// BuildNeighborsSpelled is BuildNeighbors whose errors name the remedies
// they suggest (Spec.MaxFull, Spec.Sigma, scaling the features) as sp
// spells them for a front end's users ("(Spec.MaxFull; tether:
// -max-full)"), after the library's; a nil sp names the library's alone,
// as BuildNeighbors does. It changes no computation.
func BuildNeighborsSpelled(ctx context.Context, x *mat.Dense, s Spec, rec progress.Recorder, sp Spelling) (*Graph, *Neighbors, error) {
	if rec != nil {
		ctx = withReporter(ctx, &reporter{rec: rec})
	}
	if err := checkData(x); err != nil {
		return nil, nil, err
	}
	n, d := x.Dims()
	k := s.K
	if k == 0 {
		k = DefaultK
	}
	maxFull := s.MaxFull
	if maxFull == 0 {
		maxFull = DefaultMaxFull
	}
	if maxFull < 0 {
		return nil, nil, specErrorf("graph: MaxFull = %d is negative", maxFull)
	}
	switch s.Kind {
	case SymmetricKNN, MutualKNN:
		if k < 1 || k >= n {
			return nil, nil, specErrorf("graph: %v graph needs 1 ≤ K < n = %d, got K = %d", s.Kind, n, k)
		}
	case SklearnKNN:
		if k < 1 || k > n {
			return nil, nil, specErrorf("graph: %v graph needs 1 ≤ K ≤ n = %d, got K = %d", s.Kind, n, k)
		}
	case Epsilon:
		if !(s.Eps > 0) || math.IsInf(s.Eps, 0) {
			return nil, nil, specErrorf("graph: eps graph needs a positive finite radius, got Eps = %v", s.Eps)
		}
	case Full:
		if n > maxFull {
			return nil, nil, specErrorf("graph: a full graph on n = %d points stores %d weights (%s), above the limit n ≤ %d %s; use a k-NN graph",
				n, n*(n-1), fullGraphBytes(n), maxFull, remedy(sp, "Spec.MaxFull", "max-full"))
		}
	default:
		return nil, nil, specErrorf("graph: unknown graph kind %d", int(s.Kind))
	}
	if s.Search < SearchAuto || s.Search > SearchApprox {
		return nil, nil, specErrorf("graph: unknown k-NN search %d", int(s.Search))
	}
	if s.Affinity < RBF || s.Affinity > Binary {
		return nil, nil, specErrorf("graph: unknown affinity %d", int(s.Affinity))
	}
	rbf := s.Affinity == RBF
	if rbf {
		switch s.Sigma.Rule {
		case SigmaFixed:
			if !(s.Sigma.Value > 0) || math.IsInf(s.Sigma.Value, 0) {
				return nil, nil, specErrorf("graph: σ = %v must be positive and finite", s.Sigma.Value)
			}
		case SigmaLocal:
			if lk := s.Sigma.localK(); lk < 1 || lk >= n {
				what := fmt.Sprintf("Sigma.K = %d", lk)
				if s.Sigma.K == 0 {
					what = fmt.Sprintf("Sigma.K = 0, the default %d (DefaultLocalK)", lk)
				}
				return nil, nil, specErrorf("graph: local scaling (σ_i the distance to the K-th neighbour) needs 1 ≤ K < n = %d points, got %s: set Sigma.K below n %s or use another σ rule", n, what, remedy(sp, "Spec.Sigma.K", "sigma", "local:K"))
			}
		case SigmaMedian, SigmaMeanVariance:
		default:
			return nil, nil, specErrorf("graph: unknown σ rule %d", int(s.Sigma.Rule))
		}
	}

	b := &builder{spec: s, n: n, d: d, k: k, maxFull: maxFull, data: denseData(x), sp: sp}
	b.w.aff = s.Affinity
	b.w.dim = d
	b.search = b.data
	if s.Affinity == Cosine {
		b.w.unit = unitRows(b.data, n, d)
		b.search = b.w.unit
	} else if err := checkScale(b.data, n, d, sp); err != nil {
		return nil, nil, err
	}
	var g *Graph
	var err error
	switch s.Kind {
	case Full:
		g, err = b.full(ctx)
		b.hasCand = func(int) bool { return n > 1 }
	case Epsilon:
		g, err = b.epsilon(ctx)
	default:
		g, err = b.knn(ctx)
	}
	if err != nil {
		return nil, nil, err
	}
	if err := b.checkUnderflow(g); err != nil {
		return nil, nil, err
	}
	return g, b.nb, nil
}

// minScale is the smallest largest-|x| at which checkScale lets squared
// distances be computed: 2⁻⁴⁵⁹ ≈ 6.7e-139. Rule: float64 coordinates of
// magnitude below 2^(e+1) are resolved to ulp = 2^(e−52), and the square
// of a difference of one ulp, 2^(2e−104), is a normal number (≥ 2⁻¹⁰²²,
// full 53-bit precision) exactly when e ≥ −459. Below that, squared
// differences at the data's own resolution are subnormal (fewer bits) or
// 0, so k-NN ranks become rounding noise or index order and RBF weights all
// 1: the graph would depend on the scale of the features, which it must
// not (ranks and RBF weights with σ scaled alike are scale-invariant).
const minScale = 0x1p-459

// checkScale returns an error wrapping ErrInvalid, naming the row, the
// column and the value, when the features are out of the range in which
// squared distances are computed faithfully:
//
//   - a row so long that squared distances (at most 4·max‖x_i‖²) may
//     overflow float64: they would become +Inf and the weights 0 or NaN,
//     and the failure would surface far away, in the eigensolver;
//   - rows that are not all identical while the largest |x_ij| is below
//     minScale (2⁻⁴⁵⁹ ≈ 6.7e-139): squared differences underflow or lose
//     precision (see minScale), so the neighbours would come out in index
//     order and every RBF weight would be 1.
//
// Identical rows are accepted at any scale (their distances are exactly
// 0). Every function of the package that computes squared distances from
// features (KNN, ApproxKNN, SampleRecall, Build but for Cosine) calls it
// first. Cost O(nd).
func checkScale(data []float64, n, d int, sp Spelling) error {
	const limit = math.MaxFloat64 / 4
	var amax float64
	ar, ac := 0, 0
	for i := 0; i < n; i++ {
		row := data[i*d : (i+1)*d]
		var ss float64
		for j, v := range row {
			ss += v * v
			if a := math.Abs(v); a > amax {
				amax, ar, ac = a, i, j
			}
		}
		if ss <= limit {
			continue
		}
		c := 0
		for j, v := range row {
			if math.Abs(v) > math.Abs(row[c]) {
				c = j
			}
		}
		return fmt.Errorf("%w: row %d has squared length %g (column %d is %g), so squared distances overflow float64; scale the features %s", ErrInvalid, i, ss, c, row[c], scaleRemedy(sp))
	}
	if amax >= minScale {
		return nil
	}
	for i := 1; i < n; i++ {
		if !slices.Equal(data[i*d:(i+1)*d], data[:d]) {
			return fmt.Errorf("%w: the feature value of largest magnitude is %g (row %d, column %d): |x| < 2⁻⁴⁵⁹ ≈ 6.7e-139, and the points are not all identical (row %d differs from row 0), so squared distances underflow or lose precision in float64; scale the features %s", ErrInvalid, data[ar*d+ac], ar, ac, i, scaleRemedy(sp))
		}
	}
	return nil
}

// checkUnderflow returns an error wrapping ErrDegenerateScale when RBF
// weights that underflow to 0 left a node without edges although it had
// neighbours: exp(−d²/2σ²) is 0 in float64 once d/σ exceeds about 38.6, so
// a σ far below the distances isolates nodes that are not isolated. The
// error names the first such node, its nearest neighbour's distance and σ.
// MutualKNN graphs are checked against the mutual neighbours (a node may
// legitimately have none), Epsilon graphs against the nodes within the
// radius.
func (b *builder) checkUnderflow(g *Graph) error {
	if b.spec.Affinity != RBF || b.hasCand == nil {
		return nil
	}
	first, count := -1, 0
	for i := 0; i < b.n; i++ {
		idx, w := g.Row(i)
		alone := true
		for t, j := range idx {
			if int(j) != i && w[t] > 0 {
				alone = false
				break
			}
		}
		if alone && b.hasCand(i) {
			if first < 0 {
				first = i
			}
			count++
		}
	}
	if first < 0 {
		return nil
	}
	// The nearest other point, by brute force over the rows: O(nd) once.
	i, d := first, b.d
	near, best := -1, math.Inf(1)
	xi := b.data[i*d : (i+1)*d]
	for j := 0; j < b.n; j++ {
		if j == i {
			continue
		}
		var s float64
		for c, v := range b.data[j*d : (j+1)*d] {
			s += (v - xi[c]) * (v - xi[c])
		}
		if s < best {
			near, best = j, s
		}
	}
	sigma := "σ = " + strconv.FormatFloat(b.w.sigma, 'g', 4, 64)
	if b.w.local != nil {
		sigma = fmt.Sprintf("local σ_%d = %.4g, σ_%d = %.4g", i, b.w.local[i], near, b.w.local[near])
	}
	others := ""
	if count > 1 {
		others = " (and " + wording.Count(count-1, "other node", "other nodes") + ")"
	}
	larger := "a larger fixed value, or the median distance " + remedy(b.sp, "Spec.Sigma = Sigma{Rule: SigmaMedian}", "sigma", "median")
	if b.spec.Sigma.Rule == SigmaMedian {
		// Not the rule already given (review 115).
		larger = "a fixed value larger than the median distance"
	}
	return fmt.Errorf("%w: node %d%s has no edge left: the RBF weight of its nearest neighbour, node %d at distance %.4g, underflows to 0 with %s; use a larger σ: %s", ErrDegenerateScale, i, others, near, math.Sqrt(best), sigma, larger)
}

// builder carries the state of one Build call.
type builder struct {
	spec    Spec
	n, d, k int
	maxFull int
	data    []float64 // original rows
	search  []float64 // rows the neighbourhoods are computed on
	w       weighter
	nb      *Neighbors // the lists the k-NN kinds searched
	// hasCand reports whether node i had a candidate neighbour before
	// weighting (nil: unknown, no underflow check).
	hasCand func(i int) bool
	// sp spells the remedies the errors suggest (nil: the library's).
	sp Spelling
}

// scaleRemedy is the parenthesis of the errors that ask to scale the
// features: the readers' option that scales them, then the front end's
// as sp spells it.
func scaleRemedy(sp Spelling) string {
	return remedy(sp, "dataset.Options.Scale = ScaleMinMax or ScaleZScore", "scale", "minmax", "zscore")
}

// setScale sets the weighter's σ for a global rule, given the squared
// lengths of the candidate edges (reordered by the median rule) and the
// number of candidate neighbours of each point (for the message when all
// the lengths are 0). The median rule checks ctx (medianLength).
func (b *builder) setScale(ctx context.Context, cand []float64, cands func(i int) int) error {
	if b.spec.Affinity != RBF {
		return nil
	}
	var sigma float64
	switch b.spec.Sigma.Rule {
	case SigmaFixed:
		sigma = b.spec.Sigma.Value
	case SigmaMedian:
		if len(cand) == 0 {
			return nil // no edges to weigh
		}
		var err error
		if sigma, err = medianLength(ctx, cand); err != nil {
			return err
		}
		if sigma == 0 {
			what := fmt.Sprintf("all %d candidate edges have length 0", len(cand))
			if err := b.zeroDistanceError(what+", so the median heuristic gives σ = 0", cands); err != nil {
				return err
			}
			return fmt.Errorf("%w: %s (identical points), so the median heuristic gives σ = 0; give σ explicitly", ErrDegenerateScale, what)
		}
	case SigmaMeanVariance:
		sigma = MeanVarianceSigma(b.data, b.n, b.d)
		if sigma == 0 {
			return fmt.Errorf("%w: every feature has variance 0 (identical points), so the mean-variance rule gives σ = 0; give σ explicitly", ErrDegenerateScale)
		}
	default:
		return nil
	}
	if math.IsInf(sigma, 0) || math.IsNaN(sigma) {
		return fmt.Errorf("graph: the %v rule gives σ = %v", b.spec.Sigma, sigma)
	}
	b.w.setSigma(sigma)
	return nil
}

// setLocal sets the local scales σ_i = √(k-th squared neighbour distance).
func (b *builder) setLocal(sig []float64) error {
	for i, v := range sig {
		sig[i] = math.Sqrt(v)
	}
	if !fixZeroScales(sig) {
		k := b.spec.Sigma.localK()
		what := fmt.Sprintf("every point's %d-th nearest neighbour is at squared distance 0, so local scaling gives σ_i = 0", k)
		if err := b.zeroDistanceError(what, func(int) int { return k }); err != nil {
			return err
		}
		return fmt.Errorf("%w: every point has at least %d duplicates, so local scaling gives σ_i = 0; give σ explicitly", ErrDegenerateScale, k)
	}
	b.w.local = sig
	return nil
}

// zeroDistanceError is called when the squared distances from every point
// i to its cands(i) candidate neighbours are all 0. If the points are
// duplicates (every point i has at least cands(i) identical rows), it
// returns nil; otherwise some distinct rows have squared distance 0, which
// happens only when their squared differences underflow (they differ by
// less than about 1.5e-162 in every feature, 1.5e-162² being below the
// smallest float64), and it returns an error wrapping ErrDegenerateScale
// that starts with what, names the first such row and says so, rather
// than the false claim of duplicates. Cost O(nd log n), on the error path
// only.
func (b *builder) zeroDistanceError(what string, cands func(i int) int) error {
	copies := rowCopies(b.search, b.n, b.d)
	for i, c := range copies {
		if need := cands(i); c < need {
			return fmt.Errorf("%w: %s, but row %d has %d identical rows for %d candidate neighbours: the squared distances of distinct points underflow to 0 in float64 (the points differ by less than about 1.5e-162 in every feature); scale the features %s or give σ explicitly", ErrDegenerateScale, what, i, c, need, scaleRemedy(b.sp))
		}
	}
	return nil
}

// rowCopies returns, for every row of the n×d row-major data, the number
// of other rows identical to it (equal coordinates; 0 and −0 are equal).
// Cost O(nd log n) comparisons and O(n) memory.
func rowCopies(data []float64, n, d int) []int {
	row := func(i int) []float64 { return data[i*d : (i+1)*d] }
	cmpRows := func(a, b int) int {
		ra, rb := row(a), row(b)
		for c := range ra {
			if ra[c] != rb[c] {
				if ra[c] < rb[c] {
					return -1
				}
				return 1
			}
		}
		return 0
	}
	ord := make([]int, n)
	for i := range ord {
		ord[i] = i
	}
	slices.SortFunc(ord, cmpRows)
	copies := make([]int, n)
	for a := 0; a < n; {
		z := a + 1
		for z < n && cmpRows(ord[a], ord[z]) == 0 {
			z++
		}
		for _, i := range ord[a:z] {
			copies[i] = z - a - 1
		}
		a = z
	}
	return copies
}

func (b *builder) localRule() bool {
	return b.spec.Affinity == RBF && b.spec.Sigma.Rule == SigmaLocal
}

// knn builds the SymmetricKNN, MutualKNN and SklearnKNN graphs.
func (b *builder) knn(ctx context.Context) (*Graph, error) {
	n := b.n
	kq := b.k // neighbours that become edges
	if b.spec.Kind == SklearnKNN {
		kq = b.k - 1
	}
	ks := 0
	if b.localRule() {
		ks = b.spec.Sigma.localK()
	}
	kk := max(kq, ks)
	var nb *Neighbors
	if kk > 0 {
		var err error
		if b.spec.Search.approximate(n, b.d) {
			o := (&ApproxOptions{Seed: b.spec.Seed}).withDefaults(kk)
			nb, err = approxKNNData(ctx, b.search, n, b.d, kk, o)
		} else {
			nb, err = knnData(ctx, b.search, n, b.d, kk)
		}
		if err != nil {
			return nil, err
		}
		b.nb = nb
	}
	if ks > 0 {
		sig := make([]float64, n)
		for i := range sig {
			sig[i] = nb.Dist2[i*kk+ks-1]
		}
		if err := b.setLocal(sig); err != nil {
			return nil, err
		}
	}
	// The edge lists: views of the neighbour lists when every neighbour
	// found becomes an edge, else their first kq entries. The weights
	// replace the distances in a new array, so the lists stay intact.
	var dj []int32
	dw := make([]float64, n*kq)
	switch {
	case kq == 0:
	case kq == kk:
		dj = nb.Index
		copy(dw, nb.Dist2)
	default:
		dj = make([]int32, n*kq)
		for i := 0; i < n; i++ {
			copy(dj[i*kq:(i+1)*kq], nb.Index[i*kk:i*kk+kq])
			copy(dw[i*kq:(i+1)*kq], nb.Dist2[i*kk:i*kk+kq])
		}
	}
	cand := dw
	if b.spec.Affinity == RBF && b.spec.Sigma.Rule == SigmaMedian {
		cand = slices.Clone(dw) // medianLength reorders its argument
	}
	if err := b.setScale(ctx, cand, func(int) int { return kq }); err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		for r := i * kq; r < (i+1)*kq; r++ {
			dw[r] = b.w.weight(i, int(dj[r]), dw[r])
		}
	}
	var self []float64
	mode := symEither
	switch b.spec.Kind {
	case MutualKNN:
		mode = symBoth
	case SklearnKNN:
		mode = symMean
		self = make([]float64, n)
		for i := range self {
			self[i] = b.w.selfWeight(i)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("graph: graph construction cancelled: %w", err)
	}
	if mode != symBoth {
		b.hasCand = func(int) bool { return kq > 0 }
	} else if b.spec.Affinity == RBF {
		// A mutual neighbour is the candidate: a σ under which every
		// mutual pair's weight underflowed gave a graph of isolated
		// nodes, exit 0 (review 114). Asked only of the nodes left
		// without an edge, O(kq²) each, kq the neighbours (it was
		// computed for every node, O(n·kq²) without polling ctx). dj
		// is not changed by symmetrize.
		b.hasCand = func(i int) bool {
			for _, j := range dj[i*kq : (i+1)*kq] {
				if slices.Contains(dj[int(j)*kq:(int(j)+1)*kq], int32(i)) {
					return true
				}
			}
			return false
		}
	}
	return symmetrize(ctx, n, kq, dj, dw, mode, self)
}

type symMode int

const (
	symEither symMode = iota // union, W_ij = w
	symBoth                  // intersection
	symMean                  // ½(A + Aᵀ)
)

// symmetrize builds the undirected graph of the directed k-NN lists
// (i → dj[i*kq+r] with weight dw[i*kq+r]) and optional self loops. Cost
// O(n·kq·log kq). The entries are scattered to their rows by every
// goroutine over all the lists, each keeping only the rows of its own
// range (every goroutine reads all n·kq entries, sequentially, and writes
// only its share, in the order of a serial pass); the rows are then sorted
// and their pairs merged in parallel, each in its own range, and
// compacted in one serial pass, so the graph does not depend on the
// scheduling. At 10⁶ points the two serial passes took about 2 s. ctx is
// checked every cancelEvery rows, and its error returned, wrapped.
func symmetrize(ctx context.Context, n, kq int, dj []int32, dw []float64, mode symMode, self []float64) (*Graph, error) {
	cancelled := func(err error) error {
		return fmt.Errorf("graph: graph construction cancelled: %w", err)
	}
	ptr := make([]int, n+1)
	for i := 0; i < n; i++ {
		ptr[i+1] += kq
		for _, j := range dj[i*kq : (i+1)*kq] {
			ptr[j+1]++
		}
		if self != nil {
			ptr[i+1]++
		}
	}
	for i := 0; i < n; i++ {
		ptr[i+1] += ptr[i]
	}
	nnz := ptr[n]
	col := make([]int32, nnz)
	val := make([]float64, nnz)
	out := make([]bool, nnz) // entry comes from i's own list (else from j's)
	fill := append([]int(nil), ptr[:n]...)
	var stop atomic.Bool
	parallel.Range(n, nnz, func(lo, hi int) {
		for i := 0; i < n; i++ {
			if i%cancelEvery == 0 && (stop.Load() || ctx.Err() != nil) {
				stop.Store(true)
				return
			}
			own := i >= lo && i < hi
			for r := i * kq; r < (i+1)*kq; r++ {
				j := dj[r]
				if own {
					p := fill[i]
					col[p], val[p], out[p] = j, dw[r], true
					fill[i]++
				}
				if int(j) >= lo && int(j) < hi {
					q := fill[j]
					col[q], val[q] = int32(i), dw[r]
					fill[j]++
				}
			}
			if own && self != nil {
				p := fill[i]
				col[p], val[p], out[p] = int32(i), self[i], true
				fill[i]++
			}
		}
	})
	if stop.Load() {
		return nil, cancelled(ctx.Err())
	}
	// Sort each row by column and merge the (at most two) entries of a
	// pair at the start of its range; fill[i] becomes the row's length.
	err := parallel.For(ctx, (n+cancelEvery-1)/cancelEvery, 0, func(c int) error {
		for i := c * cancelEvery; i < min(n, (c+1)*cancelEvery); i++ {
			a, e := ptr[i], ptr[i+1]
			sortSymRow(col[a:e], val[a:e], out[a:e])
			o := a
			for p := a; p < e; {
				j := col[p]
				if int(j) == i { // self loop, entered once
					col[o], val[o] = j, val[p]
					o++
					p++
					continue
				}
				var wOut, wIn float64
				var hasOut, hasIn bool
				for ; p < e && col[p] == j; p++ {
					if out[p] {
						wOut, hasOut = val[p], true
					} else {
						wIn, hasIn = val[p], true
					}
				}
				var v float64
				switch mode {
				case symEither:
					v = max(wOut, wIn)
				case symBoth:
					if hasOut && hasIn {
						v = max(wOut, wIn)
					}
				case symMean:
					v = (wOut + wIn) / 2
				}
				col[o], val[o] = j, v
				o++
			}
			fill[i] = o - a
		}
		return nil
	})
	if err != nil {
		return nil, cancelled(err)
	}
	o := 0
	for i := 0; i < n; i++ {
		a, m := ptr[i], fill[i]
		copy(col[o:o+m], col[a:a+m])
		copy(val[o:o+m], val[a:a+m])
		ptr[i] = o
		o += m
	}
	ptr[n] = o
	return compact(n, ptr, col[:o], val[:o]), nil
}

// sortSymRow sorts a row's entries by column: by insertion when short (a
// k-NN row holds about 2k entries; sort.Sort's interface calls cost more
// than the moves), else by sort.Sort. The order of a pair's two entries
// does not matter to the merge.
func sortSymRow(col []int32, val []float64, out []bool) {
	if len(col) > 48 {
		sort.Sort(symRow{col, val, out})
		return
	}
	for i := 1; i < len(col); i++ {
		c, v, f := col[i], val[i], out[i]
		j := i
		for ; j > 0 && col[j-1] > c; j-- {
			col[j], val[j], out[j] = col[j-1], val[j-1], out[j-1]
		}
		col[j], val[j], out[j] = c, v, f
	}
}

// cancelEvery is how many rows the sequential O(nnz) passes of graph
// construction process between checks of their context: a check costs
// nanoseconds, 4096 rows of a 10-NN graph about a millisecond.
const cancelEvery = 4096

type symRow struct {
	col []int32
	val []float64
	out []bool
}

func (r symRow) Len() int           { return len(r.col) }
func (r symRow) Less(a, b int) bool { return r.col[a] < r.col[b] }
func (r symRow) Swap(a, b int) {
	r.col[a], r.col[b] = r.col[b], r.col[a]
	r.val[a], r.val[b] = r.val[b], r.val[a]
	r.out[a], r.out[b] = r.out[b], r.out[a]
}

// epsilon builds the ε-graph.
func (b *builder) epsilon(ctx context.Context) (*Graph, error) {
	n := b.n
	lists, d2, err := radiusData(ctx, b.search, n, b.d, b.spec.Eps*b.spec.Eps)
	if err != nil {
		return nil, err
	}
	total := 0
	for _, l := range lists {
		total += len(l)
	}
	if limit := float64(b.maxFull) * float64(b.maxFull); float64(total) > limit {
		return nil, specErrorf("graph: the eps graph with Eps = %g has %d stored weights, above the limit %d² %s; use a smaller radius", b.spec.Eps, total, b.maxFull, remedy(b.sp, "Spec.MaxFull", "max-full"))
	}
	if b.localRule() {
		ks := b.spec.Sigma.localK()
		nb, err := knnData(ctx, b.search, n, b.d, ks)
		if err != nil {
			return nil, err
		}
		sig := make([]float64, n)
		for i := range sig {
			sig[i] = nb.Dist2[i*ks+ks-1]
		}
		if err := b.setLocal(sig); err != nil {
			return nil, err
		}
	}
	var cand []float64
	if b.spec.Affinity == RBF && b.spec.Sigma.Rule == SigmaMedian {
		var p poller
		for i, l := range lists {
			if err := p.poll(ctx, len(l)); err != nil {
				return nil, err
			}
			for t, j := range l {
				if int(j) > i {
					cand = append(cand, d2[i][t])
				}
			}
		}
	}
	if err := b.setScale(ctx, cand, func(i int) int { return len(lists[i]) }); err != nil {
		return nil, err
	}
	b.hasCand = func(i int) bool {
		for _, j := range lists[i] {
			if int(j) != i {
				return true
			}
		}
		return false
	}
	ptr := make([]int, n+1)
	col := make([]int32, 0, total)
	val := make([]float64, 0, total)
	var p poller
	for i, l := range lists {
		if err := p.poll(ctx, len(l)); err != nil {
			return nil, err
		}
		for t, j := range l {
			col = append(col, j)
			val = append(val, b.w.weight(i, int(j), d2[i][t]))
		}
		ptr[i+1] = len(col)
	}
	return compactBuilt(ctx, n, ptr, col, val)
}

// poller checks a context in a sequential pass over the rows of a graph
// every cancelEvery rows or cancelValues entries, whichever comes first:
// the rows of ε and Full graphs hold thousands of entries each.
type poller struct{ rows, entries int }

// poll counts a row of the given number of entries and checks ctx when
// either count reaches its limit; it returns the wrapped error of a
// cancelled ctx.
func (p *poller) poll(ctx context.Context, entries int) error {
	p.rows++
	p.entries += entries
	if p.rows < cancelEvery && p.entries < cancelValues {
		return nil
	}
	p.rows, p.entries = 0, 0
	if err := ctx.Err(); err != nil {
		return buildCancelled(err)
	}
	return nil
}

// compactBuilt is compactContext for the graphs Build makes, which
// returns ctx's error when ctx was cancelled by its end: a cancellation
// during the last passes returns no graph.
func compactBuilt(ctx context.Context, n int, ptr []int, col []int32, val []float64) (*Graph, error) {
	g, err := compactContext(ctx, n, ptr, col, val)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, buildCancelled(err)
	}
	return g, nil
}

// gramTol and gramTrigger bound the error that a Full RBF graph above
// kdMaxDim dimensions accepts in the exponent of a weight, d²/(2σ²) or
// d²/(σ_iσ_j) (its relative error), when d² comes from the Gram matrix of
// the centred rows, ‖a‖² + ‖b‖² − 2a·b, rather than from dist2. The Gram
// value errs by at most errUnit·(‖a‖² + ‖b‖²) (newCentred), which
// cancellation makes large for rows far from the centre: two clusters at
// ±10⁶ in 17-D had weights off by 7·10⁻⁴ relative, 0.07 at ±10⁷ (review
// 130). Rule (full, refineGram): when some pair's weight is off by more
// than gramTrigger = 10⁻⁶, every pair whose weight is off by more than
// gramTol = 10⁻¹² is replaced by dist2's, and σ set again; otherwise the
// Gram values stand, bit for bit as before. The trigger leaves the
// committed pages alone: on the data they read the worst error is 7·10⁻⁸
// (spambase, 57 heavy-tailed features, local σ) and usually below 10⁻¹²,
// while the weights from replaced distances change the fourth digit of a
// figure (an ARI near 0). So weights are within 10⁻⁶ of dist2's always,
// and within about 10⁻¹² where any was off by more than 10⁻⁶.
const (
	gramTrigger = 1e-6
	gramTol     = 1e-12
)

// full builds the fully connected graph. Row i stores all j ≠ i; the entry
// (i,j) sits at i(n−1) + j − [j > i]. Each unordered pair is computed once
// and mirrored, so the matrix is exactly symmetric. Above kdMaxDim
// dimensions the squared distances come from Dgemm tiles of the centred
// rows, replaced by dist2's where they would move a weight by more than
// 10⁻¹² relative when one would move it by more than 10⁻⁶ (gramTrigger).
//
// ctx is checked before the n(n−1) entries are allocated and, in the
// sequential passes (the column indices, Binary's weights), every
// cancelEvery rows or cancelValues entries (poller), as in the parallel
// ones: the column pass alone ran 0.72 s at n = 10⁴ and 2.7 s at 2·10⁴
// unpolled after a cancellation.
func (b *builder) full(ctx context.Context) (*Graph, error) {
	if err := ctx.Err(); err != nil {
		return nil, buildCancelled(err)
	}
	n, d := b.n, b.d
	m := n - 1
	nnz := n * m
	ptr := make([]int, n+1)
	for i := range ptr {
		ptr[i] = i * m
	}
	col := make([]int32, nnz)
	val := make([]float64, nnz)
	var poll poller
	for i := 0; i < n; i++ {
		if err := poll.poll(ctx, m); err != nil {
			return nil, err
		}
		row := col[i*m : (i+1)*m]
		for j := 0; j < i; j++ {
			row[j] = int32(j)
		}
		for j := i + 1; j < n; j++ {
			row[j-1] = int32(j)
		}
	}
	pos := func(i, j int) int {
		if j > i {
			return i*m + j - 1
		}
		return i*m + j
	}
	if n == 1 {
		return compact(n, ptr, col, val), nil
	}
	set := func(i, j int, v float64) {
		val[pos(i, j)] = v
		val[pos(j, i)] = v
	}
	var err error
	switch b.spec.Affinity {
	case Binary:
		for i := 0; i < n && err == nil; i++ {
			if err = poll.poll(ctx, m); err == nil {
				row := val[i*m : (i+1)*m]
				for p := range row {
					row[p] = 1
				}
			}
		}
	case Cosine:
		u := b.w.unit
		if d > kdMaxDim {
			err = gramPairs(ctx, u, n, d, func(i, j int, dot float64) {
				set(i, j, min(max(dot, 0), 1))
			})
		} else {
			err = parallelChunks(ctx, n, bruteQueryBlock, func() struct{} { return struct{}{} },
				func(_ struct{}, lo, hi int) {
					for i := lo; i < hi; i++ {
						for j := i + 1; j < n; j++ {
							set(i, j, b.w.weight(i, j, 0))
						}
					}
				})
		}
	case RBF:
		var cd *centred
		if d > kdMaxDim {
			cd = newCentred(b.data, n, d)
			err = gramPairs(ctx, cd.c, n, d, func(i, j int, dot float64) {
				v := cd.norm2[i] + cd.norm2[j] - 2*dot
				if v <= cd.errUnit*(cd.norm2[i]+cd.norm2[j]) {
					// Near-duplicates: the screening formula has lost
					// all accuracy; use the exact difference.
					v = dist2(b.data[i*d:(i+1)*d], b.data[j*d:(j+1)*d])
				}
				set(i, j, v)
			})
		} else {
			err = parallelChunks(ctx, n, bruteQueryBlock, func() struct{} { return struct{}{} },
				func(_ struct{}, lo, hi int) {
					for i := lo; i < hi; i++ {
						a := b.data[i*d : (i+1)*d]
						for j := i + 1; j < n; j++ {
							set(i, j, dist2(a, b.data[j*d:(j+1)*d]))
						}
					}
				})
		}
		if err != nil {
			return nil, err
		}
		if err = b.fullScale(ctx, val, m); err != nil {
			return nil, err
		}
		if cd != nil {
			// Above kdMaxDim dimensions: when some Gram distance moves
			// its weight by more than gramTrigger, every one that moves
			// it by more than gramTol is replaced by dist2's, and σ set
			// again from them, until none is (σ from corrected distances
			// asks for few more; three rounds at most).
			far, err := b.refineGram(ctx, cd, val, m, gramTrigger, true)
			for it := 0; far && err == nil && it < 3; it++ {
				var fixed bool
				if fixed, err = b.refineGram(ctx, cd, val, m, gramTol, false); err != nil || !fixed {
					break
				}
				err = b.fullScale(ctx, val, m)
			}
			if err != nil {
				return nil, err
			}
		}
		err = parallelChunks(ctx, n, bruteQueryBlock, func() struct{} { return struct{}{} },
			func(_ struct{}, lo, hi int) {
				// Each pair once, from its upper-triangle entry.
				for i := lo; i < hi; i++ {
					for j := i + 1; j < n; j++ {
						set(i, j, b.w.weight(i, j, val[pos(i, j)]))
					}
				}
			})
	}
	if err != nil {
		return nil, err
	}
	return compactBuilt(ctx, n, ptr, col, val)
}

// refineGram checks the squared distances of a Full RBF graph that came
// from the Gram matrix of the centred rows cd (in val, row i at val[i·m:],
// as full stores them) against the weights' scale set from them, s the
// factor of d² in the weight's exponent (1/(2σ²), or 1/(σ_iσ_j) under
// local scaling). A pair's exponent errs by at most errUnit·(‖a‖² +
// ‖b‖²)·s; when that bound exceeds tol the pair is recomputed by dist2
// and, when the two exponents differ by more than tol, replaced by it
// (only reported, not replaced, when dryRun). It reports whether some
// pair differed by more than tol; a dry run stops at the first. Cost
// O(n²) beside O(d) for each pair recomputed.
func (b *builder) refineGram(ctx context.Context, cd *centred, val []float64, m int, tol float64, dryRun bool) (bool, error) {
	n, d := b.n, b.d
	inv := b.w.inv2s
	if b.w.d2Exp != 0 {
		inv = math.Ldexp(inv, b.w.d2Exp)
	}
	var found atomic.Bool
	err := parallelChunks(ctx, n, bruteQueryBlock, func() struct{} { return struct{}{} },
		func(_ struct{}, lo, hi int) {
			for i := lo; i < hi && !(dryRun && found.Load()); i++ {
				for j := i + 1; j < n; j++ {
					s := inv
					if b.w.local != nil {
						s = 1 / (b.w.local[i] * b.w.local[j])
					}
					if !(cd.errUnit*(cd.norm2[i]+cd.norm2[j])*s > tol) {
						continue
					}
					v := dist2(b.data[i*d:(i+1)*d], b.data[j*d:(j+1)*d])
					p := i*m + j - 1 // (i,j); (j,i) is at j·m + i
					if !(math.Abs(val[p]-v)*s > tol) {
						continue
					}
					found.Store(true)
					if dryRun {
						break
					}
					val[p], val[j*m+i] = v, v
				}
			}
		})
	return found.Load(), err
}

// fullScale sets σ for a Full RBF graph from the squared distances in val.
func (b *builder) fullScale(ctx context.Context, val []float64, m int) error {
	n := b.n
	if b.localRule() {
		ks := b.spec.Sigma.localK()
		sig := make([]float64, n)
		err := parallelChunks(ctx, n, bruteQueryBlock, func() []float64 { return make([]float64, m) },
			func(buf []float64, lo, hi int) {
				for i := lo; i < hi; i++ {
					copy(buf, val[i*m:(i+1)*m])
					sig[i] = selectFloat(buf, ks-1)
				}
			})
		if err != nil {
			return err
		}
		return b.setLocal(sig)
	}
	var cand []float64
	if b.spec.Sigma.Rule == SigmaMedian {
		cand = make([]float64, 0, n*m/2)
		var p poller
		for i := 0; i < n; i++ {
			if err := p.poll(ctx, m-i); err != nil {
				return err
			}
			cand = append(cand, val[i*m+i:(i+1)*m]...) // j > i
		}
	}
	return b.setScale(ctx, cand, func(int) int { return n - 1 })
}

// gramPairs calls f(i, j, a_i·a_j) for every pair i < j of rows of the n×d
// row-major a, from Dgemm tiles computed in parallel. f must be safe for
// concurrent calls on distinct pairs.
func gramPairs(ctx context.Context, a []float64, n, d int, f func(i, j int, dot float64)) error {
	cd := &centred{n: n, dim: d, c: a}
	return parallelChunks(ctx, n, bruteQueryBlock,
		func() []float64 { return make([]float64, bruteQueryBlock*bruteRefBlock) },
		func(buf []float64, lo, hi int) {
			for r0 := lo; r0 < n; r0 += bruteRefBlock {
				r1 := min(r0+bruteRefBlock, n)
				cd.gram(buf, lo, hi, r0, r1)
				for q := lo; q < hi; q++ {
					g := buf[(q-lo)*bruteRefBlock:]
					for j := max(r0, q+1); j < r1; j++ {
						f(q, j, g[j-r0])
					}
				}
			}
		})
}
