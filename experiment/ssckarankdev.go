package experiment

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/graph"
)

// The development suite of the rank of SSC:KA's commute-time kernel
// (beyond the sources): cluster.SSCKA.Rank, the number m of non-zero
// eigenpairs of L kept, is max(2k, 10) by default, a choice made when the
// kernel was written and never measured. The m − (k − 1) eigenvectors
// beyond the k − 1 that carry the clusters may add scatter to every
// cluster (TestSSCKACommuteBlobs: the objective prefers a wrong partition
// of three separated blobs), and on 10-D blobs they sit in a
// near-degenerate bulk that the eigensolver resolves slowly. The suite
// kept the default: the smaller ranks lost on average. Whether a smaller rank
// becomes the default is decided here, on generated data only, by a rule
// fixed before any cell was computed (ssckaRankDevPick).

// ssckaRankDevVariants are the ranks compared, the default first: 0 is
// the default max(2k, 10); "k" is m = k; "k-1" is m = k − 1, the
// eigenvectors of the k smallest eigenvalues of L but the constant one on
// a connected graph.
var ssckaRankDevVariants = []string{"default", "k", "k-1"}

// ssckaRankDevRank is SSCKA.Rank for variant v and k clusters.
func ssckaRankDevRank(v string, k int) int {
	switch v {
	case "k":
		return k
	case "k-1":
		return max(1, k-1)
	}
	return 0
}

// ssckaRankDevIsDefault reports whether variant v is SSC:KA's default
// rank (cluster.SSCKADefaultRank) for every k from 2 to 50; the variant
// "default" is max(2k, 10), the default when this page was fixed.
func ssckaRankDevIsDefault(v string) bool {
	for k := 2; k <= 50; k++ {
		want := ssckaRankDevRank(v, k)
		if v == "default" {
			want = max(2*k, 10)
		}
		if cluster.SSCKADefaultRank(k) != want {
			return false
		}
	}
	return true
}

// ssckaRankDevRev names the definition of the cells; change it to
// recompute.
const ssckaRankDevRev = "v1"

// SSCKARankDev is the development suite of the commute kernel's rank.
func SSCKARankDev() Experiment {
	var loads memo[string, *realInstance]
	return Experiment{
		Name:   "sscka-rank-dev",
		Title:  "Development suite of the rank of SSC:KA's commute-time kernel (max(2k, 10), k or k − 1 eigenpairs) on generated graphs and feature sets, pairs 1/n and 5n",
		Source: "seed 000 §4.2.1, §2.4.2 (beyond the sources: the choice of default)",
		Cells: func(env *Env) ([]Cell, error) {
			return ssckaRankDevCells(env, &loads), nil
		},
		Report: ssckaRankDevReport,
	}
}

func ssckaRankDevKey(name, dens, variant string, rep int) string {
	return fmt.Sprintf("%s/%s/sscka-rank-%s/%d/%s", name, dens, variant, rep, ssckaRankDevRev)
}

func ssckaRankDevCells(env *Env, loads *memo[string, *realInstance]) []Cell {
	key := func(name, dens string, i, rep int) string {
		return ssckaRankDevKey(name, dens, ssckaRankDevVariants[i], rep)
	}
	method := func(i, k int) cluster.SSCKA {
		return cluster.SSCKA{Objective: cluster.CommuteTime, Rank: ssckaRankDevRank(ssckaRankDevVariants[i], k)}
	}
	return ssckaSuiteCells(env, loads, len(ssckaRankDevVariants), key, method)
}

// ssckaRankDevPick returns the index of the variant chosen from the mean
// ARI of each variant over the cases where all ran (mean[i]) and, for each
// challenger i ≥ 1, the cases where it is higher and lower than the
// default (index 0): a challenger qualifies when its mean is at least
// 0.01 above the default's and it is higher on more cases than it is
// lower; the qualifier of highest mean is chosen (the first on ties),
// else the default.
func ssckaRankDevPick(mean []float64, higher, lower []int) int {
	pick := 0
	for i := 1; i < len(mean); i++ {
		if mean[i] >= mean[0]+0.01 && higher[i] > lower[i] && (pick == 0 || mean[i] > mean[pick]) {
			pick = i
		}
	}
	return pick
}

func ssckaRankDevReport(env *Env, results map[string]Values) (*Output, error) {
	nv := len(ssckaRankDevVariants)
	var tab strings.Builder
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	head := []string{"dataset", "protocol", "n", "k", "draws"}
	for _, va := range ssckaRankDevVariants {
		head = append(head, "ari_rank_"+va)
	}
	for _, va := range ssckaRankDevVariants {
		head = append(head, "seconds_rank_"+va)
	}
	w.Write(head)
	sum, secs := make([]float64, nv), make([]float64, nv)
	higher, lower := make([]int, nv), make([]int, nv)
	var cases, failed int
	for _, r := range autoScoreDevRowsFor(env) {
		for _, dens := range ssckaDevDens {
			sets := autoDevSets(env, r.p.N)
			c := ssckaSuiteCase(results, sets, nv, func(i, rep int) string {
				return ssckaRankDevKey(r.name, dens, ssckaRankDevVariants[i], rep)
			})
			ari, sec, n, ok, k := c.ari, c.sec, c.n, c.failed == 0, r.k()
			failed += c.failed
			if !ok {
				fmt.Fprintf(&tab, "| %s | %s | %d | %d |%s\n", r.name, dens, n, k, strings.Repeat(" – |", nv))
				continue
			}
			cases++
			fmt.Fprintf(&tab, "| %s | %s | %d | %d |", r.name, dens, n, k)
			rec := []string{r.name, dens, strconv.Itoa(n), strconv.Itoa(k), strconv.Itoa(sets)}
			for i := range ssckaRankDevVariants {
				sum[i] += ari[i]
				secs[i] += sec[i]
				switch {
				case ari[i] > ari[0]+1e-9:
					higher[i]++
				case ari[i] < ari[0]-1e-9:
					lower[i]++
				}
				fmt.Fprintf(&tab, " %.3f |", ari[i])
				rec = append(rec, fmt.Sprintf("%.4f", ari[i]))
			}
			for i := range ssckaRankDevVariants {
				rec = append(rec, fmt.Sprintf("%.4f", sec[i]))
			}
			tab.WriteString("\n")
			w.Write(rec)
		}
	}
	w.Flush()
	mean := make([]float64, nv)
	for i := range mean {
		mean[i] = math.NaN()
		if cases > 0 {
			mean[i] = sum[i] / float64(cases)
			secs[i] /= float64(cases)
		}
	}
	pick := ssckaRankDevPick(mean, higher, lower)

	var md strings.Builder
	writePageHead(&md, env, "Development suite of the rank of SSC:KA's commute-time kernel", "flock /work/bench.lock go run ./cmd/tether repro sscka-rank-dev", "two datasets, one draw.")
	md.WriteString("**Why.** SSC:KA's default kernel is the commute-time kernel since [sscka-dev](../sscka-dev/README.md): σI + s·L⁺_m + Ω " +
		"with L⁺_m the pseudo-inverse of L = D − W truncated to its m smallest non-zero eigenvalues (cluster.SSCKA.Rank), by " +
		"default m = max(2k, 10), a choice made when the kernel was written and never measured. On a graph of k clusters the k − 1 " +
		"smallest non-zero eigenpairs carry the clusters; the others may add scatter to every cluster (on 3 separated blobs, " +
		"TestSSCKACommuteBlobs, the kernel k-means objective prefers a wrong partition, which a smaller rank might avoid). They also cost: on 10⁵ points of " +
		"5 blobs in 10-D they lie in a near-degenerate bulk (eigenvalues 0.1139–0.1156 of L_sym), which the eigensolver resolves " +
		"slowly. This page chooses the default rank on generated data only, so that the real datasets stay a test set.\n\n")
	md.WriteString("**Fixed before any result was seen** (in the commit that added this page, before its cells were computed): the " +
		"ranks (the default max(2k, 10), k, and k − 1), the suite, sscka-dev's, and the rule: **a smaller rank becomes the default " +
		"when its mean ARI over the (dataset, protocol) cases where every rank ran is at least 0.01 above the default's and it is " +
		"higher than the default on more cases than it is lower; of two such ranks the one of higher mean**; otherwise the default " +
		"stays. Every other knob of SSC:KA at its default (the commute kernel); Settings{Seed: base + draw}.\n\n")
	fmt.Fprintf(&md, "**Suite.** The %d datasets of [auto-score-dev](../auto-score-dev/README.md) (auto-dev's generated graphs "+
		"and feature sets, and six with unequal classes; feature sets on the default graph, %s). Constraints: realdata's "+
		"pairs-1/n and 5n protocols and code (%d draws per dataset, 1 above %d nodes), the same draws for every rank. ARI over "+
		"all nodes; mean over the draws.\n\n", len(autoScoreDevRows), graph.DefaultSpec(), realSets, realBigN)
	fmt.Fprintf(&md, "## Result (%d cases where every rank ran; %d failed cells)\n\n| rank | mean ARI | higher than the default | lower | mean seconds per fit |\n|---|---|---|---|---|\n", cases, failed)
	for i, va := range ssckaRankDevVariants {
		mark := ""
		if i == pick {
			mark = " **(chosen)**"
		}
		name := map[string]string{"default": "max(2k, 10), the default before this page", "k": "k", "k-1": "k − 1"}[va]
		hl := fmt.Sprintf("%d of %d | %d of %d", higher[i], cases, lower[i], cases)
		if i == 0 {
			hl = "– | –"
		}
		fmt.Fprintf(&md, "| %s%s | %.3f | %s | %.3f |\n", name, mark, mean[i], hl, secs[i])
	}
	fmt.Fprintf(&md, "\nThe rule picks **%s**. cluster.SSCKADefaultRank(k), the rank of SSCKA{Rank: 0}, is ", ssckaRankDevVariants[pick])
	if ssckaRankDevIsDefault(ssckaRankDevVariants[pick]) {
		md.WriteString("the rank picked here for every k from 2 to 50.\n\n")
	} else {
		md.WriteString("**not the rank picked here.**\n\n")
	}
	md.WriteString("## Per case (mean ARI over the draws)\n\n| dataset | protocol | n | k | max(2k, 10) | k | k − 1 |\n|---|---|---|---|---|---|---|\n")
	md.WriteString(tab.String())
	return &Output{Markdown: md.String(), Files: map[string][]byte{"sscka-rank-dev.csv": buf.Bytes()}}, nil
}
