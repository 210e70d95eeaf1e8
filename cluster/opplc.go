package cluster

import (
	"context"
	"fmt"
	"math"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/internal/enum"
	"github.com/tether-sc/tether/internal/wording"
)

// OPPLC is one-pass power-law clustering (thesis §5.3, Alg. 17): a greedy,
// deterministic reading of the Pitman–Yor Chinese restaurant process in
// which the nodes arrive in index order (the reading order of mentions in a
// document) and each either links to one earlier node, joining its
// cluster, or starts a new cluster. With W ∈ [0,1] the similarity graph,
// n_j the size of the current cluster of node j and k the current number of
// clusters, node i > 0 scores
//
//	f(i ∼ j) = W_ij·(1 − θ/n_j)                  for every j < i,
//	f(i)     = Π_{j<i} (1 − W_ij)·(α + kθ)        (a new cluster),
//
// and links to ĵ = argmax f(i ∼ j) over the j < i whose cluster holds no
// node cannot-linked to i, if f(i ∼ ĵ) > f(i); otherwise (or when every
// earlier cluster is cannot-linked to i) it starts a new cluster. Node 0
// starts the first cluster. Summed over the n_c nodes of a cluster c, the
// factor 1 − θ/n_c gives the Pitman–Yor weight n_c − θ of joining c, and
// α + kθ is the Pitman–Yor weight of a new table (SPEC §8): OPPLC links
// nodes rather than assigning them to clusters, as the thesis does (it
// reports that linking scored better). Clusters are never merged: a node's
// cluster is fixed when it is read, so Alg. 17's left-context assumption
// is that a node's cluster can be told from the nodes before it.
//
// # Reading of the thesis
//
// The printed Alg. 17 stops after line 6 ("if f(i ∼ ĵ) > f(i) then link
// node i and ĵ"); the else branch starts a new cluster (SPEC §8; the text
// before the listing: "otherwise … the node is assigned to a new
// cluster"). The text says "with probability proportional to"; Alg. 17
// takes the argmax, which is what OPPLC does (no randomness: Settings.Seed
// is unused). Further choices, where the thesis is silent:
//   - The product of f(i) runs over every j < i, cannot-linked nodes
//     included, as printed; entries absent from a sparse W are 0 and
//     contribute a factor 1, so only the stored entries j < i matter.
//   - A tie f(i ∼ ĵ) = f(i) starts a new cluster (the test is strict, as
//     printed). Ties among the candidates go to the nearest one, the
//     largest j (the closest antecedent, as in coreference).
//   - A node with no stored neighbour before it has f(i ∼ j) = 0 ≤ f(i)
//     and starts a new cluster; so does one whose only earlier neighbours
//     have weight 0 after scaling.
//   - Must-links are not used (the thesis uses cannot-links only); the
//     Result warns when there are any. Cannot-links are hard whatever their
//     weight: Alg. 17 only excludes the clusters of cannot-linked nodes,
//     and a soft exclusion (a factor on f(i ∼ j)) would be a method of
//     our own, so the Result warns when a cannot-link's Pair.W() is not 1
//     (the weights are ignored). Partial labels become pairs (see
//     MaxLabelPairs), of which the cannot-links are used.
//   - The self-loop W_ii and the entries j > i are not read.
//
// # Weights and k
//
// W must lie in [0,1], since 1 − W_ij is read as the chance that i does not
// link to j. Scale says how a general affinity gets there: OPPLCScaleNone
// (the default) requires every stored off-diagonal weight to be at most 1
// and returns an error wrapping ErrInvalid naming the first that is not;
// OPPLCScaleMax divides every weight by the largest off-diagonal one.
// Gaussian (RBF) graphs and logistic similarities are already in [0,1].
//
// OPPLC estimates k (Uses.EstimatesK): K = 0 asks for it. A K > 0 does not
// change the partition, which OPPLC cannot steer to a given k without
// leaving Alg. 17; the Result warns when the k found differs from K.
//
// Result.Objective is the sum of the weights W_iĵ of the links made (the
// weight of the forest OPPLC builds); Result.Iterations is n.
//
// OPPLCOnline is the variant of §5.3.2 whose scores are linear in pair
// and node features and learned online.
//
// Cost: O(n + nnz + C) time, for C the number of constraint pairs, and O(n
// + C) memory beyond the graph: one pass over the rows, reading the
// entries j < i, and one over the cannot-links. Logarithms keep f(i) from
// underflowing on nodes with many neighbours.
type OPPLC struct {
	// Alpha is the Pitman–Yor concentration α of f(i), with α > −Theta.
	// NewOPPLC sets 0, the best of the thesis's grid on CoNLL-2012
	// (§5.3.4). The zero OPPLC{} has α = θ = 0, which is refused.
	Alpha float64 `doc:"Pitman–Yor concentration α, α > −θ (NewOPPLC: 0)" range:"(-1, 1e9]"`
	// Theta is the Pitman–Yor discount θ ∈ [0, 1). NewOPPLC sets 0.1, the
	// best of the thesis's grid (§5.3.4).
	Theta float64 `doc:"Pitman–Yor discount θ in [0, 1), with α > −θ: θ = 0 needs α > 0 (NewOPPLC: 0.1)" range:"[0, 1)"`
	// Scale maps the affinity to [0,1]: OPPLCScaleNone (the zero value)
	// requires it there, OPPLCScaleMax divides by the largest weight.
	Scale OPPLCScale `doc:"mapping of W to [0,1]: none (require it) or max (divide by the largest weight)"`
}

// NewOPPLC returns OPPLC with the parameters the thesis found best on
// CoNLL-2012 (§5.3.4): α = 0, θ = 0.1, and no scaling.
func NewOPPLC() OPPLC { return OPPLC{Alpha: 0, Theta: 0.1} }

// OPPLCScale selects how OPPLC maps a graph's weights to [0,1].
type OPPLCScale int

const (
	// OPPLCScaleNone uses the weights as they are and refuses any above 1.
	OPPLCScaleNone OPPLCScale = iota
	// OPPLCScaleMax divides every weight by the largest off-diagonal
	// weight of the graph, so the strongest pair has W = 1 (and f(i) = 0
	// for the node that reads it: it links whenever it may).
	OPPLCScaleMax
)

var opplcScaleNames = []string{"none", "max"}

// String returns "none" or "max".
func (v OPPLCScale) String() string { return enum.String("OPPLCScale", opplcScaleNames, v) }

// MarshalText returns the name of v.
func (v OPPLCScale) MarshalText() ([]byte, error) {
	return enum.Marshal("scale", opplcScaleNames, v)
}

// UnmarshalText sets v from its name, "none" or "max".
func (v *OPPLCScale) UnmarshalText(b []byte) error { return parseEnum(v, "scale", opplcScaleNames, b) }

// Name returns "opplc".
func (OPPLC) Name() string { return "opplc" }

// Uses declares what OPPLC reads: the graph and cannot-links; it estimates k.
// OPPLC reads cannot-links only, so no must-link can contradict them:
// it declares Resolves, and warns itself about the must-links it ignores.
//
// WeightScale is declared unless Scale is OPPLCScaleMax, which divides
// the weights by the largest. It declares NoKEigensolve: one pass over
// the nodes in index order (Alg. 17), no eigensolve at all.
func (o OPPLC) Uses() Uses {
	u := Uses{Supervision: Pairs, EstimatesK: true, FindsK: true, Resolves: true, NoKEigensolve: true}
	if o.Scale != OPPLCScaleMax {
		u.WeightScale = "W_ij and 1 − W_ij weigh linking and opening a cluster (thesis Alg. 17)"
	}
	return u
}

// opplcCheckEvery is the number of nodes between two context checks.
const opplcCheckEvery = 1 << 12

// Partition runs Alg. 17 on p.Graph in index order.
func (o OPPLC) Partition(ctx context.Context, p *Problem, s *Settings) (*Result, error) {
	s, err := partitionArgs(ctx, o, p, s)
	if err != nil {
		return nil, err
	}
	if !(o.Theta >= 0 && o.Theta < 1) {
		return nil, knobInvalid("opplc: θ = %v, want 0 ≤ θ < 1", o.Theta)
	}
	if !(o.Alpha > -o.Theta) || math.IsInf(o.Alpha, 1) {
		return nil, knobInvalid("opplc: α = %v ≤ −θ = %v, want α > −θ (the Pitman–Yor range; NewOPPLC gives α = 0, θ = 0.1)", o.Alpha, 0-o.Theta) // 0 − θ: never "-0"
	}
	if o.Scale != OPPLCScaleNone && o.Scale != OPPLCScaleMax {
		return nil, fmt.Errorf("%w: opplc: unknown scale %d", ErrInvalid, int(o.Scale))
	}
	g := p.Graph
	n := g.N()
	scale := 1.0
	if o.Scale == OPPLCScaleMax {
		wmax := 0.0
		for i := 0; i < n; i++ {
			idx, w := g.Row(i)
			for t, j := range idx {
				if int(j) < i {
					wmax = max(wmax, w[t])
				}
			}
		}
		if wmax > 0 {
			scale = 1 / wmax
		}
	}
	pairs, warn, err := supervisionPairsContext(ctx, o.Name(), p, s, allPairs)
	if err != nil {
		return nil, err
	}
	// cl lists, for each node i, the earlier nodes j < i cannot-linked to
	// it (CSR).
	clPtr := make([]int, n+1)
	ml, weighted := 0, 0
	for _, pr := range pairs {
		switch pr.Kind {
		case constraint.CannotLink:
			clPtr[max(pr.I, pr.J)+1]++
			if pr.W() != 1 {
				weighted++
			}
		case constraint.MustLink:
			ml++
		}
	}
	for i := 0; i < n; i++ {
		clPtr[i+1] += clPtr[i]
	}
	clIdx := make([]int, clPtr[n])
	fill := append([]int(nil), clPtr[:n]...)
	for _, pr := range pairs {
		if pr.Kind == constraint.CannotLink {
			hi, lo := max(pr.I, pr.J), min(pr.I, pr.J)
			clIdx[fill[hi]] = lo
			fill[hi]++
		}
	}
	if ml > 0 {
		warn = append(warn, fmt.Sprintf("opplc ignores the %s (it uses cannot-links only)", wording.Count(ml, "must-link", "must-links")))
	}
	if weighted > 0 {
		warn = append(warn, fmt.Sprintf("opplc ignores the pair weights of %s whose weight is not 1: its cannot-links are hard (thesis Alg. 17 has no soft form)", wording.Count(weighted, "cannot-link", "cannot-links")))
	}

	labels := make([]int, n)
	// Node 0 starts cluster 0 (Run guarantees n ≥ 1).
	size := []int{1}    // size[c] = n_c
	forbid := []int{-1} // forbid[c] = i when cluster c is cannot-linked to node i
	objective := 0.0
	for i := 1; i < n; i++ {
		if i%opplcCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, cancelledIn("opplc", fmt.Sprintf("pass over the nodes, at node %d of %d", i, n), err)
			}
		}
		for _, j := range clIdx[clPtr[i]:clPtr[i+1]] {
			forbid[labels[j]] = i
		}
		k := len(size)
		logNone := 0.0 // ln Π_{j<i} (1 − W_ij)
		best, bestJ, bestW := 0.0, -1, 0.0
		idx, w := g.Row(i)
		for t, jj := range idx {
			j := int(jj)
			if j >= i {
				break // rows are sorted
			}
			wij := w[t] * scale
			if wij > 1 {
				if o.Scale == OPPLCScaleNone {
					return nil, fmt.Errorf("%w: opplc: W(%d, %d) = %v is above 1; OPPLC needs W in [0,1] (set Scale = max to divide by the largest weight)", ErrInvalid, i, j, w[t])
				}
				wij = 1 // rounding of w/wmax
			}
			logNone += math.Log1p(-wij)
			c := labels[j]
			if forbid[c] == i {
				continue
			}
			if f := wij * (1 - o.Theta/float64(size[c])); f >= best && f > 0 {
				best, bestJ, bestW = f, j, wij
			}
		}
		// Link iff f(i ∼ ĵ) > f(i) = exp(logNone)·(α + kθ), compared in
		// logarithms (α + kθ > 0 since k ≥ 1, θ ≥ 0 and α > −θ).
		if bestJ >= 0 && math.Log(best) > logNone+math.Log(o.Alpha+float64(k)*o.Theta) {
			c := labels[bestJ]
			labels[i] = c
			size[c]++
			objective += bestW
			continue
		}
		labels[i] = k
		size = append(size, 1)
		forbid = append(forbid, -1)
	}
	res := &Result{Labels: labels, K: len(size), Objective: objective, Iterations: n, Warnings: warn}
	if p.K > 0 && p.K != res.K {
		res.Warnings = append(res.Warnings, fmt.Sprintf("opplc estimates k: found %s, K = %d does not change the partition", wording.Count(res.K, "cluster", "clusters"), p.K))
	}
	return res, nil
}
