package input

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/inputfile"
	"github.com/tether-sc/tether/internal/unionfind"
)

// Supervision names the side information of a job: files of pairwise
// constraints and of partial labels. The zero value is no supervision.
type Supervision struct {
	// Constraints is a pairwise constraints file ("i,j,ml|cl[,weight]"
	// lines, constraint.ReadFile), "" for none. When the data names its
	// nodes (Data.Names), i and j may be names; the file's first
	// constraint decides (constraint.ReadOptions.AutoNames).
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
	// ReadFile, if not nil, reads the files instead of the local file
	// system (an object store, say): it returns a file's whole content,
	// and its errors, which should name the file, are returned as they
	// are. nil reads local files.
	ReadFile func(ctx context.Context, name string) ([]byte, error)
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
}

// AddTo reads the files of s into p for the data d: p.Constraints and
// p.Labels on p.Graph's nodes, the partial labels matched against d's node
// names and checked against p.K (more classes than p.K: an error wrapping
// ErrTooManyClasses). Errors name the file, and the line, node
// and value when there is one; a conflict refused by s.Conflicts wraps
// constraint.ErrConflict and names the lines of the pairs in conflict
// (after the vote filter, their order in the file). Under the Reject
// policy, pairs that contradict the partial labels are conflicts too
// (labelConflict), and a pair repeated with the same kind and weight is
// not: its repeats are dropped and counted in Added.Repeats. A nil p or d,
// or a p without a graph, is an error.
// Cost: O(file sizes + n), plus VoteFilter's.
func (s Supervision) AddTo(ctx context.Context, p *cluster.Problem, d *Data) (Added, error) {
	var a Added
	switch {
	case p == nil:
		return a, errors.New("input: no problem")
	case p.Graph == nil:
		return a, errors.New("input: the problem has no graph (NewProblem sets it from the data's)")
	case d == nil:
		return a, errors.New("input: no data")
	}
	n := p.Graph.N()
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
		f, err := s.readConstraints(ctx, n, policy, d.Names)
		if err != nil {
			return a, err
		}
		a.Constraints = f.Report.MustLinks + f.Report.CannotLinks
		if policy == constraint.Reject {
			a.Repeats, a.RepeatNote = repeatNote(f, s.Constraints)
		}
		p.Constraints, lines, node = f.Set, f.Lines, f.Node
		if s.Vote {
			set, err := VoteFilter(ctx, p.Graph, f.Set, p.K)
			if err != nil {
				return a, fmt.Errorf("%s: %w", s.Constraints, err)
			}
			a.VoteDropped = len(f.Set.Pairs) - len(set.Pairs)
			lines = nil
			if p.Constraints, _, err = constraint.Resolve(set, s.Conflicts); err != nil {
				return a, fmt.Errorf("%s: %w", s.Constraints, err)
			}
		}
	}
	if s.Labels != "" {
		l, err := s.readPartialLabels(ctx, n, p.K, d.Names)
		if err != nil {
			return a, err
		}
		p.Labels = l
	}
	if s.Conflicts == constraint.Reject && p.Constraints != nil && p.Labels != nil {
		if err := labelConflict(p.Constraints, lines, node, s.Constraints, p.Labels, s.Labels); err != nil {
			return a, fmt.Errorf("%s: %w", s.Constraints, err)
		}
	}
	return a, nil
}

// labelConflict reports, wrapping constraint.ErrConflict, the first pair of
// set (read from consFile; lines[k] is the line of pair k, nil if unknown;
// node(i) is node i as the file writes it) that contradicts the partial labels read from labFile: a must-link, or a
// chain of them, joining nodes of two classes, or a cannot-link between
// nodes, or must-link components, of one class. Such pairs are refused
// under the Reject policy as contradictory pairs are (constraint.Check);
// the methods used to get both the pairs and the labels. Cost O(pairs + n).
func labelConflict(set *constraint.Set, lines []int, node func(int) string, consFile string, labels constraint.Labels, labFile string) error {
	at := func(k int) string {
		if lines == nil {
			return ""
		}
		return fmt.Sprintf(" [%s:%d]", consFile, lines[k])
	}
	pair := func(q constraint.Pair) string { return fmt.Sprintf("%s(%s,%s)", q.Kind, node(q.I), node(q.J)) }
	for k, q := range set.Pairs {
		a, b := labels[q.I], labels[q.J]
		switch {
		case a == constraint.Unlabeled || b == constraint.Unlabeled:
		case q.Kind == constraint.MustLink && a != b:
			return fmt.Errorf("%w: %s%s joins nodes labelled %d and %d in %s", constraint.ErrConflict, pair(q), at(k), a, b, labFile)
		case q.Kind == constraint.CannotLink && a == b:
			return fmt.Errorf("%w: %s%s separates nodes both labelled %d in %s", constraint.ErrConflict, pair(q), at(k), a, labFile)
		}
	}
	uf := unionfind.New(len(labels))
	for _, q := range set.Pairs {
		if q.Kind == constraint.MustLink {
			uf.Union(q.I, q.J)
		}
	}
	first := make(map[int]int) // component root → its first labelled node
	for i, c := range labels {
		if c == constraint.Unlabeled {
			continue
		}
		r := uf.Find(i)
		j, ok := first[r]
		if !ok {
			first[r] = i
		} else if labels[j] != c {
			return fmt.Errorf("%w: the must-links join node %d, labelled %d, and node %d, labelled %d in %s", constraint.ErrConflict, j, labels[j], i, c, labFile)
		}
	}
	for k, q := range set.Pairs {
		if q.Kind != constraint.CannotLink {
			continue
		}
		i, ok1 := first[uf.Find(q.I)]
		j, ok2 := first[uf.Find(q.J)]
		if ok1 && ok2 && labels[i] == labels[j] {
			return fmt.Errorf("%w: %s%s separates the must-link components of nodes %d and %d, both labelled %d in %s", constraint.ErrConflict, pair(q), at(k), i, j, labels[i], labFile)
		}
	}
	return nil
}

// readConstraints reads the constraints file s.Constraints on n nodes
// under policy (constraint.ReadContext: errors name the file and line),
// through s.ReadFile when it is set. When the data names its nodes (names
// not nil), the file may name them too (constraint.ReadOptions.AutoNames:
// its first constraint decides).
func (s Supervision) readConstraints(ctx context.Context, n int, policy constraint.Policy, names []string) (*constraint.File, error) {
	path := s.Constraints
	var r io.Reader
	if s.ReadFile != nil {
		b, err := s.ReadFile(ctx, path)
		if err != nil {
			return nil, err
		}
		r = bytes.NewReader(b)
	} else {
		f, err := inputfile.Open(ctx, path)
		if err != nil {
			return nil, fmt.Errorf("constraint: %w", err)
		}
		defer f.Close()
		r = f
	}
	if len(names) != n {
		names = nil
	}
	return constraint.ReadContext(ctx, r, &constraint.ReadOptions{N: n, File: path, Policy: policy, Names: names, AutoNames: names != nil})
}

// readPartialLabels reads the partial labels file s.Labels as
// ReadPartialLabelsFile does, through s.ReadFile when it is set.
func (s Supervision) readPartialLabels(ctx context.Context, n, k int, names []string) (constraint.Labels, error) {
	if s.ReadFile == nil {
		return ReadPartialLabelsFile(ctx, s.Labels, n, k, names)
	}
	b, err := s.ReadFile(ctx, s.Labels)
	if err != nil {
		return nil, err
	}
	return ReadPartialLabels(ctx, bytes.NewReader(b), s.Labels, n, k, names)
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
// scaled to [0, 1] by the largest, as the node similarity; conflicts are
// broken and, for k = 2, the pairs no 2-way split satisfies dropped
// (constraint.VoteOptions Consistent and TwoWay). It is meant for files
// with wrong pairs, up to about 10⁴ pairs. A nil g is an error. Cost
// O(nnz(g)) plus constraint.VoteFilter's.
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
	out, _, err := constraint.VoteFilter(ctx, set, sim, constraint.VoteOptions{Consistent: true, TwoWay: k == 2})
	if err != nil {
		return nil, fmt.Errorf("vote filter: %w", err)
	}
	return out, nil
}

// ReadPartialLabelsFile reads the partial labels file at path; see
// ReadPartialLabels.
func ReadPartialLabelsFile(ctx context.Context, path string, n, k int, names []string) (constraint.Labels, error) {
	f, err := inputfile.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	defer f.Close()
	return ReadPartialLabels(ctx, f, path, n, k, names)
}

// ReadPartialLabels reads the partial labels of n nodes from r (name names
// it in errors) in the layouts of dataset.ReadNodeLabels — one label a
// line, or node,label lines keyed by index or by names (nil when the nodes
// have none); −1, ? or an empty field for an unknown class — and refuses
// labels that name more classes than the k clusters asked for (k ≤ 0: not
// known yet): integer classes must be 0…k−1 and class names number at most
// k; that error wraps ErrTooManyClasses. Errors name the file and the
// line, node and value at fault. Cost O(size of r + n). ctx is checked
// while r is read; a cancelled read returns ctx's error, wrapped.
func ReadPartialLabels(ctx context.Context, r io.Reader, name string, n, k int, names []string) (constraint.Labels, error) {
	if n < 0 {
		return nil, fmt.Errorf("%s: %d nodes: want n ≥ 0 (0: as many as the file says)", name, n)
	}
	d, err := dataset.ReadNodeLabelsContext(ctx, r, name, dataset.NodeLabelOptions{N: n, Names: names})
	if err != nil {
		return nil, err
	}
	if err := checkClasses(name, d, k, names); err != nil {
		return nil, err
	}
	return d.Labels, nil
}

// checkClasses refuses labels d with more classes than k (k ≤ 0: any),
// naming the file and the first node out of range, with an error wrapping
// ErrTooManyClasses.
func checkClasses(path string, d *dataset.NodeLabels, k int, names []string) error {
	if k <= 0 {
		return nil
	}
	for i, c := range d.Labels {
		if c == dataset.Unlabeled || c < k {
			continue
		}
		node := fmt.Sprintf("node %d", i)
		if i < len(names) && d.ByName {
			node = fmt.Sprintf("node %q", names[i])
		}
		if d.ClassNames != nil {
			return &lackError{fmt.Sprintf("%s: %d classes (%s) for -k %d: %s has class %q", path, len(d.ClassNames), strings.Join(d.ClassNames, ", "), k, node, d.ClassNames[c]), ErrTooManyClasses}
		}
		return &lackError{fmt.Sprintf("%s: %s has label %d, want 0…%d for -k %d (or -1, ? or empty when unknown)", path, node, c, k-1, k), ErrTooManyClasses}
	}
	return nil
}
