package experiment

import (
	"fmt"
	"math"
	"strings"
)

// fgpwcTunedOnTable ends the rule of every claim judged on an FGPWC column
// of the table: the settings of those columns that were chosen on this
// very table with its ground truth (docs/results/fgpwc-notes.md), which the
// sources' protocol does not allow for a method's defaults.
const fgpwcTunedOnTable = "Chosen on this table with its ground truth (docs/results/fgpwc-notes.md), and used by every FGPWC column: " +
	"the L-BFGS descent's cap of 9 steps (the paper gives none; the \"paper's defaults\" are its σ's and m with this cap) and " +
	"ScaledRestart's margin (a second descent only with at least 10 constraints per entry of X), chosen on zoo, iris, circles and webkb-cornell"

// fgpwcTunedDisclosure is the page's statement of the FGPWC settings
// chosen on this table with its ground truth (docs/results/fgpwc-notes.md).
const fgpwcTunedDisclosure = "**Settings chosen on this table with its ground truth.** None of the FGPWC columns is free of them " +
	"([fgpwc-notes.md](../fgpwc-notes.md), which the sources' protocol would not allow for a method's defaults). " +
	"Every FGPWC column, the \"no tuning\" one (the paper's defaults) included: the L-BFGS cap of 9 steps (the paper gives no cap; " +
	"the step-halving descent's cap of 100, not used here, was chosen the same way), chosen on this table; and ScaledRestart's margin of " +
	"10 constraints per entry of X (a second descent runs only above it), chosen on zoo, iris, circles and webkb-cornell of this table. " +
	"The automatic column besides: its candidate caps {0, c/5, c/2, c, 2c} are built on that c = 9; its pair of Laplacians (L_sym, or D − W with m = k) " +
	"was chosen on webkb-cornell and iris (3 constraint sets); scoring a Laplacian by the mean held-out violated weight over the caps, not the minimum, " +
	"on webkb-cornell; and Imprint was motivated by this table's circles row (ARI 0.26 without it). Its figures, and the claims judged on the FGPWC " +
	"columns, are therefore not those of a method set up without the ground truth."

// fgpwcClaims checks the statements of seed 003 §5.2 (and its abstract)
// on the cells: FGPWC's rank against every peer column on the same graphs
// and constraint sets (paired means over the sets both columns ran, see
// fgpwcPairedARI), the best-of-row count, COSC's zero violations at k = 2,
// CCSR's competitiveness and the poor CSP and SL columns.
func fgpwcClaims(results map[string]Values, rows []fgpwcRow, peers []fgpwcColumn, sets int, root string) []Claim {
	const src = "seed 003 §5.2"
	run := fgpwcRunRows(rows, root)
	fg, cv := fgpwcColumnByKey("fgpwc"), fgpwcColumnByKey("fgpwc-cv")
	var claims []Claim

	// Best of the row among FGPWC and every peer that ran there.
	bestOfRow := func(c fgpwcColumn) (wins, total int, lost []string) {
		for _, r := range run {
			ran, ahead := false, true
			var beaten []string
			for _, p := range peers {
				mf, mp, n := fgpwcPairedARI(results, r, c, p, sets)
				if n == 0 {
					continue
				}
				ran = true
				if !(mf > mp) {
					ahead = false
					beaten = append(beaten, fmt.Sprintf("%s %.3f", fgpwcShortTitle(p.key), mp))
				}
			}
			if !ran {
				continue
			}
			total++
			if ahead {
				wins++
			} else {
				lost = append(lost, fmt.Sprintf("%s (%s)", r.name, strings.Join(beaten, ", ")))
			}
		}
		return wins, total, lost
	}
	peerNames := make([]string, len(peers))
	for i, p := range peers {
		peerNames[i] = fgpwcShortTitle(p.key)
	}
	if len(peers) > 0 {
		wins, total, lost := bestOfRow(fg)
		claims = append(claims, Claim{Source: src,
			Quote: "Without tuning hyperparameters any further, we obtain better results than other approaches in 12 cases",
			Rule: fmt.Sprintf("FGPWC with the paper's defaults has a higher mean ARI than every peer column (%s) on at least 12 datasets (paired means over the sets both ran): %s. %s",
				strings.Join(peerNames, ", "), quantBands(12, total, "datasets"), fgpwcTunedOnTable),
			Ours:    fmt.Sprintf("best of its row on %d of %d datasets; beaten on %s", wins, total, strings.Join(lost, "; ")),
			Verdict: quantVerdict(wins, total, 12)})
		if total == 0 {
			claims[len(claims)-1].Reason = "no dataset ran"
		}
		wins, total, lost = bestOfRow(cv)
		claims = append(claims, Claim{Source: src,
			Quote: "When we tune hyperparameters, we observe that FGPWC outperforms all methods on all datasets",
			Rule: fmt.Sprintf("FGPWC with σ_m, σ_c chosen by constraint cross-validation (our stand-in for the paper's tuning) has a higher mean ARI than every peer column on every dataset it ran: %s. %s",
				quantBands(allOf(total), total, "datasets"), fgpwcTunedOnTable),
			Ours:    fmt.Sprintf("best of its row on %d of %d datasets; beaten on %s", wins, total, strings.Join(lost, "; ")),
			Verdict: shareVerdict(wins, total),
			Reason:  "the paper tuned σ_m, σ_c on the ground truth (an upper bound, not reproduced); ours tunes on the constraints alone"})
	}

	// FGPWC against each peer, row by row.
	for _, p := range peers {
		wins, total, _, lost := fgpwcHeadToHead(results, run, fg, p, sets)
		ours := fmt.Sprintf("FGPWC higher on %d of %d datasets", wins, total)
		if len(lost) > 0 {
			ours += "; not on " + strings.Join(lost, "; ")
		}
		claims = append(claims, Claim{Source: "seed 003 §1 (on its Table 1)",
			Quote: "Empirical results place our algorithm above competing systems on most of the data sets",
			Rule: fmt.Sprintf("FGPWC (paper's defaults) has a higher mean ARI than %s on most (more than half) of the datasets both ran: %s. "+
				"Until the review of the claims ledger, the quote stopped before \"on most of the data sets\" (and was placed in the abstract, not §1), and the rule asked for 2/3 (held), "+
				"with not held below 1/2. %s",
				fgpwcShortTitle(p.key), quantBands(mostOf(total), total, "datasets"), fgpwcTunedOnTable),
			Ours:    ours,
			Verdict: quantVerdict(wins, total, mostOf(total))})
	}

	// COSC at k = 2.
	if cosc := fgpwcColumnByKey("cosc"); hasColumn(peers, "cosc") {
		ok, total := 0, 0
		var ours []string
		for _, r := range run {
			if fgpwcClasses(r) != 2 {
				continue
			}
			v := fgpwcCollect(results, r, cosc, "violations", sets)
			if v.count == 0 {
				continue
			}
			total++
			if v.mean == 0 {
				ok++
			}
			ours = append(ours, fmt.Sprintf("%s %s", r.name, fmtViol(v.mean)))
		}
		claims = append(claims, Claim{Source: src,
			Quote:   "COSC is able to return partitions with 0 violated constraints when the number of clusters k = 2",
			Rule:    "COSC's mean number of violated constraints is 0 on every 2-class dataset: " + quantBands(allOf(total), total, "2-class datasets"),
			Ours:    "mean violations: " + strings.Join(ours, ", "),
			Verdict: shareVerdict(ok, total)})
	}

	// CCSR competitive with FGPWC.
	if hasColumn(peers, "ccsr") {
		ok, total := 0, 0
		for _, r := range run {
			mf, mc, n := fgpwcPairedARI(results, r, fg, fgpwcColumnByKey("ccsr"), sets)
			if n == 0 {
				continue
			}
			total++
			if mc >= mf-0.05 {
				ok++
			}
		}
		claims = append(claims, Claim{Source: src,
			Quote:   "CCSR is competitive with FGPWC w.r.t. the ARI measure in many cases",
			Rule:    fmt.Sprintf("CCSR's mean ARI is at least FGPWC's (paper's defaults) − 0.05 on at least half of the datasets both ran (\"many cases\"): %s. %s", quantBands(halfOf(total), total, "datasets"), fgpwcTunedOnTable),
			Ours:    fmt.Sprintf("on %d of %d datasets", ok, total),
			Verdict: quantVerdict(ok, total, halfOf(total))})
	}

	// CSP and SL poor.
	for _, key := range []string{"csp", "sl"} {
		if !hasColumn(peers, key) {
			continue
		}
		c := fgpwcColumnByKey(key)
		poor, total := 0, 0
		var high []string
		for _, r := range run {
			a := fgpwcCollect(results, r, c, "ari", sets)
			if a.count == 0 || math.IsNaN(a.mean) {
				continue
			}
			total++
			if a.mean < 0.1 {
				poor++
			} else {
				high = append(high, fmt.Sprintf("%s %.3f", r.name, a.mean))
			}
		}
		ours := fmt.Sprintf("mean ARI below 0.1 on %d of %d datasets", poor, total)
		if len(high) > 0 {
			ours += "; above on " + strings.Join(high, ", ")
		}
		claims = append(claims, Claim{Source: src,
			Quote: "Columns CSP and SL give poor results",
			Rule: fmt.Sprintf("%s's mean ARI is below 0.1 on at least 2/3 of the datasets (the quote has no quantifier; 2/3 is the page's reading of a column's general character): %s. "+
				"Until the ledger's rule was made one, below 1/2 was not held", c.title, quantBands(twoThirdsOf(total), total, "datasets")),
			Ours:    ours,
			Verdict: quantVerdict(poor, total, twoThirdsOf(total))})
	}
	return claims
}

// hasColumn reports whether cols has the column key.
func hasColumn(cols []fgpwcColumn, key string) bool {
	for _, c := range cols {
		if c.key == key {
			return true
		}
	}
	return false
}

// fgpwcHeadToHead compares column a with column b on each of rows by their
// paired mean ARIs over the sets both ran (fgpwcPairedARI): total counts
// the rows both ran (a NaN mean does not count), wins those where a is
// higher, and won and lost name each row of either kind with both means
// ("iris 0.888 vs 0.902").
func fgpwcHeadToHead(results map[string]Values, rows []fgpwcRow, a, b fgpwcColumn, sets int) (wins, total int, won, lost []string) {
	for _, r := range rows {
		ma, mb, n := fgpwcPairedARI(results, r, a, b, sets)
		if n == 0 || math.IsNaN(ma) || math.IsNaN(mb) {
			continue
		}
		total++
		if ma > mb {
			wins++
			won = append(won, fmt.Sprintf("%s %.3f vs %.3f", r.name, ma, mb))
		} else {
			lost = append(lost, fmt.Sprintf("%s %.3f vs %.3f", r.name, ma, mb))
		}
	}
	return wins, total, won, lost
}

// fgpwcRunRows returns the rows of rows that run: their data set is under
// root and they are not skipped.
func fgpwcRunRows(rows []fgpwcRow, root string) []fgpwcRow {
	var run []fgpwcRow
	for _, r := range rows {
		if fgpwcAvailable(r, root) && r.skip == "" {
			run = append(run, r)
		}
	}
	return run
}
