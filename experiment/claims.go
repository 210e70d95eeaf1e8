package experiment

// Verdict is the outcome of checking one published claim against our
// numbers. It is decided by a rule stated in the claim's Rule field and
// computed from the cells, never set by hand.
type Verdict int8

const (
	// NotTestable: the claim cannot be checked with the data or methods here
	// (Reason says why).
	NotTestable Verdict = iota
	// Held: our numbers satisfy the claim by its rule.
	Held
	// PartlyHeld: the claim is judged over a set of cases and its rule
	// holds on fewer than the claim's own quantifier asks, but on at least
	// half of that number (quantVerdict).
	PartlyHeld
	// NotHeld: our numbers contradict the claim by its rule.
	NotHeld
)

var verdictNames = [...]string{"not testable", "held", "partly held", "not held"}

// ledgerVerdictRule states, at the top of the ledger, how every verdict is
// given (quantVerdict and boolVerdict).
const ledgerVerdictRule = "A claim judged over a set of cases (datasets, points, runs, …) is **held** when its rule holds on as many cases as the claim's own quantifier asks " +
	"(all of them for \"all\", \"every\" or \"each\"; more than half for \"most\"; at least N for \"in N cases\"; the share a rule states where the claim has no quantifier), " +
	"**partly held** when it holds on fewer cases than that but on at least half as many (2 × cases held ≥ cases needed), and **not held** when it holds on fewer than half as many; " +
	"each such rule states its threshold and these bands (\"held on 11 or more of the 20 datasets, partly held on 6 to 10, not held on 5 or fewer\"). " +
	"A claim whose rule has quantified parts counts its parts the same way (a part partly held counts half): held when all are held, partly held when at least half are, not held otherwise. " +
	"A claim that is a single comparison, not a count of cases, is held or not held; a rule of two conditions that are not a count of cases states its own bands."

// String returns the verdict as written in the ledger.
func (v Verdict) String() string {
	if v < 0 || int(v) >= len(verdictNames) {
		return "unknown"
	}
	return verdictNames[v]
}

// Claim is one qualitative or quantitative statement of a source document
// that an experiment checks. Experiments return their claims in
// Output.Claims; `tether repro` gathers them into docs/results/CLAIMS.md and
// each page lists its own at the top.
type Claim struct {
	// Source names the document and place, e.g. "seed 003 §5.2, Table 1".
	Source string
	// Quote is the claim in the source's words (or a faithful paraphrase,
	// marked as such).
	Quote string
	// Rule is the test applied, e.g. "FGPWC's mean ARI is the highest of
	// the row on ≥ 2/3 of the datasets".
	Rule string
	// Ours states our numbers behind the verdict.
	Ours string
	// Verdict is the outcome of Rule on Ours.
	Verdict Verdict
	// Reason explains a NotTestable or PartlyHeld verdict; optional
	// otherwise.
	Reason string
}
