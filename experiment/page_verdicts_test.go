package experiment

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// pageVerdictMark matches a verdict written in bold in a page's prose.
var pageVerdictMark = regexp.MustCompile(`\*\*(held|partly held|not held|not testable)\*\*`)

// pageBands matches the verdict bands a rule states (quantBands): the
// same words on every rule, so they do not tell claims apart.
var pageBands = regexp.MustCompile(`held (on|when) .*?not held (on none|on \d+ or fewer|on any count|when fewer do)`)

// pageTokens splits s into lower-case words and numbers: the unit by which
// a prose line is matched to the claim it speaks of.
func pageTokens(s string) map[string]bool {
	toks := map[string]bool{}
	for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '+' || r == '-' || r == '%')
	}) {
		f = strings.Trim(f, ".")
		if f != "" && f != "-" && f != "+" {
			toks[f] = true
		}
	}
	return toks
}

// pageClaimOf returns the index of the claim of claims that a prose line
// speaks of: the one whose words (its quote, rule and our numbers) overlap
// the line's most (weighted intersection over union, numbers weighing five
// times a word: they tell apart the claims of one quote, one per method or
// density), and the share of the claim's words the line contains; -1 when
// there is no claim.
func pageClaimOf(line string, claims []Claim) (best int, share float64) {
	weight := func(t string) float64 {
		if strings.ContainsAny(t, "0123456789") {
			return 1
		}
		return 0.2
	}
	lt := pageTokens(pageBands.ReplaceAllString(line, ""))
	var lineW float64
	for t := range lt {
		lineW += weight(t)
	}
	best = -1
	bestJ := 0.0
	for i, c := range claims {
		ct := pageTokens(c.Quote + " " + pageBands.ReplaceAllString(c.Rule, "") + " " + c.Ours)
		var got, all float64
		for t := range ct {
			all += weight(t)
			if lt[t] {
				got += weight(t)
			}
		}
		if all == 0 {
			continue
		}
		if j := got / (all + lineW - got); j > bestJ {
			best, bestJ, share = i, j, got/all
		}
	}
	return best, share
}

// Every verdict a committed page's prose writes in bold beside a claim
// agrees with that claim's verdict in the page's claims.json. A prose
// line is attributed to the claim whose quote, rule and numbers it shares
// most; the tables (the claims table at the top, whose verdicts are
// claims.json's by construction) are skipped. A line that names a verdict
// in bold must be attributable, and every bold verdict in it must be its
// claim's: a part of a claim (one figure of two, one fit of three) is
// written without bold.
func TestPageProseVerdictsMatchClaims(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "docs", "results", "*", ClaimsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Skip("no committed pages")
	}
	checked := 0
	for _, cf := range dirs {
		dir := filepath.Dir(cf)
		b, err := os.ReadFile(cf)
		if err != nil {
			t.Fatal(err)
		}
		claims, err := decodeClaims(b)
		if err != nil {
			t.Fatalf("%s: %v", cf, err)
		}
		page, err := os.ReadFile(filepath.Join(dir, "README.md"))
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range strings.Split(string(page), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "|") {
				continue
			}
			marks := pageVerdictMark.FindAllStringSubmatch(line, -1)
			if len(marks) == 0 {
				continue
			}
			where := filepath.Base(dir) + "/README.md:" + strconv.Itoa(n+1)
			i, share := pageClaimOf(line, claims)
			if i < 0 || share < 0.5 {
				t.Errorf("%s: a verdict in bold that no claim of claims.json matches (best share %.2f): %.120s", where, share, line)
				continue
			}
			checked++
			for _, m := range marks {
				if m[1] != claims[i].Verdict.String() {
					t.Errorf("%s: prose says %q of the claim %q, claims.json says %q (share %.2f)", where, m[1], claims[i].Quote, claims[i].Verdict, share)
				}
			}
		}
	}
	t.Logf("%d prose lines checked", checked)
}
