package cluster

// Spelling names the options that the errors and warnings of Run and of
// the methods suggest (graph.WithSelfLoops, Problem.K,
// Problem.Disconnected, constraint.Resolve, Settings.Repair, …) in the
// words of a front end whose users do not write Go: a command line's
// flags, a job's fields, a web page's controls. dataset.Spelling
// implements it for tether's command line (CommandLine) and a job's
// spec; tether serve gives its own. Settings.Spelling carries it; a nil
// Spelling names the library's remedies alone. It changes no
// computation.
type Spelling interface {
	// Remedy returns how the front end's users set the option that
	// tether cluster spells -flag to each of values, joined by " or ",
	// after the front end's name ("tether: -self-loops", "tether:
	// -conflicts drop-cl", `job: "k"`; no value: the option alone), or
	// "" when they cannot.
	Remedy(flag string, values ...string) string
}

// front returns how the front end of s spells the option that tether
// cluster spells -flag set to values ("tether: -self-loops"), or "" for
// the library (a nil s or Spelling) and for a front end without it.
func (s *Settings) front(flag string, values ...string) string {
	if s == nil || s.Spelling == nil {
		return ""
	}
	return s.Spelling.Remedy(flag, values...)
}

// remedy returns the parenthesis of a message that names a remedy: the
// library's lib, then the front end's option (front):
// "(graph.WithSelfLoops; tether: -self-loops)", or "(graph.WithSelfLoops)"
// for the library and a front end without the option.
func (s *Settings) remedy(lib, flag string, values ...string) string {
	if f := s.front(flag, values...); f != "" {
		return "(" + lib + "; " + f + ")"
	}
	return "(" + lib + ")"
}

// inParens returns part in a parenthesis after a space, or "" for an
// empty part: a front end's option inside a parenthesis already open.
func inParens(part string) string {
	if part == "" {
		return ""
	}
	return " (" + part + ")"
}

// selfLoops is the parenthesis naming how to add self loops to the
// graph: graph.WithSelfLoops, and the front end's option.
func (s *Settings) selfLoops() string {
	return s.remedy("graph.WithSelfLoops", "self-loops")
}

// resolveRemedy is the parenthesis naming how to resolve contradictory
// pairs before a method that refuses them: constraint.Resolve, and the
// front end's policy that keeps the must-links.
func (s *Settings) resolveRemedy() string {
	return s.remedy("constraint.Resolve", "conflicts", "drop-cl")
}
