package experiment

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/graph"
)

// The development suite of SSC:KA's default kernel (beyond the sources):
// seed 000 §4.2.1 says the pseudo-inverse of the Laplacian (the commute-time
// kernel, cluster.SSCKA Objective = CommuteTime) would suit SSC:KA better
// than the kernels of its Table 4.3, and fgpwc-table1 found it ahead of the
// default kernel (ratio association) on 15 of 20 real datasets. Whether it
// becomes the default is decided here, on generated data only, by a rule
// fixed before any cell of this suite was computed (ssckaDevPick), so that
// the real datasets stay a test set.

// ssckaDevKernels are the kernels compared, the default when the page was
// fixed (ratio association) first.
var ssckaDevKernels = []cluster.KernelObjective{cluster.RatioAssociation, cluster.CommuteTime}

// ssckaDevDens are the constraint protocols: realdata's pairs-1/n and 5n.
var ssckaDevDens = []string{"1/n", "5n"}

// ssckaDevRev names the definition of the cells; change it to recompute.
const ssckaDevRev = "v1"

// ssckaDevShare is the share of the (dataset, protocol) cases on which the
// challenger's mean ARI must be higher (and its mean over the cases not
// lower) to become the default: the ≥ 2/3 that fgpwc-table1's claim on the
// commute kernel calls held.
const ssckaDevShare = 2.0 / 3

// SSCKADev is the development suite of SSC:KA's default kernel.
func SSCKADev() Experiment {
	var loads memo[string, *realInstance]
	return Experiment{
		Name:   "sscka-dev",
		Title:  "Development suite of SSC:KA's default kernel (ratio association or the commute-time kernel) on generated graphs and feature sets, pairs 1/n and 5n",
		Source: "seed 000 §4.2.1 (beyond the sources: the choice of default)",
		Cells: func(env *Env) ([]Cell, error) {
			return ssckaDevCells(env, &loads)
		},
		Report: ssckaDevReport,
	}
}

func ssckaDevKey(name, dens string, obj cluster.KernelObjective, rep int) string {
	return fmt.Sprintf("%s/%s/sscka-%s/%d/%s", name, dens, obj, rep, ssckaDevRev)
}

func ssckaDevCells(env *Env, loads *memo[string, *realInstance]) ([]Cell, error) {
	key := func(name, dens string, i, rep int) string { return ssckaDevKey(name, dens, ssckaDevKernels[i], rep) }
	method := func(i, _ int) cluster.SSCKA { return cluster.SSCKA{Objective: ssckaDevKernels[i]} }
	return ssckaSuiteCells(env, loads, len(ssckaDevKernels), key, method), nil
}

// ssckaSuiteCells returns the cells of an SSC:KA development suite
// (sscka-dev, sscka-rank-dev): for every dataset of auto-score-dev's
// suite, protocol of ssckaDevDens, variant i < nv and draw, SSC:KA as
// method(i, k) on that draw of realdata's constraints, keyed by key; its
// ARI, seconds, the number of constraints and of nodes.
func ssckaSuiteCells(env *Env, loads *memo[string, *realInstance], nv int, key func(name, dens string, i, rep int) string, method func(i, k int) cluster.SSCKA) []Cell {
	var cells []Cell
	for _, r := range autoScoreDevRowsFor(env) {
		r := r
		load := autoScoreDevLoader(env, loads, r)
		for _, dens := range ssckaDevDens {
			for i := 0; i < nv; i++ {
				for rep := 0; rep < autoDevSets(env, r.p.N); rep++ {
					dens, i, rep := dens, i, rep
					cells = append(cells, Cell{Key: key(r.name, dens, i, rep), Run: func(ctx context.Context) (Values, error) {
						inst, err := load(ctx)
						if err != nil {
							return nil, err
						}
						set, err := realConstraints(ctx, inst.truth, r.name, dens, rep, env.Seed)
						if err != nil {
							return nil, err
						}
						v := Values{"constraints": float64(len(set.Pairs)), "nodes": float64(len(inst.truth))}
						p := &cluster.Problem{Graph: inst.g, K: inst.k, Constraints: set}
						if _, err := autoDevRun(ctx, method(i, inst.k), p, &cluster.Settings{Seed: env.Seed + uint64(rep)}, inst.truth, v, "ari"); err != nil {
							return nil, err
						}
						return v, nil
					}})
				}
			}
		}
	}
	return cells
}

// ssckaSuiteCaseMeans is one (dataset, protocol) case of an SSC:KA suite:
// per variant the mean ARI and seconds over the draws, the nodes, and the
// cells that failed or are missing.
type ssckaSuiteCaseMeans struct {
	ari, sec []float64
	n        int
	failed   int
}

// ssckaSuiteCase collects a case's cells, nv variants of sets draws each,
// keyed by key(variant, draw).
func ssckaSuiteCase(results map[string]Values, sets, nv int, key func(i, rep int) string) ssckaSuiteCaseMeans {
	c := ssckaSuiteCaseMeans{ari: make([]float64, nv), sec: make([]float64, nv)}
	for i := 0; i < nv; i++ {
		for rep := 0; rep < sets; rep++ {
			v, got := results[key(i, rep)]
			if !got || v["failed"] > 0 {
				c.failed++
				continue
			}
			c.n = int(v["nodes"])
			c.ari[i] += v["ari"] / float64(sets)
			c.sec[i] += v["seconds"] / float64(sets)
		}
	}
	return c
}

// ssckaDevPick returns the index of the kernel chosen: the challenger
// (index 1) when its mean ARI is higher on at least ssckaDevShare of the
// cases that both ran and its mean over those cases is not lower, else
// the current default (index 0).
func ssckaDevPick(higher, cases int, meanDefault, meanChallenger float64) int {
	if cases > 0 && float64(higher) >= ssckaDevShare*float64(cases) && meanChallenger >= meanDefault {
		return 1
	}
	return 0
}

func ssckaDevReport(env *Env, results map[string]Values) (*Output, error) {
	var tab strings.Builder
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"dataset", "protocol", "n", "k", "draws", "ari_" + ssckaDevKernels[0].String(), "ari_" + ssckaDevKernels[1].String(), "seconds_" + ssckaDevKernels[0].String(), "seconds_" + ssckaDevKernels[1].String()})
	var cases, higher, failed int
	var sum [2]float64
	casesBy, higherBy := map[string]int{}, map[string]int{}
	for _, r := range autoScoreDevRowsFor(env) {
		for _, dens := range ssckaDevDens {
			sets := autoDevSets(env, r.p.N)
			c := ssckaSuiteCase(results, sets, len(ssckaDevKernels), func(i, rep int) string {
				return ssckaDevKey(r.name, dens, ssckaDevKernels[i], rep)
			})
			ari, sec, n, ok, k := c.ari, c.sec, c.n, c.failed == 0, r.k()
			failed += c.failed
			if !ok {
				fmt.Fprintf(&tab, "| %s | %s | %d | %d | – | – |  |\n", r.name, dens, n, k)
				continue
			}
			cases++
			casesBy[dens]++
			sum[0] += ari[0]
			sum[1] += ari[1]
			mark := ""
			if ari[1] > ari[0] {
				higher++
				higherBy[dens]++
				mark = "commute"
			}
			fmt.Fprintf(&tab, "| %s | %s | %d | %d | %.3f | %.3f | %s |\n", r.name, dens, n, k, ari[0], ari[1], mark)
			w.Write([]string{r.name, dens, strconv.Itoa(n), strconv.Itoa(k), strconv.Itoa(sets),
				fmt.Sprintf("%.4f", ari[0]), fmt.Sprintf("%.4f", ari[1]), fmt.Sprintf("%.4f", sec[0]), fmt.Sprintf("%.4f", sec[1])})
		}
	}
	w.Flush()
	mean := [2]float64{math.NaN(), math.NaN()}
	if cases > 0 {
		mean = [2]float64{sum[0] / float64(cases), sum[1] / float64(cases)}
	}
	pick := ssckaDevPick(higher, cases, mean[0], mean[1])

	var md strings.Builder
	writePageHead(&md, env, "Development suite of SSC:KA's default kernel", "flock /work/bench.lock go run ./cmd/tether repro sscka-dev", "two datasets, one draw.")
	md.WriteString("**Why.** Seed 000 §4.2.1 says that the kernels of its Table 4.3 need a diagonal shift that stalls kernel k-means, " +
		"and that the pseudo-inverse of the graph Laplacian (the commute-time kernel of §2.4.2) would be a better kernel for SSC:KA. " +
		"tether has it as `cluster.SSCKA{Objective: CommuteTime}` (`-set Objective=commute`), and " +
		"[fgpwc-table1](../fgpwc-table1/README.md) found it ahead of SSC:KA's default kernel then (ratio association, σI + W + Ω) on " +
		"15 of 20 real datasets. Whether it becomes the default is decided on this page, on generated data only, so that the " +
		"real datasets stay a test set.\n\n")
	fmt.Fprintf(&md, "**Fixed before any result was seen** (in the commit that added this page, before its cells were computed): the "+
		"kernels (ratio association, the default, and commute), the suite, and the rule: **the commute kernel becomes the default "+
		"when its mean ARI is higher than the default's on at least 2/3 of the (dataset, protocol) cases where both ran, and its "+
		"mean ARI over those cases is not lower**; otherwise the default stays. The rule is fgpwc-table1's ≥ 2/3 for \"held\", "+
		"plus a guard against a kernel that wins often by little and loses rarely by much. (A quick-mode smoke test of the page, "+
		"2 datasets and one draw, ran after the rule was written and before that commit.)\n\n")
	fmt.Fprintf(&md, "**Suite.** The %d datasets of [auto-score-dev](../auto-score-dev/README.md) (auto-dev's generated graphs "+
		"and feature sets, and six with unequal classes; feature sets on the default graph, %s). Constraints: realdata's "+
		"pairs-1/n and 5n protocols and code (%d draws per dataset, 1 above %d nodes), the same draws for both kernels. Every "+
		"other knob of SSC:KA at its default; Settings{Seed: base + draw}. ARI over all nodes; mean over the draws.\n\n",
		len(autoScoreDevRows), graph.DefaultSpec(), realSets, realBigN)
	fmt.Fprintf(&md, "## Result (%d cases where both kernels ran; %d failed cells)\n\n", cases, failed)
	fmt.Fprintf(&md, "| | ratio association (the default before this page) | commute |\n|---|---|---|\n")
	fmt.Fprintf(&md, "| cases with the higher mean ARI | %d of %d | %d of %d |\n", cases-higher, cases, higher, cases)
	for _, dens := range ssckaDevDens {
		fmt.Fprintf(&md, "| … with pairs %s | %d of %d | %d of %d |\n", dens, casesBy[dens]-higherBy[dens], casesBy[dens], higherBy[dens], casesBy[dens])
	}
	fmt.Fprintf(&md, "| mean ARI over the cases | %.3f | %.3f |\n\n", mean[0], mean[1])
	fmt.Fprintf(&md, "(Ties count for ratio association.) The rule picks **%s**. SSC:KA's default kernel (cluster.SSCKA{}.Objective) is %s: ", ssckaDevKernels[pick], cluster.SSCKA{}.Objective)
	if (cluster.SSCKA{}).Objective == ssckaDevKernels[pick] {
		md.WriteString("the default is the kernel picked here. It is not better everywhere: on 3 separated 2-D blobs of a full " +
			"RBF graph its objective prefers a wrong partition, which ratio association recovers (TestSSCKACommuteBlobs; " +
			"cluster.SSCKA's documentation gives the numbers), and the thesis's reproduction pages keep the thesis's kernel.\n\n")
	} else {
		md.WriteString("**the default differs from the kernel picked here.**\n\n")
	}
	md.WriteString("## Per case (mean ARI over the draws)\n\n| dataset | protocol | n | k | ratio association | commute | higher |\n|---|---|---|---|---|---|---|\n")
	md.WriteString(tab.String())
	return &Output{Markdown: md.String(), Files: map[string][]byte{"sscka-dev.csv": buf.Bytes()}}, nil
}
