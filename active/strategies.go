package active

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Stream words of the random choices: the second word of the PCG
// generator, next to Options.Seed. Append new ones; never renumber.
const (
	streamTies   = 1 // the seeded rank that breaks ties between nodes
	streamFirst  = 2 // Explore's first anchor when nothing is known
	streamRandom = 3 // the Random strategy's pairs
)

// ctxWork is how much work a loop does between checks of ctx, counted in
// multiply-adds of distances (d per pair of rows) plus one per row or pair
// visited: about a millisecond, whatever a row costs (a margin row costs
// k·d, a Similarity candidate (λ + k)·d).
const ctxWork = 1 << 20

// suggester holds one call's inputs and derived knowledge.
type suggester struct {
	ctx  context.Context
	st   State
	x    *mat.Dense
	n, d int // rows and columns of x
	seed uint64
	kn   *knowledge
	k    int   // clusters sought, 0 when unknown
	rank []int // a seeded permutation of the nodes: ties go to the lower rank
	// asked holds the nodes a question of this call is about, so that the
	// phases of Auto do not ask twice about one node.
	asked     map[int]bool
	pairs     map[[2]int]bool // the pairs asked in this call
	mu        [][]float64     // centroids of Labels, once computed
	coreNodes []int           // cores of Labels, once computed
	work      int             // work done since ctx was last checked (see poll)
}

// newSuggester prepares a call of Suggest; it returns ctx's error when ctx
// is cancelled during the knowledge's derivation (newKnowledge, polled by
// work).
func newSuggester(ctx context.Context, st State, seed uint64) (*suggester, error) {
	n, d := st.Embedding.Dims()
	s := &suggester{ctx: ctx, st: st, x: st.Embedding, n: n, d: d, seed: seed, k: st.K, asked: map[int]bool{}, pairs: map[[2]int]bool{}}
	if s.k == 0 && st.Labels != nil {
		s.k = slices.Max(st.Labels) + 1
	}
	kn, err := newKnowledge(st.Constraints, st.Embedding, s.poll)
	if err != nil {
		return nil, err
	}
	s.kn = kn
	perm := rand.New(rand.NewPCG(seed, streamTies)).Perm(n)
	s.rank = make([]int, n)
	for r, i := range perm {
		s.rank[i] = r
	}
	return s, nil
}

// poll counts work units done (see ctxWork) and returns ctx's error each
// time another ctxWork of them have been done since the last check.
func (s *suggester) poll(work int) error {
	s.work += work
	if s.work < ctxWork {
		return nil
	}
	s.work = 0
	return s.ctx.Err()
}

func (s *suggester) row(i int) []float64 { return s.x.RawRowView(i) }

// auto is the Auto strategy (documented on Auto).
func (s *suggester) auto(count int) ([]Question, error) {
	qs, err := s.pendingQuestions(count)
	if err != nil {
		return nil, err
	}
	two := s.clusters() >= 2
	if s.k == 0 || len(s.kn.nbhd) < s.k {
		need := count - len(qs)
		if s.k > 0 && two {
			need = min(need, s.k-len(s.kn.nbhd))
		}
		if need > 0 {
			more, err := s.farthest(need, true)
			if err != nil {
				return nil, err
			}
			qs = append(qs, more...)
		}
	}
	if rem := count - len(qs); rem > 0 && two {
		more, err := s.boundary(rem)
		if err != nil {
			return nil, err
		}
		qs = append(qs, more...)
	}
	if rem := count - len(qs); rem > 0 {
		more, err := s.farthest(rem, false)
		if err != nil {
			return nil, err
		}
		qs = append(qs, more...)
	}
	return qs, nil
}

// explore is the Explore strategy: pending components, then farthest-first.
func (s *suggester) explore(count int) ([]Question, error) {
	qs, err := s.pendingQuestions(count)
	if err != nil {
		return nil, err
	}
	if rem := count - len(qs); rem > 0 {
		more, err := s.farthest(rem, false)
		if err != nil {
			return nil, err
		}
		qs = append(qs, more...)
	}
	return qs, nil
}

// pendingQuestions asks every pending component against its nearest
// neighbourhood (centroid distance) it is not known to be apart from,
// nearest first, at most count. A component with a single such
// neighbourhood left is skipped once there are k neighbourhoods: with k
// clusters the answer is a must-link. It returns ctx's error when ctx is
// cancelled (polled by work: λ + d per open neighbourhood, for each
// pending component). Cost O(p·λ·d) for p pending components.
func (s *suggester) pendingQuestions(count int) ([]Question, error) {
	var qs []Question
	for _, p := range s.kn.pending {
		if err := s.poll(len(s.kn.nbhd) * (1 + s.d)); err != nil {
			return nil, err
		}
		var open []int
		for _, l := range s.kn.nbhd {
			if !s.kn.cl[clKey(p, l)] {
				open = append(open, l)
			}
		}
		if len(open) == 0 || (s.k > 0 && len(s.kn.nbhd) >= s.k && len(open) == 1) {
			continue
		}
		best, bestD := -1, 0.0
		for _, l := range open {
			if dd := dist2(s.kn.centre[p], s.kn.centre[l]); best < 0 || dd < bestD {
				best, bestD = l, dd
			}
		}
		i, j := s.kn.rep[p], s.kn.rep[best]
		qs = append(qs, Question{I: i, J: j, Score: math.Sqrt(bestD),
			Why: fmt.Sprintf("node %d's group is not placed yet (%d of %d known groups left): is it with the nearest one, node %d's?", i, len(open), len(s.kn.nbhd), j)})
	}
	slices.SortStableFunc(qs, func(a, b Question) int { return cmp.Compare(a.Score, b.Score) })
	return qs[:min(count, len(qs))], nil
}

// nearestNbhd returns the neighbourhood whose centroid is nearest row v
// and that distance, or −1.
func (s *suggester) nearestNbhd(v []float64) (int, float64) {
	best, bestD := -1, 0.0
	for _, l := range s.kn.nbhd {
		if dd := dist2(v, s.kn.centre[l]); best < 0 || dd < bestD {
			best, bestD = l, dd
		}
	}
	return best, math.Sqrt(bestD)
}

// farthest is farthest-first exploration (documented on Explore). With
// cores (Auto), the untouched cluster cores of Labels (see cores) are
// taken first, farthest-first among themselves, and with nothing known
// the first anchor is the core of the largest cluster instead of a random
// node. Nodes already asked about in this call are skipped.
func (s *suggester) farthest(count int, cores bool) ([]Question, error) {
	const taken = -1.0
	minD := make([]float64, s.n)
	first := -1
	var anchors [][]float64
	for _, l := range s.kn.nbhd {
		anchors = append(anchors, s.kn.centre[l])
	}
	preferred := map[int]bool{}
	if cores && s.st.Labels != nil {
		cs, err := s.cores()
		if err != nil {
			return nil, err
		}
		size := map[int]int{}
		for _, c := range s.st.Labels {
			size[c]++
		}
		big := -1
		for _, i := range cs {
			if i < 0 || !s.kn.untouched(i) || s.asked[i] {
				continue
			}
			preferred[i] = true
			if big < 0 || size[s.st.Labels[i]] > size[s.st.Labels[big]] {
				big = i
			}
		}
		if len(anchors) == 0 && big >= 0 {
			first = big
		}
	}
	if len(anchors) == 0 {
		if first < 0 {
			// Nothing known: a seeded random untouched node is the first
			// anchor (Basu et al. 2004 start the traversal at random).
			var free []int
			for i := 0; i < s.n; i++ {
				if s.kn.untouched(i) && !s.asked[i] {
					free = append(free, i)
				}
			}
			if len(free) < 2 {
				return nil, nil
			}
			first = free[rand.New(rand.NewPCG(s.seed, streamFirst)).IntN(len(free))]
		}
		anchors = append(anchors, s.row(first))
		delete(preferred, first)
		s.asked[first] = true
	}
	for i := 0; i < s.n; i++ {
		if err := s.poll(1 + len(anchors)*s.d); err != nil {
			return nil, err
		}
		if !s.kn.untouched(i) || i == first || s.asked[i] {
			minD[i] = taken
			continue
		}
		m := math.Inf(1)
		for _, a := range anchors {
			m = min(m, dist2(s.row(i), a))
		}
		minD[i] = m
	}
	var qs []Question
	for len(qs) < count {
		best := -1
		for i, v := range minD {
			if v == taken || (len(preferred) > 0 && !preferred[i]) {
				continue
			}
			if best < 0 || v > minD[best] || (v == minD[best] && s.rank[i] < s.rank[best]) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		what := "node"
		if preferred[best] {
			what = "cluster core"
		}
		dBest := math.Sqrt(minD[best])
		minD[best] = taken
		delete(preferred, best)
		s.asked[best] = true
		j := first
		if j < 0 {
			l, _ := s.nearestNbhd(s.row(best))
			j = s.kn.rep[l]
		}
		s.pairs[clKey(best, j)] = true
		qs = append(qs, Question{I: best, J: j, Score: dBest,
			Why: fmt.Sprintf("%s %d is the farthest from every known group (distance %.3g): is it with node %d?", what, best, dBest, j)})
		for i := 0; i < s.n; i++ {
			if err := s.poll(1 + s.d); err != nil {
				return nil, err
			}
			if minD[i] != taken {
				minD[i] = min(minD[i], dist2(s.row(i), s.row(best)))
			}
		}
	}
	return qs, nil
}

// cores returns, for every label c of Labels, its member nearest the
// centroid of the cluster (ties: lower seeded rank), or −1 for an empty
// label. Cost O(n·d); computed once per call.
func (s *suggester) cores() ([]int, error) {
	if s.coreNodes != nil {
		return s.coreNodes, nil
	}
	mu := s.centroids()
	core := make([]int, len(mu))
	coreD := make([]float64, len(mu))
	for c := range core {
		core[c] = -1
	}
	for i, c := range s.st.Labels {
		if err := s.poll(1 + s.d); err != nil {
			return nil, err
		}
		if dd := dist2(s.row(i), mu[c]); core[c] < 0 || dd < coreD[c] || (dd == coreD[c] && s.rank[i] < s.rank[core[c]]) {
			core[c], coreD[c] = i, dd
		}
	}
	s.coreNodes = core
	return core, nil
}

// centroids returns the mean row of every label of Labels (nil for an
// empty label). Cost O(n·d); computed once per call.
func (s *suggester) centroids() [][]float64 {
	if s.mu != nil {
		return s.mu
	}
	_, d := s.x.Dims()
	kk := slices.Max(s.st.Labels) + 1
	mu := make([][]float64, kk)
	size := make([]int, kk)
	for i, c := range s.st.Labels {
		if mu[c] == nil {
			mu[c] = make([]float64, d)
		}
		for j, v := range s.row(i) {
			mu[c][j] += v
		}
		size[c]++
	}
	for c := range mu {
		for j := range mu[c] {
			mu[c][j] /= float64(size[c])
		}
	}
	s.mu = mu
	return mu
}

// clusters returns the number of non-empty clusters of Labels.
func (s *suggester) clusters() int {
	seen := map[int]bool{}
	for _, c := range s.st.Labels {
		seen[c] = true
	}
	return len(seen)
}

// margin is one node's k-means margin: nearest centroid a, second b.
type margin struct {
	i, a, b int
	m       float64
}

// margins returns the k-means margins of the untouched nodes, smallest
// first (ties: lower seeded rank), and the centroids by label (nil for an
// empty cluster). It needs Labels with at least two clusters. Cost
// O(n·k·d + n log n).
func (s *suggester) margins(what string) ([]margin, [][]float64, error) {
	if s.st.Labels == nil || s.clusters() < 2 {
		return nil, nil, fmt.Errorf("%w: the %s strategy needs State.Labels with at least two clusters", ErrInvalid, what)
	}
	mu := s.centroids()
	var ms []margin
	for i := 0; i < s.n; i++ {
		if err := s.poll(1 + len(mu)*s.d); err != nil {
			return nil, nil, err
		}
		if !s.kn.untouched(i) || s.asked[i] {
			continue
		}
		a, b := -1, -1
		da, db := math.Inf(1), math.Inf(1)
		for c, m := range mu {
			if m == nil {
				continue
			}
			dd := math.Sqrt(dist2(s.row(i), m))
			switch {
			case dd < da:
				b, db = a, da
				a, da = c, dd
			case dd < db:
				b, db = c, dd
			}
		}
		ms = append(ms, margin{i: i, a: a, b: b, m: db - da})
	}
	slices.SortFunc(ms, func(x, y margin) int {
		if c := cmp.Compare(x.m, y.m); c != 0 {
			return c
		}
		return cmp.Compare(s.rank[x.i], s.rank[y.i])
	})
	return ms, mu, nil
}

// boundary is the Boundary strategy (documented on Boundary).
func (s *suggester) boundary(count int) ([]Question, error) {
	ms, _, err := s.margins("boundary")
	if err != nil {
		return nil, err
	}
	var qs []Question
	for _, m := range ms {
		if len(qs) == count {
			break
		}
		q := Question{I: m.i, Score: m.m}
		if l, _ := s.nearestNbhd(s.row(m.i)); l >= 0 {
			q.J = s.kn.rep[l]
			q.Why = fmt.Sprintf("node %d lies between clusters %d and %d (k-means margin %.3g): is it with the nearest known group, node %d's?", m.i, m.a, m.b, m.m, q.J)
		} else {
			// No neighbourhood: the nearest node across the boundary.
			j, dj := -1, 0.0
			for t, c := range s.st.Labels {
				if err := s.poll(1 + s.d); err != nil {
					return nil, err
				}
				if c != m.b || t == m.i || s.kn.implied(m.i, t) || s.pairs[clKey(m.i, t)] {
					continue
				}
				if dd := dist2(s.row(m.i), s.row(t)); j < 0 || dd < dj || (dd == dj && s.rank[t] < s.rank[j]) {
					j, dj = t, dd
				}
			}
			if j < 0 {
				continue
			}
			q.J = j
			q.Why = fmt.Sprintf("node %d lies between clusters %d and %d (k-means margin %.3g): is it with node %d, its nearest node in cluster %d?", m.i, m.a, m.b, m.m, j, m.b)
		}
		s.pairs[clKey(q.I, q.J)] = true
		s.asked[q.I] = true
		qs = append(qs, q)
	}
	return qs, nil
}

// similarity is the Similarity strategy (documented on Similarity).
func (s *suggester) similarity(count int) ([]Question, error) {
	if s.st.SigmaML <= 0 {
		return nil, fmt.Errorf("%w: the similarity strategy needs State.SigmaML > 0 (FGPWC's σ_m)", ErrInvalid)
	}
	ms, _, err := s.margins("similarity")
	if err != nil {
		return nil, err
	}
	// Partners: neighbourhood representatives and cluster cores.
	var partners []int
	for _, l := range s.kn.nbhd {
		partners = append(partners, s.kn.rep[l])
	}
	core, err := s.cores()
	if err != nil {
		return nil, err
	}
	for _, c := range core {
		if c >= 0 && !slices.Contains(partners, c) {
			partners = append(partners, c)
		}
	}
	type cand struct {
		i, j  int
		p, sc float64
	}
	var cs []cand
	for _, m := range ms[:min(len(ms), max(32, 4*count))] {
		if err := s.poll(1 + len(partners)*(s.d+1)); err != nil {
			return nil, err
		}
		best := cand{i: m.i, j: -1}
		for _, j := range partners {
			if j == m.i || s.kn.implied(m.i, j) {
				continue
			}
			p := math.Exp(-dist2(s.row(m.i), s.row(j)) / s.st.SigmaML)
			if sc := math.Abs(p - 0.5); best.j < 0 || sc < best.sc || (sc == best.sc && s.rank[j] < s.rank[best.j]) {
				best.j, best.p, best.sc = j, p, sc
			}
		}
		if best.j >= 0 {
			cs = append(cs, best)
		}
	}
	slices.SortFunc(cs, func(x, y cand) int {
		if c := cmp.Compare(x.sc, y.sc); c != 0 {
			return c
		}
		return cmp.Compare(s.rank[x.i], s.rank[y.i])
	})
	var qs []Question
	for _, c := range cs {
		if len(qs) == count {
			break
		}
		if s.pairs[clKey(c.i, c.j)] {
			continue
		}
		s.pairs[clKey(c.i, c.j)] = true
		qs = append(qs, Question{I: c.i, J: c.j, Score: c.sc,
			Why: fmt.Sprintf("the learned similarity of nodes %d and %d is %.2f: the model is unsure", c.i, c.j, c.p)})
	}
	return qs, nil
}

// enumerateBelow: with at most this many pairs, Random lists them all
// instead of sampling by rejection.
const enumerateBelow = 1 << 16

// random is the Random strategy: uniform pairs among those neither
// answered nor implied, distinct. With more than 2¹⁶ pairs it samples by
// rejection, giving up after 64·count + 1024 draws (only when almost every
// pair is implied).
func (s *suggester) random(count int) ([]Question, error) {
	rnd := rand.New(rand.NewPCG(s.seed, streamRandom))
	mk := func(i, j int) Question {
		return Question{I: i, J: j, Why: fmt.Sprintf("a random pair (%d, %d): the baseline", i, j)}
	}
	var qs []Question
	if total := s.n * (s.n - 1) / 2; total <= enumerateBelow {
		var all [][2]int
		for i := 0; i < s.n; i++ {
			for j := i + 1; j < s.n; j++ {
				if !s.kn.implied(i, j) {
					all = append(all, [2]int{i, j})
				}
			}
		}
		for t := 0; t < min(count, len(all)); t++ {
			u := t + rnd.IntN(len(all)-t)
			all[t], all[u] = all[u], all[t]
			qs = append(qs, mk(all[t][0], all[t][1]))
		}
		return qs, nil
	}
	seen := map[[2]int]bool{}
	for tries := 0; len(qs) < count && tries < 64*count+1024; tries++ {
		if err := s.poll(1); err != nil {
			return nil, err
		}
		i, j := rnd.IntN(s.n), rnd.IntN(s.n)
		if i == j || s.kn.implied(i, j) || seen[clKey(i, j)] {
			continue
		}
		seen[clKey(i, j)] = true
		qs = append(qs, mk(min(i, j), max(i, j)))
	}
	return qs, nil
}
