package experiment

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/wording"
	"github.com/tether-sc/tether/metrics"
)

// The development suite of the modified FAST-GE-2.0's default variant
// (beyond the sources). Seed 004 ch. 5 defines three variants of Alg. 4
// (L_N, L_H or both replaced by Bethe Hessians) and §6.4 reports that
// "only L_N" is the one that works on its sparse SBM graphs with labels,
// so cluster.FastGE2BH made it the default. On the dense graphs of
// feature points tether builds by default, that variant is near chance
// (noisy-constraints: mean ARI 0.166 against FAST-GE-2.0's 0.806 at
// pairs 1/n). The default is decided here, on generated data only, by a
// rule fixed before any cell of the suite was computed (bhDevPick).

// bhDevVariants are the variants compared, the default before this page
// (bhDevDefaultBefore) first.
var bhDevVariants = []cluster.BetheVariant{bhDevDefaultBefore, cluster.BetheLH, cluster.BetheBoth}

// bhDevDefaultBefore is FastGE2BH's default variant when this page was
// fixed.
const bhDevDefaultBefore = cluster.BetheLN

// bhDevSupervisions are the kinds of supervision of every draw: pairs
// with probability 1/n each (the pairs-1/n protocol of seed 003 §5.1, as
// realdata), 5n pairs drawn uniformly (realdata's dense setting), and a
// stratified 10% or 30% of each class labelled (seed 004 §6.4's
// protocol: constraint.LabelSets, given as Problem.Labels).
var bhDevSupervisions = []string{"pairs-1/n", "pairs-5n", "labels-10%", "labels-30%"}

// bhDevReps is the number of draws of every dataset.
const bhDevReps = 10

// bhDevRev names the definition of the cells; change it to recompute.
const bhDevRev = "v1"

// bhDevRows are hbisect-dev's 15 generated datasets (point sets on the
// default graph, SBM and DC-SBM graphs of mean degree 6 to 11, k from 2
// to 5), drawn from the same seeds so that both pages see the same
// graphs, followed by bhDevSparseRows.
var bhDevRows = append(append([]autoDevRow(nil), hbDevRows...), bhDevSparseRows...)

// bhDevSparseRows are sparse SBM graphs of seed 004 ch. 6's kind, the
// setting where §6.4 found "only L_N" to work: n = 1000, mean degree 1.5
// to 3 (c_in/k + (k − 1)c_out/k), many small components, above the
// detectability threshold; the first is seed004-fig6.3's (c_in = 2.75,
// c_out = 0.25).
var bhDevSparseRows = []autoDevRow{
	devSBM(1000, 2, 2.75, 0.25), devSBM(1000, 2, 5, 1), devSBM(1000, 3, 7.5, 0.75),
}

func bhDevRowsFor(env *Env) []autoDevRow {
	if env.Quick {
		return hbDevQuickRows
	}
	return bhDevRows
}

func bhDevRepsFor(env *Env) int {
	if env.Quick {
		return 2
	}
	return bhDevReps
}

// bhDevKey names a cell; the row's index is in it because its data's seed
// is seed + 1000·row + draw (as hbisect-dev's).
func bhDevKey(name string, row, rep int, sup string, v cluster.BetheVariant, seed uint64) string {
	return fmt.Sprintf("%s/row=%d/rep=%d/%s/%v/seed=%d/%s", name, row, rep, sup, v, seed, bhDevRev)
}

// FastGE2BHDev is the development suite of FastGE2BH's default variant.
func FastGE2BHDev() Experiment {
	var data memo[string, *realInstance]
	return Experiment{
		Name:   "fastge2bh-dev",
		Title:  "Development suite of the modified FAST-GE-2.0's default variant (seed 004 Alg. 4) on generated data",
		Source: "seed 004 ch. 5, Alg. 4 (beyond the sources: the choice of default)",
		Cells: func(env *Env) ([]Cell, error) {
			var cells []Cell
			for ri, r := range bhDevRowsFor(env) {
				for rep := range bhDevRepsFor(env) {
					for _, sup := range bhDevSupervisions {
						for _, v := range bhDevVariants {
							ri, r, rep, sup, v := ri, r, rep, sup, v
							cells = append(cells, Cell{
								Key: bhDevKey(r.name, ri, rep, sup, v, env.Seed),
								Run: func(ctx context.Context) (Values, error) {
									return bhDevCell(ctx, env, &data, ri, r, rep, sup, v)
								},
							})
						}
					}
				}
			}
			return cells, nil
		},
		Report: bhDevReport,
	}
}

// bhDevSupervise draws supervision sup of draw rep on the classes truth:
// the pairs or labels of the Problem, from a stream of its own per
// (dataset, supervision, draw), the same for every variant. The draw stops
// with ctx's error once ctx is cancelled.
func bhDevSupervise(ctx context.Context, p *cluster.Problem, truth []int, name, sup string, rep int, seed uint64) error {
	src := rand.NewPCG(seed, seedStream("fastge2bh-dev", name, sup, strconv.Itoa(rep)))
	n := len(truth)
	var err error
	switch sup {
	case "pairs-1/n":
		p.Constraints, err = constraint.BernoulliPairsContext(ctx, truth, 1/float64(n), src)
	case "pairs-5n":
		p.Constraints, err = constraint.UniformPairsContext(ctx, truth, min(5*n, int(constraint.NumPairs(n))), src)
	case "labels-10%", "labels-30%":
		frac := 0.1
		if sup == "labels-30%" {
			frac = 0.3
		}
		p.Labels, err = constraint.StratifiedLabels(ctx, truth, frac, src)
	default:
		err = fmt.Errorf("fastge2bh-dev: unknown supervision %q", sup)
	}
	return err
}

// bhDevCell runs FastGE2BH{Variant: v} with the true k and every other
// knob at its default on draw rep of row r under supervision sup, and
// returns its ARI against the generator's classes over all nodes and its
// seconds. A run that fails records "failed" (noisyFailCode) and scores
// ARI 0 in the means: the user gets no partition.
func bhDevCell(ctx context.Context, env *Env, data *memo[string, *realInstance], ri int, r autoDevRow, rep int, sup string, v cluster.BetheVariant) (Values, error) {
	inst, err := data.get(ctx, fmt.Sprintf("%s/%d", r.name, rep), func(ctx context.Context) (*realInstance, error) {
		return autoDevLoad(ctx, r, env.Seed+uint64(ri)*1000+uint64(rep))
	})
	if err != nil {
		return nil, err
	}
	p := &cluster.Problem{Graph: inst.g, K: inst.k}
	if err := bhDevSupervise(ctx, p, inst.truth, r.name, sup, rep, env.Seed); err != nil {
		return nil, err
	}
	res, err := cluster.Run(ctx, cluster.FastGE2BH{Variant: v}, p, &cluster.Settings{Seed: env.Seed + uint64(rep)})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return Values{"failed": noisyFailCode(err), "ari": 0}, nil
	}
	ari, err := metrics.ARI(inst.truth, res.Labels)
	if err != nil {
		return nil, err
	}
	return Values{"ari": ari, "seconds": res.Runtime.Seconds()}, nil
}

// bhDevPick returns the index of the variant chosen from each variant's
// mean ARI over the (dataset, supervision) pairs (mean[i]): the highest,
// except that the default before (index 0) is kept when it is within
// 0.002 of it; NaN means are never chosen. It is hbisect-dev's rule.
func bhDevPick(mean []float64) int { return hbDevPick(mean) }

func bhDevReport(env *Env, res map[string]Values) (*Output, error) {
	rows, reps := bhDevRowsFor(env), bhDevRepsFor(env)
	type stat struct {
		ari, sd, secs float64
		failed, count int
	}
	get := func(ri int, r autoDevRow, sup string, v cluster.BetheVariant) stat {
		var s stat
		var aris, secs []float64
		for rep := range reps {
			c, ok := res[bhDevKey(r.name, ri, rep, sup, v, env.Seed)]
			if !ok {
				continue
			}
			aris = append(aris, c["ari"])
			if c["failed"] > 0 {
				s.failed++
			} else {
				secs = append(secs, c["seconds"])
			}
		}
		s.count = len(aris)
		s.ari, s.sd = meanStdDev(aris)
		s.secs, _ = meanStdDev(secs)
		return s
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"dataset", "k", "supervision", "variant", "reps", "ari_mean", "ari_sd", "failed", "seconds_mean"})
	nv := len(bhDevVariants)
	mean := make([]float64, nv)
	// Sums by family (point sets; SBM and DC-SBM) and by supervision, for
	// the description after the rule.
	famSum, famN := make([][2]float64, nv), [2]int{}
	supSum, supN := make([][]float64, nv), make([]int, len(bhDevSupervisions))
	for i := range supSum {
		supSum[i] = make([]float64, len(bhDevSupervisions))
	}
	secSum, secN, failed := make([]float64, nv), make([]int, nv), make([]int, nv)
	complete, total := 0, 0
	var tab strings.Builder
	for ri, r := range rows {
		fam := 0
		if r.gen == "sbm" || r.gen == "dcsbm" {
			fam = 1
		}
		for si, sup := range bhDevSupervisions {
			total++
			fmt.Fprintf(&tab, "| %s | %d | %s |", r.name, r.k(), sup)
			stats := make([]stat, nv)
			all := true
			for i, v := range bhDevVariants {
				s := get(ri, r, sup, v)
				stats[i] = s
				all = all && s.count == reps
				rec := []string{r.name, strconv.Itoa(r.k()), sup, v.String(), strconv.Itoa(s.count), "", "", strconv.Itoa(s.failed), ""}
				if s.count > 0 {
					rec[5], rec[6] = fmt.Sprintf("%.4f", s.ari), fmt.Sprintf("%.4f", s.sd)
				}
				if s.count > s.failed {
					rec[8] = fmt.Sprintf("%.4f", s.secs)
				}
				w.Write(rec)
				if s.count == 0 {
					tab.WriteString(" – |")
					continue
				}
				fail := ""
				if s.failed > 0 {
					fail = fmt.Sprintf(" (%d failed)", s.failed)
				}
				fmt.Fprintf(&tab, " %.3f ± %.3f%s |", s.ari, s.sd, fail)
			}
			tab.WriteString("\n")
			if !all {
				continue
			}
			complete++
			famN[fam]++
			supN[si]++
			for i, s := range stats {
				mean[i] += s.ari
				famSum[i][fam] += s.ari
				supSum[i][si] += s.ari
				failed[i] += s.failed
				if s.count > s.failed {
					secSum[i] += s.secs
					secN[i]++
				}
			}
		}
	}
	w.Flush()
	for i := range mean {
		if complete == 0 {
			mean[i] = math.NaN()
		} else {
			mean[i] /= float64(complete)
		}
	}
	pick := bhDevPick(mean)
	div := func(s float64, n int) string {
		if n == 0 {
			return "–"
		}
		return fmt.Sprintf("%.3f", s/float64(n))
	}

	var md strings.Builder
	writePageHead(&md, env, "Development suite of the modified FAST-GE-2.0's default variant", "flock /work/bench.lock go run ./cmd/tether repro fastge2bh-dev", "two small datasets, two draws.")
	fmt.Fprintf(&md, "**Why.** The modified FAST-GE-2.0 (cluster.FastGE2BH, `-method fast-ge2-bh`, seed 004 ch. 5, Alg. 4) replaces "+
		"L_N, L_H or both of FAST-GE-2.0's matrices by Bethe Hessians. Seed 004 §6.4 found \"only L_N\" to be the variant that works, "+
		"on sparse SBM graphs with labels, and tether made it the default (%v). On the dense graphs of feature points that tether "+
		"builds by default it is near chance: on noisy-constraints (pairs 1/n, none flipped) its mean ARI over six datasets was 0.166 "+
		"before this page, against FAST-GE-2.0's 0.806; on seed004-fig6.3, the source's own setting, \"both\" is ahead of it below 50%% "+
		"labels and within 0.02 from 50%% on. This page chooses the default on generated data only.\n\n", bhDevDefaultBefore)
	fmt.Fprintf(&md, "**Suite.** %s: hbisect-dev's 15, drawn from the same seeds (seed base + 1000·row + draw), which are point sets of the "+
		"CLI's generators turned into the default graph (%s) and SBM and DC-SBM graphs with clear blocks (mean degree 6 to 11, k from 2 to 5), "+
		"and 3 sparse SBM graphs of seed 004 ch. 6's kind (n = 1000, mean degree 1.5 to 3, the first seed004-fig6.3's setting), where §6.4 found "+
		"\"only L_N\" to work. "+
		"%d draws of each. On every draw, %d kinds of supervision, each from its own seeded stream and the same for every "+
		"variant: %s (pairs drawn with probability 1/n each, the pairs-1/n protocol; 5n pairs drawn uniformly; a stratified "+
		"10%% or 30%% of each class labelled, seed 004 §6.4's protocol, given as labels). Problem.K is the true k, every other "+
		"setting is the library's default (r = √(mean degree of A + I), μ automatic, Regularization auto, Disconnected "+
		"attach, 10 k-means runs). ARI against the generator's classes over all nodes. A run that fails scores ARI 0 (the "+
		"user gets no partition) and is counted.\n\n",
		wording.Count(len(rows), "generated dataset", "generated datasets"), graph.DefaultSpec(), reps, len(bhDevSupervisions), strings.Join(bhDevSupervisions, ", "))
	fmt.Fprintf(&md, "**Rule, fixed before any cell of the suite was computed** (in the commit that added this page; only the quick "+
		"mode's smoke test, on smaller data outside the suite, had run): the variant of highest mean ARI over the (dataset, "+
		"supervision) pairs (each pair's mean over its draws) is chosen, except that the default before (%v) is kept when its "+
		"mean is within 0.002 of it. A pair with a missing cell is left out of the means.\n\n", bhDevDefaultBefore)
	fmt.Fprintf(&md, "## Result\n\n%d of %d (dataset, supervision) pairs complete.\n\n| variant | mean ARI | failed runs | mean seconds |\n|---|---:|---:|---:|\n", complete, total)
	for i, v := range bhDevVariants {
		mark := ""
		if i == pick {
			mark = " **(chosen)**"
		}
		fmt.Fprintf(&md, "| %v%s | %.3f | %d | %s |\n", v, mark, mean[i], failed[i], div(secSum[i], secN[i]))
	}
	def := cluster.FastGE2BH{}.Variant
	fmt.Fprintf(&md, "\nThe rule picks **%v**. cluster.FastGE2BH's default variant is %v: ", bhDevVariants[pick], def)
	if bhDevVariants[pick] == def {
		md.WriteString("the variant picked here.\n\n")
	} else {
		md.WriteString("**not the variant picked here.**\n\n")
	}
	// Described after the rule, not part of it.
	md.WriteString("**By family and by supervision** (described after the rule, not part of it): mean ARI.\n\n| variant | point sets | SBM, DC-SBM |")
	for _, sup := range bhDevSupervisions {
		fmt.Fprintf(&md, " %s |", sup)
	}
	md.WriteString("\n|---|---:|---:|" + strings.Repeat("---:|", len(bhDevSupervisions)) + "\n")
	for i, v := range bhDevVariants {
		fmt.Fprintf(&md, "| %v | %s | %s |", v, div(famSum[i][0], famN[0]), div(famSum[i][1], famN[1]))
		for si := range bhDevSupervisions {
			fmt.Fprintf(&md, " %s |", div(supSum[i][si], supN[si]))
		}
		md.WriteString("\n")
	}
	md.WriteString("\n## Per dataset and supervision: mean ARI ± sd over the draws\n\n| dataset | k | supervision |")
	for _, v := range bhDevVariants {
		fmt.Fprintf(&md, " %v |", v)
	}
	md.WriteString("\n|---|---:|---|" + strings.Repeat("---:|", nv) + "\n")
	md.WriteString(tab.String())
	md.WriteString("\nThe CSV adds the number of failed runs and the mean seconds of the runs that did not fail.\n")
	return &Output{Markdown: md.String(), Files: map[string][]byte{"fastge2bh-dev.csv": buf.Bytes()}}, nil
}
