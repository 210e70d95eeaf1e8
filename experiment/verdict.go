package experiment

// heldIf is the verdict every reproduction page writes beside a published
// claim: "**held**" when ok, "**not held**" otherwise.
func heldIf(ok bool) string {
	if ok {
		return "**held**"
	}
	return "**not held**"
}

// shareVerdict is the verdict of a rule checked on total cases of which it
// holds on ok: Held on all, NotHeld on none, PartlyHeld otherwise, and
// NotTestable when there is no case.
func shareVerdict(ok, total int) Verdict {
	switch {
	case total == 0:
		return NotTestable
	case ok == total:
		return Held
	case ok == 0:
		return NotHeld
	}
	return PartlyHeld
}

// boolVerdict is Held when ok, NotHeld otherwise.
func boolVerdict(ok bool) Verdict {
	if ok {
		return Held
	}
	return NotHeld
}
