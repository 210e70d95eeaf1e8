package constraint

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tether-sc/tether/internal/ctxsort"
	"github.com/tether-sc/tether/internal/enum"
	"github.com/tether-sc/tether/internal/unionfind"
)

// ErrConflict is wrapped by errors reporting contradictory or repeated
// constraints rejected under the Reject policy.
var ErrConflict = errors.New("constraint: conflicting constraints")

// ConflictKind classifies a problem found by Check.
type ConflictKind int8

const (
	// OutOfRange: a node outside [0, N).
	OutOfRange ConflictKind = iota + 1
	// SelfPair: I = J.
	SelfPair
	// BadKind: neither MustLink nor CannotLink.
	BadKind
	// BadWeight: a NaN, infinite or negative weight.
	BadWeight
	// Duplicate: the same unordered pair with the same kind more than once.
	Duplicate
	// Contradiction: the same unordered pair both must-link and cannot-link.
	Contradiction
	// CannotLinkInComponent: a cannot-link between two nodes that a chain of
	// must-links joins (both in one component of the must-link closure).
	CannotLinkInComponent
)

// String returns a short lower-case name.
func (k ConflictKind) String() string {
	switch k {
	case OutOfRange:
		return "node out of range"
	case SelfPair:
		return "self pair"
	case BadKind:
		return "unknown kind"
	case BadWeight:
		return "bad weight"
	case Duplicate:
		return "duplicate"
	case Contradiction:
		return "must-link and cannot-link on one pair"
	case CannotLinkInComponent:
		return "cannot-link inside a must-link component"
	}
	return fmt.Sprintf("ConflictKind(%d)", int(k))
}

// invalid reports whether the conflict makes the pair unusable (as opposed
// to a consistency problem between valid pairs).
func (k ConflictKind) invalid() bool { return k >= OutOfRange && k <= BadWeight }

// Conflict names the constraints involved in one problem.
type Conflict struct {
	Kind ConflictKind
	// Index lists the positions in the checked Set.Pairs of the constraints
	// involved: the bad pair (OutOfRange … BadWeight); the first occurrence,
	// then the repeat (Duplicate); the must-link, then the cannot-link
	// (Contradiction, first occurrences); the cannot-link, then the
	// must-links of a chain joining its nodes, in order from its I to its J
	// (CannotLinkInComponent; the chain is left out after the first
	// MaxChains such conflicts).
	Index []int
	// Pairs are copies of the constraints at Index.
	Pairs []Pair
	// Lines are the 1-based file lines of the constraints at Index when the
	// set was read from a file, else nil.
	Lines []int
}

// IdenticalRepeat reports whether c is a pair given again with the same
// kind and weight (a Duplicate whose two pairs have equal weights), which
// Reject keeps once rather than refusing.
func (c Conflict) IdenticalRepeat() bool {
	return c.Kind == Duplicate && len(c.Pairs) == 2 && c.Pairs[0].W() == c.Pairs[1].W()
}

// Describe formats the conflict on one line, naming every constraint by
// position or, when Lines is set, by file:line (file may be empty), and
// its nodes by their 0-based indices. It is DescribeNodes(file, nil).
func (c Conflict) Describe(file string) string { return c.DescribeNodes(file, nil) }

// DescribeNodes is Describe writing node i as node(i), such as File.Node
// (the node as the file wrote it: in its index base, or by name); a nil
// node writes the 0-based index.
func (c Conflict) DescribeNodes(file string, node func(i int) string) string {
	if node == nil {
		node = strconv.Itoa
	}
	var b strings.Builder
	b.WriteString(c.Kind.String())
	b.WriteString(": ")
	for a, p := range c.Pairs {
		if a > 0 {
			if c.Kind == CannotLinkInComponent && a == 1 {
				b.WriteString(" joined by ")
			} else {
				b.WriteString(", ")
			}
		}
		fmt.Fprintf(&b, "%s(%s,%s)", p.Kind, node(p.I), node(p.J))
		if p.Weight != 0 {
			fmt.Fprintf(&b, " w=%g", p.Weight)
		}
		switch {
		case c.Lines != nil && file != "":
			fmt.Fprintf(&b, " [%s:%d]", file, c.Lines[a])
		case c.Lines != nil:
			fmt.Fprintf(&b, " [line %d]", c.Lines[a])
		default:
			fmt.Fprintf(&b, " [pair %d]", c.Index[a])
		}
	}
	return b.String()
}

// String is Describe("").
func (c Conflict) String() string { return c.Describe("") }

// MaxChains bounds the number of CannotLinkInComponent conflicts for which
// Check records the must-link chain; each chain costs up to the depth of a
// breadth-first tree of the component.
const MaxChains = 100

// Report summarizes a constraint set and lists its conflicts.
type Report struct {
	// N is the number of nodes.
	N int
	// MustLinks and CannotLinks count the pairs of each kind as given,
	// duplicates and bad pairs included.
	MustLinks, CannotLinks int
	// Components is the number of components of the must-link closure of the
	// valid pairs, singletons included; Supervised counts the nodes in
	// components of two or more nodes, Largest is the largest component size.
	Components, Supervised, Largest int
	// Conflicts lists every problem found, in three groups: the invalid
	// pairs (OutOfRange, SelfPair, BadKind, BadWeight) in the order of the
	// pairs; then the duplicates and contradictions of one pair, in the
	// order of the pair that reveals each (the later of the two); then the
	// cannot-links inside a must-link component, in the order of the
	// cannot-links.
	Conflicts []Conflict
}

// OK reports whether no conflict was found.
func (r *Report) OK() bool { return len(r.Conflicts) == 0 }

// Count returns the number of conflicts of kind k.
func (r *Report) Count(k ConflictKind) int {
	c := 0
	for _, x := range r.Conflicts {
		if x.Kind == k {
			c++
		}
	}
	return c
}

// Check looks for the cheap contradictions of a constraint set (SPEC §5):
// pairs with a node outside [0, N), self pairs, unknown kinds, bad weights,
// duplicate pairs (in either order), pairs that are both must-link and
// cannot-link, and cannot-links inside a component of the must-link closure
// (with a chain of must-links that proves it).
//
// It does not decide whether the constraints can all hold with k clusters:
// with cannot-links that is a graph-colouring problem, NP-complete for
// k ≥ 3, so a set Check accepts may still be unsatisfiable for a given k.
// Cost: O(n + m log m) time (a sort of the pairs finds the repeats) and
// O(n + m) memory for m pairs, plus the chains
// (at most MaxChains of them, each at most twice the depth of a
// breadth-first tree of its component). A nil s gives an empty report.
// It is CheckContext without cancellation.
func Check(s *Set) *Report {
	r, _ := CheckContext(context.Background(), s)
	return r
}

// CheckContext is Check checking ctx every checkPoll pairs of its passes
// over them, as it sorts them, and every checkPoll nodes or pairs as it
// builds the must-link forest the chains are traced in (10⁷ pairs take
// seconds); when ctx is cancelled it returns a nil report and ctx.Err().
// Its report is Check's. Cost as Check.
func CheckContext(ctx context.Context, s *Set) (*Report, error) {
	r, _, _, err := check(ctx, s, true)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Contradictions returns the numbers of conflicts of kinds Contradiction
// and CannotLinkInComponent that Check would report for s, without
// listing them: no chains are traced and nothing is allocated per
// conflict, so it costs O(n + m log m) for m pairs even when most pairs
// conflict. A nil s has none. It is ContradictionsContext without
// cancellation.
func Contradictions(s *Set) (samePair, inComponent int) {
	samePair, inComponent, _ = ContradictionsContext(context.Background(), s)
	return samePair, inComponent
}

// ContradictionsContext is Contradictions checking ctx every checkPoll
// pairs of its passes over them and as it sorts them (10⁷ pairs take
// seconds); err is ctx.Err() when ctx is cancelled, and the counts are
// then 0. Cost O(n + m) for m pairs: the sort is a radix sort.
func ContradictionsContext(ctx context.Context, s *Set) (samePair, inComponent int, err error) {
	_, samePair, inComponent, err = check(ctx, s, false)
	return samePair, inComponent, err
}

// checkPoll is the number of pairs check handles between two checks of
// its context: a few milliseconds.
const checkPoll = 1 << 16

// check is Check when list is true; otherwise it only counts the
// contradictions (Contradictions) and the report it returns lists no
// conflict. ctx is checked every checkPoll pairs and in the sort; err is
// then ctx.Err() and the rest zero.
func check(ctx context.Context, s *Set, list bool) (r *Report, samePair, inComponent int, err error) {
	if s == nil {
		return &Report{}, 0, 0, ctx.Err()
	}
	// poll returns ctx's error at every checkPoll-th pair k.
	poll := func(k int) error {
		if k%checkPoll != 0 {
			return nil
		}
		return ctx.Err()
	}
	r = &Report{N: s.N}
	add := func(kind ConflictKind, idx ...int) {
		switch kind {
		case Contradiction:
			samePair++
		case CannotLinkInComponent:
			inComponent++
		}
		if list {
			r.add(s, kind, idx...)
		}
	}
	n := s.N
	valid := make([]bool, len(s.Pairs))
	u := unionfind.New(max(n, 0))
	for k, p := range s.Pairs {
		if err := poll(k); err != nil {
			return nil, 0, 0, err
		}
		switch p.Kind {
		case MustLink:
			r.MustLinks++
		case CannotLink:
			r.CannotLinks++
		}
		var bad ConflictKind
		switch {
		case p.I < 0 || p.I >= n || p.J < 0 || p.J >= n:
			bad = OutOfRange
		case p.I == p.J:
			bad = SelfPair
		case p.Kind != MustLink && p.Kind != CannotLink:
			bad = BadKind
		case math.IsNaN(p.Weight) || math.IsInf(p.Weight, 0) || p.Weight < 0:
			bad = BadWeight
		}
		if bad != 0 {
			add(bad, k)
			continue
		}
		valid[k] = true
		if p.Kind == MustLink {
			u.Union(p.I, p.J)
		}
	}

	// Duplicates and contradictions: sort the valid pairs by unordered pair,
	// then by position, and scan each group (cheaper and more cache-friendly
	// than a hash map for millions of pairs).
	type entry struct {
		key uint64 // min·n + max
		k   int
	}
	entries := make([]entry, 0, len(s.Pairs))
	for k, p := range s.Pairs {
		if err := poll(k); err != nil {
			return nil, 0, 0, err
		}
		if valid[k] {
			entries = append(entries, entry{uint64(min(p.I, p.J))*uint64(n) + uint64(max(p.I, p.J)), k})
		}
	}
	// By key, then position: the entries are in increasing k, and the
	// sort is stable.
	if err := ctxsort.ByKey(ctx, entries, func(e entry) uint64 { return e.key }, nil); err != nil {
		return nil, 0, 0, err
	}
	type found struct {
		reveal int // the position that reveals the conflict
		kind   ConflictKind
		idx    [2]int
	}
	var pairConflicts []found
	contradicted := make([]bool, len(s.Pairs)) // cannot-links contradicted by a must-link on the same pair
	repeatCL := make([]bool, len(s.Pairs))     // cannot-links repeating an earlier one
	for g, next := 0, 0; g < len(entries); {
		if g >= next {
			if err := ctx.Err(); err != nil {
				return nil, 0, 0, err
			}
			next = g + checkPoll
		}
		h := g
		first := [2]int{-1, -1} // first must-link, first cannot-link of the pair
		for ; h < len(entries) && entries[h].key == entries[g].key; h++ {
			k := entries[h].k
			slot, other := 0, 1
			if s.Pairs[k].Kind == CannotLink {
				slot, other = 1, 0
			}
			if first[slot] >= 0 {
				pairConflicts = append(pairConflicts, found{k, Duplicate, [2]int{first[slot], k}})
				if slot == 1 {
					repeatCL[k] = true
				}
				continue
			}
			first[slot] = k
			if first[other] >= 0 {
				pairConflicts = append(pairConflicts, found{k, Contradiction, first})
				contradicted[first[1]] = true
			}
		}
		g = h
	}
	if list {
		// In the order of the pairs that reveal them; a count needs none.
		slices.SortFunc(pairConflicts, func(a, b found) int { return cmp.Compare(a.reveal, b.reveal) })
	}
	for _, f := range pairConflicts {
		add(f.kind, f.idx[0], f.idx[1])
	}

	// Cannot-links inside a must-link component.
	var tree *mlForest
	chains := 0
	for k, p := range s.Pairs {
		if err := poll(k); err != nil {
			return nil, 0, 0, err
		}
		if !valid[k] || p.Kind != CannotLink || contradicted[k] || repeatCL[k] || u.Find(p.I) != u.Find(p.J) {
			continue
		}
		if !list {
			add(CannotLinkInComponent)
			continue
		}
		idx := []int{k}
		if chains < MaxChains {
			if tree == nil {
				if tree, err = newMLForest(ctx, s, valid); err != nil {
					return nil, 0, 0, err
				}
			}
			idx = append(idx, tree.chain(p.I, p.J)...)
			chains++
		}
		add(CannotLinkInComponent, idx...)
	}

	if err := ctx.Err(); err != nil {
		return nil, 0, 0, err
	}
	comp, count := u.Labels()
	r.Components = count
	size := make([]int, count)
	for _, c := range comp {
		size[c]++
	}
	for _, sz := range size {
		r.Largest = max(r.Largest, sz)
		if sz >= 2 {
			r.Supervised += sz
		}
	}
	return r, samePair, inComponent, nil
}

func (r *Report) add(s *Set, kind ConflictKind, idx ...int) {
	c := Conflict{Kind: kind, Index: idx, Pairs: make([]Pair, len(idx))}
	for a, k := range idx {
		c.Pairs[a] = s.Pairs[k]
	}
	r.Conflicts = append(r.Conflicts, c)
}

// mlForest is a breadth-first spanning forest of the must-link graph: the
// parent of each node and the index of the must-link to it.
type mlForest struct {
	parent, via, depth []int
}

// newMLForest builds the forest of the valid must-links of s, checking
// ctx every checkPoll pairs of its two passes over them and every
// checkPoll roots of its search (each pass over 10⁷ pairs takes a tenth
// of a second or more); the error is ctx.Err(). Cost O(n + m).
func newMLForest(ctx context.Context, s *Set, valid []bool) (*mlForest, error) {
	n := s.N
	poll := func(k int) error {
		if k%checkPoll != 0 {
			return nil
		}
		return ctx.Err()
	}
	// CSR adjacency of the valid must-links.
	start := make([]int, n+1)
	for k, p := range s.Pairs {
		if err := poll(k); err != nil {
			return nil, err
		}
		if valid[k] && p.Kind == MustLink {
			start[p.I+1]++
			start[p.J+1]++
		}
	}
	for i := range n {
		start[i+1] += start[i]
	}
	adj := make([]int, start[n]) // pair indices
	fill := append([]int(nil), start[:n]...)
	for k, p := range s.Pairs {
		if err := poll(k); err != nil {
			return nil, err
		}
		if valid[k] && p.Kind == MustLink {
			adj[fill[p.I]] = k
			fill[p.I]++
			adj[fill[p.J]] = k
			fill[p.J]++
		}
	}
	f := &mlForest{parent: make([]int, n), via: make([]int, n), depth: make([]int, n)}
	for i := range f.parent {
		f.parent[i] = -2 // unvisited
	}
	var queue []int
	for root := range n {
		if err := poll(root); err != nil {
			return nil, err
		}
		if f.parent[root] != -2 {
			continue
		}
		f.parent[root], f.via[root] = -1, -1
		queue = append(queue[:0], root)
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for _, k := range adj[start[x]:start[x+1]] {
				y := s.Pairs[k].I
				if y == x {
					y = s.Pairs[k].J
				}
				if f.parent[y] == -2 {
					f.parent[y], f.via[y], f.depth[y] = x, k, f.depth[x]+1
					queue = append(queue, y)
				}
			}
		}
	}
	return f, nil
}

// chain returns the indices of the must-links on the tree path from a to b
// (same tree), in order from a to b.
func (f *mlForest) chain(a, b int) []int {
	var up, down []int
	for a != b {
		if f.depth[a] >= f.depth[b] {
			up = append(up, f.via[a])
			a = f.parent[a]
		} else {
			down = append(down, f.via[b])
			b = f.parent[b]
		}
	}
	for x, y := 0, len(down)-1; x < y; x, y = x+1, y-1 {
		down[x], down[y] = down[y], down[x]
	}
	return append(up, down...)
}

// Policy says what Resolve does with conflicts between valid constraints.
type Policy int8

const (
	// Reject (the zero value) refuses a set with any conflict but an
	// identical repeat (Conflict.IdenticalRepeat): a pair given again with
	// the same kind and weight is kept once, as a file of two annotators'
	// pairs concatenated has them; the report lists the repeats.
	Reject Policy = iota
	// DropConflictingCannotLinks keeps the must-links (assumed correct, as
	// seed 000 §4.2 does), drops every cannot-link that contradicts them
	// (same pair, or inside a must-link component), and drops repeated
	// pairs, keeping the first occurrence.
	DropConflictingCannotLinks
	// Soft keeps every constraint, conflicts and repeats included, for
	// methods that treat constraints as soft (weighted penalties rather than
	// hard requirements); the report lists the conflicts.
	Soft
)

var policyNames = []string{"reject", "drop-cl", "soft"}

// String returns the name used on the command line: "reject", "drop-cl" or
// "soft".
func (p Policy) String() string { return enum.String("Policy", policyNames, p) }

// MarshalText returns the name String returns, or an error for an unknown
// policy.
func (p Policy) MarshalText() ([]byte, error) { return enum.Marshal("policy", policyNames, p) }

// UnmarshalText sets p from the name String returns (any case). The error
// for an unknown name wraps ErrInvalid.
func (p *Policy) UnmarshalText(text []byte) error {
	v, err := enum.Parse[Policy]("policy", policyNames, string(text))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	*p = v
	return nil
}

// Resolve checks s (see Check) and applies the policy. It returns the
// resulting set (s itself when nothing is removed, else a new set in the
// original order), the report on s, and an error: wrapping ErrInvalid when
// a pair is malformed (OutOfRange … BadWeight, whatever the policy), or
// wrapping ErrConflict under Reject when any conflict but an identical
// repeat was found. The error describes the first problem and the number
// of others. Cost as Check.
//
// It is ResolveContext without cancellation.
func Resolve(s *Set, p Policy) (*Set, *Report, error) {
	return ResolveContext(context.Background(), s, p)
}

// ResolveContext is Resolve checking ctx as CheckContext does, and every
// checkPoll pairs as it drops the conflicting ones (10⁷ pairs take
// seconds); when ctx is cancelled it returns nil results and ctx.Err().
// Cost as Resolve.
func ResolveContext(ctx context.Context, s *Set, p Policy) (*Set, *Report, error) {
	out, _, rep, err := resolve(ctx, s, p, "", nil, nil)
	return out, rep, err
}

// resolve is Resolve, also returning the original indices of the kept pairs,
// filling conflict lines from lines (may be nil) and writing node i as
// node(i) in the error (nil: the 0-based index). ctx is check's: its
// error is ctx.Err().
func resolve(ctx context.Context, s *Set, p Policy, file string, lines []int, node func(int) string) (*Set, []int, *Report, error) {
	if p != Reject && p != DropConflictingCannotLinks && p != Soft {
		return nil, nil, nil, fmt.Errorf("%w: unknown policy %d", ErrInvalid, p)
	}
	if s == nil {
		s = &Set{}
	}
	rep, _, _, err := check(ctx, s, true)
	if err != nil {
		return nil, nil, nil, err
	}
	// poll returns ctx's error at every checkPoll-th conflict or pair k.
	poll := func(k int) error {
		if k%checkPoll != 0 {
			return nil
		}
		return ctx.Err()
	}
	if lines != nil {
		for c := range rep.Conflicts {
			if err := poll(c); err != nil {
				return nil, nil, nil, err
			}
			cf := &rep.Conflicts[c]
			cf.Lines = make([]int, len(cf.Index))
			for a, k := range cf.Index {
				cf.Lines[a] = lines[k]
			}
		}
	}
	for _, c := range rep.Conflicts {
		if c.Kind.invalid() {
			return nil, nil, rep, fmt.Errorf("%w: %s%s", ErrInvalid, c.DescribeNodes(file, node), others(len(rep.Conflicts)))
		}
	}
	if rep.OK() || p == Soft {
		return s, nil, rep, nil
	}
	if p == Reject {
		// Identical repeats are dropped below; any other conflict refuses
		// the set, the first named.
		var refused []Conflict
		for _, c := range rep.Conflicts {
			if !c.IdenticalRepeat() {
				refused = append(refused, c)
			}
		}
		if len(refused) > 0 {
			return nil, nil, rep, fmt.Errorf("%w: %s%s", ErrConflict, refused[0].DescribeNodes(file, node), others(len(refused)))
		}
	}
	drop := make([]bool, len(s.Pairs))
	for a, c := range rep.Conflicts {
		if err := poll(a); err != nil {
			return nil, nil, nil, err
		}
		switch c.Kind {
		case Duplicate:
			drop[c.Index[1]] = true
		case Contradiction:
			drop[c.Index[1]] = true
		case CannotLinkInComponent:
			drop[c.Index[0]] = true
		}
	}
	out := &Set{N: s.N}
	var kept []int
	for k, pr := range s.Pairs {
		if err := poll(k); err != nil {
			return nil, nil, nil, err
		}
		if !drop[k] {
			out.Pairs = append(out.Pairs, pr)
			kept = append(kept, k)
		}
	}
	return out, kept, rep, nil
}

func others(n int) string {
	if n <= 1 {
		return ""
	}
	return fmt.Sprintf(" (and %d more)", n-1)
}
