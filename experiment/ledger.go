package experiment

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tether-sc/tether/internal/jsonpos"
	"github.com/tether-sc/tether/internal/wording"
)

// ClaimsFile is the file, in each experiment's output folder, that holds the
// claims of its last report as JSON. Run writes it; BuildLedger reads every
// experiment's, so a run of a subset of the experiments rebuilds the whole
// ledger without dropping the others' claims.
const ClaimsFile = "claims.json"

// LedgerFile is the ledger's name in the results folder.
const LedgerFile = "CLAIMS.md"

// MarshalText returns the verdict's ledger name ("held", "not held", …).
func (v Verdict) MarshalText() ([]byte, error) {
	if v < 0 || int(v) >= len(verdictNames) {
		return nil, fmt.Errorf("experiment: invalid verdict %d", int(v))
	}
	return []byte(verdictNames[v]), nil
}

// UnmarshalText sets v from a name MarshalText returns.
func (v *Verdict) UnmarshalText(text []byte) error {
	for i, n := range verdictNames {
		if string(text) == n {
			*v = Verdict(i)
			return nil
		}
	}
	return fmt.Errorf("experiment: unknown verdict %q", text)
}

// claimJSON is Claim as stored in ClaimsFile.
type claimJSON struct {
	Source  string  `json:"source"`
	Quote   string  `json:"quote"`
	Rule    string  `json:"rule"`
	Ours    string  `json:"ours"`
	Verdict Verdict `json:"verdict"`
	Reason  string  `json:"reason,omitempty"`
}

// encodeClaims returns the ClaimsFile contents of claims (an empty list is
// written as [], so "checked nothing" differs from "never run").
func encodeClaims(claims []Claim) ([]byte, error) {
	list := make([]claimJSON, len(claims))
	for i, c := range claims {
		list[i] = claimJSON(c)
	}
	b, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("experiment: claims: %w", err)
	}
	return append(b, '\n'), nil
}

// decodeClaims parses a ClaimsFile.
func decodeClaims(b []byte) ([]Claim, error) {
	var list []claimJSON
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, fmt.Errorf("experiment: claims: %w", err)
	}
	out := make([]Claim, len(list))
	for i, c := range list {
		out[i] = Claim(c)
	}
	return out, nil
}

// jsonPosition returns ":line:column" (1-based, the column in characters:
// jsonpos.Position) of the byte at which encoding/json reported err in b,
// or "" when err carries no offset. Cost O(offset).
func jsonPosition(b []byte, err error) string {
	var off int64
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	default:
		return ""
	}
	// The offset is just past the byte at fault (SyntaxError) or past the
	// value read (UnmarshalTypeError): point at the byte before it.
	if off > 0 {
		off--
	}
	line, col, _ := jsonpos.Position(b, int(min(off, int64(len(b)))))
	return fmt.Sprintf(":%d:%d", line, col)
}

// LedgerEntry is one experiment's section of the ledger.
type LedgerEntry struct {
	Name, Title, Source string
	// Page is the link to the experiment's page, relative to the ledger.
	Page string
	// Run is false when the experiment has no ClaimsFile yet (its page
	// predates the ledger, or it was never run into this folder).
	Run    bool
	Claims []Claim
}

// ClaimCounts tallies claims by verdict.
type ClaimCounts struct {
	Held, PartlyHeld, NotHeld, NotTestable int
}

// Total is the number of claims counted.
func (c ClaimCounts) Total() int { return c.Held + c.PartlyHeld + c.NotHeld + c.NotTestable }

// Count tallies the verdicts of claims; an unknown verdict is an error.
func Count(claims []Claim) (ClaimCounts, error) {
	var c ClaimCounts
	for _, cl := range claims {
		switch cl.Verdict {
		case Held:
			c.Held++
		case PartlyHeld:
			c.PartlyHeld++
		case NotHeld:
			c.NotHeld++
		case NotTestable:
			c.NotTestable++
		default:
			return c, fmt.Errorf("experiment: claim %q: invalid verdict %d", cl.Quote, int(cl.Verdict))
		}
	}
	return c, nil
}

// mdCell escapes text for one cell of a Markdown table: pipes are escaped
// and line breaks become spaces.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\r\n", " ")
	return strings.ReplaceAll(s, "\n", " ")
}

// verdictMark is the verdict as written in the tables: bold, so it stands
// out among the numbers.
func verdictMark(v Verdict) string { return "**" + v.String() + "**" }

// claimsTable writes the table of claims: source, quote, rule, our
// numbers, verdict (with its reason).
func claimsTable(b *strings.Builder, claims []Claim) {
	b.WriteString("| where | claim | rule | ours | verdict |\n|---|---|---|---|---|\n")
	for _, c := range claims {
		verdict := verdictMark(c.Verdict)
		if c.Reason != "" {
			verdict += ": " + c.Reason
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", mdCell(c.Source), mdCell(c.Quote), mdCell(c.Rule), mdCell(c.Ours), mdCell(verdict))
	}
}

// ClaimsSection returns the Markdown section a page opens with: its claims
// with their verdicts, or "" when the experiment checks none.
func ClaimsSection(claims []Claim) string {
	if len(claims) == 0 {
		return ""
	}
	n, err := Count(claims)
	if err != nil {
		return fmt.Sprintf("## Published claims checked\n\n%v\n\n", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## Published claims checked\n\n%s. Each verdict is computed from the cells below by the stated rule; all pages: [CLAIMS.md](../%s).\n\n", countsLine(n), LedgerFile)
	claimsTable(&b, claims)
	b.WriteString("\n")
	return b.String()
}

// WithClaims returns the page md with the claims section inserted after its
// first heading line (at the top when md does not open with a heading).
func WithClaims(md string, claims []Claim) string {
	sec := ClaimsSection(claims)
	if sec == "" {
		return md
	}
	lines := strings.SplitAfter(md, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "# ") {
			head := strings.Join(lines[:i+1], "")
			if !strings.HasSuffix(head, "\n") {
				head += "\n"
			}
			return head + "\n" + sec + strings.TrimLeft(strings.Join(lines[i+1:], ""), "\n")
		}
	}
	return sec + md
}

func countsLine(n ClaimCounts) string {
	return fmt.Sprintf("%s: %d held, %d partly held, %d not held, %d not testable here", wording.Count(n.Total(), "claim", "claims"), n.Held, n.PartlyHeld, n.NotHeld, n.NotTestable)
}

// ledgerSources names the documents the ledger's "source" and "where"
// columns cite, as README.md's Methods section does.
const ledgerSources = `Sources: **thesis** or **seed 000** is D. Chatel, *Semi-supervised clustering in graphs*, PhD thesis, Université de Lille, 2017; ` +
	`**seed 001** J. Kawale, D. Boley, *Constrained Spectral Clustering using L1 Regularization*, SDM 2013; ` +
	`**seed 002** G. Wacquet, É. Poisson Caillault, D. Hamad, P.-A. Hébert, *Constrained spectral embedding for K-way data clustering*, Pattern Recognition Letters 34(9), 2013; ` +
	`**seed 003** D. Chatel, P. Denis, M. Tommasi, *Fast Gaussian Pairwise Constrained Spectral Clustering*, ECML/PKDD 2014; ` +
	`**seed 004** F. Soares Oliveira, *Extending the use of the Bethe Hessian to Constrained Spectral Clustering*, bachelor thesis, University of Tsukuba, 2017; ` +
	`**issue N** (or "ours") is a target this project set itself beyond the sources, in its issue tracker; the claim's text states it.` + "\n\n"

// Ledger renders CLAIMS.md from the entries, in their order: the counts
// over all claims, a count per experiment, then one table per experiment
// with a link to its page.
func Ledger(entries []LedgerEntry) (string, error) {
	var all []Claim
	for _, e := range entries {
		all = append(all, e.Claims...)
	}
	n, err := Count(all)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("# Claims ledger\n\n")
	fmt.Fprintf(&b, "Generated by `tether repro` from the %s file each experiment writes beside its page; regenerated after every run, whatever experiments it ran. ", ClaimsFile)
	b.WriteString("Every published claim our experiments can test, with its place in the source, our numbers and a verdict computed from the cells by the stated rule (never set by hand). ")
	b.WriteString(ledgerVerdictRule + " \"not testable here\" says why.\n\n")
	b.WriteString(ledgerSources)
	fmt.Fprintf(&b, "| held | partly held | not held | not testable | total |\n|---:|---:|---:|---:|---:|\n| %d | %d | %d | %d | %d |\n\n",
		n.Held, n.PartlyHeld, n.NotHeld, n.NotTestable, n.Total())
	b.WriteString("| experiment | source | held | partly | not held | not testable |\n|---|---|---:|---:|---:|---:|\n")
	for _, e := range entries {
		if !e.Run {
			fmt.Fprintf(&b, "| [%s](%s) | %s | no claims file yet | | | |\n", e.Name, e.Page, mdCell(e.Source))
			continue
		}
		c, _ := Count(e.Claims) // checked above
		fmt.Fprintf(&b, "| [%s](%s) | %s | %d | %d | %d | %d |\n", e.Name, e.Page, mdCell(e.Source), c.Held, c.PartlyHeld, c.NotHeld, c.NotTestable)
	}
	b.WriteString("\n")
	for _, e := range entries {
		fmt.Fprintf(&b, "## [%s](%s): %s\n\n", e.Name, e.Page, e.Title)
		switch {
		case !e.Run:
			fmt.Fprintf(&b, "No %s in this folder: the page predates the ledger or was never run here; `tether repro %s` writes it.\n\n", ClaimsFile, e.Name)
		case len(e.Claims) == 0:
			b.WriteString("No claim of the sources is checked by rule on this page yet.\n\n")
		default:
			c, _ := Count(e.Claims)
			fmt.Fprintf(&b, "%s.\n\n", countsLine(c))
			claimsTable(&b, e.Claims)
			b.WriteString("\n")
		}
	}
	return b.String(), nil
}

// BuildLedger renders CLAIMS.md for the experiments exps from the
// ClaimsFile of each under dir/<name>/. A missing file marks the
// experiment as not run; an unreadable or malformed one is an error.
func BuildLedger(dir string, exps []Experiment) (string, error) {
	entries := make([]LedgerEntry, 0, len(exps))
	for _, e := range exps {
		entry := LedgerEntry{Name: e.Name, Title: e.Title, Source: e.Source, Page: e.Name + "/README.md"}
		path := filepath.Join(dir, e.Name, ClaimsFile)
		b, err := os.ReadFile(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return "", fmt.Errorf("experiment: ledger: %w", err)
		default:
			if entry.Claims, err = decodeClaims(b); err != nil {
				// The file and, for a JSON error, the line and column: a
				// claims file of another experiment spoilt by hand must be
				// found to be fixed (or removed, to rerun that experiment).
				return "", fmt.Errorf("experiment: ledger: %s%s: %w", path, jsonPosition(b, err), err)
			}
			entry.Run = true
		}
		entries = append(entries, entry)
	}
	return Ledger(entries)
}
