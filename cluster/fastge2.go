package cluster

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/enum"
	"github.com/tether-sc/tether/internal/unionfind"
	"github.com/tether-sc/tether/internal/wording"
)

// FastGE2 is FAST-GE-2.0 of Jiang, Xie and Bai (2017) as presented in
// seed 004 §4.2, Alg. 3. With d the degrees of A and w = 1/(d_min d_max):
//
//	A_M = Σ_ℓ A_{M_ℓ},  (A_{M_ℓ})_ij = w d_i d_j for i, j ∈ V_ℓ        (eq. 4.2–4.3)
//	(A_C)_ij = w d_i d_j for i ∈ V_ℓ₁, j ∈ V_ℓ₂, ℓ₁ ≠ ℓ₂               (eq. 4.6)
//	A_K = d⁽ᴷ⁾d⁽ᴷ⁾ᵀ/Σ_p d⁽ᴷ⁾_p,  d⁽ᴷ⁾ = (A_C + A_Cᵀ)·1                  (eq. 4.7)
//	A_N = A + A_M,  A_H = (A_C + A_Cᵀ + A_K)/n                          (eq. 4.10, 4.5)
//
// and the embedding is the k eigenvectors of L_N x = λ L_H x with the
// smallest finite eigenvalues, computed from the regularized pencil of
// Theorem 4.2.5 (K = −L_H, M = L_N + μL_H + ZSZᵀ; pencil.go), with
// rows and columns normalized (Alg. 3, line 4), then k-means.
//
// The constraint sets V_1 … V_k are the label sets of Problem.Labels
// (constraint.LabelSets builds them; all pairs inside a set are must-links
// and all pairs across sets cannot-links, eq. 4.1). A_M and A_C + A_Cᵀ are
// then rank-k matrices (w d_i 1_{V_ℓ} products) applied without forming
// them, so the cost stays O(nnz + n·k) per product however many nodes are
// labelled. Problem.Constraints add must-link / cannot-link edges of the
// same weights w d_i d_j (times the pair's weight) as sparse graphs; a pair
// of Constraints and the same pair from Labels give the same L_N and L_H.
//
// Enough constraints: G_H joins every node with a cannot-link (a labelled
// node when two or more classes are labelled, an end of a cannot-link pair)
// and no other, and A_K (eq. 4.7) joins all of them, so with t such nodes
// rank L_H = t − 1, and the pencil (L_N, L_H) has exactly t − 1 finite
// eigenvalues (Theorem 4.2.3(a)); Alg. 3 takes k of them. FastGE2 therefore
// needs t ≥ k + 1: labels on at least k + 1 nodes, so one label per class
// is one too few (seed 004's own example after Proposition 4.2.2: one node
// in each of V_1, V_2 gives rank L_H = 1). With fewer, Partition returns an
// error wrapping ErrInvalid that says how many are missing, before the
// eigensolve.
//
// Z is the normalized component indicators of G_N ∪ G_H, the exact common
// null space of L_N and L_H (vectors constant on the components of both
// graphs). A graph with a node of degree 0 is rejected (d_min = 0), as in the
// original method; FastGE2BH adds the self loops of seed 004 §5.2.
//
// Result: Labels; Eigenvalues the k smallest finite eigenvalues of the
// pencil (L_N, L_H); Embedding the eigenvectors, rows and columns
// normalized (Alg. 3, line 4); Objective the k-means distortion of the
// run kept, the lowest of Settings.Restarts runs (10 if 0).
//
// Cost: O(nnz + n·k) per operator product, one LOBPCG solve (dense for
// n ≤ DenseLimit), and k-means.
type FastGE2 struct {
	// Mu is μ of Theorem 4.2.5. If Mu is 0, μ = tr(L_N)/(10·tr(L_H)).
	// The eigenvectors do not depend on μ > 0.
	Mu float64 `doc:"regularization μ (0: tr(L_N)/(10·tr(L_H)))" range:"0 | [1e-12, 1e12]"`
}

// Name returns "fast-ge2".
func (FastGE2) Name() string { return "fast-ge2" }

// Uses declares what FastGE2 reads from a Problem (see Run).
func (FastGE2) Uses() Uses {
	return Uses{Supervision: Pairs | LabelSet, NeedsPairs: true, Core: true, Generalized: true,
		WeightScale: "the constraint graphs' weights d_i d_j/(d_min d_max) do not grow with the edges' (seed 004 eq. 4.2–4.6)"}
}

// Partition partitions p.Graph into p.K clusters from p.Labels and/or
// p.Constraints. Errors wrap ErrInvalid for an ill-posed problem, no
// cannot-link or fewer than p.K + 1 nodes with a cannot-link (labelled
// nodes: see FastGE2), graph.ErrIsolated for a node of degree 0.
func (f FastGE2) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, f, p, s)
	if err != nil {
		return nil, err
	}
	return fastGE2{name: "fast-ge2", mu: f.Mu}.cluster(ctx, p, s)
}

// BetheVariant selects which matrices of FAST-GE-2.0 the modified method
// of seed 004 Alg. 4 replaces by Bethe Hessians (§5.1).
type BetheVariant int

const (
	// BetheBoth replaces both, case (1) of seed 004 §5.1: FastGE2BH's
	// default since the development suite docs/results/fastge2bh-dev
	// (before it, BetheLN).
	BetheBoth BetheVariant = iota
	// BetheLN replaces only L_N by H_N, case (2) — the variant that works
	// in seed 004 §6.4 ("only L_N").
	BetheLN
	// BetheLH replaces only L_H by H_H, case (3).
	BetheLH
)

// betheVariantNames are the names of the BetheVariant values, in order.
var betheVariantNames = []string{"both", "LN", "LH"}

// String returns "both", "LN" or "LH".
func (v BetheVariant) String() string { return enum.String("BetheVariant", betheVariantNames, v) }

// MarshalText returns the name of v.
func (v BetheVariant) MarshalText() ([]byte, error) {
	return enum.Marshal("Bethe variant", betheVariantNames, v)
}

// UnmarshalText sets v from its name (both, LN or LH, any case), so that it works
// as a command-line value (tether cluster -set Variant=…) and in JSON.
func (v *BetheVariant) UnmarshalText(b []byte) error {
	return parseEnum(v, "Bethe variant", betheVariantNames, b)
}

// FastGE2BH is the modified FAST-GE-2.0 of seed 004 ch. 5, Alg. 4: a self
// loop of weight 1 is added to every node (A ← A + I, §5.2, so no degree is
// 0), and L_N and/or L_H are replaced by the Bethe Hessians
// H(r) = (r² − 1)I − rA + D of G_N and G_H (eq. 3.5, stated for unweighted
// graphs, applied to their weighted adjacency matrices as they are: the
// weighted form, eq. 3.6, needs r > max A_ij, which the constraint weights
// d_i d_j/(d_min d_max) violate). Everything else is FastGE2.
//
// The pencil is solved for its k smallest finite eigenvalues (pencil.go):
// directly when the right-hand matrix is positive definite (H_H of
// BetheBoth and BetheLH usually is: G_H has small weights), through
// Theorem 4.2.5 when M = P_N + μP_H is positive definite, and otherwise by
// the dense Schur complement (BetheLN: H_N is indefinite on the null
// space of L_H, so no μ makes M definite and seed 004's recipe gives no
// iterative method; n ≤ 3000 then).
//
// With L_H kept (BetheLN), the pencil has rank L_H = t − 1 finite
// eigenvalues for t nodes with a cannot-link, and k + 1 such nodes are
// needed, as for FastGE2 (one label per class is too few). BetheBoth and
// BetheLH replace L_H by H_H, which has full rank, and have no such limit.
//
// Which variant. The default is BetheBoth, chosen by the pre-registered
// development suite docs/results/fastge2bh-dev on generated data (18
// datasets: point sets on the default graph, SBM and DC-SBM graphs, and 3
// sparse SBM graphs of seed 004 ch. 6's kind; pairs 1/n, 5n pairs, 10%
// and 30% labels; 10 draws): mean ARI 0.768 against 0.310 for BetheLN,
// the default before, and 0.572 for BetheLH. It is ahead of BetheLN on
// both families and every supervision, the sparse SBM graphs with labels
// of the source's own setting included; level with BetheLH on point sets
// (0.856 against 0.859) and far ahead of it on the graphs (0.660 against
// 0.214); and the fastest (0.05 s per run against 0.36 s for BetheLN). Seed 004 §6.4 found "only L_N" to be the variant that works;
// on our reproduction of its Fig. 6.3 (docs/results/seed004-fig6.3)
// "both" is ahead of it below 50% labels and within 0.02 from 50% on, and
// on dense graphs of feature points BetheLN is near chance (moons, 300
// points, pairs 1/n: ARI 0.024 against 0.993). BetheLH fails on graphs
// with small components (each unlabelled component of G_N gives an exact
// eigenvalue 0). Partition warns when its partition leaves more than 10%
// of the labelled nodes outside the cluster of their class (the clusters
// matched to the classes as Run numbers them) or violates more than 20%
// of the given pairs, and says what to try.
//
// Result: Labels; Eigenvalues the k smallest finite eigenvalues of the
// pencil; Embedding the eigenvectors, rows and columns normalized (Alg.
// 3, line 4); Objective the k-means distortion of the run kept (the
// lowest of Settings.Restarts runs, 10 if 0), as for FastGE2.
//
// Cost: building the operators O(nnz + n·k); the eigensolve depends on
// the path: the pencil's own solver (dense for n ≤ DenseLimit, LOBPCG
// above, O(nnz + n·k) per product) when H_H or M is positive definite
// (BetheBoth and BetheLH); the dense Schur complement of BetheLN, when M
// is indefinite (the usual case), O(n³) time and O(n²) memory, for
// n ≤ 3000 (above, an error); then k-means.
type FastGE2BH struct {
	// Variant selects the matrices replaced; the zero value is BetheBoth.
	Variant BetheVariant `doc:"matrices replaced by Bethe Hessians: both, LN or LH"`
	// R is the Bethe Hessian parameter r, shared by H_N and H_H. Seed 004
	// §3.2 gives r = √c for the stochastic block model, c = (c_in + c_out)/2;
	// pass it when the model is known. If R is 0, r = √c with c the mean
	// degree of the self-looped graph A + I (graph.BetheR), which is > 1,
	// so H(r) never degenerates to the Laplacian (H(1) = L).
	R float64 `doc:"Bethe Hessian parameter r (0: √(mean degree of A + I))" range:"0 | (1, 1e6]"`
	// Mu is μ of Theorem 4.2.5 when that path is used. If Mu is 0,
	// μ = |tr(P_N)|/(10·|tr(P_H)|).
	Mu float64 `doc:"regularization μ (0: |tr(P_N)|/(10·|tr(P_H)|))" range:"0 | [1e-12, 1e12]"`
}

// Name returns "fast-ge2-bh".
func (FastGE2BH) Name() string { return "fast-ge2-bh" }

// Uses declares what FastGE2BH reads from a Problem (see Run).
func (FastGE2BH) Uses() Uses {
	return Uses{Supervision: Pairs | LabelSet, NeedsPairs: true, Generalized: true,
		WeightScale: "the Bethe Hessian reads the edge weights as couplings, and the constraint graphs' weights d_i d_j/(d_min d_max) do not grow with them (seed 004 ch. 5, Alg. 4)"}
}

// Partition partitions p.Graph into p.K clusters; errors as FastGE2.Partition.
func (f FastGE2BH) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, f, p, s)
	if err != nil {
		return nil, err
	}
	if f.Variant < BetheBoth || f.Variant > BetheLH {
		return nil, fmt.Errorf("%w: fast-ge2-bh: unknown variant %d", ErrInvalid, int(f.Variant))
	}
	if f.R < 0 || math.IsNaN(f.R) || math.IsInf(f.R, 0) {
		return nil, fmt.Errorf("%w: fast-ge2-bh: R = %v, want a finite value ≥ 0", ErrInvalid, f.R)
	}
	res, err := fastGE2{name: "fast-ge2-bh", mu: f.Mu, selfLoops: true, betheN: f.Variant != BetheLH, betheH: f.Variant != BetheLN, r: f.R}.cluster(ctx, p, s)
	if err != nil {
		return nil, err
	}
	if w := f.disagreement(p, res.Labels, res.K, s); w != "" {
		res.Warnings = append(res.Warnings, w)
	}
	return res, nil
}

// fastGE2BHMissedLabels and fastGE2BHViolatedPairs are the shares of the
// labelled nodes outside the cluster of their class, and of the given
// pairs violated, above which FastGE2BH warns (disagreement). A partition
// that follows the supervision misses none given clean labels; one near
// chance misses about (k − 1)/k of them, and violates about half of the
// pairs at k = 2. The pairs' share is the higher, so that a noisy pair
// set, which every method violates in part, warns only when well beyond
// its noise.
const (
	fastGE2BHMissedLabels  = 0.1
	fastGE2BHViolatedPairs = 0.2
)

// disagreement returns FastGE2BH's warning when labels, its partition of
// p into k clusters (before Run numbers the clusters by the classes),
// leaves more than fastGE2BHMissedLabels of p's labelled nodes outside
// the cluster of their class, with the clusters matched to the classes
// as Run matches them (alignToLabels), or violates more than
// fastGE2BHViolatedPairs of p's pairs; "" otherwise. The remedy is spelled
// by s (Settings.Spelling). Cost O(n + pairs + k³).
func (f FastGE2BH) disagreement(p *Problem, labels []int, k int, s *Settings) string {
	var what []string
	if given := len(p.Labels.Labeled()); given > 0 {
		aligned := slices.Clone(labels)
		alignToLabels(aligned, k, p.Labels)
		missed := 0
		for i, c := range p.Labels {
			if c != constraint.Unlabeled && aligned[i] != c {
				missed++
			}
		}
		if float64(missed) > fastGE2BHMissedLabels*float64(given) {
			what = append(what, fmt.Sprintf("puts %d of the %d labelled nodes outside the cluster of their class (more than %.0f%%)", missed, given, 100*fastGE2BHMissedLabels))
		}
	}
	if p.Constraints != nil && len(p.Constraints.Pairs) > 0 {
		violated := 0
		for _, q := range p.Constraints.Pairs {
			if !pairSatisfied(q, labels) {
				violated++
			}
		}
		if given := len(p.Constraints.Pairs); float64(violated) > fastGE2BHViolatedPairs*float64(given) {
			what = append(what, fmt.Sprintf("violates %d of the %d given pairs (more than %.0f%%)", violated, given, 100*fastGE2BHViolatedPairs))
		}
	}
	if len(what) == 0 {
		return ""
	}
	if f.Variant != BetheBoth {
		try := "try the default, Variant both " + s.remedy("FastGE2BH.Variant = BetheBoth", "set", "Variant=both") + ", or fast-ge2"
		return fmt.Sprintf("fast-ge2-bh: the partition %s: unless the supervision is that noisy, Variant %v does not suit this graph (LN can be near chance on dense k-NN or RBF graphs of feature points, LH on graphs with small components; docs/results/fastge2bh-dev); %s", strings.Join(what, " and "), f.Variant, try)
	}
	return fmt.Sprintf("fast-ge2-bh: the partition %s: unless the supervision is that noisy, the Bethe Hessians do not suit this graph; try fast-ge2, or another method of the supervision", strings.Join(what, " and "))
}

// fastGE2 is the shared implementation of FastGE2 and FastGE2BH.
type fastGE2 struct {
	name           string
	mu             float64
	selfLoops      bool
	betheN, betheH bool
	r              float64
}

// fastGE2Graphs are the adjacency operators of G_N and G_H and the
// partition whose indicators span the common null space of L_N and L_H.
type fastGE2Graphs struct {
	an, ah *symOp
	comp   []int
	count  int
}

// buildFastGE2 builds A_N and A_H (seed 004 eq. 4.2–4.7, 4.10) on g from
// the label sets of labels (may be nil) and the pairs (may be empty).
func buildFastGE2(g *graph.Graph, labels constraint.Labels, pairs []constraint.Pair, name string) (*fastGE2Graphs, error) {
	n := g.N()
	d := g.Degrees()
	dmin, dmax, err := degreeRange(d, name)
	if err != nil {
		return nil, err
	}
	w := 1 / (dmin * dmax)
	if math.IsInf(w, 0) || w == 0 {
		return nil, fmt.Errorf("%w: %s: the constraint scale 1/(d_min d_max) = 1/(%v·%v) is %v: the graph's weights are out of floating-point range", ErrNumerical, name, dmin, dmax, w)
	}
	uf := unionfind.New(n)
	for i := 0; i < n; i++ {
		idx, _ := g.Row(i)
		for _, j := range idx {
			uf.Union(i, int(j))
		}
	}
	var ml, cl []graph.Edge
	for t, q := range pairs {
		e := graph.Edge{I: q.I, J: q.J, W: q.W() * w * d[q.I] * d[q.J]}
		if math.IsInf(e.W, 0) || math.IsNaN(e.W) {
			return nil, fmt.Errorf("%w: %s: pair %d (%d,%d): its weight w·d_i d_j/(d_min d_max) = %v·%v·%v/(%v·%v) is %v: the graph or constraint weights are out of floating-point range", ErrNumerical, name, t, q.I, q.J, q.W(), d[q.I], d[q.J], dmin, dmax, e.W)
		}
		if q.Kind == constraint.MustLink {
			ml = append(ml, e)
		} else {
			e.W *= 2 // A_C + A_Cᵀ with A_C symmetric, as for label sets
			cl = append(cl, e)
		}
		uf.Union(q.I, q.J)
	}
	gml, err := graph.FromEdges(n, ml)
	if err != nil {
		return nil, fmt.Errorf("cluster: %s: must-link graph: %w", name, err)
	}
	gcl, err := graph.FromEdges(n, cl)
	if err != nil {
		return nil, fmt.Errorf("cluster: %s: cannot-link graph: %w", name, err)
	}
	an := &symOp{n: n, parts: []scaledGraph{{g, 1}, {gml, 1}}}
	acc := &symOp{n: n, parts: []scaledGraph{{gcl, 1}}}
	if labels != nil {
		// u_ℓ = √w d ⊙ 1_{V_ℓ}: A_M = Σ u_ℓ u_ℓᵀ (eq. 4.3, diagonal
		// included), A_C + A_Cᵀ = 2(uuᵀ − Σ u_ℓ u_ℓᵀ) with u = Σ u_ℓ.
		sets := constraint.LabelsToSets(labels)
		var cols [][]float64
		u := make([]float64, n)
		for _, set := range sets {
			if len(set) == 0 {
				continue
			}
			c := make([]float64, n)
			for _, i := range set {
				c[i] = math.Sqrt(w) * d[i]
				u[i] = c[i]
				uf.Union(i, set[0])
			}
			cols = append(cols, c)
		}
		if len(cols) > 0 {
			ones := make([]float64, len(cols))
			for j := range ones {
				ones[j] = 1
			}
			an.addLowRank(cols, ones)
			coef := []float64{2}
			for range cols {
				coef = append(coef, -2)
			}
			acc.addLowRank(append([][]float64{u}, cols...), coef)
		}
	}
	dk := acc.rowSums()
	var volK float64
	first := -1
	for i, v := range dk {
		volK += v
		if v > 0 {
			if first < 0 {
				first = i
			}
			uf.Union(i, first)
		}
	}
	if math.IsInf(volK, 0) || math.IsNaN(volK) {
		return nil, fmt.Errorf("%w: %s: the volume of the cannot-link graph G_C overflowed to %v: the graph or constraint weights are out of floating-point range", ErrNumerical, name, volK)
	}
	if !(volK > 0) {
		return nil, noSupervision("%s: no cannot-link: FAST-GE-2.0 needs at least two non-empty constraint sets (or cannot-link pairs)", name)
	}
	m := float64(n)
	ah := &symOp{n: n, parts: []scaledGraph{{gcl, 1 / m}}}
	if acc.u != nil {
		_, q := acc.u.Dims()
		cols := make([][]float64, q)
		coef := make([]float64, q)
		for j := range cols {
			cols[j] = make([]float64, n)
			for i := range cols[j] {
				cols[j][i] = acc.u.At(i, j)
			}
			coef[j] = acc.coef[j] / m
		}
		ah.addLowRank(cols, coef)
	}
	ah.addLowRank([][]float64{dk}, []float64{1 / (volK * m)})
	comp, count := uf.Labels()
	return &fastGE2Graphs{an: an, ah: ah, comp: comp, count: count}, nil
}

// cannotLinkNodes counts the nodes of an n-node problem with a cannot-link
// in FAST-GE-2.0's G_H: with labels on two or more classes every labelled
// node (eq. 4.6), and the ends of the cannot-link pairs. It returns that
// count t, the labelled nodes, the labelled classes and the cannot-link
// pairs. rank L_H = t − 1 when t > 0 (A_K joins the t nodes, eq. 4.7).
// Cost O(n + len(pairs)).
func cannotLinkNodes(n int, labels constraint.Labels, pairs []constraint.Pair) (t, labelled, classes, cl int) {
	on := make([]bool, n)
	seen := map[int]bool{}
	for _, c := range labels {
		if c >= 0 {
			labelled++
			seen[c] = true
		}
	}
	classes = len(seen)
	if classes >= 2 {
		for i, c := range labels {
			if c >= 0 && i < n {
				on[i] = true
			}
		}
	}
	for _, q := range pairs {
		if q.Kind == constraint.CannotLink && q.I != q.J && q.I >= 0 && q.J >= 0 && q.I < n && q.J < n {
			on[q.I], on[q.J] = true, true
			cl++
		}
	}
	for _, v := range on {
		if v {
			t++
		}
	}
	return t, labelled, classes, cl
}

// fastGE2Enough returns nil when the supervision of an n-node problem gives
// FAST-GE-2.0's pencil (L_N, L_H) at least k finite eigenvalues, that is
// k + 1 nodes with a cannot-link (see FastGE2), and otherwise an error
// wrapping ErrInvalid saying what is missing and which methods work with
// so little. name is the method's name. No cannot-link at all is left to
// buildFastGE2's error.
func fastGE2Enough(name string, k, n int, labels constraint.Labels, pairs []constraint.Pair) error {
	t, labelled, classes, cl := cannotLinkNodes(n, labels, pairs)
	if t == 0 || t >= k+1 {
		return nil
	}
	nodes := "nodes with a cannot-link"
	more := fmt.Sprintf("%d more node", k+1-t)
	if k+1-t > 1 {
		more += "s"
	}
	var what, todo, others string
	switch {
	case cl == 0:
		nodes = "labelled nodes"
		what = fmt.Sprintf("needs labels on at least k + 1 = %d nodes (in 2 or more classes); got %d (%s)", k+1, labelled, wording.Count(classes, "class", "classes"))
		todo = "label " + more + " (any class), or use a method that works with one label per class: labelprop, noa-ssc, mavro-k, sl, csc or fast-ge"
	case classes < 2:
		what = fmt.Sprintf("needs cannot-links on at least k + 1 = %d distinct nodes; got %d (%s)", k+1, t, wording.Count(cl, "cannot-link pair", "cannot-link pairs"))
		todo = "add cannot-links touching " + more + ", or use a method that works with so few: fast-ge, csc, sl, cosc or fgpwc"
	default:
		what = fmt.Sprintf("needs at least k + 1 = %d nodes with a cannot-link (labelled nodes, and ends of cannot-link pairs); got %d", k+1, t)
		todo = "label or cannot-link " + more + ", or use a method that works with so few: labelprop, noa-ssc, sl, csc or fast-ge"
	}
	why := fmt.Sprintf("its pencil (L_N, L_H) has one finite generalized eigenvalue fewer than there are %s, %d here, and it takes k (seed 004 Theorem 4.2.3, Alg. 3)", nodes, t-1)
	if name == "fast-ge2-bh" {
		others = " (or Variant LH or both, whose H_H has full rank)"
	}
	return fmt.Errorf("%w: %s: too little supervision for k = %d: it %s: %s; %s%s", ErrInvalid, name, k, what, why, todo, others)
}

func (f fastGE2) cluster(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	if f.mu < 0 || math.IsNaN(f.mu) || math.IsInf(f.mu, 0) {
		return nil, fmt.Errorf("%w: %s: Mu = %v, want a finite value ≥ 0", ErrInvalid, f.name, f.mu)
	}
	g := p.Graph
	var warnings []string
	if f.selfLoops {
		var err error
		if g, err = g.WithSelfLoops(1); err != nil {
			return nil, wrapMethod(f.name, err)
		}
	}
	r := f.r
	if r == 0 {
		r = graph.BetheR(g)
	}
	var pairs []constraint.Pair
	if p.Constraints != nil {
		pairs = p.Constraints.Pairs
	}
	gs, err := buildFastGE2(g, p.Labels, pairs, f.name)
	if err != nil {
		return nil, err
	}
	if !f.betheH {
		if err := fastGE2Enough(f.name, p.K, g.N(), p.Labels, pairs); err != nil {
			return nil, err
		}
	}
	var pn, ph *formOp
	if f.betheN {
		pn = betheOf(gs.an, r)
	} else {
		pn = laplacianOf(gs.an)
	}
	if f.betheH {
		ph = betheOf(gs.ah, r)
	} else {
		ph = laplacianOf(gs.ah)
	}
	n := g.N()
	trN, trH := math.Abs(pn.trace()), math.Abs(ph.trace())
	mu := f.mu
	if mu == 0 {
		mu = trN / (10 * trH)
	}
	opt := pencilOptions{mu: mu, singularL: !f.betheH}
	if !f.betheN && !f.betheH {
		opt.z = newCompOp(gs.comp, gs.count, trN/float64(n))
		opt.definiteM = true
		if gs.count > 1 {
			warnings = append(warnings, fmt.Sprintf("%s: G_N ∪ G_H has %d components; nodes of components without constraints get a zero embedding row", f.name, gs.count))
		}
	}
	pr, err := solvePencil(ctx, pn, ph, p.K, opt, s)
	if err != nil {
		return nil, methodError(f.name, "eigenpairs of the pencil (P_N, P_H)", tinyWeightsHint(g, "M = P_N + μP_H + ZSZᵀ", err))
	}
	warnings = append(warnings, pr.warnings...)
	if pr.path == "dense" {
		warnings = append(warnings, fmt.Sprintf("%s: P_N + μP_H is indefinite; the pencil was solved by the dense Schur complement", f.name))
	}
	x := pr.vectors
	if w := zeroRowsWarning(f.name, columnRowNormalize(x, s.rowTol(n)), n); w != "" {
		warnings = append(warnings, w)
	}
	res, err := partition(ctx, x, p.K, s.derive(streamFastGE), 10, nil)
	if err != nil {
		return nil, cancelledIn(f.name, "k-means on the eigenvectors", err)
	}
	res.Eigenvalues, res.Warnings = pr.values, warnings
	return res, nil
}

// ensure the operators satisfy eigen.Operator.
var (
	_ eigen.Operator = (*symOp)(nil)
	_ eigen.Operator = (*formOp)(nil)
	_ eigen.Operator = (*compOp)(nil)
	_ eigen.Operator = (*comboOp)(nil)
)
