package metrics

import (
	"fmt"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
)

// Options says which optional figures Evaluate computes. A nil *Options
// means the zero value: no graph, no constraints, default sizes and limit.
type Options struct {
	// Graph, if not nil, adds the cut, ratio cut and Ncut of both
	// partitions on it. It must have one node per label.
	Graph *graph.Graph
	// Constraints, if not nil, adds the numbers of violated must-links and
	// cannot-links of the prediction. Its N must equal the number of labels.
	Constraints *constraint.Set
	// MinSizes are the minimum reference cluster sizes s for which the
	// per-class micro-averaged F1 of seed 003 §5.2 is reported (figure
	// "class_f1_min<s>"). If nil, DefaultMinSizes is used; an empty non-nil
	// slice reports none. A size no truth class reaches is skipped.
	MinSizes []int
	// MaxClusters bounds max(k₁, k₂) for the figures that need an optimal
	// alignment (accuracy, CEAF, CoNLL), which cost O(k³) time and O(k₁k₂)
	// memory; above it they are skipped with a note. If MaxClusters is 0,
	// DefaultMaxClusters is used; a negative value means no limit.
	MaxClusters int
	// Unlabeled, if true, leaves out of the comparison the items whose
	// truth label is constraint.Unlabeled (−1): they have no known class.
	// The constraint and graph figures still use the whole prediction; the
	// truth cut figures are then skipped. If false, −1 is a label like any
	// other.
	Unlabeled bool
	// Unconstrained, if true and Constraints is not nil, adds the figures
	// of the FGPWC tables (seed 003 §5.1): ari_unconstrained, the ARI over
	// the pairs not in the constraint set (UnconstrainedARI), and
	// ari_free and nmi_free, the ARI and NMI over the items that no
	// constraint touches.
	Unconstrained bool
}

// DefaultMinSizes are the class sizes used when Options.MinSizes is nil.
var DefaultMinSizes = []int{2, 5, 10}

// DefaultMaxClusters is the alignment limit used when Options.MaxClusters
// is 0: a 4000×4000 assignment takes seconds and 128 MB.
const DefaultMaxClusters = 4000

// Figure is one named number of a Report.
type Figure struct {
	// Name is a stable identifier such as "ari" or "nmi_joint".
	Name string `json:"name"`
	// Value is the figure; it is always finite.
	Value float64 `json:"value"`
	// Description says what the number is and where it comes from.
	Description string `json:"description"`
}

// Report lists every figure Evaluate computed, in a stable order.
type Report struct {
	// N is the number of items compared, Unlabeled the number left out
	// (see Options.Unlabeled).
	N             int      `json:"n"`
	Unlabeled     int      `json:"unlabeled,omitempty"`
	TruthClusters int      `json:"truth_clusters"`
	PredClusters  int      `json:"pred_clusters"`
	Figures       []Figure `json:"figures"`
	// Notes explain skipped figures.
	Notes []string `json:"notes,omitempty"`
}

// Get returns the value of the named figure and whether it is present.
func (r Report) Get(name string) (float64, bool) {
	for _, f := range r.Figures {
		if f.Name == name {
			return f.Value, true
		}
	}
	return 0, false
}

// Evaluate computes every figure of this package comparing pred with truth,
// plus the graph and constraint figures that opt asks for. The figures come
// in this order: pair counting (rand, ari, pair_*, fowlkes_mallows),
// information theory (entropies and mutual information in nats, nmi_* for
// each Normalization, ami, vi, homogeneity, completeness, v_measure), matching (purity,
// inverse_purity, accuracy), coreference (muc_*, b3_*, ceafm_f1, ceafe_*,
// conll, class_f1_min*), constraints (ml_violated, cl_violated, and with
// Options.Unconstrained ari_unconstrained, ari_free, nmi_free) and graph
// cuts (cut, ratio_cut, ncut for the prediction, *_truth for the
// reference). Errors are those of NewContingency (computed on the
// compared items), CutFigures and Violations. Cost O(n + nnz(W) + pairs + k³).
func Evaluate(truth, pred []int, opt *Options) (Report, error) {
	if opt == nil {
		opt = &Options{}
	}
	if len(truth) != len(pred) {
		return Report{}, fmt.Errorf("%w: %d truth labels, %d predicted labels", ErrLength, len(truth), len(pred))
	}
	ct, cp, skipped := truth, pred, 0
	var kept []int // indices of the compared items when some are skipped
	if opt.Unlabeled {
		ct, cp = nil, nil
		for i, t := range truth {
			if t == constraint.Unlabeled {
				skipped++
				continue
			}
			ct = append(ct, t)
			cp = append(cp, pred[i])
			kept = append(kept, i)
		}
		if len(ct) == 0 && len(truth) > 0 {
			return Report{}, fmt.Errorf("%w: none of the %d reference labels is known", ErrEmpty, len(truth))
		}
	}
	c, err := NewContingency(ct, cp)
	if err != nil {
		return Report{}, err
	}
	r := Report{N: c.N(), Unlabeled: skipped, TruthClusters: c.Rows(), PredClusters: c.Cols()}
	if skipped > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("%d items without a reference label left out of the comparison", skipped))
	}
	add := func(name string, v float64, desc string) {
		r.Figures = append(r.Figures, Figure{Name: name, Value: v, Description: desc})
	}
	addPRF := func(prefix string, s PRF, desc string) {
		add(prefix+"_precision", s.Precision, desc+" precision")
		add(prefix+"_recall", s.Recall, desc+" recall")
		add(prefix+"_f1", s.F1, desc+" F1")
	}

	add("rand", c.RandIndex(), "Rand index (thesis eq. 2.5.6; seed 002 eq. 47)")
	add("ari", c.ARI(), "adjusted Rand index (thesis eq. 2.5.9; Hubert & Arabie 1985)")
	addPRF("pair", c.Pairwise(), "pair-counting")
	add("fowlkes_mallows", c.FowlkesMallows(), "Fowlkes-Mallows index TP/sqrt((TP+FP)(TP+FN)) (Fowlkes & Mallows 1983)")

	add("entropy_truth", c.EntropyTruth(), "entropy of the reference, nats")
	add("entropy_pred", c.EntropyPred(), "entropy of the prediction, nats")
	add("joint_entropy", c.JointEntropy(), "joint entropy, nats (thesis eq. 2.5.11)")
	add("mutual_info", c.MutualInfo(), "mutual information, nats")
	nmiDesc := map[Normalization]string{
		Arithmetic: "NMI 2I/(H1+H2) (seed 001 eq. 5.12; seed 004 eq. 6.3; scikit-learn default)",
		Joint:      "NMI I/H(joint) (thesis eq. 2.5.10)",
		Max:        "NMI I/max(H1,H2)",
		Geometric:  "NMI I/sqrt(H1*H2) (Strehl & Ghosh 2002)",
		Min:        "NMI I/min(H1,H2)",
	}
	for _, z := range Normalizations {
		add("nmi_"+z.String(), c.NMI(z), nmiDesc[z])
	}
	limit := opt.MaxClusters
	if limit == 0 {
		limit = DefaultMaxClusters
	}
	align := limit < 0 || max(c.Rows(), c.Cols()) <= limit
	if align {
		add("ami", c.AMI(), "adjusted mutual information, arithmetic normalization (Vinh et al. 2010; scikit-learn default)")
	}
	add("vi", c.VI(), "variation of information, nats (thesis eq. 2.5.12; Meilă 2007)")
	add("homogeneity", c.Homogeneity(), "homogeneity I/H(truth) (Rosenberg & Hirschberg 2007)")
	add("completeness", c.Completeness(), "completeness I/H(pred)")
	add("v_measure", c.VMeasure(), "V-measure, harmonic mean of the two")

	add("purity", c.Purity(), "purity (seed 001 eq. 5.11)")
	add("inverse_purity", c.InversePurity(), "purity with truth and prediction swapped")
	if align {
		add("accuracy", c.Accuracy(), "accuracy under the best cluster-to-class map (seed 002 eq. 45-46)")
	}
	addPRF("muc", c.MUC(), "MUC (thesis eq. 2.5.1; Vilain et al. 1995)")
	addPRF("b3", c.B3(), "B-cubed (thesis eq. 2.5.2; Bagga & Baldwin 1998)")
	if align {
		add("ceafm_f1", c.CEAFm().F1, "mention-based CEAF F1 = precision = recall (Luo 2005)")
		e := c.CEAFe()
		addPRF("ceafe", e, "entity-based CEAF (thesis eq. 2.5.3-2.5.4; Luo 2005)")
		add("conll", (c.MUC().F1+c.B3().F1+e.F1)/3, "CoNLL score, mean of MUC, B-cubed and CEAF_e F1 (thesis §2.5)")
	} else {
		r.Notes = append(r.Notes, fmt.Sprintf("AMI, accuracy, CEAF and CoNLL skipped: %d clusters exceed the alignment limit %d", max(c.Rows(), c.Cols()), limit))
	}
	sizes := opt.MinSizes
	if sizes == nil {
		sizes = DefaultMinSizes
	}
	for _, s := range sizes {
		f, count := c.ClassF1(s)
		if count == 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("class_f1_min%d skipped: no reference cluster has %d items", s, s))
			continue
		}
		over := fmt.Sprintf("the %d reference clusters", count)
		if count == 1 {
			over = "the 1 reference cluster"
		}
		add(fmt.Sprintf("class_f1_min%d", s), f.F1, fmt.Sprintf("micro-averaged F1 over %s of size >= %d (seed 003 §5.2)", over, s))
	}

	if opt.Constraints != nil {
		ml, cl, err := Violations(opt.Constraints, pred)
		if err != nil {
			return Report{}, err
		}
		nml, ncl := opt.Constraints.Count()
		add("ml_violated", float64(ml), fmt.Sprintf("must-links split by the prediction (of %d)", nml))
		add("cl_violated", float64(cl), fmt.Sprintf("cannot-links inside a predicted cluster (of %d)", ncl))
		if opt.Unconstrained {
			if err := addUnconstrained(add, &r, ct, cp, kept, opt.Constraints); err != nil {
				return Report{}, err
			}
		}
	}
	if opt.Graph != nil {
		p, err := CutFigures(opt.Graph, pred)
		if err != nil {
			return Report{}, err
		}
		add("cut", p.Cut, "weight of the edges between predicted clusters")
		add("ratio_cut", p.RatioCut, "ratio cut of the prediction (thesis eq. 2.3.2)")
		add("ncut", p.Ncut, "normalized cut of the prediction (thesis eq. 2.3.3)")
		if skipped > 0 {
			r.Notes = append(r.Notes, "cut figures of the reference skipped: it is incomplete")
		} else {
			t, err := CutFigures(opt.Graph, truth)
			if err != nil {
				return Report{}, err
			}
			add("cut_truth", t.Cut, "weight of the edges between reference clusters")
			add("ratio_cut_truth", t.RatioCut, "ratio cut of the reference (thesis eq. 2.3.2)")
			add("ncut_truth", t.Ncut, "normalized cut of the reference (thesis eq. 2.3.3)")
		}
	}
	return r, nil
}

// addUnconstrained adds the figures of Options.Unconstrained for the
// compared items truth and pred; kept maps them to the constraint set's
// nodes (nil: the identity).
func addUnconstrained(add func(string, float64, string), r *Report, truth, pred, kept []int, set *constraint.Set) error {
	pos := make([]int, set.N) // position among the compared items, or −1
	for i := range pos {
		pos[i] = i
		if kept != nil {
			pos[i] = -1
		}
	}
	for a, i := range kept {
		pos[i] = a
	}
	sub := &constraint.Set{N: len(truth)}
	touched := make([]bool, len(truth))
	for _, q := range set.Pairs {
		i, j := pos[q.I], pos[q.J]
		if i >= 0 {
			touched[i] = true
		}
		if j >= 0 {
			touched[j] = true
		}
		if i >= 0 && j >= 0 {
			sub.Pairs = append(sub.Pairs, constraint.Pair{I: i, J: j, Kind: q.Kind})
		}
	}
	ari, err := UnconstrainedARI(truth, pred, sub)
	if err != nil {
		return err
	}
	add("ari_unconstrained", ari, "ARI over the pairs not in the constraint set (seed 003 §5.1; FGPWC tables)")
	var ft, fp []int
	for i, t := range touched {
		if !t {
			ft = append(ft, truth[i])
			fp = append(fp, pred[i])
		}
	}
	if len(ft) == 0 {
		r.Notes = append(r.Notes, "ari_free and nmi_free skipped: every item is in a constraint")
		return nil
	}
	c, err := NewContingency(ft, fp)
	if err != nil {
		return err
	}
	add("ari_free", c.ARI(), fmt.Sprintf("ARI over the %d items no constraint touches", len(ft)))
	add("nmi_free", c.NMI(Arithmetic), fmt.Sprintf("NMI 2I/(H1+H2) over the %d items no constraint touches", len(ft)))
	return nil
}
