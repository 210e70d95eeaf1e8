package input

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/inputfile"
	"github.com/tether-sc/tether/internal/unionfind"
	"github.com/tether-sc/tether/internal/wording"
)

// Supervision names the side information of a job: files of pairwise
// constraints and of partial labels. The zero value is no supervision.
type Supervision struct {
	// Constraints is a pairwise constraints file ("i,j,ml|cl[,weight]"
	// lines, constraint.ReadFile), "" for none. When the data names its
	// nodes (Data.Names), i and j may be names; the file's first
	// constraint decides (constraint.ReadOptions.AutoNames), or its header
	// name_i,name_j,kind (constraint.WriteNamed) says they are names.
	Constraints string
	// Conflicts says what happens to contradictory or repeated constraints
	// (constraint.Resolve). The zero value, constraint.Reject, refuses
	// them, except a pair repeated with the same kind and weight, which is
	// used once (Added.Repeats); constraint.Soft keeps every pair as read.
	Conflicts constraint.Policy
	// Vote, if true, first drops the constraints that the constraints near
	// them on the graph contradict (VoteFilter).
	Vote bool
	// Labels is a partial labels file (ReadPartialLabels), "" for none.
	Labels string
	// KFromLabels, when the problem's K is 0, sets it to the number of
	// classes of the partial labels (their distinct known labels), for a
	// method that does not estimate k itself; Added.KFromLabels reports
	// it. A file with fewer than 2 classes leaves K at 0. Without Labels,
	// or with K set, it does nothing.
	KFromLabels bool
	// KFlag names the command-line flag that set the problem's K in
	// errors ("-k": "3 classes (a, b, c) for -k 2"); "" names K as the
	// number it is ("for k = 2"), as a job's field k or a library caller
	// gives it.
	KFlag string
	// Spelling says how the warnings and errors name the options and
	// commands they suggest, as the front end that adds the supervision
	// spells them: tether's command line (CommandLine: "-missing drop"
	// dropped the rows of labels and pairs not used; tether labels writes
	// a table's class column as a labels file); the zero value names the
	// Go options alone.
	Spelling dataset.Spelling
	// ReadFile, if not nil, reads the files instead of the local file
	// system (an object store, say): it returns a file's whole content,
	// and its errors, which should name the file, are returned as they
	// are. nil reads local files.
	ReadFile func(ctx context.Context, name string) ([]byte, error)
	// Open, if not nil and ReadFile is nil, opens the local files instead
	// of inputfile.Open (whose waits for a FIFO's writer end when ctx is
	// cancelled, as Open's should): tether cluster's returns a file whose
	// reads report their progress. Its errors are wrapped as inputfile's
	// are ("constraint: …", "dataset: …").
	Open func(ctx context.Context, name string) (io.ReadCloser, error)
}

// droppedBy returns " (-missing drop)", the option that drops rows with
// missing values as sp spells it, or, when the front end has none,
// " (library: Options.Missing = MissingDrop)".
func droppedBy(sp dataset.Spelling) string {
	if o, ok := sp.Option("missing", "drop"); ok {
		return " (" + o + ")"
	}
	return " (library: Options.Missing = MissingDrop)"
}

// open opens the local file name with s.Open, or inputfile.Open when it
// is nil.
func (s Supervision) open(ctx context.Context, name string) (io.ReadCloser, error) {
	if s.Open != nil {
		return s.Open(ctx, name)
	}
	f, err := inputfile.Open(ctx, name)
	if err != nil {
		return nil, err // not a nil *inputfile.File in an io.ReadCloser
	}
	return f, nil
}

// Added says what Supervision.AddTo read.
type Added struct {
	// Constraints is the number of pairs read from the constraints file.
	Constraints int
	// VoteDropped is the number of them the vote filter dropped.
	VoteDropped int
	// Repeats is the number of pairs the Reject policy dropped as
	// identical repeats of an earlier pair (same nodes, kind and weight;
	// constraint.Reject), and RepeatNote describes them (file lines), ""
	// when there are none.
	Repeats    int
	RepeatNote string
	// LabelClasses are the classes of the partial labels as the file
	// writes them (PartialLabels.Classes): nil when its integer labels
	// are the classes. LabelNote says how integer labels were renumbered
	// (PartialLabels.Note), "" when they were not.
	LabelClasses []string
	LabelNote    string
	// LabelWarnings are the warnings of the partial labels file
	// (PartialLabels.Warnings), nil when there are none.
	LabelWarnings []string
	// Warnings holds LabelWarnings and the warnings on labels and pairs
	// left out because they name rows dropped for missing values
	// (Data.Rows), nil when there are none: what front ends print as
	// warnings.
	Warnings []string
	// KFromLabels is the k that Supervision.KFromLabels took from the
	// partial labels (the problem's K), 0 when it took none; LabelClassCount
	// is the number of classes of the partial labels, whatever k is.
	KFromLabels     int
	LabelClassCount int
	// Notes holds RepeatNote and LabelNote, in that order, when they are
	// set: documented choices (identical repeats used once, integer
	// labels renumbered), for front ends to print as notes, not
	// warnings (see Data.Notes).
	Notes []string
}

// AddTo reads the files of s into p for the data d: p.Constraints and
// p.Labels on the nodes of p.Graph (d.Graph when p has none), the partial labels matched against d's node
// names and checked against p.K (more classes than p.K: an error wrapping
// ErrTooManyClasses). With s.KFromLabels and p.K = 0, p.K becomes the
// number of classes of the partial labels when they have two or more
// (Added.KFromLabels); the labels are read before the constraints, whose
// vote filter reads p.K. Errors name the file, and the line, node
// and value when there is one; a conflict refused by s.Conflicts wraps
// constraint.ErrConflict and names the lines of the pairs in conflict
// (after the vote filter, their order in the file). Under the Reject
// policy, pairs that contradict the partial labels are conflicts too (a
// must-link, or a chain of them, joining nodes of two classes, or a
// cannot-link between nodes, or must-link components, of one class), and
// a pair repeated with the same kind and weight is
// not: its repeats are dropped and counted in Added.Repeats. When rows of
// d's table were dropped for missing values (Data.Rows), the files number
// (or name) the file's rows, dropped ones included: they are read so and
// mapped onto the nodes kept, and labels and pairs on dropped rows are left
// out with a warning (Added.Warnings). A nil p or d,
// or neither p nor d with a graph (Data.Check), is an error, but for d's
// feature rows when p has no graph (a method of feature rows alone,
// whose graph BuildGraph may skip: NewProblem) and s asks for no vote
// filter, which reads the graph. ctx is checked as the files are
// read, in the vote filter and the conflicts' resolution, and as the
// pairs are checked against the labels; a cancelled AddTo returns an
// error wrapping ctx.Err().
// Cost: O(file sizes + n), plus VoteFilter's.
func (s Supervision) AddTo(ctx context.Context, p *cluster.Problem, d *Data) (Added, error) {
	var a Added
	switch {
	case p == nil:
		return a, errors.New("input: no problem")
	case d == nil:
		return a, errors.New("input: no data")
	}
	// p's graph, else d's: a method of feature rows alone has none in p
	// (NewProblem), and its nodes are d's.
	g := p.Graph
	if g == nil {
		if err := d.check(!s.Vote || s.Constraints == ""); err != nil {
			return a, err
		}
		g = d.Graph
	}
	n := d.N()
	if g != nil {
		n = g.N()
	}
	// A table with dropped rows: the files number the file's rows, and
	// are mapped onto the nodes kept (Data.Rows).
	sideN, sideNames, byRow := d.sideNodes()
	if !byRow {
		sideN = n
	} else if len(d.Rows) != n {
		return a, fmt.Errorf("input: %s: %d rows kept for %d nodes", d.label(), len(d.Rows), n)
	}
	// The labels first: they may give K, which the vote filter reads.
	class := strconv.Itoa // class c as the labels file writes it
	if s.Labels != "" {
		nl, err := s.readNodeLabels(ctx, sideN, sideNames, d.sideLines(sideNames), d.Name)
		if err != nil {
			return a, err
		}
		if byRow {
			var lost int
			if nl.Labels, lost = d.keptLabels(nl.Labels); lost > 0 {
				a.Warnings = append(a.Warnings, fmt.Sprintf("%s: %s on rows dropped for missing values%s: not used", s.Labels, wording.Count(lost, "label", "labels"), droppedBy(s.Spelling)))
			}
		}
		a.LabelClassCount = numClasses(nl)
		if s.KFromLabels && p.K <= 0 && a.LabelClassCount >= 2 {
			p.K, a.KFromLabels = a.LabelClassCount, a.LabelClassCount
		}
		// Node i as the file writes it (checkClasses): with rows
		// dropped, node i is the file's row d.Rows[i].
		labNode := nl.Node
		if byRow {
			labNode = func(i int) string { return nl.Node(d.Rows[i]) }
		}
		l, err := partialLabels(s.Labels, nl, p.K, nodeText(nl, labNode), s.KFlag)
		if err != nil {
			return a, err
		}
		p.Labels, a.LabelClasses, a.LabelNote, a.LabelWarnings, class = l.Labels, l.Classes, l.Note, l.Warnings, l.class
		a.Warnings = append(a.Warnings, l.Warnings...)
	}
	var lines []int      // file lines of p.Constraints.Pairs, nil after the vote
	node := strconv.Itoa // node i as the file writes it
	if s.Constraints != "" {
		// Read applies the policy itself when it can, so that a refused
		// conflict names the lines of the file; the vote filter breaks
		// conflicts first, so with it the file is read whole (Soft).
		policy := s.Conflicts
		if s.Vote {
			policy = constraint.Soft
		}
		f, err := s.readConstraints(ctx, sideN, policy, sideNames, d.sideLines(sideNames), d.Name)
		if err != nil {
			return a, err
		}
		a.Constraints = f.Report.MustLinks + f.Report.CannotLinks
		if f.NamesAsIndices > 0 && d.X != nil {
			// Names of an id column, read by a table without one, would
			// be other rows without a word (review 112). A graph's
			// integer nodes are its node numbers: no note.
			hint := ""
			if o, ok := s.Spelling.Option("id", "COLUMN"); ok {
				hint = " (" + o + ")"
			}
			a.Notes = append(a.Notes, fmt.Sprintf("%s:%d keys its nodes by name, and the data names none: its names, integers, were read as 0-based row numbers; if they are the values of an id column of the data instead, give that column%s to match them by name", s.Constraints, f.NamesAsIndices, hint))
		}
		if byRow {
			if lost := d.keepPairs(f); lost > 0 {
				a.Warnings = append(a.Warnings, fmt.Sprintf("%s: %s on rows dropped for missing values%s: not used", s.Constraints, wording.Count(lost, "pair", "pairs"), droppedBy(s.Spelling)))
			}
		}
		if policy == constraint.Reject {
			a.Repeats, a.RepeatNote = repeatNote(f, s.Constraints)
			if a.RepeatNote != "" {
				a.Notes = append(a.Notes, a.RepeatNote)
			}
		}
		p.Constraints, lines, node = f.Set, f.Lines, f.Node
		if byRow {
			node = func(k int) string { return f.Node(d.Rows[k]) }
		}
		if s.Vote {
			set, err := VoteFilter(ctx, g, f.Set, p.K)
			if err != nil {
				return a, fmt.Errorf("%s: %w", s.Constraints, err)
			}
			a.VoteDropped = len(f.Set.Pairs) - len(set.Pairs)
			lines = nil
			if p.Constraints, _, err = constraint.ResolveContext(ctx, set, s.Conflicts); err != nil {
				return a, fmt.Errorf("%s: %w", s.Constraints, err)
			}
		}
	}
	if a.LabelNote != "" {
		a.Notes = append(a.Notes, a.LabelNote)
	}
	if s.Conflicts == constraint.Reject && p.Constraints != nil && p.Labels != nil {
		if err := labelConflict(ctx, p.Constraints, lines, node, s.Constraints, p.Labels, class, s.Labels); err != nil {
			return a, fmt.Errorf("%s: %w", s.Constraints, err)
		}
	}
	return a, nil
}

// labelConflict reports, wrapping constraint.ErrConflict, the first pair of
// set (read from consFile; lines[k] is the line of pair k, nil if unknown;
// node(i) is node i as the file writes it) that contradicts the partial
// labels read from labFile (class(c) is class c as that file writes it):
// a must-link, or a chain of them, joining nodes of two classes, or a
// cannot-link between nodes, or must-link components, of one class. Such pairs are refused
// under the Reject policy as contradictory pairs are (constraint.Check);
// the methods used to get both the pairs and the labels. ctx is checked
// every conflictPoll pairs or nodes of its four passes; the error then
// wraps ctx.Err() and names the check. Cost O(pairs + n).
func labelConflict(ctx context.Context, set *constraint.Set, lines []int, node func(int) string, consFile string, labels constraint.Labels, class func(int) string, labFile string) error {
	poll := func(k int) error {
		if k%conflictPoll != 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("check of the pairs against the partial labels of %s: %w", labFile, err)
		}
		return nil
	}
	at := func(k int) string {
		if lines == nil {
			return ""
		}
		return fmt.Sprintf(" [%s:%d]", consFile, lines[k])
	}
	pair := func(q constraint.Pair) string { return fmt.Sprintf("%s(%s,%s)", q.Kind, node(q.I), node(q.J)) }
	for k, q := range set.Pairs {
		if err := poll(k); err != nil {
			return err
		}
		a, b := labels[q.I], labels[q.J]
		switch {
		case a == constraint.Unlabeled || b == constraint.Unlabeled:
		case q.Kind == constraint.MustLink && a != b:
			return fmt.Errorf("%w: %s%s joins nodes labelled %s and %s in %s", constraint.ErrConflict, pair(q), at(k), class(a), class(b), labFile)
		case q.Kind == constraint.CannotLink && a == b:
			return fmt.Errorf("%w: %s%s separates nodes both labelled %s in %s", constraint.ErrConflict, pair(q), at(k), class(a), labFile)
		}
	}
	uf := unionfind.New(len(labels))
	for k, q := range set.Pairs {
		if err := poll(k); err != nil {
			return err
		}
		if q.Kind == constraint.MustLink {
			uf.Union(q.I, q.J)
		}
	}
	first := make(map[int]int) // component root → its first labelled node
	for i, c := range labels {
		if err := poll(i); err != nil {
			return err
		}
		if c == constraint.Unlabeled {
			continue
		}
		r := uf.Find(i)
		j, ok := first[r]
		if !ok {
			first[r] = i
		} else if labels[j] != c {
			return fmt.Errorf("%w: the must-links join node %s, labelled %s, and node %s, labelled %s in %s", constraint.ErrConflict, node(j), class(labels[j]), node(i), class(c), labFile)
		}
	}
	for k, q := range set.Pairs {
		if err := poll(k); err != nil {
			return err
		}
		if q.Kind != constraint.CannotLink {
			continue
		}
		i, ok1 := first[uf.Find(q.I)]
		j, ok2 := first[uf.Find(q.J)]
		if ok1 && ok2 && labels[i] == labels[j] {
			return fmt.Errorf("%w: %s%s separates the must-link components of nodes %s and %s, both labelled %s in %s", constraint.ErrConflict, pair(q), at(k), node(i), node(j), class(labels[i]), labFile)
		}
	}
	return nil
}

// conflictPoll is the number of pairs or nodes labelConflict handles
// between two checks of its context: a millisecond or less (the pairs'
// check in package constraint polls as often).
const conflictPoll = 1 << 16

// readConstraints reads the constraints file s.Constraints on n nodes
// under policy (constraint.ReadContext: errors name the file and line),
// through s.ReadFile when it is set (else s.open). When the data names
// its nodes (names not nil), the file may name them too
// (constraint.ReadOptions.AutoNames: its first constraint decides), and
// lines, when not nil, are the lines of file, the data's, that the names
// come from (constraint.ReadOptions.NameLines), which the error of a name
// that rows share gives.
func (s Supervision) readConstraints(ctx context.Context, n int, policy constraint.Policy, names []string, lines []int, file string) (*constraint.File, error) {
	path := s.Constraints
	var r io.Reader
	if s.ReadFile != nil {
		b, err := s.ReadFile(ctx, path)
		if err != nil {
			return nil, err
		}
		r = bytes.NewReader(b)
	} else {
		f, err := s.open(ctx, path)
		if err != nil {
			return nil, fmt.Errorf("constraint: %w", err)
		}
		defer f.Close()
		r = f
	}
	if len(names) != n {
		names, lines = nil, nil
	}
	f, err := constraint.ReadContext(ctx, r, &constraint.ReadOptions{N: n, File: path, Policy: policy, Names: names, AutoNames: names != nil, NameLines: lines, NamesFile: file})
	if errors.Is(err, constraint.ErrLabelsFile) {
		// A labels file given for pairs: the front end's options for
		// labels (review 95).
		var opts []string
		for _, o := range []struct{ flag, what string }{{"partial-labels", "the known classes of some nodes"}, {"truth", "the reference labels"}} {
			if name, ok := s.Spelling.Option(o.flag, ""); ok {
				opts = append(opts, name+" ("+o.what+")")
			}
		}
		if len(opts) > 0 {
			return nil, fmt.Errorf("%w; give it as %s", err, strings.Join(opts, " or "))
		}
	}
	return f, err
}

// readNodeLabels reads the partial labels file s.Labels on n nodes named
// names (nil: none) with dataset.ReadNodeLabelsContext, through s.ReadFile
// when it is set (else s.open); lines, when not nil, are the lines of
// file, the data's, that the names come from
// (dataset.NodeLabelOptions.NameLines).
func (s Supervision) readNodeLabels(ctx context.Context, n int, names []string, lines []int, file string) (*dataset.NodeLabels, error) {
	opt := dataset.NodeLabelOptions{N: n, Names: names, NameLines: lines, NamesFile: file, Spelling: s.Spelling}
	if s.ReadFile == nil {
		f, err := s.open(ctx, s.Labels)
		if err != nil {
			return nil, fmt.Errorf("dataset: %w", err)
		}
		defer f.Close()
		return dataset.ReadNodeLabelsContext(ctx, f, s.Labels, opt)
	}
	b, err := s.ReadFile(ctx, s.Labels)
	if err != nil {
		return nil, err
	}
	return dataset.ReadNodeLabelsContext(ctx, bytes.NewReader(b), s.Labels, opt)
}

// numClasses returns the number of classes of d: its class names, or its
// distinct integer labels other than Unlabeled. Cost O(n).
func numClasses(d *dataset.NodeLabels) int {
	if d.ClassNames != nil {
		return len(d.ClassNames)
	}
	seen := map[int]bool{}
	for _, c := range d.Labels {
		if c != dataset.Unlabeled {
			seen[c] = true
		}
	}
	return len(seen)
}

// repeatNote returns the number of identical repeats (pairs given again
// with the same kind and weight, constraint.Conflict.IdenticalRepeat) that
// the Reject policy dropped from f, and a note naming the first by file
// line ("" when there are none). Cost O(conflicts).
func repeatNote(f *constraint.File, file string) (int, string) {
	count, first := 0, -1
	for i, c := range f.Report.Conflicts {
		if c.IdenticalRepeat() {
			if count == 0 {
				first = i
			}
			count++
		}
	}
	if count == 0 {
		return 0, ""
	}
	c := f.Report.Conflicts[first]
	q := c.Pairs[0]
	note := fmt.Sprintf("%s(%s,%s) on line %d repeats line %d", q.Kind, f.Node(q.I), f.Node(q.J), c.Lines[1], c.Lines[0])
	if count > 1 {
		note += fmt.Sprintf(", and %d more", count-1)
	}
	return count, fmt.Sprintf("%s: %s: each repeat of a pair with the same kind and weight is used once", file, note)
}

// VoteFilter applies constraint.VoteFilter to set with the weights of g,
// scaled to [0, 1] by the largest, as the node similarity, and g's rows as
// the vote's neighbours (constraint.VoteOptions.Neighbours: a pair is
// compared only with the pairs that have an end next to one of its ends,
// not with all m, for the same scores); conflicts are broken and, for
// k = 2, the pairs no 2-way split satisfies dropped (constraint.VoteOptions
// Consistent and TwoWay). It is meant for files with wrong pairs. A nil g
// is an error. Cost O(nnz(g)) plus constraint.VoteFilter's: about
// Σ_t Σ_{a ∈ N[i_t]} (pairs at a) weight look-ups of O(log degree) for
// the vote instead of m², and O(m log m) to break the conflicts: about
// 0.5 s for 2·10⁴ pairs on 2000 nodes.
func VoteFilter(ctx context.Context, g *graph.Graph, set *constraint.Set, k int) (*constraint.Set, error) {
	if g == nil {
		return nil, errors.New("vote filter: no graph")
	}
	wmax := 0.0
	for i := 0; i < g.N(); i++ {
		_, w := g.Row(i)
		for _, x := range w {
			wmax = max(wmax, x)
		}
	}
	if wmax == 0 {
		return nil, errors.New("vote filter: the graph has no edge to compare constraints by")
	}
	sim := func(a, b int) float64 { return g.Weight(a, b) / wmax }
	// Weight(a, b) reads row a, so every b with sim(a, b) ≠ 0 is in it.
	neighbours := func(a int) []int32 {
		idx, _ := g.Row(a)
		return idx
	}
	out, _, err := constraint.VoteFilter(ctx, set, sim, constraint.VoteOptions{Consistent: true, TwoWay: k == 2, Neighbours: neighbours})
	if err != nil {
		return nil, fmt.Errorf("vote filter: %w", err)
	}
	return out, nil
}

// ClusterClasses returns the class that numbers each cluster c < k of a
// partition of the problem AddTo filled (cluster.Run numbers the clusters
// by the classes of partial labels): the class as the partial labels file
// writes it (LabelClasses; the integer itself when the file's integer
// labels are the classes), and "" for a cluster whose number no labelled
// class has. It returns nil without partial labels. Cost O(n + k).
func (a Added) ClusterClasses(partial constraint.Labels, k int) []string {
	has := make([]bool, k)
	labelled := false
	for _, c := range partial {
		if c >= 0 && c < k {
			has[c], labelled = true, true
		}
	}
	if !labelled {
		return nil
	}
	out := make([]string, k)
	for c := range out {
		switch {
		case !has[c]:
			// No class numbers the cluster: "".
		case c < len(a.LabelClasses):
			out[c] = a.LabelClasses[c]
		default:
			out[c] = strconv.Itoa(c)
		}
	}
	return out
}

// ReadPartialLabels reads the partial labels of n nodes from r (name names
// it in errors) in the layouts of dataset.ReadNodeLabels — one label a
// line, or node,label lines keyed by index or by names (nil when the nodes
// have none); −1, ? or an empty field for an unknown class — and refuses
// labels that name more classes than the k clusters asked for (k ≤ 0: not
// known yet), with an error wrapping ErrTooManyClasses. The classes are
// numbered 0…k−1 thus:
//
//   - integer labels all in 0…k−1 (or any, when k ≤ 0) are the classes
//     themselves;
//   - other integer labels, such as the 1, 2, 3 of UCI's wine, are read as
//     class names are: the distinct labels in increasing numeric order are
//     classes 0, 1, …, provided there are at most k of them; so are
//     integer labels of which one is max(n, dataset.LabelFloor) or more,
//     whatever k (dataset.NodeLabels.Renumbered). A file whose
//     labels happen to lie in 0…k−1 is therefore not renumbered (the
//     sample 1, 2 of the classes 1, 2, 3 stays 1, 2), which is harmless:
//     the classes only say which nodes go together;
//   - class names (any label that is not an integer) are numbered in
//     sorted order, numerically when they are numbers (dataset.NodeLabels
//     ClassNames).
//
// ReadPartialLabelsClasses returns the classes as the file writes them and
// a note when integer labels were renumbered. Errors name the file and the
// line, node and value at fault, the node as the file writes it (its
// index in the file's base, its name, or its line in a file of one label
// per line). Cost O(size of r + n). ctx is checked
// while r is read; a cancelled read returns ctx's error, wrapped.
func ReadPartialLabels(ctx context.Context, r io.Reader, name string, n, k int, names []string) (constraint.Labels, error) {
	l, err := ReadPartialLabelsClasses(ctx, r, name, n, k, names)
	if err != nil {
		return nil, err
	}
	return l.Labels, nil
}

// PartialLabels is a partial labels file as ReadPartialLabelsClasses
// reads it.
type PartialLabels struct {
	// Labels[i] is the class of node i, or constraint.Unlabeled.
	Labels constraint.Labels
	// Classes[c] is class c as the file writes it: a class name, or an
	// integer label when Renumbered. It is nil when the file's integer
	// labels are the classes themselves.
	Classes []string
	// Renumbered reports that the file's integer labels were not all in
	// 0…k−1, or one was max(n, dataset.LabelFloor) or more
	// (dataset.NodeLabels.Renumbered), and were read as class names are
	// (ReadPartialLabels), and Note then says so, naming the file and the
	// mapping: "p.csv: labels 1, 2, 3 read as classes 0, 1, 2 (k = 3
	// numbers the classes 0…2)", or the reader's note. Note is "" when
	// Renumbered is false.
	Renumbered bool
	Note       string
	// Warnings are the labels reader's (dataset.NodeLabels.Warnings: a
	// node-indexed file that looks 1-based), nil when there are none.
	Warnings []string
}

// class returns class c as the file writes it: the integer, the
// renumbered integer label, or the class name quoted.
func (l *PartialLabels) class(c int) string {
	switch {
	case l.Classes == nil || c < 0 || c >= len(l.Classes):
		return strconv.Itoa(c)
	case l.Renumbered:
		return l.Classes[c]
	}
	return strconv.Quote(l.Classes[c])
}

// ReadPartialLabelsClasses reads partial labels as ReadPartialLabels does,
// and returns them with their classes as the file writes them. Cost
// O(size of r + n).
func ReadPartialLabelsClasses(ctx context.Context, r io.Reader, name string, n, k int, names []string) (*PartialLabels, error) {
	if n < 0 {
		return nil, fmt.Errorf("%s: %d nodes: want n ≥ 0 (0: as many as the file says)", name, n)
	}
	d, err := dataset.ReadNodeLabelsContext(ctx, r, name, dataset.NodeLabelOptions{N: n, Names: names})
	if err != nil {
		return nil, err
	}
	return partialLabels(name, d, k, nodeText(d, d.Node), "")
}

// nodeText returns how messages name node i of the labels d: "node 3"
// (its index in the file's base), "node \"ann\"" (its name) or "line 7"
// (the line of a one-label-per-line file), node(i) being node i as the
// file writes it (d.Node, or d.Node through the rows kept). Cost O(1) a
// call.
func nodeText(d *dataset.NodeLabels, node func(int) string) func(int) string {
	return func(i int) string {
		s := node(i)
		switch {
		case d.ByName:
			return "node " + strconv.Quote(s)
		case strings.HasPrefix(s, "line "):
			return s
		}
		return "node " + s
	}
}

// partialLabels numbers the classes of d, the labels file name read, for
// k clusters (k ≤ 0: not known), as ReadPartialLabels says: integer
// labels outside 0…k−1 are renumbered, with a note (the reader's when it
// renumbered them, dataset.NodeLabels.Renumbered), and more classes than
// k are an error wrapping ErrTooManyClasses, naming k by kFlag
// (Supervision.KFlag) and the node by node(i) (nodeText). Cost O(n + c
// log c) for c classes.
func partialLabels(name string, d *dataset.NodeLabels, k int, node func(int) string, kFlag string) (*PartialLabels, error) {
	l := &PartialLabels{Labels: d.Labels, Classes: d.ClassNames, Warnings: d.Warnings, Renumbered: d.Renumbered, Note: d.Note}
	if k > 0 && d.ClassNames == nil && slices.Max(append([]int{-1}, d.Labels...)) >= k {
		renumber(l)
		if len(l.Classes) <= k {
			nums := make([]string, len(l.Classes))
			for c := range nums {
				nums[c] = strconv.Itoa(c)
			}
			l.Note = fmt.Sprintf("%s: labels %s read as classes %s (k = %d numbers the classes 0…%d)", name, list(l.Classes), list(nums), k, k-1)
		}
	}
	if err := checkClasses(name, l, k, kFlag, node); err != nil {
		return nil, err
	}
	return l, nil
}

// renumber reads the integer labels of l as class names: the distinct
// labels in increasing order become classes 0, 1, …, and l.Classes their
// texts. Cost O(n + c log c) for c classes.
func renumber(l *PartialLabels) {
	code := map[int]int{}
	for _, c := range l.Labels {
		if c != constraint.Unlabeled {
			code[c] = 0
		}
	}
	labels := slices.Sorted(maps.Keys(code))
	l.Classes = make([]string, len(labels))
	for c, v := range labels {
		code[v] = c
		l.Classes[c] = strconv.Itoa(v)
	}
	out := make(constraint.Labels, len(l.Labels))
	for i, c := range l.Labels {
		out[i] = constraint.Unlabeled
		if c != constraint.Unlabeled {
			out[i] = code[c]
		}
	}
	l.Labels, l.Renumbered = out, true
}

// list joins texts with commas, eliding the middle of a long list: "0, 1,
// 2, 3, 4, 5, 6, 7, …, 40".
func list(texts []string) string {
	if len(texts) > 10 {
		return strings.Join(texts[:8], ", ") + ", …, " + texts[len(texts)-1]
	}
	return strings.Join(texts, ", ")
}

// checkClasses refuses labels l with more classes than k (k ≤ 0: any),
// naming the file, the classes, k (by the flag kFlag that set it, "-k 2",
// or as "k = 2" when kFlag is "") and the first node i of a class beyond
// k as the file writes it, node(i) (nodeText: "node 3" in the file's
// base, "node \"ann\"", "line 7"), with an error wrapping
// ErrTooManyClasses.
func checkClasses(path string, l *PartialLabels, k int, kFlag string, node func(int) string) error {
	if k <= 0 {
		return nil
	}
	kWhat := fmt.Sprintf("k = %d", k)
	if kFlag != "" {
		kWhat = fmt.Sprintf("%s %d", kFlag, k)
	}
	for i, c := range l.Labels {
		if c == dataset.Unlabeled || c < k {
			continue
		}
		if l.Renumbered {
			return &lackError{fmt.Sprintf("%s: %d classes (%s) for %s: %s has label %s; want at most %d distinct labels (-1, ? or empty when unknown)", path, len(l.Classes), list(l.Classes), kWhat, node(i), l.Classes[c], k), ErrTooManyClasses}
		}
		// Class names: integer labels of k or more are renumbered.
		return &lackError{fmt.Sprintf("%s: %d classes (%s) for %s: %s has class %q", path, len(l.Classes), list(l.Classes), kWhat, node(i), l.Classes[c]), ErrTooManyClasses}
	}
	return nil
}

// keepPairs maps the pairs of f, read on the file's rows of d's table
// (Data.Rows), onto the nodes kept, in place: pairs naming a dropped row
// are left out, with their lines, and f.Node names node i by its row. It
// returns the number of pairs left out. Cost O(FileRows + pairs).
func (d *Data) keepPairs(f *constraint.File) int {
	node := make([]int, d.FileRows)
	for r := range node {
		node[r] = -1
	}
	for k, r := range d.Rows {
		node[r] = k
	}
	pairs := f.Set.Pairs[:0]
	var lines []int
	lost := 0
	for k, q := range f.Set.Pairs {
		i, j := node[q.I], node[q.J]
		if i < 0 || j < 0 {
			lost++
			continue
		}
		q.I, q.J = i, j
		pairs = append(pairs, q)
		if k < len(f.Lines) {
			lines = append(lines, f.Lines[k])
		}
	}
	f.Set.Pairs, f.Set.N = pairs, len(d.Rows)
	if f.Lines != nil {
		f.Lines = lines
	}
	return lost
}
