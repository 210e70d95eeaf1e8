package graph

// Spelling names the options that Build's errors suggest (Spec.MaxFull,
// Spec.Sigma, the scaling of the features) in the words of a front end
// whose users do not write a Spec: a command line's flags, a job's
// fields, a web page's options. dataset.Spelling implements it for
// tether's front ends; BuildNeighborsSpelled takes it. The errors of
// Build, BuildRecorded and BuildNeighbors, and a nil Spelling, name the
// library's options alone.
type Spelling interface {
	// Remedy returns how the front end's users set the option that
	// tether cluster spells -flag to each of values, joined by " or ",
	// after the front end's name ("tether: -max-full", "tether: -scale
	// minmax or -scale zscore"; no value: the option alone), or "" when
	// they cannot.
	Remedy(flag string, values ...string) string
}

// remedy returns the parenthesis of an error that names a remedy: the
// library's lib, then the front end's option that tether cluster spells
// -flag set to values, as sp spells it: "(Spec.MaxFull; tether:
// -max-full)"; "(Spec.MaxFull)" when sp is nil or has no such option.
func remedy(sp Spelling, lib, flag string, values ...string) string {
	if sp != nil {
		if front := sp.Remedy(flag, values...); front != "" {
			return "(" + lib + "; " + front + ")"
		}
	}
	return "(" + lib + ")"
}
