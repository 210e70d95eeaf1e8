package experiment

import "fmt"

// quantVerdict is the verdict of a claim judged over a set of cases
// (datasets, points, runs, …): its rule holds on ok of the total cases, and
// the claim's own quantifier asks for need of them — total for "all" or
// "every" (allOf), more than half for "most" (mostOf), N for "in N cases".
// It is Held when ok ≥ need, NotHeld when ok == 0 (no case holds),
// PartlyHeld in between, and NotTestable without cases. A need below 1 counts
// as 1; a need above total can only give PartlyHeld or NotHeld.
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
	case ok <= 0:
		return NotHeld
	}
	return PartlyHeld
}

// shareVerdict is quantVerdict for a rule that must hold on every case:
// Held on all, NotHeld on none, PartlyHeld otherwise, NotTestable without
// cases.
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
// datasets, partly held on 1 to 19, not held on none", or "held on 11 or
// more of the 20 datasets, …". Without cases it states them in words.
func quantBands(need, total int, unit string) string {
	need = max(need, 1)
	switch {
	case total <= 0:
		return fmt.Sprintf("held when enough %s hold, partly held when some but fewer do, not held when none does", unit)
	case need > total:
		return fmt.Sprintf("held on %d or more %s (there are %d: it cannot be held), partly held on 1 to %d, not held on none", need, unit, total, total)
	case total == 1:
		return fmt.Sprintf("held on 1 of 1 %s, not held on none", unit)
	case need == 1:
		return fmt.Sprintf("held on 1 or more of the %d %s, not held on none", total, unit)
	}
	partly := fmt.Sprintf("partly held on 1 to %d", need-1)
	if need == 2 {
		partly = "partly held on 1"
	}
	if need == total {
		return fmt.Sprintf("held on all %d %s, %s, not held on none", total, unit, partly)
	}
	return fmt.Sprintf("held on %d or more of the %d %s, %s, not held on none", need, total, unit, partly)
}

// jointVerdict is the verdict of a claim whose rule has parts, each with
// its own verdict: Held when every testable part is held, NotHeld when
// every testable part is not held, PartlyHeld otherwise; NotTestable when
// no part is testable.
func jointVerdict(parts ...Verdict) Verdict {
	var held, not, some int
	for _, v := range parts {
		switch v {
		case Held:
			held++
		case NotHeld:
			not++
		case PartlyHeld:
			some++
		}
	}
	switch {
	case held+not+some == 0:
		return NotTestable
	case not == 0 && some == 0:
		return Held
	case held == 0 && some == 0:
		return NotHeld
	}
	return PartlyHeld
}

// boolVerdict is the verdict of a claim that is a single comparison, not a
// count of cases: Held when ok, NotHeld otherwise.
func boolVerdict(ok bool) Verdict {
	if ok {
		return Held
	}
	return NotHeld
}
