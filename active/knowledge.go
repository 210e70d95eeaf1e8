package active

import (
	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
)

// knowledge is what the answers imply: the must-link components, the
// cannot-links between them, and the neighbourhoods (see the package doc).
type knowledge struct {
	comp []int // must-link component of every node (constraint.Closure)
	// touched components, in the order the constraints first mention them.
	order   []int
	touched map[int]bool
	members map[int][]int     // nodes of each touched component
	cl      map[[2]int]bool   // component pairs joined by a cannot-link
	nbhd    []int             // neighbourhood components, in order
	isNbhd  map[int]bool      // neighbourhood membership
	pending []int             // touched components that are not neighbourhoods
	centre  map[int][]float64 // centroid of each touched component
	rep     map[int]int       // its member nearest the centroid (ties: smallest node)
}

// clKey is the map key of a component pair.
func clKey(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}

// newKnowledge derives the knowledge of constraint set s (nil for none) on
// the n rows of x. Cost O(n + m·α(n) + t·λ + t_n·d) for m pairs, t touched
// components, λ neighbourhoods and t_n touched nodes; the neighbourhood
// pass repeats until no component joins, at most λ + 1 times, so O(t·λ²)
// at worst. poll (nil: none) is told the work of each step, one unit per
// neighbourhood checked and d per member summed or measured, and its
// error stops the derivation and is returned.
func newKnowledge(s *constraint.Set, x *mat.Dense, poll func(work int) error) (*knowledge, error) {
	if poll == nil {
		poll = func(int) error { return nil }
	}
	n, d := x.Dims()
	kn := &knowledge{touched: map[int]bool{}, members: map[int][]int{}, cl: map[[2]int]bool{},
		isNbhd: map[int]bool{}, centre: map[int][]float64{}, rep: map[int]int{}}
	if s == nil || len(s.Pairs) == 0 {
		kn.comp = make([]int, n)
		for i := range kn.comp {
			kn.comp[i] = i
		}
		return kn, nil
	}
	kn.comp, _ = constraint.Closure(s)
	for _, p := range s.Pairs {
		for _, v := range [2]int{p.I, p.J} {
			if c := kn.comp[v]; !kn.touched[c] {
				kn.touched[c] = true
				kn.order = append(kn.order, c)
			}
		}
	}
	for _, ab := range constraint.ComponentCannotLinks(s, kn.comp) {
		kn.cl[ab] = true
	}
	// Greedy neighbourhoods: a component joins when it is cannot-linked to
	// every neighbourhood so far; repeat until none joins.
	for changed := true; changed; {
		changed = false
		for _, c := range kn.order {
			if err := poll(1 + len(kn.nbhd)); err != nil {
				return nil, err
			}
			if kn.isNbhd[c] || !kn.apartFromAll(c) {
				continue
			}
			kn.nbhd = append(kn.nbhd, c)
			kn.isNbhd[c] = true
			changed = true
		}
	}
	for _, c := range kn.order {
		if !kn.isNbhd[c] {
			kn.pending = append(kn.pending, c)
		}
	}
	for i, c := range kn.comp {
		if kn.touched[c] {
			kn.members[c] = append(kn.members[c], i)
		}
	}
	for _, c := range kn.order {
		if err := poll(2 * len(kn.members[c]) * max(d, 1)); err != nil {
			return nil, err
		}
		mu := make([]float64, d)
		for _, i := range kn.members[c] {
			for j, v := range x.RawRowView(i) {
				mu[j] += v
			}
		}
		for j := range mu {
			mu[j] /= float64(len(kn.members[c]))
		}
		kn.centre[c] = mu
		best, bestD := -1, 0.0
		for _, i := range kn.members[c] {
			if dd := dist2(x.RawRowView(i), mu); best < 0 || dd < bestD {
				best, bestD = i, dd
			}
		}
		kn.rep[c] = best
	}
	return kn, nil
}

// apartFromAll reports whether component c is cannot-linked to every
// neighbourhood.
func (kn *knowledge) apartFromAll(c int) bool {
	for _, l := range kn.nbhd {
		if !kn.cl[clKey(c, l)] {
			return false
		}
	}
	return true
}

// implied reports whether the answer about (i, j) is known: the same
// must-link component, or components joined by a cannot-link. A node
// is implied with itself.
func (kn *knowledge) implied(i, j int) bool {
	a, b := kn.comp[i], kn.comp[j]
	return a == b || kn.cl[clKey(a, b)]
}

// untouched reports whether node i is in no constraint (nor in the
// component of one).
func (kn *knowledge) untouched(i int) bool { return !kn.touched[kn.comp[i]] }

// dist2 is the squared Euclidean distance of two rows.
func dist2(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		t := v - b[i]
		s += t * t
	}
	return s
}
