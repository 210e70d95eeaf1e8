package metrics

import (
	"context"
	"errors"
	"fmt"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/progress"
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
	// "class_f1_min<s>"). If nil, DefaultMinSizes() is used; an empty non-nil
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
	// Recorder, if not nil, receives EvaluateContext's progress as the
	// stage "figures": thousandths of the work (progress.Meter), the step
	// in Message (the expected mutual information of AMI, the
	// constraint figures). Evaluate reports none.
	Recorder progress.Recorder `json:"-"`
}

// defaultMinSizes are the class sizes Evaluate uses when Options.MinSizes
// is nil: an array, which no caller can change.
var defaultMinSizes = [...]int{2, 5, 10}

// DefaultMinSizes returns the class sizes Evaluate uses when
// Options.MinSizes is nil, {2, 5, 10}, in a new slice the caller may
// change without changing Evaluate (it was a package variable that one
// caller could change for the whole program). Cost O(1).
func DefaultMinSizes() []int {
	out := defaultMinSizes // a copy of the array
	return out[:]
}

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
// It is EvaluateContext without cancellation or progress.
func Evaluate(truth, pred []int, opt *Options) (Report, error) {
	if opt != nil && opt.Recorder != nil {
		o := *opt
		o.Recorder = nil
		opt = &o
	}
	return EvaluateContext(context.Background(), truth, pred, opt)
}

// pairPoll is the number of items or pairs EvaluateContext's passes
// handle between two checks of its context: a few milliseconds.
const pairPoll = 1 << 16

// poll returns ctx's error, having told t (nil: none) the fraction f,
// when k is a multiple of pairPoll; nil otherwise.
func poll(ctx context.Context, k int, t func(float64), f float64) error {
	if k%pairPoll != 0 {
		return nil
	}
	if t != nil {
		t(f)
	}
	return ctx.Err()
}

// The planned costs of EvaluateContext's steps (the meter of
// Options.Recorder), in nanoseconds per unit on the 2-core machine: a
// term of the expected mutual information, a pair of the violations, a
// pair of the unconstrained figures, and the other figures together.
const (
	costEMITerm       = 150
	costViolationPair = 40
	costUnconstrained = 250
	costOtherFigures  = 1e6
)

// The steps of EvaluateContext, as its meter and its errors name them.
const (
	stepOthers = "pair counting, information and matching figures"
	stepEMI    = "expected mutual information (AMI)"
	stepPairs  = "violated constraints"
	stepUncons = "figures over the unconstrained pairs"
	stepCuts   = "cut figures"
)

// EvaluateContext is Evaluate checking ctx every pairPoll items or pairs
// of its passes over them and in the expected mutual information of AMI
// (1.4 s for 2·10⁶ items in ten classes) and the figures of
// Options.Unconstrained (6 s for 10⁷ pairs), which took seconds without
// a check, and reporting its progress to opt.Recorder. The error of a
// cancellation wraps ctx.Err(), naming the figures being computed
// ("metrics: stopped while computing the expected mutual information
// (AMI): context canceled").
func EvaluateContext(ctx context.Context, truth, pred []int, opt *Options) (Report, error) {
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
			if err := poll(ctx, i, nil, 0); err != nil {
				return Report{}, stoppedIn("contingency table", err)
			}
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
	if skipped == 0 {
		kept = nil // every item is compared: the identity
	}
	c, err := NewContingency(ct, cp)
	if err != nil {
		return Report{}, err
	}
	if err := ctx.Err(); err != nil {
		return Report{}, stoppedIn("contingency table", err)
	}
	limit := opt.MaxClusters
	if limit == 0 {
		limit = DefaultMaxClusters
	}
	align := limit < 0 || max(c.Rows(), c.Cols()) <= limit
	// The plan of the meter: the steps that take seconds on large inputs.
	var emiCost, pairsCost, uncCost float64
	if align && opt.Recorder != nil {
		emiCost = costEMITerm * c.emiTerms()
	}
	if opt.Constraints != nil {
		pairsCost = costViolationPair * float64(len(opt.Constraints.Pairs))
		if opt.Unconstrained {
			uncCost = costUnconstrained * float64(len(opt.Constraints.Pairs))
		}
	}
	m := progress.NewMeter(opt.Recorder, "figures", costOtherFigures+emiCost+pairsCost+uncCost)
	m.Step(stepOthers, costOtherFigures)
	r := Report{N: c.N(), Unlabeled: skipped, TruthClusters: c.Rows(), PredClusters: c.Cols()}
	if skipped > 0 {
		r.Notes = append(r.Notes, wording.Count(skipped, "item", "items")+" without a reference label left out of the comparison")
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
	for _, z := range normalizations {
		add("nmi_"+z.String(), c.NMI(z), nmiDesc[z])
	}
	if align {
		ami, err := c.ami(ctx, m.Step(stepEMI, emiCost))
		if err != nil {
			return Report{}, stoppedIn(stepEMI, err)
		}
		add("ami", ami, "adjusted mutual information, arithmetic normalization (Vinh et al. 2010; scikit-learn default)")
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
		sizes = defaultMinSizes[:]
	}
	for _, s := range sizes {
		f, count := c.ClassF1(s)
		if count == 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("class_f1_min%d skipped: no reference cluster has %s", s, wording.Count(s, "item", "items")))
			continue
		}
		over := fmt.Sprintf("the %d reference clusters", count)
		if count == 1 {
			over = "the 1 reference cluster"
		}
		add(fmt.Sprintf("class_f1_min%d", s), f.F1, fmt.Sprintf("micro-averaged F1 over %s of size >= %d (seed 003 §5.2)", over, s))
	}

	if opt.Constraints != nil {
		ml, cl, err := violations(ctx, opt.Constraints, pred, m.Step(stepPairs, pairsCost))
		if err != nil {
			return Report{}, stoppedIn(stepPairs, err)
		}
		nml, ncl := opt.Constraints.Count()
		add("ml_violated", float64(ml), fmt.Sprintf("must-links split by the prediction (of %d)", nml))
		add("cl_violated", float64(cl), fmt.Sprintf("cannot-links inside a predicted cluster (of %d)", ncl))
		if opt.Unconstrained {
			if err := addUnconstrained(ctx, add, &r, c, ct, cp, kept, opt.Constraints, m.Step(stepUncons, uncCost)); err != nil {
				return Report{}, stoppedIn(stepUncons, err)
			}
		}
	}
	if opt.Graph != nil {
		m.Step(stepCuts, 0)
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
	m.Done()
	return r, nil
}

// stoppedIn returns err, when it is a cancellation of EvaluateContext's
// context, as "metrics: stopped while computing WHAT: …"; err unchanged
// otherwise.
func stoppedIn(what string, err error) error {
	if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("metrics: stopped while computing the %s: %w", what, err)
}

// violations is Violations checking ctx, and telling t (nil: none) the
// fraction done, every pairPoll pairs: it validates and counts the pairs
// pairPoll at a time (Set.Validate and constraint.Violations on each
// slice; a slice that fails is validated again whole, for the index of
// Validate's error). The error is Violations' or ctx.Err().
func violations(ctx context.Context, set *constraint.Set, labels []int, t func(float64)) (ml, cl int, err error) {
	if set == nil || set.N != len(labels) {
		return Violations(set, labels)
	}
	for lo := 0; lo < len(set.Pairs); lo += pairPoll {
		if err := poll(ctx, lo, t, float64(lo)/float64(len(set.Pairs))); err != nil {
			return 0, 0, err
		}
		part := &constraint.Set{N: set.N, Pairs: set.Pairs[lo:min(lo+pairPoll, len(set.Pairs))]}
		if part.Validate() != nil {
			return Violations(set, labels)
		}
		a, b := constraint.Violations(part, labels)
		ml, cl = ml+a, cl+b
	}
	return ml, cl, ctx.Err()
}

// addUnconstrained adds the figures of Options.Unconstrained for the
// compared items truth and pred, of contingency table c; kept maps them
// to the constraint set's nodes (nil: the identity). ctx is checked, and
// t (nil: none) told the fraction done, every pairPoll pairs or items of
// its passes; the error is then ctx.Err().
func addUnconstrained(ctx context.Context, add func(string, float64, string), r *Report, c *Contingency, truth, pred, kept []int, set *constraint.Set, t func(float64)) error {
	tick := func(f0, f1 float64) func(float64) {
		return func(f float64) {
			if t != nil {
				t(f0 + (f1-f0)*f)
			}
		}
	}
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
	if kept == nil {
		sub.Pairs = set.Pairs // every pair is among the compared items
	} else {
		// Allocated once: 10⁷ pairs regrown took 0.4 s between checks.
		sub.Pairs = make([]constraint.Pair, 0, len(set.Pairs))
	}
	touched := make([]bool, len(truth))
	for k, q := range set.Pairs {
		if err := poll(ctx, k, t, 0.2*float64(k)/float64(len(set.Pairs))); err != nil {
			return err
		}
		i, j := pos[q.I], pos[q.J]
		if i >= 0 {
			touched[i] = true
		}
		if j >= 0 {
			touched[j] = true
		}
		if i >= 0 && j >= 0 && kept != nil {
			sub.Pairs = append(sub.Pairs, constraint.Pair{I: i, J: j, Kind: q.Kind})
		}
	}
	ari, err := unconstrainedARI(ctx, c, truth, pred, sub, tick(0.2, 0.95))
	if err != nil {
		return err
	}
	add("ari_unconstrained", ari, "ARI over the pairs not in the constraint set (seed 003 §5.1; FGPWC tables)")
	var ft, fp []int
	for i, to := range touched {
		if err := poll(ctx, i, nil, 0); err != nil {
			return err
		}
		if !to {
			ft = append(ft, truth[i])
			fp = append(fp, pred[i])
		}
	}
	if len(ft) == 0 {
		r.Notes = append(r.Notes, "ari_free and nmi_free skipped: every item is in a constraint")
		return nil
	}
	free, err := NewContingency(ft, fp)
	if err != nil {
		return err
	}
	add("ari_free", free.ARI(), fmt.Sprintf("ARI over the %s no constraint touches", wording.Count(len(ft), "item", "items")))
	add("nmi_free", free.NMI(Arithmetic), fmt.Sprintf("NMI 2I/(H1+H2) over the %s no constraint touches", wording.Count(len(ft), "item", "items")))
	return nil
}
