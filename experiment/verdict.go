package experiment

import "fmt"

// quantVerdict is the verdict of a claim judged over a set of cases
// (datasets, points, runs, …): its rule holds on ok of the total cases, and
// the claim's own quantifier asks for need of them — total for "all" or
// "every" (allOf), more than half for "most" (mostOf), N for "in N cases".
// It is Held when ok ≥ need, PartlyHeld when ok < need but 2·ok ≥ need (at
// least half of what the claim needs), NotHeld when 2·ok < need, and
// NotTestable without cases. A need below 1 counts as 1 (so a claim that
// needs one case is Held or NotHeld); a need above total can only give
// PartlyHeld or NotHeld.
//
// Every case-counted claim of the pages goes through it, and its rule text
// states need and the bands (quantBands). A claim that is a single
// comparison, not a count of cases, is Held or NotHeld (boolVerdict).
func quantVerdict(ok, total, need int) Verdict {
	need = max(need, 1)
	switch {
	case total <= 0:
		return NotTestable
	case ok >= need:
		return Held
	case 2*ok >= need:
		return PartlyHeld
	}
	return NotHeld
}

// partlyFrom is the least count of cases that makes a claim needing need
// of them partly held: ⌈need/2⌉ (at least 1).
func partlyFrom(need int) int { return (max(need, 1) + 1) / 2 }

// shareVerdict is quantVerdict for a rule that must hold on every case:
// Held on all, PartlyHeld on at least half of them, NotHeld on fewer,
// NotTestable without cases.
func shareVerdict(ok, total int) Verdict { return quantVerdict(ok, total, allOf(total)) }

// The needs of the quantifiers the claims use, for n cases.

// allOf is "all", "every", "at each": n.
func allOf(n int) int { return n }

// mostOf is "most", "more than half": ⌊n/2⌋ + 1.
func mostOf(n int) int { return n/2 + 1 }

// halfOf is "at least half": ⌈n/2⌉.
func halfOf(n int) int { return (n + 1) / 2 }

// twoThirdsOf is "at least two thirds": ⌈2n/3⌉.
func twoThirdsOf(n int) int { return (2*n + 2) / 3 }

// thirdOf is "at least a third": ⌈n/3⌉.
func thirdOf(n int) int { return (n + 2) / 3 }

// percentOf is "at least p% of them": ⌈p·n/100⌉.
func percentOf(p, n int) int { return (p*n + 99) / 100 }

// quantBands states quantVerdict's bands for a rule's text, for need of
// total cases named by unit (plural: "datasets", "points"): "held on all 20
// datasets, partly held on 10 to 19, not held on 9 or fewer", or "held on 11
// or more of the 20 datasets, partly held on 6 to 10, not held on 5 or
// fewer". Without cases it states them in words.
func quantBands(need, total int, unit string) string {
	need = max(need, 1)
	lo := partlyFrom(need)
	notHeld := "not held on none"
	if lo > 1 {
		notHeld = fmt.Sprintf("not held on %d or fewer", lo-1)
	}
	partly := fmt.Sprintf("partly held on %d to %d", lo, min(need-1, total))
	if lo == min(need-1, total) {
		partly = fmt.Sprintf("partly held on %d", lo)
	}
	switch {
	case total <= 0:
		return fmt.Sprintf("held when enough %s hold, partly held when at least half as many do, not held when fewer do", unit)
	case need > total && lo > total:
		return fmt.Sprintf("held on %d or more %s (there are %d: it cannot be held), partly held on %d or more (it cannot be), not held on any count", need, unit, total, lo)
	case need > total:
		return fmt.Sprintf("held on %d or more %s (there are %d: it cannot be held), %s, %s", need, unit, total, partly, notHeld)
	case total == 1:
		return fmt.Sprintf("held on 1 of 1 %s, not held on none", unit)
	case need == 1:
		return fmt.Sprintf("held on 1 or more of the %d %s, not held on none", total, unit)
	case need == total:
		return fmt.Sprintf("held on all %d %s, %s, %s", total, unit, partly, notHeld)
	}
	return fmt.Sprintf("held on %d or more of the %d %s, %s, %s", need, total, unit, partly, notHeld)
}

// jointVerdict is the verdict of a claim whose rule has parts, each with
// its own verdict, by quantVerdict's rule with the parts as its cases: a
// held part counts one, a partly held part (at least half of what it
// needs) one half. Held when every testable part is held, PartlyHeld when
// the count is at least half of the testable parts (2·held + partly ≥
// parts: one held part of two, or two partly held), NotHeld below that (a
// partly held part beside a not held one); NotTestable when no part is
// testable. jointBands states it for a rule's text.
func jointVerdict(parts ...Verdict) Verdict {
	var held, n, some int
	for _, v := range parts {
		switch v {
		case Held:
			held++
		case PartlyHeld:
			some++
		}
		if v != NotTestable {
			n++
		}
	}
	switch {
	case n == 0:
		return NotTestable
	case held == n:
		return Held
	case 2*held+some >= n:
		return PartlyHeld
	}
	return NotHeld
}

// jointBands states jointVerdict's bands for a rule of two parts.
const jointBands = "held when both parts are held, partly held when one is held or both are partly held, not held otherwise (a part partly held counts half)"

// boolVerdict is the verdict of a claim that is a single comparison, not a
// count of cases: Held when ok, NotHeld otherwise.
func boolVerdict(ok bool) Verdict {
	if ok {
		return Held
	}
	return NotHeld
}
