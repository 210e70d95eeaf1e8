package main

import (
	"regexp"
	"strings"
)

// sourcesHelp names the sources that help texts and tether methods cite
// as "thesis" and "seed 001" … "seed 004": the README's list of sources,
// word for word but for its italics (TestSourcesMatchReadme).
const sourcesHelp = `Sources: thesis = D. Chatel, Semi-supervised clustering in graphs, PhD thesis, Lille 2017;
seed 001 = Kawale & Boley, SDM 2013; seed 002 = Wacquet et al., PRL 2013; seed 003 = Chatel, Denis,
Tommasi, Fast Gaussian Pairwise Constrained Spectral Clustering, ECML/PKDD 2014; seed 004 = F. Soares
Oliveira, Extending the use of the Bethe Hessian to Constrained Spectral Clustering, Tsukuba 2017.`

// citesSource matches a citation that sourcesHelp explains.
var citesSource = regexp.MustCompile(`\bthesis\b|\bseed 00[1-4]\b`)

// citeSources returns text followed by sourcesHelp when text cites one of
// the sources by the names sourcesHelp defines, else text unchanged.
func citeSources(text string) string {
	if !citesSource.MatchString(text) {
		return text
	}
	return strings.TrimRight(text, "\n") + "\n\n" + sourcesHelp + "\n"
}

// internalRef matches the project's internal references in the sources
// of the reproductions (experiment.Experiment.Source), which a user of
// the command has no way to look up: "issue 19" (the issue that asked for
// the work, not in the repository) and "seed 000", the sources' own
// name for the thesis.
var internalRef = regexp.MustCompile(`\bissue \d+\b|\bseed 000\b`)

// userSource returns an experiment's source as tether repro list shows
// it: "issue N" becomes "ours" and "seed 000" "thesis", the names of
// sourcesHelp.
func userSource(s string) string {
	return internalRef.ReplaceAllStringFunc(s, func(m string) string {
		if m == "seed 000" {
			return "thesis"
		}
		return "ours"
	})
}
