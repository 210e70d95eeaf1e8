// Package unionfind is the disjoint-set forest tether uses for must-link
// closures and connected components: union by size and path halving, so a
// sequence of m operations on n elements costs O(n + m·α(n)).
package unionfind

// Forest is a disjoint-set forest on the elements 0…n−1.
type Forest struct {
	parent []int32
	size   []int32
}

// New returns n singleton sets. n must be below 2³¹.
func New(n int) *Forest {
	u := &Forest{parent: make([]int32, n), size: make([]int32, n)}
	for i := range u.parent {
		u.parent[i] = int32(i)
		u.size[i] = 1
	}
	return u
}

// Find returns the representative of the set of x.
func (u *Forest) Find(x int) int {
	p := u.parent
	for int(p[x]) != x {
		p[x] = p[p[x]]
		x = int(p[x])
	}
	return x
}

// Union merges the sets of a and b and reports whether they were distinct.
func (u *Forest) Union(a, b int) bool {
	a, b = u.Find(a), u.Find(b)
	if a == b {
		return false
	}
	if u.size[a] < u.size[b] {
		a, b = b, a
	}
	u.parent[b] = int32(a)
	u.size[a] += u.size[b]
	return true
}

// Labels numbers the sets 0…count−1 in the order of their smallest
// element and returns each element's set. Cost O(n·α(n)).
func (u *Forest) Labels() (comp []int, count int) {
	n := len(u.parent)
	comp = make([]int, n)
	id := make([]int, n)
	for i := range id {
		id[i] = -1
	}
	for i := range n {
		r := u.Find(i)
		if id[r] < 0 {
			id[r] = count
			count++
		}
		comp[i] = id[r]
	}
	return comp, count
}
